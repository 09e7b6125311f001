"""The perceptron in Gluon: a ``Dense(1)`` layer, a perceptron loss, and ``Trainer('sgd')``.

Gluon's usual training loop, with nothing perceptron-specific but the loss::

    net = gluon.nn.Dense(1)                     # f(x) = w.x + b
    loss = PerceptronLoss()                     # max(0, -y f(x)), slope -1 at the tie
    trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 1.0})
    for x, y in data:
        with autograd.record():
            l = loss(net(x), y)
        l.backward()
        trainer.step(1)                         # w -= eta * grad

learns exactly what :func:`~.train` learns, update for update, when the weights start at 0,
the examples come one at a time in data order and :math:`\\eta` is the same.
:func:`train_gluon` runs that loop, and skips the step (forward, backward, ``Trainer.step``)
on the examples where the loss is flat, found by the chapter's margin test: there the
gradient is 0 and the step would change nothing.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable

import mxnet as mx
import numpy as np
from mxnet import autograd, gluon, init, nd

from .. import _checks
from .._convert import as_features, as_labels
from .._validation import GLUON_RATE, Rule, count, fits, validate_params
from ..rosenblatt.results import TrainResult, train_result
from .autograd import _refuse_overflow_after
from .losses import _finite, _flat_margin, hinge_of_score


class PerceptronLoss(gluon.loss.Loss):
    """The perceptron loss :math:`\\max(0, \\delta - y\\, \\hat y)` for Gluon, per example.

    ``pred`` is the score :math:`\\hat y = f(x)` and ``label`` the label :math:`y \\in \\{-1,
    +1\\}`. It uses the same formula as :func:`~.threshold_loss`, the scalar
    ``F.maximum(delta - y * pred, 0)``, so the gradient at the tie :math:`y \\hat y = \\delta`
    is :math:`-y` (the perceptron's update) rather than the 0 that ``F.relu`` would give.
    Like Gluon's own losses it averages over every axis but the batch axis and accepts
    ``weight`` and ``sample_weight``.

    Parameters
    ----------
    threshold : float
        :math:`\\delta \\ge 0` (0: the perceptron, 1: the hinge loss of the margin perceptron).
    weight : float, optional
        Global scalar weight of the loss.
    batch_axis : int
        The axis that holds examples.
    check_inputs : bool
        Refuse labels outside {-1, +1} and NaN or inf scores with a ``ValueError`` (one host
        sync per call; trainers that checked their data once turn it off).
    """

    def __init__(self, threshold: float = 0.0, weight=None, batch_axis: int = 0, *,
                 check_inputs: bool = True, **kwargs):
        super().__init__(weight, batch_axis, **kwargs)
        self._threshold = _checks.finite_float(threshold, "threshold", minimum=0.0)
        self._check_inputs = bool(check_inputs)

    def forward(self, pred, label, sample_weight=None):
        if self._check_inputs and isinstance(pred, nd.NDArray) \
                and isinstance(label, nd.NDArray):
            _finite(pred, "pred", pred.dtype)  # the scores: finite real numbers
            _checks.labels(label.asnumpy().reshape(-1), name="label")
        return super().forward(pred, label, sample_weight)

    def hybrid_forward(self, F, pred, label, sample_weight=None):
        label = gluon.loss._reshape_like(F, label, pred)
        loss = hinge_of_score(F, pred, label, self._threshold)
        loss = gluon.loss._apply_weighting(F, loss, self._weight, sample_weight)
        return F.mean(loss, axis=self._batch_axis, exclude=True)


def _dtype_name(dtype, name: str, args: dict) -> str:
    # not a dtype: refused by name below (numpy parses a string such as "01" as a literal and
    # raises its SyntaxError)
    with contextlib.suppress(TypeError, ValueError, SyntaxError):
        dtype = np.dtype(dtype).name
    return _checks.choice(dtype, name, {"float16", "float32", "float64"})


@validate_params(dtype=Rule(_dtype_name, "one_of('float16', 'float32', 'float64')"),
                 dimensions=fits(count(maximum=2**62), lambda d, a: d, "dimensions={value:,}"))
def perceptron_net(dimensions: int, dtype="float32",
                   ctx: mx.Context | None = None) -> gluon.nn.Dense:
    """``gluon.nn.Dense(1)`` with weights and bias initialized to 0 on ``ctx`` (default
    ``mx.cpu()``), hybridized.

    ``dimensions`` is at most MXNet's :math:`2^{31} - 1` elements per array (the weight).
    """
    dimensions, dtype, ctx = int(dimensions), np.dtype(dtype).name, ctx or mx.cpu()
    net = gluon.nn.Dense(1, in_units=dimensions, dtype=dtype, weight_initializer=init.Zero(),
                         bias_initializer=init.Zero())
    net.initialize(ctx=ctx)
    net.hybridize(static_alloc=True, static_shape=True)
    return net


def _flat_test(net: gluon.nn.Dense, threshold: float,
               ctx: mx.Context) -> Callable[[nd.NDArray, float], bool]:
    """``flat(x, y)``: True where :class:`PerceptronLoss` is known to be flat at the current
    weights of ``net``, so that Gluon's step there (whose gradient is 0) can be skipped.

    Why: a step is two hybridized calls (``net`` and the loss) recorded, a backward pass,
    ``Trainer.step`` and a host sync, three to four times the chapter's step, while on the
    examples already classified with margin :math:`y f(x) > \\delta` the loss's gradient is 0
    and the step would leave the weights as they are (SGD without momentum or weight decay).
    The test is the chapter's: one ``FullyConnected``, the operator ``Dense(1)`` scores with
    (so the bits of every step taken are unchanged), and one host sync. It is only ever True
    above ``losses._flat_margin``. The trainer's step count then counts the steps taken.
    """
    weight, bias = net.weight.data(ctx), net.bias.data(ctx)
    above = _flat_margin(threshold, weight.dtype)
    return lambda x, y: y * float(nd.FullyConnected(x, weight, bias, num_hidden=1)
                                  .asscalar()) > above


@validate_params(learning_rate=GLUON_RATE)
def train_gluon(X, Y, *, max_epochs: int, learning_rate: float = 1.0,
                threshold: float = 0.0, ctx: mx.Context | None = None) -> TrainResult:
    """Train ``Dense(1)`` with :class:`PerceptronLoss` and ``gluon.Trainer('sgd')``, one example
    per step, in data order, until a pass makes no update.

    An update is a step whose loss gradient is nonzero, :math:`y f(x) \\le \\delta`; the bias
    gradient (:math:`-y` or 0) is read once per example to count it. ``Trainer.step(1)`` then does
    :math:`\\theta \\leftarrow \\theta - \\eta g` (SGD without momentum or weight decay), which
    on a zero gradient changes nothing, so the run makes the same updates as :func:`~.train`.
    Where the margin is above :math:`\\delta` the loss is flat and the step is skipped after
    the chapter's margin test (``_flat_test``): the same bits at a fraction of the cost;
    the trainer's step count is then the number of steps taken.

    Parameters
    ----------
    X, Y : array-like or NDArray
        Examples, shape (n, d), and their labels in {-1, +1}, shape (n,).
    max_epochs : int
        Bound on the passes over the data.
    learning_rate : float
        :math:`\\eta`, between float32's smallest normal number (about 1.2e-38) and its
        largest (about 3.4e38): Gluon's SGD passes the rate to MXNet as float32, where a
        smaller rate becomes 0 and a larger one overflows.
    threshold : float
        :math:`\\delta \\ge 0`, as in ``train(..., threshold=delta)``.
    ctx : mx.Context, optional
        Where the block is initialised and the data lives (default ``mx.cpu()``).

    Returns
    -------
    TrainResult

    Raises
    ------
    ValueError
        For a learning rate outside float32's range, and when the weights or the margins
        overflow to inf/nan (scale the data or lower the rate).
    """
    X = as_features(X)
    Y, learning_rate, ctx = as_labels(Y, like=X), float(learning_rate), ctx or mx.cpu()
    net = perceptron_net(X.shape[1], str(X.dtype), ctx)
    loss_fn = PerceptronLoss(threshold, check_inputs=False)
    loss_fn.hybridize(static_alloc=True, static_shape=True)
    trainer = gluon.Trainer(net.collect_params(), "sgd",
                            {"learning_rate": learning_rate, "momentum": 0.0, "wd": 0.0})
    Xd, Yd = nd.array(X, dtype=X.dtype, ctx=ctx), nd.array(Y, dtype=X.dtype, ctx=ctx)
    examples = [(Xd[i:i + 1], Yd[i:i + 1], float(Y[i])) for i in range(X.shape[0])]
    bias_grad = net.bias.grad(ctx)
    flat = _flat_test(net, threshold, ctx)  # where the loss is flat, the step changes nothing
    per_epoch: list[int] = []
    for epoch in range(1, max_epochs + 1):  # the epoch budget
        updates = 0
        for x, y, label in examples:  # Gluon's loop over the examples, in order
            if flat(x, label):
                continue
            with autograd.record():
                loss = loss_fn(net(x), y)
            loss.backward()
            trainer.step(1)  # w -= eta * grad
            updates += bias_grad.asscalar() != 0  # the bias gradient is -y or 0
        _refuse_overflow_after(epoch, net.weight.data(ctx), net.bias.data(ctx), X, Y)
        per_epoch.append(int(updates))
        if updates == 0:
            break
    w, b = net.weight.data(ctx), net.bias.data(ctx)
    return train_result(w.asnumpy().reshape(-1).copy(), float(b.asscalar()), per_epoch)
