"""Every fast twin (``gluon_perceptron/core/fast/``) is its readable loop, bit for bit.

The public trainer's body is the loop; ``engine="fast"`` (the default) hands the same arguments
to the twin. Here each twin is compared with the loop on data with ties (integer-valued: every
sum exact), noisy and separable floats, sparse rows, float32 and float64, shuffled orders, and
on input that overflows (the same error, word for word).
``tests/core/fast/test_training_fast.py`` holds ``train``'s twin to its loop and to scikit-learn;
``tests/project/test_reference_first.py`` checks that the loops are in the trainers' bodies.
"""

import numpy as np
import pytest
from test_training_fast import _faithful

import gluon_perceptron as gp
from gluon_perceptron.core.rosenblatt import engine as engine_module
from gluon_perceptron.core.rosenblatt import lockstep as lockstep_module
from gluon_perceptron.core.rosenblatt import multiclass, training
from gluon_perceptron.core.rosenblatt import traced as traced_module


def _dataset(seed, kind, dtype=np.float64, n=70, d=4):
    rng = np.random.default_rng(seed)
    if kind == "integer":  # pixels 0..8: every sum exact, ties frequent
        X = rng.integers(0, 9, size=(n, d)).astype(float)
        Y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    elif kind == "sparse":
        X = rng.random((n, d)) * (rng.random((n, d)) < 0.3)
        Y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    else:
        X = rng.standard_normal((n, d))
        Y = np.where(X @ rng.standard_normal(d) + 0.2 > 0, 1.0, -1.0)
        if kind == "noisy":  # never separable
            Y[rng.random(n) < 0.2] *= -1
    return X.astype(dtype), Y


def _assert_same(fast, readable):
    assert fast.updates_per_epoch == readable.updates_per_epoch
    assert fast.converged == readable.converged
    assert fast.w.dtype == readable.w.dtype
    np.testing.assert_array_equal(fast.w, readable.w)
    assert fast.b == readable.b
    assert fast.history.keys() == readable.history.keys()
    for key, trace in fast.history.items():
        if key == "weights":
            for (w1, b1), (w2, b2) in zip(trace, readable.history[key], strict=True):
                np.testing.assert_array_equal(w1, w2)
                assert b1 == b2
        else:
            assert trace == readable.history[key], key


def _both(trainer, *args, **kwargs):
    return trainer(*args, **kwargs), trainer(*args, engine="faithful", **kwargs)


def _both_backends(trainer, X, Y, **kwargs):
    """:func:`_both`, with the readable loop run once for each distinct input (it does not
    depend on the fast engine's backend: the second backend's case reads the first's run)."""
    return trainer(X, Y, **kwargs), _faithful(X, Y, trainer, **kwargs)


VARIANTS = {
    "pocket": (gp.train_pocket, {}),
    "averaged": (gp.train_averaged, {}),
    "projected": (gp.rosenblatt.train_projected, {"radius": 3.0}),
    "projected, a small ball": (gp.rosenblatt.train_projected, {"radius": 0.4}),
}

KINDS = ["integer", "noisy", "separable", "sparse"]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_a_variant_twin_is_its_loop(name, kind, dtype):
    trainer, extra = VARIANTS[name]
    for s in range(2):
        X, Y = _dataset(10 * s + len(kind), kind, dtype)
        for record in (False, True):
            fast, readable = _both(trainer, X, Y, max_epochs=12, learning_rate=0.7,
                                   record=record, **extra)
            _assert_same(fast, readable)
            assert fast.updates > 0


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_a_variant_twin_is_its_loop_on_shuffled_passes(name, kind):
    trainer, extra = VARIANTS[name]
    X, Y = _dataset(3, kind)
    for seed in (0, 7):
        _assert_same(*_both(trainer, X, Y, max_epochs=9, shuffle=True, seed=seed, record=True,
                            **extra))


@pytest.mark.parametrize("kind", KINDS)
def test_the_aggressive_twin_is_its_loop(kind):
    X, Y = _dataset(4, kind, np.float32)
    for record in (False, True):
        fast, readable = _both(gp.rosenblatt.train_aggressive, X, Y, max_epochs=5,
                               learning_rate=0.3, record=record)
        _assert_same(fast, readable)
        assert fast.updates_per_epoch == [len(Y)] * 5


