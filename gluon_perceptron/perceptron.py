"""Rosenblatt's perceptron: the chapter's in-place NDArray step and a trainer around it.

The rule: start from :math:`w = 0, b = 0`; for each example :math:`(x, y)` in turn, if
:math:`y (w^\\top x + b) \\le \\delta` (a mistake, or a tie, when :math:`\\delta = 0`) set

.. math:: w \\leftarrow w + \\eta\\, y\\, x, \\qquad b \\leftarrow b + \\eta\\, y.

:func:`train` repeats passes over the data, in data order, until a pass makes no update (the
data is then separated) or ``max_epochs`` passes are done. Two engines make exactly the same
updates: ``"faithful"`` calls :func:`perceptron` once per example, as the chapter does, and
``"fast"`` scans ahead with the current weights in numpy and stops at the next mistake.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from mxnet import nd

from . import _checks


@dataclass
class TrainResult:
    """What a training run learned and how it got there.

    Attributes
    ----------
    w : ndarray, shape (d,)
        Final weights.
    b : float
        Final bias.
    updates : int
        Total number of updates (mistakes, counting ties).
    updates_per_epoch : list of int
        Updates made in each pass over the data.
    converged : bool
        True only if the last pass made no update, i.e. the data is separated by ``(w, b)``
        (with margin above ``threshold``). False when the run stopped at ``max_epochs``.
    history : dict
        Extra traces some trainers record (for example ``"error"`` or ``"norm"`` per epoch).
    """

    w: np.ndarray
    b: float
    updates: int
    updates_per_epoch: list[int]
    converged: bool
    history: dict = field(default_factory=dict)

    @property
    def epochs(self) -> int:
        """Number of passes made."""
        return len(self.updates_per_epoch)


def _label_value(y) -> float:
    """Return a single label as a Python float, checking it is -1 or +1."""
    if isinstance(y, nd.NDArray):
        if y.size != 1:
            raise ValueError(f"y must be a single label, got an array of shape {y.shape}")
        value = float(y.asscalar())
    else:
        value = float(np.asarray(y).reshape(-1)[0]) if np.size(y) == 1 else None
        if value is None:
            raise ValueError(f"y must be a single label, got {y!r}")
    if value not in (1.0, -1.0):
        raise ValueError(f"y must be -1 or +1, got {value}")
    return value


def perceptron(w: nd.NDArray, b: nd.NDArray, x: nd.NDArray, y, *,
               learning_rate: float = 1.0, threshold: float = 0.0) -> int:
    """The chapter's perceptron step, updating ``w`` and ``b`` in place.

    If :math:`y (w^\\top x + b) \\le \\delta` then :math:`w \\mathrel{+}= \\eta y x` and
    :math:`b \\mathrel{+}= \\eta y`. The tie :math:`y (w^\\top x + b) = 0` counts as a mistake:
    that is what lets a run starting at :math:`w = 0, b = 0` move at all.

    Parameters
    ----------
    w : NDArray, shape (d,)
        Weights, changed in place.
    b : NDArray, shape (1,)
        Bias, changed in place.
    x : NDArray, shape (d,)
        One example.
    y : NDArray or float
        Its label, -1 or +1.
    learning_rate : float
        Step :math:`\\eta` (the chapter uses 1).
    threshold : float
        Update when the margin is at most :math:`\\delta` (the chapter uses 0).

    Returns
    -------
    int
        1 if the step updated ``w, b``, else 0.
    """
    for name, a in (("w", w), ("b", b), ("x", x)):
        if not isinstance(a, nd.NDArray):
            raise TypeError(f"{name} must be an mxnet NDArray (perceptron updates w and b in "
                            f"place), got {type(a).__name__}; wrap it with nd.array(...)")
    if w.shape != x.shape or len(w.shape) != 1:
        raise ValueError(f"w and x must be 1-D of the same length, got {w.shape} and {x.shape}")
    if b.shape != (1,):
        raise ValueError(f"b must have shape (1,), got {b.shape}; use b = nd.zeros(shape=(1,))")
    yv = _label_value(y)
    if yv * (nd.dot(w, x) + b).asscalar() <= threshold:
        w += (learning_rate * yv) * x
        b += learning_rate * yv
        return 1
    return 0


def _faithful_epoch(X: nd.NDArray, Y: np.ndarray, w: nd.NDArray, b: nd.NDArray,
                    learning_rate: float, threshold: float) -> int:
    """One pass of the chapter's loop: :func:`perceptron` on every example in order."""
    return sum(perceptron(w, b, X[i], Y[i], learning_rate=learning_rate, threshold=threshold)
               for i in range(X.shape[0]))


