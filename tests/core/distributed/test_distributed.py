"""The perceptron on many machines: iterative parameter mixing and Gluon SGD on MXNet's KVStore.

Every cluster binds 127.0.0.1 only; every process a test starts is stopped by its PID, and the
``no_children_left`` fixture checks (and, if needed, kills by PID) after every test that no
child process of this test process survives. Clusters are few and share work (several jobs per
cluster), so the file stays under a minute on two cores.
"""

import os
import signal
import sys

import numpy as np
import pytest
from procfs import alive, no_children_left  # noqa: F401 - an autouse fixture

import gluon_perceptron as gp
from gluon_perceptron.core._validation import MIXINGS
from gluon_perceptron.core.distributed import cluster_training, launcher, mixing
from gluon_perceptron.core.distributed.launcher import DistributedError, DistributedTimeout
from gluon_perceptron.core.distributed.sharded_gluon import (
    train_gluon_distributed,
    train_gluon_sharded,
)


def _data(kind: str, seed: int):
    rng = np.random.default_rng(seed)
    if kind == "getfake":
        fake = gp.sample_separable(120, 4, 0.1, seed=seed)  # the chapter's data, float32
        return fake.X.asnumpy(), fake.Y.asnumpy()
    if kind == "float64":
        X = rng.normal(size=(150, 6))
        Y = np.where(X @ rng.normal(size=6) + 0.2 > 0, 1.0, -1.0)
        return X, Y
    X = rng.normal(size=(90, 3))  # noisy: not separable
    Y = np.where(X[:, 0] + 0.3 * rng.normal(size=90) > 0, 1.0, -1.0)
    return X, Y


DATASETS = [("getfake", 1, None), ("float64", 2, None), ("noisy", 3, 15)]


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    """Bit for bit, dtype and shape included."""
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def _assert_same_run(d, m):
    assert _same(d.w, m.w) and np.float64(d.b).tobytes() == np.float64(m.b).tobytes()
    assert d.updates_per_epoch == m.updates_per_epoch
    assert d.converged == m.converged
    if hasattr(m, "shard_updates"):
        assert _same(d.shard_updates, m.shard_updates)
        np.testing.assert_array_equal(d.mixing_weights, m.mixing_weights)


# ---------------------------------------------------------------- in one process: the algorithm

@pytest.mark.parametrize("kind,seed,max_epochs", DATASETS)
def test_train_mixed_with_one_shard_is_train(kind, seed, max_epochs):
    X, Y = _data(kind, seed)
    for mix in MIXINGS:
        m = gp.distributed.train_mixed(X, Y, shards=1, max_epochs=max_epochs or 1000, mixing=mix)
        t = gp.train(X, Y, max_epochs=max_epochs or 1000)
        _assert_same_run(m, t)
        assert m.converged == (max_epochs is None)


def test_mixing_weights_are_convex_and_mixing_separates():
    X, Y = _data("float64", 4)
    for shards in (2, 3, 5):
        for mix in MIXINGS:
            m = gp.distributed.train_mixed(X, Y, shards=shards, mixing=mix)
            assert m.converged and gp.error_rate(m.w, m.b, X, Y) == 0
            mu = m.mixing_weights[:-1]
            np.testing.assert_allclose(mu.sum(axis=1), 1.0)
            assert np.all(mu >= 0) and np.all(m.mixing_weights[-1] == 0)  # nothing mixed
            if mix == "weighted":
                np.testing.assert_allclose(mu, m.shard_updates[:-1] /
                                           m.shard_updates[:-1].sum(axis=1, keepdims=True))
            assert m.shard_updates.shape == (m.epochs, shards)
            assert m.updates == m.shard_updates.sum()


def test_mixing_bound_holds_on_getfake_data():
    """McDonald et al.'s Theorem 3 over 12 getfake draws, W = 1, 2, 4, both mixings:
    sum mu k <= R^2/gamma^2; uniform: updates <= W R^2/gamma^2; weighted: rounds with
    mistakes <= R^2/gamma^2."""
    for seed in range(12):
        fake = gp.sample_separable(80, 3, 0.05, seed=seed)
        om = gp.theory.optimal_margin(fake.X, fake.Y)
        bound = om.radius ** 2 / om.gamma ** 2
        for shards in (1, 2, 4):
            for mix in MIXINGS:
                m = gp.distributed.train_mixed(fake.X, fake.Y, shards=shards, mixing=mix)
                assert m.converged
                assert m.mixed_mistakes <= bound
                if mix == "uniform":
                    assert m.updates <= shards * bound
                else:
                    assert m.epochs - 1 <= bound


