r"""``train_distributed``: iterative parameter mixing across processes, on MXNet's KVStore.

The parent process writes the data and the job to a task directory,
:func:`.launcher.launch_cluster` starts a scheduler, servers and workers on 127.0.0.1, and each
worker (:mod:`.worker`) trains on its shard, exchanging one row per round through
``dist_sync``. The parent reads every worker's result, checks they all hold the same weights,
and returns one :class:`~.mixing.DistributedResult`.

The task directory carries its owner's PID and a marker; a janitor process deletes it if the
parent dies without cleaning up, and the next run deletes any a dead owner left
(:mod:`.lifeline`).
"""

from __future__ import annotations

import json
import shutil
import sys
import time
from pathlib import Path

import numpy as np

from .. import _checks
from .._convert import as_features, as_labels
from .._validation import (
    Rule,
    count,
    optional,
    unchecked,
    validate_params,
)
from . import lifeline
from .hostlist import parse_host
from .launcher import ClusterRun, DistributedError, launch_cluster
from .limits import CLUSTER, ROUND_TIMEOUT, path, prepare_log_dir
from .mixing import DATA, DistributedResult, _Rounds, data_or_files, rounds, shard_count
from .shards import check_shards

WORKER_MODULE = "gluon_perceptron.core.distributed.worker"

#: Rows of a shard up to which a mixing worker makes its passes with numpy's exact twin of the
#: compiled pass (the same bits): loading numba's compiled pass costs more CPU than such passes.
SMALL_SHARD = 1_000


def run_cluster(kind: str, jobs: list[tuple[dict, np.ndarray, np.ndarray]], *, workers: int,
                servers: int, timeout: float, log_dir=None, kvstore: str = "dist_sync",
                python_servers: bool = False, fault: dict | None = None, on_started=None,
                round_timeout: float | None = ROUND_TIMEOUT, hosts=None, remote=None,
                port: int | None = None):
    """Launch one cluster that runs ``jobs`` (each ``(settings, X, Y)``) in turn.

    A job whose ``settings`` hold ``"shards"`` (descriptions from :func:`.shards.check_shards`)
    has ``X = Y = None``: its workers open their own shard files, and nothing is copied.

    With ``hosts`` (a list of :class:`~.hosts.Host`) the nodes run there, started through
    ``remote`` (:func:`.hosts.launch_hosts`); every host must see the task folder (made in
    the temporary directory, ``TMPDIR``) under the same path.

    Returns ``(run, results, logs)``: the :class:`~.launcher.ClusterRun`, one dict of arrays
    per rank (rank order), and role -> log path (empty when ``log_dir`` is None: the
    temporary logs are then deleted after a success and kept after a failure).
    """
    keep = log_dir is not None
    if keep:  # a bad folder is refused before any process (the janitor first) starts
        log_dir = prepare_log_dir(log_dir)
    lifeline.reclaim_task_folders()
    task_dir = lifeline.make_task_folder()
    janitor = lifeline.start_janitor(task_dir)
    try:
        logs_at = Path(log_dir) if keep else task_dir / "logs"
        task = {"kind": kind, "kvstore": kvstore, "fault": fault,
                "jobs": [settings for settings, _, _ in jobs],
                "numpy_passes": all(X is not None and X.shape[0] <= SMALL_SHARD * workers
                                    for _, X, _ in jobs)}
        (task_dir / "task.json").write_text(json.dumps(task))
        for j, (settings, X, Y) in enumerate(jobs):
            if "shards" not in settings:
                np.savez(task_dir / f"data-{j}.npz", X=X, Y=Y)
        if hosts:
            from .hosts import launch_hosts

            hosts = [parse_host(host) for host in hosts]  # each a Host (given as text, say)
            run = launch_hosts(["worker", str(task_dir)], hosts=hosts, workers=workers,
                               servers=servers, timeout=timeout, log_dir=logs_at,
                               remote=remote, port=port, python_servers=python_servers,
                               round_timeout=round_timeout, on_started=on_started)
        else:
            run = launch_cluster([sys.executable, "-m", WORKER_MODULE, str(task_dir)],
                                 workers=workers, servers=servers, timeout=timeout,
                                 log_dir=logs_at, python_servers=python_servers,
                                 on_started=on_started, round_timeout=round_timeout)
        results = []
        for rank in range(workers):
            with np.load(task_dir / f"result-{rank}.npz") as f:
                results.append({name: f[name] for name in f.files})
    except BaseException as exc:
        for told in (lifeline.OVERFLOW_FILE, lifeline.BAD_SHARD_FILE):
            if isinstance(exc, DistributedError) and (task_dir / told).is_file():
                message = (task_dir / told).read_text()
                shutil.rmtree(task_dir, ignore_errors=True)
                raise ValueError(message) from exc
        # Ctrl-C is not a failure whose logs the user must read: nothing is kept
        if keep or isinstance(exc, KeyboardInterrupt) or not (task_dir / "logs").is_dir():
            shutil.rmtree(task_dir, ignore_errors=True)
        else:  # keep the temporary logs the error points at; drop the data
            for path in task_dir.glob("*.npz"):
                path.unlink()
            (task_dir / "task.json").unlink(missing_ok=True)
            lifeline.release_task_folder(task_dir)  # the user's now: never reclaimed
        raise
    else:
        shutil.rmtree(task_dir, ignore_errors=True)
    finally:
        lifeline.release_janitor(janitor)
    return run, results, dict(run.logs) if keep else {}


