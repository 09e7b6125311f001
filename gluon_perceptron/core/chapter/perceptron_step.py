r"""The chapter's perceptron step: one example, ``w`` and ``b`` changed in place.

*Deep Learning - The Straight Dope*, chapter "The Perceptron": if
:math:`y (w^\top x + b) \le \delta` (a mistake, or a tie when :math:`\delta = 0`) set

.. math:: w \leftarrow w + \eta\, y\, x, \qquad b \leftarrow b + \eta\, y.

The tie counts as a mistake: that is what lets a run from :math:`w = 0, b = 0` move at all
(Rosenblatt 1958). :func:`perceptron` is the chapter's function, and the faithful engine runs
it once per example (without re-checking its arguments).
"""

from __future__ import annotations

import math

from mxnet import nd

from .. import _checks
from .._arrays import _finite, _overflow
from .._convert import as_scalar
from .._validation import Rule, label, ndarray, validate_params


def _like_w(x, name: str, args: dict):
    """``x`` fits ``w`` and ``b``, in either of MXNet's interfaces: 1-D of ``w``'s length,
    ``b`` of shape (1,), one float dtype and one context (MXNet 1.9 silently mixes cpu(0) and
    cpu(1), landing on the first operand's)."""
    w, b = args["w"], args["b"]
    if w.shape != x.shape or len(w.shape) != 1:
        raise ValueError(f"w and x must be 1-D of the same length, got {w.shape} and {x.shape}")
    if b.shape != (1,):
        raise ValueError(f"b must have shape (1,), got {b.shape}; use b = nd.zeros(shape=(1,)) "
                         f"(np.zeros(1) in the NumPy interface)")
    _checks.one_float_dtype(w, b, x)
    for other, a in (("b", b), ("x", x)):
        if a.context != w.context:
            raise ValueError(f"{other} lives on {a.context} but w on {w.context}: the step "
                             f"needs one context; move it with {other}.as_in_context(w.context)")
    return x


def _step_rules(array: Rule, y: Rule) -> dict:
    """The rules of a perceptron step's arguments, given the rules of one array and of a label
    in its interface (NDArrays for :func:`perceptron`, ``mxnet.numpy`` arrays for
    :func:`.numpy_interface.perceptron_np`)."""
    like_w = Rule(lambda x, name, args: _like_w(array(x, name, args), name, args),
                  f"{array!r}, shaped and placed like w", ("w", "b"))
    return dict(w=array, b=array, x=like_w, y=y)


#: The arguments of :func:`perceptron`: NDArrays ``w``, ``b`` and ``x`` that fit, a label, the
#: options.
STEP_RULES = _step_rules(ndarray("perceptron updates w and b in place"), label())


@validate_params(**STEP_RULES)
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
        Its label, -1 or +1 (a float inside the package).
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
    y, learning_rate, threshold = as_scalar(y), float(learning_rate), float(threshold)
    margin = y * (nd.dot(w, x) + b).asscalar()
    if not math.isfinite(margin):
        raise _overflow(f"the margin y (w.x + b) (here {margin})", w.dtype)
    if margin <= threshold:
        if not (_finite(w + (learning_rate * y) * x) and _finite(b + learning_rate * y)):
            raise _overflow("the weights (w, b) after the step", w.dtype)
        w += (learning_rate * y) * x
        b += learning_rate * y
        return 1
    return 0
