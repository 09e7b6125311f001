"""One cluster over several hosts: where each node runs, how it is started, and its watch.

:func:`launch_hosts` is :func:`~.launcher.launch_cluster` for a list of hosts. It places the
scheduler on the first host, then the servers and the workers round-robin over the hosts
(dmlc's tracker's order: node ``i`` of the servers-then-workers list runs on host
``i mod len(hosts)``), and starts each through a **remote-start command**, a template with
``{host}`` (the host's name) and ``{command}`` (the node's command line, quoted for a shell) or
``{argv}`` (the same, as separate arguments):

- :data:`SSH` (the default): ``ssh -o BatchMode=yes -o ConnectTimeout=10 {host} {command}``;
- ``["ip", "netns", "exec", "{host}", "{argv}"]``: network namespaces on this machine (the
  tests);
- ``["srun", "--nodes=1", "--ntasks=1", "-w", "{host}", "{argv}"]``: Slurm.

The node's command is ``env VAR=... PYTHON -m gluon_perceptron.core.distributed.remote KIND``:
the same Python as the launcher's (its path must exist on every host), the package's folder in
``PYTHONPATH``, and exactly the variables a node needs (:func:`node_environment`): the
``DMLC_*`` six, ``DMLC_NODE_HOST`` the host's own address, and the thread settings
(:data:`FORWARDED`) when the launcher has them. Nothing else of the launcher's environment
travels.

Every node checks its traps, says hello with its versions, and keeps a heartbeat with the
launcher over its standard input and output (:mod:`.remote`): a node ends when the launcher is
gone, SIGKILL included, on every host, and the launcher names a node that never says hello, one
that stops answering, and one whose versions differ from its own, each within the round
deadline. ps-lite has no authentication and MXNet's servers unpickle what a worker sends: run
clusters only on a private network, with addresses of that network (a wildcard address is
refused).
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from . import lifeline
from .hostlist import SSH, Host
from .launcher import (
    ClusterRun,
    DistributedError,
    DistributedTimeout,
    _describe,
    _Progress,
    _tail,
    stop,
)
from .limits import prepare_log_dir

#: The launcher's variables a node gets when they are set (threads, ps-lite's verbosity).
FORWARDED = ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS", "NUMBA_NUM_THREADS",
             "MXNET_CPU_WORKER_NTHREADS", "MXNET_OMP_MAX_THREADS", "PS_VERBOSE")
#: The module every node runs on its host.
REMOTE_MODULE = "gluon_perceptron.core.distributed.remote"
#: Seconds a node may stay silent (no heartbeat) before it is named, without a round deadline.
SILENT = 30.0
#: What a node's versions must equal on every host.
SHARED = ("python", "gluon_perceptron", "mxnet", "numpy")


def place(hosts: Sequence[Host], servers: int, workers: int) -> list[tuple[str, str, Host]]:
    """``(role, DMLC_ROLE, host)`` of every node: the scheduler on the first host, then the
    servers and the workers round-robin over the hosts, as dmlc's tracker does."""
    plan = [("scheduler", "scheduler", hosts[0])]
    for i in range(servers + workers):
        kind = "server" if i < servers else "worker"
        number = i if i < servers else i - servers
        plan.append((f"{kind} {number}", kind, hosts[i % len(hosts)]))
    return plan


def node_environment(kind: str, host: Host, root: str, port: int, workers: int,
                     servers: int) -> dict:
    """What a node on ``host`` gets: the ``DMLC_*`` variables (its own address as
    ``DMLC_NODE_HOST``), ``PYTHONPATH`` (the package) and the :data:`FORWARDED` ones set here."""
    env = {"DMLC_ROLE": kind, "DMLC_PS_ROOT_URI": root, "DMLC_PS_ROOT_PORT": str(port),
           "DMLC_NUM_SERVER": str(servers), "DMLC_NUM_WORKER": str(workers),
           "DMLC_NODE_HOST": host.address, "PYTHONUNBUFFERED": "1",
           "PYTHONPATH": str(Path(__file__).resolve().parents[3])}
    env.update({k: os.environ[k] for k in FORWARDED if k in os.environ})
    return env


def remote_command(template: Sequence[str], host: Host, argv: Sequence[str]) -> list[str]:
    """The local command line that starts ``argv`` on ``host`` through ``template``."""
    out: list[str] = []
    for part in template:
        if part == "{argv}":
            out += list(argv)
        else:
            out.append(part.replace("{host}", host.name).replace("{address}", host.address)
                       .replace("{command}", shlex.join(argv)))
    return out


