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
:func:`train_autograd` is the perceptron itself: SGD on :func:`~.perceptron_loss` with
:math:`\\eta = 1`, one example at a time in data order, which makes exactly the updates of
:func:`~.train`.

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

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.axes import Axes
from mxnet import autograd, nd
from tqdm import tqdm

from . import _checks
from .gluon_trainer import train_gluon
from .losses import (
    KINK_FORMS,
    average_loss,
    compare_subgradients,
    kink_gradient,
    perceptron_loss,
    relu_perceptron_loss,
    threshold_loss,
)
from .perceptron import TrainResult, train
from .plotting import plotdata, save_figure

#: A learning-rate schedule: step number ``t = 1, 2, ...`` to :math:`\eta_t` (a float, or one
#: value per run).
Schedule = Callable[[int], "float | np.ndarray"]
Loss = Callable[..., nd.NDArray]


# --- schedules -----------------------------------------------------------------------------

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
        schedule = constant_rate(learning_rate)
    try:
        table = np.stack([np.broadcast_to(np.asarray(schedule(t), dtype=np.float64), (runs,))
                          for t in range(1, steps + 1)])
    except ValueError as exc:
        raise ValueError(f"learning_rate must give a float or one value per run (runs={runs}) "
                         f"for each step t: {exc}") from exc
    if not np.all(np.isfinite(table)) or np.any(table < 0):
        raise ValueError("learning_rate must give finite values >= 0 at every step")
    return table


# --- one step ------------------------------------------------------------------------------

def _times_rows(v, m: nd.NDArray) -> nd.NDArray:
    """``v * m`` where ``v`` is a float or holds one value per row of ``m``."""
    if isinstance(v, float):
        return m if v == 1.0 else v * m  # eta = 1: skip a multiply that would change nothing
    return nd.broadcast_mul(m, v.reshape((-1, 1))) if m.ndim == 2 else v * m


def _check_params(w, b, names: tuple[str, str] = ("w", "b")) -> None:
    """Raise ``TypeError`` unless ``w`` and ``b`` are NDArrays (they are updated by MXNet)."""
    for name, a in zip(names, (w, b)):
        _checks.instance(a, nd.NDArray, name, "wrap it with nd.array(...)")


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
    factor = nd.minimum(max_norm / nd.sqrt(_sq_norms(grad_w, grad_b)), 1.0)  # 0-norm: inf -> 1
    if grad_w.ndim == 1:
        factor = float(factor.asscalar())
    return _times_rows(factor, grad_w), _times_rows(factor, grad_b)


def project_to_ball(w: nd.NDArray, b: nd.NDArray, radius: float) -> None:
    """Project :math:`(w, b)` onto :math:`\\{\\theta: \\|\\theta\\| \\le R\\}` in place:
    :math:`\\theta \\leftarrow \\theta \\min(1, R / \\|\\theta\\|)` (per model for 2-D ``w``)."""
    _check_params(w, b)
    radius = _checks.finite_float(radius, "radius", strictly_positive=True)
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
        _checks.finite_float(learning_rate, "learning_rate", strictly_positive=True)
    for name, value in (("clip", clip), ("radius", radius)):
        if value is not None:
            _checks.finite_float(value, name, strictly_positive=True)
    grad_b = b.grad
    if grad_b is None:
        raise ValueError("call w.attach_grad() and b.attach_grad() before sgd_step: autograd "
                         "needs somewhere to write the gradient")
    with autograd.record():
        value = loss(w, b, x, y)
    value.backward()
    moved = grad_b.asnumpy() != 0
    if not moved.any():
        return moved
    grad_w = w.grad
    if grad_w is None:
        raise ValueError("call w.attach_grad() before sgd_step")
    if clip is not None:
        grad_w, grad_b = clip_gradient(grad_w, grad_b, clip)
    w -= _times_rows(learning_rate, grad_w)
    b -= _times_rows(learning_rate, grad_b)
    if radius is not None:
        project_to_ball(w, b, radius)
    return moved


# --- the perceptron by autograd --------------------------------------------------------------

def _parameters_like(shape_w: tuple, shape_b: tuple, dtype) -> tuple[nd.NDArray, nd.NDArray]:
    w = nd.zeros(shape_w, dtype=dtype)
    b = nd.zeros(shape_b, dtype=dtype)
    w.attach_grad()
    b.attach_grad()
    return w, b


