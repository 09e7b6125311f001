"""Rosenblatt's perceptron trained to convergence: :func:`train`, :func:`predict` and
:func:`error_rate`.

The rule: start from :math:`w = 0, b = 0`; for each example :math:`(x, y)` in turn, if
:math:`y (w^\\top x + b) \\le \\delta` (a mistake, or a tie, when :math:`\\delta = 0`) set

.. math:: w \\leftarrow w + \\eta\\, y\\, x, \\qquad b \\leftarrow b + \\eta\\, y.

:func:`train`'s body is the rule itself: passes over the data, in data order, until a pass
makes no update (the data is then separated) or ``max_epochs`` passes are done, written with
the chapter's NDArrays (``engine="faithful"``: the chapter's step, one example at a time). The
default ``engine="fast"`` hands the same arguments to its twin,
:func:`gluon_perceptron.core.fast.training_fast.train`: the same loop compiled by numba when it is
installed (:data:`~.engine.FAST_BACKEND` is ``"compiled"``), or else a numpy scan ahead with
the current weights to the next mistake (``"numpy"``). Both raise ``ValueError`` when a margin
or the weights overflow. :func:`train` declares its arguments' rules; they are checked once,
when a user calls it.

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

import inspect

import mxnet as mx
import numpy as np
from mxnet import nd

from .._convert import as_features, as_labels, as_scalar, as_vector
from .._validation import (
    Rule,
    real,
    scalar,
    validate_params,
    vector,
)
from ..fast import training_fast as fast
from .engine import _guard
from .results import TrainResult, train_result


def _start(b0, name: str, args: dict) -> float:
    """``b0`` checked, and the starting ``(w0, b0)`` (in X's dtype) giving finite margins."""
    b0, X, w0 = real()(b0, name, args), args["X"], args["w0"]
    with np.errstate(over="ignore", invalid="ignore"):  # an entry of w0 beyond X's dtype is inf
        start = X.dtype.type(b0) + (0 if w0 is None else X @ w0.astype(X.dtype))  # y = +-1
    if not np.isfinite(start).all():
        raise ValueError(f"w0 and b0 give starting margins y (w0.x + b0) beyond "
                         f"{np.dtype(X.dtype).name}'s range (largest {np.finfo(X.dtype).max:.3g}):"
                         f" start from smaller weights (w0=None starts from zeros)")
    return b0


@validate_params(b0=Rule(_start, "real(), with (w0, b0) giving finite margins", ("X", "w0")))
@np.errstate(over="ignore", invalid="ignore")  # what overflows, the guard below refuses
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
    X = as_features(X)  # the arguments as arrays: X first, Y and w0 in its dtype
    Y, w0 = as_labels(Y, like=X), None if w0 is None else as_vector(w0, like=X)
    # floats: an int would make the compiled twin an int64 one, which 2**63 does not fit
    learning_rate, threshold, b0 = float(learning_rate), float(threshold), float(b0)
    if engine == "fast":  # the compiled twin of the loop below: the same updates, bit for bit
        return fast.train(X, Y, max_epochs=max_epochs, learning_rate=learning_rate,
                          threshold=threshold, w0=w0, b0=b0)
    ctx = mx.cpu() if ctx is None else ctx
    w = np.zeros(X.shape[1], dtype=X.dtype) if w0 is None else w0.astype(X.dtype)
    X, w, b = (nd.array(a, ctx=ctx, dtype=X.dtype) for a in (X, w, [b0]))
    per_epoch: list[int] = []
    for epoch in range(1, max_epochs + 1):  # the epoch budget
        updates = 0
        for i in range(X.shape[0]):  # the chapter's step on every example, in data order
            x, y = X[i], float(Y[i])
            margin = y * (nd.dot(w, x) + b).asscalar()
            _guard(epoch, margins=margin, dtype=X.dtype)  # the overflow guard
            if margin <= threshold:  # a mistake, or a tie
                w += (learning_rate * y) * x
                b += learning_rate * y
                updates += 1
        _guard(epoch, weights=(w, b), dtype=X.dtype)
        per_epoch.append(updates)
        if updates == 0:  # a pass without an update: the data is separated
            break
    return train_result(w.asnumpy(), b.asnumpy()[0], per_epoch)


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


@validate_params(w=vector(size_of="X"), b=scalar())
def predict(w, b: float, X) -> np.ndarray:
    """Labels :math:`\\operatorname{sign}(w^\\top x + b)` in {-1, +1}; a score of 0 gives -1."""
    X, w, b = as_features(X), as_vector(w), as_scalar(b)
    return np.where(_scores(w, b, X) > 0, 1.0, -1.0)


@validate_params(w=vector(size_of="X"), b=scalar())
def error_rate(w, b: float, X, Y) -> float:
    """Fraction of examples with :math:`y (w^\\top x + b) \\le 0` (ties count as errors)."""
    X, Y, w, b = as_features(X), as_labels(Y), as_vector(w), as_scalar(b)
    return np.count_nonzero(Y * _scores(w, b, X) <= 0) / Y.size  # = np.mean, bit for bit


#: :func:`error_rate` on trusted arrays: the package's own calls after each pass (the traces,
#: the pocket's ratchet in the fast twins) skip the checking wrapper.
_error_rate = inspect.unwrap(error_rate)


def _error_rates(thetas: np.ndarray, X: np.ndarray, Y: np.ndarray) -> list[float]:
    """:func:`_error_rate` of each row ``(w, b)`` of ``thetas``, the same numbers: numpy's
    stacked ``matmul`` of ``X`` with each ``w`` as a column makes the one matrix-vector product
    ``X @ w`` that :func:`_error_rate` makes (the same BLAS call, row by row), in blocks of
    rows that keep the scores at about a million numbers."""
    errors: list[float] = []
    step = max(1, 2**20 // max(1, Y.size))
    for start in range(0, len(thetas), step):
        block = thetas[start:start + step]
        W = np.ascontiguousarray(block[:, :-1])[:, :, None]
        with np.errstate(over="ignore", invalid="ignore"):
            S = np.matmul(X, W)[..., 0] + block[:, -1:]
            rates = np.count_nonzero(Y * S <= 0, axis=1) / Y.size
        finite = np.isfinite(S).all(axis=1)
        errors += [float(e) if ok else _error_rate(th[:-1], float(th[-1]), X, Y)
                   for e, ok, th in zip(rates, finite, block)]
    return errors
