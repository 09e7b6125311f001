"""The pass engine (``core/rosenblatt/engine.py``) and its driver: the twins agree, every
variant is the naive loop it claims, the bound is honest, overflow raises, nothing is allocated
by the size of a bound, and the compiled engine survives a compile cache it cannot write."""

import importlib
import math
import subprocess
import sys
import textwrap
import tracemalloc

import numpy as np
import pytest
from mxnet import nd

import gluon_perceptron as gp
from gluon_perceptron.core import _checks
from gluon_perceptron.core.rosenblatt.traced import run_online

kernel = importlib.import_module("gluon_perceptron.core.rosenblatt.engine")
twin = importlib.import_module("gluon_perceptron.core.fast.training_fast")


def _data(seed, kind="noisy", n=80, d=3, dtype=np.float64):
    rng = np.random.default_rng(seed)
    if kind == "integer":
        X = rng.integers(0, 9, size=(n, d)).astype(float)
        Y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    else:
        X = rng.standard_normal((n, d))
        Y = np.where(X @ rng.standard_normal(d) + 0.2 > 0, 1.0, -1.0)
        if kind == "noisy":
            Y[rng.random(n) < 0.2] *= -1
    return X.astype(dtype), Y.astype(dtype)


def _naive(X, Y, epochs, eta=1.0, delta=0.0, guard=True, radius=None, orders=None,
           decay=0.0):
    """The rule written out step by step; returns the theta after every step of every pass
    and the updates per pass (stopping after a pass without an update, when guarded)."""
    A = Y[:, None] * np.hstack([X, np.ones((len(Y), 1))])
    theta = np.zeros(A.shape[1])
    steps, per_epoch = [], []
    for e in range(epochs):
        made = 0
        step = eta / (e + 1) ** decay
        for i in (range(len(Y)) if orders is None else orders[e]):
            if not guard or A[i] @ theta <= delta:
                theta = theta + step * A[i]
                made += 1
                if radius is not None and np.linalg.norm(theta) > radius:
                    theta = theta * (radius / np.linalg.norm(theta))
            steps.append(theta.copy())
        per_epoch.append(made)
        if guard and made == 0:
            break
    return np.array(steps), per_epoch


# --- the twins agree exactly --------------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("kind", ["noisy", "separable", "integer"])
def test_numpy_compiled_lockstep_and_faithful_twins_agree(dtype, kind):
    for s in range(3):
        X, Y = _data(s, kind, dtype=dtype)
        runs = [gp.train(X, Y, max_epochs=6, engine="faithful")]
        for backend in (["compiled", "numpy"] if kernel.numba is not None else ["numpy"]):
            w, b = np.zeros(X.shape[1], dtype), np.zeros(1, dtype)
            per_epoch = twin._fast_run(X, Y, w, b, 6, 1.0, 0.0, backend=backend)
            runs.append(gp.TrainResult(w, float(b[0]), sum(per_epoch), per_epoch,
                                       per_epoch[-1] == 0))
        if s == 0:  # the NDArray lockstep loop costs ~0.5 s a run: one dataset per case
            runs.append(gp.train_batched(X, Y[None, :], max_epochs=6, engine="faithful")[0])
        for run in runs[1:]:
            assert run.updates_per_epoch == runs[0].updates_per_epoch
            assert run.w.dtype == runs[0].w.dtype
            np.testing.assert_array_equal(run.w, runs[0].w)
            assert run.b == runs[0].b


def test_rows_visit_the_examples_in_that_order(backend):
    X, Y = _data(4)
    order = np.random.default_rng(0).permutation(len(Y))
    w1, b1 = np.zeros(3), np.zeros(1)
    twin._fast_run(X, Y, w1, b1, 5, 1.0, 0.0, rows=order)
    w2, b2 = np.zeros(3), np.zeros(1)
    twin._fast_run(X[order], Y[order], w2, b2, 5, 1.0, 0.0)
    np.testing.assert_array_equal(w1, w2)
    assert b1[0] == b2[0]


