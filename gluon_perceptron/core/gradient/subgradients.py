r"""The perceptron loss's subgradient in closed form, autograd's slope at the kink, and the risk.

:func:`analytic_subgradient` is the subgradient :math:`(-y x, -y)` on
:math:`y (w^\top x + b) \le \delta` (0 elsewhere) in numpy float64, independent of MXNet, to
compare with what autograd computes on :func:`~.losses.threshold_loss`. :data:`KINK_FORMS` and
:func:`kink_gradient` measure the slope MXNet's autograd picks at the kink for three ways of
writing :math:`\max(0, -z)`; :func:`average_loss` is the risk SGD minimises.
"""

from __future__ import annotations

from collections.abc import Callable

import mxnet as mx
import numpy as np
from mxnet import autograd, nd

from .._convert import as_features, as_labels, as_numpy, as_values
from .._validation import Rule, one_of, real, unchecked, validate_params
from .losses import EXAMPLE_RULES, _finite


def _float64(a) -> np.ndarray:
    """``a`` (an NDArray, an array, a sequence) as a float64 numpy array of its shape."""
    return as_numpy(a).astype(np.float64)


@validate_params(reduction=one_of("none", "sum", "mean"), **EXAMPLE_RULES)
def analytic_subgradient(w, b, x, y, *, threshold: float = 0.0,
                         reduction: str = "sum") -> tuple[np.ndarray, np.ndarray]:
    """The closed-form subgradient of :func:`~.losses.threshold_loss`, the one the perceptron
    uses.

    For each example, :math:`g_w = -y x` and :math:`g_b = -y` when
    :math:`y (w^\\top x + b) \\le \\delta` (the tie included), and 0 otherwise. Computed in numpy
    float64, independently of MXNet.

    Parameters
    ----------
    w, b, x, y
        As in :func:`~.losses.threshold_loss` (NDArrays or array-likes).
    threshold : float
        :math:`\\delta`: 0 for the perceptron loss, 1 for the hinge loss.
    reduction : {"sum", "mean", "none"}
        How to combine a batch: the gradient of ``loss.sum()``, of ``loss.mean()``, or one row
        per example. Ignored for one example and for 2-D ``w`` (one gradient per run).

    Returns
    -------
    grad_w : ndarray, shape like ``w`` (or (n, d) for ``"none"``)
    grad_b : ndarray, shape like ``b`` (or (n,) for ``"none"``)
    """
    w, b, x, y = _float64(w), _float64(b).reshape(-1), _float64(x), as_values(y)
    X = np.atleast_2d(x)
    if w.ndim == 2:
        margins = y * (np.sum(w * X, axis=1) + b)
    else:
        margins = y * (X @ w + b[0])
    slope = np.where(margins <= threshold, -y, 0.0)
    gw, gb = slope[:, None] * X, slope
    if w.ndim == 2 or (reduction == "none" and x.ndim == 2):
        return gw, gb
    if reduction == "mean":
        return gw.mean(axis=0), np.array([gb.mean()])
    return gw.sum(axis=0), np.array([gb.sum()])


#: Three ways to write :math:`\\max(0, -z)` in MXNet; they differ only in the slope at z = 0.
KINK_FORMS: dict[str, Callable[[nd.NDArray], nd.NDArray]] = {
    "nd.maximum(-z, 0)": lambda z: nd.maximum(-z, 0),
    "nd.relu(-z)": lambda z: nd.relu(-z),
    "nd.maximum(nd.zeros_like(z), -z)": lambda z: nd.maximum(nd.zeros_like(z), -z),
}


@validate_params(form=one_of(*KINK_FORMS), z=real())
def kink_gradient(form: str, z: float = 0.0, ctx: mx.Context | None = None) -> float:
    """The slope autograd gives for one of :data:`KINK_FORMS` at ``z`` (default: the kink),
    computed on ``ctx`` (default ``mx.cpu()``).

    Returns -1.0 for ``"nd.maximum(-z, 0)"`` at ``z = 0`` and 0.0 for the other two forms.
    """
    z, ctx = float(z), mx.cpu() if ctx is None else ctx
    at = nd.array([z], ctx=ctx)
    at.attach_grad()
    with autograd.record():
        loss = KINK_FORMS[form](at)
    loss.backward()
    return float(at.grad.asscalar()) + 0.0  # + 0.0 turns autograd's -0.0 into 0.0


def _models(b, name: str, args: dict) -> np.ndarray:
    """``w`` and ``b``: one model ``(d,)`` and its bias, or one per row ``(r, d)`` and ``(r,)``,
    finite, fitting X."""
    w, b, X = _finite(args["w"], "w", np.float64), _finite(b, name, np.float64), args["X"]
    W = w.reshape(1, -1) if w.ndim == 1 else w
    if W.ndim != 2 or W.shape[1] != X.shape[1] or b.size != W.shape[0]:
        raise ValueError(f"w of shape {w.shape} and b of shape {b.shape} do not fit X with "
                         f"{X.shape[1]} features")
    return b


@validate_params(w=unchecked, b=Rule(_models, "one bias per model of w, fitting X", ("w", "X")))
def average_loss(w, b, X, Y, *, threshold: float = 0.0) -> float | np.ndarray:
    """The average loss :math:`R(w, b) = \\frac1n \\sum_i \\max(0, \\delta - y_i (w^\\top x_i +
    b))` (the risk SGD minimizes).

    Numpy float64, for evaluating parameters; ``w`` may be ``(d,)`` with a scalar ``b``, or hold
    one model per row, ``(r, d)`` with ``b`` of shape ``(r,)``, giving one risk per row.

    Raises
    ------
    ValueError
        When the margins overflow float64 (rescale ``X`` and ``w``).
    """
    X = as_features(X)
    Y, w, b = as_labels(Y, like=X), _float64(w), _float64(b).reshape(-1)
    W = np.atleast_2d(w)
    with np.errstate(over="ignore", invalid="ignore"):
        margins = Y[None, :] * (W @ X.astype(np.float64).T + b[:, None])
        # the mean of terms divided by n first: no overflow of the sum for terms near 1e308
        values = (np.maximum(0.0, threshold - margins) / X.shape[0]).sum(axis=1)
    if not np.all(np.isfinite(values)):
        raise ValueError(f"average_loss overflowed to inf: the margins y (w.x + b) of w, b and X "
                         f"(or threshold={threshold:g}) exceed float64; rescale X and w")
    return values[0] if w.ndim == 1 else values
