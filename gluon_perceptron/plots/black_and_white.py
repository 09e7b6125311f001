"""Figures of Black & White.
"""

from __future__ import annotations

import matplotlib
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.axes import Axes

from ..core._convert import as_features, as_labels
from ..core._validation import count, real, unchecked, validate_params
from ..core.rosenblatt.traced import OnlineRun
from ..core.rosenblatt.training import TrainResult
from ..experiments.black_and_white import (
    REMEDY_METHODS,
    OrderEffect,
    Remedies,
    RemediesOverSeeds,
)
from ._lines import draw_boundary, label_axes
from ._rules import plane_features
from .chapter import plotdata

# --- figures -------------------------------------------------------------------------------

@validate_params(X=plane_features, weights=unchecked, flipped=unchecked, plane=unchecked,
                 extent=real(positive=True, maximum=1e300, why="the plot spans 2 extent"))
def plot_boundaries(X, Y, weights, ax=None, *, extent: float = 3.0, flipped=None,
                    plane=None) -> Axes:
    """The data and the decision boundaries of successive :math:`(w, b)` (light to dark).

    Parameters
    ----------
    X, Y : the data (2 features), labels in {-1, +1}
    weights : sequence of (w, b)
        The boundaries to draw, oldest first, e.g. ``result.history["weights"]`` of
        :func:`train_traced` with ``record=True``; ``w`` has 2 entries, ``b`` is a number.
    extent : float
        Half-width of the square drawn, > 0.
    flipped : array of bool, optional
        Points whose label was flipped, ringed in black.
    plane : (w, b), optional
        The generating plane, drawn dashed.
    """
    X, Y, extent = as_features(X), as_labels(Y), float(extent)
    if ax is None:
        _, ax = plt.subplots(figsize=(5, 5))
    plotdata(X, Y, ax=ax)
    colors = matplotlib.colormaps["Greens"](np.linspace(0.35, 1.0, len(weights)))
    for (w, b), color in zip(weights, colors):
        draw_boundary(ax, w, b, extent, color=color, lw=1.2)
    if flipped is not None:
        ax.scatter(X[flipped, 0], X[flipped, 1], s=70, facecolors="none", edgecolors="k",
                   linewidths=1.0, label="label flipped")
    if plane is not None:
        draw_boundary(ax, plane[0], plane[1], extent, color="k", ls="--", lw=1.0,
                      label="generating plane")
    if flipped is not None or plane is not None:
        ax.legend(fontsize=10, loc="lower left")
    ax.set_xlim(-extent, extent)
    ax.set_ylim(-extent, extent)
    return ax


def plot_nonseparable(traces: dict, axes=None, *, bounds: dict | None = None,
                      steps: dict | None = None) -> np.ndarray:
    """Three rows per dataset: cumulative updates, training error, :math:`\\|(w, b)\\|`.

    Parameters
    ----------
    traces : dict of str to TrainResult
        From :func:`train_traced`, one column each.
    axes : array of Axes, shape (3, len(traces))
    bounds : dict of str to float, optional
        :func:`amaldi_hauser_bound` per dataset, quoted in the norm panel.
    steps : dict of str to (ndarray, ndarray, int), optional
        Training error and :math:`\\|(w, b)\\|` after every step of the first passes (from
        :func:`run_online` on repeated passes and :func:`step_errors`), and the steps per pass;
        drawn instead of the per-pass traces for data whose snapshots after each pass hide
        the motion (XOR is back at 0 after every pass).

    Returns
    -------
    ndarray of Axes, shape (3, len(traces))
    """
    if axes is None:
        _, axes = plt.subplots(3, len(traces), figsize=(2.5 * len(traces), 8), squeeze=False)
    for col, (name, res) in enumerate(traces.items()):
        epochs = np.arange(1, res.epochs + 1)
        top, mid, low = axes[0, col], axes[1, col], axes[2, col]
        top.plot(epochs, np.cumsum(res.updates_per_epoch), color="k")
        top.set_title(name, fontsize=10)
        top.set_ylabel("cumulative updates")
        top.set_xlabel("epoch")
        norms = np.asarray(res.history["norm"])
        errs, t, where = np.asarray(res.history["error"]), epochs, "after each pass"
        if steps and name in steps:
            errs, norms, per_pass = steps[name]
            t = np.arange(1, errs.size + 1) / per_pass
            where = f"after each step, first {errs.size // per_pass} passes"
        mid.plot(t, errs, color="C1", lw=0.8, drawstyle="steps-post")
        mid.set_xlabel(f"epoch ({where})")
        mid.set_ylabel("training error")
        mid.set_ylim(-0.02, 1.02)
        low.plot(t, norms, color="C0", lw=0.8, label=where)
        low.plot(t, np.maximum.accumulate(norms), color="C3", lw=1.5, label="running max")
        if bounds and name in bounds:
            low.set_title(f"theorem's bound: {bounds[name]:.3g}", fontsize=10)
        low.set_xlabel("epoch")
        low.set_ylabel("||(w, b)||")
        low.set_ylim(bottom=0)
    axes[2, 0].legend(fontsize=10, loc="lower right")
    return axes


