"""The perceptron's loss and its margin variants, with autograd and closed-form subgradients.

The chapter's last part reads the perceptron as stochastic gradient descent. Write the score
:math:`f(x) = w^\\top x + b` and the margin :math:`z = y f(x)`. The threshold-:math:`\\delta`
loss is

.. math:: \\ell_\\delta(w, b; x, y) = \\max(0, \\delta - y (w^\\top x + b)),

with :math:`\\delta = 0` the perceptron loss :math:`\\max(0, -y f(x))` and :math:`\\delta = 1`
the hinge loss :math:`\\max(0, 1 - y f(x))` of the margin perceptron. It is convex and piecewise
linear in :math:`(w, b)`; the subgradient the perceptron uses is

.. math:: \\partial_{(w, b)} \\ell_\\delta = \\begin{cases} (-y x, -y) & y f(x) \\le \\delta
          \\\\ (0, 0) & y f(x) > \\delta, \\end{cases}

so one SGD step :math:`(w, b) \\leftarrow (w, b) - \\eta\\, \\partial \\ell_\\delta` is exactly
the rule :math:`w \\mathrel{+}= \\eta y x, b \\mathrel{+}= \\eta y` on every example with
:math:`y f(x) \\le \\delta`.

At the kink :math:`y f(x) = \\delta` any slope in :math:`[-1, 0]` is a valid subgradient, and
MXNet's autograd picks one *per operator*: ``nd.maximum(-z, 0)`` (the scalar form) passes the
gradient through at equality (slope -1), while ``nd.relu(-z)`` and
``nd.maximum(nd.zeros_like(z), -z)`` return 0 there. The perceptron starts at
:math:`w = 0, b = 0`, where every margin is exactly 0, so only the first choice ever moves.
:data:`KINK_FORMS` and :func:`kink_gradient` measure this; :func:`relu_perceptron_loss` keeps the
wrong form around to show the trap.
"""

from __future__ import annotations

import functools
import numbers
from collections.abc import Callable

import mxnet as mx
import numpy as np
from mxnet import autograd, nd

from .. import _checks

_REDUCTIONS = {"none", "sum", "mean"}


def _shapes(w, b, x) -> tuple[tuple, tuple, tuple]:
    """Check that ``w, b, x`` fit together; return their shapes (read once: each read costs)."""
    for name, a in (("w", w), ("b", b), ("x", x)):
        if not isinstance(a, nd.NDArray):
            raise TypeError(f"{name} must be an mxnet NDArray (the losses are for autograd), got "
                            f"{type(a).__name__}; use {name} = nd.array(...)"
                            + (f" and {name}.attach_grad()" if name != "x" else ""))
    ws, bs, xs = w.shape, b.shape, x.shape
    _checks.one_float_dtype(w, b, x)
    if len(ws) not in (1, 2):
        raise ValueError(f"w must be 1-D (one model) or 2-D (one model per row), got {ws}")
    if bs != ((ws[0],) if len(ws) == 2 else (1,)):
        raise ValueError(f"b must have shape {(ws[0],) if len(ws) == 2 else (1,)} for w of "
                         f"shape {ws} (one bias per model), got {bs}")
    d = ws[-1]
    if not ((len(xs) == 1 and len(ws) == 1 and xs[0] == d) or
            (len(xs) == 2 and xs[1] == d and (len(ws) == 1 or xs[0] == ws[0]))):
        raise ValueError(f"x of shape {xs} does not fit w of shape {ws}: use x of shape ({d},) "
                         f"for one example, (n, {d}) for a batch, or one row per row of w")
    return ws, bs, xs


def _check_threshold(threshold: float, w: nd.NDArray) -> None:
    """Refuse a threshold the loss's dtype (``w``'s) cannot hold: it would give inf losses."""
    top = float(np.finfo(w.dtype).max)
    if threshold > top:
        raise ValueError(f"threshold={threshold:g} does not fit w's dtype "
                         f"{np.dtype(w.dtype).name} (largest {top:g}): the loss would be inf; "
                         f"lower threshold, or use float64 w, b and x")


