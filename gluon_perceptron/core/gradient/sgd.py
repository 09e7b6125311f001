"""The perceptron as stochastic gradient descent, by MXNet's autograd, and the SGD bound measured.

:func:`~.sgd_update.sgd_step` is one pass through the body of the chapter's SGD loop (its
template is in :mod:`.sgd_update`). :func:`run_sgd` runs it for a number of steps with a
learning-rate schedule (:func:`~.sgd_update.constant_rate`,
:func:`~.sgd_update.inverse_sqrt_rate`) and returns the weighted average iterate
:math:`\\bar\\theta = \\sum_t \\eta_t \\theta_t / \\sum_t \\eta_t`.
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

from collections.abc import Sequence
from dataclasses import dataclass, field

import mxnet as mx
import numpy as np
from mxnet import nd

from .. import _checks
from .._arrays import _guard, _overflow, _row_norms
from .._convert import as_features, as_labels, as_progress
from .._validation import Rule, count, fits, one_of, repeats, user_code, validate_params
from .losses import perceptron_loss
from .sgd_update import BOUND, LOSS, Loss, sgd_step


def _rate_table(learning_rate, steps: int, runs: int) -> np.ndarray:
    """:math:`\\eta_t` for ``t = 1..steps`` and every run, shape (steps, runs): a constant, or
    the values of a schedule, which must be finite and >= 0."""
    schedule = learning_rate if callable(learning_rate) else (lambda t: learning_rate)
    try:
        table = np.stack([np.broadcast_to(np.asarray(schedule(t), dtype=np.float64), (runs,))
                          for t in range(1, steps + 1)])
    except ValueError as exc:
        raise ValueError(f"learning_rate must give a float or one value per run (runs={runs}) "
                         f"for each step t: {exc}") from exc
    if not np.all(np.isfinite(table)) or np.any(table < 0):
        raise ValueError("learning_rate must give finite values >= 0 at every step")
    return table


def parameters_like(shape_w: tuple, shape_b: tuple, dtype,
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
    updates_per_epoch : list of int, or ndarray of int, shape (epochs, runs)
        Those steps in each epoch: ``n`` steps, as many as examples (with ``order="cyclic"``
        one pass over the data); the last epoch is shorter when ``n`` does not divide
        ``steps``.
    converged : bool, or ndarray of bool, shape (runs,)
        True only if the last epoch had no step with a nonzero gradient: with the perceptron
        loss and ``order="cyclic"``, a whole pass without a mistake, as in
        :class:`~gluon_perceptron.core.rosenblatt.results.TrainResult`; with random draws, none
        on the examples drawn.
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
    updates_per_epoch: list[int] | np.ndarray = field(default_factory=list)
    converged: bool | np.ndarray = False

    @property
    def epochs(self) -> int:
        """Epochs of ``n`` steps (the last one maybe shorter)."""
        return len(self.updates_per_epoch)


def _example_order(order: str, n: int, steps: int, runs: int, seed) -> np.ndarray:
    """Example indices, shape (steps, runs): uniform draws, or 0, 1, ..., n-1, 0, ..."""
    if order == "random":
        return np.random.default_rng(seed).integers(n, size=(steps, runs))
    return np.repeat((np.arange(steps) % n)[:, None], runs, axis=1)


def _record_steps(record_at, name: str, args: dict) -> list[int]:
    """``record_at``: step numbers between 1 and ``steps`` (None or empty: none)."""
    empty = record_at is None or np.shape(record_at) == (0,)  # not a 0-d array, nor (1, 0)
    return [] if empty else _checks.counts(record_at, name, maximum=args["steps"])


def _rate_or_schedule(value, name: str, args: dict):
    """A constant rate > 0, or a schedule ``t -> eta_t`` (run as the user's code)."""
    return value if callable(value) else _checks.finite_float(value, name, strictly_positive=True)


@validate_params(steps=count(), order=one_of("random", "cyclic"), loss=LOSS, clip=BOUND,
                 radius=BOUND, learning_rate=Rule(_rate_or_schedule, "rate > 0 or schedule"),
                 record_at=Rule(_record_steps, "counts(maximum=steps) or None", ("steps",)),
                 runs=fits(repeats(), lambda runs, a: runs * max(a["steps"], a["X"].shape[1]),
                           "run_sgd's tables (steps={steps:,} x runs={value:,} rates and draws, "
                           "runs x {X.shape[1]} weights)", ("steps", "X")))
def run_sgd(X, Y, *, steps: int, loss: Loss = perceptron_loss, learning_rate=1.0,
            radius: float | None = None, clip: float | None = None, order: str = "random",
            runs: int = 1, seed: int | None = None,
            record_at: Sequence[int] | None = None, progress=None,
            ctx: mx.Context | None = None) -> SGDResult:
    """Run ``steps`` steps of SGD from :math:`\\theta_1 = 0` and average the iterates.

    Step :math:`t` draws example :math:`i_t` (uniformly at random, or cyclically in data order)
    and makes one :func:`~.sgd_update.sgd_step` with rate :math:`\\eta_t`; the weighted average
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
        A constant, or a schedule ``t -> eta_t`` (:func:`~.sgd_update.constant_rate`,
        :func:`~.sgd_update.inverse_sqrt_rate`, or one value per run).
    radius : float, optional
        Project onto the ball :math:`\\|(w, b)\\| \\le R` after each step.
    clip : float, optional
        Clip each gradient to norm at most ``clip``.
    order : {"random", "cyclic"}
        Uniform draws with replacement (what the bound assumes), or data order.
    runs : int
        Independent runs.
    seed : int, optional
        Seed of the example draws (``numpy.random.default_rng(seed)``): None draws fresh
        randomness, an integer reproduces.
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
    X = as_features(X)
    Y, progress, ctx = as_labels(Y, like=X), as_progress(progress), ctx or mx.cpu()
    n, d = X.shape
    rates = _rate_table(user_code(learning_rate, "learning_rate"), steps, runs)
    wanted = set(() if record_at is None else record_at)
    order_idx = nd.array(_example_order(order, n, steps, runs, seed), ctx=ctx)
    Xd, Yd = nd.array(X, dtype=X.dtype, ctx=ctx), nd.array(Y, dtype=X.dtype, ctx=ctx)
    rates_nd = nd.array(rates, dtype=X.dtype, ctx=ctx)
    w, b = parameters_like((runs, d), (runs,), X.dtype, ctx)
    sums = _Averager(runs, d)
    per_epoch = np.zeros((-(-steps // n), runs), dtype=int)  # updates in each epoch of n steps
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
                            X.dtype)
        sums.add(rates[t], theta_w, theta_b)
        idx = order_idx[t]
        moved = sgd_step(w, b, nd.take(Xd, idx), nd.take(Yd, idx), loss=loss,
                         learning_rate=rates_nd[t], clip=clip, radius=radius)
        per_epoch[t // n] += moved
        if moved.any():
            max_grad = max(max_grad, float(np.max(_norms(w.grad.asnumpy(), b.grad.asnumpy()))))
        if t + 1 in wanted:
            for key, value in zip(("w", "b", "w_bar", "b_bar"),
                                  (w.asnumpy(), b.asnumpy()) + sums.average()):
                history[key].append(_squeeze(value, runs))
            history["t"].append(t + 1)
    w_bar, b_bar = sums.average()
    for wv, bv in ((w.asnumpy(), b.asnumpy()), (w_bar, b_bar)):  # the last iterate, the average
        _guard(len(per_epoch), margins=_margins(wv, bv, X, Y), weights=(wv, bv), dtype=X.dtype)
    return SGDResult(w=_squeeze(w.asnumpy(), runs), b=_squeeze(b.asnumpy(), runs),
                     w_bar=_squeeze(w_bar, runs), b_bar=_squeeze(b_bar, runs),
                     updates=_squeeze(per_epoch.sum(axis=0), runs), max_grad_norm=max_grad,
                     max_norm=max_norm, history=history if wanted else {},
                     updates_per_epoch=per_epoch[:, 0].tolist() if runs == 1 else per_epoch,
                     converged=bool(per_epoch[-1, 0] == 0) if runs == 1 else per_epoch[-1] == 0)


def _norms(w: np.ndarray, b: np.ndarray) -> np.ndarray:
    """:math:`\\|(w, b)\\|` per row, in float64, without overflow for finite entries (inf
    only when the norm itself is beyond float64, or an entry is not finite)."""
    theta = np.hstack([np.atleast_2d(w), np.reshape(b, (-1, 1))])
    if not np.isfinite(theta).all():
        return np.full(theta.shape[0], np.inf)
    with np.errstate(over="ignore"):
        return _row_norms(theta)


def _margins(w: np.ndarray, b: np.ndarray, X: np.ndarray, Y: np.ndarray) -> np.ndarray:
    """The margins :math:`y (w^\\top x + b)` on ``(X, Y)`` of each model (one per row of ``w``,
    or one), in float64, for the overflow guard: a margin of inf would read as "correct"."""
    W, B = np.atleast_2d(w).astype(np.float64), np.reshape(b, -1).astype(np.float64)
    with np.errstate(over="ignore", invalid="ignore"):
        return Y[None, :] * (W @ X.astype(np.float64).T + B[:, None])


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
        with np.errstate(over="ignore", invalid="ignore"):  # run_sgd refuses a sum of inf
            return self.w / total[:, None], self.b / total


def _squeeze(a: np.ndarray, runs: int):
    return a[0] if runs == 1 else a
