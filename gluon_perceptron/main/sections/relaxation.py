"""Main-job section: The relaxation method."""

from __future__ import annotations

import matplotlib.pyplot as plt

from ...experiments.relaxation import digits_relaxation, wedge_demo
from ...plots.relaxation import plot_rule_comparison, plot_wedge_paths
from ..figures import save_figure

#: What this section runs smaller than its notebook, so that the main job takes seconds
#: (printed under the section's title and kept in index.json).
SMALLER_THAN_THE_BOOK = (
    "split 0 only (notebook 11 also repeats the table on 10 splits)",
)


def relaxation_section(opts) -> list:
    """Projections against reflections on a thin wedge; rules and eta on "0 or not 0"."""
    wedge = wedge_demo(0.1)
    fig, ax = plt.subplots(figsize=(7, 4))
    plot_wedge_paths(wedge.paths, wedge.A, wedge.c, ax)
    ax.set_title("cyclic relaxation on |w2| <= 0.1 (w1 - 1): projections creep, "
                 "reflections jump in", fontsize=9)
    out = [save_figure(fig, opts.out, "11_relaxation_wedge")]

    run = digits_relaxation(opts.seed, digit=0, epochs=50)
    table = run.table
    print(f'"0 or not 0" as A^T w <= -1: {run.shape[1]} inequalities in {run.shape[0]} '
          f"unknowns; bound {run.bound} iterations (50 epochs)")
    print("  rule          " + "".join(f"   eta={eta:<4g}" for eta in table.etas))
    for rule in table.rules:
        cells = [table[(rule, eta)] for eta in table.etas]
        print(f"  {rule:13s}" + "".join(f"{r.iterations:>10d}{'' if r.converged else '*'}"
                                         .ljust(11) for r in cells))
    print("  (* = not feasible at the bound; every other w was checked against all "
          "inequalities)")
    print(f"  max distance, eta = 2: feasible after {run.best.iterations} iterations; its w has "
          f"test accuracy {run.test_accuracy:.3f}")
    fig, ax = plt.subplots(figsize=(9, 4.5))
    plot_rule_comparison(table, ax)
    ax.set_title(f'relaxation method on "0 or not 0" (digits, {run.shape[1]} inequalities): '
                 "iterations to feasibility", fontsize=9)
    out.append(save_figure(fig, opts.out, "11_relaxation_rules"))
    return out
