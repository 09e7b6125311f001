"""Real data: scikit-learn's 8x8 digits offline, and the user's own MNIST files in IDX format.

Nothing here downloads anything. :func:`load_digits` reads the 1,797 handwritten digits that
ship inside scikit-learn (an optional extra: ``pip install "gluon_perceptron[digits]"``);
:func:`load_mnist` reads the four MNIST files when the user already has them on disk.

The IDX format (LeCun's MNIST files) is a 4-byte magic number, then one big-endian unsigned
32-bit size per dimension, then the data in row-major order:

====== ========================================================================
bytes  meaning
====== ========================================================================
0, 1   always zero
2      element type: 0x08 uint8, 0x09 int8, 0x0B int16, 0x0C int32, 0x0D float32,
       0x0E float64 (multi-byte types big-endian)
3      number of dimensions ``k``
4..    ``k`` sizes, each a big-endian uint32
then   ``prod(sizes)`` elements
====== ========================================================================

MNIST's image files are ``idx3`` (count x 28 x 28, uint8) and its label files ``idx1`` (count,
uint8). Files may be gzip-compressed (as distributed, ``.gz``); the reader recognises gzip by
its own magic bytes, whatever the file is called.
"""

from __future__ import annotations

import gzip
import os
import struct
import zlib
from pathlib import Path
from typing import NamedTuple

import numpy as np

from . import _checks
from .data import pad_constant

#: IDX element type codes and the big-endian numpy dtypes they stand for.
IDX_DTYPES = {0x08: np.dtype(">u1"), 0x09: np.dtype(">i1"), 0x0B: np.dtype(">i2"),
              0x0C: np.dtype(">i4"), 0x0D: np.dtype(">f4"), 0x0E: np.dtype(">f8")}
_GZIP_MAGIC = b"\x1f\x8b"

#: The file names MNIST is distributed under, for each part (without the optional ``.gz``).
MNIST_FILES = {
    "train": ("train-images-idx3-ubyte", "train-labels-idx1-ubyte"),
    "test": ("t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte"),
}

_EXTRA_HINT = ('scikit-learn is needed for the built-in digits: install the optional extra '
               'with  pip install "gluon_perceptron[digits]"  (or  pip install scikit-learn)')


class IDXError(ValueError):
    """An IDX file is not what it should be: wrong magic number, truncated, or corrupt."""


class Split(NamedTuple):
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


# --- IDX files -------------------------------------------------------------------------------

def _read_bytes(path: Path) -> bytes:
    """The file's bytes, decompressed when they start with gzip's magic."""
    if not path.is_file():
        what = "is a folder, not a file" if path.exists() else "does not exist"
        raise FileNotFoundError(f"IDX file {str(path)!r} {what}; nothing is downloaded: "
                                f"point to your own copy of the file")
    raw = path.read_bytes()
    if raw[:2] != _GZIP_MAGIC:
        return raw
    try:
        return gzip.decompress(raw)
    except (OSError, EOFError, zlib.error) as exc:
        raise IDXError(f"{path}: the gzip stream is truncated or corrupt ({exc}); "
                       f"download the file again or decompress it by hand to check") from exc


def parse_idx(raw: bytes, source: str = "IDX data") -> np.ndarray:
    """Decode the bytes of an IDX file (already decompressed) into a numpy array.

    Parameters
    ----------
    raw : bytes
    source : str
        Name used in error messages (the file's path).

    Returns
    -------
    ndarray
        Shape given by the header, dtype given by the type byte, in native byte order.

    Raises
    ------
    IDXError
        Wrong magic number, unknown type code, header or data shorter than announced, or
        bytes left over after the data.
    """
    if len(raw) < 4:
        raise IDXError(f"{source}: only {len(raw)} bytes, too short for the 4-byte IDX magic "
                       f"number; the file is truncated or not an IDX file")
    zero1, zero2, code, ndim = raw[:4]
    if zero1 != 0 or zero2 != 0 or code not in IDX_DTYPES or ndim == 0:
        raise IDXError(f"{source}: wrong magic number 0x{raw[:4].hex()}; an IDX file starts "
                       f"with two zero bytes, a type code in "
                       f"{[hex(k) for k in IDX_DTYPES]} and a dimension count >= 1 "
                       f"(MNIST images: 0x00000803, labels: 0x00000801)")
    header = 4 + 4 * ndim
    if len(raw) < header:
        raise IDXError(f"{source}: truncated header: {ndim} dimensions need {header} bytes, "
                       f"the file has {len(raw)}")
    shape = struct.unpack(f">{ndim}I", raw[4:header])
    dtype = IDX_DTYPES[code]
    expected = header + int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    if len(raw) != expected:
        problem = "truncated" if len(raw) < expected else "corrupt (extra bytes after the data)"
        raise IDXError(f"{source}: {problem}: the header announces shape {shape} of "
                       f"{dtype.itemsize}-byte elements, i.e. {expected} bytes in all, but the "
                       f"file has {len(raw)}")
    data = np.frombuffer(raw, dtype=dtype, offset=header).reshape(shape)
    return data.astype(dtype.newbyteorder("="))


