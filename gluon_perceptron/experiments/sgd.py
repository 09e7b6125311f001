"""Experiments of the SGD view: subgradients against autograd, trainers compared, the SGD bound
measured.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Mapping, Sequence
from dataclasses import Field, dataclass
from typing import Any, ClassVar

import numpy as np
from mxnet import autograd, nd

from ..core._arrays import SQUARABLE, _radius
from ..core._convert import as_counts, as_features, as_labels, as_progress
from ..core._validation import (
    count,
    counts,
    fits,
    real,
    repeats,
    validate_params,
)
from ..core.gradient.autograd import train_autograd
from ..core.gradient.gluon import train_gluon
from ..core.gradient.losses import perceptron_loss, relu_perceptron_loss, threshold_loss
from ..core.gradient.sgd import run_sgd
from ..core.gradient.subgradients import (
    KINK_FORMS,
    analytic_subgradient,
    average_loss,
    kink_gradient,
)
from ..core.rosenblatt.results import TrainResult
from ..core.rosenblatt.training import error_rate, train
from ..core.theory.bounds import constant_rate_optimum, sgd_bound
from ..core.theory.separability import _signed_rows, risk_minimum
from ._progress import Progress, track


class _DictLike:
    """``result["field"]`` still works on results that used to be dicts."""

    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]  # set by @dataclass on the result

    def __getitem__(self, key: str):
        if not isinstance(key, str) or key not in self.__dataclass_fields__:
            raise KeyError(key)
        return getattr(self, key)

    def keys(self):
        return self.__dataclass_fields__.keys()


@dataclass
class SubgradientCheck(_DictLike):
    """What :func:`compare_subgradients` returns (``check["autograd"]`` still works).

    Attributes
    ----------
    autograd, closed_form : ndarray, shape (cases, d + 1)
        The gradient :math:`(g_w, g_b)` from autograd and from the closed form.
    margin : ndarray, shape (cases,)
    kind : ndarray of str, shape (cases,)
        ``"mistake"``, ``"correct"`` or ``"tie"``.
    """

    autograd: np.ndarray
    closed_form: np.ndarray
    margin: np.ndarray
    kind: np.ndarray

    @property
    def largest_difference(self) -> float:
        """Largest absolute difference between the two gradients, over every entry."""
        return float(np.abs(self.autograd - self.closed_form).max())


def _tie_bias(w: np.ndarray, x: np.ndarray, y: float, threshold: float) -> float:
    """The bias putting ``(x, y)`` exactly on the kink, :math:`y (w^\\top x + b) = \\delta`
    (exact in float32 for the small integers used)."""
    return threshold * y - float(w @ x)


#: :func:`threshold_loss` without its checking: the loss the package hands :func:`run_sgd`
#: itself, called at every step (the wrapper would check its arguments there each time).
_threshold_loss = inspect.unwrap(threshold_loss)

#: Most cases :func:`compare_subgradients` takes: each is one autograd call of a few
#: milliseconds, so 10,000 are already about a minute.
MAX_SUBGRADIENT_CASES = 10_000


@validate_params(cases=count(maximum=MAX_SUBGRADIENT_CASES),
                 dimensions=fits(count(), lambda d, args: args["cases"] * (d + 1), "the gradients "
                                 "(cases={cases:,} x (dimensions={value:,} + 1))", ("cases",)),
                 threshold=real(minimum=0.0, maximum=1e38, why="the margins reach 2 threshold"))
def compare_subgradients(cases: int = 300, *, dimensions: int = 3, threshold: float = 0.0,
                         seed: int = 0, progress: Progress | None = None) -> SubgradientCheck:
    """Autograd's gradient of :func:`threshold_loss` next to :func:`analytic_subgradient`.

    Draws ``cases`` random one-example problems ``(w, b, x, y)`` with small integer entries (so
    float32 arithmetic is exact); a third of them are moved exactly onto the kink
    :math:`y f(x) = \\delta`. Each gradient is the vector :math:`(g_w, g_b)`.

    Returns
    -------
    SubgradientCheck

    Raises
    ------
    ValueError
        For a bad argument, or a ``threshold`` too large for the float32 arithmetic (MXNet's
        default) the gradients are computed in.
    """
    threshold, progress = float(threshold), as_progress(progress)
    rng = np.random.default_rng(seed)
    out: dict[str, list] = {"autograd": [], "closed_form": [], "margin": [], "kind": []}
    for k in track(range(cases), progress, desc="subgradients"):
        w, x = rng.integers(-3, 4, size=(2, dimensions)).astype(np.float64)
        y = float(rng.choice([-1.0, 1.0]))
        b = _tie_bias(w, x, y, threshold) if k % 3 == 0 else float(rng.integers(-3, 4))
        wd, bd = nd.array(w), nd.array([b])
        wd.attach_grad()
        bd.attach_grad()
        with autograd.record():
            loss = threshold_loss(wd, bd, nd.array(x), y, threshold)
        loss.backward()
        gw, gb = analytic_subgradient(w, [b], x, y, threshold=threshold)
        margin = y * (w @ x + b)
        out["autograd"].append(np.append(wd.grad.asnumpy(), bd.grad.asnumpy()))
        out["closed_form"].append(np.append(gw, gb))
        out["margin"].append(margin)
        out["kind"].append("tie" if margin == threshold else
                           "mistake" if margin < threshold else "correct")
    return SubgradientCheck(**{key: np.array(value) for key, value in out.items()})


@validate_params(flip=real(minimum=0.0, maximum=0.5, why="the fraction reversed"),
                 samples=fits(count(minimum=2), lambda n, a: 2 * n, "samples={value:,} points x 2"))
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
    flip = float(flip)
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


@validate_params(threshold=real(minimum=0.0, maximum=SQUARABLE, why="it enters the bound squared"),
                 horizons=counts(), seeds=fits(repeats(), lambda k, a: max(a["horizons"]) * (len(
                     set(a["horizons"])) + 1) * k, "the step table (max(horizons) steps x (len("
                     "horizons) + 1) x seeds={value:,} runs)", ("horizons",)))
def sgd_bound_experiment(X, Y, *,
                         horizons: Sequence[int] | np.ndarray = (10, 30, 100, 300, 1000),
                         seeds: int = 20, seed: int = 0, threshold: float = 1.0,
                         progress: Progress | None = None) -> SGDBoundExperiment:
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
    Xn, Yn, horizons = as_features(X), as_labels(Y, like=as_features(X)), as_counts(horizons)
    horizons, threshold, progress = np.unique(horizons), float(threshold), as_progress(progress)
    w_star, b_star, risk_min = risk_minimum(Xn, Yn, threshold=threshold)
    radius = float(np.hypot(np.linalg.norm(w_star), b_star))
    if radius == 0.0:
        raise ValueError("the minimizer is theta* = 0 (for example the perceptron loss, "
                         "threshold=0): the bound is trivial there, use threshold > 0")
    lipschitz = _radius(_signed_rows(Xn, Yn, bias=True))  # max ||(x, 1)||
    k, steps = horizons.size, int(horizons[-1])
    constant = np.repeat([constant_rate_optimum(radius, lipschitz, int(T))[0]
                          for T in horizons], seeds)
    stop = np.repeat(horizons, seeds)
    eta0 = radius / lipschitz

    def rates(t: int) -> np.ndarray:
        return np.concatenate([np.where(t <= stop, constant, 0.0),
                               np.full(seeds, eta0 / np.sqrt(t))])

    result = run_sgd(Xn, Yn, steps=steps,
                     loss=functools.partial(_threshold_loss, threshold=threshold),
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


@dataclass
class TrainerComparison(Mapping):
    """What :func:`compare_trainers` returns: a mapping name -> :class:`TrainResult`, as the
    dict it replaced, with :attr:`identical` computed once."""

    results: dict

    def __getitem__(self, name: str) -> TrainResult:
        return self.results[name]

    def __iter__(self):
        return iter(self.results)

    def __len__(self) -> int:
        return len(self.results)

    @property
    def reference(self) -> TrainResult:
        """The chapter's own engine, ``train(..., engine="faithful")``."""
        return self.results["train (faithful)"]

    @property
    def identical(self) -> bool:
        """Same weights, bias and updates in every pass, for every trainer."""
        ref = self.reference
        return all(np.array_equal(r.w, ref.w) and r.b == ref.b
                   and r.updates_per_epoch == ref.updates_per_epoch
                   for r in self.results.values())


