"""Figures of the convergence theorem.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from ..core._convert import as_values
from ..core._validation import finite_values, unchecked, validate_params
from ..experiments.convergence import BoundExperiment, ProofTrace
from ._lines import label_axes

# --- figures ------------------------------------------------------------------------------------

def plot_proof_trace(trace: ProofTrace, axes=None) -> np.ndarray:
    """The two halves of the proof along one run, and the squeeze that ends it.

    Left: :math:`u^\\top\\theta_t` above its lower bound :math:`u^\\top\\theta_0 + ts`
    (Part 1). Right, on log-log axes: :math:`\\|\\theta_t\\|^2` below Part 2's
    :math:`\\|\\theta_0\\|^2 + t(2\\delta + R_a^2)` (slope 1) and above what Part 1 implies by
    Cauchy-Schwarz, :math:`((u^\\top\\theta_0 + ts)_+/\\|u\\|)^2` (slope 2). The two lines
    cross at ``trace.bound``: no run can get past it.
    """
    if axes is None:
        _, axes = plt.subplots(1, 2, figsize=(7.2, 3.6))
    t = np.arange(trace.progress.size)
    ax = axes[0]
    ax.plot(t, trace.progress, "o-", ms=3, label="u . theta_t (measured)")
    ax.plot(t, trace.lower, "--", label="lower bound u . theta_0 + t s (Part 1)")
    ax.set_xlabel("update t")
    ax.set_ylabel("progress along u")
    ax.legend(fontsize=10)
    ax = axes[1]
    horizon = np.geomspace(1, trace.bound * 2, 200)
    theta0_sq = trace.upper[0]
    upper = theta0_sq + horizon * (trace.upper[1] - theta0_sq if t.size > 1
                                   else trace.radius_a**2)
    lower = np.maximum(trace.lower[0] + horizon * trace.s, 0) ** 2 / trace.u_norm**2
    ax.plot(t[1:], trace.norm2[1:], "o-", ms=3, color="k", label="||theta_t||^2 (measured)")
    ax.plot(horizon, upper, "--", color="C3", label="upper bound (Part 2), slope 1")
    ax.plot(horizon, lower, "--", color="C2", label="lower bound from Part 1, slope 2")
    ax.axvline(trace.bound, color="gray", lw=0.8)
    ax.annotate(f"lines cross: t = {trace.bound:.0f}", (trace.bound, upper[-1] / 30),
                ha="right", fontsize=8)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_ylim(bottom=max(lower[lower > 0].min(), 1e-3) if np.any(lower > 0) else None)
    ax.set_xlabel("update t")
    ax.set_ylabel("squared norm")
    ax.legend(fontsize=10, loc="upper left")
    return axes


def plot_bound_experiment(rec: BoundExperiment, axes=None) -> np.ndarray:
    """Left: every bound against the measured count (all points above the diagonal).
    Right: medians against the dimension, per number of points (flat bounds)."""
    if axes is None:
        _, axes = plt.subplots(1, 2, figsize=(7.2, 3.7))
    ax = axes[0]
    pairs = [("updates", "bias_bound", "with bias: (R^2+1)(1+b*^2)/gamma^2"),
             ("updates", "optimal_bound", "with bias: (R^2+1)/gamma_2^2 (optimal)"),
             ("homogeneous_updates", "novikoff_bound", "no bias: Novikoff R^2/gamma^2")]
    for (count, bound, label), marker in zip(pairs, "os^"):
        ax.scatter(np.maximum(rec[count], 0.8), rec[bound], s=14, marker=marker, label=label)
    lim = [0.8, max(rec["bias_bound"].max(), rec["novikoff_bound"].max()) * 1.5]
    ax.plot(lim, lim, "k-", lw=0.8, label="bound = measured")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("measured updates to convergence")
    ax.set_ylabel("mistake bound")
    ax.legend(fontsize=10)
    ax = axes[1]
    dims = np.unique(rec["dimensions"])
    for k, n in enumerate(np.unique(rec["samples"])):
        sel = rec["samples"] == n
        med = [np.median(rec["updates"][sel & (rec["dimensions"] == d)]) for d in dims]
        bnd = [np.median(rec["optimal_bound"][sel & (rec["dimensions"] == d)]) for d in dims]
        ax.plot(dims, med, "o-", color=f"C{k}", label=f"measured, n = {n}")
        ax.plot(dims, bnd, "s--", color=f"C{k}", label=f"optimal bound, n = {n}")
    ax.plot(dims, [np.median(rec["chapter_bound"])] * len(dims), "k:",
            label="2(R^2+1)/eps^2 (median)")
    label_axes(ax, "dimension d", "updates (median over datasets)", log_y=True)
    ax.set_xticks(dims, [str(d) for d in dims])  # one tick per dimension measured
    ax.minorticks_off()
    return axes


@validate_params(scales=finite_values(strict=True), scaled=unchecked,  # scales: a log axis
                 shifts=finite_values(), shifted=unchecked, axes=unchecked)
def plot_transformed_runs(scales, scaled: list, shifts, shifted: list, axes=None) -> np.ndarray:
    """Exercise 1.29: updates and the optimal-margin bound against a scale (left, log-log) and
    against a shift along the plane's normal (right).

    Parameters
    ----------
    scales, shifts : sequence of float
        The :math:`\\lambda > 0` of :math:`x \\to \\lambda x` and the distances moved
        (:math:`\\ge 0`), finite.
    scaled, shifted : list of TransformedRun
        From :func:`~gluon_perceptron.transformed_run`, one per value.
    """
    scales, shifts = as_values(scales), as_values(shifts)
    for name, runs, values_name, values in (("scaled", scaled, "scales", scales),
                                            ("shifted", shifted, "shifts", shifts)):
        if len(runs) != len(values):
            raise ValueError(f"{name} holds {len(runs)} runs but {values_name} has "
                             f"{len(values)} values: pass one transformed_run() result per value")
    if axes is None:
        _, axes = plt.subplots(1, 2, figsize=(7.2, 3.6))
    for ax, values, runs in ((axes[0], scales, scaled), (axes[1], shifts, shifted)):
        ax.plot(values, [r.updates for r in runs], "o-", label="measured updates")
        ax.plot(values, [r.optimal_bound for r in runs], "s--", label="optimal-margin bound")
        ax.set_yscale("log")
        ax.set_ylabel("updates to convergence (with bias)")
        ax.legend(fontsize=10)
    axes[0].set(xscale="log", xlabel="lambda", title="x -> lambda x")
    axes[1].set(xlabel="c (distance the data moved along the normal w*)",
                title="x -> x + c u, u a unit normal to the plane")
    return axes
