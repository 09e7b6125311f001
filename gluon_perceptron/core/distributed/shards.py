"""Shards from files: each worker opens only its own shard; the caller reads only headers.

``train_distributed(shards=[(features, labels), ...])`` and ``train_mixed(shards=[...])`` take
one pair per shard instead of ``X, Y``. Each side of a pair is one of:

- the path of a ``.npy`` file (``np.save``), opened memory-mapped;
- the path of an IDX file (LeCun's format, :mod:`~gluon_perceptron.core.data.idx`), raw (opened
  memory-mapped) or gzip-compressed (then decompressed by the worker that reads it);
- a ``numpy.memmap`` (e.g. ``np.memmap("x0.f32", np.float32, "r", shape=(n0, d))`` over raw
  bytes, or ``np.load("x0.npy", mmap_mode="r")``): the worker maps the same bytes again from
  its ``filename``, ``offset``, ``dtype``, ``shape`` and order.

A features file holds an ``(n_i, d)`` array of float32 or float64 (the same ``d`` and dtype in
every shard); a labels file holds ``n_i`` labels in {-1, +1} (any real dtype, 1-D or one
column). The file kind is told by the first bytes (``.npy``'s and gzip's magic, else IDX's),
not by the name.

:func:`check_shards` runs in the calling process and reads only each file's header (its size
on disk, for a raw IDX file): shapes, dtypes, the same ``d`` everywhere. It returns plain
JSON-able descriptions, which go to the workers in the task. :func:`open_shard` runs in a
worker (or in ``train_mixed``): it maps its shard, checks the values (finite features, labels
in {-1, +1}, with the messages of the in-memory checks, naming the shard and its files) and
returns arrays in the features' dtype and native byte order, exactly the rows an in-memory run
would hold.
"""

from __future__ import annotations

import gzip
import mmap
import os
import struct
from pathlib import Path

import numpy as np

from .. import _checks

#: The first bytes of a ``.npy`` file and of a gzip stream.
_NPY_MAGIC = b"\x93NUMPY"
_GZIP_MAGIC = b"\x1f\x8b"

#: The feature dtypes a shard may hold (an in-memory run keeps both precisions as they are).
FLOAT_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))


def _idx_dtypes() -> dict:
    from ..data.idx import IDX_DTYPES

    return IDX_DTYPES


def _idx_header(path: Path, stream, size: int | None) -> tuple[tuple, np.dtype, int]:
    """``(shape, dtype, header_bytes)`` of an IDX stream positioned at its start.

    Reads only the header (4 + 4 k bytes). With ``size`` (a raw file's length) a length that
    does not match the header is refused here; a gzip file is checked by the worker that
    decompresses it (:func:`~gluon_perceptron.core.data.idx.read_idx`).
    """
    from ..data.idx import IDXError

    magic = stream.read(4)
    dtypes = _idx_dtypes()
    if len(magic) < 4 or magic[0] or magic[1] or magic[2] not in dtypes or magic[3] == 0:
        raise IDXError(f"{path}: neither a .npy file (magic \\x93NUMPY) nor an IDX file (two "
                       f"zero bytes, a type code in {[hex(k) for k in dtypes]}, a dimension "
                       f"count >= 1); starts with 0x{magic.hex()}")
    ndim = magic[3]
    dims = stream.read(4 * ndim)
    if len(dims) < 4 * ndim:
        raise IDXError(f"{path}: truncated IDX header: {ndim} dimensions need "
                       f"{4 + 4 * ndim} bytes")
    shape = struct.unpack(f">{ndim}I", dims)
    dtype = dtypes[magic[2]]
    header = 4 + 4 * ndim
    if size is not None:
        expected = header + int(np.prod(shape, dtype=object)) * dtype.itemsize
        if size != expected:
            problem = "truncated" if size < expected else "corrupt (extra bytes after the data)"
            raise IDXError(f"{path}: {problem}: the header announces shape {shape} of "
                           f"{dtype.itemsize}-byte elements, i.e. {expected} bytes in all, but "
                           f"the file has {size}")
    return shape, dtype, header


