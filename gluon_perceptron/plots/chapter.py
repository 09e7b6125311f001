"""The chapter's figures: plotdata, plotscore, the loss, one update, the margin experiment.
"""

from __future__ import annotations

import math

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.axes import Axes
from mxnet import nd

from ..core import _checks
from ..core._arrays import FLOAT32_MAX
from ..core._convert import as_features, as_labels, as_scalar, as_vector
from ..core._validation import Rule, real, scalar, such_that, unchecked, validate_params, vector
from ..experiments.chapter import FaithfulExperiment, MarginExperiment, Update
from ._rules import plane_features

POSITIVE_COLOR = "r"
NEGATIVE_COLOR = "b"
#: Most grid points per side :func:`plotscore` will draw (a guard against a tiny ``step``): more
#: than a figure has pixels; the score on 1000 x 1000 points peaks at about 100 MB (4000, the
#: old guard, at well over 1 GB, and ``extent=28`` already took 730 MB).
MAX_GRID = 1000

# --- rules ------------------------------------------------------------------------------------


#: ``w``: 2 numbers, each in float32's range (the grid is scored in float32 by nd.dot).
_SCORE_W = such_that(vector(), lambda w, args: w.size == 2 and np.abs(w).max() <= FLOAT32_MAX,
                     "{name} must be 2 numbers that fit MXNet's float32 (|w| below 3.4e38) to "
                     "plot a 2-D score, got {value!r:.60}")


def _score_extent(value, name, args):
    """``extent`` > 0 such that the grid and the score on it fit float32."""
    extent, w, d = _checks.finite_float(value, name, strictly_positive=True), args["w"], args["d"]
    if extent > FLOAT32_MAX:
        raise ValueError(f"{name} must fit MXNet's float32 (below 3.4e38): the grid is scored "
                         f"in float32, got {name}={extent:g}; use a smaller {name}")
    if np.abs(w.astype(np.float64)).sum() * extent + abs(d) > FLOAT32_MAX:
        raise ValueError(f"the score w.x + d overflowed MXNet's float32 on the grid: "
                         f"w={w.tolist()}, d={d:g}, extent={extent:g}; rescale w and d")
    return extent


def _score_step(value, name, args):
    """``step`` > 0 giving 2 .. MAX_GRID grid points per side."""
    step, extent = _checks.finite_float(value, name, strictly_positive=True), args["extent"]
    if extent / step > MAX_GRID // 2:
        raise ValueError(f"step={step} is too fine for extent={extent}: the grid would have "
                         f"{2 * extent / step:.0f} points per side; use step >= "
                         f"{2 * extent / MAX_GRID:g}")
    if step > extent:
        raise ValueError(f"step={step} is too coarse for extent={extent}: the grid would have "
                         f"a single point per side, no contour; use step <= extent")
    return step


@validate_params(X=plane_features, update=unchecked)
def plot_update(X, Y, update: Update, ax=None) -> Axes:
    """Score contours after ``update``, the data, and the offending point ringed in green."""
    X, Y = as_features(X), as_labels(Y)
    w = np.asarray(update.w, dtype=np.float32).reshape(-1)
    ax = plotscore(w, float(update.b), ax=ax, extent=3.0, step=0.02)
    plotdata(X, Y, ax=ax)
    ax.scatter([update.x[0]], [update.x[1]], s=160, facecolors="none", edgecolors="g",
               linewidths=2.5, label="update on this point")
    ax.legend(fontsize=10, loc="best")
    ax.set_title(f"after update on example {update.index}: "
                 f"w = [{update.w[0]:.2f}, {update.w[1]:.2f}], b = {update.b:g}", fontsize=10)
    return ax


def plot_margin_experiment(result: MarginExperiment, ax=None, *, faithful=None) -> Axes:
    """Updates against the margin: mean and spread, the bounds, and the faithful curve."""
    if ax is None:
        _, ax = plt.subplots(figsize=(7, 4.5))
    eps = result.epsilons
    mean = result.updates.mean(axis=0)
    ax.fill_between(eps, result.updates.min(axis=0), result.updates.max(axis=0), alpha=0.2,
                    label="corrected: min-max over trials")
    ax.plot(eps, mean, "o-", label="corrected: mean updates to convergence")
    ax.plot(eps, np.median(result.bound, axis=0), "--",
            label="bound (R^2+1)(1+b*^2)/gamma^2, median over trials")
    ax.plot(eps, np.median(result.chapter_bound, axis=0), ":",
            label="chapter's bound 2(R^2+1)/eps^2 (needs b*^2 <= 1)")
    if faithful is not None:
        if isinstance(faithful, FaithfulExperiment):
            eps_f, updates_f = faithful.epsilons, faithful.updates
            sizes = f" ({faithful.trials} x {faithful.samples} points)"
        else:
            (eps_f, updates_f), sizes = faithful, ""
        ax.plot(eps_f, updates_f, "s-", color="gray",
                label=f"faithful{sizes}: one warm-started pass, never reset")
    ax.set_yscale("log")
    ax.set_xlabel("margin epsilon")
    ax.set_ylabel("number of updates")
    ax.legend(fontsize=10)
    return ax


def _axes(ax):
    if ax is None:
        _, ax = plt.subplots(figsize=(5, 5))
    return ax


