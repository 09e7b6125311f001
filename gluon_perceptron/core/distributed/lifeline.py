"""Every process of a cluster dies with the process that launched it; so does its task folder.

The process that calls ``train_distributed`` can die by any signal: ``kill`` (SIGTERM),
``timeout``, a CI cancel or a Jupyter kernel restart (SIGKILL). Its ``finally`` blocks then
never run, so the launcher cannot rely on them. Three lines of defence, each enough alone:

1. **The kernel** (Linux): :func:`die_with_parent` is the children's ``preexec_fn``; it sets
   ``prctl(PR_SET_PDEATHSIG, SIGKILL)``, so the kernel kills the child the moment its parent
   dies. PDEATHSIG fires when the parent *thread* that started the child exits, which is why
   :func:`~.launcher.launch_cluster` starts and watches the cluster in the calling thread and
   returns only after every child is stopped.
2. **A watchdog** (portable): :func:`watch_parent`, called first thing by the scheduler,
   server and worker entry points, polls ``os.getppid()`` in a daemon thread and ends its
   process once the launcher (whose PID the launcher passes in ``GLUON_PERCEPTRON_PARENT``) is
   no longer its parent.
3. **The process group**: every child of one cluster is in one process group, which
   :func:`~.launcher.stop` signals as well as each PID, for anything a child may have started.

The task folder (a copy of the data) is named ``gluon_perceptron-dist-<owner pid>-...`` and
holds a marker file :data:`OWNER_FILE` naming its owner. A **janitor** process
(``python -m gluon_perceptron.core.distributed.lifeline janitor DIR PID``, started by
:func:`start_janitor`) waits on a pipe from the owner: if the owner closes it without writing
``done`` (it died) or stops being the janitor's parent, the janitor deletes the folder. If the
janitor was killed too, the next run deletes the folders of dead owners
(:func:`reclaim_task_folders`): only directories with the prefix *and* the marker, owned by
this user; nothing else is ever touched.

The worker's round reports also travel here: :func:`report` writes one byte per exchange to a
pipe the launcher passes in ``GLUON_PERCEPTRON_PROGRESS_FD``, which the launcher's per-round
deadline reads. A scheduler's port is held for it from the moment it is picked
(:func:`hold_port`). This module imports only the standard library.
"""

from __future__ import annotations

import ctypes
import json
import os
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import IO

#: Environment variable holding the launcher's PID, watched by :func:`watch_parent`.
PARENT_ENV = "GLUON_PERCEPTRON_PARENT"
#: Environment variable holding the file descriptor a worker reports its exchanges on.
PROGRESS_ENV = "GLUON_PERCEPTRON_PROGRESS_FD"
#: The name every task folder starts with (then the owner's PID and a random part).
TASK_PREFIX = "gluon_perceptron-dist-"
#: The marker file a task folder's owner writes into it: ``{"pid": ..., "started": ...}``.
OWNER_FILE = ".gluon_perceptron-owner.json"

#: A worker whose training overflowed writes the error's message in this file of the task
#: folder (the message starts with OVERFLOWED); the parent raises it as a ValueError.
OVERFLOW_FILE = "overflow.txt"
OVERFLOWED = "training overflowed"

#: A worker whose shard file holds bad values writes the error's message (naming the shard by
#: its index and file) in this file of the task folder; the parent raises it as a ValueError.
BAD_SHARD_FILE = "bad-shard.txt"

_PR_SET_PDEATHSIG = 1


def _load_prctl():
    if not sys.platform.startswith("linux"):
        return None
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):  # pragma: no cover - a libc without prctl
        return None
    prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong,
                      ctypes.c_ulong]
    prctl.restype = ctypes.c_int
    return prctl


# resolved once, in the parent: between fork and exec the child only calls it
_PRCTL = _load_prctl()