class _Node:
    """One node's remote-start process and what it said."""

    def __init__(self, role: str, host: Host, proc: subprocess.Popen, log: Path,
                 command: list[str]):
        self.role, self.host, self.proc, self.log, self.command = role, host, proc, log, command
        self.started = self.heard = time.monotonic()
        self.buffer = b""
        self.hello: dict | None = None
        assert proc.stdin is not None and proc.stdout is not None  # started with two pipes
        self.stdin, self.stdout = proc.stdin, proc.stdout
        os.set_blocking(self.stdout.fileno(), False)

    def where(self) -> str:
        return f"{self.role} on {self.host}"

    def read(self) -> int:
        """Read what the node sent; return how many exchanges it reported."""
        try:
            data = os.read(self.stdout.fileno(), 1 << 16)
        except BlockingIOError:
            return 0
        if not data:
            return 0
        self.heard = time.monotonic()
        if self.hello is not None:
            return data.count(b"\x01")
        self.buffer += data
        while self.hello is None and b"\n" in self.buffer:
            line, _, self.buffer = self.buffer.partition(b"\n")
            text = line.decode(errors="replace")
            if text.startswith("GPHELLO "):
                self.hello = json.loads(text[8:])
            elif text.startswith("GPERROR "):
                raise DistributedError(f"{self.where()}: {json.loads(text[8:])['error']}",
                                       role=self.role, log=self.log)
        if self.hello is None:
            self.buffer = self.buffer[-4096:]  # a login shell's chatter, before the hello
            return 0
        rest, self.buffer = self.buffer, b""
        return rest.count(b"\x01")

    def beat(self) -> None:
        try:
            self.stdin.write(b"\x00")
            self.stdin.flush()
        except (OSError, ValueError):  # it exited; its exit is judged elsewhere
            pass

    def failed_to_start(self) -> DistributedError:
        code = self.proc.returncode
        hint = {255: "255 is ssh's own error (host unreachable, refused, or no key accepted): "
                     "check that `ssh -o BatchMode=yes HOST true` works from this machine",
                127: "127 means a command was not found there: every host needs the same "
                     f"Python at {sys.executable} (the same virtual environment path)"}
        return DistributedError(
            f"{self.where()}: the remote-start command {shlex.join(self.command)[:160]!r} "
            f"{_describe(code)} before the node started"
            f"{'; ' + hint[code] if code in hint else ''}; its log is {self.log}; last lines:"
            f"\n{_tail(self.log)}", role=self.role, log=self.log)


def _check_versions(node: _Node, mine: dict) -> dict:
    """The node's hello, once its versions match this launcher's ``mine``."""
    theirs = node.hello or {}
    differ = [f"{k} {theirs.get(k)} (here {mine[k]})" for k in SHARED if theirs.get(k) != mine[k]]
    if differ:
        raise DistributedError(
            f"{node.where()} runs other versions than this launcher: {', '.join(differ)}; "
            f"install the same versions on every host (the same Python, pip install "
            f"mxnet=={mine['mxnet']} numpy=={mine['numpy']}, gluon_perceptron "
            f"{mine['gluon_perceptron']})",
            role=node.role, log=node.log)
    return theirs