@validate_params()
def compare_trainers(X, Y, *, max_epochs: int,
                     progress: Progress | None = None) -> TrainerComparison:
    """The same data through :func:`~.train` (both engines), :func:`train_autograd` and
    :func:`~.train_gluon`, all with :math:`\\eta = 1`.

    ``progress``: a tqdm-like wrapper for the loop over the four trainers.
    """
    X, Y, progress = as_features(X), as_labels(Y, like=as_features(X)), as_progress(progress)
    trainers = {
        "train (faithful)": lambda: train(X, Y, max_epochs=max_epochs, engine="faithful"),
        "train (fast)": lambda: train(X, Y, max_epochs=max_epochs, engine="fast"),
        "train_autograd": lambda: train_autograd(X, Y, max_epochs=max_epochs),
        "train_gluon": lambda: train_gluon(X, Y, max_epochs=max_epochs)}
    return TrainerComparison({name: trainers[name]()
                              for name in track(list(trainers), progress, desc="trainers")})


@dataclass
class ReluTrap:
    """What :func:`relu_trap` returns: the slope at the kink and SGD from zero, per form.

    Attributes
    ----------
    slopes : dict of str to float
        Autograd's slope at :math:`z = 0` for each of :data:`~.KINK_FORMS`.
    t : ndarray
        SGD steps ``1 .. steps``.
    norms : dict of str to ndarray
        :math:`\\|(w_t, b_t)\\|` after each step, for ``perceptron_loss`` and
        ``relu_perceptron_loss`` (cyclic order, :math:`\\eta = 1`, from zero).
    trap, right : TrainResult
        ``train_autograd`` with ``relu_perceptron_loss`` and with ``perceptron_loss``.
    trap_error, right_error : float
        Their training errors.
    """

    slopes: dict
    t: np.ndarray
    norms: dict
    trap: TrainResult
    right: TrainResult
    trap_error: float
    right_error: float


