r"""The separation problem: find :math:`w` with :math:`A w > 0`; its margin, bounds and data.

Fold the labels and the bias into the rows, :math:`a_j = y_j (x_j, 1) / \|(x_j, 1)\|`
(Remark 1.39 of the lecture notes: a separator is a point of the dual cone's interior). The
difficulty of the problem is the width of that cone, the margin of the unit rows,

.. math:: \rho(A) = \max_{\|w\| = 1} \min_j a_j^\top w,

and the three perceptrons of :mod:`.solvers` need, to find a :math:`w` with :math:`A w > 0`,
at most :math:`1/\rho^2` updates (:func:`perceptron_separation_bound`), at most
:math:`\lceil 2\sqrt{2 \ln n}/\rho - 1 \rceil` iterations (:func:`smooth_bound`) and a number
of phases growing like :math:`m \log(1/\rho)` (:func:`rescaled_bound`).
:func:`separation_problem` draws getfake's data as a problem whose margin is set.

The rule :func:`unit_rows` scales ``A``'s rows to unit length and refuses a problem that has no
solution, once, when a user calls a solver; the package's own calls (the experiments, on rows
already unit) pass ``A`` as it is.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .. import _checks
from .._arrays import _row_norms
from .._convert import as_features
from .._validation import Rule, count, real, such_that, validate_params
from ..data.synthetic import _mx_seed, sample_separable
from ..theory.margins import optimal_margin
from ..theory.separability import _separating_point


def _separable(A: np.ndarray, who: str) -> None:
    """Refuse, before any iteration, unit rows ``A`` with no :math:`w` such that
    :math:`A w > 0`: no algorithm here could stop on them. The mean row (the smooth
    perceptron's start) settles the easy cases at once; the others take one linear program."""
    if np.all(A @ A.mean(axis=0) > 0):
        return
    if _separating_point(A, who) is None:
        raise ValueError(f"{who}: A is not separable: no w has A w > 0 (a convex combination of "
                         f"its rows is 0), so no separation algorithm converges; check the rows "
                         f"a_j = y_j (x_j, 1) (signs, labels) or use separable data")


def unit_rows(who: str, square: bool = False) -> Rule:
    """The rule of ``A``: nonzero rows, scaled to unit length in float64 (norms that do not
    overflow for rows near 1e308), separable (else a ValueError naming ``who``); with
    ``square``, an ``m x m`` matrix for ``A``'s ``m`` columns must fit the array limit."""
    def check(A, name, args):
        An = _checks.features(A, name).astype(np.float64)
        norms = _row_norms(An)
        if np.any(norms == 0):
            raise ValueError(f"{name} has a zero row (row {int(np.argmin(norms))}); every row "
                             f"must be a nonzero vector y_j (x_j, 1)")
        An = An / norms[:, None]
        if square:
            _checks.elements(An.shape[1]**2, f"{who}'s stretch matrix B (m x m for A with m = "
                                             f"{An.shape[1]} columns)")
        _separable(An, who)
        return An
    return Rule(check, f"unit_rows({who!r}, separable)")


def as_unit_rows(A) -> np.ndarray:
    """``A`` in float64 with its rows scaled to unit length, as :func:`unit_rows` checks them
    (the one line of conversion of the solvers); rows already unit to 1e-12 (the package's own
    problems) are left exactly as they are."""
    A = as_features(A, np.float64)
    norms = _row_norms(A)
    return A if np.all(np.abs(norms - 1.0) <= 1e-12) else A / norms[:, None]


def signed_unit_rows(X, Y) -> np.ndarray:
    """The separation problem of a labelled set: rows :math:`y_j (x_j, 1)/\\|(x_j, 1)\\|`."""
    Z = np.hstack([X.astype(np.float64), np.ones((X.shape[0], 1))])
    Z *= Y.astype(np.float64)[:, None]
    Z /= np.abs(Z).max(1)[:, None]  # each row's largest entry >= 1 first: no square overflows
    return Z / np.sqrt((Z * Z).sum(1))[:, None]


def phase_length(m: int) -> int:
    """:math:`N = \\lceil 3 m (m+1)^2 / \\ln 2 \\rceil`, the updates of one perceptron phase of
    :func:`rescaled_perceptron` in :math:`m` unknowns (see its bound)."""
    return math.ceil(3 * m * (m + 1) ** 2 / math.log(2))


def perceptron_separation_bound(rho: float) -> float:
    """Novikoff's bound on the unit rows: :math:`1/\\rho^2` updates (``rho``: the margin of a
    :func:`separation_problem` of :func:`~gluon_perceptron.experiments.separation_experiment`,
    whose margins are at least 1e-10, so the bound is finite; not checked again)."""
    return float(1.0 / np.float64(rho) ** 2)


def smooth_bound(rho: float, n: int) -> int:
    """The smooth perceptron's bound :math:`\\lceil 2\\sqrt{2\\ln n}/\\rho - 1 \\rceil` (0 when
    :math:`n = 1`: the single row itself is a solution; ``rho`` as for
    :func:`perceptron_separation_bound`)."""
    return max(0, math.ceil(2 * math.sqrt(2 * math.log(n)) / rho - 1))


def rescaled_bound(rho: float, n: int, m: int, phase: int | None = None) -> int:
    """The rescaled perceptron's bound :math:`(\\lfloor 2m\\log_2(2/\\rho)\\rfloor + 1)(N + n)`
    updates, with :math:`N` = ``phase`` (default :func:`phase_length`)."""
    phase = phase_length(m) if phase is None else phase
    ratio = 2 / rho
    # log2(2 / rho) = 1 - log2(rho): finite also when 2 / rho overflows (a subnormal rho)
    log = math.log2(ratio) if math.isfinite(ratio) else 1 - math.log2(rho)
    return (math.floor(2 * m * log) + 1) * (phase + n)


def separation_margin(A) -> float:
    """:math:`\\rho(A) = \\max_{\\|w\\|=1} \\min_j a_j^\\top w` of the unit rows (the optimal
    margin of the homogeneous problem, by the hard-margin quadratic program); a ValueError
    if ``A`` is not separable (no margin to maximise)."""
    if A.shape[1] > A.shape[0]:
        # the best unit w lies in the span of the rows: with A^T = Q R, the rows of R^T are
        # the rows' coordinates there (same lengths, same margin), an n x n problem
        A = np.linalg.qr(A.T)[1].T
    return optimal_margin(A, np.ones(A.shape[0]), bias=False).gamma


@dataclass
class SeparationProblem:
    """Unit rows with a margin set by construction (from :func:`separation_problem`).

    Attributes
    ----------
    A : ndarray, shape (samples, dimensions + 1)
    gamma : float
        The margin asked for: the generating plane's margin on the unit rows.
    rho : float
        The optimal margin :math:`\\rho(A) \\ge \\gamma`, measured.
    plane : ndarray
        The generating plane :math:`(w^*, b^*)`, unit.
    """

    A: np.ndarray
    gamma: float
    rho: float
    plane: np.ndarray


@validate_params(samples=count(2), dimensions=count(), pinned=real(positive=True, maximum=1),
                 gamma=such_that(real(positive=True), lambda g, args: g < 1,
                                 "gamma must be below 1 (the margin of unit rows), got {value}"))
def separation_problem(samples: int, dimensions: int, gamma: float, *,
                       pinned: float = 0.2, seed: int | None = None) -> SeparationProblem:
    """getfake's data as a separation problem whose margin is ``gamma``.

    Draws :func:`~gluon_perceptron.sample_separable` data (``epsilon=0``, MXNet's generator),
    forms the unit rows :math:`a_j = y_j (x_j, 1)/\\|(x_j, 1)\\|` and the unit plane
    :math:`u = (w^*, b^*)/\\|\\cdot\\|`, then rotates towards or away from :math:`u` every row
    whose margin :math:`a_j^\\top u` is below ``gamma`` and the ``pinned`` fraction with the
    smallest margins, so that their margin is exactly ``gamma`` (their component orthogonal to
    :math:`u` keeps its direction). So :math:`\\rho(A) \\ge \\gamma`, and close to it when the
    pinned rows surround :math:`u`.

    Parameters
    ----------
    samples, dimensions : int
    gamma : float
        In :math:`(0, 1)`.
    pinned : float
        Fraction of the rows put on the margin, in :math:`(0, 1]`.
    seed : int, optional
        Seeds MXNet's generator first (``None`` keeps its state, as the chapter does).
    """
    _mx_seed(seed)
    fake = sample_separable(samples, dimensions, 0.0)
    A = signed_unit_rows(fake.X.asnumpy(), fake.Y.asnumpy())
    u = np.append(fake.wfake.asnumpy(), fake.bfake.asnumpy()).astype(np.float64)
    u /= np.linalg.norm(u)
    margins = A @ u
    move = margins < gamma
    move[np.argsort(margins)[:max(1, round(pinned * samples))]] = True
    side = A[move] - np.outer(margins[move], u)
    side /= np.linalg.norm(side, axis=1)[:, None]
    A[move] = gamma * u + math.sqrt(1 - gamma**2) * side
    rho = optimal_margin(A, np.ones(samples), bias=False).gamma
    return SeparationProblem(A=A, gamma=gamma, rho=rho, plane=u)