def test_fast_pass_is_one_pass_of_train(backend):
    X, Y = _data(5)
    w, b = np.zeros(3), np.zeros(1)
    made = [twin.fast_pass(X, Y, w, b, 0.5, 0.1) for _ in range(4)]
    ref = gp.train(X, Y, max_epochs=4, learning_rate=0.5, threshold=0.1)
    assert made == ref.updates_per_epoch
    np.testing.assert_array_equal(w, ref.w)


# --- every variant is the naive loop ---------------------------------------------------------

def test_traced_equals_the_naive_loop_with_decay_threshold_and_shuffle():
    X, Y = _data(6)
    for kwargs in ({}, {"decay": 1.0, "threshold": 0.5, "learning_rate": 0.7}):
        res = gp.rosenblatt.train_traced(X, Y, max_epochs=12, record=True, **kwargs)
        steps, per_epoch = _naive(X, Y, 12, eta=kwargs.get("learning_rate", 1.0),
                                  delta=kwargs.get("threshold", 0.0),
                                  decay=kwargs.get("decay", 0.0))
        assert res.updates_per_epoch == per_epoch
        np.testing.assert_allclose(np.append(res.w, res.b), steps[-1], rtol=1e-12, atol=1e-12)
    rng = np.random.default_rng(3)
    orders = [rng.permutation(len(Y)) for _ in range(12)]
    res = gp.rosenblatt.train_traced(X, Y, max_epochs=12, shuffle=True, seed=3)
    steps, per_epoch = _naive(X, Y, 12, orders=orders)
    assert res.updates_per_epoch == per_epoch
    np.testing.assert_allclose(np.append(res.w, res.b), steps[-1], atol=1e-12)


@pytest.mark.parametrize("shuffle", [False, True])
def test_averaged_equals_the_mean_of_the_naive_steps(shuffle):
    X, Y = _data(7)
    orders = None
    if shuffle:
        rng = np.random.default_rng(11)
        orders = [rng.permutation(len(Y)) for _ in range(9)]
    res = gp.train_averaged(X, Y, max_epochs=9, learning_rate=0.3, shuffle=shuffle, seed=11)
    steps, per_epoch = _naive(X, Y, 9, eta=0.3, orders=orders)
    assert res.updates_per_epoch == per_epoch
    np.testing.assert_allclose(np.append(res.w, res.b), steps.mean(axis=0), rtol=1e-10)


def test_projected_and_aggressive_equal_the_naive_loops():
    X, Y = _data(8)
    res = gp.rosenblatt.train_projected(X, Y, max_epochs=10, radius=1.5, learning_rate=0.5)
    steps, per_epoch = _naive(X, Y, 10, eta=0.5, radius=1.5)
    assert res.updates_per_epoch == per_epoch
    np.testing.assert_allclose(np.append(res.w, res.b), steps[-1], rtol=1e-12, atol=1e-12)
    res = gp.rosenblatt.train_aggressive(X, Y, max_epochs=4, learning_rate=0.5)
    steps, per_epoch = _naive(X, Y, 4, eta=0.5, guard=False)
    assert res.updates_per_epoch == per_epoch == [len(Y)] * 4 and not res.converged
    np.testing.assert_allclose(np.append(res.w, res.b), steps[-1], rtol=1e-12)


def test_pocket_equals_the_naive_ratchet():
    X, Y = _data(9, n=60)
    steps, per_epoch = _naive(X, Y, 15)
    A = Y[:, None] * np.hstack([X, np.ones((len(Y), 1))])
    errors = lambda th: np.mean(A @ th <= 0)  # noqa: E731
    pocket, best_run, best_error = np.zeros(4), 0, 1.0
    run, checked, previous = 0, False, np.zeros(4)
    for th in steps:
        if not np.array_equal(th, previous):  # an update: new weights, a new run
            run, checked, previous = 0, False, th
            continue
        run += 1
        if run > best_run and not checked:
            checked = True
            if errors(th) < best_error:
                pocket, best_run, best_error = th, run, errors(th)
    res = gp.train_pocket(X, Y, max_epochs=15)
    assert res.updates_per_epoch == per_epoch
    np.testing.assert_array_equal(np.append(res.w, res.b), pocket)
    assert res.history["error"][-1] == best_error


