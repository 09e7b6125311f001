"""Many independent perceptron runs as one computation.

The perceptron is sequential within a run (each decision needs the weights the previous update
left), but separate runs never interact. :func:`train_batched` trains ``k`` of them at once:
``k`` label vectors over one shared dataset (one-vs-rest multiclass), ``k`` datasets of the same
shape (the updates-vs-margin experiment), and a ``mask`` choosing which examples each run sees
(one-vs-one multiclass). Each run gives exactly what :func:`~gluon_perceptron.train` gives on
its own data, ``train(X_k[mask_k], Y_k[mask_k], max_epochs=...)``: ``engine="fast"`` runs
:func:`train`'s fast twin (compiled, or numpy) run by run, on the run's examples in place
(:func:`gluon_perceptron.core.fast.batched_fast.train_runs`).

``engine="faithful"`` is :func:`train_batched`'s body: the other way to batch, in MXNet itself.
All runs step through the examples *in lockstep*, so at example ``i`` one NDArray computation
scores it under every run's weights and updates the runs that err. That works because every
run visits its examples in the same order (a masked example is a step where that run does
nothing), and a run that has made a pass without an update stops. This is the one lockstep
loop of the package: the multiclass trainers
(:mod:`~gluon_perceptron.core.rosenblatt.multiclass`) build their label rows and masks and
hand them to :func:`train_batched`.
"""

from __future__ import annotations

import math

import mxnet as mx
import numpy as np
from mxnet import nd

from .. import _checks
from .._convert import as_features, as_numpy
from .._validation import Rule, validate_params
from ..fast.batched_fast import train_runs
from .engine import _guard
from .results import TrainResult, train_result


def _stack(X, name: str, args: dict) -> np.ndarray:
    """``X (n, d)`` shared by all runs or ``(k, n, d)``, as ``(1 or k, n, d)``, C-contiguous."""
    Xa = _checks.to_numpy(X, name)
    if Xa.ndim not in (2, 3):
        raise ValueError(f"X must have shape (n, d) shared by all runs or (k, n, d) one dataset "
                         f"per run, got shape {Xa.shape}")
    Xs = _checks.features(Xa.reshape(math.prod(Xa.shape[:-1]), Xa.shape[-1]),
                          "X" if Xa.ndim == 2 else "X (all examples stacked)")
    return np.ascontiguousarray(Xs.reshape((1,) + Xa.shape if Xa.ndim == 2 else Xa.shape))


def _label_rows(Y, name: str, args: dict) -> np.ndarray:
    """``Y (k, n)``: one row of labels per run (the labels ``mask`` keeps are checked by its
    rule)."""
    Ya, X3 = _checks.to_numpy(Y, name), args["X"]
    if Ya.ndim != 2 or Ya.shape[1] != X3.shape[1] or Ya.shape[0] == 0:
        raise ValueError(f"Y must have shape (runs, {X3.shape[1]}): one row of labels per run, "
                         f"got shape {Ya.shape}; for a single run use train(X, y) or Y[None, :]")
    if X3.shape[0] not in (1, Ya.shape[0]):
        raise ValueError(f"X holds {X3.shape[0]} datasets but Y has {Ya.shape[0]} rows of "
                         f"labels; pass one dataset per run, or one 2-D X shared by all runs")
    return Ya


def _keep(mask, name: str, args: dict) -> np.ndarray | None:
    """``mask (k, n)`` of bool (None: every run uses every example), no run left without
    examples; and the labels it keeps are -1 or +1."""
    Y = args["Y"]
    keep = np.ones(Y.shape, dtype=bool) if mask is None else _checks.to_numpy(mask, name)
    if keep.dtype != bool:
        raise TypeError(f"mask must be a boolean array (True = the run uses the example), "
                        f"got dtype {keep.dtype}; use mask.astype(bool)")
    if keep.shape != Y.shape:
        raise ValueError(f"mask must have the shape of Y, {Y.shape}, got {keep.shape}")
    empty = np.flatnonzero(~keep.any(axis=1))
    if empty.size:
        raise ValueError(f"mask leaves run {int(empty[0])} without examples; every run needs at "
                         f"least one")
    _checks.labels(Y[keep], name="Y (where mask is True)")
    return keep


