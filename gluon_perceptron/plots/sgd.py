"""Figures of the SGD view.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import cycle

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.axes import Axes

from ..core._convert import as_features, as_labels
from ..core._validation import unchecked, validate_params
from ..core.rosenblatt.results import TrainResult
from ..experiments.sgd import ReluTrap, SGDBoundExperiment, SubgradientCheck
from ._lines import draw_boundary
from ._rules import axes_pair, plane_features, text
from .chapter import plotdata


def plot_sgd_bound_experiment(result: SGDBoundExperiment, ax=None) -> Axes:
    """Measured gap (mean over seeds, min-max band) and bound against :math:`T`, log-log."""
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
    ax.legend(fontsize=10)
    return ax


# --- figures of the subgradient, the trap and the trainers ----------------------------------

_KIND_STYLE = {"mistake": ("C3", "x"), "correct": ("C2", "+"), "tie": ("k", "o")}


@validate_params(check=unchecked, title=text)
def plot_subgradient_check(check: SubgradientCheck, ax=None, *, title: str = "") -> Axes:
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
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=10)
    return ax


def _pair(axes, figsize) -> np.ndarray:
    """The two axes to draw on: ``axes``, else a new row."""
    if axes is None:
        _, axes = plt.subplots(1, 2, figsize=figsize)
    return axes


def plot_relu_trap(trap: ReluTrap, axes=None) -> np.ndarray:
    """Left: autograd's slope at the kink for each form of :math:`\\max(0, -z)`. Right:
    :math:`\\|(w_t, b_t)\\|` along SGD from zero with :func:`~.perceptron_loss` and with
    :func:`~.relu_perceptron_loss` (which never leaves 0). ``trap`` is :func:`~.relu_trap`'s
    result."""
    axes = _pair(axes, (7.2, 3.6))
    names = list(trap.slopes)
    slopes = [trap.slopes[name] for name in names]
    axes[0].barh(range(len(names)), slopes, color=["C0" if s else "C3" for s in slopes])
    for i, slope in enumerate(slopes):
        axes[0].text(min(slope, 0.0) - 0.02, i, f"{slope:g}" if slope else "0: stuck",
                     ha="right", va="center")
        if not slope:  # a bar of length 0 is invisible: mark where it would start
            axes[0].plot([0.0], [i], "x", color="C3", ms=9, mew=2)
    axes[0].set_yticks(range(len(names)), names, fontsize=8)
    axes[0].set_xlim(-1.2, 0.1)
    axes[0].set_xlabel("autograd's d/dz at z = 0")
    axes[0].set_title("the slope at the tie depends on the operator", fontsize=10)
    for (name, norms), color in zip(trap.norms.items(), ("C0", "C3")):
        axes[1].plot(trap.t, norms, color=color, label=name)
    top = max((float(np.max(norms)) for norms in trap.norms.values()), default=1.0) or 1.0
    axes[1].set_ylim(-0.05 * top, 1.05 * top)  # a run that stays at 0 is drawn above the axis
    axes[1].set_xlabel("SGD step (eta = 1, data order, from w = 0, b = 0)")
    axes[1].set_ylabel("||(w, b)||")
    axes[1].set_title("with nd.relu, SGD never leaves zero", fontsize=10)
    axes[1].legend(fontsize=10)
    return axes


@validate_params(X=plane_features, results=unchecked, axes=axes_pair)
def plot_trainers(X, Y, results: Mapping[str, TrainResult], axes=None) -> np.ndarray:
    """Updates per epoch and final boundaries of :func:`compare_trainers`: the curves coincide.

    ``results`` maps a name to a :class:`~gluon_perceptron.TrainResult` on ``X, Y`` (2
    features); past 4 of them the line styles repeat.
    """
    X, Y = as_features(X), as_labels(Y)
    ax_pair = _pair(axes, (7.2, 4))
    styles = [("o", 11, "-"), ("s", 8, "--"), ("^", 6, "-."), ("x", 6, ":")]
    for (name, res), (marker, size, line) in zip(results.items(), cycle(styles)):
        ax_pair[0].plot(range(1, res.epochs + 1), res.updates_per_epoch, marker=marker,
                        markersize=size, linestyle=line, fillstyle="none", label=name)
        draw_boundary(ax_pair[1], res.w, res.b, 3.0, linestyle=line, label=name)
    ax_pair[0].set_xlabel("epoch")
    ax_pair[0].set_ylabel("updates in the epoch")
    ax_pair[0].legend(fontsize=10)
    plotdata(X, Y, ax=ax_pair[1])
    ax_pair[1].set_xlim(-3, 3)
    ax_pair[1].set_ylim(-3, 3)
    ax_pair[1].set_title("final boundaries (drawn on top of each other)", fontsize=10)
    ax_pair[1].legend(fontsize=10, loc="lower right")
    return ax_pair