@pytest.mark.parametrize("rule", ["perceptron", "aggressive"])
def test_run_online_equals_the_naive_loop(rule):
    X, Y = _data(10)
    run = run_online(X, Y, rule=rule, learning_rate=0.5)
    steps, _ = _naive(X, Y, 1, eta=0.5, guard=rule == "perceptron")
    np.testing.assert_allclose(run.thetas, steps, rtol=1e-12, atol=1e-12)
    A = Y[:, None] * np.hstack([X, np.ones((len(Y), 1))])
    before = np.vstack([np.zeros(4), steps[:-1]])
    np.testing.assert_allclose(run.margins, np.sum(A * before, axis=1), rtol=1e-9, atol=1e-12)
    np.testing.assert_array_equal(run.mistakes, run.margins <= 0)
    np.testing.assert_array_equal(run.w, run.thetas[-1, :-1])


def test_update_path_equals_the_naive_loop_without_bias():
    X, _ = _data(11)
    Y = np.where(X @ np.array([1.0, -2.0, 0.5]) > 0, 1.0, -1.0)  # separable through 0
    path = gp.rosenblatt.update_path(X, Y, max_epochs=50, bias=False, threshold=0.2)
    theta, visited, examples = np.zeros(3), [np.zeros(3)], []
    for _ in range(50):
        made = 0
        for i in range(len(Y)):
            if Y[i] * (X[i] @ theta) <= 0.2:
                theta = theta + Y[i] * X[i]
                visited.append(theta)
                examples.append(i)
                made += 1
        if made == 0:
            break
    np.testing.assert_allclose(path.thetas, visited, atol=1e-12)
    np.testing.assert_array_equal(path.examples, examples)
    assert path.converged and path.b == 0.0


def test_shuffle_is_reproducible_and_default_keeps_data_order():
    X, Y = _data(12)
    a = gp.train_pocket(X, Y, max_epochs=8, shuffle=True, seed=5)
    b = gp.train_pocket(X, Y, max_epochs=8, shuffle=True, seed=5)
    assert a.updates_per_epoch == b.updates_per_epoch
    np.testing.assert_array_equal(a.w, b.w)
    plain = gp.train(X, Y, max_epochs=8)
    assert gp.train_pocket(X, Y, max_epochs=8).updates_per_epoch == plain.updates_per_epoch
    assert gp.rosenblatt.train_traced(X, Y, max_epochs=8, seed=5).updates_per_epoch == \
        plain.updates_per_epoch  # a seed without shuffle changes nothing
    with pytest.raises(TypeError, match="shuffle"):
        gp.train_averaged(X, Y, max_epochs=2, shuffle="yes")
    with pytest.raises(ValueError, match="seed"):
        gp.rosenblatt.train_projected(X, Y, max_epochs=2, radius=1.0, shuffle=True, seed=-1)


# --- the driver -------------------------------------------------------------------------------

def test_the_bound_is_reported_not_converged():
    X, Y = gp.xor_data()
    for run in (gp.train(X, Y, max_epochs=7), gp.train(X, Y, max_epochs=7, engine="faithful"),
                gp.train_batched(X, Y[None], max_epochs=7)[0],
                gp.train_batched(X, Y[None], max_epochs=7, engine="faithful")[0],
                gp.rosenblatt.train_traced(X, Y, max_epochs=7), gp.train_pocket(X, Y, max_epochs=7),
                gp.train_averaged(X, Y, max_epochs=7),
                gp.rosenblatt.train_projected(X, Y, max_epochs=7, radius=10.0),
                gp.rosenblatt.train_aggressive(X, Y, max_epochs=7)):
        assert run.epochs == 7 and not run.converged and run.updates_per_epoch[-1] > 0
    path = gp.rosenblatt.update_path(X, Y, max_epochs=7)
    assert path.epochs == 7 and not path.converged


