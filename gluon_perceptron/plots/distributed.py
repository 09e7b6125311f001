"""Figures of the perceptron on many machines: the mixing bound, passes against workers, noise.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from ..experiments.distributed import (
    LatencyModel,
    MixingBoundExperiment,
    MixingSpeedup,
    NonseparableMixing,
)


def plot_mixing_bound(exp: MixingBoundExperiment, ax=None) -> plt.Axes:
    r"""Measured :math:`\sum_n\sum_i \mu_{i,n} k_{i,n}` against the bound :math:`R^2/\gamma^2`,
    one marker per run (colour: workers, shape: mixing), on log-log axes with the line
    measured = bound (every point lies below it)."""
    if ax is None:
        _, ax = plt.subplots(figsize=(5.5, 4.2))
    markers = {"uniform": "o", "weighted": "^"}
    for w in sorted(set(exp.workers.tolist())):
        for m, marker in markers.items():
            sel = (exp.workers == w) & (exp.mixing == m)
            if sel.any():
                ax.loglog(exp.bound[sel], exp.mixed_mistakes[sel], marker, ms=5, alpha=0.8,
                          color=f"C{int(np.log2(w)) if w & (w - 1) == 0 else w}",
                          label=f"W={w}, {m}")
    lo, hi = exp.bound.min() / 2, exp.bound.max() * 2
    ax.loglog([lo, hi], [lo, hi], "k--", lw=1, label="bound R²/γ²")
    ax.set_xlabel("R²/γ² (optimal margin of (w, b))")
    ax.set_ylabel("Σ μ k measured")
    ax.legend(fontsize=10, ncol=2)
    return ax


def plot_mixing_speedup(speedup: MixingSpeedup, axes=None) -> np.ndarray:
    """Left: passes to separate against the workers, one line per mixing, ``train`` as a
    dashed line. Right: wall time split into start-up, local passes and exchanges."""
    if axes is None:
        _, axes = plt.subplots(1, 2, figsize=(7.2, 3.6))
    ax = axes[0]
    for kind in ("uniform", "weighted"):
        rows = [i for i, m in enumerate(speedup.method) if m.startswith(kind)]
        if rows:
            ax.plot([speedup.workers[i] for i in rows], [speedup.passes[i] for i in rows],
                    "o-", label=f"mixing, {kind}")
    ax.axhline(speedup.passes[0], color="k", ls="--", lw=1, label="one perceptron (train)")
    ax.set_xlabel("workers W")
    ax.set_ylabel("passes (rounds) to separate")
    ax.legend(fontsize=10)
    ax = axes[1]
    x = np.arange(len(speedup.method))
    bottom = np.zeros(len(x))
    absent = []
    for k, (name, values) in enumerate((("start-up", speedup.startup_seconds),
                                        ("local passes (slowest worker)", speedup.pass_seconds),
                                        ("exchanges", speedup.exchange_seconds))):
        seconds = np.asarray(values, dtype=np.float64)
        if not np.any(seconds):  # e.g. in-process runs: no start-up, no exchange to time
            absent.append(name)
            continue
        ax.bar(x, seconds, bottom=bottom, color=f"C{k}", label=name)
        bottom += seconds
    if absent:
        ax.set_title(f"not measured in these runs (0 s): {', '.join(absent)}", fontsize=10)
    ax.set_xticks(x, speedup.method, rotation=45, ha="right", fontsize=7)
    ax.set_ylabel("seconds")
    ax.legend(fontsize=10)
    return axes


def plot_nonseparable_mixing(exp: NonseparableMixing, ax=None) -> plt.Axes:
    """Training error of the mixed weights round by round, one line per worker count, with
    the fraction of flipped labels (what the generating plane gets wrong) as a dashed line."""
    if ax is None:
        _, ax = plt.subplots(figsize=(6, 4))
    rounds = np.arange(1, exp.error.shape[1] + 1)
    for w, err in zip(exp.workers, exp.error):
        ax.plot(rounds, err, lw=1.2, label=f"W={w}")
    ax.axhline(exp.flipped, color="k", ls="--", lw=1, label="labels flipped")
    ax.set_xlabel("round")
    ax.set_ylabel("training error of the mixed weights")
    ax.set_title(f"{exp.mixing} mixing on non-separable data", fontsize=10)
    ax.legend(fontsize=10)
    return ax


def plot_mixing_latency(model: LatencyModel, ax=None) -> plt.Axes:
    """The modelled speed-up of mixing against the network round trip (ms), one curve per
    one-machine pass time, log scale; the line at 1 is where mixing stops paying, and each
    curve's break-even round trip is marked."""
    if ax is None:
        _, ax = plt.subplots(figsize=(7, 4))
    ms = 1e3 * model.round_trips
    for k, (P, gain, tau) in enumerate(zip(model.pass_seconds, model.speedup,
                                            model.break_even)):
        ax.plot(ms, gain, color=f"C{k}", label=f"a pass takes {1e3 * P:g} ms")
        if np.isfinite(tau) and tau <= model.round_trips[-1]:
            ax.plot([1e3 * tau], [1.0], "o", color=f"C{k}")
    ax.axhline(1.0, color="k", ls="--", lw=1, label="as fast as one machine")
    ax.set_yscale("log")
    ax.set_xlabel("network round trip (ms)")
    ax.set_ylabel(f"speed-up of W = {model.workers} over one machine")
    ax.legend(fontsize=10)
    return ax
