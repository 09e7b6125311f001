"""Start MXNet's parameter server on this machine: a scheduler, servers and workers, watched.

A KVStore ``dist_sync`` cluster is a set of processes that find each other through
environment variables (ps-lite's ``DMLC_*``):

=====================  ==========================================================
``DMLC_ROLE``          ``scheduler``, ``server`` or ``worker``
``DMLC_PS_ROOT_URI``   the scheduler's address (here always ``127.0.0.1``)
``DMLC_PS_ROOT_PORT``  the scheduler's port (here one :func:`held_port` keeps for it)
``DMLC_NUM_SERVER``    how many servers the scheduler waits for
``DMLC_NUM_WORKER``    how many workers it waits for; it assigns their ranks
``DMLC_NODE_HOST``     the address this node binds (without it, ps-lite binds the first
                       non-loopback interface)
=====================  ==========================================================

:func:`launch_cluster` starts them all as children of one call, one log file per role, and never
hangs: it stops at the first worker that exits non-zero, at a server or the scheduler that
dies while workers still run, at a worker that reports no exchange for ``round_timeout``
seconds while another is ahead (a stalled worker), or at the overall ``timeout``, and then
stops every child by its own PID (SIGTERM, then SIGKILL after a grace period) and their
process group. The error names the role that failed and points at its log.

The children die with the launcher even when it dies by SIGKILL (:mod:`.lifeline`: the
kernel's parent-death signal, a watchdog on the parent's PID in every node and worker, and one
process group per cluster). At most :data:`.limits.MAX_PROCESSES_PER_CORE` times ``os.cpu_count()``
servers and workers run on one host (:func:`.limits.check_cluster_size`, before anything
starts).

The roles live only in the children's environments, never in this process's: importing
MXNet with ``DMLC_ROLE=server`` in the environment turns the importer into a server. (This
module imports MXNet, for the argument rules of :func:`launch_cluster`; the children never
import it.) MXNet's own
``tools/launch.py`` picks a non-loopback address and calls
``Thread.isAlive`` (gone since Python 3.9), so it is not used.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from .._validation import (
    count,
    flag,
    function,
    optional,
    real,
    user_code,
    validate_params,
)
from . import lifeline
from .limits import (
    COMMAND,
    EXISTING_FOLDER,
    SERVERS,
    path,
    prepare_log_dir,
)
from .node import libmxnet_path

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
    roles : tuple of str
        Every role the error names (``(role,)``, or the stalled workers of a round deadline).
    """

    def __init__(self, message: str, *, role: str | None = None, log: Path | None = None,
                 pids: dict | None = None, roles: tuple = ()):
        super().__init__(message)
        self.role = role
        self.log = log
        self.pids = dict(pids or {})
        self.roles = tuple(roles) or ((role,) if role is not None else ())


class DistributedTimeout(DistributedError, TimeoutError):
    """The cluster did not finish within ``timeout`` seconds, or some worker did not report
    a round within ``round_timeout`` seconds (``role``/``roles`` name the stalled workers)."""


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


@contextmanager
def held_port() -> Iterator[int]:
    """A TCP port of 127.0.0.1 (the OS picks it), held for the scheduler while the block runs.

    ps-lite's scheduler binds exactly ``DMLC_PS_ROOT_PORT``, with no retry. A port merely
    free when picked can be taken before the scheduler binds it: by another cluster's
    scheduler, whose nodes then join this one, or by any node's own port. Held by
    :func:`.lifeline.hold_port`, it goes to no other ``bind`` while the scheduler's listener
    still binds it.
    """
    with lifeline.hold_port(HOST) as held:
        yield held.getsockname()[1]


#: Variable -> a node's default where the environment does not set it, with the reason it pays.
NODE_DEFAULTS = {
    # the nodes of one machine share its cores: MXNet's OpenMP threads would only spin on a
    # worker's small arrays, against the other nodes (read when MXNet loads)
    "OMP_NUM_THREADS": "1",
    # MXNet's one use of distutils, a version comparison, loads the standard library's, not
    # setuptools' (read when Python starts)
    "SETUPTOOLS_USE_DISTUTILS": "stdlib",
}