def train_autograd(X, Y, *, max_epochs: int, learning_rate: float = 1.0,
                   loss: Loss = perceptron_loss) -> TrainResult:
    """The perceptron as SGD: autograd on :func:`~.perceptron_loss`, one example per step.

    Starts at :math:`w = 0, b = 0` and makes passes over the data in order, each example one
    :func:`sgd_step` with constant :math:`\\eta`, until a pass makes no update or ``max_epochs``
    passes are done. An update is a step whose loss gradient was nonzero, i.e.
    :math:`y f(x) \\le 0`. With the same data (same dtype) this gives exactly the weights, bias
    and updates per epoch of :func:`~.train` (both engines), for any ``learning_rate``: the
    gradient :math:`(-y x, -y)` is exact and :math:`w - \\eta (-y x)` rounds like
    :math:`w + \\eta y x`.

    Parameters
    ----------
    X : array-like or NDArray, shape (n, d)
    Y : array-like or NDArray, shape (n,), labels in {-1, +1}
    max_epochs : int
        Bound on the passes.
    learning_rate : float
        Constant :math:`\\eta > 0`.
    loss : callable
        The loss to differentiate; ``functools.partial(threshold_loss, threshold=delta)``
        reproduces ``train(..., threshold=delta)``, :func:`~.relu_perceptron_loss` shows the trap.

    Returns
    -------
    TrainResult
        ``converged`` is True when the last pass made no update.
    """
    Xn, Yn = _checks.dataset(X, Y)
    max_epochs = _checks.positive_int(max_epochs, "max_epochs")
    learning_rate = _checks.finite_float(learning_rate, "learning_rate", strictly_positive=True)
    _check_loss(loss)
    n, d = Xn.shape
    w, b = _parameters_like((d,), (1,), Xn.dtype)
    Xd = nd.array(Xn, dtype=Xn.dtype)
    rows = [Xd[i] for i in range(n)]
    labels = [float(v) for v in Yn]
    per_epoch: list[int] = []
    for _ in range(max_epochs):
        per_epoch.append(sum(int(sgd_step(w, b, rows[i], labels[i], loss=loss,
                                          learning_rate=learning_rate)[0]) for i in range(n)))
        if per_epoch[-1] == 0:
            break
    return TrainResult(w=w.asnumpy(), b=float(b.asscalar()), updates=sum(per_epoch),
                       updates_per_epoch=per_epoch, converged=per_epoch[-1] == 0)


# --- the SGD loop with schedules, projection, clipping and averaging ---------------------------

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
    wanted = {int(t) for t in (() if record_at is None else record_at)}
    if any(t < 1 or t > steps for t in wanted):
        raise ValueError(f"record_at must hold step numbers between 1 and steps={steps}")
    return wanted