def plot_aggressive(plain: OnlineRun, aggressive: OnlineRun, axes=None) -> np.ndarray:
    """The notes' sequence: cumulative mistakes (left) and :math:`\\|\\theta_t\\|` (right).

    ``plain`` and ``aggressive`` are the two runs of :func:`broken_rules_experiment` (its
    ``.plain`` and ``.aggressive``), one step each per example of the same sequence.
    """
    if axes is None:
        _, axes = plt.subplots(1, 2, figsize=(7.2, 3.8))
    t = np.arange(1, plain.mistakes.size + 1)
    left, right = axes
    for run, label, color in ((plain, "perceptron (update on a mistake)", "C0"),
                              (aggressive, "aggressive (update always)", "C3")):
        left.step(t, np.cumsum(run.mistakes), where="post", color=color, label=label)
        right.plot(t, run.norms, color=color, label=label)
    powers = t[(t & (t - 1)) == 0]
    left.plot(powers, np.cumsum(aggressive.mistakes)[powers - 1], "o", ms=3, color="C3",
              label="t = 2^k")
    left.set_xscale("log", base=2)
    left.set_xlabel("t")
    left.set_ylabel("mistakes up to t")
    left.legend(fontsize=10)
    left.set_title("notes' separable sequence: mistakes", fontsize=10)
    right.set_xlabel("t")
    right.set_ylabel("||(w, b)|| after step t")
    right.set_title("the same runs: weight norm", fontsize=10)
    right.legend(fontsize=10)
    return axes


def plot_unguarded(plain: TrainResult, unguarded: TrainResult, ax=None) -> Axes:
    """:math:`\\|(w, b)\\|` after each pass: the plain rule levels off, the unguarded one grows.

    Both runs must trace :math:`\\|(w, b)\\|` after every pass (``history["norm"]``):
    ``plain`` from :func:`train_traced`, ``unguarded`` from :func:`train_aggressive` (e.g.
    ``broken_rules_experiment(X, Y).unguarded``).
    """
    if ax is None:
        _, ax = plt.subplots(figsize=(5, 4))
    ax.plot(np.arange(1, unguarded.epochs + 1), unguarded.history["norm"], color="C3",
            label="update on every example")
    ax.plot(np.arange(1, plain.epochs + 1), plain.history["norm"], color="C0",
            label="perceptron (update on a mistake)")
    return label_axes(ax, "epoch", "||(w, b)|| after each pass", log_y=True)


#: Line styles of :func:`plot_remedies`, per method.
_REMEDY_STYLE = {"plain": ("0.6", 0.8), "pocket": ("C2", 1.5), "averaged": ("C0", 1.5),
                 "decaying": ("C4", 0.8), "decaying + margin": ("C1", 1.5),
                 "projected": ("C3", 1.0)}


