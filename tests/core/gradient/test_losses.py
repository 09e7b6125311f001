"""Losses of the SGD view: autograd's gradient against the closed form -y (x, 1), the kink."""

import functools

import numpy as np
import pytest
from mxnet import autograd, nd

import gluon_perceptron as gp
from gluon_perceptron.core.gradient.losses import perceptron_loss, score
from gluon_perceptron.core.gradient.subgradients import average_loss


def _closed_form(w, b, x, y, threshold):
    """Written out here, independently of the package: -y (x, 1) where y f <= delta, else 0."""
    if y * (float(np.dot(w, x)) + b) <= threshold:
        return -y * np.asarray(x, dtype=np.float64), -y
    return np.zeros(len(x)), 0.0


def _autograd(loss, w, b, x, y, dtype="float64", reduce=None):
    wd, bd = nd.array(w, dtype=dtype), nd.array(np.reshape(b, -1), dtype=dtype)
    wd.attach_grad()
    bd.attach_grad()
    with autograd.record():
        value = loss(wd, bd, nd.array(x, dtype=dtype), y)
        if reduce is not None:
            value = getattr(value, reduce)()
    value.backward()
    return wd.grad.asnumpy(), bd.grad.asnumpy(), value.asnumpy()


LOSSES = [(0.0, perceptron_loss), (1.0, gp.hinge_loss),
          (0.5, functools.partial(gp.threshold_loss, threshold=0.5))]


def _random_case(rng, threshold, kind, d=4):
    """A one-example problem of the given kind; ties use small integers (exact arithmetic)."""
    while True:
        if kind == "tie":
            w, x = rng.integers(-3, 4, size=(2, d)).astype(float)
            y = float(rng.choice([-1, 1]))
            return w, threshold * y - w @ x, x, y
        w, x = rng.normal(size=(2, d))
        b, y = rng.normal(), float(rng.choice([-1, 1]))
        margin = y * (w @ x + b)
        if (kind == "mistake" and margin < threshold - 0.05) or \
           (kind == "correct" and margin > threshold + 0.05):
            return w, b, x, y


