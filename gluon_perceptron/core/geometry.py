r"""Separability, the best linear rule and the optimal margin, by linear and quadratic programming.

Write the data as signed rows :math:`a_i = y_i (x_i, 1)` (with bias) or :math:`a_i = y_i x_i`
(homogeneous). Any :math:`\theta` with :math:`a_i^\top \theta \ge s > 0` gives the bound
:math:`t \le \max_i \|a_i\|^2 \|\theta\|^2 / s^2`; the separator only exists in the proof,
so it may be chosen to make the bound smallest (Remark 1.30 of the lecture notes):

.. math:: \gamma_2 = \max_{\|\theta\| \le 1} \min_i a_i^\top \theta, \qquad
          T(A) = \frac{\max_i \|a_i\|^2}{\gamma_2^2}.

Maximising the smallest margin over the unit ball is the hard-margin SVM problem
:math:`\min \{\|\theta\|^2 : a_i^\top \theta \ge 1\}`, whose solution
:math:`\theta^\star` gives :math:`\gamma_2 = 1 / \|\theta^\star\|` and the maximiser
:math:`\theta^\star / \|\theta^\star\|`. With a bias the whole vector :math:`(w, b)` is
penalised (``margin="perceptron"``), because that is the norm the perceptron's bound uses;
the usual SVM leaves :math:`b` free and maximises the geometric margin :math:`1/\|w\|`, the
distance from the plane to the nearest example (``margin="svm"``).

Solvers. The linear programs (separability, the hinge-loss minimum) go to HiGHS through
``scipy.optimize.linprog`` with sparse constraint matrices, so memory grows with
:math:`n d`, never :math:`n^2`; their columns (and, for the feasibility question, rows) are
scaled to unit size first, so the answers do not depend on the unit of the data. The
quadratic program is solved as a least-distance program (Lawson and Hanson, *Solving Least
Squares Problems*, 1974, ch. 23) by non-negative least squares (``scipy.optimize.nnls``, an
active-set method that ends at an exact vertex), its active set is polished by solving the
KKT equations exactly, and the answer is accepted only with a certificate: the KKT
conditions (every constraint met, non-negative multipliers, stationarity) hold within
``tol``, which proves optimality (the problem is convex).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import sparse
from scipy.optimize import linprog

from . import _checks

#: The two margins :func:`optimal_margin` can maximise (see its docstring).
MARGINS = ("perceptron", "svm")

# --- shared pieces ------------------------------------------------------------------------


def _split(theta: np.ndarray) -> tuple[np.ndarray, float]:
    return theta[:-1].copy(), float(theta[-1])


def _row_norms(A: np.ndarray) -> np.ndarray:
    r""":math:`\|a_i\|` of each row of ``A`` (a vector: its norm), without overflow: each row
    is divided by its largest entry before squaring."""
    A = np.atleast_2d(np.asarray(A, dtype=np.float64))
    top = np.max(np.abs(A), axis=1)
    scale = np.where(top > 0.0, top, 1.0)
    B = A / scale[:, None]
    return top * np.sqrt(np.einsum("ij,ij->i", B, B))


def _radius(A: np.ndarray) -> float:
    r""":math:`\max_i \|a_i\|` of the rows of ``A``, without overflow for huge entries."""
    return float(np.max(_row_norms(A)))


def _signed_rows(Xn: np.ndarray, Yn: np.ndarray, bias: bool) -> np.ndarray:
    Xn = Xn.astype(np.float64)
    if bias:
        Xn = np.hstack([Xn, np.ones((Xn.shape[0], 1))])
    return Yn.astype(np.float64)[:, None] * Xn


def signed_rows(X, Y, *, bias: bool = True) -> np.ndarray:
    r"""The rows :math:`a_i = y_i (x_i, 1)` (``bias=True``) or :math:`a_i = y_i x_i`, float64.

    With them a separator :math:`\theta = (w, b)` classifies example ``i`` correctly exactly
    when :math:`a_i^\top \theta > 0` (Remark 1.17's linear-inequality view).
    """
    Xn, Yn = _checks.dataset(X, Y)
    return _signed_rows(Xn, Yn, _checks.flag(bias, "bias"))


# --- linear programs (HiGHS, sparse constraints) ------------------------------------------


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
        working = _add_rows(working, slack, t)
        if working is None:  # pragma: no cover - every row below t is in the working set
            raise _lp_error(who, "row generation stalled", A)


def _hinge_lp(A: np.ndarray, threshold: float, who: str) -> tuple[np.ndarray, float]:
    r"""Minimise :math:`\frac1n \sum_i \max(0, \delta - a_i^\top \theta)` exactly (LP).

    Variables :math:`(\phi, \xi)` with :math:`\theta = \phi / c` (``c`` the column scales):
    :math:`-(B \phi) - \xi \le -\delta`, :math:`\xi \ge 0`; the constraint matrix
    :math:`-[B, I]` is sparse (``n d + n`` entries).
    """
    B, col = _column_scaled(A)
    n, p = B.shape
    if threshold == 0.0:  # theta = 0 meets every constraint with no slack
        return np.zeros(p), 0.0
    # the LP is positively homogeneous in (theta, xi, delta): solve it for delta = 1
    cost = np.concatenate([np.zeros(p), np.full(n, 1.0 / n)])
    constraints = -sparse.hstack([sparse.csr_matrix(B), sparse.identity(n, format="csr")],
                                 format="csr")
    bounds = np.vstack([np.tile([-np.inf, np.inf], (p, 1)), np.tile([0.0, np.inf], (n, 1))])
    solved = _highs(who, constraints, -np.ones(n), cost, bounds, A)
    if solved.status != 0:  # pragma: no cover - always feasible (large slacks), bounded by 0
        raise _lp_error(who, solved.message, A)
    with np.errstate(over="ignore"):
        theta = threshold * (solved.x[:p] / col)
        loss = threshold * max(float(solved.fun), 0.0)
    if not (np.all(np.isfinite(theta)) and math.isfinite(loss)):
        raise ValueError(f"{who}: threshold={threshold:g} is too large for these data: the "
                         f"separator overflows double precision; lower threshold or rescale X")
    return theta, loss


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
    Xn, Yn = _checks.dataset(X, Y)
    threshold = _checks.finite_float(threshold, "threshold", minimum=0.0)
    theta, loss = _hinge_lp(_signed_rows(Xn, Yn, True), threshold, "hinge_separator")
    w, b = _split(theta)
    return w, b, loss


def is_separable(X, Y) -> bool:
    r"""Whether some :math:`(w, b)` has :math:`y_i (w^\top x_i + b) > 0` for every example.

    Strict separability is the feasibility of :math:`\langle \theta, a_i \rangle \ge 1` for
    all :math:`i` (scale any strict separator up), decided by one linear program (HiGHS,
    sparse constraints, rows and columns scaled to unit size, so the answer is the same for
    ``X`` and ``X * 1e-10``). Memory grows with :math:`n d`.
    """
    Xn, Yn = _checks.dataset(X, Y)
    return _separating_point(_signed_rows(Xn, Yn, True), "is_separable") is not None


def risk_minimum(X, Y, *, threshold: float = 1.0) -> tuple[np.ndarray, float, float]:
    r"""The exact minimum of the average loss :math:`R(\theta) = \frac1n\sum_i \max(0,
    \delta - y_i (w^\top x_i + b))`: the :math:`R(\theta^*)` the SGD bound is measured from.

    The linear program of :func:`hinge_separator` (slacks
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
    Xn, Yn = _checks.dataset(X, Y)
    threshold = _checks.finite_float(threshold, "threshold", minimum=0.0)
    theta, loss = _hinge_lp(_signed_rows(Xn, Yn, True), threshold, "risk_minimum")
    w, b = _split(theta)
    return w, b, loss


# --- the optimal margin (a quadratic program, certified) ----------------------------------


@dataclass
class OptimalMargin:
    r"""The solution of :func:`optimal_margin`.

    Attributes
    ----------
    w : ndarray, shape (d,)
        Weights of the maximiser: :math:`\|(w, b)\| = 1` for ``margin="perceptron"``,
        :math:`\|w\| = 1` for ``margin="svm"``.
    b : float
        Its bias (0 when ``bias=False``).
    gamma : float
        The optimal margin :math:`\min_i y_i (w^\top x_i + b)` of that normalisation:
        :math:`\gamma_2` (``"perceptron"``) or the geometric margin :math:`1/\|w^\star\|`
        (``"svm"``).
    support : ndarray of int
        Examples whose margin is within ``1e-6`` (relative) of ``gamma``: the support vectors.
    radius : float
        :math:`\max_i \|a_i\|`, i.e. :math:`\sqrt{R^2 + 1}` with bias, :math:`R` without.
    bias : bool
    margin : str
        ``"perceptron"`` or ``"svm"``: which margin ``gamma`` is.
    kkt_residual : float
        The certificate: the largest violation of the KKT conditions at the answer (primal
        feasibility, signs of the multipliers, stationarity; relative), at most ``tol``.
    """

    w: np.ndarray
    b: float
    gamma: float
    support: np.ndarray
    radius: float
    bias: bool
    margin: str = "perceptron"
    kkt_residual: float = 0.0

    @property
    def theta(self) -> np.ndarray:
        """The separator as one vector: ``(w, b)`` with bias, ``w`` without."""
        return np.append(self.w, self.b) if self.bias else self.w.copy()

    @property
    def bound(self) -> float:
        r"""The mistake bound :math:`\max_i \|a_i\|^2 \|\theta\|^2 / \min_i (a_i^\top
        \theta)^2` of :attr:`theta`: :math:`\max_i \|a_i\|^2 / \gamma_2^2` (Remark 1.30) for
        ``margin="perceptron"``, the bias bound of the SVM's plane for ``"svm"``."""
        theta = self.theta
        return self.radius**2 * float(theta @ theta) / self.gamma**2


def _nnls(E: np.ndarray, f: np.ndarray, max_iter: int) -> np.ndarray:
    r"""Lawson and Hanson's active-set NNLS: :math:`\min_{u \ge 0} \|E u - f\|`.

    (SciPy 1.15's ``nnls`` stops at non-optimal points on some of these problems.) Each step
    frees the coordinate with the largest gradient and solves the least-squares problem on
    the free set, stepping back to the boundary while a free coordinate would turn negative.
    """
    m, n = E.shape
    u = np.zeros(n)
    free = np.zeros(n, dtype=bool)
    skip = np.zeros(n, dtype=bool)  # freed, but the solve gave them no weight: not again now
    tiny = 10 * np.finfo(float).eps * max(m, n) * max(float(np.abs(E).sum(axis=0).max()), 1.0)
    steps = 0
    while True:
        grad = E.T @ (f - E @ u)
        candidates = np.where(free | skip, -np.inf, grad)
        j = int(np.argmax(candidates))
        if candidates[j] <= tiny:
            return u
        free[j] = True
        first = True
        while True:
            steps += 1
            if steps > max_iter:
                raise RuntimeError(
                    f"optimal_margin: the active-set solver stopped at max_iter={max_iter} "
                    f"iterations; raise max_iter (default 3 * number of examples)")
            z = np.zeros(n)
            z[free] = np.linalg.lstsq(E[:, free], f, rcond=None)[0]
            if first and z[j] <= 0.0:  # rounding: j brings nothing, try the others
                free[j] = False
                skip[j] = True
                break
            first = False
            if np.all(z[free] > 0.0):
                u = z
                skip[:] = False
                break
            bad = np.flatnonzero(free & (z <= 0.0))
            ratios = u[bad] / (u[bad] - z[bad])
            u = u + float(ratios.min()) * (z - u)
            free &= u > 0.0
            free[bad[np.argmin(ratios)]] = False  # the coordinate that hit the boundary
            u[~free] = 0.0


def _kkt(P: np.ndarray, y: np.ndarray | None, s: float, S: np.ndarray):
    r"""Solve the KKT equations of :math:`\min \|w\|^2 + s^2 b^2` s.t. :math:`P w + y b \ge 1`
    with the constraints ``S`` active; returns ``(multipliers_S, w, b, residual)``.

    Stationarity and the active constraints, one linear system in (multipliers, w, b):

    .. math:: P_S^\top \nu = \alpha w, \quad y_S^\top \nu = \beta b, \quad
              P_S w + y_S b = 1,

    with :math:`(\alpha, \beta) = (1, s^2)` (:math:`\nu = \lambda`) for :math:`s < 1`,
    including the free bias :math:`s = 0`, and :math:`(s^{-2}, 1)`
    (:math:`\nu = \lambda / s^2`) for :math:`s \ge 1`: every entry stays of order one, so
    data scaled by :math:`10^{\pm 150}` is solved as well as data of unit size.
    ``y=None`` is the homogeneous problem (no ``b``).
    """
    PS = P[S]
    k, d = PS.shape
    if y is None:
        # the minimum-norm solution of P_S w = 1 is the optimum on S; solving for it directly
        # (condition number of P_S, not of the block system) keeps tiny margins accurate
        w, *_ = np.linalg.lstsq(PS, np.ones(k), rcond=None)
        nu, *_ = np.linalg.lstsq(PS.T, w, rcond=None)
        scale = float(np.max(np.abs(PS))) * max(float(np.max(np.abs(w))), 1.0) + 1.0
        residual = max(float(np.max(np.abs(PS @ w - 1.0))),
                       float(np.max(np.abs(PS.T @ nu - w))) / max(float(np.max(np.abs(w))), 1.0))
        return nu, w, 0.0, residual / scale
    else:
        alpha, beta = (1.0, s * s) if s < 1.0 else (1.0 / (s * s), 1.0)
        yS = y[S][:, None]
        K = np.block([[PS.T, -alpha * np.eye(d), np.zeros((d, 1))],
                      [yS.T, np.zeros((1, d)), -np.full((1, 1), beta)],
                      [np.zeros((k, k)), PS, yS]])
        rhs = np.concatenate([np.zeros(d + 1), np.ones(k)])
    sol = np.linalg.lstsq(K, rhs, rcond=None)[0]
    # the normwise backward error: relative to the size of K and of the solution, so a small
    # margin (multipliers and w of order 1/gamma^2 and 1/gamma) is certified as well as a large one
    scale = float(np.max(np.abs(K))) * float(np.max(np.abs(sol))) + 1.0
    residual = float(np.max(np.abs(K @ sol - rhs))) / scale
    b = 0.0 if y is None else float(sol[k + d])
    return sol[:k], sol[k:k + d], b, residual


def _certify(P, y, nu_S, w, b, residual) -> tuple[float, np.ndarray]:
    """The KKT certificate: largest violation of primal feasibility, multiplier signs and
    stationarity (each relative to the size of its terms), with the margins."""
    top = max(float(np.max(np.abs(nu_S))) if nu_S.size else 0.0, 1e-300)
    sign = max(0.0, -float(nu_S.min()) / top) if nu_S.size else 0.0
    margins = P @ w + (b * y if y is not None else 0.0)
    # forgive what rounding in P @ w can produce (it grows with |P| |w|, and |w| = 1/gamma),
    # nothing more: a small margin is certified as strictly as a large one
    rounding = 64 * np.finfo(float).eps * (float(np.max(np.abs(P) @ np.abs(w))) + abs(b))
    feasible = max(0.0, 1.0 - float(margins.min()) - rounding)
    return max(sign, feasible, residual), margins


def _polish(P, y, s, S, tol, rounds):
    """Exact KKT on the active set ``S``, then fix the set (drop negative multipliers, add the
    most violated constraint) until certified; returns ``(best, S)``, best =
    ``(w, b, violation, margins)``."""
    best = None
    for _ in range(rounds):
        nu_S, w, b, residual = _kkt(P, y, s, S)
        violation, margins = _certify(P, y, nu_S, w, b, residual)
        if best is None or violation < best[2]:
            best = (w, b, violation, margins)
        if violation <= tol:
            break
        keep = S[nu_S > 0]
        worst = int(np.argmin(margins))
        S = np.union1d(keep, [worst]) if margins[worst] < 1.0 - tol else keep
        if S.size == 0:
            break
    return best, S


def _dual_active_set(P: np.ndarray, tol: float, max_iter: int) -> np.ndarray | None:
    r"""An active set of :math:`\min \|\theta\|^2` s.t. :math:`P\theta \ge 1`, by Goldfarb
    and Idnani's dual active-set method (Math. Programming 27, 1983) for the identity Hessian.

    From :math:`\theta = 0`, take the most violated constraint :math:`a_p`, step along
    :math:`a_p` projected off the active normals; when an active multiplier would turn
    negative first, drop that constraint and step again. Each step stays in :math:`\theta`
    (not in the least-distance residual), so it keeps its precision when the margin is tiny
    and :math:`\|\theta\|` huge. Returns the active set (to be polished and certified), or
    None if it stalls numerically.
    """
    theta = np.zeros(P.shape[1])
    active: list[int] = []
    u = np.zeros(0)  # multipliers of the active constraints
    for _ in range(max_iter):
        slack = P @ theta - 1.0
        p = int(np.argmin(slack))
        if slack[p] >= -tol * (1.0 + float(np.abs(P[p]) @ np.abs(theta))):
            return np.array(sorted(active), dtype=int)
        a, gained = P[p], 0.0
        while True:
            r = np.linalg.lstsq(P[active].T, a, rcond=None)[0] if active else np.zeros(0)
            z = a - P[active].T @ r if active else a
            zz = float(z @ z)
            full = -float(slack[p] if gained == 0.0 else a @ theta - 1.0) / zz \
                if zz > 1e-28 * float(a @ a) else np.inf
            blocking = [(u[j] / r[j], j) for j in range(r.size) if r[j] > 0]
            partial, k = min(blocking) if blocking else (np.inf, -1)
            if not (np.isfinite(full) or np.isfinite(partial)):
                return None
            t = min(full, partial)
            if np.isfinite(full):
                theta = theta + t * z
            u, gained = u - t * r, gained + t
            if full <= partial:
                active.append(p)
                u = np.append(u, gained)
                break
            del active[k]
            u = np.delete(u, k)
    return None


def _qp(P: np.ndarray, y: np.ndarray | None, s: float, tol: float, max_iter: int):
    r"""Certified solution ``(w, b, kkt_residual, margins)`` of the QP of :func:`_kkt`.

    The active set comes from the least-distance program (non-negative least squares on
    :math:`E = [P^\top; \kappa y^\top; 1^\top]`, :math:`f = e_{last}`,
    :math:`\kappa = 1/s`), then is polished by :func:`_polish`. A free bias (:math:`s = 0`)
    is approached with :math:`\kappa` = 1e2, 1e4, 1e6 until certified.
    """
    n, d = P.shape
    best = None
    for cap in (1e2, 1e4, 1e6):
        kappa = 0.0 if y is None else min(cap, 1.0 / s if s > 0 else np.inf)
        rows = [P.T] + ([kappa * y[None, :]] if y is not None else []) + [np.ones((1, n))]
        E = np.vstack(rows)
        f = np.zeros(E.shape[0])
        f[-1] = 1.0
        S = np.flatnonzero(_nnls(E, f, max_iter) > 0)
        found, _ = _polish(P, y, s, S, tol, 5 * (d + 2))
        if best is None or found[2] < best[2]:
            best = found
        if best[2] <= tol:
            return best
        if y is None or s >= 1.0 / cap:  # the weighting was already exact
            break
    if y is None or s > 0.0:  # a strictly convex problem: try the dual active-set method
        # min ||w||^2 + (s b)^2 is homogeneous in theta = (w, s b) on the rows (P, y / s)
        Q = P if y is None else np.column_stack([P, y / s])
        S = _dual_active_set(Q, tol, max_iter)
        if S is not None and S.size:
            found, _ = _polish(Q, None, 0.0, S, tol, 5 * (d + 3))
            if found[2] <= tol:
                theta = found[0]
                return (theta, 0.0, found[2], found[3]) if y is None else \
                    (theta[:-1], float(theta[-1]) / s, found[2], found[3])
    if y is not None and s > 1e2:
        raise ValueError(
            f"optimal_margin: no certified optimum (smallest KKT violation {best[2]:.2e} > "
            f"tol={tol:g}): X's radius {s:.3g} dwarfs the bias input 1, and the margin of the "
            f"whole (w, b) is then beyond double precision; standardise X, or use "
            f"margin='svm' or bias=False, which scale with the data")
    raise RuntimeError(f"optimal_margin: no certified optimum (smallest KKT violation "
                       f"{best[2]:.2e} > tol={tol:g}); the data may be nearly degenerate: drop "
                       f"duplicate examples or standardise X")


def optimal_margin(X, Y, *, bias: bool = True, margin: str = "perceptron", tol: float = 1e-9,
                   max_iter: int | None = None) -> OptimalMargin:
    r"""The optimal margin and its separator, from the hard-margin SVM quadratic program.

    Two margins, both maximised exactly (they coincide when ``bias=False``):

    - ``margin="perceptron"`` (the default, the chapter's): :math:`\gamma_2 =
      \max_{\|(w, b)\| \le 1} \min_i y_i (w^\top x_i + b)`, the whole vector :math:`(w, b)`
      normalised, because that is the norm the perceptron's mistake bound uses;
      QP :math:`\min \|w\|^2 + b^2` s.t. :math:`y_i (w^\top x_i + b) \ge 1`.
    - ``margin="svm"``: the usual SVM's geometric margin :math:`\max_{\|w\| \le 1, b}
      \min_i y_i (w^\top x_i + b) = 1/\|w^\star\|`, the distance from the best plane to the
      nearest example, the bias free; QP :math:`\min \|w\|^2` s.t. the same constraints.

    The data is scaled to unit radius, the QP solved as a least-distance program by
    non-negative least squares (Lawson and Hanson, 1974, ch. 23), its active set polished by
    the exact KKT equations, and the answer certified: all constraints met, multipliers
    :math:`\lambda \ge 0`, stationarity, each within ``tol`` (relative to the size of
    :math:`w`, which is :math:`1/\gamma`). Where that active set is lost (a margin far below
    the radius), Goldfarb and Idnani's dual active-set method (1983) finds it instead. The
    margin scales with the data: ``optimal_margin(c * X, Y, bias=False).gamma == c *
    optimal_margin(X, Y, bias=False).gamma``, and the same for ``margin="svm"``.

    Parameters
    ----------
    X, Y : array-like
        Examples and -1/+1 labels.
    bias : bool
        Pad a constant 1 (separator ``(w, b)``) or not (separator ``w`` through the origin).
    margin : {"perceptron", "svm"}
        Which margin to maximise (see above).
    tol : float
        Largest violation of the KKT conditions accepted as a certificate of optimality.
    max_iter : int, optional
        Iterations of the active-set solver (default ``3 * n``).

    Raises
    ------
    ValueError
        If the data is not linearly separable (no margin to maximise), or if ``margin="svm"``
        with a single class (the free bias makes the margin unbounded).
        Also when X's radius dwarfs the bias input 1 so far (about 1e6 and beyond) that the
        whole-(w, b) margin is beyond double precision: standardise X.
    RuntimeError
        If no certified optimum is found (for example at ``max_iter``).
    """
    Xn, Yn = _checks.dataset(X, Y)
    bias = _checks.flag(bias, "bias")
    margin = _checks.choice(margin, "margin", MARGINS)
    tol = _checks.finite_float(tol, "tol", strictly_positive=True)
    if tol < 1e-14:
        raise ValueError(f"tol={tol:g} is below what double precision can certify (the KKT "
                         f"conditions hold to about 1e-15 at best); use tol >= 1e-14")
    n = Xn.shape[0]
    max_iter = 3 * max(n, 10) if max_iter is None else _checks.positive_int(max_iter, "max_iter")
    A = _signed_rows(Xn, Yn, bias)
    if _separating_point(A, "optimal_margin") is None:
        kind = "by a plane with bias" if bias else "by a plane through the origin"
        raise ValueError(f"the data is not linearly separable {kind}: there is no margin to "
                         f"maximise (check with gluon_perceptron.is_separable first)")
    free = bias and margin == "svm"
    y = Yn.astype(np.float64)
    if free and np.all(y == y[0]):
        raise ValueError("Y holds a single class: with a free bias the SVM margin is unbounded "
                         "(use margin='perceptron', or pass examples of both classes)")
    # x = s * x~ with max ||x~|| = 1; with w~ = s w the perceptron's QP is min ||w~||^2 + s^2 b^2
    s = _radius(A[:, :-1] if bias else A) or 1.0
    P = (A[:, :-1] if bias else A) / s
    w_t, b, residual, margins = _qp(P, y if bias else None, 0.0 if free else s, tol, max_iter)
    low = float(margins.min())
    wnorm = float(np.linalg.norm(w_t))
    if margin == "svm" or not bias:  # ||w|| = 1: w = w~ / ||w~||, b scaled alike
        w, b, gamma = w_t / wnorm, b * s / wnorm, low * s / wnorm
    else:  # ||(w, b)|| = 1 with w = w~ / s
        norm = math.hypot(wnorm / s, b)
        w, b, gamma = (w_t / s) / norm, b / norm, low / norm
    support = np.flatnonzero(margins <= low * (1 + 1e-6))
    return OptimalMargin(w=w, b=float(b), gamma=float(gamma), support=support,
                         radius=_radius(A), bias=bias, margin=margin, kkt_residual=float(residual))


# --- radius and planes --------------------------------------------------------------------


def radius(X) -> float:
    r""":math:`R = \max_i \|x_i\|`, the radius of the data (no overflow for huge entries)."""
    return _radius(_checks.features(X).astype(np.float64))


def separator(wfake, bfake=None) -> np.ndarray:
    """The generating plane as one vector :math:`u = (w^*, b^*)` (or :math:`w^*` if no bias)."""
    w = _checks.vector(wfake, "wfake").astype(np.float64)
    if not np.any(w):
        raise ValueError("wfake is the zero vector, which defines no plane; pass the plane's "
                         "normal (e.g. FakeData.wfake)")
    if bfake is None:
        return w
    return np.append(w, _checks.scalar(bfake, "bfake"))


def shift_plane_to_origin(X, wfake, bfake) -> np.ndarray:
    r"""Translate the data so its generating plane passes through the origin.

    :math:`x' = x + b^* w^* / \|w^*\|^2` gives :math:`w^{*\top} x' = w^{*\top} x + b^*`: the
    margins are unchanged and :math:`w^*` alone separates :math:`x'`, so homogeneous
    (no-bias) theory applies. The radius grows to at most :math:`R + |b^*| / \|w^*\|`.
    """
    Xn = _checks.features(X).astype(np.float64)
    if bfake is None:
        raise ValueError("bfake is required (use 0.0 for a plane through the origin)")
    u = separator(_checks.vector(wfake, "wfake", size=Xn.shape[1]), bfake)
    w, b = u[:-1], u[-1]
    return Xn + b * w / (w @ w)