def _describe(entry, what: str) -> dict:
    """The description of one file of a shard, from its header only."""
    if isinstance(entry, np.memmap):
        if not isinstance(entry.base, mmap.mmap) or entry.filename is None:
            raise ValueError(f"{what} is a slice or view of a numpy.memmap; pass the memmap "
                             f"itself (one per shard file), or the file's path")
        order = "F" if entry.flags.f_contiguous and not entry.flags.c_contiguous else "C"
        return {"kind": "memmap", "path": str(entry.filename), "offset": int(entry.offset),
                "dtype": entry.dtype.str, "shape": list(entry.shape), "order": order}
    if isinstance(entry, (np.ndarray, list)) or hasattr(entry, "asnumpy"):
        raise TypeError(f"{what} is an array in memory; shards= takes files (a path or a "
                        f"numpy.memmap): pass in-memory data as X, Y instead")
    if not isinstance(entry, (str, os.PathLike)):
        raise TypeError(f"{what} must be a file path (str or pathlib.Path) or a numpy.memmap, "
                        f"got {type(entry).__name__} {entry!r:.40}")
    path = Path(entry).resolve()
    if not path.is_file():
        state = "is a folder, not a file" if path.exists() else "does not exist"
        raise FileNotFoundError(f"{what}: {str(path)!r} {state}")
    with path.open("rb") as f:
        start = f.read(6)
        f.seek(0)
        if start == _NPY_MAGIC:
            f.close()
            try:  # reads the header and maps the rest: no row is read
                array = np.load(path, mmap_mode="r", allow_pickle=False)
            except ValueError as exc:
                raise ValueError(f"{what}: {path} cannot be memory-mapped: {exc}") from exc
            order = "F" if array.flags.f_contiguous and not array.flags.c_contiguous else "C"
            desc = {"kind": "npy", "path": str(path), "offset": int(array.offset),
                    "dtype": array.dtype.str, "shape": list(array.shape), "order": order}
            del array
            return desc
        if start[:2] == _GZIP_MAGIC:
            with gzip.GzipFile(fileobj=f) as stream:
                try:
                    shape, dtype, header = _idx_header(path, stream, None)
                except (OSError, EOFError) as exc:
                    raise ValueError(f"{what}: {path}: the gzip stream is corrupt ({exc})") \
                        from exc
            return {"kind": "idx.gz", "path": str(path), "offset": header, "dtype": dtype.str,
                    "shape": list(shape), "order": "C"}
        shape, dtype, header = _idx_header(path, f, os.fstat(f.fileno()).st_size)
    return {"kind": "idx", "path": str(path), "offset": header, "dtype": dtype.str,
            "shape": list(shape), "order": "C"}


def _shape_text(desc: dict) -> str:
    return f"shape {tuple(desc['shape'])} of {np.dtype(desc['dtype']).name}"