def die_with_parent(parent: int):
    """A ``preexec_fn`` that makes the child die (SIGKILL) when ``parent`` (this process) dies.

    Linux only (``prctl(PR_SET_PDEATHSIG)``); elsewhere it only checks the parent is still
    there. If the parent died between the fork and the ``prctl``, the child ends at once.
    """
    def preexec() -> None:
        if _PRCTL is not None:
            _PRCTL(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != parent:
            os._exit(1)

    return preexec


class Piped(subprocess.Popen[bytes]):
    """A process started with its standard input and output piped to this one: ``stdin`` and
    ``stdout`` are open files, never None."""

    stdin: IO[bytes]
    stdout: IO[bytes]


def start_child(module: str, env: dict | None = None,
                pass_fds: tuple[int, ...] = ()) -> Piped:
    """A Python process running ``module.main()`` (a module of this package), its standard
    input and output piped to this process, that dies with this process
    (:func:`die_with_parent`). It finds the package even where it is not installed; of this
    process's other open files it holds only ``pass_fds`` (same numbers)."""
    root = str(Path(__file__).resolve().parents[3])
    code = (f"import sys; sys.path.insert(0, {root!r}); "
            f"from {module} import main; sys.exit(main())")
    return Piped([sys.executable, "-c", code], stdin=subprocess.PIPE,
                 stdout=subprocess.PIPE, env=env, close_fds=True,
                 pass_fds=pass_fds, preexec_fn=die_with_parent(os.getpid()))


def watch_parent(interval: float = 0.25) -> threading.Thread | None:
    """End this process (``os._exit(1)``) as soon as the launcher named by ``PARENT_ENV`` is
    no longer its parent; a daemon thread polls every ``interval`` seconds.

    Does nothing (returns None) when ``PARENT_ENV`` is not set: a node started by hand or by
    another job launcher on several hosts has no launcher to follow.
    """
    try:
        parent = int(os.environ[PARENT_ENV])
    except (KeyError, ValueError):
        return None

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(interval)
        os._exit(1)

    thread = threading.Thread(target=watch, name="watch-parent", daemon=True)
    thread.start()
    return thread


_progress_fd: int | None = None


def report() -> None:
    """Tell the launcher this worker finished one more exchange (no-op when not launched)."""
    global _progress_fd
    if _progress_fd is None:
        try:
            _progress_fd = int(os.environ[PROGRESS_ENV])
            os.set_blocking(_progress_fd, False)
        except (KeyError, ValueError, OSError):
            _progress_fd = -1
    if _progress_fd < 0:
        return
    try:
        os.write(_progress_fd, b"\x01")
    except BlockingIOError:  # the launcher has 64 KiB of unread reports: it knows we run
        pass
    except OSError:  # the launcher is gone; the watchdog ends this process
        _progress_fd = -1


def hold_port(address: str, port: int = 0) -> socket.socket:
    """A TCP socket bound to ``address:port`` (``port=0``: the OS picks one), with
    ``SO_REUSEADDR`` and never listening: while it is open, the port goes to no other ``bind``
    (nor to ``bind`` to port 0, nor to an outgoing connection), and still to a listener that
    sets ``SO_REUSEADDR`` too, as ZeroMQ (ps-lite's scheduler) and Tornado (JupyterLab) do
    (Linux's rule: at most one listener). Keeps a port picked for a server until it binds it;
    close it (or use it in a ``with``) when the server is done."""
    held = socket.socket(socket.AF_INET6 if ":" in address else socket.AF_INET,
                         socket.SOCK_STREAM)
    try:
        held.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        held.bind((address, port))
    except BaseException:
        held.close()
        raise
    return held


# ------------------------------------------------------------------------------ task folders

def _start_time(pid: int) -> str | None:
    """The kernel's start time of ``pid`` (Linux), to tell a reused PID from its owner."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            stat = f.read()
    except OSError:
        return None
    return stat[stat.rindex(")") + 2:].split()[19]


def _alive(pid: int, started: str | None) -> bool:
    """Whether the process ``pid`` that started at ``started`` still exists."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process: that PID was reused
        return False
    now = _start_time(pid)
    return started is None or now is None or now == started


def make_task_folder(base=None) -> Path:
    """A new task folder ``<base>/gluon_perceptron-dist-<pid>-...`` with its owner marker
    (``base`` defaults to the temporary directory)."""
    path = Path(tempfile.mkdtemp(prefix=f"{TASK_PREFIX}{os.getpid()}-", dir=base))
    (path / OWNER_FILE).write_text(json.dumps({"pid": os.getpid(),
                                               "started": _start_time(os.getpid())}))
    return path


def _owner(path: Path) -> dict | None:
    """The owner recorded in ``path``'s marker, or None if ``path`` is not a task folder of
    this user (no prefix, a symlink, not ours, no readable marker)."""
    try:
        if not path.name.startswith(TASK_PREFIX) or path.is_symlink() or not path.is_dir():
            return None
        if path.stat().st_uid != os.getuid():
            return None
        owner = json.loads((path / OWNER_FILE).read_text())
        int(owner["pid"])
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    return owner


def reclaim_task_folders(base=None) -> list[Path]:
    """Delete the task folders of owners that died without cleaning up; return them.

    A directory of ``base`` (default: the temporary directory) is deleted only if its name
    starts with :data:`TASK_PREFIX`, it belongs to this user, it holds the :data:`OWNER_FILE`
    marker, and the process the marker names (PID and start time) no longer exists.
    """
    base = Path(tempfile.gettempdir() if base is None else base)
    removed: list[Path] = []
    try:
        entries = list(base.iterdir())
    except OSError:
        return removed
    for path in entries:
        owner = _owner(path)
        if owner is None or _alive(int(owner["pid"]), owner.get("started")):
            continue
        shutil.rmtree(path, ignore_errors=True)
        removed.append(path)
    return removed


def release_task_folder(path: Path) -> None:
    """Remove the owner marker: the folder (logs kept for the user) is no longer reclaimed."""
    try:
        (Path(path) / OWNER_FILE).unlink()
    except OSError:
        pass


def start_janitor(task_dir: Path) -> subprocess.Popen:
    """Start the janitor of ``task_dir``; give it back with :func:`release_janitor`."""
    return subprocess.Popen(
        [sys.executable, "-m", __name__, "janitor", str(task_dir), str(os.getpid())],
        stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        process_group=0)  # not in the terminal's group: Ctrl-C is the launcher's to handle


def release_janitor(janitor: subprocess.Popen, grace: float = 5.0) -> None:
    """The owner handled the folder itself: tell the janitor (``done``) and reap it."""
    assert janitor.stdin is not None  # start_janitor gave it a pipe
    try:
        janitor.stdin.write(b"done")
        janitor.stdin.close()
    except OSError:  # pragma: no cover - the janitor died already
        pass
    try:
        janitor.wait(grace)
    except subprocess.TimeoutExpired:  # pragma: no cover - never seen
        janitor.kill()
        janitor.wait()


def _janitor(task_dir: Path, parent: int, interval: float = 0.25) -> int:
    """Wait for the owner; if it dies without saying ``done``, delete its task folder."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    fd = sys.stdin.fileno()
    said = b""
    while os.getppid() == parent:
        ready, _, _ = select.select([fd], [], [], interval)
        if not ready:
            continue
        chunk = os.read(fd, 64)
        if not chunk:
            break
        said += chunk
    if said.startswith(b"done"):
        return 0
    owner = _owner(task_dir)
    if owner is None or int(owner["pid"]) != parent:
        return 0  # not a folder this janitor may touch
    end = time.monotonic() + 10.0
    while task_dir.exists() and time.monotonic() < end:  # workers may still write a moment
        shutil.rmtree(task_dir, ignore_errors=True)
        if task_dir.exists():
            time.sleep(0.1)
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "janitor":
        sys.exit(_janitor(Path(sys.argv[2]), int(sys.argv[3])))
    sys.exit("usage: python -m gluon_perceptron.core.distributed.lifeline janitor DIR PID")
