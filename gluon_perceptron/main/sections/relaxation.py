"""Main-job section: The relaxation method."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from ...core.datasets import digits_split, one_vs_rest
from ...core.relaxation import RULES as RELAXATION_RULES
from ...core.relaxation import perceptron_system, relaxation_method, wedge_system
from ...core.rosenblatt import error_rate
from ...experiments.relaxation import ETAS, compare_rules
from ...plots.relaxation import plot_rule_comparison, plot_wedge_paths
from ..figures import save_figure

# --- the main job's section ----------------------------------------------------------------

def relaxation_section(opts) -> list:
    """Projections against reflections on a thin wedge; rules and eta on "0 or not 0"."""
    A, c = wedge_system(0.1)
    w0 = np.array([0.0, 0.5])
    paths = {f"eta = {eta:g}": relaxation_method(A, c, eta=eta, w0=w0, max_iterations=60,
                                          record=True) for eta in (1.0, 2.0)}
    fig, ax = plt.subplots(figsize=(7, 4))
    plot_wedge_paths(paths, A, c, ax)
    ax.set_title("cyclic relaxation on |w2| <= 0.1 (w1 - 1): projections creep, "
                 "reflections jump in", fontsize=9)
    out = [save_figure(fig, opts.out, "11_relaxation_wedge")]

    split = digits_split(seed=opts.seed)
    Y = one_vs_rest(split.y_train, 0)
    A, c = perceptron_system(split.X_train, Y)
    bound = 50 * len(Y)
    table = compare_rules(A, c, max_iterations=bound, seed=opts.seed)
    print(f'"0 or not 0" as A^T w <= -1: {A.shape[1]} inequalities in {A.shape[0]} unknowns; '
          f"bound {bound} iterations (50 epochs)")
    print("  rule          " + "".join(f"   eta={eta:<4g}" for eta in ETAS))
    for rule in RELAXATION_RULES:
        cells = [table[(rule, eta)] for eta in ETAS]
        print(f"  {rule:13s}" + "".join(f"{r.iterations:>10d}{'' if r.converged else '*'}"
                                         .ljust(11) for r in cells))
    print("  (* = not feasible at the bound; every other w was checked against all "
          "inequalities)")
    best = table[("max_distance", 2.0)]
    Y_test = one_vs_rest(split.y_test, 0)
    print(f"  max distance, eta = 2: feasible after {best.iterations} iterations; its w has "
          f"test accuracy {1 - error_rate(best.w[:-1], best.w[-1], split.X_test, Y_test):.3f}")
    fig, ax = plt.subplots(figsize=(9, 4.5))
    plot_rule_comparison(table, ax)
    ax.set_title('relaxation method on "0 or not 0" (digits, 1348 inequalities): '
                 "iterations to feasibility", fontsize=9)
    out.append(save_figure(fig, opts.out, "11_relaxation_rules"))
    return out
