"""The IDX format (LeCun's MNIST files): read, write and parse, streaming gzip.

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
its own magic bytes, whatever the file is called, and streams it: the header is checked before
any data is decompressed, and no more than the announced data (plus one byte, to detect extra
bytes) is ever decompressed.
"""

from __future__ import annotations

import gzip
import io
import math
import os
import struct
import zlib
from pathlib import Path

import numpy as np

from .._checks import to_numpy
from .._validation import Rule, flag, optional, such_that, unchecked, validate_params

#: IDX element type codes and the big-endian numpy dtypes they stand for.
IDX_DTYPES: dict[int, np.dtype] = {
    0x08: np.dtype(">u1"), 0x09: np.dtype(">i1"), 0x0B: np.dtype(">i2"),
    0x0C: np.dtype(">i4"), 0x0D: np.dtype(">f4"), 0x0E: np.dtype(">f8")}


_GZIP_MAGIC = b"\x1f\x8b"


#: Largest data part an IDX header may announce, in bytes (numpy cannot address more).
IDX_MAX_BYTES = 2**63 - 1


#: Most dimensions a numpy array (so an IDX file this reader accepts) can have.
_MAX_DIMENSIONS = 32


#: Decompress a gzip IDX file in pieces of this many bytes.
_CHUNK = 1 << 24


class IDXError(ValueError):
    """An IDX file is not what it should be: wrong magic number, truncated, or corrupt."""


def _exactly(stream: io.BufferedIOBase, size: int, source: str, what: str) -> bytes:
    """Read ``size`` bytes, decompressing at most that much; shorter means truncated."""
    parts, got = [], 0
    while got < size:
        part = stream.read(min(_CHUNK, size - got))
        if not part:
            break
        parts.append(part)
        got += len(part)
    data = b"".join(parts)
    if len(data) < size:
        raise IDXError(f"{source}: truncated {what}: {size} bytes announced, only {len(data)} "
                       f"found")
    return data


def _parse_stream(stream: io.BufferedIOBase, source: str, size: int | None = None) -> np.ndarray:
    """Decode an IDX stream: header first, then exactly the announced data, then nothing.

    ``size`` is the stream's total length when known (an uncompressed file): then a wrong
    length is refused before any data is read.
    """
    magic = stream.read(4)
    if len(magic) < 4:
        raise IDXError(f"{source}: only {len(magic)} bytes, too short for the 4-byte IDX magic "
                       f"number; the file is truncated or not an IDX file")
    zero1, zero2, code, ndim = magic
    if zero1 != 0 or zero2 != 0 or code not in IDX_DTYPES or ndim == 0:
        raise IDXError(f"{source}: wrong magic number 0x{magic.hex()}; an IDX file starts "
                       f"with two zero bytes, a type code in "
                       f"{[hex(k) for k in IDX_DTYPES]} and a dimension count >= 1 "
                       f"(MNIST images: 0x00000803, labels: 0x00000801)")
    if ndim > _MAX_DIMENSIONS:
        raise IDXError(f"{source}: the header announces {ndim} dimensions, more than the "
                       f"{_MAX_DIMENSIONS} a numpy array can have; the header is corrupt")
    header = 4 + 4 * ndim
    dims = stream.read(4 * ndim)
    if len(dims) < 4 * ndim:
        raise IDXError(f"{source}: truncated header: {ndim} dimensions need {header} bytes, "
                       f"the file has {4 + len(dims)}")
    shape = struct.unpack(f">{ndim}I", dims)
    dtype = IDX_DTYPES[code]
    count = math.prod(shape)  # Python integers: the product cannot wrap around
    nbytes = count * dtype.itemsize
    # numpy also refuses a shape whose nonzero sizes multiply past its limit, even when
    # another size is 0 (the array would be empty)
    if (reach := math.prod(n for n in shape if n) * dtype.itemsize) > IDX_MAX_BYTES:
        raise IDXError(f"{source}: the header announces shape {shape} of {dtype.itemsize}-byte "
                       f"elements, whose sizes multiply to {reach} bytes, more than the "
                       f"{IDX_MAX_BYTES} bytes numpy can address; the header is corrupt")
    expected = header + nbytes
    if size is not None and size != expected:
        problem = "truncated" if size < expected else "corrupt (extra bytes after the data)"
        raise IDXError(f"{source}: {problem}: the header announces shape {shape} of "
                       f"{dtype.itemsize}-byte elements, i.e. {expected} bytes in all, but the "
                       f"file has {size}")
    data = _exactly(stream, nbytes, source, f"data (shape {shape})")
    if size is None and stream.read(1):
        raise IDXError(f"{source}: corrupt (extra bytes after the data): the header announces "
                       f"shape {shape} of {dtype.itemsize}-byte elements, i.e. {expected} "
                       f"bytes in all, and more follow")
    array = np.frombuffer(data, dtype=dtype).reshape(shape)
    return array.astype(dtype.newbyteorder("="))


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
        Wrong magic number, unknown type code, header or data shorter than announced, bytes
        left over after the data, or a header announcing more than :data:`IDX_MAX_BYTES`.
    """
    return _parse_stream(io.BytesIO(raw), source, len(raw))


def _read_file(path: Path) -> np.ndarray:
    """Parse an IDX file, streaming it through gzip when it starts with gzip's magic."""
    if not path.is_file():
        what = "is a folder, not a file" if path.exists() else "does not exist"
        raise FileNotFoundError(f"IDX file {str(path)!r} {what}; nothing is downloaded: "
                                f"point to your own copy of the file")
    with path.open("rb") as f:
        if f.read(2) != _GZIP_MAGIC:
            f.seek(0)
            return _parse_stream(f, str(path), os.fstat(f.fileno()).st_size)
        f.seek(0)
        try:
            with gzip.GzipFile(fileobj=f) as stream:
                return _parse_stream(stream, str(path))
        except (OSError, EOFError, zlib.error) as exc:
            raise IDXError(f"{path}: the gzip stream is truncated or corrupt ({exc}); "
                           f"download the file again or decompress it by hand to check") from exc


