r"""The fast twins of the trainers beyond Rosenblatt's (:mod:`gluon_perceptron.core.beyond`).

- :func:`_gram_passes` and :func:`_fast_epoch`: the kernel perceptron
  (:func:`~gluon_perceptron.core.beyond.kernel_perceptron.train_kernel`, ``engine="fast"``)
  over the precomputed Gram matrix, every example's score kept up to date, the next mistake
  found by the scan-ahead in numpy blocks instead of a Python loop over the correct examples.
- :func:`_cone_passes`: the homogeneous perceptron on unit rows
  (:func:`~gluon_perceptron.core.beyond.solvers.cone_perceptron`), scanned ahead the same
  way, or with numba its loop compiled (:func:`_compiled_cone_passes`).

Each makes the decisions and the floating-point operations of its readable loop, so the tests
hold it to that loop bit for bit (``tests/core/fast/test_beyond_fast.py``). Nothing here checks
its arguments or imports a trainer.
"""

from __future__ import annotations

import numpy as np

from .._arrays import _overflow
from ..rosenblatt.engine import _FIRST_BLOCK, _jit, _scan_ahead, _use_compiled


def _fast_epoch(G: np.ndarray, Y: np.ndarray, scores: np.ndarray, alpha: np.ndarray,
                eta: float) -> int:
    """One pass over the Gram matrix, keeping every example's score up to date.

    ``scores[j]`` is :math:`f(x_j)` under the current :math:`\\alpha`; an update on example
    :math:`k` adds :math:`\\eta y_k G_{kj}` to every score (O(n) per mistake, nothing per correct
    example). Between two updates the scores do not change, so the next mistake is the first
    :math:`j` at or after the current position with :math:`y_j f(x_j) \\le 0`, found by the
    scan-ahead (:func:`~gluon_perceptron.core.rosenblatt.engine._scan_ahead`).
    """
    n = G.shape[0]
    i = updates = 0
    block = _FIRST_BLOCK

    def mistakes(a: int, z: int) -> np.ndarray:  # reads scores as the updates leave them
        return Y[a:z] * scores[a:z] <= 0.0

    while True:
        k, block = _scan_ahead(mistakes, i, n, block)
        if k == n:
            return updates
        alpha[k] += 1
        scores += (eta * Y[k]) * G[k]
        updates += 1
        i = k + 1


def _gram_passes(X: np.ndarray, Y: np.ndarray, kern, extra: float, alpha: np.ndarray,
                 eta: float, max_epochs: int) -> list[int]:
    """``train_kernel(engine="fast")``: passes of :func:`_fast_epoch` over the Gram matrix
    :math:`G_{ij} = K(x_i, x_j) + \\text{extra}` (refused before it is built when it does not
    fit), until one makes no update or ``max_epochs`` are done; ``alpha`` changes in place.
    Returns the updates of each pass; raises the trainers' overflow error when a score left
    the floats."""
    with np.errstate(over="ignore", invalid="ignore"):  # refused below
        G = kern.matrix(X, X)
        G += extra
        scores = np.zeros(X.shape[0])
        per_epoch: list[int] = []
        for epoch in range(1, max_epochs + 1):
            per_epoch.append(_fast_epoch(G, Y, scores, alpha, eta))
            if not np.isfinite(scores).all():
                raise _overflow(f"the margins y (w.x + b) in pass {epoch}", np.float64)
            if per_epoch[-1] == 0:
                break
    return per_epoch


def _cone_passes(A: np.ndarray, max_updates: int,
                 counts: np.ndarray | None = None) -> tuple[np.ndarray, int, bool]:
    """The readable :func:`~gluon_perceptron.core.beyond.solvers.cone_perceptron`, scanned
    ahead: cyclic passes of :math:`w \\leftarrow w + a_j` on every row with
    :math:`a_j^\\top w \\le 0`, from :math:`w = 0`, until a pass makes no update or at least
    ``max_updates`` updates are made. Between two updates ``w`` is fixed, so the next row to
    update on is the first of a block of margins computed at once. Returns
    ``(w, updates, solved)``; ``counts[j]`` (if given) counts the updates on row ``j``.
    With numba the loop itself runs compiled (:func:`_compiled_cone_passes`)."""
    n = A.shape[0]
    if _use_compiled():
        w, updates, solved = _compiled_cone_passes(
            np.ascontiguousarray(A), max_updates,
            np.zeros(n) if counts is None else counts)
        return w, updates, bool(solved or np.all(A @ w > 0))
    w = np.zeros(A.shape[1])
    updates = 0

    def mistakes(a: int, z: int) -> np.ndarray:  # reads w as the updates leave it
        return ~(A[a:z] @ w > 0.0)

    while updates < max_updates:
        made = i = 0
        block = _FIRST_BLOCK
        while True:
            k, block = _scan_ahead(mistakes, i, n, block)
            if k == n:
                break
            w += A[k]
            made += 1
            if counts is not None:
                counts[k] += 1
            i = k + 1
        updates += made
        if made == 0:
            return w, updates, True
    return w, updates, bool(np.all(A @ w > 0))


@_jit
def _compiled_cone_passes(A, max_updates, counts):  # pragma: no cover - runs compiled
    """The readable loop of :func:`_cone_passes`, compiled: the margin :math:`a_j^\\top w`
    summed left to right in float64 (a tie or a NaN is a mistake), :math:`w \\mathrel{+}= a_j`
    on a mistake, ``counts[j] += 1``. Returns ``(w, updates, solved)`` with ``solved`` True
    after a pass without an update (else the caller checks :math:`A w > 0`)."""
    n, m = A.shape
    w = np.zeros(m)
    updates = 0
    while updates < max_updates:
        made = 0
        for k in range(n):
            margin = 0.0
            for j in range(m):
                margin += A[k, j] * w[j]
            if not margin > 0.0:
                for j in range(m):
                    w[j] += A[k, j]
                made += 1
                counts[k] += 1
        updates += made
        if made == 0:
            return w, updates, True
    return w, updates, False
