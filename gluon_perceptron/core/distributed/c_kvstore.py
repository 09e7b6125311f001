"""A ``dist_sync`` KVStore of float32 arrays through MXNet's C library, without ``import mxnet``.

A mixing worker (:mod:`.worker`) only initialises one key, pushes its rows and pulls the sum:
what ``mx.kv.create``, ``kv.init``, ``kv.push``, ``kv.pull`` and ``NDArray.asnumpy`` do, each
one call of ``libmxnet.so``'s C API (``include/mxnet/c_api.h``), the calls the Python package
makes itself. Importing the package first would register about a thousand operators (more
than a second of CPU per worker on a small machine) that such a worker never uses; the
scheduler and the summing servers (:mod:`.node`) run without it for the same reason. Gluon's
workers, which train with autograd, import the package.
"""

from __future__ import annotations

import ctypes

import numpy as np

from .node import libmxnet_path

#: MXNet's codes for a CPU array of float32 (``Context.devtype2mask``, ``_DTYPE_NP_TO_MX``).
_CPU, _FLOAT32 = 1, 0


class CKVStore:
    """One KVStore of this process (``kind`` as for ``mx.kv.create``, e.g. ``"dist_sync"``),
    its values float32 numpy arrays, each push and pull one C call as the Python package makes
    it.

    Attributes
    ----------
    rank, num_workers : int
        As ``KVStore.rank`` and ``KVStore.num_workers`` (the scheduler's ranks).
    """

    def __init__(self, kind: str):
        self._lib = lib = ctypes.CDLL(libmxnet_path(), ctypes.RTLD_LOCAL)
        lib.MXGetLastError.restype = ctypes.c_char_p
        self._handle = ctypes.c_void_p()
        self._call("MXKVStoreCreate", kind.encode(), ctypes.byref(self._handle))
        value = ctypes.c_int()
        self._call("MXKVStoreGetRank", self._handle, ctypes.byref(value))
        self.rank = value.value
        self._call("MXKVStoreGetGroupSize", self._handle, ctypes.byref(value))
        self.num_workers = value.value
        self._pulled: dict[int, tuple[ctypes.c_void_p, np.ndarray]] = {}

    def _call(self, name: str, *args) -> None:
        if getattr(self._lib, name)(*args) != 0:
            raise RuntimeError(f"{name}: {self._lib.MXGetLastError().decode()}")

    def _ndarray(self, values: np.ndarray) -> ctypes.c_void_p:
        """A new CPU NDArray holding ``values`` (float32), as ``nd.array`` makes it."""
        values = np.ascontiguousarray(values, dtype=np.float32)
        shape = (ctypes.c_uint * values.ndim)(*values.shape)
        handle = ctypes.c_void_p()
        self._call("MXNDArrayCreateEx", shape, ctypes.c_uint(values.ndim), ctypes.c_int(_CPU),
                   ctypes.c_int(0), ctypes.c_int(0), ctypes.c_int(_FLOAT32),
                   ctypes.byref(handle))
        self._call("MXNDArraySyncCopyFromCPU", handle, values.ctypes.data_as(ctypes.c_void_p),
                   ctypes.c_size_t(values.size))
        return handle

    def _keyed(self, name: str, key: int, handle: ctypes.c_void_p, *more) -> None:
        keys, vals = (ctypes.c_int * 1)(key), (ctypes.c_void_p * 1)(handle)
        self._call(name, self._handle, ctypes.c_uint(1), keys, vals, *more)

    def init(self, key: int, values: np.ndarray) -> None:
        """``kv.init(key, nd.array(values))``; later pulls of ``key`` have this shape."""
        handle = self._ndarray(values)
        self._keyed("MXKVStoreInit", key, handle)
        self._pulled[key] = (self._ndarray(values), np.empty(values.shape, np.float32))
        self._call("MXNDArrayFree", handle)

    def push(self, key: int, values: np.ndarray) -> None:
        """``kv.push(key, nd.array(values))``: a fresh array each time (a pull may write into
        the pushed one); it is freed once the engine is done with it."""
        handle = self._ndarray(values)
        self._keyed("MXKVStorePush", key, handle, ctypes.c_int(0))
        self._call("MXNDArrayFree", handle)

    def pull(self, key: int) -> np.ndarray:
        """``kv.pull(key, out=pulled); pulled.asnumpy()``: the servers' value of ``key``."""
        handle, out = self._pulled[key]
        self._keyed("MXKVStorePull", key, handle, ctypes.c_int(0))
        self._call("MXNDArraySyncCopyToCPU", handle, out.ctypes.data_as(ctypes.c_void_p),
                   ctypes.c_size_t(out.size))  # waits for the pull, as asnumpy does
        return out.copy()

    def barrier(self) -> None:
        """``kv._barrier()``: every worker reaches this point before any goes on."""
        self._call("MXKVStoreBarrier", self._handle)