def _path_rule(what: str) -> Rule:
    """A file or folder name (``str`` or ``os.PathLike``; the body makes it a
    :class:`~pathlib.Path`); ``what`` is ``"file"`` or ``"folder"``, for the message."""
    return such_that(unchecked, lambda value, _: isinstance(value, (str, os.PathLike)),
                     f"{{name}} must be a {what} name (str or pathlib.Path), got "
                     f"{{value.__class__.__name__}} {{value!r:.40}}", error=TypeError)


@validate_params(path=_path_rule("file"))
def read_idx(path) -> np.ndarray:
    """Read an IDX file (optionally gzip-compressed) into a numpy array.

    Raises
    ------
    FileNotFoundError
        The path does not exist.
    IDXError
        Wrong magic number, truncated or corrupt file (see :func:`parse_idx`); for a gzip
        file also a truncated or corrupt gzip stream.
    """
    return _read_file(Path(path))


def _idx_array(array, name: str, args: dict) -> np.ndarray:
    a = to_numpy(array, name)  # a ragged list: "array is ragged", not numpy's warning
    if a.dtype.newbyteorder("=") not in _CODES:
        raise ValueError(f"{name} dtype {a.dtype} has no IDX type code; cast to one of "
                         f"uint8, int8, int16, int32, float32, float64")
    if a.ndim == 0:  # (numpy holds at most 32, within IDX's 255)
        raise ValueError(f"{name} must have at least 1 dimension, got a scalar")
    if max(a.shape) >= 2**32:
        raise ValueError(f"{name} has shape {a.shape}: IDX stores each size as an unsigned "
                         f"32-bit number, at most 2**32 - 1 = {2**32 - 1}; split the array")
    return a


#: Native-order numpy dtype -> IDX type code.
_CODES = {dt.newbyteorder("="): code for code, dt in IDX_DTYPES.items()}


@validate_params(path=_path_rule("file"), array=Rule(_idx_array, "an array IDX can hold"),
                 compress=optional(flag()))
def write_idx(path, array, *, compress: bool | None = None) -> Path:
    """Write ``array`` as an IDX file (gzip-compressed when ``compress``, or, when ``compress``
    is None, when the name ends .gz).

    The inverse of :func:`read_idx`; handy to store a subset of MNIST, or to make test files.

    Raises
    ------
    ValueError
        ``path`` cannot be written (a folder holds its name, its folder is missing or is a
        file, no permission): the message names it and the system's reason.
    """
    path, array = Path(path), np.asarray(array)
    code = _CODES[array.dtype.newbyteorder("=")]
    raw = (bytes([0, 0, code, array.ndim]) + struct.pack(f">{array.ndim}I", *array.shape)
           + array.astype(IDX_DTYPES[code]).tobytes())
    if compress is None:
        compress = path.suffix == ".gz"
    try:
        path.write_bytes(gzip.compress(raw) if compress else raw)
    except OSError as exc:
        raise ValueError(f"path {str(path)!r} cannot be written to "
                         f"({exc.strerror or type(exc).__name__}); give a file name in an "
                         f"existing folder you can write to") from exc
    return path
