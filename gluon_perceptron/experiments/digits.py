"""Digits, 0 or not 0: learning curves and baselines.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core import _checks
from ..core.datasets import Split, one_vs_rest
from ..core.rosenblatt import error_rate, train
from ..core.variants import train_averaged

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


def mean_image_contrast(split: Split, digit: int) -> np.ndarray:
    """Mean image of ``digit`` minus the mean image of the other digits (training part).

    A template to compare the learned weights with: where ``digit`` has more ink than the
    rest on average, a linear "digit or not" rule gains by weighting that pixel up.
    """
    positive = split.y_train == digit
    return split.X_train[positive].mean(axis=0) - split.X_train[~positive].mean(axis=0)
