r"""The fast twins of the pocket, the averaged, the projected and the aggressive perceptron,
whose readable loops are in :mod:`gluon_perceptron.core.rosenblatt.variants`.

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

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._arrays import _split
from ..rosenblatt.engine import _drive
from ..rosenblatt.pass_parts import _float64, _orders, _project, _Recorder
from ..rosenblatt.results import TrainResult, train_result
from ..rosenblatt.training import _error_rate
from .training_fast import _mistakes


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
        """The ratchet: ``theta`` replaces the pocket's weights if it errs less often."""
        w, b = _split(theta)
        error = _error_rate(w, b, self.X, self.Y)
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
