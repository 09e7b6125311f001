"""A scheduler or server process of MXNet's parameter server, without Python's MXNet package.

``python -m gluon_perceptron.core.distributed.node LIBMXNET`` loads MXNet's C library and runs
what ``import mxnet`` runs when ``DMLC_ROLE`` is ``scheduler`` or ``server``
(``mxnet/kvstore/kvstore_server.py``): ``MXKVStoreCreate("dist")`` then
``MXKVStoreRunServer``, which returns when the workers shut the cluster down. Importing the
Python package first would register about a thousand operators, seconds of start-up on a small
machine, which a node that only stores and sums arrays never uses.

Such a server sums what the workers push and stores the sum (``dist_sync`` with no optimizer);
it cannot run an optimizer sent by ``KVStore.set_optimizer``: the launcher starts full
``python -c "import mxnet"`` servers for Gluon's ``update_on_kvstore``.

A node started by the launcher ends when the launcher is gone (:func:`.lifeline.watch_parent`).
"""

from __future__ import annotations

import ctypes
import importlib.util
import sys
from pathlib import Path

from gluon_perceptron.core.distributed import lifeline


def libmxnet_path() -> str:
    """Where MXNet's C library is, found without importing the ``mxnet`` package."""
    spec = importlib.util.find_spec("mxnet")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("mxnet is not installed; pip install mxnet==1.9.1")
    path = Path(list(spec.submodule_search_locations)[0]) / "libmxnet.so"
    if not path.exists():
        raise RuntimeError(f"MXNet's C library is not at {path}")
    return str(path)


def main(argv: list[str]) -> int:
    """Run the node whose role ``DMLC_ROLE`` names; ``argv[0]`` is the path of libmxnet.so."""
    lifeline.watch_parent()  # the server loop runs in C without the GIL: the thread runs
    lib = ctypes.CDLL(argv[0], ctypes.RTLD_LOCAL)
    lib.MXGetLastError.restype = ctypes.c_char_p
    handle = ctypes.c_void_p()
    if lib.MXKVStoreCreate(b"dist", ctypes.byref(handle)) != 0:
        raise RuntimeError(lib.MXGetLastError().decode())
    controller = ctypes.CFUNCTYPE(None, ctypes.c_int, ctypes.c_char_p, ctypes.c_void_p)

    def command(head, body, _):
        sys.stderr.write(f"node: command {head} ignored (this server runs no optimizer)\n")

    callback = controller(command)  # kept alive until the server returns
    if lib.MXKVStoreRunServer(handle, callback, None) != 0:
        raise RuntimeError(lib.MXGetLastError().decode())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