def test_rows_survive_the_server_bit_for_bit():
    rows = np.array([[1.1, -0.0, np.pi, 1e-310], [np.inf, -2.5, 0.0, 7.0]])
    for dtype in (np.float32, np.float64):
        r = rows.astype(dtype)
        pieces = mixing.encode_rows(r)
        assert pieces.dtype == np.float32 and np.all(pieces == np.rint(pieces))
        assert np.all((0 <= pieces) & (pieces < 2 ** 16))
        # the server adds the other workers' zeros: exact on integers below 2**24
        assert _same(mixing.decode_rows(pieces + np.float32(0.0), dtype), r)


def test_shards_cover_the_data_in_order():
    for n, s in [(10, 3), (7, 7), (100, 4), (5, 1)]:
        bounds = gp.distributed.shard_bounds(n, s)
        assert bounds[0][0] == 0 and bounds[-1][1] == n and len(bounds) == s
        assert all(a < b for a, b in bounds)
        assert all(bounds[i][1] == bounds[i + 1][0] for i in range(s - 1))
        assert max(b - a for a, b in bounds) - min(b - a for a, b in bounds) <= 1


# ------------------------------------------------------------------------- bad input, no launch

def test_every_public_function_declares_its_rules():
    """Each public function of ``gp.distributed`` declares a rule for every parameter (checked
    once, at the edge; nested calls trust them), and the private trusted twins are gone."""
    import inspect

    from gluon_perceptron.core.distributed import sharded_gluon

    functions = {name: getattr(gp.distributed, name) for name in gp.distributed.__all__
                 if inspect.isfunction(getattr(gp.distributed, name))}
    assert set(functions) == {"launch_cluster", "mixing_round", "read_hostfile", "shard_bounds",
                              "train_distributed", "train_gluon_distributed",
                              "train_gluon_sharded", "train_mixed"}
    for name, function in functions.items():
        rules = getattr(function, "__rules__", None)
        assert rules is not None, f"{name} declares no rules (use @validate_params)"
        assert set(rules) == set(inspect.signature(function).parameters), name
    # a user starting a cluster by hand calls write_task: its arguments are checked there
    assert set(cluster_training.write_task.__rules__) == {"task_dir", "shards", "max_epochs",
                                                          "mixing", "learning_rate"}
    twins = {mixing: ("_train_mixed", "_train_mixed_files", "_train_parts", "_shard_bounds",
                      "check_mixing_arguments", "check_shard_arguments", "_rounds_left"),
             sharded_gluon: ("_check", "_train_gluon_sharded")}
    for module, names in twins.items():
        left = [n for n in names if hasattr(module, n)]
        assert not left, f"{module.__name__} still has {left}"


def test_nested_calls_trust_their_arguments(monkeypatch):
    """Inside a checked call, the package's own calls run unchecked: one outer check each."""
    from gluon_perceptron.core import _validation

    calls = []
    check = _validation._check_call
    monkeypatch.setattr(_validation, "_check_call",
                        lambda f, *a: calls.append(f.__name__) or check(f, *a))
    X, Y = _data("float64", 2)
    gp.distributed.train_mixed(X, Y, shards=3, max_epochs=5)  # calls shard_bounds inside
    assert calls == ["train_mixed"]


