"""What runs on each host of a multi-host cluster, before and around its node.

``python -m gluon_perceptron.core.distributed.remote KIND [TASK_DIR]`` is the command
:func:`~.hosts.launch_hosts` starts on a host through the remote-start command (ssh by default),
with ``DMLC_ROLE`` and the other ``DMLC_*`` variables set. ``KIND`` is ``node`` (a scheduler or
server in MXNet's C library, :mod:`.node`), ``pyserver`` (a server inside ``import mxnet``, for
an optimizer) or ``worker`` (:mod:`.worker`, on ``TASK_DIR``). Before the node starts it:

1. **checks the traps** that would otherwise hang the cluster or end it in "bind failed": the
   address in ``DMLC_NODE_HOST`` must be one of this host's (a test bind, no traffic), the
   scheduler's port must be free on it (with ``DMLC_PS_ROOT_PORT=0`` the scheduler picks a
   free one and tells the launcher; either way it is then held for the node, as the launcher
   holds a local scheduler's), the task folder must be there (a worker);
2. **says hello** on its standard output: one line ``GPHELLO {json}`` with this host's name
   and the versions of Python, this package, MXNet and numpy (the launcher refuses a mix), or
   ``GPERROR {json}`` with what is wrong and how to fix it (then it exits 2);
3. **keeps the heartbeat**: the launcher writes a byte to the node's standard input every
   second (through ssh); the node ends (``os._exit``) at end of file (the launcher, or the ssh
   client carrying its bytes, is gone: SIGKILL included) or after :data:`SILENCE` seconds
   without a byte (the launcher's host or the network is down). The node answers with a byte
   ``\\x00`` every second, and a worker with ``\\x01`` per exchange (:func:`.lifeline.report`),
   so the launcher names a node that stops answering.

Everything else the node writes goes to its standard error, which the launcher logs. This
module imports only the standard library and numpy until the node itself starts.
"""

from __future__ import annotations

import errno
import json
import os
import select
import socket
import sys
import threading
import time
from pathlib import Path

from gluon_perceptron.core.distributed import lifeline

#: Seconds between two heartbeat bytes, in each direction.
BEAT = 1.0
#: Seconds without a byte from the launcher after which a node ends itself.
SILENCE = 15.0
#: How the first line of a node's standard output starts.
HELLO, ERROR = "GPHELLO ", "GPERROR "


def versions() -> dict:
    """The versions a node and its launcher must share (read without importing MXNet)."""
    from importlib import metadata

    import numpy

    package = sys.modules["gluon_perceptron"]  # imported before any of its modules
    try:
        mxnet = metadata.version("mxnet")
    except metadata.PackageNotFoundError:
        mxnet = None
    return {"python": ".".join(map(str, sys.version_info[:3])),
            "gluon_perceptron": package.__version__, "mxnet": mxnet,
            "numpy": numpy.__version__}


def _refuse(out: int, message: str) -> None:
    os.write(out, (ERROR + json.dumps({"error": message}) + "\n").encode())
    os._exit(2)


def _check_address(out: int, address: str, port: int = 0) -> int:
    """Bind ``address:port`` for a moment (nothing is sent); return the port bound."""
    family = socket.AF_INET6 if ":" in address else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as s:
        try:
            s.bind((address, port))
        except OSError as exc:
            if exc.errno == errno.EADDRNOTAVAIL:
                _refuse(out, f"{address} is not an address of this host "
                             f"({socket.gethostname()}), so ps-lite cannot bind it "
                             f"(EADDRNOTAVAIL); give this host's own address on the private "
                             f"network in the host list (see `ip -brief address` there)")
            if exc.errno == errno.EADDRINUSE:
                _refuse(out, f"the scheduler's port {port} is taken on {address} (another "
                             f"cluster or program holds it); pass another port, or leave the "
                             f"port out and the scheduler picks a free one")
            _refuse(out, f"cannot bind {address}:{port}: {exc.strerror}")
        return s.getsockname()[1]


def _heartbeat(out: int, silence: float) -> None:
    """Two daemon threads: end this process when the launcher's bytes stop; send ours."""
    def listen() -> None:
        fd = sys.stdin.fileno()
        while True:
            ready, _, _ = select.select([fd], [], [], silence)
            if not ready or not os.read(fd, 4096):
                os._exit(1)  # end of file or silence: the launcher is gone

    def send() -> None:
        while True:
            try:
                os.write(out, b"\x00")
            except BlockingIOError:  # the launcher reads slowly: it knows we run
                pass
            except OSError:
                os._exit(1)
            time.sleep(BEAT)

    for target in (listen, send):
        threading.Thread(target=target, daemon=True, name=f"heartbeat-{target.__name__}").start()


def main(argv: list[str]) -> None:
    """Check, say hello, keep the heartbeat, then run the node ``argv[0]`` (see the module)."""
    out = os.dup(1)  # the launcher's channel; anything else written to stdout goes to the log
    os.dup2(2, 1)
    kind = argv[0] if argv else ""
    if kind not in ("node", "pyserver", "worker") or (kind == "worker") != (len(argv) == 2):
        _refuse(out, f"usage: remote node|pyserver|worker TASK_DIR, got {argv}")
    address = os.environ.get("DMLC_NODE_HOST", "")
    role = os.environ.get("DMLC_ROLE", "")
    hello = {"host": socket.gethostname(), "pid": os.getpid(), **versions()}
    _check_address(out, address)
    if role == "scheduler":
        port = int(os.environ.get("DMLC_PS_ROOT_PORT", "0"))
        port = _check_address(out, address, port)
        held = lifeline.hold_port(address, port)  # noqa: F841 - open until the node ends
        os.environ["DMLC_PS_ROOT_PORT"] = hello["port"] = str(port)
    if kind == "worker" and not (Path(argv[1]) / "task.json").is_file():
        _refuse(out, f"the task folder {argv[1]} is not on this host: every host must see the "
                     f"launcher's task folder under the same path; set TMPDIR (where the "
                     f"launcher makes it) to a folder of a file system every host shares")
    os.write(out, (HELLO + json.dumps(hello) + "\n").encode())
    sys.stderr.write(f"remote: {role or kind} pid {os.getpid()}, bound {address} on this host; "
                     f"{json.dumps(hello)}\n")
    sys.stderr.flush()
    os.set_blocking(out, False)
    _heartbeat(out, SILENCE)
    os.environ[lifeline.PROGRESS_ENV] = str(out)
    if kind == "worker":
        from gluon_perceptron.core.distributed import worker

        worker.main(argv[1:])  # exits
    if kind == "pyserver":
        import mxnet  # noqa: F401 - with DMLC_ROLE=server, the import runs the server

        os._exit(0)
    from gluon_perceptron.core.distributed import node

    code = node.main([node.libmxnet_path()])
    sys.stderr.flush()
    os._exit(code)


if __name__ == "__main__":
    main(sys.argv[1:])
