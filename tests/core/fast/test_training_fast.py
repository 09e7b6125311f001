"""The fast engine (compiled and pure numpy) makes exactly the faithful loop's updates.

Also checks the correspondence with scikit-learn's ``Perceptron(shuffle=False, eta0=1,
alpha=0, tol=None)``: in float64 it makes the same decisions (update when ``y f(x) <= 0``,
ties included) with the same left-to-right sums, so its weights equal ours bit for bit.
"""

import importlib
import warnings

import numpy as np
import pytest

import gluon_perceptron as gp

perceptron_module = importlib.import_module("gluon_perceptron.core.rosenblatt.engine")
twin = importlib.import_module("gluon_perceptron.core.fast.training_fast")


def _dataset(rng, kind, dtype, n=90, d=5):
    """Small datasets (the faithful loop costs ~70 us per example) of four kinds."""
    if kind == "separable":
        X = rng.standard_normal((n, d))
        Y = np.where(X @ rng.standard_normal(d) + 0.2 > 0, 1.0, -1.0)
    elif kind == "noisy":  # a planted rule with 20% of the labels flipped: never separable
        X = rng.standard_normal((n, d))
        Y = np.where(X @ rng.standard_normal(d) > 0, 1.0, -1.0)
        Y[rng.random(n) < 0.2] *= -1
    elif kind == "integer":  # digits-like pixels 0..16: every sum exact, ties are frequent
        X = rng.integers(0, 17, size=(n, d)).astype(float)
        Y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    else:  # sparse non-negative pixels in [0, 1), random labels
        X = rng.random((n, d)) * (rng.random((n, d)) < 0.3)
        Y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    return X.astype(dtype), Y


#: The faithful loop's runs, by their inputs: each backend's case compares its fast run with
#: the same faithful run (the NDArray loop does not depend on the fast engine's backend), so
#: the second backend reads it instead of running the loop again.
_FAITHFUL: dict = {}


def _faithful(X, Y, trainer=gp.train, **kwargs):
    """``trainer(X, Y, engine="faithful", **kwargs)`` (``gp.train`` by default), run once for
    each distinct trainer and input (numpy arrays or NDArrays, keyed by their type and values);
    tests/core/fast/test_fast.py reads it for its other trainers."""
    Xn, Yn = (v.asnumpy() if hasattr(v, "asnumpy") else v for v in (X, Y))
    key = (trainer.__qualname__, type(X).__name__, Xn.dtype.str, Xn.shape, Xn.tobytes(),
           Yn.tobytes(), tuple((k, np.asarray(v).tobytes()) for k, v in sorted(kwargs.items())))
    if key not in _FAITHFUL:
        _FAITHFUL[key] = trainer(X, Y, engine="faithful", **kwargs)
    return _FAITHFUL[key]


def _assert_same(a: gp.TrainResult, b: gp.TrainResult):
    assert a.updates_per_epoch == b.updates_per_epoch
    assert a.converged == b.converged
    assert a.w.dtype == b.w.dtype
    np.testing.assert_array_equal(a.w, b.w)
    assert a.b == b.b


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("kind", ["separable", "noisy", "integer", "sparse"])
def test_fast_equals_faithful(backend, dtype, kind):
    for s in range(3):
        X, Y = _dataset(np.random.default_rng(1000 * s + len(kind)), kind, dtype)
        fast = gp.train(X, Y, max_epochs=5)
        faithful = _faithful(X, Y, max_epochs=5)
        _assert_same(fast, faithful)
        assert fast.updates > 0


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_fast_equals_faithful_with_rate_threshold_and_start(backend, dtype):
    rng = np.random.default_rng(5)
    for s in range(3):
        X, Y = _dataset(rng, "noisy", dtype, n=60)
        kwargs = dict(max_epochs=4, learning_rate=0.3, threshold=0.25 * s,
                      w0=rng.standard_normal(5), b0=float(s) - 1.0)
        _assert_same(gp.train(X, Y, **kwargs), _faithful(X, Y, **kwargs))


def test_fast_equals_faithful_on_the_chapter_data(backend, seed):
    for s in range(3):
        seed(s)
        fake = gp.sample_separable(300, 2, 0.05)
        fast = gp.train(fake.X, fake.Y, max_epochs=500)
        assert fast.converged
        _assert_same(fast, _faithful(fake.X, fake.Y, max_epochs=500))


def test_compiled_and_numpy_backends_agree_on_a_larger_set(monkeypatch):
    if perceptron_module.numba is None:
        pytest.skip("numba is not installed: only the numpy backend exists")
    X, Y = _dataset(np.random.default_rng(9), "integer", np.float32, n=3000, d=64)
    monkeypatch.setattr(perceptron_module, "FAST_BACKEND", "compiled")
    compiled = gp.train(X, Y, max_epochs=5)
    monkeypatch.setattr(perceptron_module, "FAST_BACKEND", "numpy")
    _assert_same(compiled, gp.train(X, Y, max_epochs=5))
    assert compiled.updates > 1000


