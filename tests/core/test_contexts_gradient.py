"""Every NDArray path of core/gradient and core/beyond runs on the context it is given.

MXNet 1.9.1 silently accepts arithmetic between cpu(0) and cpu(1) arrays (the result lands on
the first operand's context), so these tests look at ``.context`` of every array made and
returned; a Gluon block initialised on cpu(0) would refuse cpu(1) input outright.
"""

import sys

import mxnet as mx
import numpy as np
import pytest
from mxnet import nd

import gluon_perceptron as gp
from gluon_perceptron.core.gradient import autograd as autograd_module
from gluon_perceptron.core.gradient import gluon as gluon_module
from gluon_perceptron.core.gradient.losses import score
from gluon_perceptron.core.gradient.sgd_update import clip_gradient, project_to_ball

CTX = mx.cpu(1)


@pytest.fixture
def made(monkeypatch):
    """Every NDArray the package creates through nd.array / nd.zeros while the test runs
    (MXNet's own, e.g. Gluon's initializer staging on cpu(0) before copying, are not ours)."""
    arrays = []
    for name in ("array", "zeros"):
        original = getattr(nd, name)

        def spy(*args, _original=original, **kwargs):
            out = _original(*args, **kwargs)
            if sys._getframe(1).f_globals.get("__name__", "").startswith("gluon_perceptron"):
                arrays.append(out)
            return out
        monkeypatch.setattr(nd, name, spy)
    return arrays


def _data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(12, 3))
    return X, np.where(X[:, 0] + 0.2 * X[:, 1] > 0, 1.0, -1.0)


def _params(d=3, dtype="float64"):
    w = nd.zeros((d,), dtype=dtype, ctx=CTX)
    b = nd.zeros((1,), dtype=dtype, ctx=CTX)
    w.attach_grad()
    b.attach_grad()
    return w, b


@pytest.mark.parametrize("loss", [gp.perceptron_loss, gp.hinge_loss, gp.relu_perceptron_loss,
                                  gp.threshold_loss])
def test_losses_create_nothing_on_another_context(loss, made):
    w, b = _params()
    for x, y in ((np.ones(3), 1.0), (np.ones((4, 3)), np.array([1.0, -1, 1, -1])),
                 (nd.ones((4, 3), dtype="float64", ctx=CTX),
                  nd.array([1.0, -1, 1, -1], dtype="float64", ctx=CTX))):
        out = loss(w, b, x, y)
        assert out.context == CTX
    assert score(w, b, np.ones((2, 3))).context == CTX
    assert made and all(a.context == CTX for a in made)


def test_sgd_step_clip_and_projection_stay_on_the_context(made):
    w, b = _params()
    moved = gp.sgd_step(w, b, nd.ones((3,), dtype="float64", ctx=CTX), -1.0, clip=0.5,
                        radius=0.1)
    assert moved.all()
    assert w.context == b.context == w.grad.context == CTX
    gw, gb = clip_gradient(w.grad, b.grad, 0.1)
    assert gw.context == gb.context == CTX
    project_to_ball(w, b, 0.01)
    assert w.context == CTX and all(a.context == CTX for a in made)


def test_kink_gradient_runs_on_the_context(made):
    assert gp.gradient.kink_gradient("nd.maximum(-z, 0)", ctx=CTX) == -1.0
    assert made and all(a.context == CTX for a in made)


def test_train_autograd_runs_on_the_context(made, monkeypatch):
    X, Y = _data()
    seen = []
    step = autograd_module.sgd_step

    def spy(w, b, x, *args, **kwargs):
        seen.extend([w, b, x, w.grad, b.grad])
        return step(w, b, x, *args, **kwargs)
    monkeypatch.setattr(autograd_module, "sgd_step", spy)
    r = gp.train_autograd(X, Y, max_epochs=5, ctx=CTX)
    ref = gp.train(X, Y, max_epochs=5)
    np.testing.assert_array_equal(r.w, ref.w)
    assert seen and all(a.context == CTX for a in seen)
    assert made and all(a.context == CTX for a in made)


def test_run_sgd_runs_on_the_context(made):
    X, Y = _data()
    r = gp.run_sgd(X, Y, steps=20, runs=2, seed=0, loss=gp.hinge_loss, clip=1.0, radius=5.0,
                   ctx=CTX)
    ref = gp.run_sgd(X, Y, steps=20, runs=2, seed=0, loss=gp.hinge_loss, clip=1.0, radius=5.0)
    np.testing.assert_array_equal(r.w_bar, ref.w_bar)
    half = len(made) // 2  # the first run's arrays; the reference run's are on cpu(0)
    assert half >= 5 and [a.context for a in made[:half]] == [CTX] * half


def test_train_gluon_initialises_its_block_on_the_context(made, monkeypatch):
    X, Y = _data()
    nets = []
    build = gluon_module.perceptron_net

    def spy(*args):
        nets.append(build(*args))
        return nets[-1]
    monkeypatch.setattr(gluon_module, "perceptron_net", spy)
    r = gp.train_gluon(X, Y, max_epochs=5, ctx=CTX)
    ref = gp.train(X, Y, max_epochs=5)
    np.testing.assert_array_equal(r.w, ref.w)
    (net,) = nets
    for p in net.collect_params().values():
        assert p.list_ctx() == [CTX]
        assert p.data(CTX).context == CTX and p.grad(CTX).context == CTX
    assert made and all(a.context == CTX for a in made)
    assert build(3, ctx=CTX).weight.list_ctx() == [CTX]


def test_faithful_kernel_engine_runs_on_the_context(made):
    X, Y = _data()
    r = gp.beyond.train_kernel(X, Y, kernel="rbf", gamma=0.5, max_epochs=5, engine="faithful",
                        ctx=CTX)
    ref = gp.beyond.train_kernel(X, Y, kernel="rbf", gamma=0.5, max_epochs=5, engine="fast")
    assert r.updates_per_epoch == ref.updates_per_epoch
    assert len(made) == 3  # X, Y and the coefficients; the fast engine makes none
    assert all(a.context == CTX for a in made)
