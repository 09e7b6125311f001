"""The "0 or not 0" digit demo: the slides' run, its baselines, learning curve and weights."""

import matplotlib.pyplot as plt
import numpy as np
import pytest

from gluon_perceptron.core import datasets
from gluon_perceptron.core.rosenblatt import train
from gluon_perceptron.experiments import digits as exp_digits
from gluon_perceptron.plots import digits as plt_digits

#: The stated margin: 0-vs-rest test accuracy beats the majority baseline by at least this.
MARGIN_OVER_MAJORITY = 0.05


@pytest.fixture(scope="module")
def curves(split):
    return {d: exp_digits.learning_curve(split, d, epochs=20) for d in exp_digits.SLIDE_DIGITS}


def slides_loop(X, y, epochs):
    """The slides' code on padded data: w += y x whenever sign(w.x) != y (sign(0) = 0)."""
    Xp = np.hstack([X, np.ones((X.shape[0], 1))])
    w = np.zeros(Xp.shape[1])
    for _ in range(epochs):
        for x_i, y_i in zip(Xp, y):
            if np.sign(w.dot(x_i)) != y_i:
                w = w + y_i * x_i
    return w


def test_padded_homogeneous_run_is_train_with_a_bias(split):
    Y = datasets.one_vs_rest(split.y_train, 3)
    w_slides = slides_loop(split.X_train, Y, epochs=3)
    result = train(split.X_train, Y, max_epochs=3)
    assert np.allclose(w_slides[:-1], result.w) and np.isclose(w_slides[-1], result.b)


def test_epoch_by_epoch_equals_one_run(split, curves):
    Y = datasets.one_vs_rest(split.y_train, 8)
    result = train(split.X_train, Y, max_epochs=20)
    assert not result.converged
    assert result.updates_per_epoch == curves[8].updates.tolist()
    assert np.allclose(result.w, curves[8].w) and np.isclose(result.b, curves[8].b)


def test_accuracy_is_measured_independently(split, curves):
    c = curves[5]
    Y = datasets.one_vs_rest(split.y_test, 5)
    manual = np.mean(np.sign(split.X_test @ c.w + c.b) == Y)
    assert c.test_accuracy[-1] == pytest.approx(manual)


def test_zero_or_not_beats_the_majority_baseline(split, curves):
    zero = curves[0]
    base = exp_digits.baselines(datasets.one_vs_rest(split.y_train, 0),
                            datasets.one_vs_rest(split.y_test, 0))
    share_of_zeros = np.mean(split.y_test == 0)
    assert base["majority"] == pytest.approx(1 - share_of_zeros)
    assert 0.88 < base["majority"] < 0.93
    assert base["coin flip"] == 0.5
    p = np.mean(split.y_train == 0)
    assert base["random, class frequencies"] == pytest.approx(
        p * share_of_zeros + (1 - p) * (1 - share_of_zeros))
    # the notebook's claim: from the first epoch on, at least 5 points above the majority
    assert np.all(zero.test_accuracy >= base["majority"] + MARGIN_OVER_MAJORITY)
    assert zero.test_accuracy[-1] >= 0.99


def test_zero_separates_but_eight_does_not(curves):
    """The notebook: 0-vs-rest is separated within 20 epochs, 8-vs-rest never is."""
    assert 0 in curves[0].updates and curves[0].train_accuracy[-1] == 1.0
    first_clean = int(np.flatnonzero(curves[0].updates == 0)[0])
    assert np.all(curves[0].updates[first_clean:] == 0)
    assert np.all(curves[8].updates >= 24) and curves[8].train_accuracy[-1] < 1.0  # dozens
    assert curves[8].test_accuracy[-1] < curves[0].test_accuracy[-1]


def test_averaged_perceptron_is_steadier_on_eight(curves):
    """The notebook: on 8-vs-rest the plain test accuracy jumps around, the averaged one
    barely moves over the last 10 epochs."""
    c = curves[8]
    assert c.averaged_test_accuracy.size == 20
    plain = np.ptp(c.test_accuracy[-10:])
    averaged = np.ptp(c.averaged_test_accuracy[-10:])
    assert averaged < plain / 2


def test_weights_look_like_the_digit(split, curves):
    """The notebook: the weights resemble "this digit's ink minus the others'", and for 0 the
    centre (the hole of a 0) is weighted against."""
    for d, curve in curves.items():
        template = exp_digits.mean_image_contrast(split, d)
        assert np.corrcoef(curve.w, template)[0, 1] > 0.5, d
    centre = curves[0].w.reshape(8, 8)[3:5, 3:5]
    assert np.all(centre < 0)
    ring = split.X_train[split.y_train == 0].mean(axis=0) > 0.5  # where a typical 0 has ink
    assert ring.sum() >= 12 and np.mean(curves[0].w[ring] > 0) > 0.5


def test_plots_draw(split, curves):
    fig, axes = plt.subplots(1, 2)
    plt_digits.plot_learning_curve(curves[0], {"majority": 0.9}, axes)
    assert len(axes[0].lines) == 5 and len(axes[1].patches) == 20
    axes = plt_digits.plot_digit_weights(split, [curves[0], curves[3]])
    assert axes[1][0].images[0].get_array().shape == (8, 8)
    image = axes[1][0].images[0]
    assert image.norm.vmin == -image.norm.vmax  # white is 0
    with pytest.raises(ValueError, match="square"):
        plt_digits.plot_weights(np.zeros(65))


def test_bad_arguments(split):
    with pytest.raises(ValueError, match="epochs"):
        exp_digits.learning_curve(split, 0, epochs=0)
    with pytest.raises(ValueError, match="no example has label 11"):
        exp_digits.learning_curve(split, 11, epochs=1)
