r"""Variants of the perceptron rule that need every step: pocket, averaged, projected and
aggressive.

Each trainer's body is its loop: the plain rule's passes (from :math:`\theta = (w, b) = 0`,
update on :math:`y_i (w^\top x_i + b) \le 0`), one example at a time in numpy, and what the
variant does beside them: keep the best weights in a pocket, average the weights over every
step, project them onto a ball after each update, or step on every example. With the default
``engine="fast"`` the same arguments go to the variant's twin in
:mod:`gluon_perceptron.core.fast.variants_fast`, which scans ahead to the next update in numpy
blocks and gives the same result bit for bit. The traced plain run, the online run and the
update path are in :mod:`.traced`.
"""

from __future__ import annotations

import numpy as np

from .._arrays import _split
from .._convert import as_features, as_labels
from .._validation import fits, flag, real, validate_params
from ..fast import variants_fast as fast
from .engine import _guard
from .pass_parts import _orders, _project, _Recorder
from .results import TrainResult, train_result
from .training import error_rate

#: ``record``, and the record of ``max_epochs`` passes that the unguarded rule makes fits.
_RECORD = fits(flag(), lambda record, args: args["max_epochs"] * (
    3 + (args["X"].shape[1] + 1 if record else 0)), "the record of max_epochs={max_epochs:,} "
    "passes (the unguarded rule never converges, so it makes them all)", ("X", "max_epochs"))


@validate_params(record=_RECORD)
@np.errstate(over="ignore", invalid="ignore")  # what overflows, the guards below refuse
def train_aggressive(X, Y, *, max_epochs: int, learning_rate: float = 1.0,
                     record: bool = False, engine: str = "fast") -> TrainResult:
    """The unguarded rule: a perceptron step on every example, right or wrong.

    Each pass adds :math:`\\eta \\sum_i a_i` to :math:`\\theta`, so after :math:`T` passes
    :math:`\\theta_T = T \\eta \\sum_i a_i` and :math:`\\|\\theta_T\\|` grows linearly unless
    :math:`\\sum_i a_i = 0` (as on XOR). The direction tends to :math:`\\sum_i y_i (x_i, 1)`,
    whatever the mistakes. It never converges: every example triggers an update, so the run
    always stops at ``max_epochs`` with ``converged=False``.

    ``engine="faithful"`` runs the loop below; ``"fast"`` (the default) its twin, the same
    steps recorded by pass.

    Returns
    -------
    TrainResult
        As for :func:`~.traced.train_traced`; ``updates_per_epoch`` is always ``n``.
    """
    X, Y = as_features(X, np.float64), as_labels(Y)  # the arguments as float64 arrays
    if engine == "fast":  # the twin of the loop below: the same steps, bit for bit
        return fast.train_aggressive(X, Y, max_epochs=max_epochs, learning_rate=learning_rate,
                                     record=record)
    recorder, theta, per_epoch = _Recorder(X, Y, record), np.zeros(X.shape[1] + 1), []
    w, b = theta[:-1], theta[-1:]  # views: theta is (w, b)
    for epoch in range(1, max_epochs + 1):  # the epoch budget
        for x, y in zip(X, Y):  # a step on every example, right or wrong
            w += (learning_rate * y) * x
            b += learning_rate * y
        _guard(epoch, weights=(w, b))  # the overflow guard
        recorder.epoch(theta, *_split(theta))
        per_epoch.append(len(Y))
    return train_result(*_split(theta), per_epoch, recorder.history)