def plot_faithful_experiment(result: FaithfulExperiment, ax=None) -> Axes:
    """The chapter's own curve: mean updates of one warm-started pass against the margin."""
    if ax is None:
        _, ax = plt.subplots(figsize=(7, 4.5))
    ax.plot(result.epsilons, result.updates, "s-", color="gray",
            label="average number of updates for training (one pass, never reset)")
    ax.set_xlabel("margin epsilon")
    ax.set_ylabel("number of updates")
    start = "the demo's weights" if result.warm_start else "w = 0, b = 0"
    ax.set_title(f"the chapter's experiment as written: {result.trials} trials x "
                 f"{result.samples} points, starting from {start}", fontsize=10)
    ax.legend(fontsize=10)
    return ax


@validate_params(X=plane_features)
def plotdata(X, Y, ax=None) -> Axes:
    """Scatter the first two coordinates of ``X``: red for ``y = +1``, blue for ``y = -1``.

    The chapter's loop ``for (x, y) in zip(X, Y)`` scatters one point at a time, red if
    ``y == 1`` and (in an ``else:`` the extraction lost) blue otherwise. Here the same two
    colours are drawn with one ``scatter`` per colour.

    Parameters
    ----------
    X : NDArray or array-like, shape (n, d >= 2)
    Y : NDArray or array-like, shape (n,), labels in {-1, +1}
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib Axes
    """
    X, Y = as_features(X), as_labels(Y)
    ax = _axes(ax)
    pos = Y == 1
    # the chapter: if y == 1: scatter(x, color='r') else: scatter(x, color='b')
    ax.scatter(X[pos, 0], X[pos, 1], color=POSITIVE_COLOR, s=14, label="y = +1")
    ax.scatter(X[~pos, 0], X[~pos, 1], color=NEGATIVE_COLOR, s=14, label="y = -1")
    ax.set_xlabel("$x_1$")
    ax.set_ylabel("$x_2$")
    ax.legend(fontsize=10, loc="best")
    return ax


@validate_params(w=_SCORE_W, d=scalar(),
                 extent=Rule(_score_extent, "extent > 0, the score in float32", ("w", "d")),
                 step=Rule(_score_step, "step giving 2 .. MAX_GRID points", ("extent",)))
def plotscore(w, d, ax=None, *, extent: float = 3.0, step: float = 0.02) -> Axes:
    """Contours of the score :math:`f(x) = w^\\top x + d` on the square ``[-3, 3]^2``.

    As in the chapter, the grid is stacked into an NDArray of shape ``(n, n, 2)`` and scored
    with ``nd.dot(grid, w) + d``; the contours are labelled with their values. The zero
    contour is the decision boundary.

    Parameters
    ----------
    w : NDArray or array-like, shape (2,)
    d : NDArray, array-like or float
        The bias.
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib Axes
    """
    w, d, extent, step = as_vector(w).astype(np.float32), as_scalar(d), float(extent), float(step)
    ax = _axes(ax)
    xgrid = np.arange(-extent, extent, step)
    ygrid = np.arange(-extent, extent, step)
    xx, yy = np.meshgrid(xgrid, ygrid)
    zz = nd.zeros(shape=(ygrid.size, xgrid.size, 2))
    zz[:, :, 0] = nd.array(xx)
    zz[:, :, 1] = nd.array(yy)
    vv = (nd.dot(zz, nd.array(w)) + d).asnumpy()
    if np.ptp(vv) == 0:
        ax.text(0, 0, f"f(x) = {d:g} everywhere", ha="center")
        return ax
    CS = ax.contour(xgrid, ygrid, vv, levels=9, cmap="coolwarm", linewidths=0.8)
    ax.clabel(CS, inline=True, fontsize=8)
    if vv.min() < 0 < vv.max():  # ours: the decision boundary f(x) = 0, drawn bold
        ax.contour(xgrid, ygrid, vv, levels=[0.0], colors="k", linewidths=2)
    ax.set_xlim(-extent, extent)
    ax.set_ylim(-extent, extent)
    return ax


@validate_params(lo=real(), hi=such_that(  # the axes widen the range by 20 %
    real(), lambda hi, args: args["lo"] < hi and math.isfinite(1.2 * (hi - args["lo"])),
    "need lo < hi, a range of scores that float64 holds once the axes add their margins (such as "
    "lo=-5, hi=5), got lo={args[lo]:g}, hi={value:g}", ("lo",)))
def plot_losses(ax=None, *, lo: float = -5.0, hi: float = 5.0) -> Axes:
    """The two hinge-like losses :math:`\\max(0, f)` and :math:`\\max(0, -f)`, as in the chapter.

    The perceptron loss for a positive example is :math:`\\max(0, -f(x))`, for a negative one
    :math:`\\max(0, f(x))`. Both are drawn exactly over the scores ``lo .. hi``: each is
    linear on either side of 0.
    """
    lo, hi = float(lo), float(hi)
    ax = _axes(ax)
    f = np.array([lo, 0.0, hi]) if lo < 0.0 < hi else np.array([lo, hi])
    ax.plot(f, np.maximum(f, 0), label="max(0, f(x))")
    ax.plot(f, np.maximum(-f, 0), label="max(0, -f(x))")
    ax.set_xlabel("f(x)")
    ax.set_ylabel("loss")
    ax.legend()
    return ax
