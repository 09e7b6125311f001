"""The perceptron step and the trainer: updates, ties, in-place behaviour, bounds, bad input."""

import numpy as np
import pytest
from mxnet import nd

import gluon_perceptron as gp


def _state(w, b):
    return nd.array(w), nd.array([b])


def test_step_updates_on_a_mistake_in_place():
    w, b = _state([1.0, 0.0], 0.0)
    w_id = id(w)
    x = nd.array([2.0, 1.0])
    assert gp.perceptron(w, b, x, -1) == 1  # y f = -2 < 0
    assert id(w) == w_id
    np.testing.assert_allclose(w.asnumpy(), [-1.0, -1.0])
    assert b.asscalar() == -1.0


def test_step_updates_at_the_tie():
    w, b = _state([0.0, 0.0], 0.0)
    assert gp.perceptron(w, b, nd.array([0.5, -2.0]), nd.array([1.0])) == 1
    np.testing.assert_allclose(w.asnumpy(), [0.5, -2.0])
    assert b.asscalar() == 1.0


def test_step_leaves_correct_points_alone():
    w, b = _state([1.0, 1.0], 0.5)
    assert gp.perceptron(w, b, nd.array([1.0, 1.0]), 1.0) == 0
    np.testing.assert_allclose(w.asnumpy(), [1.0, 1.0])
    assert b.asscalar() == 0.5


def test_step_threshold_and_learning_rate():
    w, b = _state([1.0, 0.0], 0.0)
    # margin 0.5 is correct for delta = 0 but a "mistake" for delta = 1
    assert gp.perceptron(w, b, nd.array([0.5, 0.0]), 1, threshold=1.0, learning_rate=0.5) == 1
    np.testing.assert_allclose(w.asnumpy(), [1.25, 0.0])
    assert b.asscalar() == 0.5


@pytest.mark.parametrize("y", [0, 2, 0.5, float("nan")])
def test_step_rejects_bad_labels(y):
    w, b = _state([0.0, 0.0], 0.0)
    with pytest.raises(ValueError, match="y must be -1 or \\+1"):
        gp.perceptron(w, b, nd.array([1.0, 1.0]), y)
    np.testing.assert_array_equal(w.asnumpy(), [0.0, 0.0])


def test_step_rejects_numpy_weights_and_wrong_shapes():
    with pytest.raises(TypeError, match="w must be an mxnet NDArray"):
        gp.perceptron(np.zeros(2), nd.zeros((1,)), nd.array([1.0, 1.0]), 1)
    with pytest.raises(ValueError, match="same length"):
        gp.perceptron(nd.zeros((3,)), nd.zeros((1,)), nd.array([1.0, 1.0]), 1)
    with pytest.raises(ValueError, match="b must have shape"):
        gp.perceptron(nd.zeros((2,)), nd.zeros((2,)), nd.array([1.0, 1.0]), 1)


def test_chapter_demo_reproduces_its_own_trace(seed, capsys):
    X, Y = gp.getfake(50, 2, 0.3)
    run = gp.demo(X, Y)
    w, b, updates = run.w, run.b, run.updates
    assert capsys.readouterr().out == ""  # the experiment prints nothing: the trace is returned
    printed = run.trace
    assert printed.count("Encountered an error and updated parameters") == len(updates) > 0
    # replaying the recorded updates gives the final weights
    wsum = sum(u.y * u.x for u in updates)
    np.testing.assert_allclose(w.asnumpy(), wsum, rtol=1e-5, atol=1e-5)
    assert b.asscalar() == sum(u.y for u in updates)
    assert updates[0].index == 0  # from w = 0 the tie makes the first point an update


@pytest.mark.parametrize("engine", ["fast", "faithful"])
def test_train_converges_within_the_bound(seed, engine):
    for s in range(4):
        seed(s)
        fake = gp.sample_separable(200, 2, 0.2)
        r = gp.train(fake.X, fake.Y, max_epochs=1000, engine=engine)
        assert r.converged and r.updates_per_epoch[-1] == 0
        assert r.updates == sum(r.updates_per_epoch)
        assert gp.error_rate(r.w, r.b, fake.X, fake.Y) == 0.0
        info = gp.theory.generating_plane_bound(fake.X, fake.Y, fake.wfake, fake.bfake)
        assert r.updates <= info["bound"]
        assert isinstance(r.w, np.ndarray) and r.w.shape == (2,) and isinstance(r.b, float)


