"""Mistake bounds of the perceptron convergence theorem, computed from data.

Write :math:`\\theta_t = (w_t, b_t)` after :math:`t` updates and let :math:`u = (w^*, b^*)`
separate the data with margin :math:`\\gamma`, i.e. :math:`y_i (w^{*\\top} x_i + b^*) \\ge
\\gamma` for all :math:`i`, and :math:`\\|x_i\\| \\le R`. Each update adds at least
:math:`\\gamma` to :math:`u^\\top \\theta_t` and at most :math:`R^2 + 1` to
:math:`\\|\\theta_t\\|^2`, so by Cauchy-Schwarz

.. math:: t \\gamma \\le u^\\top \\theta_t \\le \\|u\\| \\sqrt{t (R^2 + 1)}
          \\quad\\Longrightarrow\\quad t \\le \\frac{(R^2 + 1) \\|u\\|^2}{\\gamma^2}.

The chapter states this with :math:`\\|w^*\\| \\le 1, b^{*2} \\le 1`, hence
:math:`\\|u\\|^2 \\le 2` and :math:`t \\le 2 (R^2 + 1) / \\epsilon^2`.
"""

from __future__ import annotations

import numpy as np

from . import _checks
from .data import generating_margins


def radius(X) -> float:
    """:math:`R = \\max_i \\|x_i\\|`, the radius of the data."""
    Xn = _checks.features(X).astype(np.float64)
    return float(np.sqrt(np.max(np.sum(Xn * Xn, axis=1))))


def chapter_bound(R: float, epsilon: float) -> float:
    """The chapter's bound :math:`2 (R^2 + 1) / \\epsilon^2` (needs :math:`\\|w^*\\| \\le 1,
    b^{*2} \\le 1`)."""
    R = _checks.finite_float(R, "R", minimum=0.0)
    epsilon = _checks.finite_float(epsilon, "epsilon", strictly_positive=True)
    return 2.0 * (R * R + 1.0) / epsilon**2


def bias_bound(R: float, gamma: float, w_norm: float, b: float) -> float:
    """Bound with bias for any separator: :math:`(R^2 + 1)(\\|w^*\\|^2 + b^{*2}) / \\gamma^2`.

    Holds for every :math:`(w^*, b^*)` with :math:`y_i (w^{*\\top} x_i + b^*) \\ge \\gamma > 0`;
    with the chapter's assumptions it is at most :func:`chapter_bound`.
    """
    R = _checks.finite_float(R, "R", minimum=0.0)
    gamma = _checks.finite_float(gamma, "gamma", strictly_positive=True)
    w_norm = _checks.finite_float(w_norm, "w_norm", minimum=0.0)
    b = _checks.finite_float(b, "b")
    return (R * R + 1.0) * (w_norm**2 + b * b) / gamma**2


def novikoff_bound(R: float, gamma: float) -> float:
    """Novikoff's bound without bias, :math:`R^2 / \\gamma^2` for a unit separator."""
    R = _checks.finite_float(R, "R", minimum=0.0)
    gamma = _checks.finite_float(gamma, "gamma", strictly_positive=True)
    return R * R / gamma**2


def generating_plane_bound(X, Y, wfake, bfake) -> dict:
    """The bias bound for a dataset, using its generating plane as the separator.

    Returns
    -------
    dict
        ``R``, ``gamma`` (the smallest margin :math:`y_i(w^{*\\top} x_i + b^*)` actually
        reached, never below the sampler's ``epsilon``), ``b`` (:math:`b^*`), ``bound`` (from
        :func:`bias_bound`) and ``chapter_assumptions`` (whether :math:`b^{*2} \\le 1`, so that
        :func:`chapter_bound` applies).
    """
    margins = generating_margins(X, Y, wfake, bfake)
    gamma = float(margins.min())
    if gamma <= 0:
        raise ValueError("the given plane does not separate the data (a margin is <= 0)")
    w = _checks.to_numpy(wfake, "wfake").astype(np.float64).reshape(-1)
    b = float(np.asarray(_checks.to_numpy(bfake, "bfake")).reshape(-1)[0])
    R = radius(X)
    return {"R": R, "gamma": gamma, "b": b,
            "bound": bias_bound(R, gamma, float(np.linalg.norm(w)), b),
            "chapter_assumptions": b * b <= 1.0}
