r"""The fast twins of the pocket, the averaged, the projected and the aggressive perceptron,
whose readable loops are in :mod:`gluon_perceptron.core.rosenblatt.variants`, and of the traced
run and the update path (:mod:`gluon_perceptron.core.rosenblatt.traced`).

Each readable loop decides one example at a time in Python. A twin finds the next update by
scanning ahead in numpy blocks (:func:`~.training_fast._mistakes`), records the parameters after
every update of a pass (:class:`_Pass`), and works out what the variant keeps from that record
in a few numpy operations: the average of :math:`\theta` over every step (one sum per pass), or
the stretches of correct predictions between two updates (the pocket). The updates are the
readable loops' operations, so the results are theirs bit for bit
(``tests/core/fast/test_fast.py``).

:class:`_Pocket` is the ratchet of the fast pocket: :func:`train_pocket` here and the lockstep
runs of :mod:`~gluon_perceptron.core.rosenblatt.lockstep` both offer it their weights.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._arrays import _split
from ..rosenblatt.engine import _drive, _guard, _jit, _use_compiled
from ..rosenblatt.pass_parts import (
    PATH_FIX,
    _float64,
    _history,
    _orders,
    _project,
    _Recorder,
    _step_size,
)
from ..rosenblatt.results import TrainResult, train_result
from ..rosenblatt.training import _error_rate
from .training_fast import _compiled_epoch, _mistakes, _numpy_epoch


@dataclass
class _Pass:
    """What one pass did, step by step, from the parameters it recorded.

    ``states[0]`` is :math:`\\theta` before the pass, ``states[j]`` after its ``j``-th update;
    ``positions[j - 1]`` is the step (0-based, in visiting order) of that update.
    """

    states: np.ndarray
    positions: np.ndarray
    steps: int
    made: int  # the updates, or -1 if a margin overflowed

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


def _recorded_pass(X: np.ndarray, Y: np.ndarray, theta: np.ndarray, learning_rate: float,
                   radius: float | None = None) -> _Pass:
    """One pass of the rule over ``X`` in order on ``theta = (w, b)`` (changed in place),
    recording the parameters after every update; with ``radius``, each update is followed by
    the projection onto that ball."""
    w, b = theta[:-1], theta[-1:]
    states, positions, made = [theta.copy()], [], 0
    for k in _mistakes(X, Y, w, b, 0.0):
        if k < 0:
            made = -1
            break
        step = learning_rate * Y[k]
        w += step * X[k]
        b += step
        if radius is not None:
            _project(theta, radius)
        states.append(theta.copy())
        positions.append(k)
        made += 1
    return _Pass(np.array(states), np.array(positions, dtype=np.int64), X.shape[0], made)


def _every_step_pass(X: np.ndarray, Y: np.ndarray, theta: np.ndarray,
                     learning_rate: float) -> _Pass:
    """One pass of the unguarded rule: a step on every example, recorded."""
    w, b = theta[:-1], theta[-1:]
    states = [theta.copy()]
    for t in range(X.shape[0]):
        step = learning_rate * Y[t]
        w += step * X[t]
        b += step
        states.append(theta.copy())
    n = X.shape[0]
    return _Pass(np.array(states), np.arange(n, dtype=np.int64), n, n)


def _passes(X, Y, max_epochs, learning_rate, record, shuffle, seed,
            after_pass: Callable[[_Pass], tuple[np.ndarray, float]], *, guard: bool = True,
            radius: float | None = None) -> TrainResult:
    """Recorded passes from :math:`\\theta = 0` until one makes no update or ``max_epochs``;
    after each one, ``after_pass(step)`` gives the predictor ``(w, b)`` to record and return."""
    X, Y = _float64(X, Y)
    recorder, order = _Recorder(X, Y, record), _orders(shuffle, seed)
    theta = np.zeros(X.shape[1] + 1)
    out: list = [None, 0.0]

    def one_pass(budget: int) -> list[int]:
        rows = order(len(Y))
        Xo, Yo = (X[rows], Y[rows]) if shuffle else (X, Y)
        step = (_recorded_pass(Xo, Yo, theta, learning_rate, radius) if guard
                else _every_step_pass(Xo, Yo, theta, learning_rate))
        if step.made >= 0 and np.isfinite(step.states[-1]).all():  # else _drive refuses it
            out[:] = after_pass(step)
            recorder.epoch(step.states[-1], *out)
        return [step.made]

    per_epoch = _drive(one_pass, max_epochs, (theta,))
    return train_result(np.asarray(out[0], dtype=np.float64), out[1], per_epoch,
                        recorder.history)


def train_aggressive(X, Y, *, max_epochs: int, learning_rate: float = 1.0,
                     record: bool = False) -> TrainResult:
    """The twin of ``train_aggressive``: its passes, recorded."""
    return _passes(X, Y, max_epochs, learning_rate, record, False, None,
                   lambda step: _split(step.states[-1]), guard=False)


def train_projected(X, Y, *, max_epochs: int, radius: float, learning_rate: float = 1.0,
                    record: bool = False, shuffle: bool = False, seed=None) -> TrainResult:
    """The twin of ``train_projected``: scanned-ahead passes, each update projected."""
    return _passes(X, Y, max_epochs, learning_rate, record, shuffle, seed,
                   lambda step: _split(step.states[-1]), radius=radius)


def train_averaged(X, Y, *, max_epochs: int, learning_rate: float = 1.0,
                   record: bool = False, shuffle: bool = False, seed=None) -> TrainResult:
    """The twin of ``train_averaged``: the sum of :math:`\\theta` over a pass's steps from its
    record (the rows summed in order, as the readable loop adds them), once per pass."""
    total: list[Any] = [0.0, 0]  # sum of the theta after every step, and the number of steps

    def average(step: _Pass) -> tuple[np.ndarray, float]:
        total[0] = total[0] + step.thetas().sum(axis=0)
        total[1] += step.steps
        return _split(total[0] / total[1])

    return _passes(X, Y, max_epochs, learning_rate, record, shuffle, seed, average)


@dataclass
class _Pocket:
    """Gallant's pocket with ratchet: the weights kept, and the ratchet that replaces them.

    Weights whose run of correct predictions first beats ``best_run`` are :meth:`offer`-ed
    (once per weights); they go in the pocket only if they make fewer training errors.
    """

    X: np.ndarray
    Y: np.ndarray
    theta: np.ndarray
    best_run: int = 0  # run length at which the pocket's weights were checked in
    error: float = 1.0  # theta = 0 ties on every example

    def offer(self, theta: np.ndarray) -> None:
        """The ratchet: ``theta`` replaces the pocket's weights if it errs less often.

        Its training error is :func:`~.training._error_rate`'s number (the same scores
        ``X @ w + b``), without setting numpy's error state on each of the thousands of offers:
        both callers run under ``np.errstate(over="ignore", invalid="ignore")``."""
        w, b = theta[:-1], float(theta[-1])
        s = self.X @ w + b
        error = (np.count_nonzero(self.Y * s <= 0) / self.Y.size if np.isfinite(s).all()
                 else _error_rate(w, b, self.X, self.Y))  # scores that overflow: scaled
        if error < self.error:
            self.theta, self.best_run, self.error = theta.copy(), self.best_run + 1, error


def train_pocket(X, Y, *, max_epochs: int, learning_rate: float = 1.0, record: bool = False,
                 shuffle: bool = False, seed=None) -> TrainResult:
    """The twin of ``train_pocket``: each recorded pass replayed as stretches of correct
    predictions between its updates, the ratchet tried where a stretch first beats the
    pocket's run."""
    pocket = _Pocket(*_float64(X, Y), np.zeros(X.shape[1] + 1))
    run, tried = [0], [False]  # the current weights' correct predictions in a row; offered?

    def observe(step: _Pass) -> tuple[np.ndarray, float]:
        ends = np.append(step.positions, step.steps)
        starts = np.append(0, step.positions + 1)
        for j in range(len(ends)):
            if j:  # the update at step positions[j - 1]: new weights, a new run
                run[0], tried[0] = 0, False
            correct = int(ends[j] - starts[j])
            if not tried[0] and run[0] + correct > pocket.best_run:
                tried[0] = True
                pocket.offer(step.states[j])
            run[0] += correct
        return _split(pocket.theta)

    return _passes(X, Y, max_epochs, learning_rate, record, shuffle, seed, observe)


