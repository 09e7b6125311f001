"""Rosenblatt's perceptron trained to convergence: :func:`train`, :func:`predict` and
:func:`error_rate`.

The rule: start from :math:`w = 0, b = 0`; for each example :math:`(x, y)` in turn, if
:math:`y (w^\\top x + b) \\le \\delta` (a mistake, or a tie, when :math:`\\delta = 0`) set

.. math:: w \\leftarrow w + \\eta\\, y\\, x, \\qquad b \\leftarrow b + \\eta\\, y.

:func:`train` repeats passes over the data, in data order, until a pass makes no update (the
data is then separated) or ``max_epochs`` passes are done. Two engines make exactly the same
updates: ``"faithful"`` runs the chapter's step once per example, and ``"fast"`` runs the same
loop compiled by numba when it is installed (:data:`~.engine.FAST_BACKEND`
is ``"compiled"``), or else scans ahead in numpy blocks with the current weights, stopping at
the next mistake (``"numpy"``). Both are twins of the package's one epoch kernel
(:mod:`~.engine`), repeated by its one driver, which stops at a pass without
an update or at ``max_epochs`` and raises ``ValueError`` if the weights or margins overflow.
:func:`train` checks its input once; the passes trust it (the faithful engine calls the step
without re-checking ``learning_rate`` and ``threshold`` each time).

Exactness: the updates themselves (:math:`w + \\eta y x`, elementwise in the data's dtype) are
the same operations in every engine, so the engines agree bit for bit as long as they take the
same update decisions. Each decision compares a dot product with the threshold; the engines
sum that dot product in different orders (MXNet's BLAS, numpy's BLAS, a plain left-to-right
loop), which can round differently in the last bits. A decision can therefore only differ for a
margin within a few rounding errors of the threshold: never for integer-valued data (every sum
is exact), and in none of the tests' float32 and float64 datasets. The compiled loop sums left
to right in the data's dtype, exactly like scikit-learn's ``Perceptron`` does in float64.
"""

from __future__ import annotations

import numpy as np
from mxnet import nd

from .. import _checks
from .engine import _drive, _faithful_epoch, _fast_run
from .results import TrainResult, train_result


def train(X, Y, *, max_epochs: int, learning_rate: float = 1.0, engine: str = "fast",
          threshold: float = 0.0, w0=None, b0: float = 0.0) -> TrainResult:
    """Train a perceptron by Rosenblatt's rule, in data order, until it separates the data.

    Passes over the data repeat until one makes no update (``converged=True``) or
    ``max_epochs`` passes are done (``converged=False``: the data may not be separable, or
    needs more passes). Each pass updates on every example with
    :math:`y_i (w^\\top x_i + b) \\le \\delta`:
    :math:`w \\mathrel{+}= \\eta y_i x_i,\\; b \\mathrel{+}= \\eta y_i`.

    Parameters
    ----------
    X : array-like or NDArray, shape (n, d)
        Examples; float32 and float64 keep their precision, the weights use the same dtype.
    Y : array-like or NDArray, shape (n,)
        Labels in {-1, +1}.
    max_epochs : int
        Bound on the number of passes (required: on non-separable data the rule never stops).
    learning_rate : float
        Step :math:`\\eta > 0`.
    engine : {"fast", "faithful"}
        ``"faithful"`` runs the chapter's NDArray step per example; ``"fast"`` gives the same
        updates from a compiled loop or a numpy scan-ahead (see :data:`FAST_BACKEND`).
    threshold : float
        :math:`\\delta \\ge 0`; 0 is the plain perceptron.
    w0 : array-like, shape (d,), optional
        Starting weights (default zeros).
    b0 : float
        Starting bias.

    Returns
    -------
    TrainResult
    """
    Xn, Yn = _checks.dataset(X, Y)
    n, d = Xn.shape
    max_epochs = _checks.positive_int(max_epochs, "max_epochs")
    learning_rate = _checks.finite_float(learning_rate, "learning_rate", strictly_positive=True)
    threshold = _checks.finite_float(threshold, "threshold", minimum=0.0)
    _checks.choice(engine, "engine", {"fast", "faithful"})
    b0 = _checks.finite_float(b0, "b0")
    w_start = np.zeros(d, dtype=Xn.dtype)
    if w0 is not None:
        w_start = _checks.vector(w0, "w0", size=d).astype(Xn.dtype)

    if engine == "faithful":
        w = nd.array(w_start, dtype=Xn.dtype)
        b = nd.array([b0], dtype=Xn.dtype)
        Xd = nd.array(Xn, dtype=Xn.dtype)
        per_epoch = _drive(lambda budget: [_faithful_epoch(Xd, Yn, w, b, learning_rate,
                                                           threshold)],
                           max_epochs, (w, b), Xn.dtype)
        w_out, b_out = w.asnumpy(), b.asnumpy()[0]
        return train_result(w_out, b_out, per_epoch)
    return _train_fast(Xn, Yn, max_epochs, learning_rate, threshold, w_start, b0)


def _train_fast(Xn: np.ndarray, Yn: np.ndarray, max_epochs: int, learning_rate: float = 1.0,
                threshold: float = 0.0, w0: np.ndarray | None = None,
                b0: float = 0.0) -> TrainResult:
    """``train(..., engine="fast")`` on trusted arguments, for loops over many datasets.

    ``Xn`` and ``Yn`` share one float dtype (``Yn`` in {-1, +1}); ``w0`` (default zeros) is
    copied, not changed.
    """
    w = np.zeros(Xn.shape[1], dtype=Xn.dtype) if w0 is None else w0.copy()
    b = np.array([b0], dtype=Xn.dtype)
    per_epoch = _fast_run(Xn, Yn, w, b, max_epochs, learning_rate, threshold)
    return train_result(w, b[0], per_epoch)


def predict(w, b: float, X) -> np.ndarray:
    """Labels :math:`\\operatorname{sign}(w^\\top x + b)` in {-1, +1}; a score of 0 gives -1."""
    Xn = _checks.features(X)
    wn = _checks.vector(w, "w", size=Xn.shape[1])
    return np.where(Xn @ wn + _checks.scalar(b, "b") > 0, 1.0, -1.0)


def error_rate(w, b: float, X, Y) -> float:
    """Fraction of examples with :math:`y (w^\\top x + b) \\le 0` (ties count as errors)."""
    Xn, Yn = _checks.dataset(X, Y)
    wn = _checks.vector(w, "w", size=Xn.shape[1])
    return _error_rate(wn, _checks.scalar(b, "b"), Xn, Yn)


def _error_rate(w: np.ndarray, b: float, X: np.ndarray, Y: np.ndarray) -> float:
    """:func:`error_rate` on trusted arrays."""
    return float(np.mean(Y * (X @ w + b) <= 0))
