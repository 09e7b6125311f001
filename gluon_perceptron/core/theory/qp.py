r"""The hard-margin quadratic program behind :func:`~.margins.optimal_margin`, with a certificate.

:math:`\min \{\|\theta\|^2 : a_i^\top \theta \ge 1\}` is solved as a least-distance program
(Lawson and Hanson, *Solving Least Squares Problems*, 1974, ch. 23) by non-negative least
squares (an active-set method that ends at an exact vertex); its active set is polished by
solving the KKT equations exactly, and the answer is accepted only with a certificate: the KKT
conditions (every constraint met, non-negative multipliers, stationarity) hold within ``tol``,
which proves optimality (the problem is convex). Where the least-distance solver loses the
active set, Goldfarb and Idnani's dual active-set method (1983) finds it.
"""

from __future__ import annotations

import numpy as np


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
    # a step beyond float64 is inf or NaN: found below (None, stalled) and refused by the caller
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
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
        dual = _dual_active_set(Q, tol, max_iter)
        if dual is not None and dual.size:
            found, _ = _polish(Q, None, 0.0, dual, tol, 5 * (d + 3))
            if found[2] <= tol:
                theta = found[0]
                return (theta, 0.0, found[2], found[3]) if y is None else \
                    (theta[:-1], float(theta[-1]) / s, found[2], found[3])
    assert best is not None  # the loop above ran at least once
    if y is not None and s > 1e2:
        raise ValueError(
            f"optimal_margin: no certified optimum (smallest KKT violation {best[2]:.2e} > "
            f"tol={tol:g}): X's radius {s:.3g} dwarfs the bias input 1, and the margin of the "
            f"whole (w, b) is then beyond double precision; standardise X, or use "
            f"margin='svm' or bias=False, which scale with the data")
    raise RuntimeError(f"optimal_margin: no certified optimum (smallest KKT violation "
                       f"{best[2]:.2e} > tol={tol:g}); the data may be nearly degenerate: drop "
                       f"duplicate examples or standardise X")
