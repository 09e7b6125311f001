"""Figures of the relaxation method.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.axes import Axes
from matplotlib.colors import ListedColormap
from matplotlib.patches import Patch

from ..core.relaxation import RelaxationResult
from ..experiments.relaxation import RuleComparison


def plot_rule_comparison(table: RuleComparison | dict[tuple[str, float], RelaxationResult],
                         ax=None) -> Axes:
    """Iterations to feasibility, grouped by rule, one bar per eta (log scale).

    Runs that hit the iteration bound without becoming feasible are drawn hatched.
    """
    if not isinstance(table, (RuleComparison, dict)) or not len(table):
        raise ValueError(f"table must be the non-empty dict (RuleComparison) returned by "
                         f"compare_rules(A, c), got {table!r:.60}")
    ax = ax if ax is not None else plt.subplots(figsize=(9, 4.5))[1]
    rules = list(dict.fromkeys(rule for rule, _ in table))
    etas = list(dict.fromkeys(eta for _, eta in table))
    width = 0.8 / len(etas)
    for j, eta in enumerate(etas):
        for i, rule in enumerate(rules):
            res = table[(rule, eta)]
            ax.bar(i + (j - (len(etas) - 1) / 2) * width, max(res.iterations, 1), width=width,
                   color=f"C{j}", hatch="" if res.converged else "//", edgecolor="k",
                   linewidth=0.5)
    ax.set_yscale("log")
    low, high = ax.get_ylim()
    ax.set_ylim(low, high * 30)  # room for the legend above the bars
    ax.set_xticks(range(len(rules)), [r.replace("_", " ") for r in rules])
    ax.set_ylabel("iterations to feasibility")
    handles = [Patch(facecolor=f"C{j}", edgecolor="k", label=f"eta = {eta:g}")
               for j, eta in enumerate(etas)]
    handles.append(Patch(facecolor="white", hatch="//", edgecolor="k",
                         label="hatched: not feasible at the bound"))
    ax.legend(handles=handles, fontsize=8, ncol=len(handles), loc="upper center")
    return ax


def plot_wedge_paths(results: dict[str, RelaxationResult], A, c, ax=None) -> Axes:
    """The feasible region of a 2-D system (shaded) and the recorded paths of some runs.

    ``results`` maps a label to a run made with ``record=True`` (e.g. ``wedge_demo().paths``).
    """
    if not isinstance(results, dict) or not results or any(
            not isinstance(r, RelaxationResult) or not r.history.get("w")
            for r in results.values()):
        raise ValueError("results must be a non-empty dict of relaxation_method(..., "
                         "record=True) results, e.g. wedge_demo().paths")
    ax = ax if ax is not None else plt.subplots(figsize=(7, 4))[1]
    points = np.vstack([np.array(res.history["w"]) for res in results.values()])
    (x0, y0), (x1, y1) = points.min(axis=0) - 0.3, points.max(axis=0) + 0.3
    gx, gy = np.meshgrid(np.linspace(x0, x1, 500), np.linspace(y0, y1, 300))
    inside = np.all(np.tensordot(np.asarray(A).T, np.stack([gx, gy]), axes=1)
                    <= np.asarray(c)[:, None, None], axis=0)
    ax.imshow(inside, extent=(x0, x1, y0, y1), origin="lower", aspect="auto",
              cmap=ListedColormap(["white", "#cfe8cf"]), vmin=0, vmax=1)
    for k, (label, res) in enumerate(results.items()):
        path = np.array(res.history["w"])
        status = (f"feasible after {res.iterations} iterations" if res.converged
                  else f"not feasible after {res.iterations}")
        ax.plot(path[:, 0], path[:, 1], "o-", ms=2.5, lw=0.8, color=f"C{k}",
                label=f"{label}: {status}")
    ax.plot([], [], "s", color="#cfe8cf", label="feasible region")
    ax.set_xlabel("w1")
    ax.set_ylabel("w2")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    return ax
