"""Figures of Black & White.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from ..core.rosenblatt import TrainResult
from ..core.variants import OnlineRun
from ..experiments.black_and_white import Remedies
from .chapter import plotdata

# --- figures -------------------------------------------------------------------------------

def _draw_boundary(ax, w, b, extent: float, **style) -> None:
    """Draw the line :math:`w^\\top x + b = 0` inside the square ``[-extent, extent]^2``."""
    w = np.asarray(w, dtype=np.float64)
    if not np.any(w):
        return
    s = np.linspace(-extent, extent, 2)
    if abs(w[1]) >= abs(w[0]):
        ax.plot(s, -(w[0] * s + b) / w[1], **style)
    else:
        ax.plot(-(w[1] * s + b) / w[0], s, **style)


def plot_boundaries(X, Y, weights, ax=None, *, extent: float = 3.0):
    """The data and the decision boundaries of successive :math:`(w, b)` (light to dark)."""
    if ax is None:
        _, ax = plt.subplots(figsize=(5, 5))
    plotdata(X, Y, ax=ax)
    colors = plt.cm.Greens(np.linspace(0.35, 1.0, len(weights)))
    for (w, b), color in zip(weights, colors):
        _draw_boundary(ax, w, b, extent, color=color, lw=1.2)
    ax.set_xlim(-extent, extent)
    ax.set_ylim(-extent, extent)
    return ax


def plot_nonseparable(traces: dict, axes, *, bounds: dict | None = None,
                      steps: dict | None = None) -> None:
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
    """
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
            errs, norms = np.asarray(errs), np.asarray(norms)
            t = np.arange(1, errs.size + 1) / per_pass
            where = f"after each step, first {errs.size // per_pass} passes"
        mid.plot(t, errs, color="C1", lw=0.8, drawstyle="steps-post")
        mid.set_xlabel(f"epoch ({where})")
        mid.set_ylabel("training error")
        mid.set_ylim(-0.02, 1.02)
        low.plot(t, norms, color="C0", lw=0.8, label=where)
        low.plot(t, np.maximum.accumulate(norms), color="C3", lw=1.5, label="running max")
        if bounds and name in bounds:
            low.set_title(f"theorem's bound: {bounds[name]:.3g}", fontsize=8)
        low.set_xlabel("epoch")
        low.set_ylabel("||(w, b)||")
        low.set_ylim(bottom=0)
    axes[2, 0].legend(fontsize=7, loc="lower right")


def plot_aggressive(plain: OnlineRun, aggressive: OnlineRun, axes) -> None:
    """The notes' sequence: cumulative mistakes (left) and :math:`\\|\\theta_t\\|` (right)."""
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
    left.legend(fontsize=7)
    left.set_title("notes' separable sequence: mistakes", fontsize=10)
    right.set_xlabel("t")
    right.set_ylabel("||(w, b)|| after step t")
    right.set_title("the same runs: weight norm", fontsize=10)
    right.legend(fontsize=7)


def plot_unguarded(plain: TrainResult, unguarded: TrainResult, ax=None):
    """:math:`\\|(w, b)\\|` after each pass: the plain rule levels off, the unguarded one grows."""
    if ax is None:
        _, ax = plt.subplots(figsize=(5, 4))
    ax.plot(np.arange(1, unguarded.epochs + 1), unguarded.history["norm"], color="C3",
            label="update on every example")
    ax.plot(np.arange(1, plain.epochs + 1), plain.history["norm"], color="C0",
            label="perceptron (update on a mistake)")
    ax.set_xlabel("epoch")
    ax.set_ylabel("||(w, b)|| after each pass")
    ax.set_yscale("log")
    ax.legend(fontsize=7)
    return ax


#: Line styles of :func:`plot_remedies`, per method.
_REMEDY_STYLE = {"plain": ("0.6", 0.8), "pocket": ("C2", 1.5), "averaged": ("C0", 1.5),
                 "decaying": ("C4", 0.8), "decaying + margin": ("C1", 1.5),
                 "projected": ("C3", 1.0)}


def plot_remedies(remedies: Remedies, axes) -> None:
    """Held-out error after each pass: plain vs pocket and averaged (left), vs step rules (right).

    Dashed lines: the Bayes error (the flip fraction), the generating plane's held-out error
    and the held-out error of the hinge-loss LP (:func:`hinge_separator`).
    """
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
        ax.set_xlabel("epoch")
        ax.set_ylabel("held-out error")
        ax.set_ylim(0, 0.8)
        ax.legend(fontsize=7, loc="lower left", ncol=2)
