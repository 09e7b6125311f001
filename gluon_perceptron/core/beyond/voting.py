r"""The voted perceptron (Freund & Schapire 1999), in its primal and its kernel (dual) form.

The plain rule keeps only its last weights. The voted perceptron keeps every weight vector
:math:`v_1 = 0, v_2, \dots, v_{k+1}` the rule went through, each with its survival count
:math:`c_m`, the number of examples it saw while it lasted, and predicts by their weighted
vote:

.. math:: \hat y(x) = \operatorname{sign}\Big(\sum_{m} c_m \operatorname{sign}(v_m^\top x)
          \Big).

Theorem (Freund & Schapire 1999, Corollary 1): on a separable distribution, trained on
:math:`m` examples in one pass and tested on one more, :math:`\Pr[\text{error}] \le
\frac{2}{m + 1} \mathbb E\big[(R/\gamma)^2\big]` (the expectation over the :math:`m + 1`
draws; :func:`voted_bound` evaluates it). The averaged predictor
:math:`\operatorname{sign}(\sum_m c_m v_m^\top x)` is the same list averaged before the sign
(:func:`~gluon_perceptron.core.rosenblatt.variants.train_averaged`'s weights).

With a kernel, :math:`v_m^\top \phi(x) = \sum_{j < m} y_{i_j} K(x_{i_j}, x)` over the
examples :math:`i_j` of the first mistakes, so the vote needs only the mistakes' rows:
:func:`train_voted_kernel`. With the bias, every example is padded with a constant 1 (its
kernel value gains 1).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from .._convert import as_features, as_labels
from .._validation import features_for, instance, one_of, validate_params
from ..fast.family_fast import _dot, _voted_kernel_pass, _voted_pass
from ..rosenblatt.engine import _drive, _guard, _use_compiled
from .kernels import KERNEL_RULES, KernelFunction, _kernel


@dataclass
class VotedPerceptron:
    """The weights a perceptron went through and how long each lasted.

    Attributes
    ----------
    weights : ndarray, shape (k + 1, d)
        :math:`v_1 = 0, \\dots, v_{k+1}`: the weights after each of the :math:`k` mistakes.
    biases : ndarray, shape (k + 1,)
        Their biases (all 0 without ``bias``).
    counts : ndarray of int, shape (k + 1,)
        :math:`c_m`, the visits each weight vector survived (:math:`c_1 = 0`: the zero vector
        errs at once, by the tie rule).
    updates_per_epoch : list of int
        Mistakes (ties :math:`y (v^\\top x + b) = 0` included) in each pass.
    converged : bool
        True only if the last pass made no mistake.
    """

    weights: np.ndarray
    biases: np.ndarray
    counts: np.ndarray
    updates_per_epoch: list[int]
    converged: bool

    @property
    def w(self) -> np.ndarray:
        """The last weights, :math:`v_{k+1}` (the plain perceptron's)."""
        return self.weights[-1]

    @property
    def b(self) -> float:
        return float(self.biases[-1])

    @property
    def epochs(self) -> int:
        return len(self.updates_per_epoch)

    def averaged(self) -> tuple[np.ndarray, float]:
        """The averaged predictor :math:`\\sum_m c_m (v_m, b_m) / \\sum_m c_m`."""
        total = max(int(self.counts.sum()), 1)
        return self.counts @ self.weights / total, float(self.counts @ self.biases / total)


@dataclass
class KernelVotedPerceptron:
    """The voted perceptron in dual form: the rows of its mistakes and the survival counts.

    Its last weights are :math:`v_{k+1} = \\sum_m y_{r_m} \\phi(x_{r_m})` over the rows of its
    mistakes; ``w`` and ``b`` give them as numbers for ``kernel="linear"`` and raise
    AttributeError for the other kernels, whose feature space is implicit.

    Attributes
    ----------
    rows : ndarray of int, shape (k,)
        The example of each mistake, in order.
    counts : ndarray of int, shape (k + 1,)
        :math:`c_m` as in :class:`VotedPerceptron`.
    updates_per_epoch : list of int
    converged : bool
    X, Y : ndarray
        The training set.
    kernel : KernelFunction
    bias : bool
    """

    rows: np.ndarray
    counts: np.ndarray
    updates_per_epoch: list[int]
    converged: bool
    X: np.ndarray = field(repr=False)
    Y: np.ndarray = field(repr=False)
    kernel: KernelFunction
    bias: bool

    @property
    def epochs(self) -> int:
        return len(self.updates_per_epoch)

    @property
    def w(self) -> np.ndarray:
        """The last weights :math:`\\sum_m y_{r_m} x_{r_m}` (linear kernel only)."""
        self._primal("w")
        return self.Y[self.rows] @ self.X[self.rows].astype(np.float64)

    @property
    def b(self) -> float:
        """The last bias :math:`\\sum_m y_{r_m}` (0 without ``bias``; linear kernel only)."""
        self._primal("b")
        return float(self.Y[self.rows].sum()) if self.bias else 0.0

    def _primal(self, name: str) -> None:
        if self.kernel.kind != "linear":
            raise AttributeError(f"{name} exists as numbers only for kernel='linear' (this run "
                                 f"used kernel={self.kernel.kind!r}): the run is in dual form "
                                 f"(rows, counts)")


def _padded(X: np.ndarray, bias: bool) -> np.ndarray:
    X = X.astype(np.float64)
    return np.hstack([X, np.ones((X.shape[0], 1))]) if bias else X


@validate_params()
@np.errstate(over="ignore", invalid="ignore")  # what overflows, the guards below refuse
def train_voted(X, Y, *, max_epochs: int = 1, bias: bool = True,
                engine: str = "fast") -> VotedPerceptron:
    """The voted perceptron: passes over ``(X, Y)`` in order, until a pass makes no mistake
    or ``max_epochs``, keeping every weight vector with its survival count.

    On each example: if :math:`y (v^\\top x + b) > 0` the current weights survive one more
    visit (:math:`c \\mathrel{+}= 1`); else the rule steps, :math:`v \\leftarrow v + y x`,
    :math:`b \\leftarrow b + y`, and the new weights start with :math:`c = 1`.

    Parameters
    ----------
    X, Y : array-like
    max_epochs : int
        Bound on the passes (the paper's :math:`T`; one pass is its online setting).
    bias : bool
        Pad the constant feature 1.
    engine : {"fast", "faithful"}
        ``"faithful"``: the loop below, in numpy. ``"fast"``: its compiled twin, bit for
        bit (without numba, the loop below).

    Returns
    -------
    VotedPerceptron
        Predict with :func:`predict_voted`.

    Raises
    ------
    ValueError
        When a margin or the weights overflow (scale X down).
    """
    Z, Y = _padded(as_features(X), bias), as_labels(Y)  # the arguments as float64 arrays
    if engine == "fast" and _use_compiled():  # the compiled twin of the loop below
        return _fast_voted(Z, Y, max_epochs, bias)
    weights, counts, per_epoch = [np.zeros(Z.shape[1])], [0], []  # v_1 = 0, c_1 = 0
    for epoch in range(1, max_epochs + 1):  # the epoch budget
        mistakes = 0
        for z, y in zip(Z, Y):
            margin = y * _dot(weights[-1], z)
            _guard(epoch, margins=margin)  # the overflow guard
            if margin > 0.0:
                counts[-1] += 1  # v_k survives one more example
            else:
                weights.append(weights[-1] + y * z)  # v_{k+1} = v_k + y x, c_{k+1} = 1
                counts.append(1)
                mistakes += 1
        _guard(epoch, weights=weights[-1:])
        per_epoch.append(mistakes)
        if mistakes == 0:  # a pass without a mistake
            break
    return _voted_result(np.array(weights), np.array(counts), per_epoch, bias)


def _voted_result(V: np.ndarray, counts: np.ndarray, per_epoch: list[int],
                  bias: bool) -> VotedPerceptron:
    W, b = (V[:, :-1], V[:, -1]) if bias else (V, np.zeros(V.shape[0]))
    return VotedPerceptron(weights=W, biases=b, counts=counts.astype(np.int64),
                           updates_per_epoch=per_epoch, converged=per_epoch[-1] == 0)


def _voted_runner(one_pass, *data):
    """``passes(budget)`` for :func:`_drive` by a compiled pass of the voted perceptron
    (:func:`~gluon_perceptron.core.fast.family_fast._voted_pass` or ``_voted_kernel_pass``) on
    ``data``, and the arrays it fills (rows of the mistakes, survival counts, their number),
    grown to leave room for one more pass's mistakes before each pass."""
    n = data[0].shape[0]
    state = {"rows": np.zeros(0, dtype=np.int64), "survivals": np.zeros(1, dtype=np.int64),
             "k": np.zeros(1, dtype=np.int64)}

    def passes(budget: int) -> list[int]:
        need = int(state["k"][0]) + n
        if state["rows"].shape[0] < need:
            size = max(need, 2 * state["rows"].shape[0])
            state["rows"] = np.resize(state["rows"], size)
            state["survivals"] = np.append(state["survivals"],
                                           np.zeros(size + 1 - state["survivals"].shape[0],
                                                    dtype=np.int64))
        return [one_pass(*data, state["rows"], state["survivals"], state["k"])]

    return passes, state


def _fast_voted(Z: np.ndarray, Y: np.ndarray, max_epochs: int, bias: bool) -> VotedPerceptron:
    """:func:`train_voted`'s loop, compiled: the mistakes' rows and survival counts; the
    weights after each mistake are their running sums (:func:`numpy.cumsum` adds in the same
    order as the loop)."""
    w = np.zeros(Z.shape[1])
    passes, state = _voted_runner(_voted_pass, np.ascontiguousarray(Z), Y, w)
    per_epoch = _drive(passes, max_epochs, (w,))
    k = int(state["k"][0])
    rows = state["rows"][:k]
    steps = np.vstack([np.zeros((1, Z.shape[1])), Y[rows, None] * Z[rows]])
    return _voted_result(np.cumsum(steps, axis=0), state["survivals"][:k + 1], per_epoch, bias)


def _fast_voted_kernel(G, Y, max_epochs, X, kern, bias) -> KernelVotedPerceptron:
    """:func:`train_voted_kernel`'s loop, compiled
    (:func:`~gluon_perceptron.core.fast.family_fast._voted_kernel_pass`)."""
    scores = np.zeros(G.shape[0])
    passes, state = _voted_runner(_voted_kernel_pass, np.ascontiguousarray(G), Y, scores)
    per_epoch = _drive(passes, max_epochs, (scores,))
    k = int(state["k"][0])
    return KernelVotedPerceptron(rows=state["rows"][:k].copy(),
                                 counts=state["survivals"][:k + 1].copy(),
                                 updates_per_epoch=per_epoch, converged=per_epoch[-1] == 0,
                                 X=X, Y=Y, kernel=kern, bias=bias)


@validate_params(**KERNEL_RULES)
@np.errstate(over="ignore", invalid="ignore")  # what overflows, the guards below refuse
def train_voted_kernel(X, Y, *, max_epochs: int = 1, kernel: str = "linear", degree: int = 3,
                       gamma: float | None = None, coef0: float = 1.0, bias: bool = True,
                       engine: str = "fast") -> KernelVotedPerceptron:
    """The voted perceptron in dual form: :func:`train_voted` with :math:`v^\\top x` replaced
    by :math:`\\sum_{j} y_{i_j} (K(x_{i_j}, x) + [\\text{bias}])` over the mistakes so far.

    Same parameters as :func:`train_voted`, plus the kernel's (see
    :func:`~.kernel_perceptron.train_kernel`). With the linear kernel it makes the mistakes
    :func:`train_voted` makes wherever the two sums round alike (always on data with few binary
    digits, tested exactly). Memory: the Gram matrix of the training set. ``engine``: as for
    :func:`train_voted` (the loop below, or its compiled twin, bit for bit).
    """
    X, Y = as_features(X), as_labels(Y)  # the arguments as arrays (Y in float64)
    kern = _kernel(kernel, degree, gamma, coef0, X.shape[1])
    G = kern.matrix(X, X) + (1.0 if bias else 0.0)
    if engine == "fast" and _use_compiled():  # the compiled twin of the loop below
        return _fast_voted_kernel(G, Y, max_epochs, X, kern, bias)
    rows, counts, scores = [], [0], np.zeros(X.shape[0])  # scores[i] = v_k . phi(x_i)
    per_epoch: list[int] = []
    for epoch in range(1, max_epochs + 1):  # the epoch budget
        mistakes = 0
        for i in range(X.shape[0]):
            _guard(epoch, margins=scores[i])  # the overflow guard
            if Y[i] * scores[i] > 0.0:
                counts[-1] += 1
            else:
                rows.append(i)
                counts.append(1)
                scores += Y[i] * G[i]  # v_{k+1} . phi(x) = v_k . phi(x) + y_i K(x_i, x)
                mistakes += 1
        _guard(epoch, weights=(scores,))
        per_epoch.append(mistakes)
        if mistakes == 0:  # a pass without a mistake
            break
    return KernelVotedPerceptron(rows=np.array(rows, dtype=np.int64),
                                 counts=np.array(counts, dtype=np.int64),
                                 updates_per_epoch=per_epoch, converged=per_epoch[-1] == 0,
                                 X=X, Y=Y, kernel=kern, bias=bias)


@validate_params(model=instance((VotedPerceptron, KernelVotedPerceptron), "from train_voted or "
                                "train_voted_kernel"), method=one_of("vote", "average", "last"),
                 X=features_for(lambda m: (m.weights if hasattr(m, "weights") else m.X).shape[1]))
def predict_voted(model, X, *, method: str = "vote") -> np.ndarray:
    """Labels in {-1, +1} for the rows of ``X``.

    ``method="vote"``: :math:`\\operatorname{sign}(\\sum_m c_m \\operatorname{sign}(v_m^\\top x
    + b_m))`; ``"average"``: :math:`\\operatorname{sign}(\\sum_m c_m (v_m^\\top x + b_m))`;
    ``"last"``: :math:`\\operatorname{sign}(v_{k+1}^\\top x + b_{k+1})`. A score of exactly 0
    predicts +1.
    """
    X = as_features(X, np.float64)  # the rows as a float64 array
    if method == "last" and isinstance(model, VotedPerceptron):
        total = X @ model.w + model.b
    elif method == "average" and isinstance(model, VotedPerceptron):
        w, b = model.averaged()
        total = X @ w + b
    else:
        scores = _scores(model, X)  # (k + 1, n): v_m . x + b_m, every m, every row
        total = {"vote": lambda: model.counts @ np.sign(scores),
                 "average": lambda: model.counts @ scores, "last": lambda: scores[-1]}[method]()
    return np.where(total >= 0.0, 1.0, -1.0)


def _scores(model, X: np.ndarray) -> np.ndarray:
    """:math:`v_m^\\top x + b_m` for every weight vector and every row of ``X``."""
    if isinstance(model, VotedPerceptron):
        return model.weights @ X.T + model.biases[:, None]
    K = model.kernel.matrix(model.X[model.rows], X) + (1.0 if model.bias else 0.0)
    steps = np.vstack([np.zeros((1, X.shape[0])), model.Y[model.rows, None] * K])
    return np.cumsum(steps, axis=0)


def voted_bound(radius: float, gamma: float, samples: int) -> float:
    """Freund & Schapire's bound on the voted perceptron's expected test error after one pass
    over ``samples`` examples of a distribution separable with margin ``gamma`` in a ball of
    ``radius``: :math:`\\frac{2}{m + 1} (R / \\gamma)^2` (not capped: above 1 it says nothing)."""
    ratio = radius / gamma
    bound = 2.0 / (samples + 1) * ratio * ratio
    if not math.isfinite(bound):
        raise ValueError(f"the bound overflowed for radius={radius:.3g} and gamma={gamma:.3g}; "
                         f"rescale both to a moderate range")
    return bound