def test_a_pocket_twin_with_the_ratchet_at_work():
    """Noisy data, shuffled, many passes: the pocket is replaced in later passes too (not
    settled after the first), and the twin keeps the same weights at the same steps."""
    X, Y = _dataset(3, "noisy", n=200, d=3)
    fast, readable = _both(gp.train_pocket, X, Y, max_epochs=40, record=True, shuffle=True,
                           seed=1)
    _assert_same(fast, readable)
    errors = fast.history["error"]
    assert all(a >= b for a, b in zip(errors, errors[1:]))  # the ratchet: never worse
    assert len(set(errors)) >= 3


# --- overflow: the same error, word for word ---------------------------------------------------

_SEP = _dataset(14, "separable", n=50)

OVERFLOWING = {
    "train, huge X": (gp.train, (_SEP[0] * 1e307, _SEP[1]), {"max_epochs": 4}),
    "train, huge rate": (gp.train, _SEP, {"max_epochs": 4, "learning_rate": 1e308}),
    "train, float32": (gp.train, ((_SEP[0] * 1e37).astype(np.float32), _SEP[1]),
                       {"max_epochs": 4}),
    "pocket, huge rate": (gp.train_pocket, _SEP, {"max_epochs": 10, "learning_rate": 1e308}),
    "pocket, huge X": (gp.train_pocket, (_SEP[0] * 1e307, _SEP[1]), {"max_epochs": 10}),
    "averaged": (gp.train_averaged, (_SEP[0] * 1e307, _SEP[1]), {"max_epochs": 10}),
    "projected": (gp.rosenblatt.train_projected, (_SEP[0] * 1e307, _SEP[1]),
                  {"max_epochs": 10, "radius": 1e308}),
    "aggressive, huge X": (gp.rosenblatt.train_aggressive, (_SEP[0] * 1e307, _SEP[1]),
                           {"max_epochs": 10}),
    "aggressive, huge rate": (gp.rosenblatt.train_aggressive, _SEP,
                              {"max_epochs": 10, "learning_rate": 1e307}),
}


@pytest.mark.parametrize("name", sorted(OVERFLOWING))
def test_twin_and_loop_refuse_an_overflow_with_the_same_words(name, backend):
    _assert_same_overflow_words(*OVERFLOWING[name])


def _assert_same_overflow_words(trainer, args, kwargs):
    """The twin (``engine="fast"``) and the loop (``"faithful"``) refuse the same overflow with
    the same message, naming the pass."""
    messages = []
    for engine in ("fast", "faithful"):
        with pytest.raises(ValueError, match="training overflowed") as info:
            trainer(*args, engine=engine, **kwargs)
        messages.append(str(info.value))
    assert messages[0] == messages[1]
    assert " in pass " in messages[0]


def test_an_overflow_in_the_last_example_of_a_pass_names_the_weights():
    """The weights leave the floats on the pass's last step: no margin is left to see it, so
    the guard after the pass names the weights, in both."""
    X = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0]])
    Y = np.array([1.0, 1.0, -1.0])  # the last: a tie, (w, b) = (1e308, 0, 1e308); w_1 -> inf
    for trainer in (gp.rosenblatt.train_aggressive, gp.train_averaged, gp.train_pocket):
        messages = []
        for engine in ("fast", "faithful"):
            with pytest.raises(ValueError, match="the weights .* in pass 1") as info:
                trainer(X, Y, max_epochs=3, learning_rate=1e308, engine=engine)
            messages.append(str(info.value))
        assert messages[0] == messages[1]


# --- train: its ties, in the tail rows of the compiled loop, and its float32 -------------------

@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_train_twin_is_its_loop_with_ties(backend, dtype):
    X, Y = _dataset(21, "integer", dtype, n=43, d=3)  # 43 = 4 * 10 + 3: tail rows as well
    for threshold in (0.0, 2.0):
        _assert_same(*_both_backends(gp.train, X, Y, max_epochs=6, threshold=threshold))


# --- multiclass: the NDArray lockstep loop and its compiled twin ---------------------------------

def _classes(seed, kind, dtype, n=40, d=5, c=4):
    rng = np.random.default_rng(seed)
    if kind == "integer":
        X = rng.integers(0, 5, size=(n, d)).astype(float)
    else:
        X = rng.standard_normal((n, d))
    y = rng.integers(0, c, size=n)
    X[:, 0] = 9.0 * (y == 0)  # class 0 apart from the rest: its perceptrons stop early
    return X.astype(dtype), y


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("kind", ["integer", "noisy"])
@pytest.mark.parametrize("trainer", [multiclass.train_one_vs_all, multiclass.train_one_vs_one],
                         ids=["one-vs-all", "one-vs-one"])