def _ranks(run, results) -> dict:
    """Launch index of each worker -> its rank, matched by PID."""
    index = {pid: int(role.split()[1]) for role, pid in run.pids.items()
             if role.startswith("worker")}
    return {index[int(r["pid"])]: int(r["rank"]) for r in results}


def _mixing_result(j: int, mixing: str, run, results, logs, wall: float) -> DistributedResult:
    """One job's :class:`DistributedResult` from every rank's arrays (checked to agree)."""
    first = results[0]
    for r in results[1:]:
        for name in ("theta", "k", "mu"):
            a, b = first[f"{j}/{name}"], r[f"{j}/{name}"]
            if a.shape != b.shape or not np.array_equal(a.view(np.uint8), b.view(np.uint8)):
                raise DistributedError(f"ranks 0 and {int(r['rank'])} ended with different "
                                       f"{name}: the rounds were not in lockstep",
                                       pids=run.pids)
    rec = _Rounds(first[f"{j}/theta"].size - 1, first[f"{j}/theta"].dtype)
    rec.theta = first[f"{j}/theta"]
    rec.k = list(first[f"{j}/k"])
    rec.mu = list(first[f"{j}/mu"])
    rec.passes = list(first[f"{j}/passes"])
    rec.exchanges = list(np.stack([r[f"{j}/exchanges"] for r in results], axis=1))
    return rec.result(mixing, startup_seconds=max(float(r["connected"]) for r in results),
                      wall_seconds=wall, ranks=_ranks(run, results), logs=logs,
                      pids=dict(run.pids))


# --- the rules of train_distributed's arguments ----------------------------------------------

def _workers(workers, name: str, args: dict) -> int:
    """``workers``: one per shard file (None follows ``shards``), or ``1 .. n`` (default 2)."""
    if (shards := args["shards"]) is None:
        return shard_count("X")(2 if workers is None else workers, name, args)
    if workers is not None and _checks.positive_int(workers, name) != len(shards):
        raise ValueError(f"workers={workers} but shards lists {len(shards)} shards: each worker "
                         f"opens one shard; leave workers out (it follows shards)")
    return len(shards)


@validate_params(**DATA, shards=data_or_files("train_distributed", number=False),
                 workers=Rule(_workers, "count() <= n, or len(shards)", ("X", "shards")), **CLUSTER,
                 max_epochs=rounds(read_files=False))
