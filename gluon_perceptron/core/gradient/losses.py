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
from collections.abc import Callable

import mxnet as mx
import numpy as np
from mxnet import nd

from .. import _checks
from .._convert import as_numpy
from .._validation import Rule, label, labels, ndarray, unchecked, validate_params

# --- the rules of (w, b, x, y): checked once, when a user calls a loss ----------------------

def _finite(a, name: str, dtype) -> np.ndarray:
    """``a`` as a numpy array in ``dtype``, or a ValueError naming it when it holds no real
    numbers, or NaN or inf (also after the cast: a float64 ``x`` beyond float32's range)."""
    values = _checks.to_numpy(a, name)
    if not _checks._real(values):
        raise ValueError(f"{name} must hold real numbers, got {type(a).__name__} {a!r:.60}")
    with np.errstate(over="ignore"):
        values = values.astype(dtype, copy=False)
    if not np.all(np.isfinite(values)):
        raise ValueError(f"{name} must be finite, found NaN or inf in {name} (as "
                         f"{np.dtype(dtype).name}); check it with np.isfinite")
    return values


def _examples(ndarrays: bool, attached: bool = False) -> Rule:
    """The rule of ``x``, which checks ``w`` and ``b`` with it: one example ``(d,)``, a batch
    ``(n, d)`` or one example per row of ``w`` (shape ``(r, d)``, ``b`` of shape ``(r,)``), all
    three finite. With ``ndarrays`` (the losses), ``w`` and ``b`` are NDArrays of one float
    dtype and ``x`` too, or an array cast to it; else (numpy float64) ``b`` may be a number.
    With ``attached`` (:func:`~.sgd_step`), ``w`` and ``b`` have ``attach_grad()`` called."""
    def check(x, name: str, args: dict) -> np.ndarray:
        w, b = args["w"], args["b"]
        if ndarrays:
            _checks.one_float_dtype(w, b, x if isinstance(x, nd.NDArray) else w)
        if attached and (w.grad is None or b.grad is None):
            raise ValueError("call w.attach_grad() and b.attach_grad() before sgd_step: "
                             "autograd needs somewhere to write the gradient")
        wn, bn, xn = (_finite(a, what, w.dtype if ndarrays else np.float64)
                      for a, what in ((w, "w"), (b, "b"), (x, name)))
        ws, bs, xs = wn.shape, bn.shape if ndarrays else bn.reshape(-1).shape, xn.shape
        if len(ws) not in (1, 2) or bs != (ws[:-1] or (1,)):
            raise ValueError(f"b must have shape (1,) for w of shape (d,), or (r,) for w of shape "
                             f"(r, d) (one bias per model); got b {bs} for w {ws}")
        if 0 in xs:
            raise ValueError(f"x must hold at least one example, got shape {xs}")
        if len(xs) not in (1, 2) or xs[-1] != ws[-1] or (len(ws) == 2 and xs != ws):
            raise ValueError(f"x of shape {xs} does not fit w of shape {ws}: use x of shape "
                             f"({ws[-1]},) for one example, (n, {ws[-1]}) for a batch, or one row "
                             f"per row of w")
        return xn
    return Rule(check, f"examples(ndarrays={ndarrays}, attached={attached})", ("w", "b"))


def _finite_loss(loss: nd.NDArray, who: str, args: dict) -> nd.NDArray:
    """The result rule: ``loss``, or a ValueError when finite inputs overflowed it to inf."""
    if not np.all(np.isfinite(loss.asnumpy())):
        also = " (and threshold)" if "threshold" in args else ""
        raise ValueError(f"{who} overflowed to inf in {np.dtype(loss.dtype).name}: w, b and x"
                         f"{also} are too large for the dtype; rescale x and w, or use "
                         f"float64 w, b and x")
    return loss


def _example_labels(y, name: str, args: dict):
    """``y``: one label for one example ``x``, else one per row of ``x`` (a bare label for a
    batch is refused naming ``x`` too: a batch of one example needs a list of one label)."""
    if (x := args["x"]).ndim == 2 and np.isscalar(y):
        raise ValueError(f"{name} must hold one label per row of x, a batch of {x.shape[0]} "
                         f"examples; or pass x of shape ({x.shape[1]},) for one example")
    return (label() if x.ndim == 1 else labels(of="x"))(y, name, args)


