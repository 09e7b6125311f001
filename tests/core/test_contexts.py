"""Every NDArray path of the chapter and the Rosenblatt engines runs on the context it is given.

MXNet 1.9.1 silently accepts arithmetic between ``cpu(0)`` and ``cpu(1)`` arrays (the result
lands on the first operand's context), so nothing fails when a path creates an array on the
default context: these tests record every NDArray created during a call and look at its
``.context``.
"""

from __future__ import annotations

import contextlib

import mxnet as mx
import numpy as np
import pytest
from mxnet import nd

import gluon_perceptron as gp

CTX = mx.cpu(1)


@contextlib.contextmanager
def arrays_made(monkeypatch):
    """Record every NDArray created inside the block (operator outputs, nd.array, nd.zeros,
    slices, random draws: all of them go through ``NDArray.__init__``)."""
    made: list[nd.NDArray] = []
    original = nd.NDArray.__init__

    def spy(self, *args, **kwargs):
        original(self, *args, **kwargs)
        made.append(self)

    with monkeypatch.context() as m:
        m.setattr(nd.NDArray, "__init__", spy)
        yield made


def _contexts(arrays) -> set:
    return {a.context for a in arrays}


def _data(n=30, d=3, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    Y = np.where(X @ np.arange(1.0, d + 1) + 0.2 > 0, 1.0, -1.0)
    Y[:2] *= -1  # not separable: every pass updates
    return X, Y


def test_the_spy_sees_an_array_made_on_the_default_context(monkeypatch):
    with arrays_made(monkeypatch) as made:
        a = nd.zeros((2,), ctx=CTX)
        b = nd.zeros((2,))  # the default context: what the tests below must never see
        a + b
    assert len(made) == 3
    assert _contexts(made) == {CTX, mx.cpu(0)}


def test_the_step_makes_nothing_off_its_arrays_context(monkeypatch):
    w, b = nd.zeros((3,), ctx=CTX), nd.zeros((1,), ctx=CTX)
    X, Y = _data()
    Xd = nd.array(X, ctx=CTX)
    with arrays_made(monkeypatch) as made:
        updates = sum(gp.perceptron(w, b, Xd[i], Y[i], learning_rate=0.5) for i in range(30))
        gp.perceptron(w, b, Xd[0], nd.array([Y[0]], ctx=CTX))
    assert updates > 0 and made
    assert _contexts(made) == {CTX}
    assert w.context == CTX and b.context == CTX


def test_the_step_refuses_arrays_on_two_contexts():
    w, b, x = nd.zeros((2,), ctx=CTX), nd.zeros((1,), ctx=CTX), nd.ones((2,))
    with pytest.raises(ValueError, match=r"x lives on cpu\(0\) but w on cpu\(1\)"):
        gp.perceptron(w, b, x, 1.0)
    with pytest.raises(ValueError, match=r"b lives on cpu\(0\)"):
        gp.perceptron(w, nd.zeros((1,)), nd.ones((2,), ctx=CTX), 1.0)


def test_getfake_draws_and_returns_on_ctx(monkeypatch):
    mx.random.seed(3)
    with arrays_made(monkeypatch) as made:
        X, Y = gp.getfake(20, 2, 0.1, ctx=CTX)
    assert X.context == CTX and Y.context == CTX
    assert made and _contexts(made) == {CTX}
    mx.random.seed(3)
    X0, _ = gp.getfake(20, 2, 0.1)
    assert X0.context == mx.cpu(0)  # the default is mx.cpu()


def test_the_faithful_engine_runs_on_ctx(monkeypatch):
    X, Y = _data()
    with arrays_made(monkeypatch) as made:
        run = gp.train(X, Y, max_epochs=4, engine="faithful", ctx=CTX)
    assert made and _contexts(made) == {CTX}
    ref = gp.train(X, Y, max_epochs=4)  # same updates as the fast engine, wherever it ran
    assert run.updates_per_epoch == ref.updates_per_epoch
    np.testing.assert_array_equal(run.w, ref.w)


def test_the_faithful_engine_defaults_to_cpu0(monkeypatch):
    X, Y = _data()
    with arrays_made(monkeypatch) as made:
        gp.train(X, Y, max_epochs=2, engine="faithful")
    assert _contexts(made) == {mx.cpu(0)}


def test_the_lockstep_engine_runs_on_ctx(monkeypatch):
    X, Y = _data()
    Ys = np.stack([Y, -Y, np.where(X[:, 0] > 0, 1.0, -1.0)])
    with arrays_made(monkeypatch) as made:
        runs = gp.train_batched(X, Ys, max_epochs=5, engine="faithful", ctx=CTX)
    assert made and _contexts(made) == {CTX}
    fast = gp.train_batched(X, Ys, max_epochs=5)
    for a, b in zip(runs, fast):
        assert a.updates_per_epoch == b.updates_per_epoch
        np.testing.assert_array_equal(a.w, b.w)


@pytest.mark.parametrize("call", [
    lambda: gp.train(*_data(), max_epochs=2, engine="faithful", ctx="cpu(1)"),
    lambda: gp.train_batched(_data()[0], _data()[1][None], max_epochs=2, ctx=1),
    lambda: gp.getfake(5, 2, 0.1, ctx="gpu"),
])
def test_ctx_must_be_a_context(call):
    with pytest.raises(TypeError, match="ctx must be an mxnet Context"):
        call()


@pytest.mark.parametrize("trainer", [gp.rosenblatt.train_one_vs_all,
                                     gp.rosenblatt.train_one_vs_one])
def test_the_multiclass_lockstep_engine_runs_on_ctx(monkeypatch, trainer):
    X, _ = _data(n=40)
    y = np.digitize(X[:, 0], [-0.5, 0.5])  # three classes
    with arrays_made(monkeypatch) as made:
        model = trainer(X, y, max_epochs=3, engine="faithful", ctx=CTX)
    assert made and _contexts(made) == {CTX}
    np.testing.assert_array_equal(model.W, trainer(X, y, max_epochs=3).W)
