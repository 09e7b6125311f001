r"""The perceptron in its dual form: kernels, and the margin in feature space.

Started from :math:`w = 0`, every update adds :math:`\eta y_i x_i`, so the weights are always a
signed sum of the examples the rule erred on (Remark 1.39 of the lecture notes):

.. math:: w = \eta \sum_i \alpha_i y_i x_i, \qquad b = \eta \sum_i \alpha_i y_i,

with :math:`\alpha_i` the number of mistakes made on example :math:`i`. The rule only ever needs
inner products :math:`x_i^\top x_j`; replacing them by a kernel :math:`K(x_i, x_j) =
\langle \phi(x_i), \phi(x_j) \rangle` runs the perceptron in the feature space of
:math:`\phi` without computing :math:`\phi` (Aizerman, Braverman & Rozonoer 1964; Freund &
Schapire 1999). The bias is the weight of a constant feature 1, so it adds 1 to every kernel
value: :math:`f(x) = \eta \sum_i \alpha_i y_i (K(x_i, x) + 1)`.

The kernels are in :mod:`.kernels`.

The Forgetron, a kernel perceptron on a budget, is in :mod:`.budget`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

import mxnet as mx
import numpy as np
from mxnet import nd

from .. import _checks
from .._arrays import _guard, _overflow
from .._convert import as_features, as_labels
from .._validation import (
    Rule,
    validate_params,
)
from ..fast.beyond_fast import _fast_epoch, _gram_passes  # noqa: F401 (notebook 13 shows both)
from ..theory.margins import OptimalMargin, optimal_margin
from .kernels import KERNEL_RULES, KernelFunction, _kernel

#: Peak memory of building the Gram matrix, in n x n float64 matrices, per kernel.
GRAM_PEAK = {"linear": 1, "poly": 1, "rbf": 2}


def _available_memory() -> int:
    """Bytes this process can still allocate: the system's ``MemAvailable``
    (``/proc/meminfo``; free pages where there is none) and, under an address-space limit
    (``ulimit -v``, ``RLIMIT_AS``), what is left of it."""
    available = None
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    available = int(line.split()[1]) * 1024
                    break
    except (OSError, ValueError):  # pragma: no cover - not Linux
        pass
    if available is None:  # pragma: no cover - not Linux
        try:
            available = os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
        except (ValueError, OSError, AttributeError):
            available = 2 * 1024**3
    try:
        import resource
        soft = resource.getrlimit(resource.RLIMIT_AS)[0]
        if soft != resource.RLIM_INFINITY:
            with open("/proc/self/statm") as f:
                used = int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
            available = min(available, max(soft - used, 0))
    except (ImportError, OSError, ValueError):  # pragma: no cover - not POSIX
        pass
    return int(available)


def _check_gram_size(n: int, kind: str, limit: int | None) -> None:
    """Refuse, before building it, a Gram matrix whose peak memory (:data:`GRAM_PEAK`) is above
    ``limit`` (default: the memory this process can still allocate)."""
    size = 8 * n * n
    peak = GRAM_PEAK[kind] * size
    room = "this process can still allocate" if limit is None else "max_gram_bytes allows"
    limit = _available_memory() if limit is None else limit
    if peak > limit:
        raise ValueError(
            f"the fast engine needs the n x n Gram matrix: n={n} examples take {size / 2**20:.1f}"
            f" MiB in float64 and kernel={kind!r} peaks at {peak / 2**20:.1f} MiB while building "
            f"it, more than the {limit / 2**20:.1f} MiB {room} (max_gram_bytes={limit}); use "
            f"fewer examples, engine='faithful' (no Gram matrix, much slower), or free memory "
            f"(a larger max_gram_bytes sets a larger limit, at your risk)")


@dataclass
class KernelPerceptron:
    """A kernel perceptron in dual form: the mistakes it made, and the function they define.

    Its dual form is :math:`w = \\eta \\sum_i \\alpha_i y_i \\phi(x_i)` in the kernel's feature
    space; ``w`` and ``b`` give it as numbers where it has some, for ``kernel="linear"`` (the
    weights ``train`` would hold), and raise AttributeError for the other kernels, whose
    feature space is implicit (use :meth:`decision_function`).

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
    def w(self) -> np.ndarray:
        """The primal weights :math:`\\eta \\sum_i \\alpha_i y_i x_i` (linear kernel only)."""
        return self._primal()[0]

    @property
    def b(self) -> float:
        """The primal bias :math:`\\eta \\sum_i \\alpha_i y_i` (0 without ``bias``; linear
        kernel only)."""
        return self._primal()[1]

    def _primal(self) -> tuple[np.ndarray, float]:
        try:
            return self.primal_weights()
        except ValueError as exc:
            raise AttributeError(f"{exc}: the run is in dual form (alpha, support, "
                                 f"decision_function)") from None

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
        with np.errstate(over="ignore", invalid="ignore"):  # refused just below
            K = self.kernel.matrix(self.X[s], Xn) + (1.0 if self.bias else 0.0)
            scores = self.coefficients[s] @ K
        if not np.isfinite(scores).all():
            raise _overflow("the scores f(x) of decision_function", np.float64)
        return scores

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


