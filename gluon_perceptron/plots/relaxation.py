"""Figures of the relaxation method.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.axes import Axes
from matplotlib.colors import ListedColormap
from matplotlib.patches import Patch

from ..core import _checks
from ..core._validation import Rule, validate_params
from ..core.theory.relaxation import RelaxationResult
from ..experiments.relaxation import RuleComparison
from ._rules import ax_rule


def _table(table, name, args):
    """A complete table ``(rule, eta) -> RelaxationResult``: every rule with every eta."""
    if not isinstance(table, (RuleComparison, dict)) or not len(table):
        raise ValueError(f"{name} must be the non-empty dict (RuleComparison) returned by "
                         f"compare_rules(A, c), got {table!r:.60}")
    for key, res in table.items():
        if not (isinstance(key, tuple) and len(key) == 2 and isinstance(key[0], str)
                and isinstance(key[1], (int, float, np.integer, np.floating))
                and not isinstance(key[1], bool) and np.isfinite(key[1])):
            raise ValueError(f"{name} must map (rule, eta) pairs, a name and a finite number, "
                             f"to results, as compare_rules(A, c) returns; got the key "
                             f"{key!r:.60}")
        _checks.instance(res, RelaxationResult, f"{name}[{key!r}]",
                         "from relaxation_method(A, c, ...), as compare_rules returns them")
    rules = dict.fromkeys(rule for rule, _ in table)
    etas = dict.fromkeys(eta for _, eta in table)
    missing = [(r, e) for r in rules for e in etas if (r, e) not in table]
    if missing:
        raise ValueError(f"{name} has no result for {missing[:3]!r:.80}: pass one result per "
                         f"rule and eta, as compare_rules(A, c) returns")
    return table


def _results(results, name, args) -> dict:
    if not isinstance(results, dict) or not results or any(
            not isinstance(r, RelaxationResult) or not r.history.get("w")
            for r in results.values()):
        raise ValueError(f"{name} must be a non-empty dict of relaxation_method(..., "
                         "record=True) results, e.g. wedge_demo().paths")
    for label, res in results.items():
        path = np.array(res.history["w"])
        if path.ndim != 2 or path.shape[1] != 2 or not np.all(np.isfinite(path)):
            raise ValueError(f"{name}[{label!r}] is not a run on a 2-D system like A (its "
                             f"iterates have shape {path.shape[1:]}, A has 2 rows); pass runs "
                             f"of relaxation_method(A, c, record=True)")
    return results


def _A(A, name, args) -> np.ndarray:
    An = _checks.features(A, name).astype(np.float64)
    if An.shape[0] != 2:
        raise ValueError(f"{name} must have 2 rows (w1 and w2 of the plane drawn) and one "
                         f"column per inequality, got shape {An.shape}")
    return An


def _c(c, name, args) -> np.ndarray:
    cn = _checks.vector(c, name).astype(np.float64)
    columns = args["A"].shape[1]
    if cn.size != columns:
        raise ValueError(f"{name} must have one entry per column of A (one inequality per "
                         f"column): A has {columns} columns, c has {cn.size} entries")
    return cn


@validate_params(table=Rule(_table, "(rule, eta) -> RelaxationResult"), ax=ax_rule)
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


@validate_params(results=Rule(_results, "runs with record=True on 2 weights"),
                 A=Rule(_A, "2 x n"), c=Rule(_c, "one entry per column of A", ("A",)), ax=ax_rule)
def plot_wedge_paths(results: dict[str, RelaxationResult], A, c, ax=None) -> Axes:
    """The feasible region of a 2-D system (shaded) and the recorded paths of some runs.

    ``results`` maps a label to a run made with ``record=True`` (e.g. ``wedge_demo().paths``)
    on the system :math:`A^\\top w \\le c`: ``A`` of shape ``(2, n)``, one inequality per
    column, and ``c`` of shape ``(n,)`` (e.g. ``wedge_demo().A`` and ``.c``).
    """
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