@np.errstate(over="ignore", invalid="ignore")  # what overflows, the guard refuses
def train_traced(X, Y, *, max_epochs: int, learning_rate: float = 1.0, threshold: float = 0.0,
                 decay: float = 0.0, record: bool = False, shuffle: bool = False,
                 seed=None) -> TrainResult:
    """The twin of ``train_traced``: each pass compiled (:func:`~.rosenblatt._compiled_epoch`,
    or the numpy scan ahead), with that pass's step; the traces computed once at the end, row
    by row as the readable loop notes them (:func:`~.stepping._history`)."""
    X, Y = _float64(X, Y)
    order, compiled = _orders(shuffle, seed), _use_compiled()
    Xc, data_order = np.ascontiguousarray(X), np.arange(len(Y), dtype=np.int64)
    w, b = np.zeros(X.shape[1]), np.zeros(1)
    ends, per_epoch = [], []
    for epoch in range(1, max_epochs + 1):
        eta = _step_size(learning_rate, epoch, decay)
        rows = order(len(Y))
        rows = np.asarray(rows, dtype=np.int64) if shuffle else data_order
        made = (_compiled_epoch(Xc, Y, rows, w, b, np.float64(eta), threshold) if compiled
                else _numpy_epoch(X[rows], Y[rows], w, b, eta, threshold))
        _guard(epoch, margins=math.nan if made < 0 else 0.0, weights=(w, b))
        ends.append(np.append(w, b[0]))
        per_epoch.append(made)
        if made == 0:
            break
    path = np.array(ends)  # theta after each pass
    return train_result(w, b[0], per_epoch, _history(X, Y, path, path, record))


