"""Main-job section: Expressivity and the loss surface."""

from __future__ import annotations

import matplotlib.pyplot as plt

from ...core.data import xor_data
from ...core.expressivity import (
    BOOLEAN_PERCEPTRONS,
    learn_boolean,
    total_perceptron_loss,
    two_point_data,
    xor_cycle,
)
from ...core.geometry import is_separable
from ...core.variants import update_path
from ...experiments.expressivity import format_truth_table
from ...plots.expressivity import plot_loss_surface
from ..figures import save_figure


def expressivity_section(opts) -> list:
    """AND/OR/NOT tables, XOR's endless cycle, the two-point loss surface with the path."""
    for name in BOOLEAN_PERCEPTRONS:
        print(format_truth_table(name))
    X, Y = xor_data()
    run = learn_boolean("XOR", max_epochs=1000)
    _, period = xor_cycle()
    print(f"XOR: linearly separable (linprog)? {is_separable(X, Y)}; perceptron after "
          f"{run.epochs} passes: converged={run.converged}, {run.updates} updates, its "
          f"weights repeat every {period} pass(es)")
    learned = {name: learn_boolean(name).converged for name in ("AND", "OR", "NOT")}
    print(f"trained from zero, the perceptron learns AND/OR/NOT: {learned}")
    path = update_path(*two_point_data(), max_epochs=100, bias=False)
    fig, ax = plt.subplots(figsize=(5.5, 5))
    plot_loss_surface(path=path, ax=ax)
    ax.set_title("loss of (1,1)/-1 and (2,1)/+1: zero region shaded,\n"
                 "levels 1, 2, ...; the perceptron's path", fontsize=9)
    print(f"two-point example: {path.updates} updates, final w = {path.w.tolist()}, "
          f"loss there = {total_perceptron_loss(path.w, *two_point_data()):g}")
    return [save_figure(fig, opts.out, "08_loss_surface")]
