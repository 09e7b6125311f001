r"""The Forgetron (Dekel, Shalev-Shwartz & Singer 2008): a kernel perceptron on a budget of
support vectors, its shrinking factor and its mistake bound."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .._arrays import SCALE, _overflow
from .._convert import as_features, as_labels
from .._validation import count, validate_params
from .kernels import KERNEL_RULES, KernelFunction, _kernel


@dataclass
class ForgetronRun:
    """One online pass of the Forgetron over a stream.

    Its dual form is :math:`w = \\sum_{i \\in I} \\sigma_i y_i \\phi(x_i)` over the active set
    :math:`I`; ``w`` gives it as numbers for ``kernel="linear"`` and raises AttributeError for
    the other kernels, whose feature space is implicit. There is no bias (``b`` is 0). Its one
    pass is its one epoch: every mistake is an update, so ``updates_per_epoch`` is
    ``[mistakes]`` and ``converged`` says the pass made none.

    Attributes
    ----------
    mistakes : int
        :math:`M`, prediction mistakes (ties :math:`y f(x) = 0` included).
    mistake_at : ndarray of int
        The time steps of the mistakes.
    active : ndarray of int
        Indices (into the stream) of the support vectors kept at the end, oldest first.
    sigma : ndarray
        Their coefficients :math:`\\sigma_i` (products of the shrinking factors).
    removals : int
        Support vectors forgotten.
    shrink : ndarray
        :math:`\\phi_t` at every removal.
    budget : int
    X, Y : ndarray
        The stream.
    kernel : KernelFunction
    """

    mistakes: int
    mistake_at: np.ndarray
    active: np.ndarray
    sigma: np.ndarray
    removals: int
    shrink: np.ndarray
    budget: int
    X: np.ndarray = field(repr=False)
    Y: np.ndarray = field(repr=False)
    kernel: KernelFunction

    @property
    def w(self) -> np.ndarray:
        """:math:`\\sum_{i \\in I} \\sigma_i y_i x_i` (linear kernel only)."""
        if self.kernel.kind != "linear":
            raise AttributeError(f"w exists as numbers only for kernel='linear' (this run used "
                                 f"kernel={self.kernel.kind!r}): the run is in dual form "
                                 f"(active, sigma)")
        return (self.sigma * self.Y[self.active]) @ self.X[self.active]

    @property
    def b(self) -> float:
        """0: the Forgetron has no bias."""
        return 0.0

    @property
    def updates_per_epoch(self) -> list[int]:
        """``[mistakes]``: one pass, one update per mistake."""
        return [self.mistakes]

    @property
    def converged(self) -> bool:
        """True only if the pass made no mistake."""
        return self.mistakes == 0

    @property
    def epochs(self) -> int:
        """1: one online pass."""
        return 1


def shrink_factor(lam: float, mu: float, room: float) -> float:
    """Largest :math:`\\phi \\in (0, 1]` with :math:`\\Psi(\\lambda, \\phi, \\mu) \\le`
    ``room``, where :math:`\\Psi = (\\lambda\\phi)^2 + 2\\lambda\\phi(1 - \\phi\\mu)`.

    :math:`\\Psi = a\\phi^2 + 2\\lambda\\phi` with :math:`a = \\lambda^2 - 2\\lambda\\mu`; when
    :math:`\\Psi(1) >` ``room`` the answer is the smaller root of :math:`\\Psi = ` ``room``,
    written as :math:`\\text{room} / (\\lambda + \\sqrt{\\lambda^2 + a\\,\\text{room}})` to stay
    accurate for every sign of :math:`a`.
    """
    a = lam * lam - 2.0 * lam * mu
    if a + 2.0 * lam <= room:
        return 1.0
    return room / (lam + np.sqrt(max(lam * lam + a * room, 0.0)))


@validate_params(budget=count(), **KERNEL_RULES)
def forgetron(X, Y, *, budget: int, kernel: str = "rbf", degree: int = 3,
              gamma: float | None = None, coef0: float = 1.0) -> ForgetronRun:
    """The self-tuned Forgetron (Dekel, Shalev-Shwartz & Singer 2008): a kernel perceptron
    that never holds more than ``budget`` support vectors, in one online pass over a stream.

    Update rule: predict with :math:`f_t = \\sum_{i \\in I_t} \\sigma_i y_i K(x_i, \\cdot)`. On
    a mistake, :math:`y_t f_t(x_t) \\le 0` (:math:`M \\mathrel{+}= 1`):

    1. perceptron step: add :math:`t` to the active set with :math:`\\sigma_t = 1`;
    2. if the active set now exceeds :math:`B`: let :math:`r` be its oldest member,
       :math:`\\lambda = \\sigma_r`, :math:`\\mu = y_r f'_t(x_r)` under the function after step
       1; shrink every coefficient by the largest :math:`\\phi_t \\in (0, 1]` with
       :math:`\\Psi(\\lambda, \\phi_t, \\mu) + Q \\le \\tfrac{15}{32} M`, where
       :math:`\\Psi(\\lambda, \\phi, \\mu) = (\\lambda\\phi)^2 + 2\\lambda\\phi(1 - \\phi\\mu)`,
       then :math:`Q \\mathrel{+}= \\Psi(\\lambda, \\phi_t, \\mu)`;
    3. remove :math:`r`.

    Bound (Dekel et al. 2008, Theorem 2): if :math:`K(x, x) \\le 1` on the stream and
    :math:`B \\ge 83`, then for every :math:`g` in the kernel's space with
    :math:`\\|g\\| \\le U = \\frac14 \\sqrt{(B + 1)/\\ln(B + 1)}`,

    .. math:: M \\le 2\\|g\\|^2 + 4 \\sum_t \\max(0, 1 - y_t g(x_t)).

    :func:`forgetron_bound` evaluates the right-hand side. There is no bias (it would make
    :math:`K(x, x) = 2` for the Gaussian kernel); the Gaussian kernel has :math:`K(x, x) = 1`.

    Parameters
    ----------
    X, Y : array-like, the stream in order
    budget : int
        :math:`B \\ge 1`, the most support vectors kept.
    kernel, degree, gamma, coef0
        As in :func:`train_kernel`; default the Gaussian kernel.

    Returns
    -------
    ForgetronRun
    """
    X, Y = as_features(X, np.float64), as_labels(Y)  # the arguments as float64 arrays
    kern = _kernel(kernel, degree, gamma, coef0, X.shape[1])
    active: list[int] = []   # the support vectors, oldest first
    sigma: list[float] = []  # their coefficients
    mistakes, Q = 0, 0.0
    at, shrinks = [], []
    for t in range(X.shape[0]):  # one online pass over the stream
        f = _score(kern, X, Y, active, sigma, t)
        _refuse_nan(f, f"the score f(x_{t}) of example {t}")  # the overflow guard
        if Y[t] * f > 0.0:
            continue
        mistakes += 1  # 1. the perceptron step
        at.append(t)
        active.append(t)
        sigma.append(1.0)
        if len(active) <= budget:
            continue
        r, lam = active[0], sigma[0]  # 2. shrink, then 3. forget the oldest
        mu = Y[r] * _score(kern, X, Y, active, sigma, r)
        _refuse_nan(mu, f"the score f(x_{r}) of the removed example {r}")
        phi = shrink_factor(lam, mu, 15.0 / 32.0 * mistakes - Q)
        Q += (lam * phi) ** 2 + 2.0 * lam * phi * (1.0 - phi * mu)
        shrinks.append(phi)
        sigma = [phi * s for s in sigma[1:]]
        active = active[1:]
    return ForgetronRun(mistakes=mistakes, mistake_at=np.array(at, dtype=np.int64),
                        active=np.array(active, dtype=np.int64), sigma=np.array(sigma),
                        removals=len(shrinks), shrink=np.array(shrinks), budget=budget,
                        X=X, Y=Y, kernel=kern)


def _score(kern, X: np.ndarray, Y: np.ndarray, active: list[int], sigma: list[float],
           t: int) -> float:
    """:math:`f(x_t) = \\sum_{i \\in I} \\sigma_i y_i K(x_i, x_t)` over the active set (0 when
    it is empty)."""
    if not active:
        return 0.0
    return float(np.dot(np.asarray(sigma) * Y[active], kern.matrix(X[active], X[t:t + 1])[:, 0]))


def _refuse_nan(value: float, what: str) -> None:
    """The Forgetron's overflow guard: refuse a score that left the floats."""
    if not np.isfinite(value):
        raise _overflow(what, np.float64, SCALE)


