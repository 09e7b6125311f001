"""Start MXNet's parameter server on this machine: a scheduler, servers and workers, watched.

A KVStore ``dist_sync`` cluster is a set of processes that find each other through
environment variables (ps-lite's ``DMLC_*``):

=====================  ==========================================================
``DMLC_ROLE``          ``scheduler``, ``server`` or ``worker``
``DMLC_PS_ROOT_URI``   the scheduler's address (here always ``127.0.0.1``)
``DMLC_PS_ROOT_PORT``  the scheduler's port (here a free port of this machine)
``DMLC_NUM_SERVER``    how many servers the scheduler waits for
``DMLC_NUM_WORKER``    how many workers it waits for; it assigns their ranks
``DMLC_NODE_HOST``     the address this node binds (without it, ps-lite binds the first
                       non-loopback interface)
=====================  ==========================================================

:func:`launch_cluster` starts them all as children of one call, one log file per role, and never
hangs: it stops at the first worker that exits non-zero, at a server or the scheduler that
dies while workers still run, or at the overall ``timeout``, and then stops every child by its
own PID (SIGTERM, then SIGKILL after a grace period). The error names the role that failed and
points at its log. This module imports no MXNet: importing MXNet with ``DMLC_ROLE=server`` in
the environment turns the importer into a server, so the roles live only in the children's
environments. MXNet's own ``tools/launch.py`` picks a non-loopback address and calls
``Thread.isAlive`` (gone since Python 3.9), so it is not used.
"""

from __future__ import annotations

import importlib.util
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

#: The only address any process of a cluster binds or connects to.
HOST = "127.0.0.1"


class DistributedError(RuntimeError):
    """A cluster run failed: a role exited badly, died, or the run timed out.

    Attributes
    ----------
    role : str or None
        The role that failed (``"worker 1"``, ``"server 0"``, ``"scheduler"``), None for a
        timeout.
    log : Path or None
        That role's log file.
    pids : dict
        Role -> PID of every process the run started (all stopped when this is raised).
    """

    def __init__(self, message: str, *, role: str | None = None, log: Path | None = None,
                 pids: dict | None = None):
        super().__init__(message)
        self.role = role
        self.log = log
        self.pids = dict(pids or {})


class DistributedTimeout(DistributedError, TimeoutError):
    """The cluster did not finish within ``timeout`` seconds."""


@dataclass
class ClusterRun:
    """What one :func:`launch_cluster` did.

    Attributes
    ----------
    workers, servers : int
        How many of each ran.
    port : int
        The scheduler's port on 127.0.0.1.
    pids : dict
        Role -> PID (``"scheduler"``, ``"server 0"``, ..., ``"worker 0"``, ...); workers are
        numbered in launch order, their ranks are the scheduler's choice.
    logs : dict
        Role -> its log file.
    returncodes : dict
        Role -> exit code (negative: killed by that signal; the launcher stops the scheduler
        and servers itself once every worker has finished).
    seconds : float
        Wall time from the first start to the last stop.
    """

    workers: int
    servers: int
    port: int
    pids: dict = field(default_factory=dict)
    logs: dict = field(default_factory=dict)
    returncodes: dict = field(default_factory=dict)
    seconds: float = 0.0


def free_port() -> int:
    """A TCP port of 127.0.0.1 free right now (the OS picks it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def libmxnet_path() -> str:
    """Where MXNet's C library is, found without importing the ``mxnet`` package."""
    spec = importlib.util.find_spec("mxnet")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("mxnet is not installed; pip install mxnet==1.9.1")
    path = Path(list(spec.submodule_search_locations)[0]) / "libmxnet.so"
    if not path.exists():
        raise RuntimeError(f"MXNet's C library is not at {path}")
    return str(path)


def cluster_environment(role: str, *, port: int, workers: int, servers: int,
                        base: dict | None = None) -> dict:
    """The environment of one node: ``base`` (default ``os.environ``) without any inherited
    ``DMLC_*``/``PS_*`` variable, plus this cluster's, every address 127.0.0.1."""
    env = {k: v for k, v in (os.environ if base is None else base).items()
           if not k.startswith(("DMLC_", "PS_"))}
    env.update(DMLC_ROLE=role, DMLC_PS_ROOT_URI=HOST, DMLC_PS_ROOT_PORT=str(port),
               DMLC_NODE_HOST=HOST, DMLC_NUM_SERVER=str(servers),
               DMLC_NUM_WORKER=str(workers), PYTHONUNBUFFERED="1")
    return env


def _tail(path: Path, lines: int = 12) -> str:
    try:
        text = path.read_text(errors="replace").rstrip().splitlines()
    except OSError:
        return "(no log)"
    return "\n".join(text[-lines:]) if text else "(empty log)"


def _describe(code: int) -> str:
    if code < 0:
        try:
            return f"was killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"was killed by signal {-code}"
    return f"exited with code {code}"


