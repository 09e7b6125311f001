r"""What the variants need from every step: one recorded pass of the epoch kernel, the per-pass
traces, and the driver of passes from :math:`\theta = 0`.

Every variant (:mod:`.variants`, :mod:`.traced`) makes its passes with the package's one epoch
kernel (:func:`~.engine._numpy_epoch`, or its compiled twin for the plain passes of
:func:`~.traced.train_traced`), driven by :func:`~.engine._drive`, and returns a
:class:`~gluon_perceptron.TrainResult` built by :func:`~.results.train_result`. What a variant
needs from every step comes from the kernel's hooks: the parameters after each update
(``on_update``), the projection onto a ball (done in ``on_update``, before the scan resumes), a
step on every example (``guard=False``) and a visiting order (``order``, for ``shuffle=True``).
Nothing here checks its arguments: the public trainers declare their rules (:data:`PASS_RULES`,
:data:`RUN_RULES`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .._arrays import _row_norms
from .._validation import count, features, flag, labels, real, seed
from .engine import _drive, _numpy_epoch
from .results import TrainResult, train_result
from .training import error_rate

#: The rules of the arguments every trainer here takes first.
PASS_RULES = dict(X=features(), Y=labels(of="X"), max_epochs=count(),
                  learning_rate=real(positive=True))

#: The rules of ``record``, ``shuffle`` and ``seed``.
RUN_RULES = dict(record=flag(), shuffle=flag(), seed=seed())


def _project(theta: np.ndarray, radius: float) -> None:
    r"""Project :math:`\theta` onto the ball of ``radius`` in place:
    :math:`\theta \leftarrow \theta \min(1, \rho / \|\theta\|)`."""
    # the sum of squares left to right (cumsum is sequential; a BLAS dot's order depends on
    # the CPU), so the lockstep runs and the compiled twins can equal it bit for bit anywhere
    norm = math.sqrt(float(np.cumsum(theta * theta)[-1]))
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


def _orders(shuffle: bool, seed: int | None) -> Callable[[int], np.ndarray | None]:
    """The visiting order of each pass: data order, or a fresh permutation from
    ``numpy.random.default_rng(seed)`` every pass when ``shuffle`` is True."""
    if not shuffle:
        return lambda n: None
    return np.random.default_rng(seed).permutation


def _float64(X, Y) -> tuple[np.ndarray, np.ndarray]:
    """The trainers here compute in float64 (a no-op for float64 arrays)."""
    return np.asarray(X, dtype=np.float64), np.asarray(Y, dtype=np.float64)


class _Recorder:
    """Collects the per-epoch traces every trainer here returns in ``TrainResult.history``."""

    def __init__(self, X: np.ndarray, Y: np.ndarray, record: bool):
        self.X, self.Y, self.record = X, Y, record
        self.history: dict = {"error": [], "norm": []}
        if self.record:
            self.history["weights"] = []

    def epoch(self, running: np.ndarray, w: np.ndarray, b: float) -> None:
        """Note one pass: the running (w, b), and the predictor returned."""
        self.history["norm"].append(float(_row_norms(running)[0]))
        self.history["error"].append(error_rate(w, b, self.X, self.Y))
        if self.record:
            self.history["weights"].append((np.array(w, dtype=np.float64), float(b)))


def _stepwise(X, Y, max_epochs, learning_rate, record, shuffle, seed, after_pass, *,
              guard=True, radius=None) -> TrainResult:
    """Drive passes of :func:`_step_pass` from :math:`\\theta = 0` on checked data; after each
    one, ``after_pass(step)`` gives the predictor ``(w, b)`` to record and return."""
    X, Y = _float64(X, Y)
    recorder = _Recorder(X, Y, record)
    order = _orders(shuffle, seed)
    theta = np.zeros(X.shape[1] + 1)
    out: list = [None, 0.0]

    def one_pass(budget: int) -> list[int]:
        step = _step_pass(X, Y, theta, learning_rate, order(len(Y)), guard=guard,
                          radius=radius)
        if step.made >= 0 and np.isfinite(step.states[-1]).all():  # else _drive refuses it
            out[:] = after_pass(step)
            recorder.epoch(step.states[-1], *out)
        return [step.made]

    per_epoch = _drive(one_pass, max_epochs, (theta,))
    return train_result(np.asarray(out[0], dtype=np.float64), out[1], per_epoch,
                        recorder.history)