def read_idx(path) -> np.ndarray:
    """Read an IDX file (optionally gzip-compressed) into a numpy array.

    Raises
    ------
    FileNotFoundError
        The path does not exist.
    IDXError
        Wrong magic number, truncated or corrupt file (see :func:`parse_idx`).
    """
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path must be a file name (str or pathlib.Path), got "
                        f"{type(path).__name__} {path!r:.40}")
    path = Path(path)
    return parse_idx(_read_bytes(path), str(path))


def write_idx(path, array, *, compress: bool | None = None) -> Path:
    """Write ``array`` as an IDX file (gzip-compressed when ``compress``, or the name ends .gz).

    The inverse of :func:`read_idx`; handy to store a subset of MNIST, or to make test files.
    """
    a = np.asarray(array)
    codes = {dt.newbyteorder("="): code for code, dt in IDX_DTYPES.items()}
    key = a.dtype.newbyteorder("=")
    if key not in codes:
        raise ValueError(f"array dtype {a.dtype} has no IDX type code; cast to one of "
                         f"uint8, int8, int16, int32, float32, float64")
    if a.ndim == 0 or a.ndim > 255:
        raise ValueError(f"array must have between 1 and 255 dimensions, got {a.ndim}")
    path = Path(path)
    raw = (bytes([0, 0, codes[key], a.ndim]) + struct.pack(f">{a.ndim}I", *a.shape)
           + a.astype(IDX_DTYPES[codes[key]]).tobytes())
    if compress is None:
        compress = path.suffix == ".gz"
    path.write_bytes(gzip.compress(raw) if compress else raw)
    return path


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
    return images, labels.astype(np.int64)


def mnist_split(folder, *, scale: bool = True) -> Split:
    """MNIST's own train/test split, images flattened to rows (pixels in [0, 1] if ``scale``)."""
    parts = []
    for part in ("train", "test"):
        images, labels = load_mnist(folder, part)
        X = images.reshape(images.shape[0], -1).astype(np.float64)
        parts += [X / 255.0 if scale else X, labels]
    return Split(*parts)


# --- the built-in digits ---------------------------------------------------------------------

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
    seed : int
        Seed of ``numpy.random.default_rng``: the same seed gives the same split.
    """
    Xn = _checks.features(X)
    yn = _checks.to_numpy(y, "y").reshape(-1)
    if yn.shape[0] != Xn.shape[0]:
        raise ValueError(f"X and y must have the same length: X has {Xn.shape[0]} examples, "
                         f"y has {yn.shape[0]} labels")
    test_fraction = _checks.finite_float(test_fraction, "test_fraction")
    if not 0 < test_fraction < 1:
        raise ValueError(f"test_fraction must be strictly between 0 and 1, got {test_fraction}")
    n = Xn.shape[0]
    if n < 2:
        raise ValueError(f"need at least 2 examples to split, got {n}")
    n_test = min(n - 1, max(1, int(round(test_fraction * n))))
    order = np.random.default_rng(_checks.positive_int(seed, "seed", minimum=0)).permutation(n)
    test, train = order[:n_test], order[n_test:]
    return Split(Xn[train], yn[train], Xn[test], yn[test])


def digits_split(*, test_fraction: float = 0.25, seed: int = 0, scale: bool = True) -> Split:
    """:func:`load_digits` cut by :func:`train_test_split` (default: 1,348 train, 449 test)."""
    X, y = load_digits(scale=scale)
    return train_test_split(X, y, test_fraction=test_fraction, seed=seed)


def one_vs_rest(y, positive) -> np.ndarray:
    """Binary labels for "``positive`` or not": +1 where ``y == positive``, else -1."""
    yn = _checks.to_numpy(y, "y").reshape(-1)
    if not np.any(yn == positive):
        raise ValueError(f"no example has label {positive!r}; labels present: "
                         f"{np.unique(yn)[:10].tolist()}")
    return np.where(yn == positive, 1.0, -1.0)


def image_side(x) -> int:
    """Side of the square image a flat pixel vector (optionally padded with one 1) holds."""
    n = np.asarray(x).reshape(-1).size
    side = int(round(np.sqrt(n)))
    if side * side != n:
        raise ValueError(f"cannot show {n} values as a square image (8x8 digits have 64, "
                         f"MNIST 784); drop the padded constant before plotting")
    return side
