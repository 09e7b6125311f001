r"""The chapter in today's MXNet: ``getfake`` and the perceptron step in MXNet's NumPy interface.

The chapter was written in 2017 against MXNet's ``nd`` (NDArray) API. Since MXNet 1.6 the
same library also has a NumPy-compatible interface, ``from mxnet import np, npx`` followed by
``npx.set_np()``, which is how *Dive into Deep Learning* (d2l.ai) writes MXNet today.
:func:`getfake_np` and :func:`perceptron_np` are the chapter's two functions in it, line for
line beside their NDArray versions (:mod:`.getfake`, :mod:`.step`): ``np.random.normal``,
``np.dot``, ``np.linalg.norm`` and ``.item()`` in place of ``nd.random_normal``, ``nd.dot``,
``nd.norm`` and ``.asscalar()``.

``npx.set_np()`` switches MXNet's NumPy semantics on for the whole thread, and NDArray code run
after it may behave differently (a scalar result has shape ``()`` instead of ``(1,)``). These
functions do not depend on that switch and do not change it: each runs inside
``mxnet.util.use_np``, which turns the NumPy semantics on for the call only and restores the
caller's mode on return, so they work whether or not the caller has called ``npx.set_np()``,
and the rest of the package (and the caller's NDArray code) is unaffected.

On the same data the step makes the same updates as :func:`.step.perceptron`, to the last bit
(one float32 dot product, the same comparison, the same additions). The sampler follows the
same distribution as :func:`.getfake.getfake` but draws another stream from MXNet's generator:
MXNet 1.9's NumPy ``normal`` uses both numbers of each pair its Gaussian sampler makes where
``nd.random_normal`` uses one. The NumPy stream is the one the chapter's own 2017 run drew:
after ``mx.random.seed(1)``, ``getfake_np(50, 2, 0.3)`` and one pass of :func:`perceptron_np`
make the four updates the chapter printed (:data:`.getfake.PRINTED_TRACE`), digit for digit.
"""

from __future__ import annotations

import math

import mxnet as mx
from mxnet import np
from mxnet.util import use_np

from .._arrays import _finite, _overflow
from .._convert import as_scalar
from .._validation import label, such_that, unchecked, validate_params
from .perceptron_step import _step_rules
from .sampler import (
    RADIUS,
    SAMPLE_RULES,
    _default_attempts,
    _give_up,
    _refuse_hopeless,
    _refuse_unreachable,
)

#: The arguments of :func:`perceptron_np`: those of :func:`.perceptron_step.perceptron`, in
#: ``mxnet.numpy`` arrays (a label too: ``label()`` reads one, an NDArray of MXNet's).
NP_STEP_RULES = _step_rules(such_that(
    unchecked, lambda value, args: isinstance(value, np.ndarray), "{name} must be an mxnet.numpy "
    "ndarray (perceptron_np updates w and b in place), got {value.__class__.__name__}; wrap it "
    "with mxnet.np.array(...), or convert an NDArray with .as_np_ndarray()", error=TypeError),
    label())


@use_np
def draw_plane_np(dimensions: int, epsilon: float, ctx: mx.Context) -> tuple:
    """The random unit ``wfake`` and ``bfake ~ N(0, 1)``, in the NumPy interface."""
    wfake = np.random.normal(size=(dimensions,), ctx=ctx)   # fake weight vector for separation
    bfake = np.random.normal(size=(1,), ctx=ctx)            # fake bias
    wfake = wfake / np.linalg.norm(wfake)                   # rescale to unit length
    _refuse_unreachable(epsilon, bfake.item())
    return wfake, bfake


@use_np
def sample_np(samples, dimensions, epsilon, wfake, bfake, max_attempts, ctx) -> tuple:
    """The chapter's loop in the NumPy interface: one candidate at a time."""
    _refuse_hopeless(samples, dimensions, epsilon, bfake.item(), max_attempts)
    X = np.zeros((samples, dimensions), ctx=ctx)
    Y = np.zeros((samples,), ctx=ctx)

    i = 0
    attempts = 0
    while i < samples:
        if attempts >= max_attempts:   # ours: a bound instead of looping forever
            _give_up(i, samples, attempts, dimensions, epsilon)
        attempts += 1
        tmp = np.random.normal(size=(1, dimensions), ctx=ctx)
        margin = (np.dot(tmp, wfake) + bfake).item()
        if np.linalg.norm(tmp).item() < RADIUS and abs(margin) > epsilon:
            X[i, :] = tmp[0]
            Y[i] = 1 if margin > 0 else -1
            i += 1
    return X, Y, attempts


