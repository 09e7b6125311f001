r"""One step of SGD by MXNet's autograd, its learning-rate schedules, clipping and projection.

The chapter's template::

    initialize w
    loop over data and labels (x, y):
        compute f(x)
        compute loss gradient g = partial_w l(y, f(x))
        w = w - eta g

:func:`sgd_step` is one pass through that loop body, with the gradient taken by
``autograd.record()`` / ``backward()`` on a loss of :mod:`.losses` (never from the closed form),
optionally clipped to norm ``clip`` (:func:`clip_gradient`) and projected back onto the ball
:math:`\|(w, b)\| \le R` (:func:`project_to_ball`). :func:`constant_rate` and
:func:`inverse_sqrt_rate` are the schedules :func:`~.sgd.run_sgd` takes.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from mxnet import autograd, nd

from .. import _checks
from .._validation import Rule, function, optional, real, user_code, validate_params
from .losses import LOSS_RULES, _as_x, _as_y, _examples, perceptron_loss

#: A learning-rate schedule: step number ``t = 1, 2, ...`` to :math:`\eta_t` (a float, or one
#: value per run).
Schedule = Callable[[int], "float | np.ndarray"]

#: A loss ``loss(w, b, x, y) -> NDArray`` of per-example losses.
Loss = Callable[..., nd.NDArray]

#: The rule of a ``loss`` argument: a callable (the package's losses run trusted; a user's
#: loss runs checked and must return :data:`LOSS_RESULT`, see :func:`sgd_step`).
LOSS = function("loss(w, b, x, y), e.g. perceptron_loss or hinge_loss (not its name)")
#: What a user's loss must return, for :func:`~.._validation.user_code`.
LOSS_RESULT = (nd.NDArray, "an mxnet NDArray recorded by autograd (e.g. nd.maximum(-y * f, 0))",
               ": a numpy value has no gradient")
#: An optional norm bound (clipping, projection): a positive float MXNet takes as a scalar (not
#: subnormal: :func:`~gluon_perceptron.core._checks.finite_float` refuses those).
BOUND = optional(real(positive=True))
#: The smallest normal float64 (a smaller rate is subnormal).
_TINY = float(np.finfo(np.float64).tiny)


@validate_params(eta=real(positive=True))
def constant_rate(eta: float) -> Schedule:
    """The constant schedule :math:`\\eta_t = \\eta`."""
    eta = float(eta)
    return lambda t: eta


@validate_params(eta0=real(positive=True))
def inverse_sqrt_rate(eta0: float) -> Schedule:
    """The decreasing schedule :math:`\\eta_t = \\eta_0 / \\sqrt t` of the anytime bound."""
    eta0 = float(eta0)
    return lambda t: eta0 / np.sqrt(t)


def normal_rate(learning_rate, name: str, args: dict) -> float:
    """A constant rate: finite, > 0, and a normal float (MXNet refuses a subnormal scalar such
    as 1e-320 with an MXNetError deep in an operator)."""
    if isinstance(learning_rate, float | np.floating) and 0 < learning_rate < _TINY:
        raise ValueError(f"{name}={learning_rate:g} is subnormal (below {_TINY:.3g}): MXNet "
                         f"refuses such scalars; from w = 0, b = 0 the perceptron's rate only "
                         f"rescales (w, b), so {name}=1.0 makes the same decisions")
    return _checks.finite_float(learning_rate, name, strictly_positive=True)


def _step_rate(learning_rate, name: str, args: dict):
    """A normal float rate, or an NDArray of finite rates >= 0 (one per model)."""
    if not isinstance(learning_rate, nd.NDArray):
        return normal_rate(learning_rate, name, args)
    if not np.all(np.isfinite(rates := learning_rate.asnumpy())) or np.any(rates < 0):
        raise ValueError(f"{name} must hold finite values >= 0 (one per model), got {rates!r:.80}")
    return learning_rate


def _times_rows(v, m: nd.NDArray) -> nd.NDArray:
    """``v * m`` where ``v`` is a float or holds one value per row of ``m``."""
    if isinstance(v, float):
        return m if v == 1.0 else v * m  # eta = 1: skip a multiply that would change nothing
    return nd.broadcast_mul(m, v.reshape((-1, 1))) if m.ndim == 2 else v * m


def _sq_norms(w: nd.NDArray, b: nd.NDArray) -> nd.NDArray:
    """:math:`\\|(w, b)\\|^2` per model: shape (1,) for 1-D ``w``, (r,) for 2-D ``w``."""
    return nd.sum(w * w, axis=-1) + b * b


def clip_gradient(grad_w: nd.NDArray, grad_b: nd.NDArray,
                  max_norm: float) -> tuple[nd.NDArray, nd.NDArray]:
    """Shrink the gradient :math:`g = (g_w, g_b)` to norm at most ``max_norm``:
    :math:`g \\leftarrow g \\min(1, c / \\|g\\|)` (per model when ``grad_w`` is 2-D). A step of
    :func:`sgd_step`, which checks ``clip`` where a user passes it: this checks nothing."""
    max_norm = float(max_norm)
    factor = nd.minimum(max_norm / nd.sqrt(_sq_norms(grad_w, grad_b)), 1.0)  # 0-norm: inf -> 1
    if grad_w.ndim == 1:
        factor = float(factor.asscalar())
    return _times_rows(factor, grad_w), _times_rows(factor, grad_b)


def project_to_ball(w: nd.NDArray, b: nd.NDArray, radius: float) -> None:
    """Project :math:`(w, b)` onto :math:`\\{\\theta: \\|\\theta\\| \\le R\\}` in place:
    :math:`\\theta \\leftarrow \\theta \\min(1, R / \\|\\theta\\|)` (per model for 2-D ``w``). A
    step of :func:`sgd_step`, which checks ``radius`` where a user passes it: this checks
    nothing."""
    radius = float(radius)
    factor = nd.minimum(radius / nd.sqrt(_sq_norms(w, b)), 1.0)  # norm 0: inf -> 1
    nd.broadcast_mul(w, factor.reshape((-1, 1)) if w.ndim == 2 else factor, out=w)
    nd.elemwise_mul(b, factor, out=b)


@validate_params(**dict(LOSS_RULES, x=_examples(ndarrays=True, attached=True)), loss=LOSS,
                 learning_rate=Rule(_step_rate, "real(positive=True) or NDArray"), clip=BOUND,
                 radius=BOUND)
def sgd_step(w: nd.NDArray, b: nd.NDArray, x, y, *, loss: Loss = perceptron_loss,
             learning_rate=1.0, clip: float | None = None,
             radius: float | None = None) -> np.ndarray:
    """One step of the chapter's SGD template, with the gradient from MXNet's autograd.

    Records ``loss(w, b, x, y)``, calls ``backward()`` (summing over models when ``w`` holds
    one per row, which gives each row its own gradient), then

    .. math:: g \\leftarrow g \\min(1, c/\\|g\\|), \\quad
              \\theta \\leftarrow \\theta - \\eta g, \\quad
              \\theta \\leftarrow \\theta \\min(1, R/\\|\\theta\\|)

    with clipping and projection only when ``clip`` / ``radius`` are given. The bias gradient
    is read once (the only host sync): for a loss of the margin :math:`z = y (w^\\top x + b)`
    it is :math:`\\ell'(z) y`, nonzero exactly when the whole gradient is. When it is zero for
    every model the update is skipped, which changes nothing (a zero step leaves the iterate,
    already in the ball, where it is).

    Parameters
    ----------
    w, b : NDArray
        Parameters with ``attach_grad()`` called, updated in place; shapes (d,), (1,) or one
        model per row, (r, d), (r,).
    x, y
        The example(s) for this step, as the losses take them (checked as they check them).
    loss : callable
        ``loss(w, b, x, y) -> NDArray`` of per-example losses, e.g. :func:`~.perceptron_loss`;
        a loss of your own runs with its calls checked, and must return an NDArray.
    learning_rate : float or NDArray of shape (r,)
        :math:`\\eta` (one per model allowed).
    clip : float, optional
        Largest gradient norm :math:`c` allowed.
    radius : float, optional
        Radius :math:`R` of the ball to project back onto.

    Returns
    -------
    ndarray of bool, shape (1,) or (r,)
        Where the gradient was nonzero, i.e. where this step was an update.
    """
    x, y, loss = _as_x(w, x), _as_y(w, y), user_code(loss, "loss", returns=LOSS_RESULT)
    rate = learning_rate if isinstance(learning_rate, nd.NDArray) else float(learning_rate)
    with autograd.record():
        value = loss(w, b, x, y)
    value.backward()
    moved = b.grad.asnumpy() != 0
    if not moved.any():
        return moved
    grad_w, grad_b = w.grad, b.grad
    if clip is not None:
        grad_w, grad_b = clip_gradient(grad_w, grad_b, clip)
    w -= _times_rows(rate, grad_w)
    b -= _times_rows(rate, grad_b)
    if radius is not None:
        project_to_ball(w, b, radius)
    return moved