def test_driver_runs_compiled_passes_in_chunks(backend):
    X, Y = gp.xor_data()
    res = gp.train(X, Y, max_epochs=3 * twin._CHUNK + 5)
    assert res.epochs == 3 * twin._CHUNK + 5 and res.updates_per_epoch == [4] * res.epochs


def test_no_allocation_by_the_size_of_the_bound(backend):
    X, Y = _data(13, "separable", n=200)
    gp.train(X, Y, max_epochs=10)  # warm up (compile or load the cache)
    tracemalloc.start()
    try:
        res = gp.train(X, Y, max_epochs=10**9)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert res.converged
    assert peak < 1e6  # an array of max_epochs counts would be 8e9 bytes


# --- overflow ---------------------------------------------------------------------------------

_SEP = _data(14, "separable", n=50)

OVERFLOWING = {
    "train huge X": lambda: gp.train(_SEP[0] * 1e307, _SEP[1], max_epochs=10),
    "train huge rate": lambda: gp.train(*_SEP, max_epochs=10, learning_rate=1e308),
    "train numpy": lambda: twin._fast_run(_SEP[0] * 1e307, _SEP[1], np.zeros(3), np.zeros(1),
                                            10, 1.0, 0.0, backend="numpy"),
    "train faithful": lambda: gp.train(_SEP[0] * 1e307, _SEP[1], max_epochs=3,
                                       engine="faithful"),
    "float32": lambda: gp.train((_SEP[0] * 1e37).astype(np.float32), _SEP[1], max_epochs=10),
    "batched": lambda: gp.train_batched(_SEP[0] * 1e307, _SEP[1][None], max_epochs=10),
    "lockstep": lambda: gp.train_batched(_SEP[0] * 1e307, _SEP[1][None], max_epochs=3,
                                         engine="faithful"),
    "traced": lambda: gp.rosenblatt.train_traced(_SEP[0] * 1e307, _SEP[1], max_epochs=10),
    "pocket": lambda: gp.train_pocket(*_SEP, max_epochs=10, learning_rate=1e308),
    "averaged": lambda: gp.train_averaged(_SEP[0] * 1e307, _SEP[1], max_epochs=10),
    "projected": lambda: gp.rosenblatt.train_projected(_SEP[0] * 1e307, _SEP[1], max_epochs=10,
                                                       radius=1e308),
    "aggressive": lambda: gp.rosenblatt.train_aggressive(_SEP[0] * 1e307, _SEP[1], max_epochs=10),
    "online": lambda: run_online(_SEP[0] * 1e307, _SEP[1]),
    "update_path": lambda: gp.rosenblatt.update_path(_SEP[0] * 1e307, _SEP[1], max_epochs=10),
}


@pytest.mark.parametrize("name", sorted(OVERFLOWING))
def test_overflow_raises_and_says_what_to_do(name, backend):
    with pytest.raises(ValueError, match="overflowed") as info:
        OVERFLOWING[name]()
    message = str(info.value)
    # update_path steps by 1: its advice names w0, never a learning rate it does not take
    knob = "w0" if name == "update_path" else "learning_rate"
    assert knob in message and "Scale the data" in message
    assert name != "update_path" or "learning_rate" not in message


def test_a_nan_margin_is_not_a_correct_prediction():
    w, b = np.array([np.inf, 0.0]), np.zeros(1)
    X = np.array([[0.0, 1.0], [1.0, 1.0]])
    with np.errstate(invalid="ignore"):
        assert twin._numpy_epoch(X, np.ones(2), w, b, 1.0, 0.0) == -1  # 0 * inf is NaN


# --- input checked once ------------------------------------------------------------------------

@pytest.mark.parametrize("trainer", ["train", "train_pocket", "train_averaged", "train_traced",
                                     "train_aggressive", "update_path"])