def test_one_round_is_the_mixing_update():
    """``mixing_round`` is McDonald, Hall & Mann's update: every shard's pass from theta, then
    the mu-weighted sum (uniform 1/S, or k_i / sum k)."""
    from gluon_perceptron.core.fast.training_fast import fast_pass

    X, Y = _data("float64", 5)
    parts = [(X[a:b].copy(), Y[a:b].copy()) for a, b in gp.distributed.shard_bounds(150, 3)]
    theta = np.zeros(X.shape[1] + 1)
    for mix in MIXINGS:
        rows, new, mu, k = gp.distributed.mixing_round(theta, parts, mixing=mix)
        thetas, ks = [], []
        for Xs, Ys in parts:
            w, b = np.zeros(X.shape[1]), np.zeros(1)
            ks.append(fast_pass(Xs, Ys, w, b, 1.0, 0.0))
            thetas.append(np.concatenate([w, b]))
        mus = np.full(3, 1 / 3) if mix == "uniform" else np.array(ks) / sum(ks)
        assert list(k) == ks and np.allclose(mu, mus)
        assert np.allclose(new, sum(m * t for m, t in zip(mus, thetas)), rtol=1e-12)


def test_a_shard_whose_labels_miss_a_row_names_both_parts_of_its_pair():
    """The refusal names the shard's features and labels, not an ``X`` the caller never
    passed (it read "X and shards[1][1]")."""
    X, Y = _data("float64", 5)
    parts = [(X[:10], Y[:10]), (X[10:20], Y[10:19])]
    with pytest.raises(ValueError, match=r"^shards\[1\]\[0\] and shards\[1\]\[1\] must have "
                                         r"the same length: shards\[1\]\[0\] has 10 examples"):
        gp.distributed.mixing_round(np.zeros(X.shape[1] + 1), parts)


@pytest.mark.parametrize("kwargs,match", [
    ({"workers": 0}, "workers"),
    ({"workers": 200}, "only 150 examples"),
    ({"mixing": "average"}, "mixing"),
    ({"timeout": 0}, "timeout"),
    ({"servers": 0}, "servers"),
    ({"learning_rate": -1.0}, "learning_rate"),
    ({"max_epochs": 0}, "max_epochs"),
    ({"round_timeout": 0}, "round_timeout"),
    ({"round_timeout": float("nan")}, "round_timeout"),
    ({"servers": 10**6}, "MAX_PROCESSES_PER_CORE"),
])
def test_bad_input_is_refused_before_any_process_starts(kwargs, match, monkeypatch):
    started = []
    monkeypatch.setattr(launcher.subprocess, "Popen", lambda *a, **k: started.append(a))
    X, Y = _data("float64", 2)
    with pytest.raises(ValueError, match=match):
        gp.distributed.train_distributed(X, Y, **{"max_epochs": 5, **kwargs})
    assert not started


@pytest.mark.parametrize("rate", [1e-45, 1e-39, 1e39])
def test_rates_gluons_sgd_cannot_use_are_refused_before_any_process_starts(rate, monkeypatch):
    """MXNet takes the rate as float32: below its smallest normal number the rate became 0 and
    ``train_gluon_sharded`` returned the zero weights as if trained (1e-45: w = [0, 0])."""
    started = []
    monkeypatch.setattr(launcher.subprocess, "Popen", lambda *a, **k: started.append(a))
    X, Y = _data("float64", 2)
    for trainer, kwargs in ((train_gluon_sharded, {"shards": 2}),
                            (train_gluon_distributed, {"workers": 2})):
        with pytest.raises(ValueError, match="learning_rate=.*outside what Gluon's SGD"):
            trainer(X, Y, max_epochs=2, learning_rate=rate, **kwargs)
    assert not started


def test_the_cluster_lists_are_non_empty_lists_of_their_items():
    """``items`` (the rule of ``worker_command``, ``hosts`` and a ``remote`` template): a
    non-empty list or tuple of its kinds, a list back, each item through ``each``; anything
    else is a TypeError naming the argument and what it holds."""
    from gluon_perceptron.core.distributed import hostlist, limits

    assert limits.COMMAND(("python", "-c"), "worker_command", {}) == ["python", "-c"]
    assert hostlist.HOSTS(["198.18.0.2", ("b", "198.18.0.3")], "hosts", {}) == [
        hostlist.Host("198.18.0.2", "198.18.0.2"), hostlist.Host("b", "198.18.0.3")]
    for bad in ("python", [], ["python", 3], None, {"python": 1}):
        with pytest.raises(TypeError, match=r"worker_command must be a non-empty list of "
                                            r"strings \(a command line"):
            limits.COMMAND(bad, "worker_command", {})
    with pytest.raises(TypeError, match="hosts must be a non-empty list of hosts"):
        hostlist.HOSTS("198.18.0.2", "hosts", {})
    with pytest.raises(ValueError, match="hosts: 3 is not 'ADDRESS'"):
        hostlist.HOSTS([3], "hosts", {})
    with pytest.raises(TypeError, match=r"remote must be a non-empty list of strings such as"):
        hostlist.REMOTE(["ssh", 3], "remote", {})
    assert hostlist.REMOTE(["x", "{host}", "{argv}"], "remote", {}) == ["x", "{host}", "{argv}"]


