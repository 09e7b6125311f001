"""Main-job section: Expressivity and the loss surface."""

from __future__ import annotations

import matplotlib.pyplot as plt

from ...experiments.expressivity import expressivity_experiment
from ...plots.expressivity import plot_loss_surface
from ..figures import save_figure


def expressivity_section(opts) -> list:
    """AND/OR/NOT tables, XOR's endless cycle, the two-point loss surface with the path."""
    result = expressivity_experiment(xor_epochs=1000)
    for table in result.tables.values():
        print(table)
    run, period = result.learned["XOR"], result.xor_cycle.period
    print(f"XOR: linearly separable (linprog)? {result.xor_separable}; perceptron after "
          f"{run.epochs} passes: converged={run.converged}, {run.updates} updates, its "
          f"weights repeat every {period} pass(es)")
    learned = {name: result.learned[name].converged for name in ("AND", "OR", "NOT")}
    print(f"trained from zero, the perceptron learns AND/OR/NOT: {learned}")
    path = result.path
    fig, ax = plt.subplots(figsize=(5.5, 5))
    plot_loss_surface(path=path, ax=ax)
    ax.set_title("loss of (1,1)/-1 and (2,1)/+1: zero region shaded,\n"
                 "levels 1, 2, ...; the perceptron's path", fontsize=9)
    print(f"two-point example: {path.updates} updates, final w = {path.w.tolist()}, "
          f"loss there = {result.final_loss:g}")
    return [save_figure(fig, opts.out, "08_loss_surface")]