def test_a_multiclass_twin_is_its_loop(trainer, kind, dtype):
    X, y = _classes(6, kind, dtype)
    fast = trainer(X, y, max_epochs=5)
    loop = trainer(X, y, max_epochs=5, engine="faithful")
    np.testing.assert_array_equal(fast.W, loop.W)
    np.testing.assert_array_equal(fast.b, loop.b)
    for a, b in zip(fast.results, loop.results, strict=True):
        _assert_same(a, b)
    assert fast.cost() == loop.cost()
    assert 0 < fast.cost().separated < len(fast.results)  # some stop early, some run on


def test_a_multiclass_twin_and_loop_refuse_an_overflow_with_the_same_words():
    X, y = _classes(7, "noisy", np.float64)
    messages = []
    for engine in ("fast", "faithful"):
        with pytest.raises(ValueError, match="training overflowed") as info:
            multiclass.train_one_vs_one(X * 1e307, y, max_epochs=3, engine=engine)
        messages.append(str(info.value))
    assert messages[0] == messages[1]


# --- the traced run and the update path (core/rosenblatt/traced.py) -----------------------------

TRACED = {"plain": {}, "decaying, with a margin": {"decay": 1.0, "threshold": 1.0},
          "a slow decay, recorded": {"decay": 0.5, "record": True},
          "shuffled": {"shuffle": True, "seed": 5, "record": True},
          "a large rate, shuffled": {"learning_rate": 3.0, "shuffle": True, "seed": 0}}


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name", sorted(TRACED))
def test_the_traced_twin_is_its_loop(name, kind, dtype, backend):
    X, Y = _dataset(5 + len(name), kind, dtype)
    fast, readable = _both_backends(gp.rosenblatt.train_traced, X, Y, max_epochs=15,
                                    **TRACED[name])
    _assert_same(fast, readable)
    assert fast.updates > 0 and len(fast.history["norm"]) == fast.epochs


def _same_path(fast, readable):
    np.testing.assert_array_equal(fast.thetas, readable.thetas)
    np.testing.assert_array_equal(fast.examples, readable.examples)
    assert fast.updates_per_epoch == readable.updates_per_epoch
    assert (fast.converged, fast.epochs, fast.bias) == (readable.converged, readable.epochs,
                                                        readable.bias)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("kind", KINDS)
def test_the_update_path_twin_is_its_loop(kind, dtype):
    X, Y = _dataset(8, kind, dtype)
    w0 = np.linspace(-1.0, 1.0, X.shape[1])
    for extra in ({}, {"bias": False}, {"threshold": 2.0}, {"w0": w0, "b0": 0.5}):
        fast, readable = _both(gp.rosenblatt.update_path, X, Y, max_epochs=12, **extra)
        _same_path(fast, readable)
        assert fast.updates > 0


def test_the_update_path_twin_on_separable_data_converges_as_its_loop():
    X, Y = _dataset(9, "separable", n=120, d=3)
    fast, readable = _both(gp.rosenblatt.update_path, X, Y, max_epochs=1000)
    _same_path(fast, readable)
    assert fast.converged and fast.epochs > 2


TRACED_OVERFLOWING = {
    "traced, huge X": (gp.rosenblatt.train_traced, (_SEP[0] * 1e307, _SEP[1]),
                       {"max_epochs": 4}),
    "traced, huge rate": (gp.rosenblatt.train_traced, _SEP,
                          {"max_epochs": 4, "learning_rate": 1e308}),
    "traced, shuffled": (gp.rosenblatt.train_traced, (_SEP[0] * 1e307, _SEP[1]),
                         {"max_epochs": 4, "shuffle": True, "seed": 1}),
    "update path, huge X": (gp.rosenblatt.update_path, (_SEP[0] * 1e307, _SEP[1]),
                            {"max_epochs": 4}),
    "update path, float32": (gp.rosenblatt.update_path,
                             ((_SEP[0] * 1e37).astype(np.float32), _SEP[1]), {"max_epochs": 4}),
    "update path, huge start": (gp.rosenblatt.update_path, _SEP,
                                {"max_epochs": 4, "w0": np.full(4, 1e308), "b0": -1e308}),
}