def train_distributed(X=None, Y=None, *, shards=None, workers: int | None = None,
                      servers: int = 1, max_epochs: int | None = None, mixing: str = "uniform",
                      learning_rate: float = 1.0, timeout: float = 600.0,
                      log_dir=None, round_timeout: float = ROUND_TIMEOUT, hosts=None,
                      remote=None, port: int | None = None) -> DistributedResult:
    r"""Iterative parameter mixing on MXNet's parameter server, one process per worker.

    Starts a scheduler, ``servers`` servers and ``workers`` workers on 127.0.0.1 (KVStore
    ``dist_sync``). The worker of rank :math:`i` (ranks come from the scheduler) takes the
    :math:`i`-th contiguous shard of the data; every round it makes one perceptron pass from
    the mixed weights, pushes its row :math:`(w_i, b_i, k_i)` (and the pass's seconds) into
    its own row of a :math:`W \times (d + 3)` array of zeros, as 16-bit pieces of the values'
    bits (so the server's float32 sum of one row and zeros is exact,
    :func:`~.mixing.encode_rows`), pulls the sum (every row), and mixes the rows in rank order
    (uniform :math:`\mu_i = 1/W` or weighted :math:`\mu_i = k_i / \sum_j k_j`; McDonald, Hall
    & Mann 2010). All workers hold the same pulled rows, so they mix to the same bits and stop
    on the same round: the first with no mistake, or ``max_epochs``.

    The result equals ``train_mixed(X, Y, shards=workers, ...)`` bit for bit, and with
    ``workers=1`` it equals ``train(X, Y, ...)`` bit for bit.

    **Shards from files.** Instead of ``X, Y`` (which the call copies to a task folder every
    worker reads), ``shards=[(features, labels), ...]`` names one pair of files per worker
    (``.npy``, IDX, or ``numpy.memmap`` objects; see :mod:`.shards`). This process reads only
    their headers; the worker of rank :math:`i` maps the :math:`i`-th pair and checks its
    values (labels in {-1, +1}, finite features: a bad shard ends the run with a
    :class:`~.launcher.DistributedError` naming it). Each pair is a shard as it is: when the
    files hold the blocks :func:`~.mixing.shard_bounds` cuts from ``X, Y``, the result equals
    the in-memory run bit for bit.

    Parameters
    ----------
    X : array-like or NDArray, shape (n, d)
    Y : array-like or NDArray, shape (n,), labels in {-1, +1}
        Give ``X, Y`` or ``shards``, not both.
    shards : list of (features, labels), optional
        One pair of files per worker: features an (n_i, d) float32 or float64 array (the same
        ``d`` and dtype in all), labels n_i values in {-1, +1}. Every path must be readable by
        the workers (here: this machine).
    workers : int, optional
        :math:`W \ge 1` processes, at most ``n``; default 2, or ``len(shards)`` (which it must
        equal if given).
    servers : int
        Parameter-server processes (the rows are split between them by key range). One host
        runs at most ``MAX_PROCESSES_PER_CORE`` (4) x ``os.cpu_count()`` workers + servers.
    max_epochs : int, optional
        Bound on the rounds. None runs to convergence and is allowed only on linearly
        separable data (checked by a linear program before any process starts). With
        ``shards`` this process holds no rows: each worker checks that its own shard is
        separable (necessary, not sufficient: shards separable one by one may not be together,
        and then the run ends at ``timeout``); give ``max_epochs`` to skip the check.
    mixing : {"uniform", "weighted"}
    learning_rate : float
        :math:`\eta > 0`.
    timeout : float
        Seconds the whole run may take, start-up included; past it every process is stopped
        and :class:`~.launcher.DistributedTimeout` is raised.
    log_dir : path, optional
        Keep one log per role there (``scheduler.log``, ``server-0.log``, ``worker-0.log``,
        ...); by default the logs are temporary and kept only if the run fails.
    round_timeout : float
        Seconds a worker may go without reporting a round while another worker is ahead (or
        while no worker reports at all, once the rounds began); past it every process is
        stopped and :class:`~.launcher.DistributedTimeout` names the stalled worker(s), long
        before ``timeout``. Start-up is held to ``timeout`` only (on several hosts, each node
        must also say hello within ``round_timeout`` of its start).
    hosts : list, optional
        Run on these hosts instead of this machine (:mod:`.hosts`): each ``"ADDRESS"``,
        ``"NAME ADDRESS"`` or ``(name, address)``, e.g. ``read_hostfile("hosts.txt")``. The
        scheduler runs on the first, the servers then the workers round-robin over them.
        Every host needs the same Python path, package and MXNet, and must see the shard
        files (and, for ``X, Y``, the task folder in the temporary directory) under the same
        paths; the address is what the node binds (``DMLC_NODE_HOST``) on a private network:
        ps-lite has no authentication.
    remote : list of str, optional
        The remote-start template (with ``{host}`` and ``{command}`` or ``{argv}``); default
        ssh (:data:`.hosts.SSH`).
    port : int, optional
        The scheduler's port on the first host; default: a free one it picks.

    Returns
    -------
    DistributedResult
        With the rounds' mistakes per shard, mixing weights, local-pass and exchange times.

    Raises
    ------
    DistributedError
        A worker failed or a server or the scheduler died (the message names it and its log);
        no process is left running.
    DistributedTimeout
        ``timeout`` or ``round_timeout`` passed (a ``DistributedError`` too).
    ValueError
        Bad input, or more workers + servers than one host runs (before any process starts);
        ``X, Y`` and ``shards`` both given, or neither.
    FileNotFoundError
        A shard file does not exist (before any process starts).
    """
    data, labels = _job_data(X, Y, shards)  # arrays, or the shard files' descriptions
    if workers is None:  # as the rule says: one worker per shard file, or 2 (a nested call)
        workers = 2 if shards is None else len(shards)
    job = (data, labels, None if max_epochs is None else int(max_epochs), mixing)
    return _train_distributed([job], workers=workers, servers=servers,
                              learning_rate=float(learning_rate), timeout=timeout, log_dir=log_dir,
                              round_timeout=round_timeout, hosts=hosts, remote=remote,
                              port=port)[0]