def _check_result(loss: nd.NDArray, who: str) -> nd.NDArray:
    """``loss``, or a ValueError when finite inputs overflowed it to inf (one host sync)."""
    if not np.all(np.isfinite(loss.asnumpy())):
        raise ValueError(f"{who} overflowed to inf in {np.dtype(loss.dtype).name}: w, b and x "
                         f"(and threshold) are too large for the dtype; rescale x and w, or use "
                         f"float64 w, b and x")
    return loss


def _check_finite(**arrays: nd.NDArray) -> None:
    """Refuse NaN or inf in the given NDArrays (one host sync each)."""
    for name, a in arrays.items():
        values = a.asnumpy()
        if not np.all(np.isfinite(values)):
            raise ValueError(f"{name} must be finite, found NaN or inf in {name}; check it with "
                             f"np.isfinite and restart from finite values")


def _as_examples(w: nd.NDArray, x) -> nd.NDArray:
    """``x`` as an NDArray in ``w``'s dtype (an NDArray ``x`` is kept: :func:`_dtypes` checks
    it), or a ValueError naming ``x`` when it does not hold real numbers."""
    if isinstance(x, nd.NDArray):
        return x
    values = _checks.to_numpy(x, "x")
    if values.dtype == object or not np.issubdtype(values.dtype, np.number) \
            or np.issubdtype(values.dtype, np.complexfloating):
        raise ValueError(f"x must hold real numbers (one example of shape (d,) or a batch of "
                         f"shape (n, d)), got {type(x).__name__} {x!r:.60}")
    return nd.array(values, dtype=getattr(w, "dtype", np.float32),
                    ctx=getattr(w, "context", None))


def _label(y, n: int, w: nd.NDArray, check: bool = True):
    """``y`` as a Python float (one label) or an NDArray of ``n`` labels.

    Labels are checked to be -1 or +1; for NDArray labels that costs a host sync, so the
    package's trainers (which checked their labels once) pass ``check=False``.
    """
    if isinstance(y, numbers.Real) and not isinstance(y, bool):
        value = float(y)
        if value not in (1.0, -1.0):
            raise ValueError(f"y must be -1 or +1, got {y!r}")
        return value
    if isinstance(y, nd.NDArray):
        if y.shape != (n,):
            raise ValueError(f"y must hold one label per score, shape ({n},), got {y.shape}")
        if check:
            _checks.labels(y.asnumpy(), n, name="y")
        return y.astype(w.dtype, copy=False).as_in_context(w.context)
    values = _checks.labels(y, n, name="y")
    return float(values[0]) if values.size == 1 else nd.array(values, dtype=w.dtype,
                                                                  ctx=w.context)


def _score(F, w, b, x, ws: tuple, xs: tuple):
    """:math:`f = w^\\top x + b` for one example, a batch, or one example per model."""
    if len(ws) == 2:
        return F.sum(w * x, axis=1) + b
    return F.dot(w, x) + b if len(xs) == 1 else F.dot(x, w) + b


def hinge_of_score(F, f, y, threshold: float):
    """:math:`\\max(0, \\delta - y f)`, written once for ``F`` = ``nd`` or ``mx.sym``.

    The *scalar* form ``F.maximum(..., 0)`` is chosen on purpose: MXNet's autograd gives it
    slope 1 at equality, so the loss has slope -1 in :math:`y f` at the kink and the gradient
    there is the perceptron's :math:`(-y x, -y)`. ``F.relu`` would give 0.
    """
    return F.maximum(threshold - y * f, 0)


@functools.lru_cache(maxsize=64)
def _compiled(threshold: float, label: float, d: int, dtype) -> Callable:
    """The one-example loss as one cached graph (what Gluon's ``hybridize`` does).

    Same operators as the imperative path, but one engine call instead of four; ``label`` and
    ``threshold`` are baked in as scalars, so there are two graphs per threshold. Returns a
    function of ``(w, b, x)``.
    """
    w, b, x = mx.sym.var("w"), mx.sym.var("b"), mx.sym.var("x")
    loss = hinge_of_score(mx.sym, _score(mx.sym, w, b, x, (d,), (d,)), label, threshold)
    op = nd.CachedOp(loss, flags=[("static_alloc", True), ("static_shape", True)])
    take = [("w", "b", "x").index(name) for name in loss.list_inputs()]
    return lambda *wbx: op(*[wbx[i] for i in take])


