"""The optimal margin: the best separator for the perceptron's mistake bound.

Write the data as signed rows :math:`a_i = y_i (x_i, 1)` (with bias) or :math:`a_i = y_i x_i`
(homogeneous). Any :math:`\\theta` with :math:`a_i^\\top \\theta \\ge s > 0` gives the bound
:math:`t \\le \\max_i \\|a_i\\|^2 \\|\\theta\\|^2 / s^2`; the separator only exists in the proof,
so it may be chosen to make the bound smallest (Remark 1.30 of the lecture notes):

.. math:: \\gamma_2 = \\max_{\\|\\theta\\| \\le 1} \\min_i a_i^\\top \\theta, \\qquad
          T(A) = \\frac{\\max_i \\|a_i\\|^2}{\\gamma_2^2}.

Maximising the smallest margin over the unit ball is the hard-margin SVM problem
:math:`\\min \\{\\|\\theta\\|^2 : a_i^\\top \\theta \\ge 1\\}`, whose solution
:math:`\\theta^\\star` gives :math:`\\gamma_2 = 1 / \\|\\theta^\\star\\|` and the maximiser
:math:`\\theta^\\star / \\|\\theta^\\star\\|`. With a bias the whole vector :math:`(w, b)` is
penalised (unlike the usual SVM, which leaves :math:`b` free), because that is the norm the
perceptron's bound uses.

Solvers: the quadratic program is solved by SciPy's ``scipy.optimize.minimize`` with
``method="SLSQP"``, with exact gradients, started from a feasible point found by the linear
program ``scipy.optimize.linprog`` (HiGHS), which also detects data that is not separable.
(:func:`gluon_perceptron.divergence.is_separable` answers the yes/no question on its own.)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.optimize import linprog, minimize

from . import _checks

# --- the best linear rule -----------------------------------------------------------------

def _split(theta: np.ndarray) -> tuple[np.ndarray, float]:
    return theta[:-1].copy(), float(theta[-1])


def hinge_separator(X, Y, *, threshold: float = 1.0) -> tuple[np.ndarray, float, float]:
    """The linear rule minimising the mean hinge loss, by linear programming.

    Solves :math:`\\min_{\\theta, s} \\frac1n \\sum_i s_i` subject to
    :math:`\\langle \\theta, a_i \\rangle \\ge \\delta - s_i,\\; s_i \\ge 0`, i.e. minimises
    :math:`\\frac1n \\sum_i \\max(0, \\delta - y_i (w^\\top x_i + b))` exactly (a piecewise
    linear objective; scipy's HiGHS solver), with :math:`\\delta` = ``threshold``. This is
    the loss a perceptron with margin :math:`\\delta = 1` and a decaying step minimises, and a
    standard surrogate for the best linear separator (minimising the number of errors itself
    is NP-hard). The optimum is 0 exactly when the data is separable.

    Returns
    -------
    w : ndarray, shape (d,)
    b : float
    loss : float
        The minimal mean hinge loss.
    """
    A = signed_rows(X, Y)
    threshold = _checks.finite_float(threshold, "threshold", minimum=0.0)
    n, p = A.shape
    cost = np.concatenate([np.zeros(p), np.full(n, 1.0 / n)])
    constraints = -np.hstack([A, np.eye(n)])  # -(a_i . theta) - s_i <= -delta
    bounds = [(None, None)] * p + [(0, None)] * n
    solved = linprog(cost, A_ub=constraints, b_ub=np.full(n, -threshold), bounds=bounds,
                     method="highs")
    if solved.status != 0:  # pragma: no cover - the LP is always feasible and bounded below
        raise RuntimeError(f"linear program failed: {solved.message}")
    w, b = _split(solved.x[:p])
    return w, b, float(solved.fun)


def is_separable(X, Y) -> bool:
    """Whether some :math:`(w, b)` has :math:`y_i (w^\\top x_i + b) > 0` for every example.

    Decided by :func:`hinge_separator`: strict separability is the same as some
    :math:`\\theta` with :math:`\\langle \\theta, a_i \\rangle \\ge 1` for all :math:`i` (scale
    it up), i.e. a minimal hinge loss of 0.
    """
    return hinge_separator(X, Y)[2] <= 1e-9


def signed_rows(X, Y, *, bias: bool = True) -> np.ndarray:
    """The rows :math:`a_i = y_i (x_i, 1)` (``bias=True``) or :math:`a_i = y_i x_i`, float64.

    With them a separator :math:`\\theta = (w, b)` classifies example ``i`` correctly exactly
    when :math:`a_i^\\top \\theta > 0` (Remark 1.17's linear-inequality view).
    """
    Xn, Yn = _checks.dataset(X, Y)
    Xn = Xn.astype(np.float64)
    if bias:
        Xn = np.hstack([Xn, np.ones((Xn.shape[0], 1))])
    return Yn.astype(np.float64)[:, None] * Xn


def _feasible_point(A: np.ndarray) -> np.ndarray | None:
    """A point with :math:`A \\theta \\ge 1` from a linear program, or None if there is none."""
    n, p = A.shape
    res = linprog(np.zeros(p), A_ub=-A, b_ub=-np.ones(n), bounds=[(None, None)] * p,
                  method="highs")
    if res.status == 2:  # infeasible: no theta separates the rows
        return None
    if res.status != 0:
        raise RuntimeError(f"linprog could not decide separability: {res.message}")
    return res.x


@dataclass
class OptimalMargin:
    """The solution of :func:`optimal_margin`.

    Attributes
    ----------
    w : ndarray, shape (d,)
        Weights of the maximiser, with :math:`\\|(w, b)\\| = 1`.
    b : float
        Its bias (0 when ``bias=False``).
    gamma : float
        The optimal margin :math:`\\gamma_2 = \\min_i a_i^\\top (w, b)`.
    support : ndarray of int
        Examples whose margin is within ``1e-6`` (relative) of ``gamma``: the support vectors.
    radius : float
        :math:`\\max_i \\|a_i\\|`, i.e. :math:`\\sqrt{R^2 + 1}` with bias, :math:`R` without.
    bias : bool
    """

    w: np.ndarray
    b: float
    gamma: float
    support: np.ndarray
    radius: float
    bias: bool

    @property
    def bound(self) -> float:
        """The best mistake bound :math:`\\max_i \\|a_i\\|^2 / \\gamma_2^2` (Remark 1.30)."""
        return self.radius**2 / self.gamma**2

    @property
    def theta(self) -> np.ndarray:
        """The unit separator as one vector: ``(w, b)`` with bias, ``w`` without."""
        return np.append(self.w, self.b) if self.bias else self.w.copy()


def optimal_margin(X, Y, *, bias: bool = True, tol: float = 1e-10,
                   max_iter: int = 500) -> OptimalMargin:
    """The optimal margin :math:`\\gamma_2` and its separator, via the hard-margin SVM QP.

    Solves :math:`\\min_\\theta \\tfrac12 \\|\\theta\\|^2` subject to
    :math:`a_i^\\top \\theta \\ge 1` with ``scipy.optimize.minimize(method="SLSQP")``, then
    returns :math:`\\theta^\\star / \\|\\theta^\\star\\|` and
    :math:`\\gamma_2 = \\min_i a_i^\\top \\theta^\\star / \\|\\theta^\\star\\|`.

    Parameters
    ----------
    X, Y : array-like
        Examples and -1/+1 labels.
    bias : bool
        Pad a constant 1 (separator ``(w, b)``) or not (separator ``w`` through the origin).
    tol, max_iter : float, int
        SLSQP's tolerance and its bound on iterations.

    Raises
    ------
    ValueError
        If the data is not linearly separable (no margin to maximise).
    RuntimeError
        If SLSQP stops without success (for example at ``max_iter``).
    """
    A = signed_rows(X, Y, bias=bias)
    max_iter = _checks.positive_int(max_iter, "max_iter")
    tol = _checks.finite_float(tol, "tol", strictly_positive=True)
    start = _feasible_point(A)
    if start is None:
        kind = "by a plane with bias" if bias else "by a plane through the origin"
        raise ValueError(f"the data is not linearly separable {kind}: there is no margin to "
                         f"maximise (check with gluon_perceptron.divergence.is_separable first)")
    res = minimize(lambda t: 0.5 * t @ t, start, jac=lambda t: t, method="SLSQP",
                   constraints=[{"type": "ineq", "fun": lambda t: A @ t - 1.0,
                                 "jac": lambda t: A}],
                   options={"ftol": tol, "maxiter": max_iter})
    if not res.success:
        raise RuntimeError(f"SLSQP did not converge in max_iter={max_iter} iterations: "
                           f"{res.message}")
    theta = res.x / np.linalg.norm(res.x)
    margins = A @ theta
    gamma = float(margins.min())
    support = np.flatnonzero(margins <= gamma * (1 + 1e-6) + 1e-12)
    radius = float(np.sqrt(np.max(np.sum(A * A, axis=1))))
    w, b = (theta[:-1], float(theta[-1])) if bias else (theta, 0.0)
    return OptimalMargin(w=w, b=b, gamma=gamma, support=support, radius=radius, bias=bias)


def risk_minimum(X, Y, *, threshold: float = 1.0) -> tuple[np.ndarray, float, float]:
    """The exact minimum of the average loss :math:`R(\\theta) = \\frac1n\\sum_i \\max(0,
    \\delta - y_i (w^\\top x_i + b))`: the :math:`R(\\theta^*)` the SGD bound is measured from.

    The linear program of :func:`~gluon_perceptron.divergence.hinge_separator` (slacks
    :math:`\\xi_i \\ge \\delta - y_i (w^\\top x_i + b)`, :math:`\\xi_i \\ge 0`, minimize their
    mean; exact because the objective is piecewise linear), solved by HiGHS.

    Returns
    -------
    w : ndarray, shape (d,)
    b : float
        A minimizer (a vertex of the LP; minimizers need not be unique).
    value : float
        :math:`R(\\theta^*)`.
    """

    return hinge_separator(X, Y, threshold=threshold)


def radius(X) -> float:
    """:math:`R = \\max_i \\|x_i\\|`, the radius of the data."""
    Xn = _checks.features(X).astype(np.float64)
    return float(np.sqrt(np.max(np.sum(Xn * Xn, axis=1))))


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
    """Translate the data so its generating plane passes through the origin.

    :math:`x' = x + b^* w^* / \\|w^*\\|^2` gives :math:`w^{*\\top} x' = w^{*\\top} x + b^*`: the
    margins are unchanged and :math:`w^*` alone separates :math:`x'`, so homogeneous
    (no-bias) theory applies. The radius grows to at most :math:`R + |b^*| / \\|w^*\\|`.
    """
    Xn = _checks.features(X).astype(np.float64)
    if bfake is None:
        raise ValueError("bfake is required (use 0.0 for a plane through the origin)")
    u = separator(_checks.vector(wfake, "wfake", size=Xn.shape[1]), bfake)
    w, b = u[:-1], u[-1]
    return Xn + b * w / (w @ w)