@pytest.mark.parametrize("threshold, loss", LOSSES)
@pytest.mark.parametrize("kind", ["mistake", "correct", "tie"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_autograd_gradient_is_the_closed_form(threshold, loss, kind, dtype):
    rng = np.random.default_rng(hash((threshold, kind)) % 2**32)
    for _ in range(15):
        w, b, x, y = _random_case(rng, threshold, kind)
        gw, gb, value = _autograd(loss, w, b, x, y, dtype)
        ew, eb = _closed_form(w, b, x, y, threshold)
        tol = 1e-6 if dtype == "float32" else 1e-12
        np.testing.assert_allclose(gw, ew, atol=tol)
        np.testing.assert_allclose(gb, [eb], atol=tol)
        if kind != "correct":  # the update direction, not the zero gradient
            assert gb[0] == -y
        np.testing.assert_allclose(value, [max(0.0, threshold - y * (w @ x + b))],
                                   rtol=1e-5, atol=1e-6)
        aw, ab = gp.analytic_subgradient(w, [b], x, y, threshold=threshold)
        np.testing.assert_allclose(aw, ew, atol=1e-12)
        np.testing.assert_allclose(ab, [eb], atol=1e-12)


def test_the_tie_at_zero_weights_moves_every_example():
    """Where every run starts: w = 0, b = 0, all margins 0, the gradient is -y (x, 1)."""
    x = np.array([0.5, -2.0, 3.0])
    for y in (-1.0, 1.0):
        gw, gb, value = _autograd(perceptron_loss, np.zeros(3), 0.0, x, y, "float32")
        np.testing.assert_array_equal(gw, -y * x.astype(np.float32))
        np.testing.assert_array_equal(gb, [-y])
        assert value[0] == 0.0


@pytest.mark.parametrize("threshold, loss", LOSSES)
@pytest.mark.parametrize("reduce", ["sum", "mean"])
def test_batches_sum_and_mean(threshold, loss, reduce):
    rng = np.random.default_rng(3)
    X = rng.integers(-3, 4, size=(40, 3)).astype(float)
    Y = rng.choice([-1.0, 1.0], size=40)
    w, b = np.array([1.0, -2.0, 2.0]), 0.0
    X[:3] = 0.0  # margin 0: ties of the perceptron loss
    X[3:6] = Y[3:6, None] * [1.0, 0.0, 0.0]  # margin 1: ties of the hinge loss
    margins = Y * (X @ w + b)
    assert np.sum(margins == 0) >= 3 and np.sum(margins == 1) >= 3
    gw, gb, value = _autograd(loss, w, b, X, Y, "float64", reduce=reduce)
    cases = [_closed_form(w, b, X[i], Y[i], threshold) for i in range(40)]
    ew = np.sum([c[0] for c in cases], axis=0)
    eb = sum(c[1] for c in cases)
    scale = 1.0 / 40 if reduce == "mean" else 1.0
    np.testing.assert_allclose(gw, scale * ew, atol=1e-12)
    np.testing.assert_allclose(gb, [scale * eb], atol=1e-12)
    np.testing.assert_allclose(value, scale * np.maximum(0, threshold - margins).sum())
    aw, ab = gp.analytic_subgradient(w, [b], X, Y, threshold=threshold, reduction=reduce)
    np.testing.assert_allclose(aw, scale * ew, atol=1e-12)
    np.testing.assert_allclose(ab, [scale * eb], atol=1e-12)


def test_batch_reduction_none_gives_one_gradient_per_example():
    X = np.array([[1.0, 2.0], [3.0, -1.0]])
    gw, gb = gp.analytic_subgradient([1.0, 0.0], [0.0], X, [-1.0, 1.0], reduction="none")
    np.testing.assert_array_equal(gw, [[1.0, 2.0], [0.0, 0.0]])
    np.testing.assert_array_equal(gb, [1.0, 0.0])


def test_one_model_per_row_gives_each_row_its_own_gradient():
    rng = np.random.default_rng(5)
    W = rng.integers(-2, 3, size=(6, 3)).astype(float)
    B = rng.integers(-2, 3, size=6).astype(float)
    X = rng.integers(-2, 3, size=(6, 3)).astype(float)
    Y = rng.choice([-1.0, 1.0], size=6)
    gw, gb, _ = _autograd(gp.hinge_loss, W, B, X, nd.array(Y, dtype="float64"), "float64",
                          reduce="sum")
    for r in range(6):
        ew, eb = _closed_form(W[r], B[r], X[r], Y[r], 1.0)
        np.testing.assert_allclose(gw[r], ew)
        assert gb[r] == eb


@pytest.mark.parametrize("threshold, loss", LOSSES)
def test_finite_differences_agree_away_from_the_kink(threshold, loss):
    rng = np.random.default_rng(7)
    h = 1e-6
    checked = 0
    while checked < 20:
        w, x = rng.normal(size=(2, 3))
        b, y = rng.normal(), float(rng.choice([-1, 1]))
        if abs(y * (w @ x + b) - threshold) < 0.01:
            continue
        theta = np.append(w, b)
        value = functools.partial(lambda t, x, y: _autograd(loss, t[:3], t[3], x, y)[2][0],
                                  x=x, y=y)
        numeric = [(value(theta + h * e) - value(theta - h * e)) / (2 * h) for e in np.eye(4)]
        gw, gb, _ = _autograd(loss, w, b, x, y)
        np.testing.assert_allclose(np.append(gw, gb), numeric, atol=1e-6)
        checked += 1


def test_mxnet_operators_disagree_at_the_kink():
    assert gp.kink_gradient("nd.maximum(-z, 0)") == -1.0
    assert gp.kink_gradient("nd.relu(-z)") == 0.0
    assert gp.kink_gradient("nd.maximum(nd.zeros_like(z), -z)") == 0.0
    for form in gp.KINK_FORMS:  # away from the kink all three agree
        assert gp.kink_gradient(form, -0.5) == -1.0
        assert gp.kink_gradient(form, 0.5) == 0.0


def test_relu_form_has_the_same_values_but_no_gradient_at_the_tie():
    x = np.array([1.0, -2.0])
    gw, gb, value = _autograd(gp.relu_perceptron_loss, np.zeros(2), 0.0, x, 1.0, "float32")
    assert value[0] == 0.0 and not gw.any() and gb[0] == 0.0
    rng = np.random.default_rng(0)
    X, Y = rng.normal(size=(10, 2)), rng.choice([-1.0, 1.0], size=10)
    w = nd.array([0.3, -1.0], dtype="float64")
    b = nd.array([0.2], dtype="float64")
    np.testing.assert_allclose(gp.relu_perceptron_loss(w, b, X, Y).asnumpy(),
                               perceptron_loss(w, b, X, Y).asnumpy())


def test_compare_subgradients_covers_every_kind_and_agrees():
    for threshold in (0.0, 1.0):
        check = gp.experiments.compare_subgradients(60, threshold=threshold)
        assert set(check["kind"]) == {"mistake", "correct", "tie"}
        np.testing.assert_array_equal(check["autograd"], check["closed_form"])
        ties = check["kind"] == "tie"
        assert np.all(check["autograd"][ties][:, -1] != 0)  # the bias gradient is -y


def test_score_and_average_loss():
    w = nd.array([1.0, 2.0])
    b = nd.array([0.5])
    np.testing.assert_allclose(score(w, b, nd.array([1.0, 1.0])).asnumpy(), [3.5])
    np.testing.assert_allclose(score(w, b, [[1.0, 0.0], [0.0, -1.0]]).asnumpy(), [1.5, -1.5])
    X = np.array([[1.0, 0.0], [0.0, -1.0], [2.0, 2.0]])
    Y = np.array([1.0, 1.0, -1.0])
    expected = np.mean(np.maximum(0, 1 - Y * (X @ [1.0, 2.0] + 0.5)))
    assert average_loss([1.0, 2.0], 0.5, X, Y, threshold=1.0) == pytest.approx(expected)
    rows = average_loss(np.array([[1.0, 2.0], [0.0, 0.0]]), np.array([0.5, 0.0]), X, Y)
    np.testing.assert_allclose(rows, [np.mean(np.maximum(0, -Y * (X @ [1.0, 2.0] + 0.5))), 0.0])


def test_bad_input_is_named():
    w, b = nd.zeros((2,)), nd.zeros((1,))
    with pytest.raises(TypeError, match="w must be an mxnet NDArray"):
        perceptron_loss(np.zeros(2), b, nd.array([1.0, 1.0]), 1)
    with pytest.raises(ValueError, match="y must be -1 or \\+1"):
        perceptron_loss(w, b, nd.array([1.0, 1.0]), 0)
    with pytest.raises(ValueError, match="does not fit w"):
        perceptron_loss(w, b, nd.array([1.0, 1.0, 1.0]), 1)
    with pytest.raises(ValueError, match="b must have shape"):
        perceptron_loss(w, nd.zeros((2,)), nd.array([1.0, 1.0]), 1)
    with pytest.raises(ValueError, match="only -1 and \\+1"):
        perceptron_loss(w, b, np.ones((3, 2)), [1, 0, 1])
    with pytest.raises(ValueError, match="reduction"):
        gp.analytic_subgradient([0.0], [0.0], [1.0], 1, reduction="max")
    with pytest.raises(ValueError, match="form"):
        gp.kink_gradient("nd.abs")


def test_notebook_4_subgradients_agree_exactly_on_150_cases():
    """Notebook 4: 150 random problems per threshold, a third on the kink: no difference."""
    for threshold in (0.0, 1.0):
        check = gp.experiments.compare_subgradients(150, threshold=threshold)
        assert check.largest_difference == 0.0
        assert np.sum(check.kind == "tie") >= 50  # a third placed there, plus chance ties
        assert check["autograd"] is check.autograd  # the old dict access still works


# --- bad input (issue 12) ---------------------------------------------------------------------

@pytest.mark.parametrize("loss", [perceptron_loss, gp.hinge_loss, gp.relu_perceptron_loss,
                                  lambda w, b, x, y: gp.threshold_loss(w, b, x, y, 0.5)])
def test_losses_refuse_bad_labels_nan_and_mixed_dtypes(loss):
    w, b, x = nd.array([1.0, -1.0]), nd.array([0.5]), nd.array([2.0, 0.0])
    for y in (0, 0.5, 5, float("nan")):
        with pytest.raises(ValueError, match="y must"):
            loss(w, b, x, y)
    X = nd.array([[1.0, 2.0], [0.0, 1.0]])
    for Y in (nd.array([1.0, 0.0]), nd.array([1.0, 5.0]), nd.array([1.0, float("nan")])):
        with pytest.raises(ValueError, match="y must"):
            loss(w, b, X, Y)
    for bad in (nd.array([float("nan"), 1.0]), nd.array([float("inf"), 1.0])):
        with pytest.raises(ValueError, match="must be finite"):
            loss(bad, b, x, 1.0)
        with pytest.raises(ValueError, match="must be finite"):
            loss(w, b, bad, 1.0)
    with pytest.raises(TypeError, match="x has dtype float64 but w has float32.*astype"):
        loss(w, b, nd.array([2.0, 0.0], dtype="float64"), 1.0)
    with pytest.raises(TypeError, match="w must hold floats"):
        loss(nd.array([1, 2], dtype="int32"), nd.array([0], dtype="int32"),
             nd.array([1, 2], dtype="int32"), 1.0)
    # a numpy x is cast to w's dtype (documented)
    assert loss(w, b, np.array([2.0, 0.0]), 1.0).dtype == np.float32


def test_perceptron_loss_for_gluon_refuses_bad_labels_and_nan():
    loss = gp.PerceptronLoss()
    pred = nd.array([[0.5], [-1.0]])
    for label in (nd.array([1.0, 0.0]), nd.array([0.5, 1.0]), nd.array([5.0, 1.0])):
        with pytest.raises(ValueError, match="only -1 and \\+1"):
            loss(pred, label)
    with pytest.raises(ValueError, match="pred must be finite"):
        loss(nd.array([[float("nan")], [1.0]]), nd.array([1.0, -1.0]))
    np.testing.assert_allclose(loss(pred, nd.array([1.0, 1.0])).asnumpy(), [0.0, 1.0])


def test_analytic_subgradient_refuses_nan_weights():
    for w, b in (([float("nan"), 0.0], [0.0]), ([0.0, 0.0], [float("nan")])):
        with pytest.raises(ValueError, match="must be finite"):
            gp.analytic_subgradient(w, b, [1.0, 1.0], 1)


def test_a_batch_of_one_example_with_one_bare_label_names_x_as_well():
    """The fuzz profile's find: ``x`` of shape (1, d) is a batch, so ``y`` must be a list of one
    label; the refusal named only ``y`` (was: "y must be 1-D (one label per example), got a
    int"), though the reader may have meant ``x`` of shape (d,)."""
    w, b = nd.zeros(2), nd.zeros(1)
    w.attach_grad()
    b.attach_grad()
    with pytest.raises(ValueError, match=r"y must hold one label per row of x, a batch of 1 "
                                         r"examples; or pass x of shape \(2,\) for one example"):
        gp.gradient.sgd_step(w, b, nd.array([[0.0, 0.0]]), 1)
    gp.gradient.sgd_step(w, b, nd.array([[0.0, 0.0]]), [1])  # one label per row: a step


def test_an_empty_batch_is_refused_by_name():
    """An x of shape (0, d) reached MXNet's dot and failed inside it (the fuzz profile found it)."""
    w, b = nd.zeros(2), nd.zeros(1)
    with pytest.raises(ValueError, match=r"x must hold at least one example, got shape \(0, 2\)"):
        gp.hinge_loss(w, b, np.zeros((0, 2)), 1.0)


def test_a_threshold_beyond_the_dtype_is_refused_by_the_loss():
    """A threshold float32 cannot hold gives a loss of inf: refused by name, one example (the
    cached graph) or a batch; in float64 the same threshold is a number."""
    w, b = nd.zeros(2), nd.zeros(1)
    for x, y in (([1.0, 1.0], 1.0), ([[1.0, 1.0], [2.0, 2.0]], [1, -1])):
        with pytest.raises(ValueError, match=r"threshold_loss overflowed to inf in float32: "
                                             r"w, b and x \(and threshold\)"):
            gp.threshold_loss(w, b, x, y, threshold=1e39)
    value = gp.threshold_loss(w.astype("float64"), b.astype("float64"), [1.0, 1.0], 1.0,
                              threshold=1e39)
    assert value.asscalar() == pytest.approx(1e39)


@pytest.mark.parametrize("call", [
    lambda w, b, x, y: gp.threshold_loss(nd.array(w), nd.array(b), x, y),
    lambda w, b, x, y: gp.analytic_subgradient(w, b, x, y)],
    ids=["threshold_loss", "analytic_subgradient"])
def test_the_losses_and_the_closed_form_refuse_the_same_examples(call):
    """One rule for (w, b, x, y): the closed form takes what threshold_loss takes (its docstring
    says "as in threshold_loss"), numbers or NDArrays, and refuses the same, by name."""
    w, b = [1.0, -1.0], [0.5]
    for x, y, match in ((np.zeros((0, 2)), [], r"x must hold at least one example"),
                        ([1.0, 2.0, 3.0], 1, "does not fit w"),
                        ([[1.0, 2.0]], [1, 1], "^x and y must have the same length: x has"),
                        (["a", "b"], 1, "x must hold real numbers"),
                        ([np.inf, 1.0], 1, "x must be finite"),
                        ([1.0, 2.0], 0.5, "y must be -1 or \\+1")):
        with pytest.raises(ValueError, match=match):
            call(w, b, x, y)
    with pytest.raises(ValueError, match="b must have shape"):
        call(w, [0.5, 0.5], [1.0, 2.0], 1)
    with pytest.raises(ValueError, match="does not fit w"):  # one model per row: one x per row
        call([[1.0, -1.0]], b, [1.0, 2.0], 1)


def test_a_float64_x_beyond_float32_is_refused_before_the_step():
    """A numpy x is cast to w's dtype; one beyond float32's range would step w to inf."""
    w, b = nd.zeros(2), nd.zeros(1)
    w.attach_grad()
    b.attach_grad()
    with pytest.raises(ValueError, match=r"x must be finite, .* \(as float32\)"):
        gp.sgd_step(w, b, np.array([1e300, 1.0]), 1.0)
    assert not w.asnumpy().any()
