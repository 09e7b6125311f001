"""The perceptron's epoch kernel: one pass over the data, in numpy, compiled by numba, and a driver.
"""

from __future__ import annotations

import os

import numpy as np

try:  # optional: a compiled loop for the fast engine
    import numba
except ImportError:  # pragma: no cover - exercised only where numba is not installed
    numba = None

#: How ``engine="fast"`` runs: ``"compiled"`` (numba, when installed) or ``"numpy"`` (block
#: scan). Set the environment variable ``GLUON_PERCEPTRON_FAST=numpy`` to force the numpy path.
FAST_BACKEND = ("compiled" if numba is not None
                and os.environ.get("GLUON_PERCEPTRON_FAST", "") != "numpy" else "numpy")


def _numpy_epoch(X: np.ndarray, Y: np.ndarray, w: np.ndarray, b: np.ndarray,
                 learning_rate: float, threshold: float, *, bias: bool = True,
                 on_update=None) -> int:
    """One pass making the same updates as :func:`_faithful_epoch`, scanning ahead in numpy.

    Between two updates the weights do not change, so the margins of the next block of
    examples can be computed at once with the current ``(w, b)``; the first one at or below the
    threshold is exactly the next example the one-by-one loop would update on. Blocks grow
    while no mistake is found and shrink after one, so the work tracks the update rate.
    ``w`` and ``b`` (a 1-element array) are updated in place. ``bias=False`` leaves ``b`` alone
    (the homogeneous perceptron, with ``b = 0``); ``on_update(k)``, if given, is called after
    each update, on example ``k``, so a caller can keep the path (:func:`update_path`).
    """
    n = X.shape[0]
    i = updates = 0
    block = 64
    while i < n:
        j = min(n, i + block)
        margins = Y[i:j] * (X[i:j] @ w + b[0])
        hits = np.flatnonzero(margins <= threshold)
        if hits.size == 0:
            i = j
            block = min(block * 2, 8192)
            continue
        k = i + hits[0]
        step = learning_rate * Y[k]
        w += step * X[k]
        if bias:
            b += step
        updates += 1
        if on_update is not None:
            on_update(int(k))
        i = k + 1
        block = max(16, int(hits[0]) * 2)
    return updates


def _numpy_run(X: np.ndarray, Y: np.ndarray, w: np.ndarray, b: np.ndarray, max_epochs: int,
               learning_rate: float, threshold: float) -> list[int]:
    """Passes of :func:`_numpy_epoch` until one makes no update or ``max_epochs`` are done."""
    per_epoch: list[int] = []
    while len(per_epoch) < max_epochs and (not per_epoch or per_epoch[-1] > 0):
        per_epoch.append(_numpy_epoch(X, Y, w, b, learning_rate, threshold))
    return per_epoch


def _jit(fn):
    """Compile ``fn`` with numba (cached on disk) when it is installed, else leave it alone."""
    return fn if numba is None else numba.njit(cache=True, nogil=True)(fn)