@validate_params(radius=real(positive=True))
@np.errstate(over="ignore", invalid="ignore")  # what overflows, the guards below refuse
def train_projected(X, Y, *, max_epochs: int, radius: float, learning_rate: float = 1.0,
                    record: bool = False, shuffle: bool = False, seed=None,
                    engine: str = "fast") -> TrainResult:
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
    engine : {"fast", "faithful"}
        ``"faithful"``: the loop below, one example at a time; ``"fast"``: its twin, which
        scans ahead to the next mistake in numpy blocks (the same result, bit for bit).

    Returns
    -------
    TrainResult
        As for :func:`~.traced.train_traced`; ``converged`` means a pass made no update.
    """
    X, Y = as_features(X, np.float64), as_labels(Y)  # the arguments as float64 arrays
    if engine == "fast":  # the twin of the loop below: the same updates, bit for bit
        return fast.train_projected(X, Y, max_epochs=max_epochs, radius=radius,
                                    learning_rate=learning_rate, record=record,
                                    shuffle=shuffle, seed=seed)
    recorder, order = _Recorder(X, Y, record), _orders(shuffle, seed)
    theta, per_epoch = np.zeros(X.shape[1] + 1), []
    w, b = theta[:-1], theta[-1:]  # views: theta is (w, b)
    for epoch in range(1, max_epochs + 1):  # the epoch budget
        updates = 0
        for i in order(len(Y)):
            margin = Y[i] * (X[i] @ w + b[0])
            _guard(epoch, margins=margin)  # the overflow guard
            if margin <= 0:  # a mistake, or a tie: the rule's step, then back to the ball
                w += (learning_rate * Y[i]) * X[i]
                b += learning_rate * Y[i]
                _project(theta, radius)
                updates += 1
        _guard(epoch, weights=(w, b))
        recorder.epoch(theta, *_split(theta))
        per_epoch.append(updates)
        if updates == 0:  # a pass without an update: the data is separated
            break
    return train_result(*_split(theta), per_epoch, recorder.history)


@validate_params()
@np.errstate(over="ignore", invalid="ignore")  # what overflows, the guards below refuse
def train_averaged(X, Y, *, max_epochs: int, learning_rate: float = 1.0,
                   record: bool = False, shuffle: bool = False, seed=None,
                   engine: str = "fast") -> TrainResult:
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
    engine : {"fast", "faithful"}
        ``"faithful"``: the loop below, one example at a time; ``"fast"``: its twin, which
        scans ahead to the next mistake and sums a pass's steps from its record (the same
        result, bit for bit).

    Returns
    -------
    TrainResult
        ``w, b``: the average; ``updates``, ``updates_per_epoch``, ``converged`` and
        ``history["norm"]`` describe the underlying plain run; ``history["error"]`` and
        ``history["weights"]`` (with ``record=True``) the averaged predictor after each pass.
    """
    X, Y = as_features(X, np.float64), as_labels(Y)  # the arguments as float64 arrays
    if engine == "fast":  # the twin of the loop below: the same updates, bit for bit
        return fast.train_averaged(X, Y, max_epochs=max_epochs, learning_rate=learning_rate,
                                   record=record, shuffle=shuffle, seed=seed)
    recorder, order = _Recorder(X, Y, record), _orders(shuffle, seed)
    theta, total, visits, per_epoch = np.zeros(X.shape[1] + 1), np.zeros(X.shape[1] + 1), 0, []
    w, b = theta[:-1], theta[-1:]  # views: theta is (w, b)
    for epoch in range(1, max_epochs + 1):  # the epoch budget
        updates, this_pass = 0, np.zeros_like(theta)
        for i in order(len(Y)):
            margin = Y[i] * (X[i] @ w + b[0])
            _guard(epoch, margins=margin)  # the overflow guard
            if margin <= 0:  # a mistake, or a tie: the rule's step
                w += (learning_rate * Y[i]) * X[i]
                b += learning_rate * Y[i]
                updates += 1
            this_pass += theta  # theta after every step, summed
        _guard(epoch, weights=(w, b))
        total, visits = total + this_pass, visits + len(Y)
        recorder.epoch(theta, *_split(total / visits))
        per_epoch.append(updates)
        if updates == 0:  # a pass without an update: the data is separated
            break
    return train_result(*_split(total / visits), per_epoch, recorder.history)


@validate_params()
@np.errstate(over="ignore", invalid="ignore")  # what overflows, the guards below refuse
def train_pocket(X, Y, *, max_epochs: int, learning_rate: float = 1.0,
                 record: bool = False, shuffle: bool = False, seed=None,
                 engine: str = "fast") -> TrainResult:
    """The pocket algorithm with ratchet (Gallant 1990).

    Runs the plain rule and keeps "in the pocket" the weights with the longest run of
    consecutive correct predictions seen so far, with a ratchet: weights whose run beats the
    pocket's replace it only if they also make fewer training errors. The pocket's training
    error therefore never increases.

    Takes the arguments of :func:`train_averaged` and returns what it does, with the pocket
    in place of the average: ``w, b`` and ``history["error"]``, ``history["weights"]`` describe
    the pocket after each pass; the rest, the underlying plain run.
    """
    X, Y = as_features(X, np.float64), as_labels(Y)  # the arguments as float64 arrays
    if engine == "fast":  # the twin of the loop below: the same pocket, bit for bit
        return fast.train_pocket(X, Y, max_epochs=max_epochs, learning_rate=learning_rate,
                                 record=record, shuffle=shuffle, seed=seed)
    recorder, order = _Recorder(X, Y, record), _orders(shuffle, seed)
    theta, per_epoch = np.zeros(X.shape[1] + 1), []
    w, b = theta[:-1], theta[-1:]  # views: theta is (w, b)
    pocket, pocket_run, pocket_error = theta.copy(), 0, 1.0  # theta = 0 ties on every example
    run, tried = 0, False  # correct predictions in a row of the current weights; ratchet tried?
    for epoch in range(1, max_epochs + 1):  # the epoch budget
        updates = 0
        for i in order(len(Y)):
            margin = Y[i] * (X[i] @ w + b[0])
            _guard(epoch, margins=margin)  # the overflow guard
            if margin <= 0:  # a mistake, or a tie: the rule's step; new weights, a new run
                w += (learning_rate * Y[i]) * X[i]
                b += learning_rate * Y[i]
                run, tried, updates = 0, False, updates + 1
                continue
            run += 1
            if run > pocket_run and not tried:  # the ratchet, tried once per weights:
                tried, error = True, error_rate(*_split(theta), X, Y)
                if error < pocket_error:  # into the pocket only if they err less often
                    pocket, pocket_run, pocket_error = theta.copy(), pocket_run + 1, error
        _guard(epoch, weights=(w, b))
        recorder.epoch(theta, *_split(pocket))
        per_epoch.append(updates)
        if updates == 0:  # a pass without an update: the data is separated
            break
    return train_result(*_split(pocket), per_epoch, recorder.history)
