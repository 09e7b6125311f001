r"""The chapter's perceptron step: one example, ``w`` and ``b`` changed in place.

*Deep Learning - The Straight Dope*, chapter "The Perceptron": if
:math:`y (w^\top x + b) \le \delta` (a mistake, or a tie when :math:`\delta = 0`) set

.. math:: w \leftarrow w + \eta\, y\, x, \qquad b \leftarrow b + \eta\, y.

The tie counts as a mistake: that is what lets a run from :math:`w = 0, b = 0` move at all
(Rosenblatt 1958). :func:`perceptron` is the chapter's function, and the faithful engine runs
it once per example (without re-checking its arguments).
"""

from __future__ import annotations

import functools
import math

import numpy as np
from mxnet import nd

from .. import _checks
from .._arrays import _finite, _overflow


def _label_value(y) -> float:
    """Return a single label as a Python float, checking it is -1 or +1."""
    if isinstance(y, nd.NDArray):
        if y.size != 1:
            raise ValueError(f"y must be a single label, got an array of shape {y.shape}")
        value = float(y.asscalar())
    else:
        a = np.asarray(y)
        if a.size != 1 or not np.issubdtype(a.dtype, np.number) \
                or np.issubdtype(a.dtype, np.complexfloating):
            raise ValueError(f"y must be a single label, -1 or +1, got {y!r:.60}")
        value = float(a.reshape(-1)[0])
    if value not in (1.0, -1.0):
        raise ValueError(f"y must be -1 or +1, got {value}")
    return value


def _check_step_args(step):
    """Check the step's arguments once, at the public edge, then run ``step``.

    (To be replaced by the package's declared checks; the engine calls ``step`` itself,
    ``perceptron.__wrapped__``, without checks.)
    """

    @functools.wraps(step)
    def checked(w, b, x, y, *, learning_rate=1.0, threshold=0.0):
        for name, a in (("w", w), ("b", b), ("x", x)):
            if not isinstance(a, nd.NDArray):
                raise TypeError(f"{name} must be an mxnet NDArray (perceptron updates w and b "
                                f"in place), got {type(a).__name__}; wrap it with nd.array(...)")
        if w.shape != x.shape or len(w.shape) != 1:
            raise ValueError(f"w and x must be 1-D of the same length, got {w.shape} and "
                             f"{x.shape}")
        if b.shape != (1,):
            raise ValueError(f"b must have shape (1,), got {b.shape}; use "
                             f"b = nd.zeros(shape=(1,))")
        _checks.one_float_dtype(w, b, x)
        _one_context(w, b, x)
        return step(w, b, x, _label_value(y),
                    learning_rate=_checks.finite_float(learning_rate, "learning_rate",
                                                       strictly_positive=True),
                    threshold=_checks.finite_float(threshold, "threshold", minimum=0.0))

    return checked


def _one_context(w: nd.NDArray, b: nd.NDArray, x: nd.NDArray) -> None:
    """``w``, ``b`` and ``x`` live on one device (MXNet 1.9 silently mixes cpu(0) and cpu(1)
    and puts the result on the first operand's)."""
    for name, a in (("b", b), ("x", x)):
        if a.context != w.context:
            raise ValueError(f"{name} lives on {a.context} but w on {w.context}: the step "
                             f"needs one context; move it with {name}.as_in_context(w.context)")


@_check_step_args
def perceptron(w: nd.NDArray, b: nd.NDArray, x: nd.NDArray, y: float, *,
               learning_rate: float = 1.0, threshold: float = 0.0) -> int:
    """The chapter's perceptron step, updating ``w`` and ``b`` in place.

    If :math:`y (w^\\top x + b) \\le \\delta` then :math:`w \\mathrel{+}= \\eta y x` and
    :math:`b \\mathrel{+}= \\eta y`. The tie :math:`y (w^\\top x + b) = 0` counts as a mistake:
    that is what lets a run starting at :math:`w = 0, b = 0` move at all. Everything is
    computed on the context ``w``, ``b`` and ``x`` live on.

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

    Raises
    ------
    ValueError
        When the margin, or the weights the step would write, leave the floats (``w`` and
        ``b`` are then left as they were).
    """
    margin = y * (nd.dot(w, x) + b).asscalar()
    if not math.isfinite(margin):
        raise _overflow(f"the margin y (w.x + b) (here {margin})", w.dtype)
    if margin > threshold:
        return 0
    w_new, b_new = w + (learning_rate * y) * x, b + learning_rate * y
    if not (_finite(w_new) and _finite(b_new)):
        raise _overflow("the weights (w, b) after the step", w.dtype)
    w[:], b[:] = w_new, b_new
    return 1