def test_a_trainer_checks_its_data_once(trainer, monkeypatch):
    calls = []
    original = _checks.features
    monkeypatch.setattr(_checks, "features", lambda X, *a: calls.append(1) or original(X, *a))
    X, Y = _data(15, n=100, d=2)
    getattr(gp.rosenblatt, trainer)(X, Y, max_epochs=10)
    assert len(calls) == 1  # at the edge; the package's own calls (error_rate, ...) trust it


def test_the_faithful_engine_skips_the_per_step_checks(monkeypatch):
    calls = []
    original = _checks.finite_float
    monkeypatch.setattr(_checks, "finite_float", lambda *a, **k: calls.append(a[1]) or
                        original(*a, **k))
    X, Y = _data(16, n=20, d=2)
    gp.train(X, Y, max_epochs=3, engine="faithful")
    assert len(calls) <= 4  # learning_rate, threshold and b0, once each, at the edge
    w, b = nd.zeros((2,)), nd.zeros((1,))
    gp.perceptron(w, b, nd.array([1.0, 2.0]), 1)  # the public step still checks its arguments
    with pytest.raises(ValueError, match="learning_rate"):
        gp.perceptron(w, b, nd.array([1.0, 2.0]), 1, learning_rate=math.nan)


# --- numba's compile cache --------------------------------------------------------------------

def _python(code: str, **env) -> subprocess.CompletedProcess:
    import os

    return subprocess.run([sys.executable, "-W", "always::RuntimeWarning", "-c", code],
                          capture_output=True, text=True, timeout=300, env={**os.environ, **env})


_TRAIN = textwrap.dedent("""
    import numpy as np
    import gluon_perceptron as gp
    r = gp.train(np.array([[1.0, 2.0], [-1.0, -1.5], [2.0, 0.5]]), [1, -1, 1], max_epochs=20)
    assert r.converged, r
    from gluon_perceptron.core.rosenblatt import engine as kernel
    print("backend", kernel.FAST_BACKEND)
""")

#: The same training through ``train``'s twin (``core/fast/training_fast.py``, which
#: ``train(engine="fast")`` hands its checked arguments to, and which
#: ``tests/core/fast/test_training_fast.py`` holds to ``train``'s loop bit for bit): only the
#: twins touch numba's cache, and without the NDArray trainer's module the process does not
#: import MXNet (1.3 CPU-s a process).
_TRAIN_TWIN = textwrap.dedent("""
    import numpy as np
    from gluon_perceptron.core.fast import training_fast
    X, Y = np.array([[1.0, 2.0], [-1.0, -1.5], [2.0, 0.5]]), np.array([1.0, -1.0, 1.0])
    r = training_fast.train(X, Y, max_epochs=20)
    assert r.converged, r
    from gluon_perceptron.core.rosenblatt import engine as kernel
    print("backend", kernel.FAST_BACKEND)
""")


def test_no_cache_locator_falls_back_to_compiling_without_cache(tmp_path):
    if importlib.util.find_spec("numba") is None:
        pytest.skip("numba is not installed")
    # what numba does where no cache folder is writable: no locator applies
    done = _python(textwrap.dedent("""
        from numba.core import caching
        caching.CacheImpl._locator_classes = []
    """) + _TRAIN_TWIN, HOME=str(tmp_path / "missing"))
    assert done.returncode == 0, done.stderr
    assert "backend compiled" in done.stdout
    assert done.stderr.count("cannot cache compiled code") == 1  # warned once, not per function


def test_unwritable_cache_dir_still_trains(tmp_path):
    blocker = tmp_path / "a_file"
    blocker.write_text("")
    done = _python(_TRAIN_TWIN, NUMBA_CACHE_DIR=str(blocker / "cache"), HOME=str(blocker))
    assert done.returncode == 0, done.stderr


def test_numpy_backend_never_touches_numba():
    done = _python(_TRAIN + "\nimport sys\nprint('numba loaded', 'numba' in sys.modules)\n"
                   "import gc\ngc.freeze()  # a quicker exit: no final walk of MXNet's objects\n",
                   GLUON_PERCEPTRON_FAST="numpy")
    assert done.returncode == 0, done.stderr
    assert "backend numpy" in done.stdout and "numba loaded False" in done.stdout
