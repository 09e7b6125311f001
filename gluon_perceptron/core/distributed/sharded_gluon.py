r"""Gluon SGD on the perceptron loss, data-parallel on KVStore ``dist_sync``.

Each of :math:`W` workers holds a shard and the same ``Dense(1)`` net; at step :math:`t` worker
:math:`i` computes the gradient of the summed perceptron loss over its next :math:`B` examples,
the KVStore sums the :math:`W` gradients on the servers, and the SGD step runs there
(Gluon's ``update_on_kvstore``, the default for ``dist_*`` stores):

.. math:: \theta \leftarrow \theta - \frac{\eta}{W B} \sum_{i=1}^{W} \sum_{j \in
          \text{batch}_{i,t}} \nabla \max(0, -y_j f_\theta(x_j)).

That is one SGD step on the *global* batch, the :math:`W` local batches concatenated, so
:func:`train_gluon_sharded` (one process, the same global batches) gives the same weights up to
float rounding (the server sums per-worker sums, one process sums all rows at once).

The traps, as measured on MXNet 1.9.1:

- ``trainer.step`` must get the global batch size :math:`W B`; with :math:`B` the steps are
  :math:`W` times too large.
- Every worker must start from the same weights (here zeros; with a random initializer, the
  same seed); with ``update_on_kvstore`` the servers hold rank 0's initial copy anyway.
- One KVStore per process, created once and passed to the ``Trainer``: a second ``dist_sync``
  store in the same process hangs.
- Keep ``update_on_kvstore`` at its default: ``False`` races with the first copy of the weights.
- ``dist_async`` cannot work without an optimizer on the servers (it has no merge step), which
  is why those servers are full ``import mxnet`` processes.
- The servers store float32: the data is cast to float32.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from .._arrays import FLOAT32_MAX
from .._convert import as_features, as_labels
from .._validation import (
    GLUON_RATE,
    Rule,
    count,
    features,
    fits,
    one_of,
    such_that,
    validate_params,
)
from ..rosenblatt.results import TrainResult, train_result
from .limits import CLUSTER, ROUND_TIMEOUT
from .mixing import shard_bounds, shard_count

KVSTORES = ("dist_sync", "dist_async")


@dataclass
class GluonDistributedResult(TrainResult):
    """A :class:`~gluon_perceptron.TrainResult` of data-parallel Gluon SGD.

    ``updates_per_epoch[e]`` counts the examples of epoch ``e`` with :math:`y f(x) \\le 0`
    (a nonzero gradient), over all workers, measured before each step.

    Attributes
    ----------
    workers, batch_size : int
        :math:`W` and the local batch :math:`B` (a step uses :math:`W B` examples).
    kvstore : str
        ``"dist_sync"``, ``"dist_async"`` or ``"local"`` (one process).
    shard_updates : ndarray, shape (epochs, workers)
        The same count per worker's shard.
    startup_seconds, wall_seconds : float
        Until the last worker connected; the whole call.
    """

    workers: int = 1
    batch_size: int = 1
    kvstore: str = "local"
    shard_updates: np.ndarray = field(default_factory=lambda: np.zeros((0, 1), np.int64))
    startup_seconds: float = 0.0
    wall_seconds: float = 0.0


def _steps(n: int, shards: int, batch_size: int) -> int:
    """Steps per epoch: full local batches of the smallest shard (``n // shards`` examples,
    :func:`~.mixing.shard_bounds`)."""
    return n // shards // batch_size


#: The largest float32: the parameter servers store float32, and MXNet's optimizers take their
#: learning rate as a float32.


def _setup(d: int, learning_rate: float, kvstore):
    from mxnet import gluon

    from ..gradient.gluon import PerceptronLoss, perceptron_net

    net = perceptron_net(d, "float32")
    trainer = gluon.Trainer(net.collect_params(), "sgd",
                            {"learning_rate": learning_rate, "momentum": 0.0, "wd": 0.0},
                            kvstore=kvstore)
    # the data was checked once; _step checks the scores itself, naming the cause
    return net, PerceptronLoss(check_inputs=False), trainer


def _overflow(learning_rate: float) -> ValueError:
    return ValueError(f"the weights overflowed float32 (the parameter servers store float32): "
                      f"learning_rate={learning_rate:g} is too large for this data; use a "
                      f"smaller learning_rate or rescale X")


def _step(net, loss_fn, trainer, xb, yb, global_batch: int, parts: int) -> np.ndarray:
    """One SGD step on ``(xb, yb)``; returns the mistakes of each of its ``parts`` blocks."""
    from mxnet import autograd

    with autograd.record():
        pred = net(xb)
        loss = loss_fn(pred, yb)
    scores = pred.asnumpy().reshape(-1)
    if not np.all(np.isfinite(scores)):
        raise _overflow(trainer.learning_rate)
    loss.backward()
    trainer.step(global_batch)
    wrong = yb.asnumpy().reshape(-1) * scores <= 0
    return wrong.reshape(parts, -1).sum(axis=1).astype(np.int64)


def _epochs(net, loss_fn, trainer, Xd, Yd, *, steps: int, rows: int, global_batch: int,
            parts: int, max_epochs: int, on_step=None) -> np.ndarray:
    """The SGD loop both trainers run: ``max_epochs`` epochs of ``steps`` steps, step ``t`` on
    rows ``t * rows .. (t + 1) * rows - 1`` of ``(Xd, Yd)``, each ``trainer.step(global_batch)``.

    Returns the mistakes of each epoch and each of the ``parts`` blocks of a step, shape
    ``(max_epochs, parts)``. ``on_step`` is called after every step (a worker's report).
    """
    counts = []
    for _ in range(max_epochs):
        epoch = np.zeros(parts, dtype=np.int64)
        for t in range(steps):
            epoch += _step(net, loss_fn, trainer, Xd[t * rows:(t + 1) * rows],
                           Yd[t * rows:(t + 1) * rows], global_batch, parts)
            if on_step is not None:
                on_step()
        counts.append(epoch)
    return np.array(counts, dtype=np.int64).reshape(max_epochs, parts)


def _sgd_worker(kv, X: np.ndarray, Y: np.ndarray, job: dict, on_step=None) -> dict:
    """Run in a worker process: SGD on this rank's shard, gradients summed by ``kv``."""
    from mxnet import nd

    rank, W, B = kv.rank, kv.num_workers, job["batch_size"]
    a, _ = shard_bounds(X.shape[0], W)[rank]
    steps = _steps(X.shape[0], W, B)
    Xd = nd.array(X[a:a + steps * B], dtype="float32")
    Yd = nd.array(Y[a:a + steps * B], dtype="float32")
    net, loss_fn, trainer = _setup(X.shape[1], job["learning_rate"], kv)
    k = _epochs(net, loss_fn, trainer, Xd, Yd, steps=steps, rows=B, global_batch=W * B,
                parts=1, max_epochs=job["max_epochs"], on_step=on_step)
    return {"w": net.weight.data().asnumpy().reshape(-1), "b": net.bias.data().asnumpy(),
            "k": k[:, 0]}


# --- the rules of the arguments (``of``: the parameter that counts the shards) ----------------

#: ``X``: features whose values fit in float32, the parameter servers' dtype.
X32 = such_that(features(), lambda X, args: np.all(np.isfinite(X.astype(np.float32))),
                f"X must fit in float32 (the parameter servers store float32), but it holds "
                f"values beyond float32's {FLOAT32_MAX:.3g}; rescale X")


def _batch(of: str) -> Rule:
    """``batch_size``: a count, and at least one full batch in the smallest shard."""
    return such_that(count(), lambda size, args: _steps(args["X"].shape[0], args[of], size) >= 1,
                     f"{of}={{args[{of}]}} shards of {{args[X].shape[0]}} examples hold fewer "
                     f"than batch_size={{value}} examples each; use a smaller batch_size or "
                     f"fewer {of}", ("X", of))


def _epochs_fit(of: str) -> Rule:
    """``max_epochs``: a count whose mistake counts per epoch and shard fit in memory."""
    return fits(count(), lambda max_epochs, args: max_epochs * args[of], "the mistake counts "
                "per epoch and shard (max_epochs={value:,} x " + of + "={" + of + "})", (of,))


@validate_params(X=X32, shards=shard_count("X"), batch_size=_batch("shards"),
                 max_epochs=_epochs_fit("shards"), learning_rate=GLUON_RATE)
def train_gluon_sharded(X, Y, *, shards: int, batch_size: int = 1, max_epochs: int,
                        learning_rate: float = 1.0) -> GluonDistributedResult:
    r"""Single-process Gluon SGD over the global batches a ``shards``-worker run would use.

    Step :math:`t` of an epoch takes examples :math:`tB .. (t+1)B - 1` of every shard
    (contiguous shards, as the workers' ranks take them), concatenated in shard order, and calls
    ``trainer.step(shards * batch_size)``. Examples past the last full batch of the smallest
    shard are not used. The data is cast to float32 (the parameter servers store float32).

    Parameters
    ----------
    X, Y : the data, labels in {-1, +1}
    shards : int
        :math:`W`, the number of workers being imitated.
    batch_size : int
        :math:`B`, each shard's share of a step.
    max_epochs : int
        Epochs (all run: SGD has no "no update" stop here).
    learning_rate : float
        :math:`\eta`.

    Returns
    -------
    GluonDistributedResult
    """
    from mxnet import nd

    X, Y = as_features(X, dtype=np.float32), as_labels(Y).astype(np.float32)
    start = time.perf_counter()
    W, B = int(shards), int(batch_size)
    steps = _steps(X.shape[0], W, B)
    starts = [a for a, _ in shard_bounds(X.shape[0], W)]
    order = np.concatenate([np.arange(a + t * B, a + (t + 1) * B)
                            for t in range(steps) for a in starts])
    Xd, Yd = nd.array(X[order], dtype="float32"), nd.array(Y[order], dtype="float32")
    net, loss_fn, trainer = _setup(X.shape[1], float(learning_rate), None)
    k = _epochs(net, loss_fn, trainer, Xd, Yd, steps=steps, rows=W * B, global_batch=W * B,
                parts=W, max_epochs=max_epochs)
    w, b = net.weight.data().asnumpy().reshape(-1), net.bias.data().asscalar()
    if not (np.all(np.isfinite(w)) and np.isfinite(b)):
        raise _overflow(learning_rate)
    base = train_result(w, b, k.sum(axis=1))
    return GluonDistributedResult(**vars(base), workers=W, batch_size=B, kvstore="local",
                                  shard_updates=k, wall_seconds=time.perf_counter() - start)


@validate_params(X=X32, workers=shard_count("X"), **CLUSTER, batch_size=_batch("workers"),
                 max_epochs=_epochs_fit("workers"), learning_rate=GLUON_RATE,
                 kvstore=one_of(*KVSTORES))
def train_gluon_distributed(X, Y, *, workers: int = 2, servers: int = 1, batch_size: int = 1,
                            max_epochs: int, learning_rate: float = 1.0,
                            kvstore: str = "dist_sync", timeout: float = 600.0,
                            log_dir=None, round_timeout: float = ROUND_TIMEOUT, hosts=None,
                            remote=None, port: int | None = None) -> GluonDistributedResult:
    r"""Gluon SGD with the perceptron loss on ``workers`` processes and a parameter server.

    Each worker (its shard by rank) runs ``Dense(1)`` + ``PerceptronLoss`` +
    ``gluon.Trainer("sgd", kvstore=<its one dist store>)`` and calls
    ``trainer.step(workers * batch_size)`` after each local batch; the servers sum the
    gradients and apply the step. With ``kvstore="dist_sync"`` the result equals
    :func:`train_gluon_sharded` with ``shards=workers`` up to float rounding; ``"dist_async"``
    applies each worker's gradient as it arrives (no equality to expect).

    Parameters
    ----------
    X, Y : the data, labels in {-1, +1} (cast to float32)
    workers, servers : int
    batch_size : int
        Local batch :math:`B`.
    max_epochs : int
    learning_rate : float
    kvstore : {"dist_sync", "dist_async"}
    timeout : float
        Seconds for the whole run (see ``train_distributed``).
    log_dir : path, optional
        Where to keep one log per role.
    round_timeout : float
        Seconds a worker may go without reporting a step while another is ahead (see
        ``train_distributed``).
    hosts, remote, port : optional
        Run on several hosts (see ``train_distributed``).

    Returns
    -------
    GluonDistributedResult
    """
    from .cluster_training import run_cluster

    X, Y = as_features(X, dtype=np.float32), as_labels(Y).astype(np.float32)
    start = time.perf_counter()
    job = {"batch_size": int(batch_size), "max_epochs": int(max_epochs),
           "learning_rate": float(learning_rate)}
    run, results, _ = run_cluster("gluon", [(job, X, Y)], workers=workers, servers=servers,
                                  timeout=timeout, log_dir=log_dir, kvstore=kvstore,
                                  python_servers=True, round_timeout=round_timeout,
                                  hosts=hosts, remote=remote, port=port)
    k = np.stack([r["0/k"] for r in results], axis=1)
    w, b = results[0]["0/w"], results[0]["0/b"][0]
    if not (np.all(np.isfinite(w)) and np.isfinite(b)):
        raise _overflow(learning_rate)
    base = train_result(w, b, k.sum(axis=1))
    return GluonDistributedResult(**vars(base), workers=workers, batch_size=batch_size,
                                  kvstore=kvstore,
                                  shard_updates=k,
                                  startup_seconds=max(float(r["connected"]) for r in results),
                                  wall_seconds=time.perf_counter() - start)
