"""The fast twin of many independent perceptron runs: ``train_batched(engine="fast")`` and the
multiclass trainers' binary perceptrons (:mod:`~gluon_perceptron.core.rosenblatt.multiclass`).

Each run is :func:`~gluon_perceptron.core.fast.training_fast.train`'s compiled (or numpy) passes
over its own examples, in place (no copy when compiled), one run after the other: the same
perceptrons, bit for bit, as the multiclass trainers' NDArray loop, which steps all of them
together.
"""

from __future__ import annotations

import numpy as np

from ..rosenblatt.results import TrainResult, train_result
from .training_fast import _fast_run


def train_runs(X3: np.ndarray, Y: np.ndarray, keep: np.ndarray, *, max_epochs: int,
               learning_rate: float = 1.0) -> list[TrainResult]:
    """Run ``r`` is ``train(X3[r][keep[r]], Y[r][keep[r]], max_epochs=...)`` (``X3`` of shape
    ``(1, n, d)`` is shared by every run): from zero, until a pass makes no update."""
    Yk = np.where(keep, Y, 1).astype(X3.dtype)  # labels in X's dtype; masked ones never read
    results = []
    for r in range(Yk.shape[0]):
        X = X3[min(r, X3.shape[0] - 1)]
        w, b = np.zeros(X.shape[1], dtype=X.dtype), np.zeros(1, dtype=X.dtype)
        per_epoch = _fast_run(X, Yk[r], w, b, max_epochs, learning_rate, 0.0,
                              rows=np.flatnonzero(keep[r]))
        results.append(train_result(w, b[0], per_epoch))
    return results
