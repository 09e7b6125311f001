"""Batched runs: each run of train_batched equals train on that run's own data, bit for bit."""


import numpy as np
import pytest

import gluon_perceptron as gp


def _assert_same(batched: gp.TrainResult, alone: gp.TrainResult):
    assert batched.updates_per_epoch == alone.updates_per_epoch
    assert batched.converged == alone.converged
    assert batched.updates == alone.updates
    assert batched.w.dtype == alone.w.dtype
    np.testing.assert_array_equal(batched.w, alone.w)
    assert batched.b == alone.b


def _labels(rng, k, n, X, noise):
    """k label rows: a random plane through X each, with a fraction ``noise`` flipped."""
    planes = rng.standard_normal((k, X.shape[-1]))
    scores = np.einsum("...nd,kd->kn", X, planes) if X.ndim == 2 else np.einsum(
        "knd,kd->kn", X, planes)
    Y = np.where(scores + rng.standard_normal((k, 1)) * 0.3 > 0, 1.0, -1.0)
    flip = rng.random(Y.shape) < noise
    return np.where(flip, -Y, Y)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("noise", [0.0, 0.15])
def test_shared_data_equals_one_by_one(backend, dtype, noise):
    for s in range(3):
        rng = np.random.default_rng(10 + s)
        X = rng.standard_normal((150, 4)).astype(dtype)
        Y = _labels(rng, 6, 150, X, noise)
        results = gp.train_batched(X, Y, max_epochs=20)
        assert len(results) == 6
        for r, res in enumerate(results):
            _assert_same(res, gp.train(X, Y[r], max_epochs=20))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_one_dataset_per_run_equals_one_by_one(backend, dtype):
    rng = np.random.default_rng(3)
    X = rng.standard_normal((9, 80, 3)).astype(dtype)
    Y = _labels(rng, 9, 80, X, 0.1)
    results = gp.train_batched(X, Y, max_epochs=15, learning_rate=0.1)
    for r, res in enumerate(results):
        _assert_same(res, gp.train(X[r], Y[r], max_epochs=15, learning_rate=0.1))
    assert not all(res.converged for res in results)  # noisy runs hit the bound


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_mask_equals_training_on_the_kept_examples(backend, dtype):
    rng = np.random.default_rng(7)
    X = rng.integers(0, 17, size=(200, 8)).astype(dtype)  # integer-valued, like the digits
    Y = _labels(rng, 5, 200, X, 0.05)
    mask = rng.random((5, 200)) < 0.4
    Y[~mask] = 0  # masked-out labels are never read, so they need not be -1/+1
    results = gp.train_batched(X, Y, max_epochs=12, mask=mask)
    for r, res in enumerate(results):
        _assert_same(res, gp.train(X[mask[r]], Y[r, mask[r]], max_epochs=12))


def test_separable_runs_equal_the_faithful_loop(backend, seed):
    """Against the chapter's NDArray loop directly, on getfake-style separable data."""
    fakes = [gp.sample_separable(60, 2, 0.1) for _ in range(3)]
    X = np.stack([f.X.asnumpy() for f in fakes])
    Y = np.stack([f.Y.asnumpy() for f in fakes])
    results = gp.train_batched(X, Y, max_epochs=200)
    for r, res in enumerate(results):
        assert res.converged
        _assert_same(res, gp.train(X[r], Y[r], max_epochs=200, engine="faithful"))


def test_results_are_independent_arrays(backend):
    X = np.eye(3)
    results = gp.train_batched(X, np.array([[1, -1, 1], [-1, 1, 1]]), max_epochs=5)
    results[0].w[:] = 99
    assert not np.any(results[1].w == 99)