def _sklearn_perceptron(X, Y, epochs):
    linear_model = pytest.importorskip("sklearn.linear_model")
    clf = linear_model.Perceptron(shuffle=False, eta0=1.0, alpha=0.0, tol=None,
                                  max_iter=epochs, fit_intercept=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # ConvergenceWarning: tol=None runs all max_iter passes
        clf.fit(X, Y)
    return clf.coef_[0], float(clf.intercept_[0])


@pytest.mark.parametrize("kind", ["separable", "noisy", "integer", "sparse"])
def test_fast_equals_scikit_learn_in_float64(backend, kind):
    for s in range(3):
        X, Y = _dataset(np.random.default_rng(77 + s), kind, np.float64, n=400, d=20)
        ours = gp.train(X, Y, max_epochs=6)
        w, b = _sklearn_perceptron(X, Y, 6)
        np.testing.assert_array_equal(ours.w, w)
        assert ours.b == b


def _tie_at(n: int, p: int):
    """``n`` rows whose row ``p`` is a tie from ``w = (1, 0), b = 0`` (margin exactly 0) and
    every other row is right by a margin of at least 1, before and after the tie's update."""
    X = np.array([[2.0, 0.0]] * n)
    X[p] = [0.0, 1.0]  # y (w.x + b) = 0: a tie, an update; then w = (1, 1), b = 1
    return X, np.ones(n)


# the compiled loop decides rows four at a time and the last n mod 4 rows one by one: ties in
# each of those tail positions (every row for n < 4, the fifth row for n = 5)
@pytest.mark.parametrize("n, p", [(1, 0), (2, 0), (2, 1), (3, 0), (3, 1), (3, 2), (5, 4)])
def test_a_tie_in_the_tail_rows_is_an_update(backend, n, p):
    X, Y = _tie_at(n, p)
    start = dict(max_epochs=1, w0=np.array([1.0, 0.0]), b0=0.0)
    fast = gp.train(X, Y, **start)
    faithful = gp.train(X, Y, engine="faithful", **start)
    assert faithful.updates_per_epoch == [1]
    np.testing.assert_array_equal(faithful.w, [1.0, 1.0])
    assert faithful.b == 1.0
    _assert_same(fast, faithful)


def test_a_tie_in_the_tail_rows_is_an_update_in_the_compiled_loop_itself():
    if perceptron_module.numba is None:
        pytest.skip("numba is not installed: no compiled loop")
    for n, p in [(1, 0), (2, 1), (3, 2), (5, 4), (6, 5), (7, 4)]:
        X, Y = _tie_at(n, p)
        w, b = np.array([1.0, 0.0]), np.zeros(1)
        rows = np.arange(n, dtype=np.int64)
        assert twin._compiled_epoch(X, Y, rows, w, b, 1.0, 0.0) == 1, (n, p)
        np.testing.assert_array_equal(w, [1.0, 1.0])
        assert b[0] == 1.0
        wn, bn = np.array([1.0, 0.0]), np.zeros(1)
        assert twin._numpy_epoch(X, Y, wn, bn, 1.0, 0.0) == 1
        np.testing.assert_array_equal(wn, w)


def test_drive_never_asks_for_more_than_the_budget_left():
    """A driver asking one pass too many would hang the compiled engine (a budget of 0 makes no
    pass, so the record never grows): the fake passes fail at once instead."""
    asked = []

    def passes(budget):
        assert 1 <= budget <= 7 - sum(len(m) for m in asked), f"asked for {budget} passes"
        made = [1] * min(budget, 3)  # never converges; at most three passes a call
        asked.append(made)
        return made

    assert perceptron_module._drive(passes, 7, (np.zeros(2), np.zeros(1))) == [1] * 7
    assert [len(m) for m in asked] == [3, 3, 1]


@pytest.mark.parametrize("max_epochs", [1, 2, 5, 40])
def test_drive_asks_the_real_passes_for_the_budget_left(backend, monkeypatch, max_epochs):
    """The engine's own passes, spied on: every budget is what is left, and no pass is made
    beyond ``max_epochs`` on data that never converges (XOR)."""
    real = twin._plain_passes
    budgets, made = [], []

    def spied(*args, **kwargs):
        passes = real(*args, **kwargs)

        def spy(budget):
            assert 1 <= budget == max_epochs - sum(made), (budget, max_epochs, sum(made))
            budgets.append(budget)
            out = passes(budget)
            assert 1 <= len(out) <= budget
            made.append(len(out))
            return out

        return spy

    monkeypatch.setattr(twin, "_plain_passes", spied)
    X, Y = gp.xor_data()
    result = gp.train(X, Y, max_epochs=max_epochs)
    assert not result.converged
    assert len(result.updates_per_epoch) == sum(made) == max_epochs