def score(w: nd.NDArray, b: nd.NDArray, x) -> nd.NDArray:
    """The score :math:`f(x) = w^\\top x + b` of one example, a batch, or one example per run.

    Parameters
    ----------
    w : NDArray, shape (d,) or (r, d)
        Weights; a 2-D ``w`` holds ``r`` independent models, one per row.
    b : NDArray, shape (1,) or (r,)
        Bias (one per row of ``w``).
    x : NDArray or array-like, shape (d,), (n, d) or (r, d)
        One example, a batch scored by the single model, or (for 2-D ``w``) one example per
        model.

    Returns
    -------
    NDArray, shape (1,), (n,) or (r,)
        ``nd.dot(w, x) + b`` for one example, exactly the chapter's arithmetic.
    """
    x = _as_examples(w, x)
    ws, _, xs = _shapes(w, b, x)
    return _score(nd, w, b, x, ws, xs)


def threshold_loss(w: nd.NDArray, b: nd.NDArray, x, y, threshold: float = 0.0) -> nd.NDArray:
    """The threshold-:math:`\\delta` loss :math:`\\max(0, \\delta - y (w^\\top x + b))`, per
    example.

    Written as ``nd.maximum(delta - y f, 0)`` with a *scalar* 0 on purpose: for that operator
    MXNet's autograd gives slope -1 at the kink :math:`y f = \\delta`, so the gradient there is
    the perceptron's :math:`(-y x, -y)` (an update at the tie, as in :func:`~.train`). Written
    with ``nd.relu`` the slope at the kink is 0 (see :func:`relu_perceptron_loss`). One example
    with a number label runs as a cached graph of the same operators (one engine call instead
    of four, which halves the cost of an SGD step); everything else runs imperatively.

    Parameters
    ----------
    w, b : NDArray
        Parameters, shapes as in :func:`score`; call ``attach_grad()`` on them to differentiate.
    x : NDArray or array-like
        One example ``(d,)``, a batch ``(n, d)`` or one example per row of ``w``.
    y : float or array-like
        Labels in {-1, +1}, one per score.
    threshold : float
        :math:`\\delta \\ge 0`; 0 gives :func:`perceptron_loss`, 1 :func:`hinge_loss`.

    Returns
    -------
    NDArray, shape (1,), (n,) or (r,)
        The loss of each example (not reduced: call ``.sum()`` or ``.mean()``).

    Raises
    ------
    TypeError
        If ``w``, ``b`` or ``x`` is no NDArray of one float dtype (a non-NDArray ``x`` is
        converted to ``w``'s dtype).
    ValueError
        If the shapes do not fit, ``y`` is not -1/+1, an input is NaN or inf, or the loss
        overflows the dtype (e.g. a ``threshold`` beyond float32's range).
    """
    threshold = _checks.finite_float(threshold, "threshold", minimum=0.0)
    return _threshold_loss(w, b, x, y, threshold, check=True)


def _threshold_loss(w, b, x, y, threshold: float = 0.0, *, check: bool = False) -> nd.NDArray:
    """:func:`threshold_loss` for callers that checked values already (``check=False``: only
    shapes and dtypes, no host sync)."""
    x = _as_examples(w, x)
    ws, _, xs = _shapes(w, b, x)
    yv = _label(y, 1 if len(xs) == 1 else xs[0], w, check)
    if check:
        _check_finite(w=w, b=b, x=x)
        _check_threshold(threshold, w)
    if len(xs) == 1 and isinstance(yv, float):
        loss = _compiled(float(threshold), yv, ws[0], w.dtype)(w, b, x)
    else:
        loss = hinge_of_score(nd, _score(nd, w, b, x, ws, xs), yv, threshold)
    return _check_result(loss, "threshold_loss") if check else loss


