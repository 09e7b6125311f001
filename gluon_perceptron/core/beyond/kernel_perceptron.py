r"""The perceptron in its dual form: kernels, the margin in feature space, and the Forgetron.

Started from :math:`w = 0`, every update adds :math:`\eta y_i x_i`, so the weights are always a
signed sum of the examples the rule erred on (Remark 1.39 of the lecture notes):

.. math:: w = \eta \sum_i \alpha_i y_i x_i, \qquad b = \eta \sum_i \alpha_i y_i,

with :math:`\alpha_i` the number of mistakes made on example :math:`i`. The rule only ever needs
inner products :math:`x_i^\top x_j`; replacing them by a kernel :math:`K(x_i, x_j) =
\langle \phi(x_i), \phi(x_j) \rangle` runs the perceptron in the feature space of
:math:`\phi` without computing :math:`\phi` (Aizerman, Braverman & Rozonoer 1964; Freund &
Schapire 1999). The bias is the weight of a constant feature 1, so it adds 1 to every kernel
value: :math:`f(x) = \eta \sum_i \alpha_i y_i (K(x_i, x) + 1)`.

Kernels (scikit-learn's conventions; ``gamma=None`` means :math:`1/d`):

- ``"linear"``: :math:`K(x, z) = x^\top z`;
- ``"poly"``: :math:`K(x, z) = (\gamma x^\top z + c_0)^{p}` (``degree`` :math:`p`, ``coef0``);
- ``"rbf"``: :math:`K(x, z) = \exp(-\gamma \|x - z\|^2)`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

import numpy as np
from mxnet import nd

from .. import _checks
from ..rosenblatt.engine import _FIRST_BLOCK, _scan_ahead
from ..theory.margins import OptimalMargin, optimal_margin

KERNELS = ("linear", "poly", "rbf")


@dataclass(frozen=True)
class KernelFunction:
    """A kernel and its parameters, already checked (``gamma`` resolved to a number)."""

    kind: str
    degree: int
    gamma: float
    coef0: float

    def matrix(self, A: np.ndarray, B: np.ndarray) -> np.ndarray:
        """:math:`K(a_i, b_j)` for all rows of ``A`` and ``B``, in float64."""
        A = A.astype(np.float64, copy=False)
        B = B.astype(np.float64, copy=False)
        if self.kind == "rbf":
            sq = (A * A).sum(1)[:, None] + (B * B).sum(1)[None, :] - 2.0 * A @ B.T
            return np.exp(-self.gamma * np.maximum(sq, 0.0))
        dots = A @ B.T
        if self.kind == "poly":
            return (self.gamma * dots + self.coef0) ** self.degree
        return dots

    def diagonal(self, A: np.ndarray) -> np.ndarray:
        """:math:`K(a_i, a_i)` for every row."""
        A = A.astype(np.float64, copy=False)
        if self.kind == "rbf":
            return np.ones(A.shape[0])
        sq = (A * A).sum(1)
        return (self.gamma * sq + self.coef0) ** self.degree if self.kind == "poly" else sq

    def ndarray_column(self, X: nd.NDArray, x: nd.NDArray) -> nd.NDArray:
        """:math:`K(x_i, x)` for every row of ``X``, computed in MXNet NDArray."""
        if self.kind == "rbf":
            diff = X - x.reshape((1, -1))
            return nd.exp(-self.gamma * nd.sum(diff * diff, axis=1))
        dots = nd.dot(X, x)
        if self.kind == "poly":
            return (self.gamma * dots + self.coef0) ** self.degree
        return dots


def _kernel(kernel, degree, gamma, coef0, dimensions: int) -> KernelFunction:
    """Check the kernel arguments once and resolve ``gamma=None`` to :math:`1/d`."""
    _checks.choice(kernel, "kernel", set(KERNELS))
    degree = _checks.positive_int(degree, "degree")
    gamma = 1.0 / dimensions if gamma is None else _checks.finite_float(
        gamma, "gamma", strictly_positive=True)
    coef0 = _checks.finite_float(coef0, "coef0")
    return KernelFunction(kernel, degree, gamma, coef0)


#: Largest Gram matrix the fast engine builds when the caller gives no ``max_gram_bytes``:
#: half the memory the system reports available (or 2 GiB when it cannot tell).
def _default_gram_limit() -> int:
    try:
        return int(os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // 2)
    except (ValueError, OSError, AttributeError):  # pragma: no cover - non-POSIX systems
        return 2 * 1024**3


def _check_gram_size(n: int, limit: int) -> None:
    size = 8 * n * n
    if size > limit:
        raise ValueError(
            f"the fast engine needs the n x n Gram matrix: n={n} examples take {size / 2**20:.1f}"
            f" MiB in float64, above the limit max_gram_bytes={limit} ({limit / 2**20:.1f} MiB);"
            f" use fewer examples, engine='faithful' (no Gram matrix, much slower), or raise "
            f"max_gram_bytes if the memory is there")


@dataclass
class KernelPerceptron:
    """A kernel perceptron in dual form: the mistakes it made, and the function they define.

    Attributes
    ----------
    alpha : ndarray of int, shape (n,)
        :math:`\\alpha_i`, the number of updates made on training example :math:`i`.
    updates_per_epoch : list of int
        Updates made in each pass.
    converged : bool
        True only if the last pass made no update (the training set is separated in feature
        space); False when the run stopped at ``max_epochs``.
    X, Y : ndarray
        The training examples and labels (the support vectors are the rows with
        :math:`\\alpha_i > 0`).
    kernel : KernelFunction
    learning_rate : float
    bias : bool
    """

    alpha: np.ndarray
    updates_per_epoch: list[int]
    converged: bool
    X: np.ndarray = field(repr=False)
    Y: np.ndarray = field(repr=False)
    kernel: KernelFunction
    learning_rate: float
    bias: bool

    @property
    def updates(self) -> int:
        """Total number of updates (mistakes, ties included): :math:`\\sum_i \\alpha_i`."""
        return int(self.alpha.sum())

    @property
    def epochs(self) -> int:
        return len(self.updates_per_epoch)

    @property
    def support(self) -> np.ndarray:
        """Indices of the examples with :math:`\\alpha_i > 0`."""
        return np.flatnonzero(self.alpha)

    @property
    def coefficients(self) -> np.ndarray:
        """:math:`\\eta \\alpha_i y_i`, the weight of :math:`\\phi(x_i)` in :math:`w`."""
        return self.learning_rate * self.alpha * self.Y.astype(np.float64)

    def decision_function(self, X) -> np.ndarray:
        """:math:`f(x) = \\eta \\sum_i \\alpha_i y_i (K(x_i, x) + [\\text{bias}])` per row."""
        Xn = _checks.features(X)
        if Xn.shape[1] != self.X.shape[1]:
            raise ValueError(f"X has {Xn.shape[1]} features but the perceptron was trained on "
                             f"{self.X.shape[1]}")
        s = self.support
        K = self.kernel.matrix(self.X[s], Xn) + (1.0 if self.bias else 0.0)
        return self.coefficients[s] @ K

    def predict(self, X) -> np.ndarray:
        """Labels :math:`\\operatorname{sign} f(x)`; a score of 0 gives -1, as ``predict``."""
        return np.where(self.decision_function(X) > 0, 1.0, -1.0)

    def primal_weights(self) -> tuple[np.ndarray, float]:
        """For the linear kernel, :math:`(w, b) = (\\eta \\sum_i \\alpha_i y_i x_i,\\;
        \\eta \\sum_i \\alpha_i y_i)`, the weights ``train`` would hold."""
        if self.kernel.kind != "linear":
            raise ValueError(f"primal weights exist only for kernel='linear' (this run used "
                             f"kernel={self.kernel.kind!r}, whose feature space is implicit)")
        c = self.coefficients
        return c @ self.X.astype(np.float64), float(c.sum()) if self.bias else 0.0


def _fast_epoch(G: np.ndarray, Y: np.ndarray, scores: np.ndarray, alpha: np.ndarray,
                eta: float) -> int:
    """One pass over the Gram matrix, keeping every example's score up to date.

    ``scores[j]`` is :math:`f(x_j)` under the current :math:`\\alpha`; an update on example
    :math:`k` adds :math:`\\eta y_k G_{kj}` to every score (O(n) per mistake, nothing per correct
    example). Between two updates the scores do not change, so the next mistake is the first
    :math:`j` at or after the current position with :math:`y_j f(x_j) \\le 0`, found by the
    engine's scan-ahead (:func:`~gluon_perceptron.core.rosenblatt.engine._scan_ahead`).
    """
    n = G.shape[0]
    i = updates = 0
    block = _FIRST_BLOCK

    def mistakes(a: int, z: int) -> np.ndarray:  # reads scores as the updates leave them
        return Y[a:z] * scores[a:z] <= 0.0

    while True:
        k, block = _scan_ahead(mistakes, i, n, block)
        if k == n:
            return updates
        alpha[k] += 1
        scores += (eta * Y[k]) * G[k]
        updates += 1
        i = k + 1


def _faithful_epoch(Xd: nd.NDArray, Yd: nd.NDArray, Y: np.ndarray, coef: nd.NDArray,
                    alpha: np.ndarray, kern: KernelFunction, eta: float, bias: float) -> int:
    """One pass of the dual rule in NDArray, one example at a time, as the chapter would.

    For example :math:`j`: :math:`f = \\sum_i c_i (K(x_i, x_j) + \\text{bias})` with
    :math:`c_i = \\eta \\alpha_i y_i`; on :math:`y_j f \\le 0`, :math:`\\alpha_j \\mathrel{+}= 1`.
    """
    updates = 0
    for j in range(Xd.shape[0]):
        column = kern.ndarray_column(Xd, Xd[j]) + bias
        f = nd.dot(coef, column).asscalar()
        if Y[j] * f <= 0.0:
            alpha[j] += 1
            coef[j] += eta * Yd[j]
            updates += 1
    return updates


def train_kernel(X, Y, *, max_epochs: int, kernel: str = "linear", degree: int = 3,
                 gamma: float | None = None, coef0: float = 1.0, learning_rate: float = 1.0,
                 bias: bool = True, engine: str = "fast",
                 max_gram_bytes: int | None = None) -> KernelPerceptron:
    """Train the kernel perceptron in dual form, in data order, until a pass makes no update.

    Update rule: with :math:`f(x) = \\eta \\sum_i \\alpha_i y_i (K(x_i, x) + 1)` (the 1 is the
    bias's constant feature; drop it with ``bias=False``), for each example in turn, if
    :math:`y_j f(x_j) \\le 0` then :math:`\\alpha_j \\leftarrow \\alpha_j + 1`. With
    ``kernel="linear"`` this is ``train``'s rule written in the coefficients of
    :math:`w = \\eta \\sum_i \\alpha_i y_i x_i`, :math:`b = \\eta \\sum_i \\alpha_i y_i`:
    the same mistakes, the same weights.

    Bound (Novikoff's theorem in the feature space, Freund & Schapire 1999): if some unit
    :math:`\\theta` in feature space has :math:`y_i \\langle \\theta, \\tilde\\phi(x_i)\\rangle
    \\ge \\gamma > 0` for all :math:`i`, with :math:`\\tilde\\phi = (\\phi, 1)`, the rule makes at
    most :math:`R^2/\\gamma^2` updates, :math:`R^2 = \\max_i (K(x_i, x_i) + 1)`, in any number of
    passes. :func:`feature_margin` measures :math:`R` and :math:`\\gamma`.

    Parameters
    ----------
    X : array-like or NDArray, shape (n, d)
    Y : array-like or NDArray, shape (n,)
        Labels in {-1, +1}.
    max_epochs : int
        Bound on the passes; ``converged=False`` reports hitting it.
    kernel : {"linear", "poly", "rbf"}
    degree, gamma, coef0 : int, float or None, float
        Kernel parameters (see the module docstring); ``gamma=None`` is :math:`1/d`.
    learning_rate : float
        :math:`\\eta > 0` (it scales :math:`f` and never changes a decision from :math:`0`).
    bias : bool
        Add the constant feature (``train`` always has a bias).
    engine : {"fast", "faithful"}
        ``"faithful"``: MXNet NDArray, one example at a time, :math:`f(x_j)` recomputed from all
        :math:`\\alpha`. ``"fast"``: numpy over the precomputed Gram matrix, every score kept up
        to date (same decisions: see below).
    max_gram_bytes : int, optional
        Largest Gram matrix the fast engine may build (default: half the available memory);
        a larger one is refused with its size, instead of swapping or crashing.

    Returns
    -------
    KernelPerceptron

    Notes
    -----
    The engines sum :math:`f(x_j)` in different orders (all at once, or one update at a time),
    as ``train``'s primal weights do: decisions can only differ for a score within rounding
    error of 0. They never do when every sum is exact, for example on data with few binary
    digits (tested bit for bit against ``train``).
    """
    Xn, Yn = _checks.dataset(X, Y)
    max_epochs = _checks.positive_int(max_epochs, "max_epochs")
    learning_rate = _checks.finite_float(learning_rate, "learning_rate", strictly_positive=True)
    _checks.choice(engine, "engine", {"fast", "faithful"})
    kern = _kernel(kernel, degree, gamma, coef0, Xn.shape[1])
    limit = _default_gram_limit() if max_gram_bytes is None else _checks.positive_int(
        max_gram_bytes, "max_gram_bytes")
    return _train_kernel(Xn, Yn.astype(np.float64), max_epochs, kern, learning_rate,
                         bool(bias), engine, limit)


def _train_kernel(X, Y, max_epochs, kern, eta, bias, engine, limit) -> KernelPerceptron:
    n = X.shape[0]
    alpha = np.zeros(n, dtype=np.int64)
    per_epoch: list[int] = []
    extra = 1.0 if bias else 0.0
    if engine == "fast":
        _check_gram_size(n, limit)
        G = kern.matrix(X, X) + extra
        scores = np.zeros(n)
        while len(per_epoch) < max_epochs and (not per_epoch or per_epoch[-1] > 0):
            per_epoch.append(_fast_epoch(G, Y, scores, alpha, eta))
    else:
        Xd = nd.array(X, dtype=np.float64)
        Yd = nd.array(Y, dtype=np.float64)
        coef = nd.zeros(n, dtype=np.float64)
        while len(per_epoch) < max_epochs and (not per_epoch or per_epoch[-1] > 0):
            per_epoch.append(_faithful_epoch(Xd, Yd, Y, coef, alpha, kern, eta, extra))
    return KernelPerceptron(alpha=alpha, updates_per_epoch=per_epoch,
                            converged=per_epoch[-1] == 0, X=X, Y=Y, kernel=kern,
                            learning_rate=eta, bias=bias)


@dataclass
class FeatureMargin:
    """The hard margin of a labelled set in a kernel's feature space.

    Attributes
    ----------
    gamma : float
        The margin :math:`\\gamma` achieved by the unit separator found (the optimum up to the
        solver's accuracy, never above what that separator achieves), so :math:`R^2/\\gamma^2`
        is a valid mistake bound.
    radius : float
        :math:`R = \\max_i \\|\\tilde\\phi(x_i)\\| = \\max_i \\sqrt{K(x_i, x_i) + 1}` (no +1
        without bias).
    support : ndarray of int
        Examples on the margin (within a relative 1e-6): the support vectors.
    """

    gamma: float
    radius: float
    support: np.ndarray

    @property
    def bound(self) -> float:
        """Novikoff's bound in feature space, :math:`R^2 / \\gamma^2`."""
        return self.radius**2 / self.gamma**2


def _feature_rows(G: np.ndarray, Y: np.ndarray) -> np.ndarray:
    """Rows :math:`\\Phi` with :math:`\\Phi\\Phi^\\top = (y_i y_j G_{ij})`: the signed examples
    in the span of the feature space they occupy (eigenvectors of the signed Gram matrix,
    eigenvalues below :math:`10^{-12}` of the largest dropped)."""
    e, V = np.linalg.eigh(Y[:, None] * G * Y[None, :])
    keep = e > 1e-12 * e.max()
    return V[:, keep] * np.sqrt(e[keep])


def _hard_margin(G: np.ndarray, Y: np.ndarray) -> OptimalMargin | None:
    """The hard margin in feature space, or None if the set is not separable there.

    Solved as :func:`~gluon_perceptron.optimal_margin` (linear program, then SLSQP) on the rows
    of :func:`_feature_rows`; the margin returned is the one its unit separator achieves.
    """
    Phi = _feature_rows(G, Y)
    try:
        return optimal_margin(Phi, np.ones(len(Y)), bias=False)
    except ValueError:
        return None


def feature_margin(X, Y, *, kernel: str = "linear", degree: int = 3,
                   gamma: float | None = None, coef0: float = 1.0,
                   bias: bool = True) -> FeatureMargin:
    """The radius and the hard margin of ``(X, Y)`` in the kernel's feature space.

    The signed Gram matrix :math:`(y_i y_j (K(x_i, x_j) + 1))` is factored as
    :math:`\\Phi\\Phi^\\top`; its rows are the examples in coordinates of the feature space they
    span, where the hard-margin problem (the whole :math:`(w, b)` penalised, as in the
    perceptron's bound) is solved like :func:`~gluon_perceptron.optimal_margin`.

    Raises
    ------
    ValueError
        If the set is not separable in that feature space (e.g. XOR with the linear kernel).
    """
    Xn, Yn = _checks.dataset(X, Y)
    kern = _kernel(kernel, degree, gamma, coef0, Xn.shape[1])
    extra = 1.0 if bias else 0.0
    G = kern.matrix(Xn, Xn) + extra
    solved = _hard_margin(G, Yn.astype(np.float64))
    if solved is None:
        raise ValueError(f"the data is not separable in the feature space of kernel={kernel!r}:"
                         f" no positive margin exists; try kernel='rbf' or 'poly'")
    radius = float(np.sqrt(np.max(kern.diagonal(Xn) + extra)))
    return FeatureMargin(gamma=solved.gamma, radius=radius, support=solved.support)


@dataclass
class ForgetronRun:
    """One online pass of the Forgetron over a stream.

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
    """

    mistakes: int
    mistake_at: np.ndarray
    active: np.ndarray
    sigma: np.ndarray
    removals: int
    shrink: np.ndarray
    budget: int


def _shrink_factor(lam: float, mu: float, room: float) -> float:
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
    Xn, Yn = _checks.dataset(X, Y)
    budget = _checks.positive_int(budget, "budget")
    kern = _kernel(kernel, degree, gamma, coef0, Xn.shape[1])
    return _forgetron(Xn.astype(np.float64), Yn.astype(np.float64), budget, kern)


def _forgetron(X, Y, budget, kern) -> ForgetronRun:
    n = X.shape[0]
    active: list[int] = []   # oldest first
    sigma: list[float] = []
    mistakes, Q = 0, 0.0
    at, shrinks = [], []
    for t in range(n):
        if active:
            k = kern.matrix(X[active], X[t:t + 1])[:, 0]
            f = float(np.dot(np.asarray(sigma) * Y[active], k))
        else:
            f = 0.0
        if Y[t] * f > 0.0:
            continue
        mistakes += 1
        at.append(t)
        active.append(t)
        sigma.append(1.0)
        if len(active) <= budget:
            continue
        r = active[0]
        lam = sigma[0]
        kr = kern.matrix(X[active], X[r:r + 1])[:, 0]
        mu = Y[r] * float(np.dot(np.asarray(sigma) * Y[active], kr))
        phi = _shrink_factor(lam, mu, 15.0 / 32.0 * mistakes - Q)
        Q += (lam * phi) ** 2 + 2.0 * lam * phi * (1.0 - phi * mu)
        shrinks.append(phi)
        sigma = [phi * s for s in sigma[1:]]
        active = active[1:]
    return ForgetronRun(mistakes=mistakes, mistake_at=np.array(at, dtype=np.int64),
                        active=np.array(active, dtype=np.int64), sigma=np.array(sigma),
                        removals=len(shrinks), shrink=np.array(shrinks), budget=budget)


def forgetron_radius(budget: int) -> float:
    """:math:`U = \\frac14 \\sqrt{(B + 1) / \\ln(B + 1)}`, the norm the Forgetron's
    guarantee allows its competitor :math:`g` (Dekel et al. 2008)."""
    budget = _checks.positive_int(budget, "budget")
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
    Xn, Yn = _checks.dataset(X, Y)
    budget = _checks.positive_int(budget, "budget")
    kern = _kernel(kernel, degree, gamma, coef0, Xn.shape[1])
    return _forgetron_bound(Xn, Yn.astype(np.float64), budget, kern)


def _forgetron_bound(X, Y, budget, kern) -> float:
    if budget < 83 or np.max(kern.diagonal(X)) > 1.0 + 1e-12:
        return float("inf")
    U = 0.25 * np.sqrt((budget + 1) / np.log(budget + 1))
    G = kern.matrix(X, X)
    margins = U * Y * (G @ Y) / np.sqrt(max(float(Y @ G @ Y), 1e-300))
    return float(2.0 * U * U + 4.0 * np.maximum(0.0, 1.0 - margins).sum())