@validate_params(**SAMPLE_RULES)
def getfake_np(samples: int, dimensions: int, epsilon: float,
               ctx: mx.Context | None = None) -> tuple[np.ndarray, np.ndarray]:
    r"""The chapter's ``getfake`` in MXNet's NumPy interface: separable data with margin
    ``epsilon``, as ``mxnet.numpy`` arrays.

    The same construction as :func:`gluon_perceptron.getfake`: draw :math:`w \sim N(0, I_d)`,
    normalised to :math:`\|w\| = 1`, and :math:`b \sim N(0, 1)`; keep candidates
    :math:`x \sim N(0, I_d)` one at a time while :math:`\|x\| < 3` and
    :math:`|w^\top x + b| > \epsilon`, labelled :math:`y = \operatorname{sign}(w^\top x + b)`.
    It runs in NumPy mode whatever the caller's mode, and leaves that mode as it was.

    Parameters
    ----------
    samples, dimensions : int
        Shape of ``X``; both at least 1, and ``samples * dimensions`` at most MXNet's
        :math:`2^{31} - 1` elements.
    epsilon : float
        Margin to keep around the plane, ``>= 0``.
    ctx : mxnet.Context, optional
        Where ``X``, ``Y`` and every draw live; default ``mx.cpu()``.

    Returns
    -------
    X : mxnet.numpy.ndarray, shape (samples, dimensions)
    Y : mxnet.numpy.ndarray, shape (samples,), labels in {-1, +1}

    Raises
    ------
    SamplingError
        As :func:`gluon_perceptron.getfake`: after ``100 * samples + 10_000`` candidates
        without enough points, or at once when the drawn plane leaves too little room.

    Notes
    -----
    MXNet's global generator drives the draws (``mx.random.seed``), but MXNet's NumPy
    ``normal`` consumes it differently from ``nd.random_normal``: under one seed the two
    samplers give different data, from the same distribution. After ``mx.random.seed(1)`` this
    one gives the data of the chapter's printed 2017 run (:data:`.getfake.PRINTED_TRACE`).
    """
    ctx = mx.cpu() if ctx is None else ctx
    wfake, bfake = draw_plane_np(dimensions, epsilon, ctx)
    X, Y, _ = sample_np(samples, dimensions, epsilon, wfake, bfake,
                         _default_attempts(samples), ctx)
    return X, Y


@validate_params(**NP_STEP_RULES)
@use_np
def perceptron_np(w: np.ndarray, b: np.ndarray, x: np.ndarray, y: float, *,
                  learning_rate: float = 1.0, threshold: float = 0.0) -> int:
    r"""The chapter's perceptron step in MXNet's NumPy interface, updating ``w`` and ``b`` in
    place.

    If :math:`y (w^\top x + b) \le \delta` then :math:`w \mathrel{+}= \eta y x` and
    :math:`b \mathrel{+}= \eta y`, as :func:`gluon_perceptron.perceptron` does with NDArrays; on
    the same data both make the same updates and the same weights. It runs in NumPy mode
    whatever the caller's mode, and leaves that mode as it was.

    Parameters
    ----------
    w : mxnet.numpy.ndarray, shape (d,)
        Weights, changed in place.
    b : mxnet.numpy.ndarray, shape (1,)
        Bias, changed in place.
    x : mxnet.numpy.ndarray, shape (d,)
        One example.
    y : float or mxnet.numpy.ndarray
        Its label, -1 or +1.
    learning_rate : float
        Step :math:`\eta` (the chapter uses 1).
    threshold : float
        Update when the margin is at most :math:`\delta` (the chapter uses 0).

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
    margin = y * (np.dot(w, x) + b).item()
    if not math.isfinite(margin):
        raise _overflow(f"the margin y (w.x + b) (here {margin})", w.dtype)
    if margin <= threshold:
        if not (_finite(w + (learning_rate * y) * x) and _finite(b + learning_rate * y)):
            raise _overflow("the weights (w, b) after the step", w.dtype)
        w += (learning_rate * y) * x
        b += learning_rate * y
        return 1
    return 0
