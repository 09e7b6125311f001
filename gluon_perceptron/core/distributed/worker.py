"""The worker process: ``python -m gluon_perceptron.core.distributed.worker TASK_DIR``.

The launcher starts it with ``DMLC_ROLE=worker``; it creates ONE ``dist_sync`` KVStore (a
second one in the same process hangs), learns its rank from it (ranks are the scheduler's,
not the launch order), runs the jobs of ``TASK_DIR/task.json`` on its shard of each job's data,
and writes ``TASK_DIR/result-<rank>.npz``. A job's data is ``TASK_DIR/data-<job>.npz`` (all the
rows, of which rank ``i`` takes the ``i``-th block of :func:`~.mixing.shard_bounds`), or, when
the job lists ``"shards"`` (one description per rank, :mod:`.shards`), rank ``i`` opens only
the files of the ``i``-th and checks its values there.

A mixing job needs no ``import mxnet``: the worker reaches the servers through MXNet's C library
(:class:`~.c_kvstore.CKVStore`), and when the task says ``numpy_passes`` (every shard of at most
:data:`~.cluster_training.SMALL_SHARD` rows) it makes numpy's pass, the compiled pass's exact twin,
without loading numba. A Gluon job imports MXNet (and makes no perceptron pass: no numba).

Any exception prints its traceback and exits with code 1 at once (``os._exit``): MXNet's normal
shutdown waits for every worker, so a worker that failed and exited normally would hang the
others. After success the worker also leaves with ``os._exit(0)`` once its results are on
disk, skipping that shutdown barrier (seconds on a small machine); the launcher then stops the
servers and the scheduler by their PIDs.

The worker ends when the launcher is gone (:func:`.lifeline.watch_parent`), and reports every
exchange (and its arrival at the final barrier) to the launcher's per-round deadline
(:func:`.lifeline.report`).
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time
import traceback
from pathlib import Path
from typing import Any

import numpy as np

from gluon_perceptron.core._validation import unchecked, validate_params
from gluon_perceptron.core.distributed import lifeline

_STARTED = time.perf_counter()


def _log(message: str) -> None:
    """One line to this worker's log (its stderr, which the launcher sends to the log file)."""
    sys.stderr.write(message + "\n")
    sys.stderr.flush()


def _fault(fault: dict | None, rank: int, round_: int) -> None:
    """Test hook: fail on purpose on ``fault["rank"]`` in round ``fault["round"]`` (after its
    pass, before its exchange)."""
    if not fault or fault["rank"] != rank or fault["round"] != round_:
        return
    how = fault["how"]
    if how == "raise":
        raise RuntimeError(f"fault injected on purpose in rank {rank}, round {round_}")
    if how == "sigkill":
        os.kill(os.getpid(), signal.SIGKILL)
    if how == "sigstop":  # stalls until the launcher's per-round deadline stops it
        os.kill(os.getpid(), signal.SIGSTOP)


def _mixing_job(kv, key: int, job: dict, Xs: np.ndarray, Ys: np.ndarray,
                fault: dict | None) -> dict:
    """Iterative parameter mixing over the KVStore: the rounds of ``train_mixed``
    (:func:`~.mixing._run_rounds`) on this rank's shard ``Xs, Ys``, each round's rows
    exchanged through the servers.

    Each rank writes its row ``(w, b, k, seconds)`` into its own row of a ``(W, d + 3)``
    array of zeros and pushes it; the server sums the W arrays, so the pull returns every row,
    whatever order the pushes arrived in. Every worker then mixes the rows in rank order
    (:func:`~.mixing.mixing_round`), so all hold the same weights and stop on the same round.
    ``kv`` is a :class:`~.c_kvstore.CKVStore`: the job needs no ``import mxnet``.
    """
    from .mixing import _run_rounds, decode_rows, encode_rows

    rank, W = kv.rank, kv.num_workers
    width = encode_rows(np.zeros((1, Xs.shape[1] + 3), dtype=Xs.dtype)).shape[1]
    kv.init(key, np.zeros((W, width), dtype=np.float32))
    seconds: list[float] = []  # this rank's exchange, round by round

    def exchange(rows: np.ndarray) -> np.ndarray:
        _fault(fault, rank, len(seconds))
        mine = np.zeros((W, width), dtype=np.float32)
        mine[rank] = encode_rows(rows)[0]
        t = time.perf_counter()
        kv.push(key, mine)
        lifeline.report()
        every = decode_rows(kv.pull(key), Xs.dtype)
        seconds.append(time.perf_counter() - t)
        if not np.array_equal(every[rank].view(np.uint8), rows[0].view(np.uint8)):
            raise RuntimeError(f"rank {rank}: the pulled row differs from the pushed one")
        return every

    rec = _run_rounds([(Xs, Ys)], job["max_epochs"], job["mixing"], job["learning_rate"],
                      exchange)
    return {"theta": rec.theta, "k": np.array(rec.k), "mu": np.array(rec.mu),
            "passes": np.array(rec.passes), "exchanges": np.array(seconds)}


