r"""The fast twin of :func:`~gluon_perceptron.core.rosenblatt.training.train`: Rosenblatt's
passes, compiled by numba or scanned ahead in numpy blocks.

Both make exactly the decisions of ``train``'s readable loop (update on
:math:`y_i (w^\top x_i + b) \le \delta`: :math:`w \mathrel{+}= \eta y_i x_i`,
:math:`b \mathrel{+}= \eta y_i`), in the data's dtype:

- :func:`_compiled_epoch`: the loop compiled by numba (:data:`~.engine.FAST_BACKEND` is
  ``"compiled"``), each margin summed left to right, as scikit-learn's ``Perceptron`` does.
- :func:`_numpy_epoch`: :func:`_mistakes` scans ahead in numpy blocks with the current weights
  to the next example at or below the threshold (the ``"numpy"`` backend, and the pass the
  variants' twins record, :mod:`.variants_fast`).

:func:`train` is ``train(..., engine="fast")``: the same arguments, the same result.
:func:`fast_pass` is one of its passes, for the code that steps pass by pass (the digits'
experiments, parameter mixing). ``tests/core/fast/test_fast.py`` holds every twin to its readable
loop bit for bit.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator

import numpy as np

from ..rosenblatt.engine import _FIRST_BLOCK, _drive, _jit, _scan_ahead, _use_compiled
from ..rosenblatt.results import TrainResult, train_result

_CHUNK = 1024  # passes per call of the compiled driver: records grow with the passes made


def train(X: np.ndarray, Y: np.ndarray, *, max_epochs: int, learning_rate: float = 1.0,
          threshold: float = 0.0, w0: np.ndarray | None = None, b0: float = 0.0) -> TrainResult:
    """``train(..., engine="fast")`` on checked arguments: passes of the compiled (or numpy)
    twin from ``(w0, b0)`` until one makes no update or ``max_epochs`` are done."""
    w = np.zeros(X.shape[1], dtype=X.dtype) if w0 is None else w0.astype(X.dtype)
    b = np.array([b0], dtype=X.dtype)
    per_epoch = _fast_run(X, Y, w, b, max_epochs, learning_rate, threshold)
    return train_result(w, b[0], per_epoch)


def _mistakes(X: np.ndarray, Y: np.ndarray, w: np.ndarray, b: np.ndarray,
              threshold: float) -> Iterator[int]:
    """The positions, in order, of the examples one pass updates on, found by scanning ahead.

    Between two updates the weights do not change, so the margins of the next block of
    examples can be computed at once with the current ``(w, b)`` (``b`` a 1-element array); the
    first one at or below the threshold is exactly the next example the one-by-one loop
    updates on. The caller updates ``w`` and ``b`` in place before asking for the next
    position. Yields -1 (and stops) at a margin that is not finite (inf would count as
    correct, NaN as a mistake: both are refused).
    """
    n = X.shape[0]
    scanned: list = [None, 0]  # the margins of the last block scanned, and its start

    def hits(i: int, j: int) -> np.ndarray:
        margins = Y[i:j] * (X[i:j] @ w + b[0])
        scanned[:] = margins, i
        return ~(margins > threshold) | (margins == np.inf)

    i, block = 0, _FIRST_BLOCK
    while True:
        k, block = _scan_ahead(hits, i, n, block)
        if k == n:
            return
        if not math.isfinite(scanned[0][k - scanned[1]]):
            yield -1
            return
        yield k
        i = k + 1


def _numpy_epoch(X: np.ndarray, Y: np.ndarray, w: np.ndarray, b: np.ndarray,
                 learning_rate: float, threshold: float) -> int:
    """One pass over ``X`` in order, ``w`` and the 1-element ``b`` updated in place; the
    updates made, or -1 at a margin that is not finite."""
    updates = 0
    for k in _mistakes(X, Y, w, b, threshold):
        if k < 0:
            return -1
        step = learning_rate * Y[k]
        w += step * X[k]
        b += step
        updates += 1
    return updates


@_jit
def _compiled_epoch(X, Y, rows, w, b, eta, threshold):  # pragma: no cover - runs compiled
    """One plain pass over ``X[rows]`` in order: the chapter's loop, compiled.

    The margin :math:`y_i (\\sum_j w_j x_{ij} + b)` is summed left to right in the data's dtype;
    on :math:`y_i (w^\\top x_i + b) \\le \\delta` the step is :math:`w \\mathrel{+}= \\eta y_i x_i`,
    :math:`b \\mathrel{+}= \\eta y_i` with ``eta`` already in the data's dtype (as numpy and MXNet
    cast it). ``w`` and ``b`` (a 1-element array) change in place; returns the updates made, or
    -1 as soon as a margin that decides a step is not finite (``m - m`` is 0 only for finite
    ``m``, a check that costs two operations per margin).

    A left-to-right sum is one long chain of dependent additions, so the processor mostly
    waits. The loop therefore sums the next four examples' margins side by side (four
    independent chains, each still left to right) with the current weights; the first of them
    at or below the threshold gets the update and the scan resumes right after it, so the
    margins the others got are simply not used. Every decision is the one-at-a-time decision.
    """
    d = X.shape[1]
    m = rows.shape[0]
    updates = 0
    t = 0  # position in rows of the next example to decide
    while t < m:
        bias = b[0]
        if t + 4 <= m:
            i0, i1, i2, i3 = rows[t], rows[t + 1], rows[t + 2], rows[t + 3]
            s0 = s1 = s2 = s3 = w.dtype.type(0)
            for j in range(d):
                wj = w[j]
                s0 += wj * X[i0, j]
                s1 += wj * X[i1, j]
                s2 += wj * X[i2, j]
                s3 += wj * X[i3, j]
            m0 = Y[i0] * (s0 + bias)
            m1 = Y[i1] * (s1 + bias)
            m2 = Y[i2] * (s2 + bias)
            m3 = Y[i3] * (s3 + bias)
            if not m0 > threshold:
                hit, seen = t, m0 - m0
            elif not m1 > threshold:
                hit, seen = t + 1, (m0 - m0) + (m1 - m1)
            elif not m2 > threshold:
                hit, seen = t + 2, (m0 - m0) + (m1 - m1) + (m2 - m2)
            else:
                seen = (m0 - m0) + (m1 - m1) + (m2 - m2) + (m3 - m3)
                if not seen == 0:
                    return -1
                if m3 > threshold:
                    t += 4
                    continue
                hit = t + 3
        else:
            i0 = rows[t]
            s0 = w.dtype.type(0)
            for j in range(d):
                s0 += w[j] * X[i0, j]
            m0 = Y[i0] * (s0 + bias)
            seen = m0 - m0
            if not seen == 0:
                return -1
            if m0 > threshold:
                t += 1
                continue
            hit = t
        if not seen == 0:
            return -1
        i = rows[hit]
        step = eta * Y[i]
        for j in range(d):
            w[j] += step * X[i, j]
        b[0] += step
        updates += 1
        t = hit + 1
    return updates


@_jit
def _compiled_passes(X, Y, rows, w, b, eta, threshold, counts):  # pragma: no cover - compiled
    """Up to ``counts.shape[0]`` passes of :func:`_compiled_epoch`; stops after a pass without
    an update (or whose margins overflowed). ``counts[e]`` gets pass ``e``'s updates; returns the
    number of passes made."""
    for e in range(counts.shape[0]):
        counts[e] = _compiled_epoch(X, Y, rows, w, b, eta, threshold)
        if counts[e] <= 0:
            return e + 1
    return counts.shape[0]


def _plain_passes(X: np.ndarray, Y: np.ndarray, w: np.ndarray, b: np.ndarray,
                  learning_rate: float, threshold: float, rows: np.ndarray | None = None,
                  backend: str | None = None) -> Callable[[int], list[int]]:
    """``passes(budget)`` for :func:`~.engine._drive`: plain passes over ``X[rows]``, compiled
    or numpy.

    Compiled passes run in chunks of at most :data:`_CHUNK` per call, so the record grows with
    the passes made. ``X``, ``Y``, ``w`` and the 1-element ``b`` share one float dtype.
    """
    if not _use_compiled(backend):
        if rows is not None:
            X, Y = X[rows], Y[rows]
        return lambda budget: [_numpy_epoch(X, Y, w, b, learning_rate, threshold)]
    Xc = np.ascontiguousarray(X)
    order = np.arange(X.shape[0], dtype=np.int64) if rows is None else rows.astype(np.int64)
    eta = X.dtype.type(learning_rate)
    chunk = [1]

    def passes(budget: int) -> list[int]:
        counts = np.empty(min(budget, chunk[0]), dtype=np.int64)
        chunk[0] = min(2 * chunk[0], _CHUNK)
        done = _compiled_passes(Xc, Y, order, w, b, eta, threshold, counts)
        return counts[:done].tolist()

    return passes


def _fast_run(X: np.ndarray, Y: np.ndarray, w: np.ndarray, b: np.ndarray, max_epochs: int,
              learning_rate: float, threshold: float, rows: np.ndarray | None = None,
              backend: str | None = None) -> list[int]:
    """The fast engine: train ``w, b`` (changed in place) over ``X[rows]``; updates per pass."""
    passes = _plain_passes(X, Y, w, b, learning_rate, threshold, rows, backend)
    return _drive(passes, max_epochs, (w, b), X.dtype)


def fast_pass(X: np.ndarray, Y: np.ndarray, w: np.ndarray, b: np.ndarray,
              learning_rate: float = 1.0, threshold: float = 0.0) -> int:
    """One pass of the fast engine over ``X`` in order, updating ``w, b`` in place.

    Makes exactly the decisions and updates one pass of ``train(..., engine="fast")`` makes;
    ``X``, ``Y``, ``w`` and the 1-element ``b`` share one float dtype (trusted, not checked).
    Returns the number of updates; raises ``ValueError`` when the weights or margins overflow.
    """
    return _fast_run(X, Y, w, b, 1, learning_rate, threshold)[0]
