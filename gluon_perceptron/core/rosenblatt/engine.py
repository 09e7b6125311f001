r"""The perceptron's epoch kernel, in four twins, and the one driver that repeats it.

One pass over the data, in a given order, from the current :math:`(w, b)`: on every example
with :math:`y_i (w^\top x_i + b) \le \delta` the rule steps

.. math:: w \leftarrow w + \eta\, y_i x_i, \qquad b \leftarrow b + \eta\, y_i

(Rosenblatt 1958; the chapter's ``perceptron``). Every trainer of the package that makes such
passes runs one of these twins of the same loop:

- :func:`_numpy_epoch`, **the** epoch kernel: scans ahead in numpy blocks with the current
  weights to the next example at or below the threshold. Its hooks serve the variants: a visiting
  ``order``, ``bias=False`` (the homogeneous perceptron), ``guard=False`` (a step on every
  example) and ``on_update(t)``, called after each update (it may read or change ``w, b``: the
  scan resumes with what it leaves).
- :func:`_compiled_epoch`: the plain pass (no hooks) compiled by numba, summing left to right.
- :func:`~.faithful._faithful_epoch`: the chapter's NDArray step
  (:func:`~gluon_perceptron.core.chapter.step.perceptron`), one example at a time.
- :func:`~.faithful._lockstep_epoch`: ``k`` independent runs stepping through the examples
  together, one NDArray computation per example.

The scan-ahead itself, :func:`_scan_ahead`, is written once here: the kernel perceptron's fast
pass (:mod:`~gluon_perceptron.core.beyond.kernel_perceptron`) and the relaxation method's
stream (:mod:`~gluon_perceptron.core.theory.relaxation`) use it too.

:func:`_drive` repeats passes until one makes no update or ``max_epochs`` are done, and raises
when the weights or the margins overflow (checked once per pass). Nothing here validates its
arguments: the public trainers declare their rules, checked once at the edge.
"""

from __future__ import annotations

import math
import os
import warnings
from collections.abc import Callable, Sequence

import numpy as np

from .._arrays import SCALE_OR_RATE, _finite, _overflow

#: ``GLUON_PERCEPTRON_FAST=numpy`` keeps numba out entirely (not imported, nothing compiled).
_WANT_NUMPY = os.environ.get("GLUON_PERCEPTRON_FAST", "") == "numpy"


numba = None


if not _WANT_NUMPY:
    try:  # optional: a compiled loop for the fast engine
        import numba
    except ImportError:  # pragma: no cover - exercised only where numba is not installed
        numba = None


#: How ``engine="fast"`` runs: ``"compiled"`` (numba, when installed) or ``"numpy"`` (block
#: scan). Set the environment variable ``GLUON_PERCEPTRON_FAST=numpy`` to force the numpy path.
FAST_BACKEND = "compiled" if numba is not None else "numpy"


_CHUNK = 1024  # passes per call of the compiled driver: records grow with the passes made


def _drive(passes: Callable[[int], Sequence[int]], max_epochs: int, state: Sequence,
           dtype=np.float64, fix: str = SCALE_OR_RATE) -> list[int]:
    """Repeat passes until one makes no update or ``max_epochs`` passes are done.

    ``passes(budget)`` makes at least one and at most ``budget`` passes, stops after a pass
    without an update, and returns the updates of each pass it made (``-1`` for a pass whose
    margins overflowed). After each call the arrays in ``state`` (the weights) must be finite.
    The record grows with the passes actually made, never with ``max_epochs``. ``fix`` ends
    the overflow's message: what the caller's user can change.
    """
    per_epoch: list[int] = []
    while len(per_epoch) < max_epochs:
        with np.errstate(over="ignore", invalid="ignore"):  # overflow is reported just below
            made = passes(max_epochs - len(per_epoch))
        per_epoch.extend(int(m) for m in made)
        if per_epoch[-1] < 0:
            raise _overflow(f"the margins y (w.x + b) in pass {len(per_epoch)}", dtype, fix)
        if not all(_finite(a) for a in state):
            raise _overflow(f"the weights (w, b) in pass {len(per_epoch)}", dtype, fix)
        if per_epoch[-1] == 0:
            break
    return per_epoch


_FIRST_BLOCK = 64  # examples in the first block a scan-ahead looks at


