r"""The NDArray passes: the chapter's step once per example (the ``"faithful"`` engine of
:func:`~gluon_perceptron.train`), and ``k`` runs in lockstep (the ``"faithful"`` engine of
:func:`~gluon_perceptron.train_batched`), repeated by the driver of :mod:`.engine`.

Every array they make lives on the context they are given (``ctx``) or on their arguments'
context; nothing lands on an implicit one.
"""

from __future__ import annotations

import mxnet as mx
import numpy as np
from mxnet import nd

from ..chapter.perceptron_step import perceptron
from .engine import _drive


def _faithful_run(X: np.ndarray, Y: np.ndarray, w: np.ndarray, b: np.ndarray, max_epochs: int,
                  learning_rate: float, threshold: float,
                  ctx: mx.Context | None = None) -> list[int]:
    """The faithful engine: the chapter's step per example, on NDArrays made on ``ctx``
    (default ``mx.cpu()``); ``w, b`` (numpy) receive the result. Updates per pass."""
    ctx = mx.cpu() if ctx is None else ctx
    Xd, wd, bd = (nd.array(a, ctx=ctx, dtype=X.dtype) for a in (X, w, b))
    per_epoch = _drive(lambda budget: [_faithful_epoch(Xd, Y, wd, bd, learning_rate, threshold)],
                       max_epochs, (wd, bd), X.dtype)
    w[:], b[:] = wd.asnumpy(), bd.asnumpy()
    return per_epoch


def _faithful_epoch(X: nd.NDArray, Y: np.ndarray, w: nd.NDArray, b: nd.NDArray,
                    learning_rate: float, threshold: float) -> int:
    """One pass of the chapter's loop: its step on every example in order (its arguments
    are trusted here: checked once by the trainer)."""
    return sum(perceptron(w, b, X[i], float(Y[i]), learning_rate=learning_rate,
                          threshold=threshold) for i in range(X.shape[0]))


def _lockstep_epoch(Xd: nd.NDArray, Yd: nd.NDArray, Kd: nd.NDArray, W: nd.NDArray,
                    B: nd.NDArray, active: nd.NDArray, learning_rate: float
                    ) -> tuple[nd.NDArray, nd.NDArray]:
    """One pass of ``k`` runs in lockstep: at example ``i``, for every run ``r`` at once,

    .. math:: u_r = [\\text{keep}_{ri}]\\,[\\text{active}_r]\\,
              [y_{ri} (w_r^\\top x_{ri} + b_r) \\le 0],

    .. math:: w_r \\mathrel{+}= \\eta\\, u_r y_{ri} x_{ri}, \\qquad
              b_r \\mathrel{+}= \\eta\\, u_r y_{ri}.

    ``Xd`` is ``(1, n, d)`` (shared) or ``(k, n, d)``; ``Yd``, ``Kd`` (keep) are ``(k, n)``.
    Returns the updates of each run and, per run, the sum of ``m - m`` over the margins ``m``
    that decided its steps (0 exactly when all were finite).
    """
    k, n = Yd.shape
    shared = Xd.shape[0] == 1
    made = nd.zeros((k,), ctx=W.context, dtype=W.dtype)
    seen = nd.zeros((k,), ctx=W.context, dtype=W.dtype)
    for i in range(n):
        x = Xd[0, i] if shared else Xd[:, i, :]
        scores = (nd.dot(W, x) if shared else nd.sum(W * x, axis=1)) + B
        y = Yd[:, i]
        margins = y * scores
        live = Kd[:, i] * active
        u = (margins <= 0) * live
        seen += nd.where(live > 0, margins - margins, nd.zeros_like(margins))
        step = (learning_rate * y) * u
        W += step.reshape((k, 1)) * x
        B += step
        made += u
    return made, seen