#: The rules of ``(w, b, x, y)`` as numbers (:func:`~.analytic_subgradient`), and for a loss,
#: NDArrays ``w``, ``b`` (:func:`~.sgd_step` declares the same, ``b`` with its gradient).
#: ``y`` is one label (-1 or +1, a number or a one-element array) for one example, else one
#: per row of ``x``.
EXAMPLE_RULES = dict(w=unchecked, b=unchecked, x=_examples(ndarrays=False),
                     y=Rule(_example_labels, "labels(one per score)", ("x",)))
MODEL = ndarray("the losses are for autograd")
LOSS_RULES = dict(EXAMPLE_RULES, w=MODEL, b=MODEL, x=_examples(ndarrays=True))


# --- the losses -------------------------------------------------------------------------------

def _as_x(w: nd.NDArray, x) -> nd.NDArray:
    """``x`` as the losses compute with it: an NDArray as given, else in ``w``'s dtype on
    ``w``'s context."""
    return x if isinstance(x, nd.NDArray) else nd.array(as_numpy(x), dtype=w.dtype,
                                                        ctx=w.context)


def _as_y(w: nd.NDArray, y):
    """``y`` as the losses compute with it: a float for one label, else an NDArray of labels in
    ``w``'s dtype on ``w``'s context."""
    if isinstance(y, float):  # the package's own calls: one label
        return float(y)
    if isinstance(y, nd.NDArray):
        return y.reshape(-1).astype(w.dtype, copy=False).as_in_context(w.context)
    values = as_numpy(y).reshape(-1)
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


@validate_params(w=LOSS_RULES["w"], b=LOSS_RULES["b"], x=LOSS_RULES["x"], returns=_finite_loss)
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
    x = _as_x(w, x)
    return _score(nd, w, b, x, w.shape, x.shape)


@validate_params(**LOSS_RULES, returns=_finite_loss)
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
    x, y, threshold = _as_x(w, x), _as_y(w, y), float(threshold)
    if x.ndim == 1 and isinstance(y, float):
        return _compiled(threshold, y, w.shape[0], w.dtype)(w, b, x)
    return hinge_of_score(nd, _score(nd, w, b, x, w.shape, x.shape), y, threshold)


@validate_params(**LOSS_RULES, returns=_finite_loss)
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


@validate_params(**LOSS_RULES, returns=_finite_loss)
def hinge_loss(w: nd.NDArray, b: nd.NDArray, x, y) -> nd.NDArray:
    """The hinge loss :math:`\\max(0, 1 - y (w^\\top x + b))` of the margin perceptron.

    Gradient :math:`(-y x, -y)` when :math:`y f(x) \\le 1` (the tie included), else 0: SGD on it
    updates on mistakes *and* on correct points with margin below 1. See :func:`threshold_loss`.
    """
    return threshold_loss(w, b, x, y, 1.0)


@validate_params(**LOSS_RULES, returns=_finite_loss)
def relu_perceptron_loss(w: nd.NDArray, b: nd.NDArray, x, y) -> nd.NDArray:
    """The perceptron loss written with ``nd.relu``: same values, the wrong gradient at the tie.

    ``nd.relu`` has slope 0 at 0, so at :math:`y f(x) = 0` the gradient is 0 instead of
    :math:`(-y x, -y)`. Starting from :math:`w = 0, b = 0` every margin is 0, so SGD on this
    loss never moves. Kept only to show the trap; use :func:`perceptron_loss`.
    """
    x, y = _as_x(w, x), _as_y(w, y)
    return nd.relu(-(y * _score(nd, w, b, x, w.shape, x.shape)))


# --- where a loss is flat: the steps SGD can skip ---------------------------------------------

def _flat_margin(threshold: float, dtype) -> float:
    """A margin above which :math:`\\max(0, \\delta - m)` is flat *as MXNet computes it* in
    ``dtype``: one ulp above :math:`\\delta` rounded to ``dtype``.

    MXNet rounds the scalar :math:`\\delta` to the data's dtype (through float32 for float16,
    which may land on the other neighbour) and takes the gradient of ``maximum(delta - m, 0)``
    as nonzero exactly when :math:`m \\le \\delta` in that dtype. A margin read from the same
    score (an exact float; :math:`y = \\pm 1`) that is above this bound is therefore flat for
    every rounding of :math:`\\delta`; between :math:`\\delta` and the bound the step is simply
    taken, and the gradient decides.
    """
    kind = np.dtype(dtype).type
    with np.errstate(over="ignore"):
        return float(np.nextafter(kind(threshold), kind(np.inf)))