def _scan_ahead(hits: Callable[[int, int], np.ndarray], start: int, stop: int,
                block: int = _FIRST_BLOCK) -> tuple[int, int]:
    """The scan-ahead trick: the first position ``k`` in ``start .. stop - 1`` that is a hit.

    Between two updates the state (weights, scores, residuals) does not change, so whether each
    of the next examples calls for an update can be decided for a whole block at once:
    ``hits(i, j)`` returns one bool per position ``i .. j - 1``, computed with the current
    state. Blocks double (up to 8192) while nothing is found and restart at twice the distance
    to the last hit (at least 16), so the work tracks the update rate.

    Returns ``(k, block)``: ``k = stop`` when no position is a hit, and the block size for the
    next scan (pass it back in).
    """
    i = start
    while i < stop:
        j = min(stop, i + block)
        found = hits(i, j)
        first = int(found.argmax())  # 0 also when there is no hit
        if found[first]:
            return i + first, max(16, first * 2)
        i = j
        block = min(block * 2, 8192)
    return stop, block


def _unguarded_epoch(X: np.ndarray, Y: np.ndarray, w: np.ndarray, b: np.ndarray,
                     learning_rate: float, bias: bool,
                     on_update: Callable[[int], None] | None) -> int:
    """A step on every example, right or wrong (the aggressive rule); returns ``n``."""
    for t in range(X.shape[0]):
        step = learning_rate * Y[t]
        w += step * X[t]
        if bias:
            b += step
        if on_update is not None:
            on_update(t)
    return X.shape[0]


def _numpy_epoch(X: np.ndarray, Y: np.ndarray, w: np.ndarray, b: np.ndarray,
                 learning_rate: float, threshold: float, *, order: np.ndarray | None = None,
                 bias: bool = True, guard: bool = True,
                 on_update: Callable[[int], None] | None = None) -> int:
    """One pass over ``X[order]`` (default: data order), updating ``w`` and ``b`` in place.

    Between two updates the weights do not change, so the margins of the next block of
    examples can be computed at once with the current ``(w, b)``; the first one at or below the
    threshold is exactly the next example the one-by-one loop would update on. Blocks grow
    while no mistake is found and shrink after one, so the work tracks the update rate.

    ``b`` is a 1-element array. ``bias=False`` leaves ``b`` alone (the homogeneous perceptron,
    ``b = 0``); ``guard=False`` steps on every example without looking at its margin (the
    aggressive rule); ``on_update(t)`` runs after each update, on the ``t``-th example visited.
    Returns the number of updates, or -1 as soon as a margin that decides a step is not finite.
    """
    if order is not None:
        X, Y = X[order], Y[order]
    if not guard:
        return _unguarded_epoch(X, Y, w, b, learning_rate, bias, on_update)
    n = X.shape[0]
    block_margins: list = [None, 0]  # the margins of the last block scanned, and its start

    def hits(i: int, j: int) -> np.ndarray:
        margins = Y[i:j] * (X[i:j] @ w + b[0])
        block_margins[:] = margins, i
        # a margin that is not finite is a hit, refused below (inf would count as "correct")
        return ~(margins > threshold) | (margins == np.inf)

    i = updates = 0
    block = _FIRST_BLOCK
    while True:
        k, block = _scan_ahead(hits, i, n, block)
        if k == n:
            return updates
        if not math.isfinite(block_margins[0][k - block_margins[1]]):
            return -1
        step = learning_rate * Y[k]
        w += step * X[k]
        if bias:
            b += step
        updates += 1
        if on_update is not None:
            on_update(k)
        i = k + 1


_CACHE_WARNED = False


def _jit(fn):
    """Compile ``fn`` with numba, cached on disk when a cache can be written.

    Where it cannot (a read-only ``NUMBA_CACHE_DIR``, no writable home: numba says "no locator
    available"), compile without a cache and warn once.
    """
    global _CACHE_WARNED
    if numba is None:
        return fn
    try:
        return numba.njit(cache=True, nogil=True)(fn)
    except Exception as exc:  # numba raises RuntimeError; any failure to set up a cache will do
        if not _CACHE_WARNED:
            _CACHE_WARNED = True
            warnings.warn(f"gluon_perceptron: numba cannot cache compiled code here ({exc}); "
                          f"compiling without a cache (each new process compiles again). Set "
                          f"NUMBA_CACHE_DIR to a writable folder, or GLUON_PERCEPTRON_FAST=numpy "
                          f"to skip numba", RuntimeWarning, stacklevel=2)
        return numba.njit(cache=False, nogil=True)(fn)


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


def _use_compiled(backend: str | None = None) -> bool:
    """Whether plain passes run compiled: numba is there and ``backend`` (default
    :data:`FAST_BACKEND`) says ``"compiled"``."""
    return numba is not None and (FAST_BACKEND if backend is None else backend) == "compiled"


def _plain_passes(X: np.ndarray, Y: np.ndarray, w: np.ndarray, b: np.ndarray,
                  learning_rate: float, threshold: float, rows: np.ndarray | None = None,
                  backend: str | None = None) -> Callable[[int], list[int]]:
    """``passes(budget)`` for :func:`_drive`: plain passes over ``X[rows]``, compiled or numpy.

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