def run_sgd(X, Y, *, steps: int, loss: Loss = perceptron_loss, learning_rate=1.0,
        radius: float | None = None, clip: float | None = None, order: str = "random",
        runs: int = 1, seed: int | None = None,
        record_at: Sequence[int] | None = None, progress: bool = False) -> SGDResult:
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
    progress : bool
        Show a progress bar over the steps.

    Returns
    -------
    SGDResult
    """
    Xn, Yn = _checks.dataset(X, Y)
    steps = _checks.positive_int(steps, "steps")
    runs = _checks.positive_int(runs, "runs")
    _checks.choice(order, "order", {"random", "cyclic"})
    _check_loss(loss)
    if seed is not None:
        seed = _checks.positive_int(seed, "seed", minimum=0)
    for name, value in (("radius", radius), ("clip", clip)):
        if value is not None:
            _checks.finite_float(value, name, strictly_positive=True)
    rates = _rate_table(learning_rate, steps, runs)
    wanted = _record_steps(record_at, steps)
    n, d = Xn.shape
    order_idx = nd.array(_example_order(order, n, steps, runs, seed))
    Xd, Yd = nd.array(Xn, dtype=Xn.dtype), nd.array(Yn, dtype=Xn.dtype)
    rates_nd = nd.array(rates, dtype=Xn.dtype)
    w, b = _parameters_like((runs, d), (runs,), Xn.dtype)
    sums = _Averager(runs, d)
    updates = np.zeros(runs, dtype=int)
    max_grad = max_norm = 0.0
    history: dict = {k: [] for k in ("t", "w", "b", "w_bar", "b_bar")}
    for t in tqdm(range(steps), desc="sgd", disable=not progress):
        theta_w, theta_b = w.asnumpy().astype(np.float64), b.asnumpy().astype(np.float64)
        max_norm = max(max_norm, float(np.max(_norms(theta_w, theta_b))))
        sums.add(rates[t], theta_w, theta_b)
        idx = order_idx[t]
        moved = sgd_step(w, b, nd.take(Xd, idx), nd.take(Yd, idx), loss=loss,
                         learning_rate=rates_nd[t], clip=clip, radius=radius)
        updates += moved
        if moved.any():
            max_grad = max(max_grad, float(np.max(_norms(w.grad.asnumpy(), b.grad.asnumpy()))))
        if t + 1 in wanted:
            for key, value in zip(("w", "b", "w_bar", "b_bar"),
                                  (w.asnumpy(), b.asnumpy()) + sums.average()):
                history[key].append(_squeeze(value, runs))
            history["t"].append(t + 1)
    w_bar, b_bar = sums.average()
    return SGDResult(w=_squeeze(w.asnumpy(), runs), b=_squeeze(b.asnumpy(), runs),
                     w_bar=_squeeze(w_bar, runs), b_bar=_squeeze(b_bar, runs),
                     updates=_squeeze(updates, runs), max_grad_norm=max_grad,
                     max_norm=max_norm, history=history if wanted else {})


def _norms(w: np.ndarray, b: np.ndarray) -> np.ndarray:
    """:math:`\\|(w, b)\\|` per row, in float64."""
    return np.sqrt(np.sum(np.square(w, dtype=np.float64), axis=-1) + np.square(b, dtype=np.float64))


class _Averager:
    """Running :math:`\\sum_t \\eta_t \\theta_t` and :math:`\\sum_t \\eta_t` per run, in float64."""

    def __init__(self, runs: int, d: int):
        self.w, self.b, self.total = np.zeros((runs, d)), np.zeros(runs), np.zeros(runs)

    def add(self, eta: np.ndarray, w: np.ndarray, b: np.ndarray) -> None:
        self.w += eta[:, None] * w
        self.b += eta * b
        self.total += eta

    def average(self) -> tuple[np.ndarray, np.ndarray]:
        """:math:`\\bar\\theta`; a run whose rates were all 0 so far is at 0."""
        total = np.where(self.total > 0, self.total, 1.0)
        return self.w / total[:, None], self.b / total


def _squeeze(a: np.ndarray, runs: int):
    return a[0] if runs == 1 else a


# --- the bound, and a problem where it can be measured ---------------------------------------

def sgd_bound(radius: float, lipschitz: float, learning_rates) -> np.ndarray:
    """The chapter's bound :math:`(R^2 + L^2 \\sum_{t \\le T} \\eta_t^2)/(2 \\sum_{t \\le T}
    \\eta_t)` for every prefix :math:`T = 1, 2, \\dots` of the rates given."""
    radius = _checks.finite_float(radius, "radius", strictly_positive=True)
    lipschitz = _checks.finite_float(lipschitz, "lipschitz", strictly_positive=True)
    eta = _checks.to_numpy(learning_rates, "learning_rates").reshape(-1)
    if not np.issubdtype(eta.dtype, np.number) or np.issubdtype(eta.dtype, np.complexfloating):
        raise ValueError(f"learning_rates must be a non-empty sequence of finite rates > 0, "
                         f"got {learning_rates!r:.60}")
    eta = eta.astype(np.float64)
    if eta.size == 0 or not np.all(np.isfinite(eta)) or np.any(eta <= 0):
        raise ValueError("learning_rates must be a non-empty sequence of finite rates > 0")
    return (radius**2 + lipschitz**2 * np.cumsum(eta**2)) / (2.0 * np.cumsum(eta))


def constant_rate_optimum(radius: float, lipschitz: float, steps: int) -> tuple[float, float]:
    """The best constant rate for a horizon :math:`T` and its bound:
    :math:`\\eta = R/(L\\sqrt T)`, bound :math:`RL/\\sqrt T`."""
    radius = _checks.finite_float(radius, "radius", strictly_positive=True)
    lipschitz = _checks.finite_float(lipschitz, "lipschitz", strictly_positive=True)
    steps = _checks.positive_int(steps, "steps")
    return radius / (lipschitz * np.sqrt(steps)), radius * lipschitz / np.sqrt(steps)


def risk_minimum(X, Y, *, threshold: float = 1.0) -> tuple[np.ndarray, float, float]:
    """The exact minimum of the average loss :math:`R(\\theta) = \\frac1n\\sum_i \\max(0,
    \\delta - y_i (w^\\top x_i + b))`: the :math:`R(\\theta^*)` the SGD bound is measured from.

    The linear program of :func:`~gluon_perceptron.divergence.hinge_separator` (slacks
    :math:`\\xi_i \\ge \\delta - y_i (w^\\top x_i + b)`, :math:`\\xi_i \\ge 0`, minimize their
    mean; exact because the objective is piecewise linear), solved by HiGHS.

    Returns
    -------
    w : ndarray, shape (d,)
    b : float
        A minimizer (a vertex of the LP; minimizers need not be unique).
    value : float
        :math:`R(\\theta^*)`.
    """
    from .divergence import hinge_separator

    return hinge_separator(X, Y, threshold=threshold)


def sgd_demo_data(samples: int = 200, *, flip: float = 0.2,
                  seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """A fixed non-separable problem: 2-D Gaussian points, labels by a plane, some flipped.

    Points :math:`x \\sim N(0, I_2)`, label :math:`\\operatorname{sign}(x_1 + x_2/2 + 0.3)`,
    then a fraction ``flip`` of the labels (at random) reversed. Uses its own numpy generator.

    Returns
    -------
    X : ndarray, shape (samples, 2), float32
    Y : ndarray, shape (samples,), float32
    """
    samples = _checks.positive_int(samples, "samples", minimum=2)
    flip = _checks.finite_float(flip, "flip", minimum=0.0)
    if flip > 0.5:
        raise ValueError(f"flip must be at most 0.5 (the fraction of labels reversed), got {flip}")
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(samples, 2))
    Y = np.where(X @ np.array([1.0, 0.5]) + 0.3 > 0, 1.0, -1.0)
    Y[rng.random(samples) < flip] *= -1
    return X.astype(np.float32), Y.astype(np.float32)


@dataclass
class SGDBoundExperiment:
    """Measured gaps :math:`R(\\bar\\theta_T) - R(\\theta^*)` next to the chapter's bound.

    Gap arrays have shape ``(seeds, len(horizons))``.

    Attributes
    ----------
    horizons : ndarray
        The :math:`T` measured.
    radius, lipschitz : float
        :math:`R = \\|\\theta^*\\|` (the ball SGD projects onto) and
        :math:`L = \\max_i \\|(x_i, 1)\\|`.
    risk_min : float
        :math:`R(\\theta^*)` from :func:`risk_minimum`.
    constant_gap, constant_bound
        Rate :math:`\\eta = R/(L\\sqrt T)`, a separate run per horizon; bound :math:`RL/\\sqrt T`.
    anytime_gap, anytime_bound
        Rate :math:`\\eta_t = (R/L)/\\sqrt t`, one run read at every horizon; bound
        :math:`(R^2 + L^2 \\sum \\eta_t^2)/(2 \\sum \\eta_t)`.
    max_grad_norm : float
        Largest stochastic subgradient norm seen (must be at most ``lipschitz``).
    max_norm : float
        Largest :math:`\\|\\theta_t\\|` over all steps and runs (at most ``radius`` up to
        float32 rounding).
    """

    horizons: np.ndarray
    radius: float
    lipschitz: float
    risk_min: float
    constant_gap: np.ndarray
    constant_bound: np.ndarray
    anytime_gap: np.ndarray
    anytime_bound: np.ndarray
    max_grad_norm: float
    max_norm: float

    @property
    def assumptions_hold(self) -> bool:
        """Gradients within :math:`L` and iterates within the ball (float32 tolerance)."""
        return (self.max_grad_norm <= self.lipschitz * (1 + 1e-6)
                and self.max_norm <= self.radius * (1 + 1e-5))


def sgd_bound_experiment(X, Y, *, horizons: Sequence[int] = (10, 30, 100, 300, 1000),
                         seeds: int = 20, seed: int = 0, threshold: float = 1.0,
                         progress: bool = False) -> SGDBoundExperiment:
    """Measure :math:`\\mathbf{E}[R(\\bar\\theta_T)] - R(\\theta^*)` against the SGD bound.

    The problem: the average threshold loss (hinge for :math:`\\delta = 1`) on ``(X, Y)``, with
    :math:`R(\\theta^*)` from the LP of :func:`risk_minimum`. The assumptions are enforced:
    the radius is :math:`R = \\|\\theta^*\\|`, so :math:`\\theta^*` lies in the ball every step
    is projected onto and :math:`\\|\\theta_1 - \\theta^*\\| \\le R` from :math:`\\theta_1 = 0`;
    :math:`L = \\max_i \\|(x_i, 1)\\|` bounds every subgradient :math:`-y (x, 1)`; examples are
    drawn uniformly with replacement, so each step's gradient is an unbiased subgradient of
    :math:`R`. Both are also measured in the run. The expectation is estimated by the mean over
    ``seeds`` independent runs; all runs go through one batched :func:`run_sgd` call (a
    constant-rate run for horizon :math:`T` gets rate 0 after step :math:`T`, which leaves its
    average :math:`\\bar\\theta_T` unchanged).
    """
    Xn, Yn = _checks.dataset(X, Y)
    horizons = np.unique(np.asarray(horizons, dtype=int))
    if horizons.size == 0 or horizons[0] < 1:
        raise ValueError(f"horizons must be step counts >= 1, got {horizons.tolist()}")
    seeds = _checks.positive_int(seeds, "seeds")
    w_star, b_star, risk_min = risk_minimum(Xn, Yn, threshold=threshold)
    radius = float(np.hypot(np.linalg.norm(w_star), b_star))
    if radius == 0.0:
        raise ValueError("the minimizer is theta* = 0 (for example the perceptron loss, "
                         "threshold=0): the bound is trivial there, use threshold > 0")
    lipschitz = float(np.sqrt(np.max(np.sum(Xn.astype(np.float64) ** 2, axis=1)) + 1.0))
    k, steps = horizons.size, int(horizons[-1])
    constant = np.repeat([constant_rate_optimum(radius, lipschitz, int(T))[0]
                          for T in horizons], seeds)
    stop = np.repeat(horizons, seeds)
    eta0 = radius / lipschitz

    def rates(t: int) -> np.ndarray:
        return np.concatenate([np.where(t <= stop, constant, 0.0),
                               np.full(seeds, eta0 / np.sqrt(t))])

    result = run_sgd(Xn, Yn, steps=steps,
                     loss=functools.partial(threshold_loss, threshold=threshold),
                     learning_rate=rates, radius=radius, order="random", runs=(k + 1) * seeds,
                     seed=seed, record_at=horizons, progress=progress)
    gap = lambda w, b: average_loss(w, b, Xn, Yn, threshold=threshold) - risk_min  # noqa: E731
    constant_gap = gap(result.w_bar[:k * seeds], result.b_bar[:k * seeds]).reshape(k, seeds).T
    anytime_gap = np.stack([gap(wb[k * seeds:], bb[k * seeds:]) for wb, bb in
                            zip(result.history["w_bar"], result.history["b_bar"])], axis=1)
    all_rates = eta0 / np.sqrt(np.arange(1, steps + 1))
    return SGDBoundExperiment(
        horizons=horizons, radius=radius, lipschitz=lipschitz, risk_min=risk_min,
        constant_gap=constant_gap,
        constant_bound=np.array([constant_rate_optimum(radius, lipschitz, int(T))[1]
                                 for T in horizons]),
        anytime_gap=anytime_gap,
        anytime_bound=sgd_bound(radius, lipschitz, all_rates)[horizons - 1],
        max_grad_norm=result.max_grad_norm, max_norm=result.max_norm)


def plot_sgd_bound_experiment(result: SGDBoundExperiment, ax=None) -> Axes:
    """Measured gap (mean over seeds, min-max band) and bound against :math:`T`, log-log."""
    _checks.instance(result, SGDBoundExperiment, "result",
                     "the result of sgd_bound_experiment(X, Y)")
    if ax is None:
        _, ax = plt.subplots(figsize=(6.5, 4.5))
    T = result.horizons
    for gap, bound, color, name in (
            (result.constant_gap, result.constant_bound, "C0", "constant eta = R/(L sqrt T)"),
            (result.anytime_gap, result.anytime_bound, "C1", "eta_t = (R/L)/sqrt t")):
        ax.fill_between(T, gap.min(axis=0), gap.max(axis=0), color=color, alpha=0.15)
        ax.plot(T, gap.mean(axis=0), "o-", color=color, label=f"{name}: measured gap (mean)")
        ax.plot(T, bound, "--", color=color, label=f"{name}: bound")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("steps T")
    ax.set_ylabel("R(averaged iterate) - R(w*)")
    ax.legend(fontsize=7)
    return ax


# --- figures and the main job's section ----------------------------------------------------

_KIND_STYLE = {"mistake": ("C3", "x"), "correct": ("C2", "+"), "tie": ("k", "o")}


def plot_subgradient_check(check: dict, ax=None, *, title: str = ""):
    """Autograd's gradient entries against the closed form's (from
    :func:`~.compare_subgradients`): every point should sit on the diagonal."""
    if ax is None:
        _, ax = plt.subplots(figsize=(4.5, 4.5))
    for kind, (color, marker) in _KIND_STYLE.items():
        rows = check["kind"] == kind
        ax.scatter(check["closed_form"][rows].ravel(), check["autograd"][rows].ravel(),
                   color=color, marker=marker, s=30 if kind == "tie" else 18,
                   facecolors="none" if kind == "tie" else None,
                   label=f"{kind} ({int(rows.sum())} cases)")
    lim = np.abs(check["closed_form"]).max() + 0.5
    ax.plot([-lim, lim], [-lim, lim], color="gray", lw=0.8, zorder=0)
    ax.set_xlabel("closed form  -y (x, 1)  or 0")
    ax.set_ylabel("autograd gradient")
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=7)
    return ax


def plot_relu_trap(X, Y, ax_pair=None, *, steps: int = 60):
    """Left: autograd's slope at the kink for each form of :math:`\\max(0, -z)`. Right:
    :math:`\\|(w_t, b_t)\\|` along SGD from zero with :func:`~.perceptron_loss` and with
    :func:`~.relu_perceptron_loss` (which never leaves 0)."""
    if ax_pair is None:
        _, ax_pair = plt.subplots(1, 2, figsize=(11, 4))
    names = list(KINK_FORMS)
    slopes = [kink_gradient(name) for name in names]
    ax_pair[0].barh(range(len(names)), slopes, color=["C0" if s else "C3" for s in slopes])
    for i, slope in enumerate(slopes):
        ax_pair[0].text(min(slope, 0.0) - 0.02, i, f"{slope:g}", ha="right", va="center")
    ax_pair[0].set_yticks(range(len(names)), names, fontsize=8)
    ax_pair[0].set_xlim(-1.2, 0.1)
    ax_pair[0].set_xlabel("autograd's d/dz at z = 0")
    ax_pair[0].set_title("the slope at the tie depends on the operator", fontsize=9)
    for loss, name, color in ((perceptron_loss, "perceptron_loss (nd.maximum(-z, 0))", "C0"),
                              (relu_perceptron_loss, "relu_perceptron_loss (nd.relu(-z))", "C3")):
        run = run_sgd(X, Y, steps=steps, loss=loss, order="cyclic",
                      record_at=range(1, steps + 1))
        norms = [np.hypot(np.linalg.norm(w), b) for w, b in
                 zip(run.history["w"], run.history["b"])]
        ax_pair[1].plot(run.history["t"], norms, color=color, label=name)
    ax_pair[1].set_xlabel("SGD step (eta = 1, data order, from w = 0, b = 0)")
    ax_pair[1].set_ylabel("||(w, b)||")
    ax_pair[1].set_title("with nd.relu, SGD never leaves zero", fontsize=9)
    ax_pair[1].legend(fontsize=7)
    return ax_pair


def compare_trainers(X, Y, *, max_epochs: int) -> dict[str, TrainResult]:
    """The same data through :func:`~.train` (both engines), :func:`train_autograd` and
    :func:`~.train_gluon`, all with :math:`\\eta = 1`."""
    return {"train (faithful)": train(X, Y, max_epochs=max_epochs, engine="faithful"),
            "train (fast)": train(X, Y, max_epochs=max_epochs, engine="fast"),
            "train_autograd": train_autograd(X, Y, max_epochs=max_epochs),
            "train_gluon": train_gluon(X, Y, max_epochs=max_epochs)}


def plot_trainers(X, Y, results: dict[str, TrainResult], ax_pair=None):
    """Updates per epoch and final boundaries of :func:`compare_trainers`: the curves coincide."""
    if ax_pair is None:
        _, ax_pair = plt.subplots(1, 2, figsize=(11, 4.5))
    styles = [("o", 11, "-"), ("s", 8, "--"), ("^", 6, "-."), ("x", 6, ":")]
    grid = np.linspace(-3, 3, 2)
    for (name, res), (marker, size, line) in zip(results.items(), styles):
        ax_pair[0].plot(range(1, res.epochs + 1), res.updates_per_epoch, marker=marker,
                        markersize=size, linestyle=line, fillstyle="none", label=name)
        if abs(res.w[1]) > 1e-12:
            ax_pair[1].plot(grid, -(res.w[0] * grid + res.b) / res.w[1], linestyle=line,
                            label=name)
    ax_pair[0].set_xlabel("epoch")
    ax_pair[0].set_ylabel("updates in the epoch")
    ax_pair[0].legend(fontsize=7)
    plotdata(X, Y, ax=ax_pair[1])
    ax_pair[1].set_xlim(-3, 3)
    ax_pair[1].set_ylim(-3, 3)
    ax_pair[1].set_title("final boundaries (drawn on top of each other)", fontsize=9)
    ax_pair[1].legend(fontsize=7, loc="lower right")
    return ax_pair


def sgd_section(opts) -> list:
    """The perceptron as SGD: autograd vs closed form, the relu trap, SGD vs the perceptron,
    and the SGD bound measured against :math:`T`."""
    paths = []
    fig, axes = plt.subplots(1, 2, figsize=(10, 4.5))
    for ax, delta, name in zip(axes, (0.0, 1.0), ("perceptron loss max(0, -z)",
                                                   "hinge loss max(0, 1 - z)")):
        check = compare_subgradients(60, threshold=delta)
        worst = np.abs(check["autograd"] - check["closed_form"]).max()
        plot_subgradient_check(check, ax, title=f"{name}: largest difference {worst:g}")
        print(f"{name}: autograd vs closed form on 60 cases "
              f"({int(np.sum(check['kind'] == 'tie'))} exactly at the kink): "
              f"largest difference {worst:g}")
    paths.append(save_figure(fig, opts.out, "04_sgd_autograd_vs_closed_form"))

    X, Y = sgd_demo_data(60, flip=0.1, seed=1)
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    plot_relu_trap(X, Y, axes)
    paths.append(save_figure(fig, opts.out, "04_sgd_relu_trap"))
    trap = train_autograd(X, Y, max_epochs=5, loss=relu_perceptron_loss)
    print(f"relu trap: train_autograd with nd.relu makes {trap.updates} updates and stops at "
          f"w = {trap.w}, b = {trap.b} (reported converged={trap.converged})")

    results = compare_trainers(X, Y, max_epochs=8)
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.5))
    plot_trainers(X, Y, results, axes)
    paths.append(save_figure(fig, opts.out, "04_sgd_vs_perceptron"))
    ref = results["train (faithful)"]
    same = all(np.array_equal(r.w, ref.w) and r.b == ref.b and
               r.updates_per_epoch == ref.updates_per_epoch for r in results.values())
    print(f"train (faithful, fast), train_autograd, train_gluon identical: {same}; "
          f"updates per epoch {ref.updates_per_epoch}")

    Xb, Yb = sgd_demo_data()
    result = sgd_bound_experiment(Xb, Yb, seeds=10, progress=opts.progress)
    fig, ax = plt.subplots(figsize=(6.5, 4.5))
    plot_sgd_bound_experiment(result, ax)
    ax.set_title(f"SGD on the hinge loss, 200 points: R = {result.radius:.2f}, "
                 f"L = {result.lipschitz:.2f}, 10 seeds", fontsize=9)
    paths.append(save_figure(fig, opts.out, "04_sgd_bound"))
    print(f"bound experiment: R(w*) = {result.risk_min:.4f} (LP, HiGHS); R = {result.radius:.3f}, "
          f"L = {result.lipschitz:.3f}; max gradient norm seen {result.max_grad_norm:.3f}, "
          f"max ||theta_t|| over all steps {result.max_norm:.3f}")
    print("      T  gap const  bound RL/sqrt T  gap 1/sqrt t  anytime bound")
    for i, T in enumerate(result.horizons):
        print(f"  {T:5d}  {result.constant_gap[:, i].mean():9.4f}  "
              f"{result.constant_bound[i]:15.4f}  {result.anytime_gap[:, i].mean():12.4f}  "
              f"{result.anytime_bound[i]:13.4f}")
    return paths