def launch_hosts(worker_args: Sequence[str], *, hosts: Sequence[Host], workers: int,
                 servers: int, timeout: float, log_dir, remote: Sequence[str] | None = None,
                 port: int | None = None, python_servers: bool = False,
                 round_timeout: float | None = None,
                 on_started: Callable[[dict], None] | None = None,
                 poll: float = 0.05) -> ClusterRun:
    """Run a KVStore cluster over ``hosts`` until every worker has exited 0.

    The nodes run :mod:`.remote` (``worker_args`` after it for a worker, e.g.
    ``["worker", TASK_DIR]``), started through ``remote`` (default :data:`SSH`); the scheduler
    first (on ``hosts[0]``, at ``port`` or a free port it picks), then the others once it said
    hello. Each must say hello within ``round_timeout`` (default ``timeout``) of its start, with
    the launcher's versions, and keep its heartbeat; the rest is
    :func:`~.launcher.launch_cluster`'s watch, with every error naming the host. Arguments are
    trusted (checked by the public trainers). Returns the :class:`~.launcher.ClusterRun`
    (``pids`` are the local remote-start processes' PIDs).
    """
    from .remote import versions

    template = tuple(remote or SSH)
    log_dir = prepare_log_dir(log_dir)
    plan = place(hosts, servers, workers)
    mine = versions()
    limit = round_timeout or timeout
    run = ClusterRun(workers=workers, servers=servers, port=port or 0)
    nodes: dict[str, _Node] = {}
    progress = _Progress(round_timeout)
    group: list[int] = []
    start = time.monotonic()
    deadline = start + timeout
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("DMLC_", "PS_", "GLUON_PERCEPTRON_"))}

    def launch(role: str, kind: str, host: Host) -> None:
        argv = {"worker": list(worker_args), "server": ["pyserver" if python_servers else "node"],
                "scheduler": ["node"]}[kind]
        node_env = node_environment(kind, host, hosts[0].address, run.port, workers, servers)
        argv = ["env", *(f"{k}={v}" for k, v in node_env.items()), sys.executable, "-m",
                REMOTE_MODULE, *argv]
        command = remote_command(template, host, argv)
        log = log_dir / f"{role.replace(' ', '-')}.log"
        run.logs[role] = log
        try:
            with open(log, "wb") as out:
                proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=out, env=env,
                                        preexec_fn=lifeline.die_with_parent(os.getpid()),
                                        process_group=group[0] if group else 0)
        except OSError as exc:
            raise DistributedError(
                f"{role} on {host}: the remote-start command {command[0]!r} cannot run here "
                f"({exc.strerror}); install it (ssh: openssh-client) or pass another remote= "
                f"template", role=role) from exc
        group[:] = group or [proc.pid]
        nodes[role] = _Node(role, host, proc, log, command)
        run.pids[role] = proc.pid
        progress.where[role] = f" on {host}"

    last_beat = [0.0]

    def tick() -> None:
        now = time.monotonic()
        if now - last_beat[0] >= 1.0:
            last_beat[0] = now
            for node in nodes.values():
                node.beat()
        for role, node in nodes.items():
            got = node.read()
            if role in progress.counts:
                progress.add(role, got, now)
            if node.hello is not None and node.proc.poll() is None \
                    and now - node.heard > max(limit, 5.0):
                raise DistributedTimeout(
                    f"{node.where()} has sent nothing for {now - node.heard:.0f} s (not even its "
                    f"heartbeat): the node is stopped or its host or the network is down; its "
                    f"log is {node.log}", role=role, log=node.log, pids=run.pids)
        if now > deadline:
            waiting = [n.where() for n in nodes.values() if n.proc.poll() is None]
            raise DistributedTimeout(
                f"the cluster did not finish within {timeout:g} s (still running: "
                f"{', '.join(waiting)}); its logs are in {log_dir}; raise timeout= if the work "
                f"is simply long", pids=run.pids)

    def arrive(roles: list[str]) -> None:
        while True:
            tick()
            waiting = [r for r in roles if nodes[r].hello is None]
            if not waiting:
                break
            for role in waiting:
                node = nodes[role]
                if node.proc.poll() is not None:
                    node.read()
                    if node.hello is None:
                        raise node.failed_to_start()
                elif time.monotonic() - node.started > limit:
                    raise DistributedTimeout(
                        f"{node.where()} did not start within {limit:g} s (no hello from the "
                        f"remote-start command {shlex.join(node.command)[:120]!r}): the host "
                        f"may be unreachable, or the command waits for a password; its log is "
                        f"{node.log}", role=role, log=node.log, pids=run.pids)
            time.sleep(poll)
        for role in roles:
            hello = _check_versions(nodes[role], mine)
            run.pids[role] = int(hello["pid"])  # its PID on its host

    try:
        launch(*plan[0])
        arrive(["scheduler"])
        hello = nodes["scheduler"].hello
        assert hello is not None  # arrive() raised otherwise
        run.port = int(hello["port"])
        for role, kind, host in plan[1:]:
            launch(role, kind, host)
        arrive([role for role, _, _ in plan[1:]])
        if round_timeout is not None:
            progress.counts.update({r: 0 for r in nodes if r.startswith("worker")})
        if on_started is not None:
            on_started(dict(run.pids))
        _watch(nodes, run, tick, progress, poll)
    finally:
        for node in nodes.values():  # end of file: every node ends itself, wherever it runs
            try:
                node.stdin.close()
            except OSError:
                pass
        procs = {role: node.proc for role, node in nodes.items()}
        run.returncodes.update(stop(procs, group=group[0] if group else None))
        for node in nodes.values():
            node.stdout.close()
        run.seconds = time.monotonic() - start
    return run


def _watch(nodes: dict, run: ClusterRun, tick: Callable[[], None], progress: _Progress,
           poll: float) -> None:
    """Until every worker exited 0; raise at the first failure, naming its host."""
    procs = {role: node.proc for role, node in nodes.items()}
    workers = [r for r in nodes if r.startswith("worker")]
    others = [r for r in nodes if r not in workers]
    settle: float | None = None
    while True:
        tick()
        codes = {r: procs[r].poll() for r in workers}
        for role, code in codes.items():
            if code not in (None, 0):
                _fail(nodes[role], run)
        if all(code == 0 for code in codes.values()):
            return
        dead = [r for r in others if procs[r].poll() is not None]
        if dead:  # a worker that failed first is the one to name: give it a moment
            settle = settle or time.monotonic() + 2.0
            if time.monotonic() > settle:
                _fail(nodes[dead[0]], run, "while workers were still running")
        progress.judge(procs, run, time.monotonic())
        time.sleep(poll)


def _fail(node: _Node, run: ClusterRun, when: str = "") -> None:
    raise DistributedError(
        f"{node.where()} (local pid {node.proc.pid}) {_describe(node.proc.returncode)}"
        f"{' ' + when if when else ''}; its log is {node.log}; last lines:\n{_tail(node.log)}",
        role=node.role, log=node.log, pids=run.pids)