def test_non_separable_data_needs_max_epochs(monkeypatch):
    started = []
    monkeypatch.setattr(launcher.subprocess, "Popen", lambda *a, **k: started.append(a))
    X, Y = _data("noisy", 3)
    with pytest.raises(ValueError, match="not linearly separable.*max_epochs"):
        gp.distributed.train_distributed(X, Y, workers=2)
    with pytest.raises(ValueError, match="not linearly separable"):
        gp.distributed.train_mixed(X, Y, shards=2)
    with pytest.raises(ValueError, match="shards"):
        gp.distributed.train_mixed(X, Y, shards=0, max_epochs=3)
    with pytest.raises(ValueError, match="batch_size"):
        train_gluon_distributed(X, Y, workers=2, batch_size=100, max_epochs=1)
    assert not started


def test_the_declared_rules_name_the_argument_and_the_fix(monkeypatch, tmp_path):
    """The rules built with ``such_that`` keep their messages, before any process starts."""
    started = []
    monkeypatch.setattr(launcher.subprocess, "Popen", lambda *a, **k: started.append(a))
    X, Y = np.ones((4, 2)), np.array([1.0, -1.0, 1.0, -1.0])
    with pytest.raises(ValueError, match=r"shards=2 shards of 4 examples hold fewer than "
                                         r"batch_size=3 examples each; use a smaller"):
        train_gluon_sharded(X, Y, shards=2, batch_size=3, max_epochs=1)
    train_gluon_sharded(X, Y, shards=2, batch_size=2, max_epochs=1)  # a full batch per shard
    with pytest.raises(ValueError, match=r"X must fit in float32 .* beyond float32's .* rescale X"):
        train_gluon_distributed(X * 1e39, Y, workers=2, max_epochs=1)
    with pytest.raises(ValueError, match=r"cwd '.*nowhere' is not an existing folder; give"):
        launcher.launch_cluster([sys.executable, "-c", "pass"], workers=1, timeout=5.0,
                                log_dir=tmp_path, cwd=tmp_path / "nowhere")
    assert not started


