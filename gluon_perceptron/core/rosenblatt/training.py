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
:func:`train` declares its arguments' rules; they are checked once, when a user calls it, and
the passes trust them (the faithful engine calls the step without re-checking it).

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

import mxnet as mx
import numpy as np

from .._validation import (
    Rule,
    context,
    count,
    features,
    labels,
    one_of,
    optional,
    real,
    scalar,
    validate_params,
    vector,
)
from .engine import _fast_run
from .faithful import _faithful_run
from .results import TrainResult, train_result


def _fast(X, Y, w, b, max_epochs, learning_rate, threshold, ctx) -> list[int]:
    return _fast_run(X, Y, w, b, max_epochs, learning_rate, threshold)  # numpy: no ctx


#: The engines of :func:`train`, which make the same updates: each trains the numpy ``w, b`` in
#: place, ``run(X, Y, w, b, max_epochs, learning_rate, threshold, ctx)``, and returns the
#: updates of each pass.
ENGINES = {"fast": _fast, "faithful": _faithful_run}


def _start(b0, name: str, args: dict) -> float:
    """``b0`` checked, and the starting ``(w0, b0)`` (in X's dtype) giving finite margins."""
    b0 = real()(b0, name, args)
    X, Y, w0 = args["X"], args["Y"], args["w0"]
    with np.errstate(over="ignore", invalid="ignore"):
        start = X.dtype.type(b0)
        if w0 is not None:  # an entry beyond X's dtype becomes inf: its margins are not finite
            start = Y * (X @ w0.astype(X.dtype) + start)
    if not np.isfinite(start).all():
        raise ValueError(f"w0 and b0 give starting margins y (w0.x + b0) beyond "
                         f"{np.dtype(X.dtype).name}'s range (largest {np.finfo(X.dtype).max:.3g}):"
                         f" start from smaller weights (w0=None starts from zeros)")
    return b0


@validate_params(X=features(), Y=labels(of="X"), max_epochs=count(),
                 learning_rate=real(positive=True), engine=one_of(*ENGINES),
                 threshold=real(minimum=0.0), w0=optional(vector(size_of="X")),
                 b0=Rule(_start, "real(), with (w0, b0) giving finite margins", ("X", "Y", "w0")),
                 ctx=context())
def train(X, Y, *, max_epochs: int, learning_rate: float = 1.0, engine: str = "fast",
          threshold: float = 0.0, w0=None, b0: float = 0.0,
          ctx: mx.Context | None = None) -> TrainResult:
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
    ctx : mxnet.Context, optional
        Where the faithful engine's NDArrays live (default ``mx.cpu()``; ``mx.gpu(0)`` with a
        CUDA build of MXNet). The fast engine runs in numpy and ignores it.

    Returns
    -------
    TrainResult
    """
    w = np.zeros(X.shape[1], dtype=X.dtype) if w0 is None else w0.astype(X.dtype)
    b = np.array([b0], dtype=X.dtype)
    per_epoch = ENGINES[engine](X, Y, w, b, max_epochs, learning_rate, threshold, ctx)
    return train_result(w, b[0], per_epoch)


def _scores(w: np.ndarray, b: float, X: np.ndarray) -> np.ndarray:
    """:math:`w^\\top x + b` per row; where that overflows, the same signs from ``(w, b)``
    divided by a power of two (exact) that brings them to unit size. Refuses scores that still
    overflow."""
    with np.errstate(over="ignore", invalid="ignore"):
        s = X @ w + b
        if np.isfinite(s).all():
            return s
        top = max(float(np.max(np.abs(w))), abs(b))
        scale = 2.0 ** -np.frexp(top)[1]
        s = X @ (w * scale) + b * scale
    if not np.isfinite(s).all():
        raise ValueError("the scores w.x + b overflow even with (w, b) scaled to unit size: X's "
                         "values are too large; scale X down (e.g. divide it by "
                         "np.abs(X).max())")
    return s


@validate_params(X=features(), w=vector(size_of="X"), b=scalar())
def predict(w, b: float, X) -> np.ndarray:
    """Labels :math:`\\operatorname{sign}(w^\\top x + b)` in {-1, +1}; a score of 0 gives -1."""
    return np.where(_scores(w, b, X) > 0, 1.0, -1.0)


@validate_params(X=features(), Y=labels(of="X"), w=vector(size_of="X"), b=scalar())
def error_rate(w, b: float, X, Y) -> float:
    """Fraction of examples with :math:`y (w^\\top x + b) \\le 0` (ties count as errors)."""
    return float(np.mean(Y * _scores(w, b, X) <= 0))
