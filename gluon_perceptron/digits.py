"""The slides' "0 or not 0" demo on real handwritten digits.

The slides take MNIST, label every 0 as :math:`+1` and every other digit as :math:`-1`, pad
the constant feature, and run the homogeneous perceptron
:math:`\\tilde w \\mathrel{+}= \\eta\\, y_i \\tilde x_i` whenever
:math:`\\operatorname{sign}(\\tilde w^\\top \\tilde x_i) \\ne y_i` for a fixed number of epochs,
without assuming the data separable. Here the same run uses scikit-learn's 8x8 digits (offline;
:func:`datasets.mnist_split` reads the real MNIST when you have its files). Training the padded
homogeneous perceptron from zero makes exactly the updates of :func:`perceptron.train` on the
unpadded data with a bias, the last padded weight being the bias, so :func:`train` is used.

:func:`learning_curve` measures train and test accuracy and updates per epoch, for the plain
perceptron and for the averaged one (:func:`divergence.train_averaged`), next to two baselines
(:func:`baselines`): a coin flip and always answering the majority class. :func:`plot_weights`
shows the learned weights as an image: pixels where ink argues *for* the digit in red, *against*
it in blue.
"""

from __future__ import annotations

from dataclasses import dataclass

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.axes import Axes
from matplotlib.ticker import MaxNLocator
from tqdm import tqdm

from . import _checks
from .datasets import Split, digits_split, one_vs_rest
from .divergence import train_averaged
from .perceptron import error_rate, train
from .plotting import save_figure

#: The digits the slides look at beyond 0.
SLIDE_DIGITS = (0, 3, 5, 8)


@dataclass
class LearningCurve:
    """Per-epoch measurements of a "digit or not" perceptron (index ``e`` = after epoch e+1).

    Attributes
    ----------
    digit : int
    train_accuracy, test_accuracy : ndarray, shape (epochs,)
        Plain perceptron; accuracy counts a score of exactly 0 as wrong.
    updates : ndarray of int, shape (epochs,)
        Updates (mistakes) made during each epoch.
    averaged_train_accuracy, averaged_test_accuracy : ndarray
        The averaged perceptron after each epoch (shorter if its run separated the data).
    w, b : ndarray, float
        The plain perceptron's final weights (64 pixels) and bias.
    w_averaged, b_averaged : ndarray, float
        The averaged perceptron's.
    """

    digit: int
    train_accuracy: np.ndarray
    test_accuracy: np.ndarray
    updates: np.ndarray
    averaged_train_accuracy: np.ndarray
    averaged_test_accuracy: np.ndarray
    w: np.ndarray
    b: float
    w_averaged: np.ndarray
    b_averaged: float

    @property
    def epochs(self) -> int:
        """Number of epochs measured."""
        return len(self.updates)


def accuracy(w, b: float, X, Y) -> float:
    """Fraction of examples with :math:`y (w^\\top x + b) > 0`: one minus :func:`error_rate`."""
    return 1.0 - error_rate(w, b, X, Y)


def baselines(Y_train, Y_test) -> dict[str, float]:
    """Test accuracies of two rules that ignore the image.

    * ``"coin flip"``: :math:`\\pm 1` with probability 1/2 each; expected accuracy 1/2.
    * ``"random, class frequencies"``: :math:`+1` with the training frequency :math:`p` of
      positives; expected accuracy :math:`p q + (1 - p)(1 - q)` where :math:`q` is the test
      frequency.
    * ``"majority"``: always the training set's more frequent label; accuracy is the test
      frequency of that label (about 0.9 for "0 or not 0", where only a tenth are zeros).
    """
    Y_train = _checks.labels(Y_train, name="Y_train")
    Y_test = _checks.labels(Y_test, name="Y_test")
    if Y_train.size == 0 or Y_test.size == 0:
        raise ValueError(f"Y_train and Y_test must each hold at least one label, got "
                         f"{Y_train.size} and {Y_test.size}")
    p = float(np.mean(Y_train == 1))
    q = float(np.mean(Y_test == 1))
    return {"coin flip": 0.5,
            "random, class frequencies": p * q + (1 - p) * (1 - q),
            "majority": q if p > 0.5 else 1 - q}


