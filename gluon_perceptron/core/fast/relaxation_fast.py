r"""The fast twin of :func:`~gluon_perceptron.core.theory.relaxation.relaxation_method`.

The readable loop visits one index per iteration. Between two moves :math:`w` does not change,
so for the blind rules (cyclic, randomized, permuted) the next index that moves is the first one
in the stream whose residual is above ``tol``: :func:`_run_stream` finds it with the
scan-ahead in numpy blocks and counts the iterations in between without looping over them.
:func:`_run_greedy` is the greedy rules' loop (the readable loop's own cost: it looks at every
inequality anyway). The residuals :math:`r = A^\top w - c` live in :class:`_Residuals`, updated
after each move exactly as the readable loop updates them, so the tests hold the twin to it
bit for bit (``tests/core/fast/test_beyond_fast.py``).
"""

from __future__ import annotations

import numpy as np

from ..rosenblatt.engine import _FIRST_BLOCK, _scan_ahead

GRAM_LIMIT = 4_000_000


"""Keep the Gram matrix :math:`A^\\top A` (8 bytes an entry) when it has at most this many
entries: 4 million, 32 MB, i.e. up to 2,000 inequalities."""


class _Residuals:
    """:math:`r = A^\\top w - c`, kept up to date after each move at :math:`O(np)` a move.

    A move :math:`w \\mathrel{-}= s\\, a_i` changes every residual by :math:`-s\\, a_j^\\top a_i`,
    so the rules read :math:`r` instead of recomputing :math:`A^\\top w`; it is recomputed
    exactly every ``n`` moves and before a run may stop, so rounding cannot accumulate. For
    up to :data:`GRAM_LIMIT` entries the Gram matrix :math:`A^\\top A` is kept, making a move
    :math:`O(n)`.
    """

    def __init__(self, At: np.ndarray, c: np.ndarray, w: np.ndarray):
        self.At, self.c, self.w = At, c, w
        self.norms2 = np.einsum("ij,ij->i", At, At)
        n = At.shape[0]
        self.gram = At @ At.T if n * n <= GRAM_LIMIT else None
        self.moves_since_exact = 0
        self.exact()

    def exact(self) -> None:
        self.r = self.At @ self.w - self.c
        self.moves_since_exact = 0

    def move(self, i: int, eta: float) -> None:
        s = eta * self.r[i] / self.norms2[i]
        self.w -= s * self.At[i]
        self.r -= s * (self.gram[i] if self.gram is not None else self.At @ self.At[i])
        self.moves_since_exact += 1
        if self.moves_since_exact >= self.r.shape[0]:
            self.exact()

    def feasible(self, tol: float) -> bool:
        """Feasible up to ``tol``, confirmed on an exact recomputation."""
        if np.max(self.r) > tol:
            return False
        self.exact()
        return bool(np.max(self.r) <= tol)


def _index_blocks(rule: str, n: int, norms2: np.ndarray, rng: np.random.Generator):
    """Yield blocks of indices in the order the rule visits them (n at a time)."""
    if rule == "randomized":
        p = norms2 / norms2.sum()
        while True:
            yield rng.choice(n, size=n, p=p)
    order = np.arange(n)
    while True:
        yield rng.permutation(n) if rule == "permuted" else order


def _run_stream(res: _Residuals, rule, eta, tol, max_iterations, rng, log) -> tuple[int, int]:
    """Cyclic, permuted, randomized: walk the index stream, skipping satisfied inequalities.

    Between moves ``w`` is fixed, so the next index that moves is the first one in the stream
    whose residual is positive; the iterations in between are counted without being looped.
    """
    n = res.r.shape[0]
    t = moves = 0
    size = _FIRST_BLOCK
    for block in _index_blocks(rule, n, res.norms2, rng):
        def hits(a: int, z: int, order: np.ndarray = block) -> np.ndarray:
            return res.r[order[a:z]] > tol  # which of the stream's a .. z - 1 would move

        pos = 0
        while pos < n:
            if res.feasible(tol) or t >= max_iterations:
                return t, moves
            k, size = _scan_ahead(hits, pos, n, size)
            if k == n:
                t = min(max_iterations, t + n - pos)
                break
            if t + (k - pos) + 1 > max_iterations:
                return max_iterations, moves
            t += k - pos + 1
            pos = k + 1
            res.move(int(block[k]), eta)
            moves += 1
            log(t)
    raise AssertionError("unreachable")  # pragma: no cover


def _run_greedy(res: _Residuals, rule, eta, tol, max_iterations, log) -> tuple[int, int]:
    """Maximal distance or maximal residual: every iteration moves on the worst inequality.

    While some residual is positive the largest of :math:`r_i / \\|a_i\\|` (or :math:`r_i`)
    is positive too, so the argmax of the plain residuals picks the same index as that of
    their positive parts.
    """
    inv_norm = 1.0 / np.sqrt(res.norms2) if rule == "max_distance" else None
    t = 0
    while t < max_iterations:
        if res.r.max() <= tol and res.feasible(tol):
            break
        i = int(np.argmax(res.r * inv_norm if inv_norm is not None else res.r))
        res.move(i, eta)
        t += 1
        log(t)
    return t, t


def _relaxation(A: np.ndarray, c: np.ndarray, eta: float, rule: str, w0, max_iterations: int,
                tol: float, seed, record: bool) -> tuple[np.ndarray, int, int, dict]:
    """``relaxation_method``'s run, for every rule: ``(w, iterations, moves, history)``."""
    res = _Residuals(np.ascontiguousarray(A.T), c,
                     np.zeros(A.shape[0]) if w0 is None else w0.copy())
    history: dict = {"iteration": [], "violation": [], "w": []} if record else {}

    def log(t: int) -> None:
        if record:
            history["iteration"].append(t)
            history["violation"].append(float(max(0.0, np.max(res.r))))
            history["w"].append(res.w.copy())

    log(0)
    if rule in ("max_distance", "max_residual"):
        t, moves = _run_greedy(res, rule, eta, tol, max_iterations, log)
    else:
        rng = np.random.default_rng(seed)
        t, moves = _run_stream(res, rule, eta, tol, max_iterations, rng, log)
    return res.w, t, moves, history
