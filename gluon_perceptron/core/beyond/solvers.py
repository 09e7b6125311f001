r"""Three perceptrons for the separation problem: find :math:`w` with :math:`A w > 0`.

Fold the labels and the bias into the rows, :math:`a_j = y_j (x_j, 1) / \|(x_j, 1)\|`
(Remark 1.39 of the lecture notes: a separator is a point of the dual cone's interior). The
difficulty of the problem is the width of that cone, the margin of the unit rows,

.. math:: \rho(A) = \max_{\|w\| = 1} \min_j a_j^\top w,

and three algorithms need, to find a :math:`w` with :math:`A w > 0`:

- the perceptron (Rosenblatt; Novikoff 1962): at most :math:`1/\rho^2` updates;
- the smooth perceptron (Soheili & Peña 2012): at most
  :math:`\lceil 2\sqrt{2 \ln n}/\rho - 1 \rceil` iterations, each one product with
  :math:`A` and one with :math:`A^\top`;
- the rescaled perceptron (Dunagan & Vempala 2008; Peña & Soheili 2016): perceptron phases of
  a fixed length and, after each failed phase, a stretch of the space; the number of phases
  grows like :math:`m \log(1/\rho)` (:math:`m` the number of unknowns), so the dependence on
  the margin is logarithmic.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .._validation import count, optional, validate_params
from ..fast.beyond_fast import _cone_passes
from .separation import as_unit_rows, phase_length, unit_rows


@dataclass
class SeparationRun:
    """What a separation algorithm found.

    Attributes
    ----------
    w : ndarray, shape (m,)
        The last iterate; a solution (:math:`A w > 0`, checked on the unit rows) when
        ``converged``.
    iterations : int
        The algorithm's own count: perceptron updates (plain and rescaled), or iterations of
        the smooth perceptron.
    converged : bool
        True only if :math:`A w > 0` holds; False when ``max_iterations`` was hit.
    method : str
    rescalings : int
        Stretches of the space (rescaled perceptron only).
    history : dict
        Extra traces, e.g. ``"certificates"``: after each failed phase of the rescaled
        perceptron, :math:`\\|\\tilde A^\\top x\\|` for the phase's averaged mistakes
        :math:`x`, at most :math:`1/\\sqrt{N}`.
    updates_per_epoch : list of int
        The moves of :math:`w` in each round of the method, its epoch: each phase of
        perceptron passes (one for :func:`perceptron_separation`, one per stretch and a last
        one for :func:`rescaled_perceptron`), each iteration of :func:`smooth_perceptron` (a
        move towards all rows at once).
    """

    w: np.ndarray
    iterations: int
    converged: bool
    method: str
    rescalings: int = 0
    history: dict = field(default_factory=dict)
    updates_per_epoch: list[int] = field(default_factory=list)

    @property
    def b(self) -> float:
        """0: the separation problem :math:`A w > 0` has no bias."""
        return 0.0

    @property
    def epochs(self) -> int:
        """Rounds of the method (:attr:`updates_per_epoch`)."""
        return len(self.updates_per_epoch)


def cone_perceptron(A: np.ndarray, max_updates: int, counts: np.ndarray | None = None,
                     fast: bool = True) -> tuple[np.ndarray, int, bool]:
    """Cyclic passes of the homogeneous perceptron on the unit rows, from :math:`w = 0`, until
    a pass makes no update or at least ``max_updates`` updates are made (checked after each
    pass). Returns ``(w, updates, solved)``; ``counts[j]`` (if given) counts updates on row j.
    ``fast``: the same passes scanned ahead in numpy blocks (the twin, bit for bit).
    """
    if fast:  # core/fast/beyond_fast.py
        return _cone_passes(A, max_updates, counts)
    w = np.zeros(A.shape[1])
    updates = 0
    while updates < max_updates:  # the budget, checked after each pass
        made = 0
        for j, a in enumerate(A):
            if not a @ w > 0.0:  # a tie is a mistake
                w += a
                made += 1
                if counts is not None:
                    counts[j] += 1
        updates += made
        if made == 0:
            return w, updates, True
    return w, updates, bool(np.all(A @ w > 0))


def perceptron_separation(A, *, max_iterations: int = 1_000_000) -> SeparationRun:
    """The perceptron on the separation problem: cyclic passes over the unit rows.

    Update rule: :math:`w \\leftarrow w + a_j` whenever :math:`a_j^\\top w \\le 0`.
    Bound (Novikoff 1962): at most :math:`1/\\rho(A)^2` updates.
    The loop stops after the first pass that reaches ``max_iterations`` updates.

    Raises
    ------
    ValueError
        If ``A`` is not separable (no :math:`w` with :math:`A w > 0`, decided up front by a
        linear program): the loop could never stop.
    """
    w, updates, ok = cone_perceptron(A, max_iterations)
    return SeparationRun(w=w, iterations=updates, converged=ok, method="perceptron",
                         updates_per_epoch=[updates])


def softmin(scores: np.ndarray, mu: float) -> np.ndarray:
    """:math:`x_\\mu = \\arg\\min_{x \\in \\Delta} \\langle s, x\\rangle + \\mu \\sum_j x_j
    \\ln(n x_j)`, i.e. :math:`x_j \\propto e^{-s_j/\\mu}`."""
    z = np.exp(-(scores - scores.min()) / mu)
    return z / z.sum()


@validate_params(A=unit_rows("smooth_perceptron"))
def smooth_perceptron(A, *, max_iterations: int = 100_000) -> SeparationRun:
    """The smooth perceptron (Soheili & Peña 2012), with the entropy prox-function.

    Update rule: with :math:`x_\\mu(w) \\propto \\exp(-A w/\\mu)` on the simplex, start from
    :math:`w_0 = A^\\top \\mathbf 1/n`, :math:`\\mu_0 = 2`, :math:`x_0 = x_{\\mu_0}(w_0)`; for
    :math:`k = 0, 1, \\dots` stop if :math:`A w_k > 0`, else with
    :math:`\\theta_k = 2/(k + 3)`

    .. math:: w_{k+1} = (1 - \\theta_k)(w_k + \\theta_k A^\\top x_k) + \\theta_k^2 A^\\top
              x_{\\mu_k}(w_k), \\quad \\mu_{k+1} = (1 - \\theta_k)\\mu_k, \\quad
              x_{k+1} = (1 - \\theta_k) x_k + \\theta_k x_{\\mu_{k+1}}(w_{k+1}).

    The plain perceptron is the case "move towards the single most violated row"; here the
    move is towards a soft average of all rows, weighted by how violated they are, with
    Nesterov's acceleration.

    Bound (Soheili & Peña 2012, with the entropy prox as in Ramdas & Peña 2016): the iterates
    keep :math:`\\frac12\\|A^\\top x_k\\|^2 \\le \\mu_k \\ln n` while :math:`A w_k \\not> 0`, and
    :math:`\\|A^\\top x\\| \\ge \\rho` on the simplex, with
    :math:`\\mu_k = 4/((k+1)(k+2))`; so a solution is found within
    :math:`\\lceil 2\\sqrt{2\\ln n}/\\rho - 1\\rceil` iterations (:func:`smooth_bound`).

    Raises
    ------
    ValueError
        If ``A`` is not separable (no :math:`w` with :math:`A w > 0`), as
        :func:`perceptron_separation`.
    """
    A = as_unit_rows(A)  # the rows as unit float64 vectors
    n = A.shape[0]
    w = A.T @ np.full(n, 1.0 / n)
    mu = 2.0
    x = softmin(A @ w, mu)
    k = 0
    while True:
        scores = A @ w
        if np.all(scores > 0) or k >= max_iterations:
            return SeparationRun(w=w, iterations=k, converged=bool(np.all(scores > 0)),
                                 method="smooth", updates_per_epoch=[1] * k)
        theta = 2.0 / (k + 3)
        w = (1 - theta) * (w + theta * (A.T @ x)) + theta**2 * (A.T @ softmin(scores, mu))
        mu *= 1 - theta
        x = (1 - theta) * x + theta * softmin(A @ w, mu)
        k += 1


def _caratheodory(C: np.ndarray, x: np.ndarray) -> np.ndarray:
    """A point of the simplex with the same :math:`C^\\top x`, on at most :math:`m + 1` rows.

    While the support is larger, a null vector :math:`z` of :math:`[C_S^\\top; \\mathbf 1^\\top]`
    (which exists) moves :math:`x` without changing :math:`C^\\top x` or :math:`\\sum x` until a
    coordinate reaches 0 (Carathéodory's theorem).
    """
    x = x.copy()
    m = C.shape[1]
    while True:
        S = np.flatnonzero(x > 0)
        if S.size <= m + 1:
            return x / x.sum()
        z = np.linalg.svd(np.vstack([C[S].T, np.ones(S.size)]))[2][-1]
        z = z if np.any(z > 0) else -z
        ratios = np.where(z > 0, x[S] / np.where(z > 0, z, 1.0), np.inf)
        j = int(np.argmin(ratios))
        x[S] = np.maximum(x[S] - ratios[j] * z, 0.0)
        x[S[j]] = 0.0


@validate_params(A=unit_rows("rescaled_perceptron", square=True), phase=optional(count()))
def rescaled_perceptron(A, *, max_iterations: int = 1_000_000,
                        phase: int | None = None) -> SeparationRun:
    """The rescaled perceptron (Dunagan & Vempala 2008; deterministic, after Peña & Soheili
    2016): perceptron phases of :math:`N` updates; after a failed phase, stretch the space.

    Update rule: keep a matrix :math:`B` (first :math:`I`) and the rows :math:`c_j \\propto
    B^\\top a_j` (unit). A phase runs the perceptron on the :math:`c_j` from 0. If it solves
    :math:`C z > 0`, return :math:`w = B z`. Otherwise it made :math:`N' \\ge N` updates, so
    :math:`z = C^\\top x N'` with :math:`x` the share of each row among the mistakes, and
    :math:`\\|C^\\top x\\| \\le 1/\\sqrt{N'}`. Reduce :math:`x` to at most :math:`m + 1` rows
    (Carathéodory), take its heaviest row :math:`u = c_k` (:math:`x_k \\ge 1/(m+1)`): every
    solution :math:`z` then has :math:`0 \\le u^\\top z \\le (m+1)\\|z\\|/\\sqrt N`, a thin slab.
    Stretch along :math:`u`: :math:`B \\leftarrow B(I - \\frac12 uu^\\top)`,
    :math:`c_j \\leftarrow (I - \\frac12 uu^\\top) c_j` (renormalised).

    Bound: with :math:`N \\ge 3m(m+1)^2/\\ln 2` (:func:`phase_length`), each stretch
    multiplies the volume of the solution cone inside the unit ball by at least
    :math:`\\sqrt 2`; that volume starts at :math:`(\\rho/2)^m` of the ball's and never exceeds
    it, so there are at most :math:`2 m \\log_2(2/\\rho)` stretches, and at most
    :math:`(\\lfloor 2m\\log_2(2/\\rho)\\rfloor + 1)(N + n)` updates in all (a phase is checked
    after each pass, so it can overrun :math:`N` by less than :math:`n`):
    :func:`rescaled_bound`. This is the volume argument of the papers with this
    implementation's constants; Peña & Soheili's own bound is :math:`O(m^5 \\log(1/\\rho))`.

    Parameters
    ----------
    A : array-like, shape (n, m)
        Rows :math:`a_j`, nonzero (scaled to unit length here).
    max_iterations : int
        Bound on the perceptron updates over all phases.
    phase : int, optional
        :math:`N`; default :func:`phase_length` of :math:`m` (the bound needs at least that).

    Raises
    ------
    ValueError
        If ``A`` is not separable (no :math:`w` with :math:`A w > 0`), as
        :func:`perceptron_separation`, or has so many columns :math:`m` that the
        :math:`m \\times m` matrix :math:`B` exceeds the array limit.
    """
    A = as_unit_rows(A)  # the rows as unit float64 vectors
    n, m = A.shape
    phase = phase_length(m) if phase is None else phase
    B, C = np.eye(m), A.copy()
    total = rescalings = 0
    certificates: list[float] = []
    phases: list[int] = []  # the updates of each phase
    while True:
        counts = np.zeros(n)
        z, updates, ok = cone_perceptron(C, min(phase, max_iterations - total), counts)
        total += updates
        phases.append(updates)
        w = B @ z
        solved = ok and bool(np.all(A @ w > 0))
        if solved or total >= max_iterations:
            return SeparationRun(w=w, iterations=total, converged=solved, method="rescaled",
                                 rescalings=rescalings, history={"certificates": certificates},
                                 updates_per_epoch=phases)
        x = counts / counts.sum()
        certificates.append(float(np.linalg.norm(C.T @ x)))
        u = C[int(np.argmax(_caratheodory(C, x)))]  # the heaviest row of a thin slab
        C = C - 0.5 * np.outer(C @ u, u)  # stretch the space along u
        C /= np.sqrt((C * C).sum(1))[:, None]
        B = B - 0.5 * np.outer(B @ u, u)
        rescalings += 1