@pytest.mark.parametrize("name", sorted(TRACED_OVERFLOWING))
def test_traced_twins_and_loops_refuse_an_overflow_with_the_same_words(name, backend):
    _assert_same_overflow_words(*TRACED_OVERFLOWING[name])


def test_the_online_run_is_the_traced_run_cut_into_steps():
    """``run_online`` (no twin: its loop is fast enough) on the data repeated ``E`` times
    passes through the weights ``train_traced`` has after each of its ``E`` passes."""
    X, Y = _dataset(2, "noisy")
    traced = gp.rosenblatt.train_traced(X, Y, max_epochs=6, record=True)
    online = traced_module.run_online(np.tile(X, (6, 1)), np.tile(Y, 6))
    ends = online.thetas[len(Y) - 1::len(Y)]
    for (w, b), theta in zip(traced.history["weights"], ends, strict=True):
        np.testing.assert_array_equal(w, theta[:-1])
        assert b == theta[-1]
    assert int(online.mistakes.sum()) == traced.updates


@pytest.mark.parametrize("d", [1, 2, 3, 7, 64])
def test_the_traces_error_rates_are_the_error_rate_of_each_row(d):
    """The twins and the lockstep runs compute a run's training errors at once
    (``_error_rates``): each is ``_error_rate``'s number for that row, bit for bit, also for
    scores at a tie (integer data) and rows whose scores overflow (scaled, as one by one)."""
    rng = np.random.default_rng(d)
    X = rng.standard_normal((97, d))
    Y = np.where(rng.random(97) < 0.5, 1.0, -1.0)
    thetas = rng.standard_normal((300, d + 1)) * rng.uniform(0.01, 100.0, size=(300, 1))
    thetas[:40] = np.round(thetas[:40])
    thetas[40:45] = np.where(thetas[40:45] > 0, 1e308, -1e308)  # scores overflow: scaled
    ints = np.round(X * 3)
    for data in (X, ints):
        expected = [training._error_rate(t[:-1], float(t[-1]), data, Y) for t in thetas]
        assert training._error_rates(thetas, data, Y) == expected


# --- the lockstep runs of notebook 05's remedies: the compiled pass and the numpy loop -------

def _lockstep(backend, monkeypatch, data, epochs):
    monkeypatch.setattr(engine_module, "FAST_BACKEND", backend)
    runs = len(data)
    keep = [{"plain": "running", "pocket": "pocket", "averaged": "averaged"},
            {"decaying": "running"}, {"margin": "running"}, {"projected": "running"},
            {"pocket, shuffled": "pocket"}][:runs]
    return lockstep_module.lockstep_runs(
        data, [epochs] * runs, keep=keep, decay=np.array([0.0, 1.0, 1.0, 0.0, 0.0][:runs]),
        threshold=np.array([0.0, 0.0, 1.0, 0.0, 0.0][:runs]),
        radius=np.array([np.inf, np.inf, np.inf, 0.4, np.inf][:runs]),
        orders=[None, None, None, None, 3][:runs])


@pytest.mark.skipif(engine_module.numba is None, reason="the compiled pass needs numba")
@pytest.mark.parametrize("kind", ["noisy", "separable", "integer"])
def test_the_compiled_lockstep_pass_is_the_numpy_loop(kind, monkeypatch):
    """``lockstep_runs`` steps every run together in numpy, or in one compiled pass; the same
    operations in the same order: the same results, bit for bit, and the trainers' own."""
    data = [_dataset(30 + k, kind, n=60, d=2) for k in range(5)]
    compiled = _lockstep("compiled", monkeypatch, data, 25)
    loop = _lockstep("numpy", monkeypatch, data, 25)
    for got, want in zip(compiled, loop, strict=True):
        assert got.keys() == want.keys()
        for name in got:
            _assert_same(got[name], want[name])
    X, Y = data[0]
    _assert_same(compiled[0]["pocket"], gp.train_pocket(X, Y, max_epochs=25, record=True))
    _assert_same(compiled[3]["projected"], gp.rosenblatt.train_projected(
        *data[3], max_epochs=25, radius=0.4, record=True))
    X, Y = data[4]
    _assert_same(compiled[4]["pocket, shuffled"], gp.train_pocket(
        X, Y, max_epochs=25, record=True, shuffle=True, seed=3))
    errors = [compiled[r][name].history["error"] for r, name in ((0, "pocket"),
                                                                  (4, "pocket, shuffled"))]
    assert any(e[-1] < e[0] for e in errors)  # the ratchet at work