@pytest.mark.parametrize("engine", ["fast", "faithful"])
def test_train_is_honest_on_xor(engine):
    X, Y = gp.xor_data()
    r = gp.train(X, Y, max_epochs=25, engine=engine)
    assert not r.converged
    assert r.epochs == 25
    assert all(u > 0 for u in r.updates_per_epoch)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_fast_engine_equals_faithful(seed, dtype):
    """At a rate that no float holds exactly (0.1), on the chapter's sampler and on noise. The
    chapter's rate 1 is test_training_fast's: ``test_fast_equals_faithful`` (separable, noisy,
    integer and sparse data, float32 and float64, both fast backends) and
    ``test_fast_equals_faithful_on_the_chapter_data``."""
    lr = 0.1
    for s in range(6):
        seed(100 + s)
        if s % 2:
            fake = gp.sample_separable(150, 3, 0.05)
            X, Y = fake.X.asnumpy().astype(dtype), fake.Y.asnumpy()
        else:  # not separable: labels flipped at random
            X = np.random.randn(120, 4).astype(dtype)
            Y = np.where(np.random.rand(120) < 0.5, 1.0, -1.0)
        a = gp.train(X, Y, max_epochs=6, engine="fast", learning_rate=lr)
        b = gp.train(X, Y, max_epochs=6, engine="faithful", learning_rate=lr)
        assert a.updates_per_epoch == b.updates_per_epoch
        assert a.w.dtype == b.w.dtype == dtype
        np.testing.assert_array_equal(a.w, b.w)
        assert a.b == b.b
        assert a.converged == b.converged


def test_train_threshold_and_start(seed):
    fake = gp.sample_separable(100, 2, 0.3)
    r = gp.train(fake.X, fake.Y, max_epochs=2000, threshold=0.5)
    assert r.converged
    margins = fake.Y.asnumpy() * (fake.X.asnumpy() @ r.w + r.b)
    assert margins.min() > 0.5
    w0 = np.array([5.0, -5.0])
    a = gp.train(fake.X, fake.Y, max_epochs=50, w0=w0, b0=1.0, engine="fast")
    b = gp.train(fake.X, fake.Y, max_epochs=50, w0=w0, b0=1.0, engine="faithful")
    np.testing.assert_array_equal(a.w, b.w)


def test_train_accepts_ndarray_numpy_and_lists():
    X, Y = gp.xor_data()
    for Xi, Yi in [(X, Y), (nd.array(X), nd.array(Y)), (X.tolist(), Y.tolist())]:
        r = gp.train(Xi, Yi, max_epochs=3)
        # XOR from zero: every one of the four points is a mistake (or a tie) in every pass,
        # and each pass brings (w, b) back to zero
        assert r.updates_per_epoch == [4, 4, 4]
        assert np.all(r.w == 0) and r.b == 0


@pytest.mark.parametrize("X,Y,kw,word", [
    (np.ones((3, 2)), [1, -1], {}, "same length"),
    (np.ones((3, 2)), [1, 0, 1], {}, "only -1 and \\+1"),
    (np.ones((3, 2)), [1, 2, 1], {}, "only -1 and \\+1"),
    (np.array([[1.0, np.nan], [0, 0]]), [1, -1], {}, "X must be finite"),
    (np.array([[1.0, np.inf], [0, 0]]), [1, -1], {}, "X must be finite"),
    (np.ones((2, 2)), [1.0, np.nan], {}, "Y must be finite"),
    (np.ones(3), [1, -1, 1], {}, "2-D"),
    (np.ones((2, 2)), [1, -1], {"max_epochs": 0}, "max_epochs"),
    (np.ones((2, 2)), [1, -1], {"learning_rate": -1.0}, "learning_rate"),
    (np.ones((2, 2)), [1, -1], {"engine": "turbo"}, "engine"),
    (np.ones((2, 2)), [1, -1], {"w0": [1.0]}, "w0"),
])
def test_train_rejects_bad_input(X, Y, kw, word):
    kwargs = {"max_epochs": 5, **kw}
    with pytest.raises(ValueError, match=word):
        gp.train(X, Y, **kwargs)


