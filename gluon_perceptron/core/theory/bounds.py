"""Mistake bounds and step-size bounds: the chapter's, Novikoff's, the notes' general bound,
Amaldi-Hauser's, and the SGD bound.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import combinations, islice

import numpy as np

from .._convert import as_features, as_labels, as_scalar, as_vector
from .._validation import (
    count,
    real,
    scalar,
    such_that,
    validate_params,
    vector,
)
from ..data.synthetic import generating_margins
from ..rosenblatt.results import ItemAccess, Unpackable
from .margins import radius
from .separability import signed_rows


@validate_params(max_subsets=count())
def amaldi_hauser_bound(X, Y, *, learning_rate: float = 1.0,
                        max_subsets: int = 500_000) -> float:
    """The boundedness theorem's ceiling on :math:`\\|\\theta_t\\|` (notes, Theorem 1.35).

    For :math:`\\theta_{t+1} = \\theta_t + \\eta_t a_{I_t}` with :math:`\\langle \\theta_t,
    a_{I_t} \\rangle \\le 0`, :math:`0 \\le \\eta_t \\le \\bar\\eta` and :math:`\\theta_0 = 0`,
    Amaldi and Hauser (2005) prove, for every :math:`t`,

    .. math:: \\|\\theta_t\\| \\le 2\\, \\bar\\eta \\max_i \\|a_i\\| \\left(
              (1 \\wedge \\min_i \\|a_i\\|)^{r} \\kappa(A)\\, 2^{3p/2} + 1 \\right),

    with :math:`r = \\operatorname{rank} A`, :math:`p = d + 1`, and :math:`\\kappa^{-2}(A)` the
    smallest :math:`\\det(B^\\top B)` over the sets :math:`B` of :math:`r` columns of full rank.
    Padding makes :math:`\\|a_i\\| \\ge 1`, so the middle power is 1. The bound holds on any data,
    separable or not, in any order; it is typically loose by orders of magnitude.

    Parameters
    ----------
    X, Y : array-like or NDArray
    learning_rate : float
        :math:`\\bar\\eta`, the largest step used.
    max_subsets : int
        Bound on the :math:`\\binom{n}{r}` determinants to compute.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If there are more than ``max_subsets`` sets to examine (the work is bounded up front,
        never cut short silently), or if the ceiling overflows float64 (a huge
        ``learning_rate`` or ``X``).
    """
    X = as_features(X)
    Y = as_labels(Y, like=X)
    A = signed_rows(X, Y)
    n, p = A.shape
    r = int(np.linalg.matrix_rank(A))
    count = math.comb(n, r)
    if count > max_subsets:
        raise ValueError(f"the bound needs det(B^T B) for all C({n}, {r}) = {count} sets of "
                         f"{r} examples, more than max_subsets={max_subsets}; use fewer "
                         f"examples or raise max_subsets")
    sq = np.sum(A * A, axis=1)
    smallest = np.inf
    subsets = combinations(range(n), r)
    for _ in range(math.ceil(count / 100_000)):  # count <= max_subsets: a bounded loop
        chunk = np.array(list(islice(subsets, 100_000)), dtype=np.int64)
        B = A[chunk]                                   # (m, r, p): rows are the chosen a_i
        dets = np.linalg.det(B @ B.transpose(0, 2, 1))  # det(B^T B) with the a_i as columns
        full = dets > 1e-10 * np.prod(sq[chunk], axis=1)  # Hadamard: det <= prod ||a_i||^2
        if full.any():
            smallest = min(smallest, float(dets[full].min()))
    kappa = 1.0 / math.sqrt(smallest)
    norms = np.sqrt(sq)
    shrink = min(1.0, float(norms.min())) ** r
    with np.errstate(all="ignore"):
        value = 2.0 * _f(learning_rate) * float(norms.max()) * (
            shrink * kappa * 2.0 ** (1.5 * p) + 1.0)
    return _finite_bound(value, "amaldi_hauser_bound", "2 learning_rate max|a_i| (kappa(A) "
                         "2**(3p/2) + 1)", fix="learning_rate or X", learning_rate=learning_rate,
                         largest_a=float(norms.max()), kappa=kappa)


def sgd_bound(radius: float, lipschitz: float, learning_rates) -> np.ndarray:
    """The chapter's bound :math:`(R^2 + L^2 \\sum_{t \\le T} \\eta_t^2)/(2 \\sum_{t \\le T}
    \\eta_t)` for every prefix :math:`T = 1, 2, \\dots` of the rates given."""
    eta = np.asarray(learning_rates, dtype=np.float64)
    with np.errstate(all="ignore"):
        bound = (_f(radius)**2 + _f(lipschitz)**2 * np.cumsum(eta**2)) / (2.0 * np.cumsum(eta))
    if not np.all(np.isfinite(bound)):
        raise ValueError("sgd_bound overflowed for these radius, lipschitz and learning_rates; "
                         "rescale them to a moderate range first")
    return bound


@dataclass
class ConstantRate(Unpackable):
    """The best constant rate for a horizon and its bound (unpacks as ``eta, bound``).

    Attributes
    ----------
    learning_rate : float
        :math:`\\eta = R/(L\\sqrt T)`.
    bound : float
        :math:`RL/\\sqrt T`.
    """

    learning_rate: float
    bound: float


def constant_rate_optimum(radius: float, lipschitz: float, steps: int) -> ConstantRate:
    """The best constant rate for a horizon :math:`T` and its bound:
    :math:`\\eta = R/(L\\sqrt T)`, bound :math:`RL/\\sqrt T`. For the package
    (:func:`~gluon_perceptron.experiments.sgd_bound_experiment`): ``radius`` and ``lipschitz``
    > 0 and ``steps`` >= 1 are taken as given.

    Returns
    -------
    ConstantRate
        Unpacks as ``eta, bound`` (it used to be that tuple).
    """
    root = np.sqrt(steps)
    with np.errstate(over="ignore", under="ignore"):
        rate, bound = _f(radius) / (_f(lipschitz) * root), _f(radius) * _f(lipschitz) / root
    _finite_bound(bound, "constant_rate_optimum", "radius lipschitz / sqrt(steps)",
                  radius=radius, lipschitz=lipschitz)
    if not 0.0 < rate < np.inf:
        raise ValueError(f"constant_rate_optimum: radius={radius:g} / (lipschitz={lipschitz:g} "
                         f"sqrt(steps)) is {rate}, outside the floats; rescale radius and "
                         f"lipschitz together to a moderate range")
    return ConstantRate(float(rate), float(bound))


@validate_params(epsilon=real(positive=True))
def chapter_bound(R: float, epsilon: float) -> float:
    """The chapter's bound :math:`2 (R^2 + 1) / \\epsilon^2` (needs :math:`\\|w^*\\| \\le 1,
    b^{*2} \\le 1`)."""
    with np.errstate(all="ignore"):
        value = 2.0 * (_f(R) * _f(R) + 1.0) / _f(epsilon)**2
    return _finite_bound(value, "chapter_bound", "2 (R**2 + 1) / epsilon**2",
                         R=R, epsilon=epsilon)


@validate_params(gamma=real(positive=True), w_norm=real(minimum=0.0), b=such_that(
    scalar(), lambda b, args: b != 0 or args["w_norm"] != 0, "w_norm and b are both 0: (w*, b*) = "
    "0 separates nothing; pass the norm and bias of a plane with margin gamma", ("w_norm",)))
def bias_bound(R: float, gamma: float, w_norm: float, b: float) -> float:
    """Bound with bias for any separator: :math:`(R^2 + 1)(\\|w^*\\|^2 + b^{*2}) / \\gamma^2`.

    Holds for every :math:`(w^*, b^*)` with :math:`y_i (w^{*\\top} x_i + b^*) \\ge \\gamma > 0`;
    with the chapter's assumptions it is at most :func:`chapter_bound`.
    """
    b = as_scalar(b)
    with np.errstate(all="ignore"):
        value = (_f(R) * _f(R) + 1.0) * (_f(w_norm)**2 + _f(b) * _f(b)) / _f(gamma)**2
    return _finite_bound(value, "bias_bound", "(R**2 + 1) (w_norm**2 + b**2) / gamma**2",
                         R=R, gamma=gamma, w_norm=w_norm, b=b)


def _finite_bound(value, name: str, formula: str, *, fix: str | None = None,
                  **arguments: float) -> float:
    """``value``, or an error naming the ``arguments`` that overflowed it (a bound of inf
    says nothing).

    Callers compute ``value`` in numpy float64 (:func:`_f`), where an overflow or a division
    by an underflowed zero gives inf or nan instead of raising. ``fix`` says what to rescale
    (default: the arguments).
    """
    if not math.isfinite(value):
        given = ", ".join(f"{key}={val:g}" for key, val in arguments.items())
        names = list(arguments)
        fix = fix or (", ".join(names[:-1]) + " and " + names[-1] + " together")
        raise ValueError(f"{name} overflowed: {given} give {formula} = {value}; rescale "
                         f"{fix} to a moderate range (e.g. measure the data in units of its "
                         f"radius)")
    return float(value)


def _f(value: float) -> np.float64:
    return np.float64(value)


@validate_params(gamma=real(positive=True))
def novikoff_bound(R: float, gamma: float) -> float:
    """Novikoff's bound without bias, :math:`R^2 / \\gamma^2` for a unit separator."""
    with np.errstate(all="ignore"):
        value = _f(R) * _f(R) / _f(gamma)**2
    return _finite_bound(value, "novikoff_bound", "(R/gamma)**2", R=R, gamma=gamma)


@dataclass
class GeneratingPlaneBound(ItemAccess):
    """The bias bound of a dataset with its generating plane as the separator.

    Attributes
    ----------
    R : float
        :math:`\\max_i \\|x_i\\|`.
    gamma : float
        The smallest margin :math:`y_i(w^{*\\top} x_i + b^*)` actually reached (never below
        the sampler's ``epsilon``).
    b : float
        :math:`b^*`.
    bound : float
        :func:`bias_bound` :math:`(R^2+1)(\\|w^*\\|^2+b^{*2})/\\gamma^2`.
    chapter_assumptions : bool
        Whether :math:`b^{*2} \\le 1`, the chapter's stated condition for
        :func:`chapter_bound`.
    """

    R: float
    gamma: float
    b: float
    bound: float
    chapter_assumptions: bool


@validate_params(wfake=vector(size_of="X"))
def generating_plane_bound(X, Y, wfake, bfake) -> GeneratingPlaneBound:
    """The bias bound for a dataset, using its generating plane as the separator.

    Returns
    -------
    GeneratingPlaneBound
        ``result.bound`` etc. (``result["bound"]``, the dict it replaced, still works).

    Raises
    ------
    ValueError
        If ``(wfake, bfake)`` does not separate ``(X, Y)`` (a margin is :math:`\\le 0`).
    """
    X = as_features(X)
    Y, wfake, bfake = as_labels(Y, like=X), as_vector(wfake), as_scalar(bfake)
    margins = generating_margins(X, Y, wfake, bfake)
    gamma = float(margins.min())
    if gamma <= 0:
        raise ValueError("the given plane (wfake, bfake) does not separate the data (a margin "
                         "is <= 0); pass the plane the data was generated from")
    w, b = wfake.astype(np.float64), bfake
    R = radius(X)
    try:
        bound = bias_bound(R, gamma, float(np.linalg.norm(w)), b)
    except ValueError as exc:  # it overflowed: the numbers came from the user's X and plane
        raise ValueError(f"generating_plane_bound: {exc}; here R and gamma come from X and the "
                         f"plane (wfake, bfake): rescale X and the plane") from None
    return GeneratingPlaneBound(R=R, gamma=gamma, b=b, bound=bound,
                                chapter_assumptions=b * b <= 1.0)


def general_bound(radius_a: float, s: float, u_norm: float, *, w0_norm: float = 0.0,
                  threshold: float = 0.0) -> float:
    """The lecture notes' bound (1.4) for a start :math:`\\theta_0` and a threshold :math:`\\delta`.

    With signed rows :math:`a_i` (:math:`\\|a_i\\| \\le R_a`) and a separator :math:`u` with
    :math:`a_i^\\top u \\ge s > 0`, the two halves of the proof give
    :math:`u^\\top \\theta_t \\ge -\\|u\\|\\|\\theta_0\\| + t s` and
    :math:`\\|\\theta_t\\|^2 \\le \\|\\theta_0\\|^2 + t (2 \\delta + R_a^2)`; Cauchy-Schwarz
    then yields

    .. math:: t \\le \\frac{(2\\delta + R_a^2)\\|u\\|^2 + 2 s \\|u\\| \\|\\theta_0\\|}{s^2}.

    With bias, :math:`R_a^2 = R^2 + 1` and :math:`u = (w^*, b^*)`; with
    :math:`\\theta_0 = 0, \\delta = 0` this is :func:`bias_bound`. It assumes the learning
    rate 1 (a rate :math:`\\eta` is the same run with :math:`\\theta_0/\\eta, \\delta/\\eta`).
    For the package (:func:`~gluon_perceptron.experiments.proof_trace`): the arguments, finite
    with ``s`` and ``u_norm`` > 0, are taken as given; a bound beyond float64 is an error.
    """
    ra, sf, un, w0, th = map(_f, (radius_a, s, u_norm, w0_norm, threshold))
    with np.errstate(all="ignore"):
        value = ((2 * th + ra**2) * un**2 + 2 * sf * un * w0) / sf**2
    return _finite_bound(value, "general_bound",
                         "((2 threshold + radius_a**2) u_norm**2 + 2 s u_norm w0_norm) / s**2",
                         radius_a=radius_a, s=s, u_norm=u_norm, w0_norm=w0_norm,
                         threshold=threshold)
