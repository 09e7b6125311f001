"""Figures of the relaxation method.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.axes import Axes
from matplotlib.colors import ListedColormap
from matplotlib.patches import Patch

from ..core._convert import as_features, as_vector
from ..core._validation import shaped, unchecked, validate_params, vector
from ..core.theory.relaxation import RelaxationResult
from ..experiments.relaxation import RuleComparison


def plot_rule_comparison(table: RuleComparison | dict[tuple[str, float], RelaxationResult],
                         ax=None) -> Axes:
    """Iterations to feasibility, grouped by rule, one bar per eta (log scale).

    Runs that hit the iteration bound without becoming feasible are drawn hatched.
    """
    ax = ax if ax is not None else plt.subplots(figsize=(7.2, 4.2))[1]
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
    ax.legend(handles=handles, fontsize=10, ncol=2, loc="upper center")
    return ax


def _feasible_grid(A: np.ndarray, c: np.ndarray, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """Which points of the grid ``xs`` x ``ys`` satisfy :math:`A^\\top w \\le c` (``A`` 2 x n).

    Row by row: at height ``y`` each inequality :math:`a_1 x \\le c - a_2 y` bounds ``x`` on
    one side (or not at all when :math:`a_1 = 0`), so a row of the region is an interval,
    found in :math:`O(n)` memory whatever the grid's size.
    """
    a1, a2 = A
    up, down, flat = a1 > 0, a1 < 0, a1 == 0
    inside = np.zeros((ys.size, xs.size), dtype=bool)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        for row, y in enumerate(ys):
            rest = c - a2 * y
            if np.any(rest[flat] < 0):
                continue
            high = np.min(rest[up] / a1[up], initial=np.inf)
            low = np.max(rest[down] / a1[down], initial=-np.inf)
            inside[row] = (xs >= low) & (xs <= high)
    return inside


@validate_params(results=unchecked, c=vector(size_of="A"), A=shaped(2, words=("rows", "columns"),
                 why="w1 and w2 of the plane drawn; one column per inequality"))
def plot_wedge_paths(results: dict[str, RelaxationResult], A, c, ax=None) -> Axes:
    """The feasible region of a 2-D system (shaded) and the recorded paths of some runs.

    ``results`` maps a label to a run made with ``record=True`` (e.g. ``wedge_demo().paths``)
    on the system :math:`A^\\top w \\le c`: ``A`` of shape ``(2, n)``, one inequality per
    column, and ``c`` of shape ``(n,)`` (e.g. ``wedge_demo().A`` and ``.c``).
    """
    A, c = as_features(A, dtype=np.float64), as_vector(c)
    paths = {label: np.array(res.history["w"]) for label, res in results.items()}
    ax = ax if ax is not None else plt.subplots(figsize=(7, 4))[1]
    points = np.vstack(list(paths.values()))
    (x0, y0), (x1, y1) = points.min(axis=0) - 0.3, points.max(axis=0) + 0.3
    inside = _feasible_grid(A, c, np.linspace(x0, x1, 500), np.linspace(y0, y1, 300))
    ax.imshow(inside, extent=(x0, x1, y0, y1), origin="lower", aspect="auto",
              cmap=ListedColormap(["white", "#cfe8cf"]), vmin=0, vmax=1)
    for k, (label, res) in enumerate(results.items()):
        path = paths[label]
        status = (f"feasible after {res.iterations} iterations" if res.converged
                  else f"not feasible after {res.iterations}")
        ax.plot(path[:, 0], path[:, 1], "o-", ms=2.5, lw=0.8, color=f"C{k}",
                label=f"{label}: {status}")
    ax.plot([], [], "s", color="#cfe8cf", label="feasible region")
    ax.set_xlabel("w1")
    ax.set_ylabel("w2")
    ax.legend(fontsize=10, loc="upper center", bbox_to_anchor=(0.5, -0.15))
    return ax
