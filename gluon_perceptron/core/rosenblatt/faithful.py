r"""The chapter's step once per example, on NDArrays, repeated by the driver (:mod:`.engine`).
(The ``"faithful"`` engine of :func:`~gluon_perceptron.train` is now its own loop, and ``k``
runs in lockstep are :func:`~gluon_perceptron.train_batched`'s body.)

Every array they make lives on the context they are given (``ctx``) or on their arguments'
context; nothing lands on an implicit one.
"""

from __future__ import annotations

import mxnet as mx
import numpy as np
from mxnet import nd

from ..chapter.step import perceptron
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