def test_train_requires_max_epochs():
    X, Y = gp.xor_data()
    with pytest.raises(TypeError):
        gp.train(X, Y)  # no default: the rule need not stop on its own


def test_predict_and_error_rate():
    X, Y = gp.xor_data()
    assert list(gp.predict([1.0, 0.0], 0.0, X)) == [-1, -1, 1, 1]
    assert gp.error_rate([1.0, 0.0], 0.0, X, Y) == 0.5


# --- no silent wrong answers (issue 20) -------------------------------------------------------

def test_a_step_that_would_write_inf_raises_and_leaves_w_alone():
    w, b, x = nd.zeros((2,)), nd.zeros((1,)), nd.array([10.0, -10.0])
    with pytest.raises(ValueError, match=r"overflowed: the weights \(w, b\) after the step"):
        gp.perceptron(w, b, x, 1.0, learning_rate=1e38)  # 1e39 is inf in float32
    assert w.asnumpy().tolist() == [0.0, 0.0] and b.asscalar() == 0.0


def _margin_data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(20, 2))
    return X, np.where(X[:, 0] + 0.3 > 0, 1.0, -1.0)


def test_error_rate_and_predict_of_huge_weights_are_right():
    X, Y = _margin_data()
    w = np.array([1e308, -1e308])
    truth = np.mean(Y * (X @ np.array([1.0, -1.0])) <= 0)  # the same signs, at unit scale
    assert truth == pytest.approx(0.35)
    assert gp.error_rate(w, 0, X * 10, Y) == truth
    np.testing.assert_array_equal(gp.predict(w, 0, X * 10),
                                  np.where(X @ np.array([1.0, -1.0]) > 0, 1.0, -1.0))


def test_error_rate_refuses_scores_that_overflow_at_any_scale():
    X = np.array([[1.7e308] * 4, [1.0] * 4])
    with pytest.raises(ValueError, match="scale X down"):
        gp.error_rate([1.0] * 4, 0.0, X, [1, -1])


def test_a_starting_point_that_overflows_is_blamed_on_w0():
    X, Y = _margin_data()
    with pytest.raises(ValueError, match="w0 and b0 give starting margins") as info:
        gp.train(X, Y, max_epochs=5, w0=[1e308, 1e308])
    assert "Scale the data" not in str(info.value)
    with pytest.raises(ValueError, match="w0 and b0"):  # finite in float64, inf in float32
        gp.train(X.astype(np.float32), Y, max_epochs=5, w0=[1e300, 0.0])


def test_the_steps_bodies_convert_their_own_arguments():
    """Issue 28 item 3: a rule checks, the body converts. Called past its rules (as the
    package calls it), each step takes its label as a one-element array and its options as
    numpy scalars, and makes the update the checked call makes."""
    import mxnet as mx

    w, b = nd.zeros(2), nd.zeros(1)
    assert gp.perceptron.__wrapped__(w, b, nd.array([1.0, 2.0]), nd.array([-1.0]),
                                     learning_rate=np.float64(0.5), threshold=np.int64(0)) == 1
    assert w.asnumpy().tolist() == [-0.5, -1.0] and b.asscalar() == -0.5
    wn, bn = mx.np.zeros(2), mx.np.zeros(1)
    assert gp.chapter.perceptron_np.__wrapped__(wn, bn, mx.np.array([1.0, 2.0]),
                                                mx.np.array([-1.0]),
                                                learning_rate=np.float64(0.5)) == 1
    assert wn.asnumpy().tolist() == [-0.5, -1.0] and bn.item() == -0.5