def _job_data(X, Y, shards) -> tuple:
    """``(X, Y)`` as arrays, labels in the features' dtype; or, without ``X, Y``, the
    descriptions of the shard files (:func:`.shards.check_shards`, headers only) and None."""
    if X is None:
        return check_shards(shards)[0], None
    X = as_features(X)
    return X, as_labels(Y, like=X)


def _train_distributed(jobs, *, workers: int, servers: int = 1, learning_rate: float = 1.0,
                       timeout: float = 600.0, log_dir=None, fault: dict | None = None,
                       on_started=None, round_timeout: float | None = ROUND_TIMEOUT,
                       hosts=None, remote=None, port: int | None = None
                       ) -> list[DistributedResult]:
    """Several mixing jobs in one cluster, which starts once and runs them in turn (one
    KVStore key each): what :func:`train_distributed` runs for its one job, and what tests and
    benchmarks that compare many datasets call.

    ``jobs`` is a list of ``(X, Y, max_epochs, mixing)``, or ``(shards, None, max_epochs,
    mixing)`` with the descriptions of :func:`.shards.check_shards` (one per worker), already
    checked: this is no public edge. ``fault`` and ``on_started`` are test hooks (see
    :mod:`.worker`).
    """
    start = time.perf_counter()
    tasks = []
    for X, Y, m, mix in jobs:
        settings = {"max_epochs": m, "mixing": mix, "learning_rate": learning_rate}
        if Y is None:
            settings["shards"] = X
            X = None
        tasks.append((settings, X, Y))
    run, results, logs = run_cluster("mixing", tasks, workers=workers, servers=servers,
                                     timeout=timeout, log_dir=log_dir, fault=fault,
                                     on_started=on_started, round_timeout=round_timeout,
                                     hosts=hosts, remote=remote, port=port)
    wall = time.perf_counter() - start
    return [_mixing_result(j, job[3], run, results, logs, wall) for j, job in enumerate(jobs)]


# shards: the body's check_shards describes the files and refuses what it cannot describe
@validate_params(task_dir=path(), shards=unchecked, max_epochs=optional(count()))
def write_task(task_dir, shards, *, max_epochs: int | None = None, mixing: str = "uniform",
               learning_rate: float = 1.0) -> Path:
    """Write the task of a cluster started by hand (on several hosts): ``task_dir/task.json``.

    The same job as ``train_distributed(shards=shards, ...)``: the workers started with
    ``python -m gluon_perceptron.core.distributed.worker task_dir`` (``DMLC_NUM_WORKER`` =
    ``len(shards)``) each open the shard of their rank, run the rounds and write
    ``task_dir/result-<rank>.npz``, which :func:`read_results` turns into the result. Only the
    headers of the files are read here. Every path is stored resolved: each host must see the
    task folder and the shard files under the same paths (a shared file system).

    Returns
    -------
    Path
        The ``task.json`` written.
    """
    task_dir, shards = Path(task_dir), check_shards(shards)[0]  # resolved paths, described
    task_dir.mkdir(parents=True, exist_ok=True)
    task = {"kind": "mixing", "kvstore": "dist_sync", "fault": None,
            "jobs": [{"max_epochs": None if max_epochs is None else int(max_epochs),
                      "mixing": str(mixing),
                      "learning_rate": float(learning_rate), "shards": shards}]}
    path = task_dir / "task.json"
    path.write_text(json.dumps(task, indent=1))
    return path


def read_results(task_dir) -> DistributedResult:
    """The result of the task :func:`write_task` wrote, once every worker has written its file.

    Checks that every rank ended with the same weights (bit for bit), as
    :func:`train_distributed` does; ``ranks`` and ``pids`` name the workers by rank.
    """
    task_dir = Path(task_dir)
    task = json.loads((task_dir / "task.json").read_text())
    workers = len(task["jobs"][0]["shards"])
    results = []
    for rank in range(workers):
        path = task_dir / f"result-{rank}.npz"
        if not path.is_file():
            raise FileNotFoundError(f"{path} is missing: the worker of rank {rank} has not "
                                    f"finished (or failed; see its output)")
        with np.load(path) as f:
            results.append({name: f[name] for name in f.files})
    pids = {f"worker {int(r['rank'])}": int(r["pid"]) for r in results}
    run = ClusterRun(workers=workers, servers=0, port=0, pids=pids)
    wall = max(float(r["finished"]) for r in results)
    return _mixing_result(0, task["jobs"][0]["mixing"], run, results, {}, wall)
