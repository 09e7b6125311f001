"""The relaxation method of Agmon and Motzkin-Schoenberg (1954) for linear inequalities.

The perceptron solves :math:`y_i (w^\\top x_i + b) > 0`; padding :math:`\\tilde x_i = (x_i, 1)`
and folding the label in turns that into the system (1.3) of the notes, :math:`A^\\top w > 0`.
The relaxation method solves any system

.. math:: A^\\top w \\le c, \\quad\\text{i.e.}\\quad a_i^\\top w \\le c_i,\\ i = 1, \\dots, n,

with :math:`A \\in \\mathbb{R}^{p \\times n}` (one inequality per *column* :math:`a_i`). At
each iteration it picks an index :math:`I_t` and moves towards (or past) the half-space of that
inequality:

.. math::

   w \\leftarrow w - \\eta\\, \\frac{(a_{I_t}^\\top w - c_{I_t})^+}{\\|a_{I_t}\\|^2}\\, a_{I_t},
   \\qquad \\eta \\in (0, 2].

With :math:`\\eta = 1` this is the orthogonal projection onto the half-space; with
:math:`\\eta = 2` it is the reflection through its boundary (Motzkin and Schoenberg); in
between, an under- or over-relaxed projection. The index rules (Remark 1.38 of the notes) are in
:data:`RULES`.

Feasibility is judged with a tolerance: the run stops when
:math:`\\max_i (a_i^\\top w - c_i) \\le \\text{tol}`, and that is re-checked from ``A``, ``c`` and
the returned ``w`` before ``converged=True`` is reported. Projections (:math:`\\eta < 2`) can
approach a narrow feasible corner only geometrically, never entering it; the tolerance and the
iteration bound make every run finite.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .. import _checks
from .._convert import as_features, as_labels, as_values
from .._validation import (
    Rule,
    count,
    one_of,
    optional,
    real,
    such_that,
    validate_params,
    vector,
)
from ..data.synthetic import pad_constant
from ..fast.relaxation_fast import (  # noqa: F401 (notebook 11 shows the twin's pieces)
    GRAM_LIMIT,
    _index_blocks,
    _relaxation,
    _Residuals,
    _run_greedy,
)
from ..rosenblatt.engine import _use_compiled

RULES = ("cyclic", "randomized", "permuted", "max_distance", "max_residual")


"""The index rules of Remark 1.38 of the notes.