def update_path(X, Y, *, max_epochs: int, bias: bool = True, w0=None, b0: float = 0.0,
                threshold: float = 0.0) -> tuple[np.ndarray, np.ndarray, list[int]]:
    """The twin of ``update_path``: each pass scans ahead to its next update
    (:func:`~.rosenblatt._mistakes`), the parameters noted after every update. Returns what
    ``update_path`` builds its result from: the parameters, the examples, the updates per
    pass."""
    w = np.zeros(X.shape[1], dtype=X.dtype) if w0 is None else w0.astype(X.dtype)
    b = np.array([b0], dtype=X.dtype)
    thetas, examples = [np.append(w, b) if bias else w.copy()], []

    def one_pass(budget: int) -> list[int]:
        made = 0
        for k in _mistakes(X, Y, w, b, threshold):
            if k < 0:
                return [-1]
            w[:] += Y[k] * X[k]  # in place: the scan reads w and b
            if bias:
                b[:] += Y[k]
            thetas.append(np.append(w, b) if bias else w.copy())
            examples.append(k)
            made += 1
        return [made]

    per_epoch = _drive(one_pass, max_epochs, (w, b), X.dtype, PATH_FIX)
    return np.array(thetas, dtype=np.float64), np.array(examples, dtype=int), per_epoch


@_jit
def _lockstep_pass(At, Yt, A, Y, theta, eta, threshold, active, ball, projected, pocket,
                   streak, due_after, best_run, errors, ptheta, psum, made):  # pragma: no cover
    """One pass of :func:`~gluon_perceptron.core.rosenblatt.lockstep.lockstep_runs`'s numpy
    loop, compiled: the same operations on each run (column ``r`` of ``theta``, shape
    ``(p, R)``), step by step, in the same order.

    At step ``t``: the margin summed left to right, :math:`y ((a_1 \\theta_1 + \\dots) +
    \\theta_p)`; on a margin at or below the run's threshold (or NaN) and an active run, the
    step :math:`\\theta \\mathrel{+}= a\\, (y \\eta)` and, for a projected run, the projection
    (the sum of squares left to right); the streak of correct steps, and Gallant's ratchet
    when a pocket run's streak first beats its pocket's (its training error ``errors[r]``
    counted with each score summed left to right); then ``psum += theta``. ``At`` and ``Yt``
    are the pass's examples in visiting order, ``(n, p, R)`` and ``(n, R)``; ``A`` and ``Y``
    each run's examples in data order, ``(R, n, p)`` and ``(R, n)``, for the ratchet.

    Returns 0, 1 if a margin was inf (which counts as correct: refused after the pass), or 2
    if a projection's sum of squares or a score of the ratchet left the floats (the caller
    then runs the trainers themselves, which handle both).
    """
    n, p, R = At.shape
    never = np.iinfo(np.int64).max
    status = 0
    for t in range(n):
        for r in range(R):
            m = At[t, 0, r] * theta[0, r]
            for j in range(1, p - 1):
                m += At[t, j, r] * theta[j, r]
            m += theta[p - 1, r]
            m *= Yt[t, r]
            if m == np.inf:
                status = max(status, 1)
            hit = active[r] and not m > threshold[r]
            if hit:
                s = Yt[t, r] * eta[r]
                for j in range(p):
                    theta[j, r] += At[t, j, r] * s
                made[r] += 1
                if projected[r]:
                    sq = theta[0, r] * theta[0, r] + theta[1, r] * theta[1, r]
                    for j in range(2, p):
                        sq += theta[j, r] * theta[j, r]
                    norm = np.sqrt(sq)
                    if not np.isfinite(norm):
                        return 2
                    if norm > ball[r]:
                        f = ball[r] / norm
                        for j in range(p):
                            theta[j, r] *= f
                streak[r] = 0
                if pocket[r]:
                    due_after[r] = best_run[r]  # new weights: not tried yet
            elif active[r]:
                streak[r] += 1
            if streak[r] > due_after[r]:
                due_after[r] = never  # one try per weights
                wrong = 0
                for i in range(A.shape[1]):
                    score = A[r, i, 0] * theta[0, r]
                    for j in range(1, p - 1):
                        score += A[r, i, j] * theta[j, r]
                    margin = Y[r, i] * (score + theta[p - 1, r])
                    if not np.isfinite(margin):
                        return 2  # _Pocket.offer's scaled scores: the trainers' way
                    if margin <= 0.0:
                        wrong += 1
                error = wrong / A.shape[1]
                if error < errors[r]:
                    for j in range(p):
                        ptheta[j, r] = theta[j, r]
                    best_run[r] += 1
                    errors[r] = error
        for j in range(p):
            for r in range(R):
                psum[j, r] += theta[j, r]
    return status