def perceptron_loss(w: nd.NDArray, b: nd.NDArray, x, y) -> nd.NDArray:
    """The perceptron loss :math:`\\max(0, -y (w^\\top x + b))`, usable under ``autograd.record()``.

    Its autograd gradient is :math:`(-y x, -y)` when :math:`y f(x) \\le 0` and :math:`(0, 0)`
    otherwise. *Including the tie* :math:`y f(x) = 0` matters: every run starts at
    :math:`w = 0, b = 0`, where all margins are 0. The loss is therefore written with
    ``nd.maximum(-y f, 0)`` (scalar form, slope -1 at the tie), not with ``nd.relu(-y f)`` or
    ``nd.maximum(nd.zeros_like(z), -z)``, whose slope there is 0 and with which SGD from zero
    never moves. See :func:`threshold_loss` for shapes.
    """
    return threshold_loss(w, b, x, y, 0.0)


def hinge_loss(w: nd.NDArray, b: nd.NDArray, x, y) -> nd.NDArray:
    """The hinge loss :math:`\\max(0, 1 - y (w^\\top x + b))` of the margin perceptron.

    Gradient :math:`(-y x, -y)` when :math:`y f(x) \\le 1` (the tie included), else 0: SGD on it
    updates on mistakes *and* on correct points with margin below 1. See :func:`threshold_loss`.
    """
    return threshold_loss(w, b, x, y, 1.0)


def relu_perceptron_loss(w: nd.NDArray, b: nd.NDArray, x, y) -> nd.NDArray:
    """The perceptron loss written with ``nd.relu``: same values, the wrong gradient at the tie.

    ``nd.relu`` has slope 0 at 0, so at :math:`y f(x) = 0` the gradient is 0 instead of
    :math:`(-y x, -y)`. Starting from :math:`w = 0, b = 0` every margin is 0, so SGD on this
    loss never moves. Kept only to show the trap; use :func:`perceptron_loss`.
    """
    return _relu_perceptron_loss(w, b, x, y, check=True)


def _relu_perceptron_loss(w, b, x, y, *, check: bool = False) -> nd.NDArray:
    x = _as_examples(w, x)
    ws, _, xs = _shapes(w, b, x)
    yv = _label(y, 1 if len(xs) == 1 else xs[0], w, check)
    if check:
        _check_finite(w=w, b=b, x=x)
    loss = nd.relu(-(yv * _score(nd, w, b, x, ws, xs)))
    return _check_result(loss, "relu_perceptron_loss") if check else loss


def _unchecked(loss: Callable) -> Callable:
    """The package's own losses without their per-call value checks, for trainers that checked
    the data once; any other callable is returned as it is."""
    if loss is perceptron_loss:
        return functools.partial(_threshold_loss, threshold=0.0)
    if loss is hinge_loss:
        return functools.partial(_threshold_loss, threshold=1.0)
    if loss is relu_perceptron_loss:
        return _relu_perceptron_loss
    if isinstance(loss, functools.partial) and loss.func is threshold_loss and not loss.args \
            and set(loss.keywords) <= {"threshold"}:
        threshold = _checks.finite_float(loss.keywords.get("threshold", 0.0), "threshold",
                                         minimum=0.0)
        return functools.partial(_threshold_loss, threshold=threshold)
    return loss


def _real(a, name: str) -> np.ndarray:
    """``a`` as a finite float64 array, or a ValueError naming it."""
    values = _checks.to_numpy(a, name)
    if values.dtype == object or not np.issubdtype(values.dtype, np.number) \
            or np.issubdtype(values.dtype, np.complexfloating):
        raise ValueError(f"{name} must hold real numbers, got dtype {values.dtype}")
    values = values.astype(np.float64)
    if not np.all(np.isfinite(values)):
        raise ValueError(f"{name} must be finite, found NaN or inf in {name} (the loss and "
                         f"its subgradient are undefined there); check it with np.isfinite")
    return values


