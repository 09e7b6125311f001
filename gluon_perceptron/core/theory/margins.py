r"""The optimal margin and the radius: the numbers the perceptron's mistake bound is made of.

Any :math:`\theta` with :math:`a_i^\top \theta \ge s > 0` on the signed rows gives the bound
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
distance from the plane to the nearest example (``margin="svm"``). The quadratic program is
solved in :mod:`.qp`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .._arrays import _radius
from .._convert import as_features, as_labels, as_scalar, as_values
from .._validation import (
    count,
    features,
    one_of,
    optional,
    real,
    scalar,
    such_that,
    validate_params,
    vector,
)
from .qp import _qp
from .separability import _separating_point, _signed_rows

#: The two margins :func:`optimal_margin` can maximise (see its docstring).
MARGINS = ("perceptron", "svm")


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


#: ``X`` with normal floats: subnormal entries keep too few digits for a margin.
_TINY = np.finfo(np.float64).tiny
_NORMAL_DATA = such_that(features(), lambda X, args: not 0 < np.max(np.abs(X)) < _TINY,
                         f"{{name}}'s largest entry is below the smallest normal float64 "
                         f"({_TINY:.3g}): such subnormal numbers keep too few digits for a margin; "
                         f"rescale X first (e.g. X / np.abs(X).max())")


@validate_params(X=_NORMAL_DATA, margin=one_of(*MARGINS),
                 tol=real(minimum=1e-14), max_iter=optional(count()))  # tol: KKT reaches 1e-15
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
        If X's entries are subnormal (below about 2.2e-308): rescale X first.
        Also when X's radius dwarfs the bias input 1 so far (about 1e6 and beyond) that the
        whole-(w, b) margin is beyond double precision: standardise X.
    RuntimeError
        If no certified optimum is found (for example at ``max_iter``).
    """
    X = as_features(X)
    Y, tol = as_labels(Y, like=X), float(tol)
    A = _signed_rows(X, Y, bias)
    if _separating_point(A, "optimal_margin") is None:
        kind = "by a plane with bias" if bias else "by a plane through the origin"
        raise ValueError(f"the data is not linearly separable {kind}: there is no margin to "
                         f"maximise (check with gluon_perceptron.is_separable first)")
    return _optimal_margin(X, Y, bias=bias, margin=margin, tol=tol, max_iter=max_iter, A=A)


def _optimal_margin(Xn, Yn, *, bias: bool = True, margin: str = "perceptron",
                    tol: float = 1e-9, max_iter: int | None = None,
                    A: np.ndarray | None = None) -> OptimalMargin:
    """:func:`optimal_margin` on data its caller knows to be separable (drawn with a margin),
    without the linear program that checks it: the same quadratic program, the same
    answer."""
    n = Xn.shape[0]
    max_iter = 3 * max(n, 10) if max_iter is None else max_iter
    A = _signed_rows(Xn, Yn, bias) if A is None else A
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


@validate_params()
def radius(X) -> float:
    r""":math:`R = \max_i \|x_i\|`, the radius of the data (no overflow for huge entries)."""
    return _radius(as_features(X, np.float64))


#: The rule of a plane's normal ``wfake``, a finite vector, not zero: alone, and with one entry
#: per feature of ``X``.
NORMAL, NORMAL_OF_X = (such_that(vector(size_of=of), lambda w, args: np.any(w), "{name} is the "
                                 "zero vector, which defines no plane; pass the plane's normal "
                                 "(e.g. FakeData.wfake)") for of in (None, "X"))


@validate_params(wfake=NORMAL, bfake=optional(scalar()))
def separator(wfake, bfake=None) -> np.ndarray:
    """The generating plane as one vector :math:`u = (w^*, b^*)` (or :math:`w^*` if no bias)."""
    wfake, bfake = as_values(wfake), None if bfake is None else as_scalar(bfake)
    return wfake if bfake is None else np.append(wfake, bfake)


@validate_params(wfake=NORMAL_OF_X)
def shift_plane_to_origin(X, wfake, bfake) -> np.ndarray:
    r"""Translate the data so its generating plane passes through the origin.

    :math:`x' = x + b^* w^* / \|w^*\|^2` gives :math:`w^{*\top} x' = w^{*\top} x + b^*`: the
    margins are unchanged and :math:`w^*` alone separates :math:`x'`, so homogeneous
    (no-bias) theory applies. The radius grows to at most :math:`R + |b^*| / \|w^*\|`.
    Where :math:`\|w^*\|^2` leaves float64, the shift is computed from :math:`w^* / \max_j
    |w^*_j|` instead, so a tiny :math:`w^*` does not divide by 0.

    Raises
    ------
    ValueError
        If the shifted points leave float64 (:math:`|b^*| / \|w^*\|` beyond about 1e308).
    """
    X, wfake, bfake = as_features(X, np.float64), as_values(wfake), as_scalar(bfake)
    top = float(np.max(np.abs(wfake)))
    u = wfake / top
    with np.errstate(all="ignore"):
        shifted = X + bfake * wfake / (wfake @ wfake)
        if not np.all(np.isfinite(shifted)):  # ||w*||^2 underflowed or overflowed
            shifted = X + (bfake / top) * u / (u @ u)
    if not np.all(np.isfinite(shifted)):
        raise ValueError(f"shift_plane_to_origin overflowed: the plane lies |bfake| / ||wfake|| "
                         f"= {abs(bfake):g} / {np.linalg.norm(u) * top:g} from the origin, "
                         f"beyond float64; rescale wfake and bfake together")
    return shifted