def _gram_limit(value, name: str, args: dict) -> int | None:
    """``max_gram_bytes``: None or a count; for the fast engine, the Gram matrix of ``X`` with
    ``kernel`` must fit it (:func:`_check_gram_size`)."""
    value = None if value is None else _checks.positive_int(value, name, maximum=2**62)
    if args["engine"] == "fast":
        _check_gram_size(args["X"].shape[0], args["kernel"], value)
    return value


@validate_params(**KERNEL_RULES,
                 max_gram_bytes=Rule(_gram_limit, "Gram matrix fits", ("X", "kernel", "engine")))
def train_kernel(X, Y, *, max_epochs: int, kernel: str = "linear", degree: int = 3,
                 gamma: float | None = None, coef0: float = 1.0, learning_rate: float = 1.0,
                 bias: bool = True, engine: str = "fast", max_gram_bytes: int | None = None,
                 ctx: mx.Context | None = None) -> KernelPerceptron:
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
        Most memory the fast engine may use to build the Gram matrix (one n x n float64
        matrix for the linear and polynomial kernels, two at the peak for the Gaussian one).
        Default: the memory this process can still allocate (``MemAvailable``, and what an
        address-space limit ``ulimit -v`` leaves). A larger need is refused with its size
        before anything is built, instead of swapping or ending in a MemoryError.
    ctx : mx.Context, optional
        Where the faithful engine's NDArrays live (default ``mx.cpu()``).

    Returns
    -------
    KernelPerceptron

    Raises
    ------
    ValueError
        When a score :math:`f(x_j)` overflows to inf or NaN (scale the data down), as ``train``.

    Notes
    -----
    The engines sum :math:`f(x_j)` in different orders (all at once, or one update at a time),
    as ``train``'s primal weights do: decisions can only differ for a score within rounding
    error of 0. They never do when every sum is exact, for example on data with few binary
    digits (tested bit for bit against ``train``).
    """
    X, Y = as_features(X), as_labels(Y)  # the arguments as arrays (Y in float64)
    kern = _kernel(kernel, degree, gamma, coef0, X.shape[1])
    alpha = np.zeros(X.shape[0], dtype=np.int64)  # alpha_i: the updates made on example i
    extra = 1.0 if bias else 0.0  # K(x_i, x) + 1: the bias's constant feature
    if engine == "fast":  # the same rule over the Gram matrix, vectorised (fast/beyond_fast.py)
        per_epoch = _gram_passes(X, Y, kern, extra, alpha, learning_rate, max_epochs)
    else:  # one example at a time in NDArray, f(x_j) from all the alphas
        ctx = mx.cpu() if ctx is None else ctx  # a nested call that left ctx at its default
        Xd = nd.array(X, dtype=np.float64, ctx=ctx)
        Yd = nd.array(Y, dtype=np.float64, ctx=ctx)
        coef = nd.zeros(X.shape[0], dtype=np.float64, ctx=ctx)  # eta alpha_i y_i
        per_epoch = []
        for epoch in range(1, max_epochs + 1):  # the epoch budget
            updates = 0
            for j in range(X.shape[0]):
                f = nd.dot(coef, kern.ndarray_column(Xd, Xd[j]) + extra).asscalar()
                _guard(epoch, margins=f)  # the overflow guard
                if Y[j] * f <= 0.0:
                    alpha[j] += 1
                    coef[j] += learning_rate * Yd[j]
                    updates += 1
            per_epoch.append(updates)
            if updates == 0:
                break
    return KernelPerceptron(alpha=alpha, updates_per_epoch=per_epoch,
                            converged=per_epoch[-1] == 0, X=X, Y=Y, kernel=kern,
                            learning_rate=learning_rate, bias=bias)


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


@validate_params(**KERNEL_RULES)
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
    X, Y = as_features(X), as_labels(Y)  # the arguments as arrays (Y in float64)
    kern = _kernel(kernel, degree, gamma, coef0, X.shape[1])
    extra = 1.0 if bias else 0.0
    with np.errstate(over="ignore", invalid="ignore"):  # refused just below
        G = kern.matrix(X, X) + extra
    if not np.isfinite(G).all():
        raise ValueError(f"X is too large for kernel={kernel!r}: the kernel values K(x_i, x_j) "
                         f"overflow float64 (largest {np.finfo(np.float64).max:.3g}); scale X "
                         f"down (e.g. divide it by np.abs(X).max())")
    solved = _hard_margin(G, Y)
    if solved is None:
        raise ValueError(f"the data is not separable in the feature space of kernel={kernel!r}:"
                         f" no positive margin exists; try kernel='rbf' or 'poly'")
    radius = float(np.sqrt(np.max(kern.diagonal(X) + extra)))
    return FeatureMargin(gamma=solved.gamma, radius=radius, support=solved.support)
