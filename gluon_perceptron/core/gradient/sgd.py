"""The perceptron as stochastic gradient descent, by MXNet's autograd, and the SGD bound measured.

The chapter's template::

    initialize w
    loop over data and labels (x, y):
        compute f(x)
        compute loss gradient g = partial_w l(y, f(x))
        w = w - eta g

:func:`sgd_step` is one pass through that loop body, with the gradient taken by
``autograd.record()`` / ``backward()`` on a loss of :mod:`.losses` (never from the closed form),
optionally clipped to norm ``clip`` and projected back onto the ball
:math:`\\|(w, b)\\| \\le R`. :func:`run_sgd` runs it for a number of steps with a
learning-rate schedule (:func:`constant_rate`, :func:`inverse_sqrt_rate`) and returns the
weighted average iterate :math:`\\bar\\theta = \\sum_t \\eta_t \\theta_t / \\sum_t \\eta_t`.
:func:`~.train_autograd` (in :mod:`.autograd`) is the perceptron itself: SGD on
:func:`~.perceptron_loss`, one example at a time in data order, which makes exactly the updates
of :func:`~.train`.

The bound (Nesterov and Vial, as in the chapter). Let :math:`\\theta^*` minimize the average loss
:math:`R(\\theta)` and lie in the ball of radius :math:`R` that SGD projects onto, start at
:math:`\\theta_1 = 0`, let every stochastic subgradient have norm at most :math:`L`, and draw the
examples uniformly at random. Then

.. math:: \\mathbf{E}[R(\\bar\\theta_T)] - R(\\theta^*) \\le
          \\frac{R^2 + L^2 \\sum_{t \\le T} \\eta_t^2}{2 \\sum_{t \\le T} \\eta_t},

which for a constant rate is smallest at :math:`\\eta = R / (L\\sqrt T)`, where it equals
:math:`RL/\\sqrt T`; for :math:`\\eta_t = \\eta_0/\\sqrt t` it is :math:`O(\\log T/\\sqrt T)`
at every :math:`T` (an *anytime* rate). :func:`sgd_bound_experiment` measures the left side
on the hinge loss, whose :math:`R(\\theta^*)` is computed exactly as a linear program.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import mxnet as mx
import numpy as np
from mxnet import autograd, nd

from .. import _checks
from .._arrays import _overflow, _row_norms
from .losses import _unchecked, perceptron_loss

#: A learning-rate schedule: step number ``t = 1, 2, ...`` to :math:`\eta_t` (a float, or one
#: value per run).
Schedule = Callable[[int], "float | np.ndarray"]


Loss = Callable[..., nd.NDArray]


def constant_rate(eta: float) -> Schedule:
    """The constant schedule :math:`\\eta_t = \\eta`."""
    eta = _checks.finite_float(eta, "eta", strictly_positive=True)
    return lambda t: eta


def inverse_sqrt_rate(eta0: float) -> Schedule:
    """The decreasing schedule :math:`\\eta_t = \\eta_0 / \\sqrt t` of the anytime bound."""
    eta0 = _checks.finite_float(eta0, "eta0", strictly_positive=True)
    return lambda t: eta0 / np.sqrt(t)


def _rate_table(learning_rate, steps: int, runs: int) -> np.ndarray:
    """:math:`\\eta_t` for ``t = 1..steps`` and every run, shape (steps, runs)."""
    if callable(learning_rate):
        schedule = learning_rate
    else:
        eta = _checks.finite_float(learning_rate, "learning_rate", strictly_positive=True)
        schedule = lambda t: eta  # noqa: E731 - constant_rate's schedule, named learning_rate
    try:
        table = np.stack([np.broadcast_to(np.asarray(schedule(t), dtype=np.float64), (runs,))
                          for t in range(1, steps + 1)])
    except ValueError as exc:
        raise ValueError(f"learning_rate must give a float or one value per run (runs={runs}) "
                         f"for each step t: {exc}") from exc
    if not np.all(np.isfinite(table)) or np.any(table < 0):
        raise ValueError("learning_rate must give finite values >= 0 at every step")
    return table


def _rate(learning_rate) -> float:
    """A constant rate: finite, > 0, and a normal float (MXNet refuses a subnormal scalar such
    as 1e-320 with an MXNetError deep in an operator)."""
    learning_rate = _checks.finite_float(learning_rate, "learning_rate", strictly_positive=True)
    if learning_rate < np.finfo(np.float64).tiny:
        raise ValueError(f"learning_rate={learning_rate:g} is subnormal (below "
                         f"{np.finfo(np.float64).tiny:.3g}): MXNet refuses such scalars; from "
                         f"w = 0, b = 0 the perceptron's rate only rescales (w, b), so "
                         f"learning_rate=1.0 makes the same decisions")
    return learning_rate


def _times_rows(v, m: nd.NDArray) -> nd.NDArray:
    """``v * m`` where ``v`` is a float or holds one value per row of ``m``."""
    if isinstance(v, float):
        return m if v == 1.0 else v * m  # eta = 1: skip a multiply that would change nothing
    return nd.broadcast_mul(m, v.reshape((-1, 1))) if m.ndim == 2 else v * m


def _check_params(w, b, names: tuple[str, str] = ("w", "b")) -> None:
    """Raise ``TypeError`` unless ``w`` and ``b`` are NDArrays (they are updated by MXNet) of
    one float dtype, ``ValueError`` unless their shapes fit: (d,) and (1,), or (r, d) and
    (r,)."""
    for name, a in zip(names, (w, b)):
        _checks.instance(a, nd.NDArray, name, "wrap it with nd.array(...)")
    nw, nb = names
    dw, db = np.dtype(w.dtype), np.dtype(b.dtype)
    if not np.issubdtype(dw, np.floating):
        raise TypeError(f"{nw} must hold floats (float32 or float64), got {dw.name}; use "
                        f"{nw} = {nw}.astype('float32')")
    if db != dw:
        raise TypeError(f"{nb} has dtype {db.name} but {nw} has {dw.name}: MXNet needs one "
                        f"dtype; cast with {nb}.astype({nw}.dtype) (or build both in one dtype)")
    ws, bs = w.shape, b.shape
    if len(ws) not in (1, 2) or bs != ((ws[0],) if len(ws) == 2 else (1,)):
        raise ValueError(f"{nw} must have shape (d,) with {nb} of shape (1,), or (r, d) with "
                         f"{nb} of shape (r,) (one model per row); got {ws} and {bs}")


def _check_loss(loss) -> None:
    if not callable(loss):
        raise TypeError(f"loss must be a function loss(w, b, x, y), e.g. perceptron_loss or "
                        f"hinge_loss (not its name), got {type(loss).__name__} {loss!r:.40}")


def _sq_norms(w: nd.NDArray, b: nd.NDArray) -> nd.NDArray:
    """:math:`\\|(w, b)\\|^2` per model: shape (1,) for 1-D ``w``, (r,) for 2-D ``w``."""
    return nd.sum(w * w, axis=-1) + b * b


def clip_gradient(grad_w: nd.NDArray, grad_b: nd.NDArray,
                  max_norm: float) -> tuple[nd.NDArray, nd.NDArray]:
    """Shrink the gradient :math:`g = (g_w, g_b)` to norm at most ``max_norm``:
    :math:`g \\leftarrow g \\min(1, c / \\|g\\|)` (per model when ``grad_w`` is 2-D)."""
    _check_params(grad_w, grad_b, ("grad_w", "grad_b"))
    max_norm = _checks.finite_float(max_norm, "max_norm", strictly_positive=True)
    return _clip_gradient(grad_w, grad_b, max_norm)


def _clip_gradient(grad_w, grad_b, max_norm: float):
    factor = nd.minimum(max_norm / nd.sqrt(_sq_norms(grad_w, grad_b)), 1.0)  # 0-norm: inf -> 1
    if grad_w.ndim == 1:
        factor = float(factor.asscalar())
    return _times_rows(factor, grad_w), _times_rows(factor, grad_b)


def project_to_ball(w: nd.NDArray, b: nd.NDArray, radius: float) -> None:
    """Project :math:`(w, b)` onto :math:`\\{\\theta: \\|\\theta\\| \\le R\\}` in place:
    :math:`\\theta \\leftarrow \\theta \\min(1, R / \\|\\theta\\|)` (per model for 2-D ``w``)."""
    _check_params(w, b)
    radius = _checks.finite_float(radius, "radius", strictly_positive=True)
    if not np.all(np.isfinite(_sq_norms(w, b).asnumpy())):
        raise ValueError(f"project_to_ball needs ||(w, b)||^2 in {np.dtype(w.dtype).name}, but "
                         f"w and b hold NaN or inf, or are too large for it to be finite; "
                         f"rescale w and b (or use float64)")
    _project_to_ball(w, b, radius)


def _project_to_ball(w, b, radius: float) -> None:
    factor = nd.minimum(radius / nd.sqrt(_sq_norms(w, b)), 1.0)  # norm 0: inf -> 1
    nd.broadcast_mul(w, factor.reshape((-1, 1)) if w.ndim == 2 else factor, out=w)
    nd.elemwise_mul(b, factor, out=b)


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
        The example(s) for this step, as the loss takes them.
    loss : callable
        ``loss(w, b, x, y) -> NDArray`` of per-example losses, e.g. :func:`~.perceptron_loss`.
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
    _check_params(w, b)
    _check_loss(loss)
    if not isinstance(learning_rate, nd.NDArray):
        learning_rate = _rate(learning_rate)
    elif not np.all(np.isfinite(rates := learning_rate.asnumpy())) or np.any(rates < 0):
        raise ValueError(f"learning_rate must hold finite values >= 0 (one per model), got "
                         f"{rates!r:.80}")
    for name, value in (("clip", clip), ("radius", radius)):
        if value is not None:
            _checks.finite_float(value, name, strictly_positive=True)
    return _sgd_step(w, b, x, y, loss, learning_rate, clip, radius)


def _sgd_step(w, b, x, y, loss, learning_rate, clip, radius) -> np.ndarray:
    """:func:`sgd_step` on checked arguments."""
    grad_b = b.grad
    if grad_b is None:
        raise ValueError("call w.attach_grad() and b.attach_grad() before sgd_step: autograd "
                         "needs somewhere to write the gradient")
    with autograd.record():
        value = loss(w, b, x, y)
    if not isinstance(value, nd.NDArray):
        raise TypeError(f"loss must return an mxnet NDArray recorded by autograd (e.g. "
                        f"nd.maximum(-y * f, 0)), but {getattr(loss, '__name__', loss)!r:.60} "
                        f"returned {type(value).__name__}: a numpy value has no gradient")
    value.backward()
    moved = grad_b.asnumpy() != 0
    if not moved.any():
        return moved
    grad_w = w.grad
    if grad_w is None:
        raise ValueError("call w.attach_grad() before sgd_step")
    if clip is not None:
        grad_w, grad_b = _clip_gradient(grad_w, grad_b, clip)
    w -= _times_rows(learning_rate, grad_w)
    b -= _times_rows(learning_rate, grad_b)
    if radius is not None:
        _project_to_ball(w, b, radius)
    return moved


def _parameters_like(shape_w: tuple, shape_b: tuple, dtype,
                     ctx: mx.Context) -> tuple[nd.NDArray, nd.NDArray]:
    """Zero parameters on ``ctx`` with a gradient buffer attached."""
    w = nd.zeros(shape_w, dtype=dtype, ctx=ctx)
    b = nd.zeros(shape_b, dtype=dtype, ctx=ctx)
    w.attach_grad()
    b.attach_grad()
    return w, b


@dataclass
class SGDResult:
    """What :func:`run_sgd` returns. Arrays have a leading run axis only when ``runs > 1``.

    Attributes
    ----------
    w, b : ndarray
        The last iterate :math:`\\theta_{T+1}`.
    w_bar, b_bar : ndarray
        The weighted average :math:`\\sum_{t \\le T} \\eta_t \\theta_t / \\sum_{t \\le T}
        \\eta_t` of the iterates the gradients were taken at.
    updates : ndarray of int
        Steps with a nonzero gradient, per run.
    max_grad_norm : float
        Largest :math:`\\|g_t\\|` seen (before clipping), over all steps and runs: the
        measured Lipschitz constant.
    max_norm : float
        Largest :math:`\\|\\theta_t\\|` over the iterates the gradients were taken at (all
        steps and runs): at most ``radius`` when projecting, up to float32 rounding.
    history : dict
        At each step of ``record_at``: ``"t"``, ``"w"``, ``"b"``, ``"w_bar"``, ``"b_bar"``.
    """

    w: np.ndarray
    b: np.ndarray
    w_bar: np.ndarray
    b_bar: np.ndarray
    updates: np.ndarray
    max_grad_norm: float
    max_norm: float
    history: dict = field(default_factory=dict)


def _example_order(order: str, n: int, steps: int, runs: int, seed) -> np.ndarray:
    """Example indices, shape (steps, runs): uniform draws, or 0, 1, ..., n-1, 0, ..."""
    if order == "random":
        return np.random.default_rng(seed).integers(n, size=(steps, runs))
    return np.repeat((np.arange(steps) % n)[:, None], runs, axis=1)


def _record_steps(record_at, steps: int) -> set[int]:
    if record_at is None or (hasattr(record_at, "__len__") and len(record_at) == 0):
        return set()
    try:
        return set(_checks.counts(record_at, "record_at", maximum=steps))
    except ValueError as exc:
        raise ValueError(f"record_at must hold step numbers between 1 and steps={steps}: "
                         f"{exc}") from exc


def run_sgd(X, Y, *, steps: int, loss: Loss = perceptron_loss, learning_rate=1.0,
        radius: float | None = None, clip: float | None = None, order: str = "random",
        runs: int = 1, seed: int | None = None,
        record_at: Sequence[int] | None = None, progress=None,
        ctx: mx.Context | None = None) -> SGDResult:
    """Run ``steps`` steps of SGD from :math:`\\theta_1 = 0` and average the iterates.

    Step :math:`t` draws example :math:`i_t` (uniformly at random, or cyclically in data order)
    and makes one :func:`sgd_step` with rate :math:`\\eta_t`; the weighted average
    :math:`\\bar\\theta_T = \\sum_t \\eta_t \\theta_t / \\sum_t \\eta_t` is accumulated on the
    way. With ``runs > 1`` that many independent runs (each its own draws and, if the schedule
    gives one per run, its own rates) go in parallel, one model per row, through the same
    autograd calls.

    Parameters
    ----------
    X, Y : data, shape (n, d) and (n,)
    steps : int
        :math:`T`.
    loss : callable
        ``loss(w, b, x, y)``, e.g. :func:`~.perceptron_loss` or :func:`~.hinge_loss`.
    learning_rate : float or callable
        A constant, or a schedule ``t -> eta_t`` (:func:`constant_rate`,
        :func:`inverse_sqrt_rate`, or one value per run).
    radius : float, optional
        Project onto the ball :math:`\\|(w, b)\\| \\le R` after each step.
    clip : float, optional
        Clip each gradient to norm at most ``clip``.
    order : {"random", "cyclic"}
        Uniform draws with replacement (what the bound assumes), or data order.
    runs : int
        Independent runs.
    seed : int, optional
        Seed of the example draws.
    record_at : sequence of int, optional
        Steps after which to store the iterate and the running average.
    progress : callable, optional
        A tqdm-like wrapper ``progress(items, desc=...)`` for a progress bar over the steps
        (``True``/``False`` are accepted for old calls and draw none).
    ctx : mx.Context, optional
        Where the parameters and the data live (default ``mx.cpu()``).

    Raises
    ------
    ValueError
        When an iterate, its norm, the average or the final margins overflow to inf/nan
        (scale the data or lower the rate).

    Returns
    -------
    SGDResult
    """
    Xn, Yn = _checks.dataset(X, Y)
    steps = _checks.positive_int(steps, "steps")
    runs = _checks.repeats(runs, "runs")
    _checks.choice(order, "order", {"random", "cyclic"})
    _check_loss(loss)
    loss = _unchecked(loss)
    seed = _checks.seed(seed)
    progress = _checks.progress(progress)
    for name, value in (("radius", radius), ("clip", clip)):
        if value is not None:
            _checks.finite_float(value, name, strictly_positive=True)
    n, d = Xn.shape
    _checks.elements(steps * runs, f"run_sgd's table of rates and example draws (steps={steps:,}"
                                   f" x runs={runs:,})")
    _checks.elements(runs * d, f"run_sgd's weights (runs={runs:,} models x {d} features)")
    rates = _rate_table(learning_rate, steps, runs)
    wanted = _record_steps(record_at, steps)
    ctx = mx.cpu() if ctx is None else ctx
    order_idx = nd.array(_example_order(order, n, steps, runs, seed), ctx=ctx)
    Xd, Yd = nd.array(Xn, dtype=Xn.dtype, ctx=ctx), nd.array(Yn, dtype=Xn.dtype, ctx=ctx)
    rates_nd = nd.array(rates, dtype=Xn.dtype, ctx=ctx)
    w, b = _parameters_like((runs, d), (runs,), Xn.dtype, ctx)
    sums = _Averager(runs, d)
    updates = np.zeros(runs, dtype=int)
    max_grad = max_norm = 0.0
    history: dict = {k: [] for k in ("t", "w", "b", "w_bar", "b_bar")}
    ticks = range(steps)
    if progress is not None:
        ticks = progress(ticks, desc="sgd")
    for t in ticks:
        theta_w, theta_b = w.asnumpy().astype(np.float64), b.asnumpy().astype(np.float64)
        max_norm = max(max_norm, float(np.max(_norms(theta_w, theta_b))))
        if not np.isfinite(max_norm):
            raise _overflow(f"the iterate (w, b) of run_sgd (or its norm) after step {t}",
                            Xn.dtype)
        sums.add(rates[t], theta_w, theta_b)
        idx = order_idx[t]
        moved = _sgd_step(w, b, nd.take(Xd, idx), nd.take(Yd, idx), loss, rates_nd[t], clip,
                          radius)
        updates += moved
        if moved.any():
            max_grad = max(max_grad, float(np.max(_norms(w.grad.asnumpy(), b.grad.asnumpy()))))
        if t + 1 in wanted:
            for key, value in zip(("w", "b", "w_bar", "b_bar"),
                                  (w.asnumpy(), b.asnumpy()) + sums.average()):
                history[key].append(_squeeze(value, runs))
            history["t"].append(t + 1)
    w_bar, b_bar = sums.average()
    for what, (wv, bv) in (("last iterate", (w.asnumpy(), b.asnumpy())),
                           ("average", (w_bar, b_bar))):
        _refuse_overflow(wv, bv, Xn, Yn, f"run_sgd's {what} after step {steps}")
    return SGDResult(w=_squeeze(w.asnumpy(), runs), b=_squeeze(b.asnumpy(), runs),
                     w_bar=_squeeze(w_bar, runs), b_bar=_squeeze(b_bar, runs),
                     updates=_squeeze(updates, runs), max_grad_norm=max_grad,
                     max_norm=max_norm, history=history if wanted else {})


def _norms(w: np.ndarray, b: np.ndarray) -> np.ndarray:
    """:math:`\\|(w, b)\\|` per row, in float64, without overflow for finite entries (inf
    only when the norm itself is beyond float64, or an entry is not finite)."""
    theta = np.hstack([np.atleast_2d(w), np.reshape(b, (-1, 1))])
    if not np.isfinite(theta).all():
        return np.full(theta.shape[0], np.inf)
    with np.errstate(over="ignore"):
        return _row_norms(theta)


def _refuse_overflow(w: np.ndarray, b: np.ndarray, X: np.ndarray, Y: np.ndarray,
                     what: str) -> None:
    """Raise :func:`_overflow` when the weights (one model per row, or one model) or their
    margins :math:`y (w^\\top x + b)` on ``(X, Y)`` left the floats: a margin of inf would
    read as "correct", and the weights as a model."""
    W, B = np.atleast_2d(w).astype(np.float64), np.reshape(b, -1).astype(np.float64)
    if not (np.isfinite(W).all() and np.isfinite(B).all()):
        raise _overflow(f"the weights (w, b) of {what}", X.dtype)
    with np.errstate(over="ignore", invalid="ignore"):
        margins = Y[None, :] * (W @ X.astype(np.float64).T + B[:, None])
    if not np.isfinite(margins).all():
        raise _overflow(f"the margins y (w.x + b) of {what}", X.dtype)


class _Averager:
    """Running :math:`\\sum_t \\eta_t \\theta_t` and :math:`\\sum_t \\eta_t` per run, in float64."""

    def __init__(self, runs: int, d: int):
        self.w, self.b, self.total = np.zeros((runs, d)), np.zeros(runs), np.zeros(runs)

    def add(self, eta: np.ndarray, w: np.ndarray, b: np.ndarray) -> None:
        with np.errstate(over="ignore", invalid="ignore"):  # run_sgd refuses a sum of inf
            self.w += eta[:, None] * w
            self.b += eta * b
        self.total += eta

    def average(self) -> tuple[np.ndarray, np.ndarray]:
        """:math:`\\bar\\theta`; a run whose rates were all 0 so far is at 0."""
        total = np.where(self.total > 0, self.total, 1.0)
        return self.w / total[:, None], self.b / total


def _squeeze(a: np.ndarray, runs: int):
    return a[0] if runs == 1 else a