@pytest.mark.parametrize("kwargs, error, match", [
    (dict(X=np.zeros(3), Y=np.ones((1, 3))), ValueError, "X must have shape"),
    (dict(X=np.zeros((3, 2)), Y=np.ones(3)), ValueError, "Y must have shape \\(runs, 3\\)"),
    (dict(X=np.zeros((2, 3, 2)), Y=np.ones((3, 3))), ValueError, "X holds 2 datasets"),
    (dict(X=np.zeros((3, 2)), Y=np.ones((2, 3)), mask=np.ones((2, 3))), TypeError,
     "mask must be a boolean"),
    (dict(X=np.zeros((3, 2)), Y=np.ones((2, 3)), mask=np.ones((3, 2), bool)), ValueError,
     "mask must have the shape of Y"),
    (dict(X=np.zeros((3, 2)), Y=np.ones((2, 3)), mask=np.array([[1, 1, 1], [0, 0, 0]], bool)),
     ValueError, "leaves run 1 without examples"),
    (dict(X=np.zeros((3, 2)), Y=np.array([[1, 0, 1]])), ValueError, "only -1 and \\+1"),
    (dict(X=np.full((3, 2), np.nan), Y=np.ones((1, 3))), ValueError, "must be finite"),
    (dict(X=np.zeros((3, 2)), Y=np.ones((1, 3)), max_epochs=0), ValueError, "max_epochs"),
    (dict(X=np.zeros((3, 2)), Y=np.ones((1, 3)), learning_rate=-1.0), ValueError,
     "learning_rate"),
])
def test_bad_input_is_named(kwargs, error, match):
    kwargs.setdefault("max_epochs", 3)
    X, Y = kwargs.pop("X"), kwargs.pop("Y")
    with pytest.raises(error, match=match):
        gp.train_batched(X, Y, **kwargs)


def test_margin_experiment_runs_batched_as_they_would_one_by_one(backend, seed):
    """The corrected experiment trains its runs batched; the faithful engine runs them alone."""
    kwargs = dict(epsilons=[0.1, 0.3], trials=2, samples=120, progress=False)
    seed(3)
    batched = gp.experiments.margin_experiment(**kwargs)
    seed(3)
    alone = gp.experiments.margin_experiment(engine="faithful", **kwargs)
    for name in ("updates", "epochs", "converged", "R", "gamma", "bound"):
        np.testing.assert_array_equal(getattr(batched, name), getattr(alone, name))
    assert batched.converged.all() and batched.updates.min() > 0


def test_ndarray_lockstep_equals_one_by_one_with_masks():
    """engine="faithful": all runs in lockstep in MXNet, each still exactly train alone."""
    rng = np.random.default_rng(12)
    X = rng.integers(0, 9, size=(70, 5)).astype(np.float32)  # integer-valued: exact sums
    Y = _labels(rng, 4, 70, X, 0.1)
    mask = rng.random((4, 70)) < 0.6
    results = gp.train_batched(X, Y, max_epochs=8, mask=mask, engine="faithful")
    for r, res in enumerate(results):
        _assert_same(res, gp.train(X[mask[r]], Y[r, mask[r]], max_epochs=8))


def test_ndarray_lockstep_per_run_data_and_convergence(seed):
    """One getfake dataset per run: runs converge at different passes and stop counting."""
    fakes = [gp.sample_separable(50, 2, 0.15) for _ in range(4)]
    X = np.stack([f.X.asnumpy() for f in fakes])
    Y = np.stack([f.Y.asnumpy() for f in fakes])
    results = gp.train_batched(X, Y, max_epochs=100, engine="faithful")
    assert all(res.converged for res in results)
    assert len({res.epochs for res in results}) > 1  # they did stop at different passes
    for r, res in enumerate(results):
        _assert_same(res, gp.train(X[r], Y[r], max_epochs=100, engine="faithful"))


def test_engine_is_checked():
    with pytest.raises(ValueError, match="engine"):
        gp.train_batched(np.eye(2), np.ones((1, 2)), max_epochs=1, engine="gpu")


def test_zero_features_are_refused_by_name():
    with pytest.raises(ValueError, match=r"X must hold at least one example and one feature, "
                                         r"got shape \(5, 0\)"):
        gp.train_batched(np.zeros((5, 0)), np.ones((1, 5)), max_epochs=3)
    with pytest.raises(ValueError, match="at least one example"):
        gp.train_batched(np.zeros((2, 0, 3)), np.ones((2, 0)), max_epochs=3)
