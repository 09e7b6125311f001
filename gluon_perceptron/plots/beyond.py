"""Figures of "Beyond Rosenblatt": kernel boundaries, the Forgetron's budget, iterations
against the margin on the separation problem.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.axes import Axes

from ..core._validation import count, flag, unchecked, validate_params
from ..core.beyond.kernel_perceptron import KernelPerceptron
from ..experiments.beyond import METHODS, ForgetronExperiment, SeparationExperiment

#: Most grid points per side :func:`plot_kernel_boundary` scores.
MAX_RESOLUTION = 2000


_LABELS = {"perceptron": "perceptron", "smooth": "smooth perceptron",
           "rescaled": "rescaled perceptron"}


@validate_params(run=unchecked, resolution=count(minimum=2, maximum=MAX_RESOLUTION))
def plot_kernel_boundary(run: KernelPerceptron, ax=None, *, resolution: int = 200) -> Axes:
    """The sign of a kernel perceptron's :math:`f` over the plane of its 2-D training set,
    with the training points (support vectors ringed)."""
    ax = ax if ax is not None else plt.subplots(figsize=(4.5, 4))[1]
    low, high = run.X.min(0) - 0.5, run.X.max(0) + 0.5
    gx, gy = np.meshgrid(np.linspace(low[0], high[0], resolution),
                         np.linspace(low[1], high[1], resolution))
    f = run.decision_function(np.column_stack([gx.ravel(), gy.ravel()])).reshape(gx.shape)
    # rounding noise around f = 0 (e.g. a run that cycled back to alpha y summing to 0) is 0
    f = np.where(np.abs(f) <= 1e-9 * (1.0 + np.abs(f).max()), 0.0, f)
    ax.contourf(gx, gy, f > 0, levels=[-0.5, 0.5, 1.5], colors=["#f3d0d0", "#d0dcf3"])
    if (f > 0).any() and (f <= 0).any():
        ax.contour(gx, gy, f, levels=[0.0], colors="k", linewidths=0.8)
    for label, color in ((1.0, "C0"), (-1.0, "C3")):
        mask = run.Y == label
        ax.scatter(run.X[mask, 0], run.X[mask, 1], s=14, color=color)
    s = run.support
    ax.scatter(run.X[s, 0], run.X[s, 1], s=60, facecolors="none", edgecolors="k",
               linewidths=0.7)
    status = "separated" if run.converged else "not separated"
    ax.set_title(f"{run.kernel.kind} kernel: {status},\n{run.updates} updates, "
                 f"{s.size} support vectors", fontsize=10)
    return ax


def plot_forgetron(result: ForgetronExperiment, ax=None) -> Axes:
    """Mistakes of the Forgetron against its budget, beside the unbudgeted kernel perceptron."""
    ax = ax if ax is not None else plt.subplots(figsize=(6, 4))[1]
    ax.plot(result.budgets, result.mistakes, "o-", label="Forgetron")
    ax.axhline(result.unbudgeted, color="k", ls="--", lw=0.8,
               label=f"kernel perceptron, no budget ({result.support} support vectors)")
    ax.set_xscale("log")
    ax.set_xlabel("budget B (support vectors kept)")
    ax.set_ylabel(f"mistakes in one pass over {result.samples} examples")
    ax.legend(fontsize=10)
    return ax


@validate_params(result=unchecked, bounds=flag())
def plot_separation(result: SeparationExperiment, ax=None, *, bounds: bool = True) -> Axes:
    """Iterations to a separator against the margin :math:`\\rho`, log-log, every draw as a
    dot (open where the run hit ``max_iterations``), the median as a line labelled with its
    growth :math:`\\rho^{-s}` (:math:`-s` the fitted log-log slope; the axis is reversed), and
    each algorithm's bound dashed."""
    ax = ax if ax is not None else plt.subplots(figsize=(7, 5))[1]
    rho = np.median(result.rho, axis=1)
    for k, method in enumerate(METHODS):
        color = f"C{k}"
        its = np.maximum(result.iterations[method], 1)
        ok = result.converged[method]
        ax.scatter(result.rho[ok], its[ok], s=10, color=color, alpha=0.5)
        ax.scatter(result.rho[~ok], its[~ok], s=24, facecolors="none", edgecolors=color)
        ax.plot(rho, np.maximum(np.median(result.iterations[method], axis=1), 1), "-",
                color=color,
                label=f"{_LABELS[method]}: grows like rho^-{abs(result.slope(method)):.2f}")
        if bounds:
            ax.plot(rho, np.median(result.bound[method], axis=1), "--", color=color, lw=0.8,
                    label=f"its bound: rho^-{abs(result.slope(method, of='bound')):.2f}")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.invert_xaxis()
    ax.set_xlabel("margin rho of the unit rows (smaller is harder)")
    ax.set_ylabel("iterations to a separator")
    ax.legend(fontsize=10)
    return ax