def test_the_children_never_import_mxnet_by_importing_their_modules():
    """A scheduler or server child runs ``node`` (or ``lifeline`` then ``import mxnet``, the
    Gluon servers) with ``DMLC_ROLE`` set, so importing MXNet there is what turns it into a
    node: their modules must not import it on their own. (The launcher itself imports MXNet,
    for its argument rules, in the calling process, which holds no role.)"""
    import subprocess

    code = ("import sys, gluon_perceptron.core.distributed.node, "
            "gluon_perceptron.core.distributed.lifeline, "
            "gluon_perceptron.core.distributed.worker; print('mxnet' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "False"
    assert launcher.libmxnet_path().endswith("libmxnet.so")
    env = launcher.cluster_environment("server", port=1234, workers=2, servers=1,
                                       base={"DMLC_INTERFACE": "eth0", "PATH": "/bin"})
    assert env["DMLC_NODE_HOST"] == env["DMLC_PS_ROOT_URI"] == "127.0.0.1"
    assert "DMLC_INTERFACE" not in env and env["PATH"] == "/bin"
    assert env["OMP_NUM_THREADS"] == "1"  # a node's default, kept where the user set one
    assert launcher.cluster_environment("worker", port=1, workers=1, servers=1, base={
        "OMP_NUM_THREADS": "4"})["OMP_NUM_THREADS"] == "4"


def test_a_mixing_worker_runs_without_the_mxnet_package():
    """What a mixing worker imports (its pass, the rounds, the shards, the C KVStore) leaves
    ``mxnet`` out: it talks to the servers through libmxnet's C API (``c_kvstore``), and with
    small shards it makes numpy's pass, so numba stays out too."""
    import subprocess

    code = ("import os, sys; os.environ['GLUON_PERCEPTRON_FAST'] = 'numpy'; "
            "import gluon_perceptron.core.distributed.worker, "
            "gluon_perceptron.core.distributed.mixing, gluon_perceptron.core.distributed.shards, "
            "gluon_perceptron.core.distributed.c_kvstore, "
            "gluon_perceptron.core.fast.training_fast; "
            "print('mxnet' in sys.modules, 'numba' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "False False"


# ------------------------------------------------------------------------- clusters: equality

def test_one_worker_is_train_bit_for_bit():
    jobs = [(*_data(kind, seed), m, mix) for kind, seed, m in DATASETS
            for mix in MIXINGS]
    runs = cluster_training._train_distributed(jobs, workers=1, timeout=300)
    for (X, Y, m, _), d in zip(jobs, runs):
        _assert_same_run(d, gp.train(X, Y, max_epochs=m or 10_000))
        assert set(d.pids) == {"scheduler", "server 0", "worker 0"}
        assert not any(alive(pid) for pid in d.pids.values())


def test_two_and_three_workers_are_train_mixed_bit_for_bit():
    for workers in (2, 3):
        jobs = [(*_data(kind, seed), m, mix) for kind, seed, m in DATASETS
                for mix in MIXINGS]
        runs = cluster_training._train_distributed(jobs, workers=workers, timeout=300)
        for (X, Y, m, mix), d in zip(jobs, runs):
            _assert_same_run(d, gp.distributed.train_mixed(X, Y, shards=workers, max_epochs=m,
                                                           mixing=mix))
            assert sorted(d.ranks.values()) == list(range(workers))
            assert d.exchange_seconds.shape == d.pass_seconds.shape == (d.epochs, workers)
            assert np.all(d.exchange_seconds > 0)


def test_public_call_keeps_one_log_per_role(tmp_path):
    X, Y = _data("getfake", 5)
    d = gp.distributed.train_distributed(X, Y, workers=2, mixing="weighted", log_dir=tmp_path)
    _assert_same_run(d, gp.distributed.train_mixed(X, Y, shards=2, mixing="weighted"))
    assert d.converged and gp.error_rate(d.w, d.b, X, Y) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "scheduler.log", "server-0.log", "worker-0.log", "worker-1.log"]
    for index, rank in d.ranks.items():
        assert f"rank {rank} of 2" in (tmp_path / f"worker-{index}.log").read_text()
    assert not any(alive(pid) for pid in d.pids.values())
    assert "DMLC_ROLE" not in os.environ


def test_gluon_dist_sync_is_single_process_sgd():
    X, Y = _data("getfake", 6)
    d = train_gluon_distributed(X, Y, workers=2, batch_size=4, max_epochs=3,
                                learning_rate=0.5)
    ref = train_gluon_sharded(X, Y, shards=2, batch_size=4, max_epochs=3, learning_rate=0.5)
    np.testing.assert_allclose(d.w, ref.w, rtol=1e-5, atol=1e-6)
    assert d.b == pytest.approx(ref.b, rel=1e-5, abs=1e-6)
    assert d.updates_per_epoch == ref.updates_per_epoch
    np.testing.assert_array_equal(d.shard_updates.sum(axis=1), ref.shard_updates.sum(axis=1))
    # the trap: stepping by the local batch takes steps twice as long
    one = train_gluon_sharded(X, Y, shards=1, batch_size=8, max_epochs=1, learning_rate=0.5)
    assert not np.allclose(one.w, ref.w)


# ------------------------------------------------------------------------- clusters: failures

def _failing(log_dir, fault=None, on_started=None, timeout=300.0, max_epochs=200):
    X, Y = _data("noisy", 3)
    with pytest.raises(DistributedError) as info:
        cluster_training._train_distributed([(X, Y, max_epochs, "uniform")], workers=2,
                                    timeout=timeout, fault=fault, on_started=on_started,
                                    log_dir=log_dir)
    err = info.value
    assert not any(alive(pid) for pid in err.pids.values())
    assert len(err.pids) == 4
    return err


def test_a_worker_that_raises_is_named_with_its_traceback(tmp_path):
    err = _failing(tmp_path, fault={"rank": 1, "round": 2, "how": "raise"})
    assert not isinstance(err, DistributedTimeout)
    assert err.role.startswith("worker") and "exited with code 1" in str(err)
    assert "fault injected on purpose" in str(err) and err.log.exists()
    assert "Traceback" in err.log.read_text()


def test_a_worker_killed_with_sigkill_is_named(tmp_path):
    err = _failing(tmp_path, fault={"rank": 0, "round": 1, "how": "sigkill"})
    assert not isinstance(err, DistributedTimeout)
    assert err.role.startswith("worker") and "SIGKILL" in str(err)


def test_a_killed_server_is_named(tmp_path):
    err = _failing(tmp_path, on_started=lambda pids: os.kill(pids["server 0"], signal.SIGKILL))
    assert not isinstance(err, DistributedTimeout)
    assert err.role == "server 0" and "SIGKILL" in str(err) and "server-0.log" in str(err)
    assert err.log == tmp_path / "server-0.log"


def test_the_timeout_is_honoured(tmp_path):
    # 10**9 rounds would take hours: the call returns because the timeout stops it
    err = _failing(tmp_path, timeout=1.0, max_epochs=10 ** 9)
    assert isinstance(err, DistributedTimeout) and isinstance(err, TimeoutError)
    assert "did not finish within 1 s" in str(err)


def test_experiments_and_plots_of_mixing():
    import matplotlib.pyplot as plt

    X, Y = gp.experiments.hard_separable(600, 20, 0.1, seed=0)
    assert gp.theory.is_separable(X, Y) and X.dtype == np.float32 and X.shape == (600, 20)
    speed = gp.experiments.mixing_speedup(X, Y, workers=(1, 2), max_epochs=2000)
    assert speed.method[0] == "train" and all(speed.converged)
    assert speed.passes[1] == speed.passes[0] and speed.updates[1] == speed.updates[0]
    bound = gp.experiments.mixing_bound_experiment(samples=60, dimensions=3, trials=2,
                                                   workers=(1, 2))
    assert np.all(bound.ratio <= 1) and bound.workers.size == 2 * 2 * 2
    noisy = gp.experiments.nonseparable_mixing(samples=100, rounds=5, workers=(1, 2))
    assert noisy.error.shape == (2, 5) and noisy.flipped == pytest.approx(0.1)
    ax = gp.plots.plot_mixing_bound(bound)
    assert isinstance(ax, plt.Axes) and ax.lines
    axes = gp.plots.plot_mixing_speedup(speed)
    assert len(axes) == 2 and axes[0].lines and axes[1].patches
    assert gp.plots.plot_nonseparable_mixing(noisy).lines


def test_the_experiments_refuse_what_their_loops_cannot_do():
    """hard_separable's margin is at most 2.5 (beyond, about 1 % of its Gaussian candidates or
    fewer are kept: its loop would draw for ever); every worker count needs an example per
    shard; an epsilon no plane reaches is refused before anything is drawn."""
    X, Y = gp.experiments.hard_separable(20, 2, 2.5, seed=0)  # the largest margin: it ends
    assert X.shape == (20, 2) and set(np.unique(Y)) <= {-1.0, 1.0}
    with pytest.raises(ValueError, match=r"margin must be at most 2\.5 in size \(a larger one "
                                         r"keeps about 1 %"):
        gp.experiments.hard_separable(20, 2, 2.6)
    with pytest.raises(ValueError, match="workers=6 but there are only 5 examples"):
        gp.experiments.mixing_bound_experiment(samples=5, workers=(1, 6))
    with pytest.raises(ValueError, match="workers=13 but there are only 12 examples"):
        gp.experiments.mixing_speedup(X[:12], Y[:12], workers=(13,))
    for experiment in (gp.experiments.nonseparable_mixing, gp.experiments.mixing_bound_experiment):
        with pytest.raises(ValueError, match=r"epsilon must be at most 13 in size \(points have "
                                             r"norm < 3"):  # before the first draw
            experiment(epsilon=50.0, samples=20)
