r"""Variants of the perceptron rule that need every step: traced, pocket, averaged, projected,
aggressive, the online run and the update path.

Every one of them makes its passes with the package's one epoch kernel
(:func:`~.engine._numpy_epoch`, or its compiled twin for the plain passes
of :func:`train_traced`), driven by :func:`~.engine._drive`, and returns a
:class:`~gluon_perceptron.TrainResult` built by
:func:`~.results.train_result`. What a variant needs from every step comes
from the kernel's hooks: the parameters after each update (``on_update``), the projection onto
a ball (done in ``on_update``, before the scan resumes), a step on every example
(``guard=False``) and a visiting order (``order``, for ``shuffle=True``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .. import _checks
from .._arrays import _row_norms, _split
from .engine import _drive, _numpy_epoch, _plain_passes
from .results import TrainResult, Unpackable, train_result
from .train import _error_rate

RULES = ("perceptron", "aggressive")


def _project(theta: np.ndarray, radius: float) -> None:
    r"""Project :math:`\theta` onto the ball of ``radius`` in place:
    :math:`\theta \leftarrow \theta \min(1, \rho / \|\theta\|)`."""
    norm = math.sqrt(theta @ theta)
    if not math.isfinite(norm):  # the sum of squares overflowed: scale first
        norm = float(_row_norms(theta)[0])
    if norm > radius:
        theta *= radius / norm


@dataclass
class _Pass:
    """What one pass of the kernel did, step by step, from the parameters it recorded.

    ``states[0]`` is :math:`\\theta` before the pass, ``states[j]`` after its ``j``-th update;
    ``positions[j - 1]`` is the step (0-based, in visiting order) of that update.
    """

    states: np.ndarray
    positions: np.ndarray
    steps: int
    made: int  # the kernel's count: the updates, or -1 if a margin overflowed

    def _before_after(self) -> tuple[np.ndarray, np.ndarray]:
        t = np.arange(self.steps)
        return (np.searchsorted(self.positions, t, side="left"),
                np.searchsorted(self.positions, t, side="right"))

    def thetas(self) -> np.ndarray:
        """:math:`\\theta` after each step, shape (steps, p)."""
        return self.states[self._before_after()[1]]

    def margins(self, X: np.ndarray, Y: np.ndarray) -> np.ndarray:
        """:math:`\\langle \\theta, a_t \\rangle` with :math:`a_t = y_t (x_t, 1)` and the
        parameters before each step (visiting order)."""
        A = Y[:, None] * np.hstack([X, np.ones((X.shape[0], 1))])
        return np.einsum("ij,ij->i", A, self.states[self._before_after()[0]])


def _step_pass(X: np.ndarray, Y: np.ndarray, theta: np.ndarray, learning_rate: float,
               order: np.ndarray | None = None, *, guard: bool = True,
               radius: float | None = None) -> _Pass:
    """One pass of the kernel over ``X[order]`` on ``theta = (w, b)`` (changed in place),
    recording the parameters after every update; with ``radius``, each update is followed by
    the projection onto that ball."""
    states, positions = [theta.copy()], []

    def keep(t: int) -> None:
        if radius is not None:
            _project(theta, radius)
        states.append(theta.copy())
        positions.append(t)

    made = _numpy_epoch(X, Y, theta[:-1], theta[-1:], learning_rate, 0.0, order=order,
                        guard=guard, on_update=keep)
    return _Pass(np.array(states), np.array(positions, dtype=np.int64), X.shape[0], made)


def _shuffler(shuffle, seed) -> Callable[[], np.ndarray | None]:
    """The visiting order of each pass: data order, or a fresh permutation from
    ``numpy.random.default_rng(seed)`` every pass when ``shuffle`` is True."""
    shuffle = _checks.flag(shuffle, "shuffle")
    seed = _checks.seed(seed)  # checked even when unused, so a bad seed never waits to fail
    if not shuffle:
        return lambda n: None
    return np.random.default_rng(seed).permutation


def _trainer_args(X, Y, max_epochs, learning_rate) -> tuple[np.ndarray, np.ndarray, int, float]:
    """Validate what every trainer here takes; return float64 data and the checked numbers."""
    Xn, Yn = _checks.dataset(X, Y)
    max_epochs = _checks.positive_int(max_epochs, "max_epochs")
    learning_rate = _checks.finite_float(learning_rate, "learning_rate", strictly_positive=True)
    return (np.asarray(Xn, dtype=np.float64), np.asarray(Yn, dtype=np.float64), max_epochs,
            learning_rate)


class _Recorder:
    """Collects the per-epoch traces every trainer here returns in ``TrainResult.history``."""

    def __init__(self, X: np.ndarray, Y: np.ndarray, record: bool):
        self.X, self.Y = X, Y
        self.record = _checks.flag(record, "record")
        self.history: dict = {"error": [], "norm": []}
        if self.record:
            self.history["weights"] = []

    def epoch(self, running: np.ndarray, w: np.ndarray, b: float) -> None:
        """Note one pass: the running (w, b), and the predictor returned."""
        self.history["norm"].append(float(_row_norms(running)[0]))
        self.history["error"].append(_error_rate(w, b, self.X, self.Y))
        if self.record:
            self.history["weights"].append((np.array(w, dtype=np.float64), float(b)))


def _stepwise(Xn, Yn, max_epochs, learning_rate, record, shuffle, seed, after_pass, *,
              guard=True, radius=None) -> TrainResult:
    """Drive passes of :func:`_step_pass` from :math:`\\theta = 0` on checked data; after each
    one, ``after_pass(step)`` gives the predictor ``(w, b)`` to record and return."""
    recorder = _Recorder(Xn, Yn, record)
    order = _shuffler(shuffle, seed)
    theta = np.zeros(Xn.shape[1] + 1)
    out: list = [None, 0.0]

    def one_pass(budget: int) -> list[int]:
        step = _step_pass(Xn, Yn, theta, learning_rate, order(len(Yn)), guard=guard,
                          radius=radius)
        if step.made >= 0:
            out[:] = after_pass(step)
            recorder.epoch(step.states[-1], *out)
        return [step.made]

    per_epoch = _drive(one_pass, max_epochs, (theta,))
    return train_result(np.asarray(out[0], dtype=np.float64), out[1], per_epoch,
                        recorder.history)


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
        Power of the step schedule, :math:`\\ge 0`.
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
    Xn, Yn, max_epochs, learning_rate = _trainer_args(X, Y, max_epochs, learning_rate)
    decay = _checks.finite_float(decay, "decay", minimum=0.0)
    threshold = _checks.finite_float(threshold, "threshold", minimum=0.0)
    recorder = _Recorder(Xn, Yn, record)
    order = _shuffler(shuffle, seed)
    w, b = np.zeros(Xn.shape[1]), np.zeros(1)

    def one_pass(budget: int) -> list[int]:
        epoch = len(recorder.history["norm"]) + 1
        made = _plain_passes(Xn, Yn, w, b, learning_rate / epoch**decay, threshold,
                             order(len(Yn)))(1)
        if made[0] >= 0:
            recorder.epoch(np.append(w, b[0]), w, b[0])
        return made

    per_epoch = _drive(one_pass, max_epochs, (w, b))
    return train_result(w, b[0], per_epoch, recorder.history)


@dataclass
class OnlineRun(Unpackable):
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
    steps = _checks.positive_int(steps, "steps")
    x = np.array([1.0, 0.0]) if x is None else _checks.vector(x, "x").astype(np.float64)
    top = float(np.max(np.abs(x)))
    if top == 0.0:
        raise ValueError(f"x must be a nonzero vector (its direction is used), got {x}")
    _checks.elements(steps * x.size, f"notes_sequence's X (steps={steps:,} rows of "
                                     f"{x.size} entries)")
    unit = x / top  # scaled first, so that the norm neither overflows nor underflows
    unit /= np.linalg.norm(unit)
    t = np.arange(1, steps + 1)
    power = (t & (t - 1)) == 0
    X = np.where(power[:, None], -2.0, 1.0) * unit
    return X, np.ones(steps)


def run_online(X, Y, *, rule: str = "perceptron", learning_rate: float = 1.0) -> OnlineRun:
    """One pass over a stream, in order, from :math:`\\theta_0 = 0`, recording every step.

    ``rule="perceptron"`` updates only on a mistake; ``rule="aggressive"`` updates on every
    example (the notes' Remark 1.19): :math:`\\theta_t = \\theta_{t-1} + \\eta a_t` always.
    """
    _checks.choice(rule, "rule", set(RULES))
    Xn, Yn, _, learning_rate = _trainer_args(X, Y, 1, learning_rate)
    theta = np.zeros(Xn.shape[1] + 1)
    done: list[_Pass] = []

    def one_pass(budget: int) -> list[int]:
        done.append(_step_pass(Xn, Yn, theta, learning_rate, guard=rule == "perceptron"))
        return [done[0].made]

    _drive(one_pass, 1, (theta,))  # one pass; raises if it overflowed
    step = done[0]
    thetas = step.thetas()
    margins = step.margins(Xn, Yn)
    return OnlineRun(margins, margins <= 0.0, thetas, _row_norms(thetas))


def train_aggressive(X, Y, *, max_epochs: int, learning_rate: float = 1.0,
                     record: bool = False) -> TrainResult:
    """The unguarded rule: a perceptron step on every example, right or wrong.

    Each pass adds :math:`\\eta \\sum_i a_i` to :math:`\\theta`, so after :math:`T` passes
    :math:`\\theta_T = T \\eta \\sum_i a_i` and :math:`\\|\\theta_T\\|` grows linearly unless
    :math:`\\sum_i a_i = 0` (as on XOR). The direction tends to :math:`\\sum_i y_i (x_i, 1)`,
    whatever the mistakes. It never converges: every example triggers an update, so the run
    always stops at ``max_epochs`` with ``converged=False``.

    Returns
    -------
    TrainResult
        As for :func:`train_traced`; ``updates_per_epoch`` is always ``n``.
    """
    Xn, Yn, max_epochs, learning_rate = _trainer_args(X, Y, max_epochs, learning_rate)
    record = _checks.flag(record, "record")
    per_pass = 3 + (Xn.shape[1] + 1 if record else 0)  # updates, error, norm (and w, b)
    _checks.elements(max_epochs * per_pass,
                     f"the record of max_epochs={max_epochs:,} passes ({per_pass} numbers "
                     f"each; the unguarded rule never converges, so it makes them all)")
    return _stepwise(Xn, Yn, max_epochs, learning_rate, record, False, None,
                     lambda step: _split(step.states[-1]), guard=False)


def train_projected(X, Y, *, max_epochs: int, radius: float, learning_rate: float = 1.0,
                    record: bool = False, shuffle: bool = False, seed=None) -> TrainResult:
    """The perceptron with each update followed by a projection onto the ball of ``radius``.

    :math:`\\theta \\leftarrow \\Pi_\\rho(\\theta + \\eta a_i)` on a mistake, with
    :math:`\\Pi_\\rho(v) = v \\min(1, \\rho / \\|v\\|)`: the chapter's safeguard for SGD.
    Since the plain rule is already bounded, a ball larger than its largest
    :math:`\\|\\theta\\|` changes nothing; a smaller one makes each step larger *relative* to
    :math:`\\theta`.

    Parameters
    ----------
    radius : float
        :math:`\\rho > 0`, the radius of the ball.
    X, Y, max_epochs, learning_rate, record, shuffle, seed
        As for :func:`train_traced`.

    Returns
    -------
    TrainResult
        As for :func:`train_traced`; ``converged`` means a pass made no update.
    """
    args = _trainer_args(X, Y, max_epochs, learning_rate)
    radius = _checks.finite_float(radius, "radius", strictly_positive=True)
    return _stepwise(*args, record, shuffle, seed, lambda step: _split(step.states[-1]),
                     radius=radius)


def train_averaged(X, Y, *, max_epochs: int, learning_rate: float = 1.0,
                   record: bool = False, shuffle: bool = False, seed=None) -> TrainResult:
    """The averaged perceptron (Freund and Schapire 1999).

    Runs the plain rule and returns the average of :math:`\\theta = (w, b)` over every step
    (every example visit) so far: after :math:`T` visits,
    :math:`\\bar\\theta_T = \\frac1T \\sum_{t=1}^T \\theta_t`. Late updates move the average by
    :math:`O(1/T)`, so the predictor settles even when :math:`\\theta_t` never does.

    Parameters
    ----------
    X, Y, max_epochs, learning_rate, record, shuffle, seed
        As for :func:`train_traced` (``shuffle=True``: a fresh random order every pass).

    Returns
    -------
    TrainResult
        ``w, b``: the average; ``updates``, ``updates_per_epoch``, ``converged`` and
        ``history["norm"]`` describe the underlying plain run; ``history["error"]`` and
        ``history["weights"]`` (with ``record=True``) the averaged predictor after each pass.
    """
    args = _trainer_args(X, Y, max_epochs, learning_rate)
    total = [0.0, 0]  # sum of the theta after every step, and the number of steps

    def average(step: _Pass) -> tuple[np.ndarray, float]:
        total[0] = total[0] + step.thetas().sum(axis=0)
        total[1] += step.steps
        return _split(total[0] / total[1])

    return _stepwise(*args, record, shuffle, seed, average)


@dataclass
class _Pocket:
    """The pocket with ratchet: the weights of the longest run of correct predictions so far,
    replaced only by weights that make fewer training errors (Gallant 1990)."""

    X: np.ndarray
    Y: np.ndarray
    theta: np.ndarray
    best_run: int = 0  # run length at which the pocket's weights were checked in
    error: float = 1.0  # theta = 0 ties on every example
    run: int = 0  # correct predictions in a row of the current weights
    checked: bool = False  # ratchet already tried for the current weights?

    def correct(self, steps: int, theta: np.ndarray) -> None:
        """``steps`` correct predictions in a row by ``theta``: the ratchet is tried (once per
        weights) at the step where the run first beats the pocket's."""
        if not self.checked and self.run + steps > self.best_run:
            self.checked = True
            w, b = _split(theta)
            error = _error_rate(w, b, self.X, self.Y)
            if error < self.error:
                self.theta, self.best_run, self.error = theta.copy(), self.best_run + 1, error
        self.run += steps

    def observe(self, step: _Pass) -> tuple[np.ndarray, float]:
        """Walk one pass: stretches of correct predictions between its updates."""
        ends = np.append(step.positions, step.steps)
        starts = np.append(0, step.positions + 1)
        for j in range(len(ends)):
            if j:  # the update at step positions[j - 1]: new weights, a new run
                self.run, self.checked = 0, False
            self.correct(int(ends[j] - starts[j]), step.states[j])
        return _split(self.theta)


def train_pocket(X, Y, *, max_epochs: int, learning_rate: float = 1.0,
                 record: bool = False, shuffle: bool = False, seed=None) -> TrainResult:
    """The pocket algorithm with ratchet (Gallant 1990).

    Runs the plain rule and keeps "in the pocket" the weights with the longest run of
    consecutive correct predictions seen so far, with a ratchet: weights whose run beats the
    pocket's replace it only if they also make fewer training errors. The pocket's training
    error therefore never increases.

    Takes the arguments of :func:`train_averaged` and returns what it does, with the pocket
    in place of the average: ``w, b`` and ``history["error"]``, ``history["weights"]`` describe
    the pocket after each pass; the rest, the underlying plain run.
    """
    args = _trainer_args(X, Y, max_epochs, learning_rate)
    pocket = _Pocket(args[0], args[1], np.zeros(args[0].shape[1] + 1))
    return _stepwise(*args, record, shuffle, seed, pocket.observe)


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
    bias : bool
    """

    thetas: np.ndarray
    examples: np.ndarray
    converged: bool
    epochs: int
    bias: bool

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


def update_path(X, Y, *, max_epochs: int, bias: bool = True, w0=None, b0: float = 0.0,
                threshold: float = 0.0) -> UpdatePath:
    """Replay Rosenblatt's rule in data order and keep the parameters after every update.

    The same rule as :func:`~gluon_perceptron.train` with learning rate 1 (update when
    :math:`y_i (w^\\top x_i + b) \\le \\delta`: :math:`w \\mathrel{+}= y_i x_i`,
    :math:`b \\mathrel{+}= y_i`), plus ``bias=False`` for the homogeneous perceptron of
    Novikoff's theorem, which has no :math:`b`. It runs the package's epoch kernel
    (``core.kernel._numpy_epoch``), which scans ahead for the next example at or below the
    threshold, and notes the parameters after every update (its ``on_update`` hook).
    """
    Xn, Yn = _checks.dataset(X, Y)
    d = Xn.shape[1]
    max_epochs = _checks.positive_int(max_epochs, "max_epochs")
    threshold = _checks.finite_float(threshold, "threshold", minimum=0.0)
    bias = _checks.flag(bias, "bias")
    b0 = _checks.finite_float(b0, "b0")
    if not bias and b0 != 0.0:
        raise ValueError("b0 must be 0 when bias=False (the homogeneous perceptron has no b)")
    w = np.zeros(d, dtype=Xn.dtype) if w0 is None else _checks.vector(
        w0, "w0", size=d).astype(Xn.dtype)
    b = np.array([b0], dtype=Xn.dtype)

    def state() -> np.ndarray:
        return np.append(w, b) if bias else w.copy()

    thetas = [state()]
    examples: list[int] = []

    def keep(k: int) -> None:
        thetas.append(state())
        examples.append(k)

    per_epoch = _drive(lambda budget: [_numpy_epoch(Xn, Yn, w, b, 1.0, threshold, bias=bias,
                                                    on_update=keep)],
                       max_epochs, (w, b), Xn.dtype)
    return UpdatePath(np.array(thetas, dtype=np.float64), np.array(examples, dtype=int),
                      per_epoch[-1] == 0, len(per_epoch), bias)