@_jit
def _compiled_epoch(X, Y, rows, w, b, eta, threshold):  # pragma: no cover - runs compiled
    """One pass over ``X[rows]`` in order: the chapter's loop, compiled.

    The margin :math:`y_i (\\sum_j w_j x_{ij} + b)` is summed left to right in the data's dtype;
    on :math:`y_i (w^\\top x_i + b) \\le \\delta` the step is :math:`w \\mathrel{+}= \\eta y_i x_i`,
    :math:`b \\mathrel{+}= \\eta y_i` with ``eta`` already in the data's dtype (as numpy and MXNet
    cast it). ``w`` and ``b`` (a 1-element array) change in place; returns the updates made.

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
            if Y[i0] * (s0 + bias) <= threshold:
                hit = t
            elif Y[i1] * (s1 + bias) <= threshold:
                hit = t + 1
            elif Y[i2] * (s2 + bias) <= threshold:
                hit = t + 2
            elif Y[i3] * (s3 + bias) <= threshold:
                hit = t + 3
            else:
                t += 4
                continue
        else:
            i0 = rows[t]
            s0 = w.dtype.type(0)
            for j in range(d):
                s0 += w[j] * X[i0, j]
            if Y[i0] * (s0 + bias) > threshold:
                t += 1
                continue
            hit = t
        i = rows[hit]
        step = eta * Y[i]
        for j in range(d):
            w[j] += step * X[i, j]
        b[0] += step
        updates += 1
        t = hit + 1
    return updates


@_jit
def _compiled_run(X, Y, rows, w, b, eta, threshold, counts):  # pragma: no cover - compiled
    """Passes of :func:`_compiled_epoch` until one makes no update or ``counts`` is full.

    ``counts[e]`` receives the updates of pass ``e``; returns the number of passes made.
    """
    for e in range(counts.shape[0]):
        counts[e] = _compiled_epoch(X, Y, rows, w, b, eta, threshold)
        if counts[e] == 0:
            return e + 1
    return counts.shape[0]


@_jit
def _compiled_runs(X, Y, rows, starts, W, B, eta, counts, epochs):  # pragma: no cover
    """Run ``k`` perceptrons to convergence, one after another, in compiled code.

    Run ``r`` sees the examples ``rows[starts[r]:starts[r + 1]]`` of ``X[r]`` (or of ``X[0]``
    when ``X`` holds one shared dataset) with labels ``Y[r]``; it trains ``W[r], B[r]`` in place
    with :func:`_compiled_epoch`, the loop ``train`` runs, and
    records its updates per pass in ``counts[r]`` and its number of passes in ``epochs[r]``.
    Used by :func:`~gluon_perceptron.train_batched`; it lives here, next to the loop it calls,
    because numba's on-disk cache is invalidated per source file.
    """
    for r in range(W.shape[0]):
        Xr = X[min(r, X.shape[0] - 1)]
        mine = rows[starts[r]:starts[r + 1]]
        for e in range(counts.shape[1]):
            counts[r, e] = _compiled_epoch(Xr, Y[r], mine, W[r], B[r], eta, 0.0)
            epochs[r] = e + 1
            if counts[r, e] == 0:
                break


def _use_compiled() -> bool:
    """Whether the fast engine runs compiled (numba installed and :data:`FAST_BACKEND` says so)."""
    return numba is not None and FAST_BACKEND == "compiled"


def _fast_run(X: np.ndarray, Y: np.ndarray, w: np.ndarray, b: np.ndarray, max_epochs: int,
              learning_rate: float, threshold: float, backend: str | None = None) -> list[int]:
    """The fast engine: train ``w, b`` (changed in place) and return the updates per pass.

    ``X`` and ``Y`` share one float dtype, as do ``w`` and the 1-element ``b``. ``backend``
    picks ``"compiled"`` or ``"numpy"`` (default :data:`FAST_BACKEND`).
    """
    compiled = _use_compiled() if backend is None else backend == "compiled" and numba is not None
    if not compiled:
        return _numpy_run(X, Y, w, b, max_epochs, learning_rate, threshold)
    counts = np.zeros(max_epochs, dtype=np.int64)
    rows = np.arange(X.shape[0], dtype=np.int64)
    eta = X.dtype.type(learning_rate)
    done = _compiled_run(np.ascontiguousarray(X), Y, rows, w, b, eta, threshold, counts)
    return [int(c) for c in counts[:done]]


def fast_pass(X: np.ndarray, Y: np.ndarray, w: np.ndarray, b: np.ndarray,
              learning_rate: float = 1.0, threshold: float = 0.0) -> int:
    """One pass of the fast engine over ``X`` in order, updating ``w, b`` in place.

    Makes exactly the decisions and updates one pass of ``train(..., engine="fast")`` makes;
    ``X``, ``Y``, ``w`` and the 1-element ``b`` share one float dtype (trusted, not checked).
    Returns the number of updates.
    """
    return _fast_run(X, Y, w, b, 1, learning_rate, threshold)[0]