def plot_remedies(remedies: Remedies, axes=None) -> np.ndarray:
    """Held-out error after each pass: plain vs pocket and averaged (left), vs step rules (right).

    Dashed lines: the Bayes error (the flip fraction), the generating plane's held-out error,
    the held-out error of the hinge-loss LP (:func:`hinge_separator`) and, when known, the
    majority-label baseline (a rule that ignores :math:`x`).
    """
    if axes is None:
        _, axes = plt.subplots(1, 2, figsize=(7.2, 3.8), sharey=True)
    groups = (("plain", "pocket", "averaged"),
              ("plain", "decaying", "decaying + margin", "projected"))
    for ax, names in zip(axes, groups):
        for name in names:
            errs = remedies.errors[name]
            color, lw = _REMEDY_STYLE[name]
            label = name if name != "projected" else f"projected (radius {remedies.radius:.2f})"
            ax.plot(np.arange(1, errs.size + 1), errs, color=color, lw=lw, label=label)
        ax.axhline(remedies.flip, color="k", ls="--", lw=0.8, label="Bayes error (flip rate)")
        ax.axhline(remedies.plane_error, color="k", ls=":", lw=0.8,
                   label="generating plane, held out")
        ax.axhline(remedies.hinge_error, color="C1", ls=":", lw=0.8,
                   label="hinge-loss LP, held out")
        if np.isfinite(remedies.majority_error):
            ax.axhline(remedies.majority_error, color="C5", ls="-.", lw=0.8,
                       label="always the majority label")
        ax.set_xlabel("epoch")
        ax.set_ylabel("held-out error")
        ax.set_ylim(0, 0.8)
        ax.legend(fontsize=10, loc="upper center", bbox_to_anchor=(0.5, -0.2))
    return axes


def plot_remedies_over_seeds(result: RemediesOverSeeds, ax=None) -> Axes:
    """Each method's tail held-out error over many draws: one dot per draw, the median as a bar.

    Data order as dots; for the last-iterate methods, a fresh order every pass as crosses beside
    it. Lines: the flip rate (Bayes error) and the median majority-label baseline.
    """
    if ax is None:
        _, ax = plt.subplots(figsize=(7.2, 4))
    rng = np.random.default_rng(0)  # horizontal jitter only
    ticks, labels = [], []
    for k, name in enumerate(REMEDY_METHODS):
        color = _REMEDY_STYLE[name][0]
        columns = [(k - 0.17 if name in result.shuffled else k, result.tail[name], "o")]
        if name in result.shuffled:
            columns.append((k + 0.17, result.shuffled[name], "x"))
        for x, values, marker in columns:
            ax.scatter(x + rng.uniform(-0.06, 0.06, values.size), values, s=12, color=color,
                       marker=marker, alpha=0.8)
            ax.plot([x - 0.12, x + 0.12], [np.median(values)] * 2, color="k", lw=2)
        ticks.append(k)
        labels.append(name + ("\n(dots: data order,\ncrosses: shuffled)"
                              if name in result.shuffled else ""))
    ax.axhline(result.flip, color="k", ls="--", lw=0.8, label="Bayes error (flip rate)")
    ax.axhline(np.median(result.majority), color="C5", ls="-.", lw=0.8,
               label="always the majority label (median)")
    ax.axhline(0.5, color="0.6", ls=":", lw=0.8, label="coin flip")
    ax.set_xticks(ticks, labels, fontsize=7)
    ax.set_ylabel(f"held-out error, mean of the last {result.last} passes")
    ax.set_title(f"{result.draws} draws (bars: medians)", fontsize=10)
    ax.legend(fontsize=10, loc="upper right")
    return ax


@validate_params(effect=unchecked, passes=count())
def plot_order_effect(effect: OrderEffect, ax=None, *, passes: int = 3) -> Axes:
    """Held-out error after every step of the last ``passes`` passes of the plain run.

    Updates on flipped labels are marked: when they close a pass, the snapshot taken there (the
    end of each pass, circled) sits high above the run's error averaged over the pass.
    """
    if ax is None:
        _, ax = plt.subplots(figsize=(7.2, 3.5))
    errs = effect.step_errors[-passes:]
    updated = effect.updated[-passes:]
    n = errs.shape[1]
    t = np.arange(errs.size) / n
    ax.plot(t, errs.reshape(-1), color="0.4", lw=0.8, drawstyle="steps-post",
            label="held-out error after each step")
    flips = (updated & effect.flipped[None, :]).reshape(-1)
    ax.plot(t[flips], errs.reshape(-1)[flips], "x", color="C3", ms=5,
            label="update on a flipped label")
    ends = np.arange(1, passes + 1) * n - 1
    ax.plot(t[ends], errs.reshape(-1)[ends], "o", mfc="none", color="k", ms=9,
            label="end of a pass (what history records)")
    for p in range(passes):
        ax.plot([p, p + 1], [errs[p].mean()] * 2, color="C0", lw=1.5,
                label="mean over the pass" if p == 0 else None)
    ax.set_xlabel("pass (fraction of the way through)")
    ax.set_ylabel("held-out error")
    ax.set_ylim(0, 1)
    ax.legend(fontsize=10, loc="upper left", ncol=2)
    return ax