def stop(procs: dict, grace: float = 2.0) -> dict:
    """Stop every process of ``procs`` (role -> Popen) by its own PID: SIGTERM, then SIGKILL
    for those still alive after ``grace`` seconds. Returns role -> exit code."""
    alive = {role: p for role, p in procs.items() if p.poll() is None}
    for p in alive.values():
        try:
            p.terminate()
        except ProcessLookupError:  # pragma: no cover - exited in between
            pass
    deadline = time.monotonic() + grace
    for p in alive.values():
        try:
            p.wait(max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            p.kill()
    for p in procs.values():
        p.wait()
    return {role: p.returncode for role, p in procs.items()}


def launch_cluster(worker_command: Sequence[str], *, workers: int, servers: int = 1,
                   timeout: float, log_dir, python_servers: bool = False, cwd=None,
                   on_started: Callable[[dict], None] | None = None,
                   poll: float = 0.02) -> ClusterRun:
    """Run a KVStore cluster on 127.0.0.1 until every worker has exited 0.

    Starts the scheduler, ``servers`` servers and ``workers`` copies of ``worker_command``
    (each its own process, ``DMLC_ROLE=worker``), logs ``<role>.log`` in ``log_dir``, and
    polls them every ``poll`` seconds.

    Parameters
    ----------
    worker_command : sequence of str
        The worker's command line, e.g. ``[sys.executable, "-m", "pkg.worker", "task"]``.
    workers, servers : int
        How many of each (both at least 1).
    timeout : float
        Seconds the whole run may take, start-up included.
    log_dir : path
        Where the logs go (created if needed).
    python_servers : bool
        Start servers with ``python -c "import mxnet"`` (needed when a worker sends an
        optimizer to the servers, as Gluon's ``update_on_kvstore`` does); the default starts
        the lighter :mod:`.node`.
    cwd : path, optional
        Working directory of the children.
    on_started : callable, optional
        Called with role -> PID once every process has started (tests use it to kill one).

    Returns
    -------
    ClusterRun

    Raises
    ------
    DistributedError
        A worker exited non-zero, or a server or the scheduler died before the workers were
        done; every child is stopped before this is raised.
    DistributedTimeout
        ``timeout`` passed; every child is stopped first.
    """
    log_dir = Path(log_dir)
    log_dir.mkdir(parents=True, exist_ok=True)
    port = free_port()
    node = ([sys.executable, "-c", "import mxnet"] if python_servers else
            [sys.executable, "-m", "gluon_perceptron.core.distributed.node", libmxnet_path()])
    plan = [("scheduler", "scheduler", node)]
    plan += [(f"server {i}", "server", node) for i in range(servers)]
    plan += [(f"worker {i}", "worker", list(worker_command)) for i in range(workers)]
    run = ClusterRun(workers=workers, servers=servers, port=port)
    procs: dict[str, subprocess.Popen] = {}
    start = time.monotonic()
    try:
        for role, kind, argv in plan:
            log = log_dir / f"{role.replace(' ', '-')}.log"
            run.logs[role] = log
            with open(log, "wb") as out:
                procs[role] = subprocess.Popen(
                    argv, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                    cwd=cwd, env=cluster_environment(kind, port=port, workers=workers,
                                                     servers=servers))
            run.pids[role] = procs[role].pid
        if on_started is not None:
            on_started(dict(run.pids))
        _watch(procs, run, start + timeout, timeout, poll)
    finally:
        run.returncodes.update(stop(procs))
        run.seconds = time.monotonic() - start
    return run


def _watch(procs: dict, run: ClusterRun, deadline: float, timeout: float, poll: float) -> None:
    """Poll until every worker exited 0; raise at the first failure or at the deadline."""
    worker_roles = [r for r in procs if r.startswith("worker")]
    others = [r for r in procs if r not in worker_roles]
    while True:
        # the scheduler and servers first: they exit when the last worker leaves, so one seen
        # dead is a failure only if some worker was still running after it
        dead = sorted((r for r in others if procs[r].poll() is not None),
                      key=lambda r: procs[r].returncode == 0)  # a killed node first
        codes = _poll_workers(procs, worker_roles, run)
        if all(code == 0 for code in codes.values()):
            return
        if dead:
            _settle(procs, worker_roles, run, dead[0])
            return
        if time.monotonic() > deadline:
            waiting = [r for r, code in codes.items() if code is None]
            raise DistributedTimeout(
                f"the cluster did not finish within {timeout:g} s (still running: "
                f"{', '.join(waiting)}); its logs are in {next(iter(run.logs.values())).parent}"
                f"; raise timeout= if the work is simply long", pids=run.pids)
        time.sleep(poll)


def _settle(procs: dict, worker_roles: list, run: ClusterRun, dead: str,
            grace: float = 2.0) -> None:
    """A scheduler or server is gone: wait ``grace`` s for the workers to tell why.

    A node exits when the last worker leaves, and a worker's exit can take a moment to be
    seen; a worker that failed first is the one to name. Returns if every worker ends with 0.
    """
    end = time.monotonic() + grace
    while time.monotonic() < end:
        if all(code == 0 for code in _poll_workers(procs, worker_roles, run).values()):
            return
        time.sleep(0.02)
    _fail(dead, procs[dead].returncode, run, "while workers were still running")


def _poll_workers(procs: dict, worker_roles: list, run: ClusterRun) -> dict:
    """Each worker's exit code (``None`` while it runs); raise for the first that failed."""
    codes = {r: procs[r].poll() for r in worker_roles}
    for role, code in codes.items():
        if code not in (None, 0):
            _fail(role, code, run)
    return codes


def _fail(role: str, code: int, run: ClusterRun, when: str = "") -> None:
    log = run.logs[role]
    raise DistributedError(
        f"{role} (pid {run.pids[role]}) {_describe(code)}{' ' + when if when else ''}; "
        f"its log is {log}; last lines:\n{_tail(log)}", role=role, log=log, pids=run.pids)
