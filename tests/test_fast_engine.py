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
        faithful = gp.train(X, Y, max_epochs=5, engine="faithful")
        _assert_same(fast, faithful)
        assert fast.updates > 0


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_fast_equals_faithful_with_rate_threshold_and_start(backend, dtype):
    rng = np.random.default_rng(5)
    for s in range(3):
        X, Y = _dataset(rng, "noisy", dtype, n=60)
        kwargs = dict(max_epochs=4, learning_rate=0.3, threshold=0.25 * s,
                      w0=rng.standard_normal(5), b0=float(s) - 1.0)
        _assert_same(gp.train(X, Y, **kwargs), gp.train(X, Y, engine="faithful", **kwargs))


def test_fast_equals_faithful_on_the_chapter_data(backend, seed):
    for s in range(3):
        seed(s)
        fake = gp.sample_separable(300, 2, 0.05)
        fast = gp.train(fake.X, fake.Y, max_epochs=500)
        assert fast.converged
        _assert_same(fast, gp.train(fake.X, fake.Y, max_epochs=500, engine="faithful"))


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
