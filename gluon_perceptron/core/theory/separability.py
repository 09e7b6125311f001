r"""Is the data separable, and what is the best linear rule, by sparse linear programs.

Write the data as signed rows :math:`a_i = y_i (x_i, 1)` (with bias) or :math:`a_i = y_i x_i`
(homogeneous). The data is separable when some :math:`\theta` has :math:`a_i^\top \theta > 0`
for every row; the hinge-loss minimum :math:`\min_\theta \sum_i \max(0, s - a_i^\top \theta)`
is the best linear rule when it is not.

Solvers. The linear programs go to HiGHS through ``scipy.optimize.linprog`` with sparse
constraint matrices, so memory grows with :math:`n d`, never :math:`n^2`; their columns (and,
for the feasibility question, rows) are scaled to unit size first, so the answers do not depend
on the unit of the data.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import sparse
from scipy.optimize import linprog

from .._arrays import _split
from .._convert import as_features, as_labels
from .._validation import real, validate_params


def _signed_rows(Xn: np.ndarray, Yn: np.ndarray, bias: bool) -> np.ndarray:
    Xn = Xn.astype(np.float64)
    if bias:
        Xn = np.hstack([Xn, np.ones((Xn.shape[0], 1))])
    return Yn.astype(np.float64)[:, None] * Xn


@validate_params()
def signed_rows(X, Y, *, bias: bool = True) -> np.ndarray:
    r"""The rows :math:`a_i = y_i (x_i, 1)` (``bias=True``) or :math:`a_i = y_i x_i`, float64.

    With them a separator :math:`\theta = (w, b)` classifies example ``i`` correctly exactly
    when :math:`a_i^\top \theta > 0` (Remark 1.17's linear-inequality view).
    """
    X = as_features(X)
    Y = as_labels(Y, like=X)
    return _signed_rows(X, Y, bias)


def _column_scaled(A: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``A`` with every column divided by its largest magnitude, and those magnitudes."""
    scale = np.max(np.abs(A), axis=0)
    scale[scale == 0.0] = 1.0
    return A / scale, scale


def _lp_error(who: str, message: str, A: np.ndarray) -> RuntimeError:
    spread = np.abs(A[A != 0])
    span = (f"; |entries| of the data range from {spread.min():.3g} to {spread.max():.3g}"
            if spread.size else "")
    return RuntimeError(
        f"{who}: HiGHS could not solve the linear program ({message}). This usually means "
        f"the features span too many orders of magnitude for double precision{span}: "
        f"standardise X (e.g. divide each column by its largest magnitude) or drop "
        f"duplicate and near-duplicate examples, then call {who} again.")


def _highs(who: str, A_ub, b_ub, cost: np.ndarray, bounds, dense: np.ndarray):
    solved = linprog(cost, A_ub=A_ub, b_ub=b_ub, bounds=bounds, method="highs")
    if solved.status not in (0, 2):
        raise _lp_error(who, solved.message, dense)
    return solved


def _first_rows(n: int, p: int) -> np.ndarray:
    """The working set a row-generation LP starts from: every row of a small problem, else
    evenly spaced rows, enough for the active set of a vertex (``p`` rows) many times over."""
    size = min(n, max(2000, 40 * p))
    return np.unique(np.linspace(0, n - 1, size).astype(np.int64))


def _add_rows(working: np.ndarray, slack: np.ndarray, limit: float) -> np.ndarray | None:
    """The working set grown by the rows with ``slack < limit`` (the worst first, at most as
    many as it holds), or None if there are none."""
    outside = np.ones(slack.size, dtype=bool)
    outside[working] = False
    bad = np.flatnonzero(outside & (slack < limit))
    if bad.size == 0:
        return None
    batch = max(working.size, 1000)
    if bad.size > batch:
        bad = bad[np.argpartition(slack[bad], batch)[:batch]]
    return np.union1d(working, bad)


def _separating_point(A: np.ndarray, who: str) -> np.ndarray | None:
    r"""A :math:`\theta` with :math:`A \theta > 0` row by row, or None if there is none.

    The LP :math:`\max t` s.t. :math:`B \phi \ge t`, :math:`|\phi_j| \le 1` on
    :math:`B = D_r A D_c` (rows and columns of ``A`` scaled to largest magnitude 1: positive
    scalings change no sign, so the answer does not depend on the unit of the data), by row
    generation: solved on a working set of rows, which grows by the rows its solution leaves
    below :math:`t` until its :math:`\phi` separates every row (then :math:`\theta =
    D_c \phi`, checked) or its :math:`t \le 0` (then no subset, so no superset, of the rows
    is separable). Sparse constraints; memory grows with :math:`n d`.
    """
    B, col = _column_scaled(A)
    row = np.max(np.abs(B), axis=1)
    if np.any(row == 0.0):  # a zero row has a_i . theta = 0 for every theta
        return None
    B /= row[:, None]
    n, p = B.shape
    cost = np.append(np.zeros(p), -1.0)
    bounds = [(-1.0, 1.0)] * p + [(None, None)]
    working = _first_rows(n, p)
    while True:
        rows = sparse.hstack([-sparse.csr_matrix(B[working]),
                              sparse.csr_matrix(np.ones((working.size, 1)))], format="csr")
        solved = _highs(who, rows, np.zeros(working.size), cost, bounds, A)
        if solved.status != 0:  # pragma: no cover - phi = 0, t = 0 is always feasible
            raise _lp_error(who, solved.message, A)
        phi, t = solved.x[:p], solved.x[p]
        if t <= 1e-12:
            return None
        slack = B @ phi
        if np.all(slack > 0.0):
            return phi / col
        grown = _add_rows(working, slack, t)
        if grown is None:  # pragma: no cover - every row below t is in the working set
            raise _lp_error(who, "row generation stalled", A)
        working = grown


@validate_params(threshold=real(positive=True))  # 0 would make theta = 0 optimal on any data
def hinge_separator(X, Y, *, threshold: float = 1.0) -> tuple[np.ndarray, float, float]:
    r"""The linear rule minimising the mean hinge loss, by linear programming.

    Solves :math:`\min_{\theta, s} \frac1n \sum_i s_i` subject to
    :math:`\langle \theta, a_i \rangle \ge \delta - s_i,\; s_i \ge 0`, i.e. minimises
    :math:`\frac1n \sum_i \max(0, \delta - y_i (w^\top x_i + b))` exactly (a piecewise
    linear objective; HiGHS, with a sparse constraint matrix and scaled columns), with
    :math:`\delta` = ``threshold``. This is the loss a perceptron with margin
    :math:`\delta = 1` and a decaying step minimises, and a standard surrogate for the best
    linear separator (minimising the number of errors itself is NP-hard). The optimum is 0
    exactly when the data is separable.

    Returns
    -------
    w : ndarray, shape (d,)
    b : float
    loss : float
        The minimal mean hinge loss.

    Raises
    ------
    RuntimeError
        If HiGHS cannot solve the program (features spanning too many orders of magnitude).
    """
    X = as_features(X)
    Y, threshold = as_labels(Y, like=X), float(threshold)
    A = _signed_rows(X, Y, True)
    B, col = _column_scaled(A)
    n, p = B.shape
    if threshold == 0.0:  # theta = 0 meets every constraint with no slack
        return (*_split(np.zeros(p)), 0.0)
    # variables (phi, xi), theta = phi / col: -(B phi) - xi <= -1, xi >= 0, solved for
    # delta = 1 (the LP is positively homogeneous in (theta, xi, delta)), then scaled
    cost = np.concatenate([np.zeros(p), np.full(n, 1.0 / n)])
    constraints = -sparse.hstack([sparse.csr_matrix(B), sparse.identity(n, format="csr")],
                                 format="csr")
    bounds = np.vstack([np.tile([-np.inf, np.inf], (p, 1)), np.tile([0.0, np.inf], (n, 1))])
    solved = _highs("hinge_separator", constraints, -np.ones(n), cost, bounds, A)
    if solved.status != 0:  # pragma: no cover - always feasible (large slacks), bounded by 0
        raise _lp_error("hinge_separator", solved.message, A)
    with np.errstate(over="ignore"):
        theta = threshold * (solved.x[:p] / col)
        loss = threshold * max(float(solved.fun), 0.0)
    if not (np.all(np.isfinite(theta)) and math.isfinite(loss)):
        raise ValueError(f"hinge_separator: threshold={threshold:g} is too large for these "
                         f"data: the separator overflows double precision; lower threshold or "
                         f"rescale X")
    w, b = _split(theta)
    return w, b, loss


@validate_params()
def is_separable(X, Y) -> bool:
    r"""Whether some :math:`(w, b)` has :math:`y_i (w^\top x_i + b) > 0` for every example.

    Strict separability is the feasibility of :math:`\langle \theta, a_i \rangle \ge 1` for
    all :math:`i` (scale any strict separator up), decided by one linear program (HiGHS,
    sparse constraints, rows and columns scaled to unit size, so the answer is the same for
    ``X`` and ``X * 1e-10``). Memory grows with :math:`n d`.
    """
    X = as_features(X)
    Y = as_labels(Y, like=X)
    return _separating_point(_signed_rows(X, Y, True), "is_separable") is not None


def risk_minimum(X, Y, *, threshold: float = 1.0) -> tuple[np.ndarray, float, float]:
    r"""The exact minimum of the average loss :math:`R(\theta) = \frac1n\sum_i \max(0,
    \delta - y_i (w^\top x_i + b))`: the :math:`R(\theta^*)` the SGD bound is measured from.

    This is :func:`hinge_separator` under the name the SGD bound uses (slacks
    :math:`\xi_i \ge \delta - y_i (w^\top x_i + b)`, :math:`\xi_i \ge 0`, minimize their
    mean; exact because the objective is piecewise linear), solved by HiGHS.

    Returns
    -------
    w : ndarray, shape (d,)
    b : float
        A minimizer (a vertex of the LP; minimizers need not be unique).
    value : float
        :math:`R(\theta^*)`.
    """
    return hinge_separator(X, Y, threshold=threshold)