def check_shards(shards, name: str = "shards") -> tuple[list[dict], int, str]:
    """Check a list of ``(features, labels)`` files from their headers only.

    Returns ``(descriptions, d, dtype)``: one JSON-able dict per shard (``"features"``,
    ``"labels"``, ``"rows"``), the common number of features and the features' dtype name
    (``"float32"`` or ``"float64"``). No row is read.

    Raises
    ------
    TypeError
        ``shards`` is not a list of pairs, or a side of a pair is neither a path nor a memmap.
    FileNotFoundError
        A file does not exist.
    ValueError
        A file is neither ``.npy`` nor IDX, features are not 2-D float32/float64, the shards
        differ in ``d`` or dtype, labels are not one per row of their shard.
    """
    if isinstance(shards, (str, os.PathLike)) or not isinstance(shards, (list, tuple)):
        raise TypeError(f"{name} must be a list of (features, labels) file pairs, one per "
                        f"shard, got {type(shards).__name__} {shards!r:.60}")
    if not shards:
        raise ValueError(f"{name} is empty: give at least one (features, labels) pair")
    out: list[dict] = []
    first: tuple[int, np.dtype, str] | None = None
    for i, pair in enumerate(shards):
        if not isinstance(pair, (list, tuple)) or len(pair) != 2:
            raise TypeError(f"{name}[{i}] must be a pair (features, labels) of files, got "
                            f"{type(pair).__name__} {pair!r:.60}")
        fx = _describe(pair[0], f"{name}[{i}] features")
        fy = _describe(pair[1], f"{name}[{i}] labels")
        dx, dy = np.dtype(fx["dtype"]), np.dtype(fy["dtype"])
        if len(fx["shape"]) != 2 or 0 in fx["shape"]:
            raise ValueError(f"{name}[{i}] features ({fx['path']}) must be a 2-D array (rows, "
                             f"features) with at least one of each, got {_shape_text(fx)}")
        if dx.newbyteorder("=") not in FLOAT_DTYPES:
            raise ValueError(f"{name}[{i}] features ({fx['path']}) must be float32 or "
                             f"float64, got {_shape_text(fx)}; save them as floats")
        rows, d = fx["shape"]
        yshape = fy["shape"]
        if not (len(yshape) == 1 or (len(yshape) == 2 and yshape[1] == 1)):
            raise ValueError(f"{name}[{i}] labels ({fy['path']}) must be 1-D (one label per "
                             f"row), got {_shape_text(fy)}")
        if yshape[0] != rows:
            raise ValueError(f"{name}[{i}]: features ({fx['path']}) have {rows:,} rows but "
                             f"labels ({fy['path']}) have {yshape[0]:,}; a shard needs one "
                             f"label per row")
        if dy.kind not in "iuf":
            raise ValueError(f"{name}[{i}] labels ({fy['path']}) must hold the numbers -1 "
                             f"and +1, got dtype {dy}")
        if first is None:
            first = (d, dx.newbyteorder("="), fx["path"])
        elif (d, dx.newbyteorder("=")) != first[:2]:
            raise ValueError(f"every shard must have the same number of features and dtype: "
                             f"{name}[0] ({first[2]}) is {first[0]} x {first[1].name}, "
                             f"{name}[{i}] ({fx['path']}) is {d} x {dx.name}")
        out.append({"features": fx, "labels": fy, "rows": int(rows)})
    assert first is not None  # shards is not empty
    return out, int(first[0]), first[1].name


def _open(desc: dict) -> np.ndarray:
    """The array a description names: memory-mapped, or read (a gzip IDX file).

    Mapped copy-on-write (``mode="c"``): no page is copied unless written (nothing writes),
    yet the array is writeable, so the compiled pass gets the array type it was compiled for
    rather than compiling again for a read-only one.
    """
    shape = tuple(desc["shape"])
    if desc["kind"] == "idx.gz":
        from ..data.idx import read_idx

        array = read_idx(Path(desc["path"]))
        if array.shape != shape:
            raise ValueError(f"{desc['path']} changed since it was checked: shape "
                             f"{array.shape}, was {shape}")
        return array
    return np.asarray(np.memmap(desc["path"], dtype=np.dtype(desc["dtype"]), mode="c",
                                offset=desc["offset"], shape=shape, order=desc["order"]))


def open_shard(shard: dict, index: int) -> tuple[np.ndarray, np.ndarray]:
    """Open shard ``index`` (a description from :func:`check_shards`); check its values.

    Returns ``(X, Y)``: ``X`` C-contiguous in the features' dtype and native byte order (still
    memory-mapped when the file is already so), ``Y`` as -1.0/+1.0 in that dtype. Exactly the
    rows an in-memory run on the same data holds, bit for bit.

    Raises
    ------
    ValueError
        Non-finite features or labels outside {-1, +1}; the message names the shard and file.
    """
    fx, fy = shard["features"], shard["labels"]
    dtype = np.dtype(fx["dtype"]).newbyteorder("=")
    X = np.ascontiguousarray(_open(fx), dtype=dtype)
    Xn = _checks.features(X, name=f"the features of shard {index} ({fx['path']})")
    Yn = _checks.labels(_open(fy), Xn.shape[0], name=f"the labels of shard {index} "
                        f"({fy['path']})", dtype=dtype, of=f"the features of shard {index}")
    return Xn, Yn
