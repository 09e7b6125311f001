"""Figures of Black & White.
"""

from __future__ import annotations

import matplotlib
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.axes import Axes

from ..core import _checks
from ..core._validation import Rule, count, optional, real, validate_params
from ..core.rosenblatt.traced import OnlineRun
from ..core.rosenblatt.training import TrainResult
from ..experiments.black_and_white import (
    REMEDY_METHODS,
    OrderEffect,
    Remedies,
    RemediesOverSeeds,
)
from ._lines import draw_boundary, label_axes
from ._rules import ax_rule, axes_grid, plane_features, plane_labels, result
from .chapter import plotdata

# --- checks -------------------------------------------------------------------------------

def _traces(traces, name: str = "traces", args=None) -> dict:
    """``traces``, a non-empty dict of name -> :func:`train_traced` result, checked."""
    if not isinstance(traces, dict) or not traces:
        raise ValueError(f"{name} must be a non-empty dict of name -> train_traced(X, Y, ...) "
                         f"result, got {traces!r:.60}")
    for key, res in traces.items():
        _checks.instance(res, TrainResult, f"{name}[{key!r}]",
                         "from train_traced(X, Y, max_epochs=...)")
        if any(len(res.history.get(k, ())) != res.epochs for k in ("error", "norm")):
            raise ValueError(f"{name}[{key!r}] has no history['error'] and history['norm'] "
                             f"per pass: pass results of train_traced(X, Y, max_epochs=...), "
                             f"which trace every pass (train does not)")
    return traces


def _steps(steps, name: str = "steps", args=None) -> dict:
    """``steps``, a dict of name -> (errors, norms, steps per pass), checked."""
    wanted = (f"{name} must be None or a dict of name -> (errors, norms, steps per pass): two "
              f"equal-length sequences of finite numbers and a count")
    if not isinstance(steps, dict):
        raise ValueError(f"{wanted}, got {steps!r:.60}")
    out = {}
    for key, item in steps.items():
        if isinstance(item, (str, bytes)) or not hasattr(item, "__len__") or len(item) != 3:
            raise ValueError(f"{wanted}, but {name}[{key!r}] is {item!r:.60}")
        errs = _checks.finite_values(item[0], f"{name}[{key!r}][0] (errors)")
        norms = _checks.finite_values(item[1], f"{name}[{key!r}][1] (norms)")
        per_pass = _checks.positive_int(item[2], f"{name}[{key!r}][2] (steps per pass)")
        if errs.size != norms.size:
            raise ValueError(f"{name}[{key!r}] holds {errs.size} errors but {norms.size} "
                             f"norms; pass one of each per step")
        out[key] = (errs, norms, per_pass)
    return out


def _bounds(bounds, name, args) -> dict | None:
    if bounds is None:
        return None
    if not isinstance(bounds, dict):
        raise ValueError(f"{name} must be None or a dict of name -> bound (a number), got "
                         f"{bounds!r:.60}")
    return {k: _checks.finite_float(v, f"{name}[{k!r}]", minimum=0.0) for k, v in bounds.items()}


def _weights(weights, name, args) -> list:
    return _checks.weight_pairs(weights, name, args["X"].shape[1])


def _flipped(flipped, name, args):
    if flipped is None:
        return None
    mask = _checks.to_numpy(flipped, name).reshape(-1)
    if mask.dtype != bool:
        raise TypeError(f"{name} must be an array of bool (True = label flipped), got "
                        f"dtype {mask.dtype}")
    n = args["X"].shape[0]
    if mask.size != n:
        raise ValueError(f"{name} must have one entry per point ({n}), got {mask.size}")
    return mask


def _plane(plane, name, args):
    if plane is None:
        return None
    (w, b), = _checks.weight_pairs([plane], name, args["X"].shape[1])
    return w, b


def _same_sequence(aggressive, name, args):
    """``aggressive``: an OnlineRun over the same steps as ``plain``."""
    _checks.instance(aggressive, OnlineRun, name,
                     "from run_online(X, Y, rule='aggressive'), e.g. "
                     "broken_rules_experiment(X, Y).aggressive")
    plain = args["plain"]
    steps = plain.mistakes.size
    if steps == 0:
        raise ValueError("plain has no steps; pass a run over at least one example")
    for key, run in (("plain", plain), (name, aggressive)):
        if run.mistakes.shape != (steps,) or run.norms.shape != (steps,):
            raise ValueError(f"plain and aggressive must be runs over the same sequence, one "
                             f"step per example: plain has {steps} steps, {key} has "
                             f"{run.mistakes.size} mistakes and {run.norms.size} norms")
    return aggressive


_NORM_HINTS = {"plain": "from train_traced(X, Y, max_epochs=...)",
               "unguarded": "from train_aggressive(X, Y, max_epochs=...)"}


def _norm_traced(run, name, args):
    """A TrainResult with ``history["norm"]`` after every pass."""
    _checks.instance(run, TrainResult, name, _NORM_HINTS[name])
    norms = run.history.get("norm") if isinstance(run.history, dict) else None
    if norms is None or len(norms) != run.epochs or run.epochs == 0:
        raise ValueError(f"{name} has no history['norm'] per pass: pass a result "
                         f"{_NORM_HINTS[name]}, which traces every pass (train does not)")
    return run


_NORM_TRACED = Rule(_norm_traced, "a TrainResult with history['norm'] per pass")
_PAIR = axes_grid((2,))


# --- figures -------------------------------------------------------------------------------

@validate_params(X=plane_features(), Y=plane_labels,
                 weights=Rule(_weights, "(w, b) pairs for X", ("X",)), ax=ax_rule,
                 extent=real(positive=True), flipped=Rule(_flipped, "bool per point", ("X",)),
                 plane=Rule(_plane, "None or (w, b) for X", ("X",)))
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


@validate_params(traces=Rule(_traces, "dict of name -> train_traced result"),
                 axes=axes_grid(lambda args: (3, len(args["traces"])), ("traces",)),
                 bounds=Rule(_bounds, "None or dict of name -> bound"),
                 steps=optional(Rule(_steps, "dict of name -> (errors, norms, per pass)")))
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


@validate_params(plain=result(OnlineRun, "from run_online(X, Y), e.g. "
                                        "broken_rules_experiment(X, Y).plain"),
                 aggressive=Rule(_same_sequence, "an OnlineRun as long as plain", ("plain",)),
                 axes=_PAIR)
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


@validate_params(plain=_NORM_TRACED, unguarded=_NORM_TRACED, ax=ax_rule)
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


@validate_params(remedies=result(Remedies, "the result of remedies_experiment()"), axes=_PAIR)
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


@validate_params(result=result(RemediesOverSeeds, "the result of remedies_over_seeds()"),
                 ax=ax_rule)
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


@validate_params(effect=result(OrderEffect, "the result of order_effect(remedies)"), ax=ax_rule,
                 passes=count())
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
