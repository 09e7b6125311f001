"""Gluon's Dense(1) + PerceptronLoss + Trainer('sgd') learns exactly what train learns."""

import mxnet as mx
import numpy as np
import pytest
from mxnet import autograd, nd

import gluon_perceptron as gp


def _dataset(seed: int, flip: bool, dimensions: int = 2, dtype=np.float32):
    mx.random.seed(seed)
    fake = gp.sample_separable(120, dimensions, 0.05)
    X, Y = fake.X.asnumpy().astype(dtype), fake.Y.asnumpy().astype(dtype)
    if flip:
        Y[::5] *= -1
    return X, Y


@pytest.mark.parametrize("seed, flip, dimensions", [(0, False, 2), (1, True, 2), (2, False, 5),
                                                    (3, True, 4)])
def test_train_gluon_equals_train(seed, flip, dimensions):
    """train's fast engine (the default) is the reference: it is the faithful loop bit for bit
    (tests/core/fast/test_training_fast.py), and train_gluon meets the faithful loop itself in
    compare_trainers (tests/core/gradient/test_sgd.py: notebook 4's set and 10 noisy draws)."""
    X, Y = _dataset(seed, flip, dimensions)
    result = gp.train_gluon(X, Y, max_epochs=6)
    ref = gp.train(X, Y, max_epochs=6, engine="fast")
    assert result.updates_per_epoch == ref.updates_per_epoch
    np.testing.assert_array_equal(result.w, ref.w)
    assert result.b == ref.b
    assert result.converged == ref.converged
    assert result.updates > 0


def test_train_gluon_rates_thresholds_and_float64():
    X, Y = _dataset(1, True)
    for kwargs in ({"learning_rate": 0.1}, {"threshold": 1.0}):
        a, b = gp.train_gluon(X, Y, max_epochs=4, **kwargs), gp.train(X, Y, max_epochs=4,
                                                                       **kwargs)
        assert a.updates_per_epoch == b.updates_per_epoch
        np.testing.assert_array_equal(a.w, b.w)
    X64, Y64 = _dataset(0, False, dtype=np.float64)
    a = gp.train_gluon(X64, Y64, max_epochs=5)
    assert a.w.dtype == np.float64
    np.testing.assert_array_equal(a.w, gp.train(X64, Y64, max_epochs=5).w)


@pytest.mark.parametrize("hybridize", [False, True])
def test_perceptron_loss_block_values_and_gradient(hybridize):
    loss = gp.PerceptronLoss()
    if hybridize:
        loss.hybridize()
    pred = nd.array([[0.0], [0.0], [2.0], [-1.5], [0.5]])
    label = nd.array([1.0, -1.0, 1.0, 1.0, -1.0])
    pred.attach_grad()
    with autograd.record():
        value = loss(pred, label)
    value.backward()
    np.testing.assert_allclose(value.asnumpy(), [0.0, 0.0, 0.0, 1.5, 0.5])
    # slope -y on mistakes and at the tie, 0 on correct points
    np.testing.assert_allclose(pred.grad.asnumpy().ravel(), [-1.0, 1.0, 0.0, -1.0, 1.0])


def test_perceptron_loss_block_threshold_and_weights():
    pred, label = nd.array([[0.5], [3.0]]), nd.array([1.0, 1.0])
    np.testing.assert_allclose(gp.PerceptronLoss(threshold=1.0)(pred, label).asnumpy(),
                               [0.5, 0.0])
    np.testing.assert_allclose(
        gp.PerceptronLoss(threshold=1.0, weight=2.0)(pred, label, nd.array([[3.0], [1.0]]))
        .asnumpy(), [3.0, 0.0])
    with pytest.raises(ValueError, match="threshold"):
        gp.PerceptronLoss(threshold=-1.0)


def test_perceptron_net_starts_at_zero():
    net = gp.perceptron_net(3)
    assert not net.weight.data().asnumpy().any() and not net.bias.data().asnumpy().any()
    assert net(nd.ones((2, 3))).shape == (2, 1)


def test_train_gluon_bad_input():
    X, Y = _dataset(0, False)
    with pytest.raises(ValueError, match="max_epochs"):
        gp.train_gluon(X, Y, max_epochs=0)
    with pytest.raises(ValueError, match="learning_rate"):
        gp.train_gluon(X, Y, max_epochs=1, learning_rate=0.0)
    with pytest.raises(ValueError, match="same length"):
        gp.train_gluon(X, Y[:-1], max_epochs=1)


def test_learning_rates_gluon_cannot_use_are_refused_with_the_range():
    X, Y = gp.xor_data()
    for rate in (1e39, 1e-50):
        with pytest.raises(ValueError, match="learning_rate=.*outside what Gluon's SGD"):
            gp.train_gluon(X, Y, max_epochs=2, learning_rate=rate)
    # the extremes of float32's range still train, and make the decisions of train
    X, Y = _dataset(1, True)
    for rate in (1e-30, 1e30):
        a, b = gp.train_gluon(X, Y, max_epochs=2, learning_rate=rate), gp.train(X, Y,
                                                                                max_epochs=2)
        assert a.updates_per_epoch == b.updates_per_epoch


def test_sizes_beyond_mxnets_limit_and_overflow_are_refused():
    with pytest.raises(ValueError, match=r"2\*\*31 - 1"):
        gp.perceptron_net(10**10)
    X, Y = _dataset(1, True)
    with pytest.raises(ValueError, match="overflowed"):
        gp.train_gluon(X * np.float32(1e37), Y, max_epochs=3, learning_rate=1e3)


@pytest.mark.parametrize("seed, dtype", [(0, np.float16), (1, np.float32), (2, np.float64)])
def test_skipping_the_steps_where_the_loss_is_flat_changes_no_bit(seed, dtype, monkeypatch):
    """train_gluon skips the step where PerceptronLoss is flat (margin above the threshold):
    Gluon's plain loop, a step on every example, ends with the same bits, ties included."""
    from gluon_perceptron.core.gradient import gluon as module
    rng = np.random.default_rng(seed)
    X = rng.integers(-2, 3, size=(40, 3)).astype(dtype)  # integer margins: many ties
    Y = rng.choice([-1.0, 1.0], 40).astype(dtype)
    runs = [dict(threshold=0.0), dict(threshold=0.0, learning_rate=0.5), dict(threshold=1.0),
            dict(threshold=0.1)]  # 0.1: not exact in any dtype
    skipping = [gp.train_gluon(X, Y, max_epochs=4, **kw) for kw in runs]
    monkeypatch.setattr(module, "_flat_test", lambda *args: lambda x, y: False)
    for kw, a in zip(runs, skipping, strict=True):
        for b in (gp.train_gluon(X, Y, max_epochs=4, **kw), gp.train(X, Y, max_epochs=4, **kw)):
            assert a.updates_per_epoch == b.updates_per_epoch
            np.testing.assert_array_equal(a.w, b.w)
            assert a.b == b.b and a.updates > 0