def cluster_environment(role: str, *, port: int, workers: int, servers: int,
                        base: dict | None = None) -> dict:
    """The environment of one node: ``base`` (default ``os.environ``) without any inherited
    ``DMLC_*``/``PS_*`` variable, plus :data:`NODE_DEFAULTS` where unset, plus this cluster's,
    every address 127.0.0.1."""
    env = {k: v for k, v in (os.environ if base is None else base).items()
           if not k.startswith(("DMLC_", "PS_"))}
    env.update({k: v for k, v in NODE_DEFAULTS.items() if k not in env})
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


def _signal_group(procs: dict, group: int | None, sig: int) -> None:
    """Send ``sig`` to the process group ``group`` of ``procs``, but only while one of them is
    unreaped: a member (even a zombie) keeps the group's ID from being reused, so the signal
    cannot reach anyone else's processes."""
    if group is None or all(p.returncode is not None for p in procs.values()):
        return
    try:
        os.killpg(group, sig)
    except (ProcessLookupError, PermissionError):
        pass


def stop(procs: dict, grace: float = 2.0, group: int | None = None) -> dict:
    """Stop every process of ``procs`` (role -> Popen) by its own PID: SIGTERM (and SIGCONT,
    so a stopped process gets it), then SIGKILL for those still alive after ``grace`` seconds;
    the process group ``group`` of the children, if given, gets the same signals, for any
    process a child started. Returns role -> exit code."""
    alive = {role: p for role, p in procs.items() if p.poll() is None}
    for p in alive.values():
        try:
            p.terminate()
            os.kill(p.pid, signal.SIGCONT)
        except ProcessLookupError:  # pragma: no cover - exited in between
            pass
    _signal_group(procs, group, signal.SIGTERM)
    _signal_group(procs, group, signal.SIGCONT)
    deadline = time.monotonic() + grace
    for p in alive.values():
        try:
            p.wait(max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            p.kill()
    _signal_group(procs, group, signal.SIGKILL)
    for p in procs.values():
        p.wait()
    return {role: p.returncode for role, p in procs.items()}


#: The servers' command when they must run an optimizer: MXNet's own server, which runs
#: inside ``import mxnet``, behind the watchdog on the launcher's PID.
PYTHON_SERVER = ("from gluon_perceptron.core.distributed import lifeline; "
                 "lifeline.watch_parent(); import mxnet")


# The user's worker_command is data here: it runs in other processes (each with its own, unset
# trusted flag), never in this one, so the default skip_nested suits; on_started is the one
# callable of the user's run here, run checked (untrusted) through user_code.
@validate_params(worker_command=COMMAND, workers=count(), servers=SERVERS, log_dir=path(),
                 round_timeout=optional(real(positive=True)),
                 cwd=optional(EXISTING_FOLDER), python_servers=flag(),
                 on_started=optional(function("called with role -> PID once all have started")),
                 poll=real(positive=True, maximum=60.0, why="seconds between two looks"))
def launch_cluster(worker_command: Sequence[str], *, workers: int, servers: int = 1,
                   timeout: float, log_dir, python_servers: bool = False, cwd=None,
                   on_started: Callable[[dict], None] | None = None,
                   poll: float = 0.02, round_timeout: float | None = None) -> ClusterRun:
    """Run a KVStore cluster on 127.0.0.1 until every worker has exited 0.

    Starts the scheduler, ``servers`` servers and ``workers`` copies of ``worker_command``
    (each its own process, ``DMLC_ROLE=worker``), logs ``<role>.log`` in ``log_dir``, and
    polls them every ``poll`` seconds. Every child dies with the calling process, by any
    signal (see :mod:`.lifeline`); call it from a thread that lives until it returns (it
    does: it returns only once every child is stopped).

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
    poll : float
        Seconds between two looks at the children.
    round_timeout : float, optional
        The per-round deadline: a worker that reports no exchange for this many seconds
        while another worker has reported more (or, once reports began, while no worker
        reports anything) is named in a :class:`DistributedTimeout`. Workers report through
        :func:`.lifeline.report`; None (the default, for commands that do not report) keeps
        only the overall ``timeout``.

    Returns
    -------
    ClusterRun

    Raises
    ------
    ValueError
        More than :func:`.limits.max_processes` servers + workers (nothing is started).
    DistributedError
        A worker exited non-zero, or a server or the scheduler died before the workers were
        done; every child is stopped before this is raised.
    DistributedTimeout
        ``timeout`` passed, or a worker stalled past ``round_timeout``; every child is
        stopped first.
    TypeError, ValueError
        A bad argument, named (nothing is started).
    """
    log_dir = prepare_log_dir(log_dir)
    with held_port() as port:  # until every child is stopped
        node = ([sys.executable, "-c", PYTHON_SERVER] if python_servers else
                [sys.executable, "-m", "gluon_perceptron.core.distributed.node", libmxnet_path()])
        plan = [("scheduler", "scheduler", node)]
        plan += [(f"server {i}", "server", node) for i in range(servers)]
        plan += [(f"worker {i}", "worker", list(worker_command)) for i in range(workers)]
        run = ClusterRun(workers=workers, servers=servers, port=port)
        procs: dict[str, subprocess.Popen] = {}
        progress = _Progress(round_timeout)
        group = None
        start = time.monotonic()
        try:
            for role, kind, argv in plan:
                log = log_dir / f"{role.replace(' ', '-')}.log"
                run.logs[role] = log
                env = cluster_environment(kind, port=port, workers=workers, servers=servers)
                env[lifeline.PARENT_ENV] = str(os.getpid())
                with open(log, "wb") as out, progress.pipe(role, env) as fds:
                    procs[role] = subprocess.Popen(
                        argv, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                        cwd=cwd, env=env, pass_fds=fds, preexec_fn=lifeline.die_with_parent(
                            os.getpid()), process_group=0 if group is None else group)
                group = procs[role].pid if group is None else group
                run.pids[role] = procs[role].pid
            if on_started is not None:
                user_code(on_started, "on_started")(dict(run.pids))  # the user's code: checked
            _watch(procs, run, start + timeout, timeout, poll, progress)
        finally:
            run.returncodes.update(stop(procs, group=group))
            progress.close()
            run.seconds = time.monotonic() - start
        return run


class _Progress:
    """The workers' exchange reports (one byte each on a pipe per worker), and the per-round
    deadline they are held to."""

    def __init__(self, round_timeout: float | None):
        self.round_timeout = round_timeout
        self.fds: dict[str, int] = {}  # role -> read end
        self.counts: dict[str, int] = {}
        self.since: dict[str, float] = {}  # role -> when its count last changed
        self.began: float | None = None  # the first report of any worker
        self.where: dict[str, str] = {}  # role -> " on host ..." for the messages

    @contextmanager
    def pipe(self, role: str, env: dict):
        """The fds to pass to ``role``'s process (none unless it is a worker held to a round
        deadline); the write end is closed here once the child holds it."""
        if self.round_timeout is None or not role.startswith("worker"):
            yield ()
            return
        r, w = os.pipe()
        os.set_blocking(r, False)
        self.fds[role], self.counts[role] = r, 0
        env[lifeline.PROGRESS_ENV] = str(w)
        try:
            yield (w,)
        finally:
            os.close(w)

    def check(self, procs: dict, run: ClusterRun) -> None:
        """Read the reports; raise :class:`DistributedTimeout` for stalled workers."""
        if not self.fds:
            return
        now = time.monotonic()
        for role, fd in self.fds.items():
            try:
                got = len(os.read(fd, 1 << 16))
            except BlockingIOError:
                got = 0
            self.add(role, got, now)
        self.judge(procs, run, now)

    def add(self, role: str, got: int, now: float) -> None:
        """Count ``got`` more exchanges of ``role``, reported at ``now``."""
        if got:
            self.counts[role] += got
            self.since[role] = now
            if self.began is None:
                self.began = now

    def judge(self, procs: dict, run: ClusterRun, now: float) -> None:
        """Raise :class:`DistributedTimeout` for the workers held up past the deadline."""
        if self.began is None or self.round_timeout is None:
            return  # still starting up (or no round deadline): only the overall timeout applies
        running = [r for r in self.counts if procs[r].poll() is None]
        late = [r for r in running
                if now - self.since.get(r, self.began) > self.round_timeout]
        if not late:
            return
        ahead = max(self.counts.values())
        stalled = [r for r in late if self.counts[r] < ahead]
        if not stalled and len(late) < len(running):
            return  # the others still report: they are the ones ahead
        names = ", ".join(f"{r}{self.where.get(r, '')} (pid {run.pids[r]}, "
                          f"{self.counts[r]} rounds)"
                          for r in (stalled or late))
        where = next(iter(run.logs.values())).parent
        if stalled:
            message = (f"{names} did not report round {self.counts[stalled[0]] + 1} within "
                       f"round_timeout={self.round_timeout:g} s while another worker reached "
                       f"{ahead} rounds: it is stalled (stopped, swapping or stuck)")
        else:
            message = (f"no worker reported a round within round_timeout="
                       f"{self.round_timeout:g} s ({names}): they all wait, so a server or the "
                       f"scheduler may be stalled")
        raise DistributedTimeout(
            f"{message}; its logs are in {where}; raise round_timeout= if a round is simply "
            f"long", role=(stalled or late)[0], log=run.logs[(stalled or late)[0]],
            pids=run.pids, roles=tuple(stalled or late))

    def close(self) -> None:
        for fd in self.fds.values():
            os.close(fd)
        self.fds.clear()


#: A process of the cluster seen stopped (SIGSTOP, Ctrl-Z, a debugger) this many seconds in a
#: row is named: the others wait for it, before and after the first round alike.
STOPPED_GRACE = 2.0


def _state(pid: int) -> str:
    """The process state letter of ``pid`` (Linux ``/proc``; ``"?"`` where unknown)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            stat = f.read()
    except OSError:
        return "?"
    return stat[stat.rindex(")") + 2]


def _check_stopped(procs: dict, run: ClusterRun, since: dict) -> None:
    """Raise :class:`DistributedTimeout` naming a process stopped for ``STOPPED_GRACE`` s."""
    now = time.monotonic()
    for role, proc in procs.items():
        if proc.returncode is not None or _state(proc.pid) not in "Tt":
            since.pop(role, None)
            continue
        if now - since.setdefault(role, now) >= STOPPED_GRACE:
            raise DistributedTimeout(
                f"{role} (pid {proc.pid}) is stopped (SIGSTOP, Ctrl-Z or a debugger) and the "
                f"cluster waits for it; resume it with SIGCONT (kill -CONT {proc.pid}) before "
                f"it is named, or find what stops it; its log is {run.logs[role]}",
                role=role, log=run.logs[role], pids=run.pids, roles=(role,))


def _watch(procs: dict, run: ClusterRun, deadline: float, timeout: float, poll: float,
           progress: _Progress | None = None) -> None:
    """Poll until every worker exited 0; raise at the first failure or at a deadline."""
    worker_roles = [r for r in procs if r.startswith("worker")]
    others = [r for r in procs if r not in worker_roles]
    stopped: dict[str, float] = {}  # role -> since when it is seen stopped
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
        if progress is not None:
            progress.check(procs, run)  # first: a stalled round names the one behind
        _check_stopped(procs, run, stopped)
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
