r"""The plain rule, watched step by step: the traced run (:func:`train_traced`), one online pass
(:func:`run_online`), every parameter vector a run visits (:func:`update_path`), and the notes'
sequence that fools the aggressive rule (:func:`notes_sequence`).

They run the fast twins' passes (:mod:`gluon_perceptron.core.fast.training_fast` and
:mod:`~gluon_perceptron.core.fast.variants_fast`) through the one driver (:func:`~.engine._drive`),
and read what those record.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .. import _checks
from .._arrays import _row_norms
from .._validation import (
    Rule,
    count,
    features,
    flag,
    labels,
    one_of,
    optional,
    real,
    validate_params,
    vector,
)
from ..fast.training_fast import _mistakes, _plain_passes
from ..fast.variants_fast import _every_step_pass, _Pass, _recorded_pass
from .engine import _drive
from .pass_parts import PASS_RULES, RUN_RULES, _float64, _orders, _Recorder
from .results import TrainResult, train_result

RULES = ("perceptron", "aggressive")


def _step_size(learning_rate: float, epoch: int, decay: float) -> float:
    """:math:`\\eta_e = \\eta / e^{\\text{decay}}`, refused when it leaves the floats."""
    try:
        eta = learning_rate / epoch**decay
    except OverflowError:
        eta = 0.0
    if eta == 0.0:
        raise ValueError(f"decay={decay} makes the step learning_rate / epoch**decay vanish (0.0 "
                         f"in float64) at pass {epoch}; use a decay of a few units (1 makes the "
                         f"margin perceptron settle)")
    return eta


@validate_params(**PASS_RULES, threshold=real(minimum=0.0), decay=real(minimum=0.0),
                 **RUN_RULES)
def train_traced(X, Y, *, max_epochs: int, learning_rate: float = 1.0, threshold: float = 0.0,
                 decay: float = 0.0, record: bool = False, shuffle: bool = False,
                 seed=None) -> TrainResult:
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

    Returns
    -------
    TrainResult
        ``history["error"]`` (training error after each pass), ``history["norm"]``
        (:math:`\\|(w, b)\\|` after each pass), and ``history["weights"]`` if recorded.
    """
    X, Y = _float64(X, Y)
    recorder, order = _Recorder(X, Y, record), _orders(shuffle, seed)
    w, b = np.zeros(X.shape[1]), np.zeros(1)

    def one_pass(budget: int) -> list[int]:
        eta = _step_size(learning_rate, len(recorder.history["norm"]) + 1, decay)
        rows = order(len(Y))
        made = _plain_passes(X, Y, w, b, eta, threshold,
                             rows if isinstance(rows, np.ndarray) else None)(1)
        if made[0] >= 0:
            recorder.epoch(np.append(w, b[0]), w, b[0])
        return made

    per_epoch = _drive(one_pass, max_epochs, (w, b))
    return train_result(w, b[0], per_epoch, recorder.history)


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


def _direction(x, name: str, args: dict) -> np.ndarray:
    """A nonzero vector (its direction is used), and a sequence that fits in memory."""
    x = np.array([1.0, 0.0]) if x is None else _checks.vector(x, name).astype(np.float64)
    if float(np.max(np.abs(x))) == 0.0:
        raise ValueError(f"x must be a nonzero vector (its direction is used), got {x}")
    steps = args["steps"]
    _checks.elements(steps * x.size, f"notes_sequence's X (steps={steps:,} rows of "
                                     f"{x.size} entries)")
    return x


@validate_params(steps=count(), x=Rule(_direction, "vector(), nonzero; None: (1, 0)", ("steps",)))
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
    x = np.array([1.0, 0.0]) if x is None else x
    unit = x / np.max(np.abs(x))  # scaled first, so that the norm neither overflows nor underflows
    unit /= np.linalg.norm(unit)
    t = np.arange(1, steps + 1)
    power = (t & (t - 1)) == 0
    return np.where(power[:, None], -2.0, 1.0) * unit, np.ones(steps)


@validate_params(rule=one_of(*RULES), X=features(), Y=labels(of="X"),
                 learning_rate=real(positive=True))
def run_online(X, Y, *, rule: str = "perceptron", learning_rate: float = 1.0) -> OnlineRun:
    """One pass over a stream, in order, from :math:`\\theta_0 = 0`, recording every step.

    ``rule="perceptron"`` updates only on a mistake; ``rule="aggressive"`` updates on every
    example (the notes' Remark 1.19): :math:`\\theta_t = \\theta_{t-1} + \\eta a_t` always.
    """
    X, Y = _float64(X, Y)
    theta = np.zeros(X.shape[1] + 1)
    done: list[_Pass] = []

    def one_pass(budget: int) -> list[int]:
        done.append(_recorded_pass(X, Y, theta, learning_rate) if rule == "perceptron"
                    else _every_step_pass(X, Y, theta, learning_rate))
        return [done[0].made]

    _drive(one_pass, 1, (theta,))  # one pass; raises if it overflowed
    thetas, margins = done[0].thetas(), done[0].margins(X, Y)
    return OnlineRun(margins, margins <= 0.0, thetas, _row_norms(thetas))


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


def _no_bias_start(b0, name: str, args: dict) -> float:
    b0 = real()(b0, name, args)
    if not args["bias"] and b0 != 0.0:
        raise ValueError("b0 must be 0 when bias=False (the homogeneous perceptron has no b)")
    return b0


@validate_params(X=features(), Y=labels(of="X"), max_epochs=count(),
                 threshold=real(minimum=0.0), bias=flag(),
                 b0=Rule(_no_bias_start, "real(), 0 when bias=False", ("bias",)),
                 w0=optional(vector(size_of="X")))
def update_path(X, Y, *, max_epochs: int, bias: bool = True, w0=None, b0: float = 0.0,
                threshold: float = 0.0) -> UpdatePath:
    """Replay Rosenblatt's rule in data order and keep the parameters after every update.

    The same rule as :func:`~gluon_perceptron.train` with learning rate 1 (update when
    :math:`y_i (w^\\top x_i + b) \\le \\delta`: :math:`w \\mathrel{+}= y_i x_i`,
    :math:`b \\mathrel{+}= y_i`), plus ``bias=False`` for the homogeneous perceptron of
    Novikoff's theorem, which has no :math:`b`. It scans ahead for the next example at or
    below the threshold (:func:`~gluon_perceptron.core.fast.training_fast._mistakes`) and notes
    the parameters after every update.
    """
    w = np.zeros(X.shape[1], dtype=X.dtype) if w0 is None else w0.astype(X.dtype)
    b = np.array([b0], dtype=X.dtype)
    thetas, examples = [np.append(w, b) if bias else w.copy()], []

    def one_pass(budget: int) -> list[int]:
        made = 0
        for k in _mistakes(X, Y, w, b, threshold):
            if k < 0:
                return [-1]
            step = 1.0 * Y[k]
            w[:] += step * X[k]  # in place: the scan reads w and b
            if bias:
                b[:] += step
            thetas.append(np.append(w, b) if bias else w.copy())
            examples.append(k)
            made += 1
        return [made]

    per_epoch = _drive(one_pass, max_epochs, (w, b), X.dtype,
                       "Scale the data down (e.g. divide X by np.abs(X).max()) or start from "
                       "a smaller w0 and b0 (update_path steps by 1)")
    return UpdatePath(np.array(thetas, dtype=np.float64), np.array(examples, dtype=int),
                      per_epoch[-1] == 0, len(per_epoch), bias, per_epoch)