def _gluon_job(kv, key: int, job: dict, X: np.ndarray, Y: np.ndarray) -> dict:
    """Gluon SGD on this rank's shard, the gradients summed by the KVStore."""
    from .sharded_gluon import _sgd_worker

    return _sgd_worker(kv, X, Y, job, on_step=lifeline.report)


def _my_shard(task_dir: Path, j: int, job: dict, rank: int, workers: int):
    """This rank's rows of job ``j``: its block of the job's data, or its own shard files."""
    from .mixing import _require_separable, shard_bounds

    if "shards" not in job:
        with np.load(task_dir / f"data-{j}.npz") as data:
            X, Y = data["X"], data["Y"]
        a, b = shard_bounds(X.shape[0], workers)[rank]
        return np.ascontiguousarray(X[a:b]), np.ascontiguousarray(Y[a:b])
    from .shards import open_shard

    if len(job["shards"]) != workers:
        raise RuntimeError(f"job {j} lists {len(job['shards'])} shards for {workers} workers: "
                           f"set DMLC_NUM_WORKER to the number of shards")
    Xs, Ys = open_shard(job["shards"][rank], rank)
    if job["max_epochs"] is None:  # the caller never held the rows: check this shard at least
        files = job["shards"][rank]
        _require_separable(Xs, Ys, f"shard {rank} ({files['features']['path']}, "
                                   f"{files['labels']['path']}), and so the whole data")
    return Xs, Ys


@validate_params(task_dir=unchecked)  # the task was checked where it was written: trusted
def run(task_dir: Path) -> None:
    """Run every job of ``task_dir/task.json`` and write this rank's results.

    The task's arguments were checked by whoever wrote it (``train_distributed`` and the other
    trainers, or :func:`~.cluster_training.write_task`), so the body runs trusted: the
    package's functions it calls (``mixing_round`` every round) check nothing again."""
    task = json.loads((task_dir / "task.json").read_text())
    if task["kind"] == "mixing":  # load (or compile) the pass before connecting: start-up
        if task.get("numpy_passes"):  # small shards: numpy's twin of the pass, no numba
            os.environ["GLUON_PERCEPTRON_FAST"] = "numpy"
        from ..fast.training_fast import fast_pass
        from .c_kvstore import CKVStore

        for dtype in (np.float32, np.float64):
            fast_pass(np.zeros((1, 1), dtype), np.ones(1, dtype), np.zeros(1, dtype),
                      np.zeros(1, dtype))
        imported, how = time.perf_counter() - _STARTED, "loaded MXNet's library"
        kv: Any = CKVStore(task["kvstore"])  # the C library alone: no operator to register
    else:  # Gluon trains with autograd: the whole package, and no perceptron pass (no numba)
        os.environ["GLUON_PERCEPTRON_FAST"] = "numpy"
        import mxnet as mx

        imported, how = time.perf_counter() - _STARTED, "imported MXNet"
        kv = mx.kv.create(task["kvstore"])
    connected = time.perf_counter() - _STARTED
    rank = kv.rank
    _log(f"worker pid {os.getpid()}: rank {rank} of {kv.num_workers} "
         f"({how} in {imported:.2f} s, connected after {connected:.2f} s)")
    out = {"rank": rank, "pid": os.getpid(), "connected": connected}
    for j, job in enumerate(task["jobs"]):
        if task["kind"] == "mixing":
            try:
                Xs, Ys = _my_shard(task_dir, j, job, rank, kv.num_workers)
            except ValueError as exc:  # the data's fault, named by its shard: the parent
                (task_dir / lifeline.BAD_SHARD_FILE).write_text(str(exc))  # raises it as is
                raise
            res = _mixing_job(kv, j, job, Xs, Ys, task.get("fault"))
        else:
            with np.load(task_dir / f"data-{j}.npz") as data:
                X, Y = data["X"], data["Y"]
            res = _gluon_job(kv, j, job, X, Y)
        out.update({f"{j}/{name}": value for name, value in res.items()})
        _log(f"job {j} ({task['kind']}) done after {time.perf_counter() - _STARTED:.2f} s")
    out["finished"] = time.perf_counter() - _STARTED
    tmp = task_dir / f".result-{rank}.npz"
    with open(tmp, "wb") as f:
        np.savez(f, **out)
    os.replace(tmp, task_dir / f"result-{rank}.npz")
    lifeline.report()  # at the barrier: a worker stalled before it is behind the others
    kv.barrier() if task["kind"] == "mixing" else kv._barrier()  # all have their last pull


def main(argv: list[str]) -> None:
    """Entry point: run the task, exit 0 after success, 1 (with a traceback) after any error."""
    lifeline.watch_parent()
    try:
        run(Path(argv[0]))
    except BaseException as exc:  # noqa: BLE001 - any failure must end this process, not hang it
        traceback.print_exc()
        if isinstance(exc, ValueError) and str(exc).startswith(lifeline.OVERFLOWED):
            # what the data and the learning rate did, not a fault of the cluster: the parent
            # raises it as the ValueError a one-process trainer raises
            (Path(argv[0]) / lifeline.OVERFLOW_FILE).write_text(str(exc))
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(1)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


if __name__ == "__main__":
    main(sys.argv[1:])