def learning_curve(split: Split, digit: int, *, epochs: int = 20,
                   averaged: bool = True) -> LearningCurve:
    """Train "``digit`` or not" for exactly ``epochs`` passes, measuring after each pass.

    The plain perceptron is :func:`train` run one epoch at a time, each call starting from the
    weights the previous one left (the same updates as one long run, but without stopping
    when an epoch makes no update). The averaged perceptron is
    :func:`divergence.train_averaged` with ``record=True``.

    Parameters
    ----------
    split : Split
        Integer class labels; use :func:`datasets.digits_split` or :func:`datasets.mnist_split`.
    digit : int
        The positive class.
    epochs : int
        Number of passes (fixed: the data is not assumed separable).
    averaged : bool
        Also run the averaged perceptron.
    """
    epochs = _checks.positive_int(epochs, "epochs")
    _checks.instance(split, Split, "split", "from digits_split() or mnist_split(folder)")
    Y_train = one_vs_rest(split.y_train, digit)
    Y_test = one_vs_rest(split.y_test, digit)
    w, b = np.zeros(split.X_train.shape[1]), 0.0
    train_acc, test_acc, updates = [], [], []
    for _ in range(epochs):
        result = train(split.X_train, Y_train, max_epochs=1, w0=w, b0=b)
        w, b = result.w, result.b
        updates.append(result.updates)
        train_acc.append(accuracy(w, b, split.X_train, Y_train))
        test_acc.append(accuracy(w, b, split.X_test, Y_test))
    avg_train, avg_test, w_avg, b_avg = [], [], np.zeros_like(w), 0.0
    if averaged:
        avg = train_averaged(split.X_train, Y_train, max_epochs=epochs, record=True)
        for wa, ba in avg.history["weights"]:
            avg_train.append(accuracy(wa, ba, split.X_train, Y_train))
            avg_test.append(accuracy(wa, ba, split.X_test, Y_test))
        w_avg, b_avg = avg.w, avg.b
    return LearningCurve(digit=digit, train_accuracy=np.array(train_acc),
                         test_accuracy=np.array(test_acc), updates=np.array(updates),
                         averaged_train_accuracy=np.array(avg_train),
                         averaged_test_accuracy=np.array(avg_test), w=w, b=b,
                         w_averaged=np.asarray(w_avg), b_averaged=float(b_avg))


def plot_learning_curve(curve: LearningCurve, base: dict[str, float] | None = None,
                        axes=None) -> np.ndarray:
    """Accuracy per epoch (left, with the baselines) and updates per epoch (right)."""
    _checks.instance(curve, LearningCurve, "curve", "the result of learning_curve(split, digit)")
    if axes is None:
        _, axes = plt.subplots(1, 2, figsize=(11, 4))
    ax, ax_up = axes
    e = np.arange(1, curve.epochs + 1)
    ax.plot(e, curve.train_accuracy, "o-", ms=3, color="C0", label="perceptron: train")
    ax.plot(e, curve.test_accuracy, "s-", ms=3, color="C1", label="perceptron: test")
    if curve.averaged_test_accuracy.size:
        ea = np.arange(1, curve.averaged_test_accuracy.size + 1)
        ax.plot(ea, curve.averaged_train_accuracy, "o--", ms=3, color="C0", alpha=0.6,
                label="averaged: train")
        ax.plot(ea, curve.averaged_test_accuracy, "s--", ms=3, color="C1", alpha=0.6,
                label="averaged: test")
    for (name, value), style in zip((base or {}).items(), (":", "-.", "--")):
        ax.axhline(value, color="gray", ls=style, lw=1, label=f"{name} ({value:.3f})")
    ax.set_xlabel("epoch")
    ax.set_ylabel("accuracy")
    ax.set_title(f'"{curve.digit} or not {curve.digit}": accuracy after each epoch')
    ax.legend(fontsize=7, loc="lower right")
    ax_up.bar(e, curve.updates, color="C2")
    ax_up.set_xlabel("epoch")
    ax_up.set_ylabel("updates (mistakes) in the epoch")
    clean = np.flatnonzero(curve.updates == 0)
    ax_up.set_title("updates per epoch: never 0, the training set is never separated"
                    if clean.size == 0 else f"updates per epoch: 0 from epoch {clean[0] + 1} on, "
                    f"the training set is separated", fontsize=10)
    for a in axes:
        a.xaxis.set_major_locator(MaxNLocator(integer=True))
    return axes


def image_side(x) -> int:
    """Side of the square image a flat pixel vector (optionally padded with one 1) holds."""
    n = np.asarray(x).reshape(-1).size
    side = int(round(np.sqrt(n)))
    if side * side != n:
        raise ValueError(f"cannot show {n} values as a square image (8x8 digits have 64, "
                         f"MNIST 784); drop the padded constant before plotting")
    return side


def plot_digit(x, ax=None, *, title: str | None = None) -> Axes:
    """One flattened image, ink dark on white."""
    ax = ax if ax is not None else plt.subplots(figsize=(3, 3))[1]
    side = image_side(x)
    ax.imshow(np.asarray(x).reshape(side, side), cmap="gray_r")
    ax.set_xticks([])
    ax.set_yticks([])
    if title:
        ax.set_title(title, fontsize=9)
    return ax