def _subgradient_inputs(w, b, x, y):
    wn = _real(w, "w")
    bn = _real(b, "b").reshape(-1)
    xn = _real(x, "x")
    if wn.ndim not in (1, 2) or bn.shape != ((wn.shape[0],) if wn.ndim == 2 else (1,)):
        raise ValueError(f"w must have shape (d,) with b of shape (1,), or (r, d) with b of "
                         f"shape (r,); got {wn.shape} and {bn.shape}")
    single = xn.ndim == 1
    X = xn.reshape(1, -1) if single else xn
    if X.ndim != 2 or X.shape[1] != wn.shape[-1] or (wn.ndim == 2 and X.shape[0] != wn.shape[0]):
        raise ValueError(f"x of shape {xn.shape} does not fit w of shape {wn.shape}")
    Y = _checks.labels(np.reshape(_checks.to_numpy(y, "y"), -1), X.shape[0], name="y")
    return wn, bn, X, Y, single


def analytic_subgradient(w, b, x, y, *, threshold: float = 0.0,
                         reduction: str = "sum") -> tuple[np.ndarray, np.ndarray]:
    """The closed-form subgradient of :func:`threshold_loss`, the one the perceptron uses.

    For each example, :math:`g_w = -y x` and :math:`g_b = -y` when
    :math:`y (w^\\top x + b) \\le \\delta` (the tie included), and 0 otherwise. Computed in numpy
    float64, independently of MXNet.

    Parameters
    ----------
    w, b, x, y
        As in :func:`threshold_loss` (NDArrays or array-likes).
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
    _checks.choice(reduction, "reduction", _REDUCTIONS)
    threshold = _checks.finite_float(threshold, "threshold", minimum=0.0)
    wn, bn, X, Y, single = _subgradient_inputs(w, b, x, y)
    if wn.ndim == 2:
        margins = Y * (np.sum(wn * X, axis=1) + bn)
    else:
        margins = Y * (X @ wn + bn[0])
    slope = np.where(margins <= threshold, -Y, 0.0)
    gw, gb = slope[:, None] * X, slope
    if wn.ndim == 2 or (reduction == "none" and not single):
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


def kink_gradient(form: str, z: float = 0.0) -> float:
    """The slope autograd gives for one of :data:`KINK_FORMS` at ``z`` (default: the kink).

    Returns -1.0 for ``"nd.maximum(-z, 0)"`` at ``z = 0`` and 0.0 for the other two forms.
    """
    _checks.choice(form, "form", set(KINK_FORMS))
    z = nd.array([_checks.finite_float(z, "z")])
    z.attach_grad()
    with autograd.record():
        loss = KINK_FORMS[form](z)
    loss.backward()
    return float(z.grad.asscalar()) + 0.0  # + 0.0 turns autograd's -0.0 into 0.0


def average_loss(w, b, X, Y, *, threshold: float = 0.0) -> float | np.ndarray:
    """The average loss :math:`R(w, b) = \\frac1n \\sum_i \\max(0, \\delta - y_i (w^\\top x_i +
    b))` (the risk SGD minimizes).

    Numpy float64, for evaluating parameters; ``w`` may be ``(d,)`` with a scalar ``b``, or hold
    one model per row, ``(r, d)`` with ``b`` of shape ``(r,)``, giving one risk per row.
    """
    Xn, Yn = _checks.dataset(X, Y)
    threshold = _checks.finite_float(threshold, "threshold", minimum=0.0)
    wn = _real(w, "w")
    bn = _real(b, "b").reshape(-1)
    W = wn.reshape(1, -1) if wn.ndim == 1 else wn
    if W.ndim != 2 or W.shape[1] != Xn.shape[1] or bn.shape[0] != W.shape[0]:
        raise ValueError(f"w of shape {wn.shape} and b of shape {bn.shape} do not fit X with "
                         f"{Xn.shape[1]} features")
    with np.errstate(over="ignore", invalid="ignore"):
        margins = Yn[None, :] * (W @ Xn.astype(np.float64).T + bn[:, None])
        # the mean of terms divided by n first: no overflow of the sum for terms near 1e308
        values = (np.maximum(0.0, threshold - margins) / Xn.shape[0]).sum(axis=1)
    if not np.all(np.isfinite(values)):
        raise ValueError(f"average_loss overflowed to inf: the margins y (w.x + b) of w, b and X "
                         f"(or threshold={threshold:g}) exceed float64; rescale X and w")
    return values[0] if wn.ndim == 1 else values