``cyclic`` visits :math:`1, 2, \\dots, n, 1, 2, \\dots`; ``randomized`` draws indices
independently with :math:`p_i \\propto \\|a_i\\|^2`; ``permuted`` visits a fresh random order
every epoch; ``max_distance`` picks the farthest violated half-space,
:math:`\\max_i (a_i^\\top w - c_i)^+ / \\|a_i\\|`; ``max_residual`` the largest violation,
:math:`\\max_i (a_i^\\top w - c_i)^+`. Ties go to the smallest index.
"""


@dataclass
class RelaxationResult:
    """The outcome of :func:`relaxation_method`.

    Attributes
    ----------
    w : ndarray, shape (p,)
        The last iterate.
    iterations : int
        Indices selected (steps :math:`t`), including those whose inequality already held.
    moves : int
        Iterations that changed ``w`` (a violated inequality was selected).
    converged : bool
        True when the returned ``w`` satisfies every inequality up to ``tol``, checked
        directly as ``max(A.T @ w - c) <= tol``. False when the run hit ``max_iterations``.
    max_violation : float
        :math:`\\max_i (a_i^\\top w - c_i)^+` for the returned ``w``, computed from ``A`` and
        ``c``.
    rule : str
    eta : float
    history : dict
        With ``record=True``: ``"iteration"`` and ``"violation"`` (the max violation after each
        move, starting with the initial point at iteration 0) and ``"w"`` (the iterates).
    """

    w: np.ndarray
    iterations: int
    moves: int
    converged: bool
    max_violation: float
    rule: str
    eta: float
    history: dict = field(default_factory=dict)

    @property
    def b(self) -> float:
        """0: the system :math:`A^\\top w \\le c` has no bias of its own (in
        :func:`perceptron_system`'s, the perceptron's bias is the last entry of ``w``)."""
        return 0.0

    @property
    def updates_per_epoch(self) -> list[int]:
        """``[moves]``: the method counts iterations, not passes, so its one epoch is the run."""
        return [self.moves]

    @property
    def epochs(self) -> int:
        """1 (see :attr:`updates_per_epoch`)."""
        return 1


def _one_per(axis: int, what: str) -> Rule:
    """The rule of a vector with one entry per ``what`` (row or column) of ``A``, as float64:
    the bounds ``c`` (one per column, one per inequality) and a point ``w0`` (one per row)."""
    return such_that(vector(), lambda v, args: v.shape[0] == args["A"].shape[axis],
                     f"{{name}} must have one entry per {what} of A (A is p x n, one inequality "
                     f"per column): shape ({{args[A].shape[{axis}]}},), got ({{value.shape[0]}},)",
                     ("A",))


def _nonzero_columns(A, name: str, args: dict) -> np.ndarray:
    An = _checks.features(A, name).astype(np.float64)
    if (zero := np.flatnonzero(~np.any(An != 0, axis=0))).size:
        raise ValueError(f"column {zero[0]} of A is zero: the inequality 0 <= c[{zero[0]}] does "
                         f"not depend on w (drop it; it is infeasible when c[{zero[0]}] < 0)")
    return An


# The rules of a system A^T w <= c (A is p x n, one inequality per column, no zero column; c has
# one entry per column), of a point w0 (one entry per row) and of eta in (0, 2].
SOLVABLE = Rule(_nonzero_columns, "system matrix A (p, n), no zero column")
BOUNDS, POINT = _one_per(1, "column"), _one_per(0, "row")
ETA = real(positive=True, maximum=2.0, why="1 projects, 2 reflects; beyond 2 it can diverge")


def max_violation(A, c, w) -> float:
    """:math:`\\max_i (a_i^\\top w - c_i)^+`: zero exactly when :math:`A^\\top w \\le c`,
    or a ValueError when the residuals overflow float64. For the package (a run's result):
    ``A`` (p, n), ``c`` (n,) and ``w`` (p,) are taken as given."""
    A, c, w = as_features(A, np.float64), as_values(c), as_values(w)
    with np.errstate(all="ignore"):
        worst = float(np.max(A.T @ w - c))
    if not np.isfinite(worst):
        raise ValueError("max_violation overflowed: the residuals A^T w - c of A, c and w (w0) are "
                         "beyond float64; rescale A, c and w together (the system is the "
                         "same after dividing every column a_i and c_i by the same number)")
    return max(0.0, worst)


@validate_params(margin=real(positive=True))
def perceptron_system(X, Y, *, margin: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """The perceptron problem (1.3) as :math:`A^\\top \\tilde w \\le c`.

    With :math:`\\tilde x_i = (x_i, 1)` (:func:`data.pad_constant`) and
    :math:`\\tilde w = (w, b)`, take :math:`a_i = -y_i \\tilde x_i` and :math:`c_i = -m`:

    .. math:: a_i^\\top \\tilde w \\le c_i \\iff y_i (w^\\top x_i + b) \\ge m.

    The system is homogeneous up to scale, so any margin :math:`m > 0` gives the same
    directions; :math:`m > 0` turns the strict :math:`A^\\top w > 0` into a closed system.

    Returns
    -------
    A : ndarray, shape (d + 1, n)
        One inequality per column.
    c : ndarray, shape (n,)
    """
    X, Y, margin = as_features(X, np.float64), as_labels(Y), float(margin)
    A = -(pad_constant(X) * Y[:, None]).T
    return np.ascontiguousarray(A), np.full(X.shape[0], -margin)


@validate_params(A=SOLVABLE, c=BOUNDS, eta=ETA, rule=one_of(*RULES), w0=optional(POINT),
                 max_iterations=count(minimum=0), tol=real(minimum=0.0))
def relaxation_method(A, c, *, eta: float = 1.0, rule: str = "cyclic", w0=None,
                      max_iterations: int = 100_000, tol: float = 1e-9, seed: int = 0,
                      record: bool = False) -> RelaxationResult:
    """Solve :math:`A^\\top w \\le c` by the relaxation method (Algorithm 1.37 of the notes).

    Each iteration selects :math:`I_t` by ``rule`` and sets
    :math:`w \\leftarrow w - \\eta (a_{I_t}^\\top w - c_{I_t})^+ a_{I_t} / \\|a_{I_t}\\|^2`.

    Parameters
    ----------
    A : array-like, shape (p, n)
        One inequality per column :math:`a_i` (as in the notes); no column may be zero.
    c : array-like, shape (n,)
    eta : float
        Relaxation :math:`\\eta \\in (0, 2]`: 1 projects, 2 reflects.
    rule : {"cyclic", "randomized", "permuted", "max_distance", "max_residual"}
        How :math:`I_t` is chosen (:data:`RULES`).
    w0 : array-like, shape (p,), optional
        Starting point (default zeros).
    max_iterations : int
        Bound on :math:`t`; reaching it returns ``converged=False``.
    tol : float
        Stop when every :math:`a_i^\\top w - c_i \\le` ``tol``.
    seed : int or None
        Seed for the random rules (``numpy.random.default_rng``; None draws a fresh one).
    record : bool
        Keep the max violation and ``w`` after each move in ``history``.

    Returns
    -------
    RelaxationResult
        ``converged`` and ``max_violation`` are computed from ``A``, ``c`` and the returned
        ``w``, not from the running residuals.
    """
    A, c, w0 = as_features(A, np.float64), as_values(c), None if w0 is None else as_values(w0)
    eta, tol, max_iterations, record = float(eta), float(tol), int(max_iterations), bool(record)
    if rule in _TWIN_RULES:  # the same run, compiled or skipping satisfied indices (core/fast/)
        return _result(A, c, *_relaxation(A, c, eta, rule, w0, max_iterations, tol, seed,
                                          record), rule, eta, tol)
    At = np.ascontiguousarray(A.T)  # row i is a_i
    n, norms2 = At.shape[0], np.einsum("ij,ij->i", At, At)
    gram = At @ At.T if n * n <= GRAM_LIMIT else None  # a_i^T a_j, when it fits
    indices = _index_stream(rule, n, norms2, np.random.default_rng(seed))  # blind rules
    inv_norm = 1.0 / np.sqrt(norms2)  # 1 / |a_i|
    w = np.zeros(A.shape[0]) if w0 is None else w0.copy()
    r, fresh = At @ w - c, 0  # the residuals a_i^T w - c_i; moves since they were exact
    history = _log({"iteration": [], "violation": [], "w": []} if record else {}, 0, r, w)
    t = moves = 0
    while t < max_iterations:  # the iteration budget
        if r.max() <= tol:  # feasible up to tol? confirmed on exact residuals
            r, fresh = At @ w - c, 0
            if r.max() <= tol:
                break
        i = _next_index(rule, r, inv_norm, indices)  # I_t, by the rule
        t += 1
        if r[i] > tol or rule in _GREEDY:  # a violated inequality (greedy: always): move
            s = eta * r[i] / norms2[i]
            w -= s * At[i]  # towards (eta = 1: onto, 2: through) its half-space
            r -= s * (gram[i] if gram is not None else At @ At[i])  # r_j -= s a_j^T a_i
            moves, fresh = moves + 1, fresh + 1
            if fresh >= n:  # exact every n moves: rounding cannot pile up
                r, fresh = At @ w - c, 0
            _log(history, t, r, w)
    return _result(A, c, w, t, moves, history, rule, eta, tol)


#: The rules whose run the twin makes: with numba, every rule (a compiled loop); without it,
#: the blind rules (it skips the satisfied indices in bulk), since the greedy rules look at
#: every inequality in every iteration and the loop above is then their fast path.
_TWIN_RULES = RULES if _use_compiled() else ("cyclic", "randomized", "permuted")

#: The greedy rules: every iteration moves on the worst inequality (:func:`_next_index`).
_GREEDY = ("max_distance", "max_residual")


def _next_index(rule: str, r: np.ndarray, inv_norm: np.ndarray, indices) -> int:
    """:math:`I_t`: the farthest violated half-space (the largest :math:`r_i / \\|a_i\\|`), the
    largest residual :math:`r_i`, or the blind rule's next index. While some residual is
    positive the largest of them is too, so the argmax of :math:`r` is that of its positive
    part."""
    if rule == "max_distance":
        return int(np.argmax(r * inv_norm))
    if rule == "max_residual":
        return int(np.argmax(r))
    return next(indices)


def _index_stream(rule: str, n: int, norms2: np.ndarray, rng: np.random.Generator):
    """The blind rules' indices, one at a time (drawn :func:`_index_blocks`, n at a time)."""
    for block in _index_blocks(rule, n, norms2, rng):
        yield from (int(i) for i in block)


def _result(A, c, w, t: int, moves: int, history: dict, rule: str, eta: float,
            tol: float) -> RelaxationResult:
    """The run's result, ``converged`` and ``max_violation`` from ``A``, ``c`` and ``w``."""
    violation = max_violation(A, c, w)
    return RelaxationResult(w=w.copy(), iterations=t, moves=moves, converged=violation <= tol,
                            max_violation=violation, rule=rule, eta=eta, history=history)


def _log(history: dict, t: int, r: np.ndarray, w: np.ndarray) -> dict:
    """With ``record``: the iteration, the max violation and ``w`` after a move."""
    if history:
        history["iteration"].append(t)
        history["violation"].append(float(max(0.0, np.max(r))))
        history["w"].append(w.copy())
    return history


def wedge_system(slope: float = 0.1) -> tuple[np.ndarray, np.ndarray]:
    """Two inequalities whose solutions form a thin wedge with its apex at (1, 0):

    .. math:: w_2 \\le s (w_1 - 1), \\qquad -w_2 \\le s (w_1 - 1).

    A small slope :math:`s` makes projections (:math:`\\eta = 1`) zig-zag towards the apex
    forever, while reflections (:math:`\\eta = 2`) jump in.
    """
    s = slope
    return np.array([[-s, -s], [1.0, -1.0]]), np.array([-s, -s])