@validate_params(steps=fits(count(), lambda steps, args: steps * (args["X"].shape[1] + 1),
                            "the recorded path (steps={value:,} x (dimensions + 1))", ("X",)))
def relu_trap(X, Y, *, steps: int = 60, max_epochs: int = 5) -> ReluTrap:
    """The trap at the tie: autograd's slope per form of :math:`\\max(0, -z)`, SGD from zero
    with the scalar-maximum loss and with the ``nd.relu`` loss, and ``train_autograd`` with
    both."""
    Xn, Yn = as_features(X), as_labels(Y, like=as_features(X))
    slopes = {name: kink_gradient(name) for name in KINK_FORMS}
    norms = {}
    for loss, name in ((perceptron_loss, "perceptron_loss (nd.maximum(-z, 0))"),
                       (relu_perceptron_loss, "relu_perceptron_loss (nd.relu(-z))")):
        run = run_sgd(Xn, Yn, steps=steps, loss=loss, order="cyclic",
                      record_at=range(1, steps + 1))
        norms[name] = np.array([np.hypot(np.linalg.norm(w), b) for w, b in
                                zip(run.history["w"], run.history["b"])])
    trap = train_autograd(Xn, Yn, max_epochs=max_epochs, loss=relu_perceptron_loss)
    right = train_autograd(Xn, Yn, max_epochs=max_epochs)
    return ReluTrap(slopes, np.arange(1, steps + 1), norms, trap, right,
                    error_rate(trap.w, trap.b, Xn, Yn), error_rate(right.w, right.b, Xn, Yn))
