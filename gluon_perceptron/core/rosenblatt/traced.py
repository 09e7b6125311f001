r"""The plain rule, watched step by step: the traced run (:func:`train_traced`), one online pass
(:func:`run_online`), every parameter vector a run visits (:func:`update_path`), and the notes'
sequence that fools the aggressive rule (:func:`notes_sequence`).

Each body is its loop, the plain rule one example at a time in numpy, watched: after every
pass (:func:`train_traced`), after every step (:func:`run_online`) or after every update
(:func:`update_path`). With the default ``engine="fast"``, :func:`train_traced` and
:func:`update_path` hand the same arguments to their twins in
:mod:`gluon_perceptron.core.fast.variants_fast` (compiled passes; a scan ahead to the next update),
which give the same result bit for bit (``tests/core/fast/test_fast.py``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .._arrays import _row_norms, _split
from .._convert import as_features, as_labels, as_values, as_vector
from .._validation import (
    count,
    fits,
    optional,
    real,
    such_that,
    validate_params,
    vector,
)
from ..fast import variants_fast as fast
from .engine import _guard
from .pass_parts import (
    PATH_FIX,
    _orders,
    _Recorder,
    _step_size,
)
from .results import TrainResult, train_result

RULES = ("perceptron", "aggressive")


@validate_params(decay=real(minimum=0.0))
@np.errstate(over="ignore", invalid="ignore")  # what overflows, the guards below refuse
def train_traced(X, Y, *, max_epochs: int, learning_rate: float = 1.0, threshold: float = 0.0,
                 decay: float = 0.0, record: bool = False, shuffle: bool = False,
                 seed=None, engine: str = "fast") -> TrainResult:
    """The plain perceptron (:func:`~gluon_perceptron.train`), one pass at a time, traced.

    Pass :math:`e = 1, 2, \\dots` runs ``train`` for one epoch from the previous pass's
    :math:`(w, b)` with step :math:`\\eta_e = \\eta / e^{\\text{decay}}` (``decay = 0``: the
    constant step of the chapter). Stops after a pass without an update (``converged=True``)
    or after ``max_epochs`` passes (``converged=False``).

    A decaying step alone does not make the plain rule settle: the rule is invariant to the
    scale of :math:`\\theta` (multiplying the step and :math:`\\theta_0 = 0` by :math:`c`
    multiplies every iterate by :math:`c`), so :math:`\\|\\theta\\|` shrinks with the step and
    the boundary moves as much as before. With a margin ``threshold`` :math:`\\delta > 0` the
    rule is a subgradient method on :math:`\\sum_i \\max(0, \\delta - \\langle \\theta, a_i
    \\rangle)`, whose minimiser is not 0, and ``decay = 1`` makes it settle there
    (see :func:`hinge_separator`).

    Parameters
    ----------
    X, Y : array-like or NDArray
        Examples (n, d) and labels in {-1, +1}; computed in float64.
    max_epochs : int
        Bound on the passes.
    learning_rate : float
        :math:`\\eta > 0`.
    threshold : float
        Margin :math:`\\delta \\ge 0` below which an example triggers an update.
    decay : float
        Power of the step schedule, :math:`\\ge 0` (refused when the step vanishes).
    record : bool
        Also keep ``history["weights"]``, the :math:`(w, b)` after each pass.
    shuffle : bool
        Visit the examples in a fresh random order every pass (default: data order, as
        ``train``).
    seed : int, optional
        Seed of ``numpy.random.default_rng`` for the orders (used only with ``shuffle``).
    engine : {"fast", "faithful"}
        ``"faithful"``: the loop below, one example at a time; ``"fast"``: its twin, compiled
        passes (the same result, bit for bit).

    Returns
    -------
    TrainResult
        ``history["error"]`` (training error after each pass), ``history["norm"]``
        (:math:`\\|(w, b)\\|` after each pass), and ``history["weights"]`` if recorded.
    """
    X, Y = as_features(X, np.float64), as_labels(Y)  # the arguments as float64 arrays
    # as floats: a Python int decay would make epoch**decay an integer of millions of digits
    learning_rate, threshold, decay = float(learning_rate), float(threshold), float(decay)
    if engine == "fast":  # the twin of the loop below: the same updates, bit for bit
        return fast.train_traced(X, Y, max_epochs=max_epochs, learning_rate=learning_rate,
                                 threshold=threshold, decay=decay, record=record,
                                 shuffle=shuffle, seed=seed)
    recorder, order = _Recorder(X, Y, record), _orders(shuffle, seed)
    theta, per_epoch = np.zeros(X.shape[1] + 1), []
    w, b = theta[:-1], theta[-1:]  # views: theta is (w, b)
    for epoch in range(1, max_epochs + 1):  # the epoch budget
        eta, updates = _step_size(learning_rate, epoch, decay), 0  # eta / epoch**decay
        for i in order(len(Y)):
            margin = Y[i] * (X[i] @ w + b[0])
            _guard(epoch, margins=margin)  # the overflow guard
            if margin <= threshold:  # a mistake, a tie, or a margin below the threshold
                w += (eta * Y[i]) * X[i]
                b += eta * Y[i]
                updates += 1
        _guard(epoch, weights=(w, b))
        recorder.epoch(theta, *_split(theta))
        per_epoch.append(updates)
        if updates == 0:  # a pass without an update: the data is separated
            break
    return train_result(*_split(theta), per_epoch, recorder.history)


@dataclass
class OnlineRun:
    """One pass over a stream of examples, step by step.

    Attributes
    ----------
    margins : ndarray, shape (T,)
        :math:`\\langle \\theta_{t-1}, a_t \\rangle` before step :math:`t`.
    mistakes : ndarray of bool, shape (T,)
        ``margins <= 0``: the prediction at step :math:`t` was wrong (or a tie).
    thetas : ndarray, shape (T, d + 1)
        :math:`\\theta_t = (w_t, b_t)` after step :math:`t`.
    norms : ndarray, shape (T,)
        :math:`\\|\\theta_t\\|`.
    """

    margins: np.ndarray
    mistakes: np.ndarray
    thetas: np.ndarray
    norms: np.ndarray

    @property
    def w(self) -> np.ndarray:
        """Final weights."""
        return self.thetas[-1, :-1]

    @property
    def b(self) -> float:
        """Final bias."""
        return float(self.thetas[-1, -1])


@validate_params(steps=count(), x=fits(optional(such_that(
    vector(), lambda x, args: np.abs(x).max() > 0, "{name} must be a nonzero vector (its direction "
    "is used), got {value}")), lambda x, args: args["steps"] * (2 if x is None else x.size),
    "notes_sequence's X ({steps:,} rows)", ("steps",)))
def notes_sequence(steps: int, x=None) -> tuple[np.ndarray, np.ndarray]:
    """The notes' separable sequence that fools the aggressive perceptron (Remark 1.19).

    All labels are :math:`y_t = 1` (so :math:`w = 0, b = 1` separates it with margin 1), and

    .. math:: x_t = -2x \\text{ if } \\log_2 t \\in \\mathbb{N} \\ (t = 1, 2, 4, 8, \\dots),
              \\qquad x_t = x \\text{ otherwise},

    for a fixed unit vector :math:`x`. Indices start at :math:`t = 1`.

    Parameters
    ----------
    steps : int
        Length :math:`T` of the sequence.
    x : array-like, shape (d,), optional
        Direction (normalised to unit length); default ``(1, 0)``.

    Returns
    -------
    X : ndarray, shape (steps, d)
    Y : ndarray, shape (steps,), all ones
    """
    x = np.array([1.0, 0.0]) if x is None else as_values(x)  # the direction as a float64 array
    unit = x / np.max(np.abs(x))  # scaled first, so that the norm neither overflows nor underflows
    unit /= np.linalg.norm(unit)
    t = np.arange(1, steps + 1)
    power = (t & (t - 1)) == 0
    return np.where(power[:, None], -2.0, 1.0) * unit, np.ones(steps)


@np.errstate(over="ignore", invalid="ignore")  # what overflows, the guard below refuses
def run_online(X, Y, *, rule: str = "perceptron", learning_rate: float = 1.0) -> OnlineRun:
    """One pass over a stream, in order, from :math:`\\theta_0 = 0`, recording every step.

    ``rule="perceptron"`` updates only on a mistake; ``rule="aggressive"`` updates on every
    example (the notes' Remark 1.19): :math:`\\theta_t = \\theta_{t-1} + \\eta a_t` always.
    """
    X, Y = as_features(X, np.float64), as_labels(Y)  # the arguments as float64 arrays
    theta, margins, thetas = np.zeros(X.shape[1] + 1), np.empty(len(Y)), []
    w, b = theta[:-1], theta[-1:]  # views: theta is (w, b)
    for t in range(len(Y)):  # one pass over the stream, in order
        margins[t] = Y[t] * (X[t] @ w + b[0])
        if margins[t] <= 0 or rule == "aggressive":  # a mistake (or a tie); or always
            w += (learning_rate * Y[t]) * X[t]
            b += learning_rate * Y[t]
        thetas.append(theta.copy())
    _guard(1, margins=margins, weights=(w, b))  # the overflow guard, after the one pass
    path = np.array(thetas).reshape(len(Y), -1)
    return OnlineRun(margins, margins <= 0.0, path, _row_norms(path))


@dataclass
class UpdatePath:
    """Every parameter vector one run visits, from :func:`update_path`.

    Attributes
    ----------
    thetas : ndarray, shape (updates + 1, p)
        :math:`\\theta_0, \\theta_1, \\dots`: ``(w, b)`` with bias (``p = d + 1``), ``w`` without.
    examples : ndarray of int, shape (updates,)
        The example each update was made on.
    converged : bool
        True if the last pass made no update; False if ``max_epochs`` was reached first.
    epochs : int
        Passes made.
    bias : bool
    updates_per_epoch : list of int
        Updates made in each pass (as in :class:`~gluon_perceptron.TrainResult`).
    """

    thetas: np.ndarray
    examples: np.ndarray
    converged: bool
    epochs: int
    bias: bool
    updates_per_epoch: list[int] = field(default_factory=list)

    @property
    def updates(self) -> int:
        """Number of updates made."""
        return len(self.examples)

    @property
    def w(self) -> np.ndarray:
        """Final weights."""
        return self.thetas[-1, :-1] if self.bias else self.thetas[-1]

    @property
    def b(self) -> float:
        """Final bias (0 without bias)."""
        return float(self.thetas[-1, -1]) if self.bias else 0.0


@validate_params(b0=such_that(real(), lambda b0, args: args["bias"] or b0 == 0.0, "b0 must be 0 "
                              "when bias=False (the homogeneous perceptron has no b)", ("bias",)))
@np.errstate(over="ignore", invalid="ignore")  # what overflows, the guards below refuse
def update_path(X, Y, *, max_epochs: int, bias: bool = True, w0=None, b0: float = 0.0,
                threshold: float = 0.0, engine: str = "fast") -> UpdatePath:
    """Replay Rosenblatt's rule in data order and keep the parameters after every update.

    The same rule as :func:`~gluon_perceptron.train` with learning rate 1 (update when
    :math:`y_i (w^\\top x_i + b) \\le \\delta`: :math:`w \\mathrel{+}= y_i x_i`,
    :math:`b \\mathrel{+}= y_i`), plus ``bias=False`` for the homogeneous perceptron of
    Novikoff's theorem, which has no :math:`b`. It notes the parameters after every update.
    ``engine="faithful"`` runs the loop below; ``"fast"`` (the default) its twin, which scans
    ahead to the next example at or below the threshold in numpy blocks (the same path, bit
    for bit).
    """
    X = as_features(X)  # the arguments as arrays: X first, Y and w0 in its dtype
    Y, w0 = as_labels(Y, like=X), None if w0 is None else as_vector(w0, like=X)
    if engine == "fast":  # the twin of the loop below: the same updates, bit for bit
        path, at, made = fast.update_path(X, Y, max_epochs=max_epochs, bias=bias, w0=w0, b0=b0,
                                          threshold=threshold)
        return UpdatePath(path, at, made[-1] == 0, len(made), bias, made)
    w = np.zeros(X.shape[1], dtype=X.dtype) if w0 is None else w0.astype(X.dtype)
    b = np.array([b0], dtype=X.dtype)
    thetas, examples, per_epoch = [np.append(w, b) if bias else w.copy()], [], []
    for epoch in range(1, max_epochs + 1):  # the epoch budget
        updates = 0
        for i in range(len(Y)):
            margin = Y[i] * (X[i] @ w + b[0])
            _guard(epoch, margins=margin, dtype=X.dtype, fix=PATH_FIX)  # the overflow guard
            if margin <= threshold:  # a mistake, or a tie: the step, and the new parameters
                w += Y[i] * X[i]
                if bias:  # the homogeneous perceptron keeps b = 0
                    b += Y[i]
                thetas.append(np.append(w, b) if bias else w.copy())
                examples.append(i)
                updates += 1
        _guard(epoch, weights=(w, b), dtype=X.dtype, fix=PATH_FIX)
        per_epoch.append(updates)
        if updates == 0:  # a pass without an update: the data is separated
            break
    return UpdatePath(np.array(thetas, dtype=np.float64), np.array(examples, dtype=int),
                      per_epoch[-1] == 0, len(per_epoch), bias, per_epoch)
