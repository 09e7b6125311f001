"""Main-job section: Beyond Rosenblatt (kernel perceptron, Forgetron, second-order, smooth and
rescaled perceptrons)."""

from __future__ import annotations

import functools

import matplotlib.pyplot as plt
import numpy as np
from tqdm import tqdm

from ...experiments.beyond import (
    METHODS,
    forgetron_experiment,
    kernel_bound_experiment,
    kernel_demo,
    second_order_experiment,
    separation_experiment,
)
from ...plots.beyond import plot_forgetron, plot_kernel_boundary, plot_separation
from ..figures import save_figure

#: What this section runs smaller than its notebook, so that the main job takes seconds
#: (printed under the section's title and kept in index.json).
SMALLER_THAN_THE_BOOK = (
    "the kernel bound on 20 draws, Gaussian kernel only (notebook 13: 30 draws, Gaussian and "
    "polynomial)",
    "the Forgetron on 1,000 points, budgets up to 200 (notebook 13: 2,000, up to 400)",
    "second-order on 10 streams (notebook 13: 20)",
    "separation at 4 margins, 3 draws each, at most 30,000 iterations (notebook 13: 6 "
    "margins, 5 draws, 100,000)",
)


def beyond_section(opts) -> list:
    """The kernel perceptron on XOR and two moons, its bound in feature space; the Forgetron
    against its budget; second-order against plain mistakes; iterations against the margin
    for the plain, smooth and rescaled perceptrons (a reduced grid: a few seconds)."""
    progress = functools.partial(tqdm, disable=not opts.progress)
    demo = kernel_demo(seed=opts.seed)
    fig, axes = plt.subplots(2, 3, figsize=(13, 8))
    for ax, key in zip(axes.ravel(), demo.runs):
        run = demo.runs[key]
        margin = demo.margins.get(key)
        bound = f"bound {margin.bound:.0f}" if margin else "not separable"
        print(f"  {key[0]:5s} {key[1]:6s}: converged={run.converged}, {run.updates} updates "
              f"({bound})")
        plot_kernel_boundary(run, ax)
    out = [save_figure(fig, opts.out, "13_kernel_boundaries")]

    rbf = kernel_bound_experiment(kernel="rbf", draws=20, seed=opts.seed, progress=progress)
    print(f"  rbf kernel on {rbf.updates.size} noisy two-moons sets: all converged "
          f"{bool(rbf.converged.all())}, updates/bound at most {rbf.ratio.max():.2f} "
          f"(median {np.median(rbf.ratio):.2f})")

    forg = forgetron_experiment(budgets=(10, 25, 50, 100, 200), samples=1000,
                                seed=opts.seed, progress=progress)
    print(f"  Forgetron, one pass over {forg.samples} noisy two-moons points: mistakes "
          f"{forg.mistakes.tolist()} for budgets {forg.budgets.tolist()}; no budget "
          f"{forg.unbudgeted} ({forg.support} support vectors)")
    out.append(save_figure(plot_forgetron(forg).figure, opts.out, "13_forgetron"))

    so = second_order_experiment(draws=10, seed=opts.seed, progress=progress)
    print(f"  second-order perceptron (a = {so.a:g}) on {so.plain.size} getfake streams: mean "
          f"mistakes {so.second_order.mean():.1f} against {so.plain.mean():.1f} for the "
          f"perceptron; within its bound on every stream: "
          f"{bool(np.all(so.second_order <= so.bound))}")

    sep = separation_experiment(gammas=(0.3, 0.03, 0.003, 0.001), draws=3,
                                max_iterations=30_000, seed=opts.seed, progress=progress)
    for method in METHODS:
        print(f"  {method:10s}: median iterations {np.median(sep.iterations[method], 1)} "
              f"(hit the bound {int((~sep.converged[method]).sum())} times), fitted slope "
              f"{sep.slope(method):.2f}; its bound's slope {sep.slope(method, of='bound'):.2f}")
    out.append(save_figure(plot_separation(sep).figure, opts.out, "13_separation"))
    return out