def _runs(X: np.ndarray, Y: np.ndarray, mask) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``X (1 or k, n, d)`` C-contiguous, ``Y (k, n)`` in X's dtype (1 where masked out: never
    read) and the ``(k, n)`` bool mask (from None: all True), from checked arguments."""
    X3 = np.ascontiguousarray(X if X.ndim == 3 else X[None])
    keep = np.ones(Y.shape, dtype=bool) if mask is None else as_numpy(mask)
    return X3, np.where(keep, Y, 1).astype(X3.dtype), keep


@validate_params(X=Rule(_stack, "(n, d) or (k, n, d) features"),
                 Y=Rule(_label_rows, "labels, one row per run", ("X",)),
                 mask=Rule(_keep, "optional (k, n) bool, no run without examples", ("Y",)))
def train_batched(X, Y, *, max_epochs: int, mask=None, learning_rate: float = 1.0,
                  engine: str = "fast", ctx: mx.Context | None = None) -> list[TrainResult]:
    """Train ``k`` independent perceptrons at once, each exactly as :func:`train` would.

    Run ``r`` starts from :math:`w = 0, b = 0` and passes over its examples in data order,
    updating :math:`w \\mathrel{+}= \\eta y_i x_i,\\; b \\mathrel{+}= \\eta y_i` whenever
    :math:`y_i (w^\\top x_i + b) \\le 0`, until a pass makes no update or ``max_epochs`` passes
    are done. Its result equals ``train(X_r[mask_r], Y[r, mask_r], max_epochs=max_epochs,
    learning_rate=learning_rate)`` (weights, bias, updates per pass, convergence).

    Parameters
    ----------
    X : array-like, shape (n, d) or (k, n, d)
        One dataset shared by all runs, or one per run; float32 and float64 keep their
        precision.
    Y : array-like, shape (k, n)
        Labels in {-1, +1}, one row per run (only entries where ``mask`` is True are read).
    max_epochs : int
        Bound on the passes of each run.
    mask : array-like of bool, shape (k, n), optional
        ``mask[r, i]`` False means run ``r`` skips example ``i`` (for one-vs-one multiclass);
        default: every run uses every example.
    learning_rate : float
        Step :math:`\\eta > 0`.
    engine : {"fast", "faithful"}
        ``"fast"``: the compiled loop run by run (numpy fallback without numba). ``"faithful"``:
        all runs in lockstep, one MXNet computation per example (about 0.3 ms a step for all
        runs together: meant for showing the idea, not for speed). The scores are summed in
        MXNet's order, so, as between ``train``'s engines, a decision could only differ for a
        margin within rounding of 0; never on integer-valued data such as the digits.
    ctx : mxnet.Context, optional
        Where the ``"faithful"`` engine's arrays live (default ``mx.cpu()``; ``mx.gpu(0)`` with a
        CUDA build of MXNet). The fast engine runs in numpy and ignores it.

    Returns
    -------
    list of TrainResult
        One per run, in the order of ``Y``'s rows.
    """
    X3, Yk, keep = _runs(as_features(X), as_numpy(Y), mask)  # the arguments as arrays
    if engine == "fast":  # the twin of the loop below: the same perceptrons, bit for bit
        return train_runs(X3, Yk, keep, max_epochs=max_epochs, learning_rate=learning_rate)
    shared, ctx = X3.shape[0] == 1, ctx or mx.cpu()  # one dataset for all runs, or one each
    Xd, Yd, Kd = (nd.array(a, ctx=ctx, dtype=X3.dtype) for a in (X3, Yk, keep))
    W, B = (nd.zeros(s, ctx=ctx, dtype=X3.dtype) for s in ((len(Yk), X3.shape[2]), len(Yk)))
    running, passes = np.ones(len(Yk), dtype=bool), []  # the runs still running
    for epoch in range(1, max_epochs + 1):  # the epoch budget
        runs, made, seen = nd.array(running, ctx=ctx, dtype=X3.dtype), 0 * B, 0 * B
        for i in range(X3.shape[1]):  # example i, for every run at once
            x = Xd[0, i] if shared else Xd[:, i, :]
            margins = Yd[:, i] * ((nd.dot(W, x) if shared else nd.sum(W * x, axis=1)) + B)
            live = Kd[:, i] * runs  # 1 for the runs that see example i and still run
            u = (margins <= 0) * live  # 1 for those of them that err on it (or tie)
            step = (learning_rate * Yd[:, i]) * u
            W += step.reshape((-1, 1)) * x
            B += step
            made += u
            seen += nd.where(live > 0, margins - margins, nd.zeros_like(margins))  # 0 or NaN
        _guard(epoch, margins=seen, weights=(W, B), dtype=X3.dtype)  # the overflow guard
        passes.append(np.where(running, made.asnumpy(), -1))  # -1: that run had stopped
        running &= passes[-1] > 0  # a pass without an update: that run is done
        if not running.any():
            break
    return [train_result(w, b, [int(c[r]) for c in passes if c[r] >= 0])
            for r, (w, b) in enumerate(zip(W.asnumpy(), B.asnumpy()))]
