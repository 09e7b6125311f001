r"""The fast twin of :func:`~gluon_perceptron.core.theory.relaxation.relaxation_method`.

The readable loop visits one index per iteration. Between two moves :math:`w` does not change,
so for the blind rules (cyclic, randomized, permuted) the next index that moves is the first one
in the stream whose residual is above ``tol``: :func:`_run_stream` finds it with the
scan-ahead in numpy blocks and counts the iterations in between without looping over them.
:func:`_run_greedy` is the greedy rules' loop (the readable loop's own cost: it looks at every
inequality anyway). The residuals :math:`r = A^\top w - c` live in :class:`_Residuals`,
updated after each move exactly as the readable loop updates them, so the tests hold the twin
to it bit for bit (``tests/core/fast/test_beyond_fast.py``).

With numba (and the Gram matrix, and no ``record``) every rule runs compiled instead,
:func:`_compiled_moves`: the readable loop's iterations one by one, in machine code, back in
numpy for each exact recomputation of the residuals. Runs on one system inside
:func:`_shared_gram` share its Gram matrix.
"""

from __future__ import annotations

from contextlib import contextmanager

import numpy as np

from ..rosenblatt.engine import _FIRST_BLOCK, _jit, _scan_ahead, _use_compiled

GRAM_LIMIT = 4_000_000


"""Keep the Gram matrix :math:`A^\\top A` (8 bytes an entry) when it has at most this many
entries: 4 million, 32 MB, i.e. up to 2,000 inequalities."""


#: ``(At, gram)`` of the systems whose runs share one Gram matrix (:func:`_shared_gram`).
_SHARED: list = []


@contextmanager
def _shared_gram(A: np.ndarray):
    """Within the block, every run on the system ``A`` (equal entries) uses one Gram matrix
    :math:`A^\top A`, computed here once (the table of :func:`compare_rules` makes 20 runs on
    one system; a Gram matrix of the digits costs as much as a run)."""
    At = np.ascontiguousarray(np.asarray(A, dtype=np.float64).T)
    _SHARED.append((At, At @ At.T if At.shape[0] ** 2 <= GRAM_LIMIT else None))
    try:
        yield
    finally:
        _SHARED.pop()


def _gram(At: np.ndarray) -> np.ndarray:
    """:math:`A^\top A` (``At @ At.T``, the same bits), shared within :func:`_shared_gram`."""
    for known, gram in reversed(_SHARED):
        if gram is not None and known.shape == At.shape and np.array_equal(known, At):
            return gram
    return At @ At.T


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
        self.gram = _gram(At) if n * n <= GRAM_LIMIT else None
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


# The compiled run. Between two exact recomputations of r = A^T w - c the loop below makes the
# readable loop's iterations one by one, with the same operations in the same order (no fused
# multiply-add: numba compiles without fastmath); it returns to Python for every exact
# recomputation (numpy's A^T w, the readable loop's own bits) and, for the blind rules, for each
# new block of indices (drawn by the same generator calls). state = [t, moves, fresh, pos].

#: Why :func:`_compiled_moves` returned.
_DONE, _LOOK, _EXACT, _BLOCK = 0, 1, 2, 3


@_jit
def _compiled_moves(At, gram, norms2, scale, w, r, block, eta, tol, max_iterations,
                    state):  # pragma: no cover - runs compiled
    r"""Iterations of the relaxation method until one needs Python.

    ``block`` holds the blind rule's indices (``state[3]`` is the next position in it); an empty
    ``block`` means a greedy rule, which picks :math:`\arg\max_i r_i\, \text{scale}_i`
    (``scale`` is :math:`1 / \|a_i\|` for maximal distance, ones for maximal residual) and
    always moves. Returns :data:`_LOOK` when every residual is at most ``tol`` (confirm on exact
    residuals), :data:`_EXACT` after ``n`` moves since the last exact residuals, :data:`_BLOCK`
    when the block is used up, :data:`_DONE` at ``max_iterations``.
    """
    n, p = At.shape
    greedy = block.shape[0] == 0
    t, moves, fresh, pos = state[0], state[1], state[2], state[3]
    look = True  # r changed (or is new) since the last look at its maximum
    why = _DONE
    while t < max_iterations:
        if look:
            feasible = True  # r.max() <= tol, a NaN included as numpy's max does
            for j in range(n):
                if not r[j] <= tol:
                    feasible = False
                    break
            if feasible:
                why = _LOOK
                break
            look = False
        if greedy:  # np.argmax(r * scale): the first largest, or the first NaN
            i = 0
            best = r[0] * scale[0]
            if best == best:
                for j in range(1, n):
                    v = r[j] * scale[j]
                    if v != v:
                        i = j
                        break
                    if v > best:
                        best, i = v, j
        else:
            if pos == block.shape[0]:
                why = _BLOCK
                break
            i = block[pos]
            pos += 1
        t += 1
        if greedy or r[i] > tol:
            s = eta * r[i] / norms2[i]
            for k in range(p):
                w[k] -= s * At[i, k]
            for j in range(n):
                r[j] -= s * gram[i, j]
            moves += 1
            fresh += 1
            look = True
            if fresh >= n:
                why = _EXACT
                break
    state[0], state[1], state[2], state[3] = t, moves, fresh, pos
    return why


def _compiled_run(At: np.ndarray, c: np.ndarray, w: np.ndarray, gram: np.ndarray,
                  norms2: np.ndarray, eta: float, rule: str, max_iterations: int, tol: float,
                  seed) -> tuple[int, int]:
    """The readable loop's run without ``record``, compiled (``w`` changes in place):
    ``(iterations, moves)``."""
    n = At.shape[0]
    r = At @ w - c
    state = np.zeros(4, dtype=np.int64)
    if rule in ("max_distance", "max_residual"):
        scale = 1.0 / np.sqrt(norms2) if rule == "max_distance" else np.ones(n)
        blocks = None
        block = np.empty(0, dtype=np.int64)
    else:
        scale = norms2
        blocks = _index_blocks(rule, n, norms2, np.random.default_rng(seed))
        block = np.asarray(next(blocks), dtype=np.int64)
    while True:
        why = _compiled_moves(At, gram, norms2, scale, w, r, block, float(eta), float(tol),
                              max_iterations, state)
        if why == _DONE:
            break
        if why == _BLOCK:
            assert blocks is not None  # only a rule of the stream asks for its next block
            block, state[3] = np.asarray(next(blocks), dtype=np.int64), 0
            continue
        r, state[2] = At @ w - c, 0  # exact residuals, as the readable loop recomputes them
        if why == _LOOK and r.max() <= tol:
            break
    return int(state[0]), int(state[1])


def _relaxation(A: np.ndarray, c: np.ndarray, eta: float, rule: str, w0, max_iterations: int,
                tol: float, seed, record: bool) -> tuple[np.ndarray, int, int, dict]:
    """``relaxation_method``'s run, for every rule: ``(w, iterations, moves, history)``."""
    At = np.ascontiguousarray(A.T)
    n = At.shape[0]
    if not record and n * n <= GRAM_LIMIT and _use_compiled():
        w = np.zeros(A.shape[0]) if w0 is None else w0.copy()
        norms2 = np.einsum("ij,ij->i", At, At)
        t, moves = _compiled_run(At, c, w, _gram(At), norms2, eta, rule, max_iterations, tol,
                                 seed)
        return w, t, moves, {}
    res = _Residuals(At, c, np.zeros(A.shape[0]) if w0 is None else w0.copy())
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
