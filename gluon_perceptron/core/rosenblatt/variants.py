r"""Variants of the perceptron rule that need every step: pocket, averaged, projected and
aggressive.

Each runs the plain rule's passes (:mod:`.stepping`, over the package's one epoch kernel) and
differs only in what it keeps after each pass: the pocket's best weights, the average of every
step's weights, the projection onto a ball after each update, or a step on every example. The
traced plain run, the online run and the update path are in :mod:`.traced`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import _checks
from .._arrays import _split
from .._validation import Rule, flag, real, validate_params
from .results import TrainResult
from .stepping import PASS_RULES, RUN_RULES, _float64, _Pass, _stepwise
from .training import error_rate


def _record_fits(record, name: str, args: dict) -> bool:
    """``record``, and the unguarded rule's record of ``max_epochs`` passes fits in memory."""
    record = flag()(record, name, args)
    max_epochs, per_pass = args["max_epochs"], 3 + (args["X"].shape[1] + 1 if record else 0)
    _checks.elements(max_epochs * per_pass,
                     f"the record of max_epochs={max_epochs:,} passes ({per_pass} numbers "
                     f"each; the unguarded rule never converges, so it makes them all)")
    return record


@validate_params(**PASS_RULES, record=Rule(_record_fits, "flag(), a record that fits",
                                           ("X", "max_epochs")))
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
        As for :func:`~.traced.train_traced`; ``updates_per_epoch`` is always ``n``.
    """
    return _stepwise(X, Y, max_epochs, learning_rate, record, False, None,
                     lambda step: _split(step.states[-1]), guard=False)


@validate_params(**PASS_RULES, radius=real(positive=True), **RUN_RULES)
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
        As for :func:`~.traced.train_traced`.

    Returns
    -------
    TrainResult
        As for :func:`~.traced.train_traced`; ``converged`` means a pass made no update.
    """
    return _stepwise(X, Y, max_epochs, learning_rate, record, shuffle, seed,
                     lambda step: _split(step.states[-1]), radius=radius)


@validate_params(**PASS_RULES, **RUN_RULES)
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
        As for :func:`~.traced.train_traced` (``shuffle=True``: a fresh random order every
        pass).

    Returns
    -------
    TrainResult
        ``w, b``: the average; ``updates``, ``updates_per_epoch``, ``converged`` and
        ``history["norm"]`` describe the underlying plain run; ``history["error"]`` and
        ``history["weights"]`` (with ``record=True``) the averaged predictor after each pass.
    """
    total = [0.0, 0]  # sum of the theta after every step, and the number of steps

    def average(step: _Pass) -> tuple[np.ndarray, float]:
        total[0] = total[0] + step.thetas().sum(axis=0)
        total[1] += step.steps
        return _split(total[0] / total[1])

    return _stepwise(X, Y, max_epochs, learning_rate, record, shuffle, seed, average)


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
            error = error_rate(w, b, self.X, self.Y)
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


@validate_params(**PASS_RULES, **RUN_RULES)
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
    pocket = _Pocket(*_float64(X, Y), np.zeros(X.shape[1] + 1))
    return _stepwise(X, Y, max_epochs, learning_rate, record, shuffle, seed, pocket.observe)
