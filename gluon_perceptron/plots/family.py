"""Figures of "The perceptron's family": passive-aggressive mistakes against their bounds,
ALMA's margin against the optimal one, and the held-out error of the last, averaged and voted
predictors.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.axes import Axes

from ..experiments.family import AlmaMargins, HeldoutPredictors, PABounds


def plot_pa_bounds(result: PABounds, ax=None) -> Axes:
    """Each draw's mistakes against its bound, one colour per variant, log-log, with the
    diagonal "mistakes = bound": every dot must lie below it."""
    ax = ax if ax is not None else plt.subplots(figsize=(5, 4.5))[1]
    low, high = np.inf, 0.0
    for (variant, mistakes), color in zip(result.mistakes.items(), ("C0", "C1", "C2")):
        bound = result.bounds[variant]
        shown = np.maximum(mistakes, 0.5)  # a draw without a mistake, drawn at 1/2
        ax.scatter(bound, shown, s=14, color=color, label=variant)
        low, high = min(low, shown.min(), bound.min()), max(high, bound.max())
    ax.plot([low, high], [low, high], "k--", lw=0.8, label="mistakes = bound")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("the theorem's bound")
    ax.set_ylabel("mistakes (0 drawn at 1/2)")
    ax.set_title(f"PA on separable streams, PA-I and PA-II\nwith {result.flip:.0%} labels "
                 f"flipped (C = {result.C:g})", fontsize=10)
    ax.legend(fontsize=10)
    return ax


def plot_alma_margins(result: AlmaMargins, ax=None) -> Axes:
    """The margin ALMA reached as a fraction of the optimal one, per draw, with the paper's
    guarantee :math:`1 - \\alpha` as a line."""
    ax = ax if ax is not None else plt.subplots(figsize=(5, 3.5))[1]
    order = np.argsort(result.fraction)
    ax.plot(np.arange(1, order.size + 1), result.fraction[order], "o", ms=4,
            label="ALMA's margin / optimal margin")
    ax.axhline(1 - result.alpha, color="C3", ls="--", lw=0.8,
               label=f"guaranteed: 1 - alpha = {1 - result.alpha:g}")
    ax.axhline(1.0, color="k", lw=0.6)
    ax.set_ylim(0, 1.05)
    ax.set_xlabel("draw (sorted)")
    ax.set_ylabel("fraction of the optimal margin")
    ax.legend(fontsize=10, loc="lower right")
    return ax


def plot_heldout_predictors(result: HeldoutPredictors, ax=None) -> Axes:
    """Held-out error of the last, averaged and voted predictors, one line per draw."""
    ax = ax if ax is not None else plt.subplots(figsize=(5, 3.5))[1]
    errors = np.column_stack([result.last, result.averaged, result.voted])
    ax.plot([0, 1, 2], errors.T, color="0.7", lw=0.6)
    ax.plot([0, 1, 2], np.median(errors, axis=0), "ko-", label="median")
    ax.set_xticks([0, 1, 2], ["last", "averaged", "voted"])
    ax.set_ylabel("held-out error")
    ax.set_title(f"{result.epochs} passes,\n{result.flip:.0%} of the training labels flipped",
                 fontsize=10)
    ax.legend(fontsize=10)
    return ax
