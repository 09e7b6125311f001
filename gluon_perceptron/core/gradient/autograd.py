r"""The perceptron as SGD by MXNet's autograd: :func:`train_autograd`.

SGD on :func:`~.perceptron_loss` with :math:`\eta` constant, one example per step, in data
order, from :math:`w = 0, b = 0`: each step is :func:`~.sgd_step`, which makes exactly the
update :math:`w \mathrel{+}= \eta y x, b \mathrel{+}= \eta y` of :func:`~.train` when
:math:`y (w^\top x + b) \le 0` (the loss's gradient there is :math:`(-y x, -y)`) and nothing
otherwise. Where the package's threshold losses are flat (margin above :math:`\delta`,
gradient 0) that step would change nothing; the chapter's margin test (``_flat_test``)
finds those examples first and the trainer skips them, which keeps it at about the chapter's
speed and changes no bit. Passes repeat until one makes no update or ``max_epochs`` are done;
weights or margins that left the floats are refused after each pass.
"""

from __future__ import annotations

import functools
import numbers
from collections.abc import Callable

import mxnet as mx
import numpy as np
from mxnet import nd

from .._arrays import _guard
from .._convert import as_features, as_labels
from .._validation import Rule, validate_params
from ..rosenblatt.results import TrainResult, train_result
from .losses import (
    _flat_margin,
    hinge_loss,
    perceptron_loss,
    relu_perceptron_loss,
    threshold_loss,
)
from .sgd import parameters_like
from .sgd_update import LOSS, Loss, normal_rate, sgd_step


def _flat_threshold(loss: Loss) -> float | None:
    """The :math:`\\delta` beyond which ``loss`` is known to be flat, or None.

    The package's threshold losses :math:`\\max(0, \\delta - y f(x))` have gradient 0 wherever
    the margin :math:`y f(x) > \\delta`, so an SGD step there changes nothing: 0 for
    :func:`~.perceptron_loss` and :func:`~.relu_perceptron_loss`, 1 for :func:`~.hinge_loss`,
    ``delta`` for ``functools.partial(threshold_loss, threshold=delta)`` (finite, >= 0). Any
    other loss gives None: nothing is known about its gradient.
    """
    for known, delta in ((perceptron_loss, 0.0), (relu_perceptron_loss, 0.0), (hinge_loss, 1.0)):
        if loss is known:
            return delta
    if isinstance(loss, functools.partial) and loss.func is threshold_loss and not loss.args \
            and set(loss.keywords) == {"threshold"}:
        delta = loss.keywords["threshold"]
        if isinstance(delta, numbers.Real) and not isinstance(delta, bool) \
                and 0.0 <= float(delta) < np.inf:
            return float(delta)
    return None


def _flat_test(loss: Loss, w: nd.NDArray, b: nd.NDArray) -> Callable[[nd.NDArray, float], bool]:
    """``flat(x, y)``: True where the SGD step on ``(x, y)`` at the current ``(w, b)`` is known
    to change nothing, so that the trainer can skip it.

    Why: a step is a recorded forward pass, a backward pass and a host sync, about twice the
    chapter's whole step, while on the examples a threshold loss already classifies (margin
    :math:`y (w^\\top x + b) > \\delta`) its gradient is 0. Testing the margin first costs the
    chapter's own test, ``(nd.dot(w, x) + b).asscalar()``, the same operators the loss scores
    with, so the bits of every step taken are unchanged. The test is only ever True above
    ``losses._flat_margin``; for a loss of unknown shape (``_flat_threshold`` gives
    None) it is never True and every step is taken.
    """
    delta = _flat_threshold(loss)
    if delta is None:
        return lambda x, y: False
    above = _flat_margin(delta, w.dtype)
    return lambda x, y: y * float((nd.dot(w, x) + b).asscalar()) > above


def _refuse_overflow_after(epoch: int, w: nd.NDArray, b: nd.NDArray, X: np.ndarray,
                           Y: np.ndarray) -> None:
    """The overflow guard of the NDArray trainers (autograd, Gluon) after pass ``epoch``:
    refuse weights that left the floats, and finite weights whose margins
    :math:`y (w^\\top x + b)` on ``(X, Y)`` did not (a margin of inf would count as "correct"
    and the run as converged)."""
    wn, bn = w.asnumpy().reshape(-1), b.asnumpy()
    _guard(epoch, weights=(wn, bn), dtype=X.dtype)
    with np.errstate(over="ignore", invalid="ignore"):  # refused just below
        margins = Y * (X @ wn.astype(X.dtype, copy=False) + X.dtype.type(bn[0]))
    _guard(epoch, margins=margins, dtype=X.dtype)


@validate_params(learning_rate=Rule(normal_rate, "real(positive=True), normal"), loss=LOSS)
def train_autograd(X, Y, *, max_epochs: int, learning_rate: float = 1.0,
                   loss: Loss = perceptron_loss, ctx: mx.Context | None = None) -> TrainResult:
    """The perceptron as SGD: autograd on :func:`~.perceptron_loss`, one example per step.

    Starts at :math:`w = 0, b = 0` and makes passes over the data in order, each example one
    :func:`~.sgd_step` with constant :math:`\\eta`, until a pass makes no update or
    ``max_epochs`` passes are done. An update is a step whose loss gradient was nonzero, i.e.
    :math:`y f(x) \\le 0`. With the same data (same dtype) this gives exactly the weights, bias
    and updates per epoch of :func:`~.train` (both engines), for any ``learning_rate``: the
    gradient :math:`(-y x, -y)` is exact and :math:`w - \\eta (-y x)` rounds like
    :math:`w + \\eta y x`. Examples on which a threshold loss is flat (margin above
    :math:`\\delta`) skip the step after the chapter's margin test: it would change nothing.

    Parameters
    ----------
    X : array-like or NDArray, shape (n, d)
    Y : array-like or NDArray, shape (n,), labels in {-1, +1}
    max_epochs : int
        Bound on the passes.
    learning_rate : float
        Constant :math:`\\eta > 0`.
    loss : callable
        The loss to differentiate; ``functools.partial(threshold_loss, threshold=delta)``
        reproduces ``train(..., threshold=delta)``, :func:`~.relu_perceptron_loss` shows the trap.
        The package's losses run unchecked (the data was checked once); a loss of your own runs
        with its calls checked and must return an NDArray.
    ctx : mx.Context, optional
        Where the parameters and the data live (default ``mx.cpu()``).

    Returns
    -------
    TrainResult
        ``converged`` is True when the last pass made no update.

    Raises
    ------
    ValueError
        When the weights or the margins overflow to inf/nan (scale the data or lower the rate).
    """
    X = as_features(X)
    Y, learning_rate, ctx = as_labels(Y, like=X), float(learning_rate), ctx or mx.cpu()
    w, b = parameters_like((X.shape[1],), (1,), X.dtype, ctx)
    Xd = nd.array(X, dtype=X.dtype, ctx=ctx)
    examples = [(Xd[i], float(Y[i])) for i in range(X.shape[0])]
    flat = _flat_test(loss, w, b)  # where the loss is flat, the step would change nothing
    per_epoch: list[int] = []
    for epoch in range(1, max_epochs + 1):  # the epoch budget
        updates = 0
        for x, y in examples:  # one SGD step per example, in order
            if not flat(x, y):
                updates += int(sgd_step(w, b, x, y, loss=loss, learning_rate=learning_rate)[0])
        _refuse_overflow_after(epoch, w, b, X, Y)  # the overflow guard
        per_epoch.append(updates)
        if updates == 0:
            break
    return train_result(w.asnumpy(), float(b.asscalar()), per_epoch)