def _fast_epoch(X: np.ndarray, Y: np.ndarray, w: np.ndarray, b: np.ndarray,
                learning_rate: float, threshold: float) -> int:
    """One pass making the same updates as :func:`_faithful_epoch`, scanning ahead.

    Between two updates the weights do not change, so the margins of the next block of
    examples can be computed at once with the current ``(w, b)``; the first one at or below the
    threshold is exactly the next example the one-by-one loop would update on. Blocks grow
    while no mistake is found and shrink after one, so the work tracks the update rate.
    ``w`` and ``b`` (a 1-element array) are updated in place.
    """
    n = X.shape[0]
    i = updates = 0
    block = 64
    while i < n:
        j = min(n, i + block)
        margins = Y[i:j] * (X[i:j] @ w + b[0])
        hits = np.flatnonzero(margins <= threshold)
        if hits.size == 0:
            i = j
            block = min(block * 2, 8192)
            continue
        k = i + hits[0]
        step = learning_rate * Y[k]
        w += step * X[k]
        b += step
        updates += 1
        i = k + 1
        block = max(16, int(hits[0]) * 2)
    return updates


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
        updates from a numpy scan-ahead.
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
        w_start = _checks.to_numpy(w0, "w0").astype(Xn.dtype).reshape(-1)
        if w_start.shape != (d,) or not np.all(np.isfinite(w_start)):
            raise ValueError(f"w0 must be finite with shape ({d},), got {w_start.shape}")

    per_epoch: list[int] = []
    if engine == "faithful":
        w = nd.array(w_start, dtype=Xn.dtype)
        b = nd.array([b0], dtype=Xn.dtype)
        Xd = nd.array(Xn, dtype=Xn.dtype)
        run_epoch = lambda: _faithful_epoch(Xd, Yn, w, b, learning_rate, threshold)  # noqa: E731
    else:
        w = w_start.copy()
        b = np.array([b0], dtype=Xn.dtype)
        run_epoch = lambda: _fast_epoch(Xn, Yn, w, b, learning_rate, threshold)  # noqa: E731
    for _ in range(max_epochs):
        per_epoch.append(int(run_epoch()))
        if per_epoch[-1] == 0:
            break
    w_out = w.asnumpy() if engine == "faithful" else w
    b_out = b.asnumpy()[0] if engine == "faithful" else b[0]
    return TrainResult(w=np.asarray(w_out), b=float(b_out), updates=sum(per_epoch),
                       updates_per_epoch=per_epoch, converged=per_epoch[-1] == 0)


def predict(w, b: float, X) -> np.ndarray:
    """Labels :math:`\\operatorname{sign}(w^\\top x + b)` in {-1, +1}; a score of 0 gives -1."""
    Xn = _checks.features(X)
    wn = _checks.to_numpy(w, "w").reshape(-1)
    if wn.shape[0] != Xn.shape[1]:
        raise ValueError(f"w has {wn.shape[0]} entries but X has {Xn.shape[1]} features")
    return np.where(Xn @ wn + float(b) > 0, 1.0, -1.0)


def error_rate(w, b: float, X, Y) -> float:
    """Fraction of examples with :math:`y (w^\\top x + b) \\le 0` (ties count as errors)."""
    Xn, Yn = _checks.dataset(X, Y)
    wn = _checks.to_numpy(w, "w").reshape(-1)
    return float(np.mean(Yn * (Xn @ wn + float(b)) <= 0))