def forgetron_radius(budget: int) -> float:
    """:math:`U = \\frac14 \\sqrt{(B + 1) / \\ln(B + 1)}`, the norm the Forgetron's
    guarantee allows its competitor :math:`g` (Dekel et al. 2008)."""
    return 0.25 * np.sqrt((budget + 1) / np.log(budget + 1))


def forgetron_bound(X, Y, *, budget: int, kernel: str = "rbf", degree: int = 3,
                    gamma: float | None = None, coef0: float = 1.0) -> float:
    """The Forgetron's mistake bound :math:`2\\|g\\|^2 + 4 \\sum_t \\max(0, 1 - y_t g(x_t))`
    for the competitor :math:`g = U \\theta`: :math:`U` from :func:`forgetron_radius` (the
    largest norm the theorem allows) and :math:`\\theta \\propto \\sum_t y_t \\phi(x_t)`, the
    difference of the two classes' sums in feature space (no bias), made unit.

    Any :math:`g` with :math:`\\|g\\| \\le U` gives a valid bound. Returns ``inf`` where the
    theorem does not apply (:math:`B < 83`, or some :math:`K(x, x) > 1`).
    """
    Y = Y.astype(np.float64)
    kern = _kernel(kernel, degree, gamma, coef0, X.shape[1])
    if budget < 83 or np.max(kern.diagonal(X)) > 1.0 + 1e-12:
        return float("inf")
    U = forgetron_radius(budget)
    G = kern.matrix(X, X)
    margins = U * Y * (G @ Y) / np.sqrt(max(float(Y @ G @ Y), 1e-300))
    return float(2.0 * U * U + 4.0 * np.maximum(0.0, 1.0 - margins).sum())