def plot_weights(w, ax=None, *, title: str | None = None) -> Axes:
    """Pixel weights as an image: red where ink counts for the class, blue where against it.

    The colour scale is symmetric around 0, so white means "this pixel does not matter".
    """
    ax = ax if ax is not None else plt.subplots(figsize=(3, 3))[1]
    wn = np.asarray(_checks.to_numpy(w, "w"), dtype=np.float64).reshape(-1)
    side = image_side(wn)
    scale = float(np.max(np.abs(wn))) or 1.0
    image = ax.imshow(wn.reshape(side, side), cmap="RdBu_r", vmin=-scale, vmax=scale)
    plt.colorbar(image, ax=ax, fraction=0.046, pad=0.04)
    ax.set_xticks([])
    ax.set_yticks([])
    if title:
        ax.set_title(title, fontsize=9)
    return ax


def plot_digit_weights(split: Split, curves: list[LearningCurve], axes=None) -> np.ndarray:
    """For each curve: an example of its digit (top row) and the learned weights (bottom)."""
    _checks.instance(split, Split, "split", "from digits_split() or mnist_split(folder)")
    if isinstance(curves, LearningCurve) or not curves:
        raise ValueError("curves must be a non-empty list of learning_curve(split, digit) "
                         "results, e.g. [curve] for one")
    for curve in curves:
        _checks.instance(curve, LearningCurve, "curves[k]", "from learning_curve(split, digit)")
    if axes is None:
        _, axes = plt.subplots(2, len(curves), figsize=(2.8 * len(curves), 5.6), squeeze=False)
    for k, curve in enumerate(curves):
        example = split.X_train[np.flatnonzero(split.y_train == curve.digit)[0]]
        plot_digit(example, axes[0][k], title=f"an example {curve.digit}")
        plot_weights(curve.w, axes[1][k], title=f'weights, "{curve.digit} or not"\n'
                     f"test accuracy {curve.test_accuracy[-1]:.3f}")
    return axes


def mean_image_contrast(split: Split, digit: int) -> np.ndarray:
    """Mean image of ``digit`` minus the mean image of the other digits (training part).

    A template to compare the learned weights with: where ``digit`` has more ink than the
    rest on average, a linear "digit or not" rule gains by weighting that pixel up.
    """
    positive = split.y_train == digit
    return split.X_train[positive].mean(axis=0) - split.X_train[~positive].mean(axis=0)


# --- the main job's section ----------------------------------------------------------------

def digits_section(opts) -> list:
    """The "0 or not 0" demo, its baselines and learning curve, and the weights of 0, 3, 5, 8."""
    split = digits_split(seed=opts.seed)
    curves = [learning_curve(split, d, epochs=20, averaged=d in (0, 8))
              for d in tqdm(SLIDE_DIGITS, desc="digits", disable=not opts.progress)]
    zero, eight = curves[0], curves[-1]
    base = baselines(one_vs_rest(split.y_train, 0), one_vs_rest(split.y_test, 0))
    print(f"scikit-learn digits: {len(split.y_train)} train, {len(split.y_test)} test, "
          f"8x8 pixels; 20 epochs each")
    print(f'"0 or not 0": test accuracy {zero.test_accuracy[-1]:.3f} (averaged perceptron '
          f'{zero.averaged_test_accuracy[-1]:.3f}); baselines: coin flip 0.5, majority '
          f'{base["majority"]:.3f}; updates in the last epoch: {zero.updates[-1]}')
    for curve in curves[1:]:
        print(f'"{curve.digit} or not": test accuracy {curve.test_accuracy[-1]:.3f}, '
              f'updates in epoch 20: {curve.updates[-1]}')
    print(f'"8 or not 8", test accuracy over epochs 11-20: plain perceptron '
          f'{eight.test_accuracy[10:].min():.3f}-{eight.test_accuracy[10:].max():.3f}, '
          f'averaged {eight.averaged_test_accuracy[10:].min():.3f}-'
          f'{eight.averaged_test_accuracy[10:].max():.3f}')
    fig, axes = plt.subplots(2, 2, figsize=(11, 8))
    plot_learning_curve(zero, base, axes[0])
    plot_learning_curve(eight, baselines(one_vs_rest(split.y_train, 8),
                                         one_vs_rest(split.y_test, 8)), axes[1])
    fig.subplots_adjust(hspace=0.35)
    paths = [save_figure(fig, opts.out, "09_digits_learning_curve")]
    fig, axes = plt.subplots(2, len(curves), figsize=(2.8 * len(curves), 5.6), squeeze=False)
    plot_digit_weights(split, curves, axes)
    fig.suptitle("learned weights: red = ink there argues for the digit, blue = against")
    paths.append(save_figure(fig, opts.out, "09_digits_weights"))
    return paths
