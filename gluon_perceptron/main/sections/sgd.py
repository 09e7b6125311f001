"""Main-job section: The perceptron as SGD."""

from __future__ import annotations

import functools

import matplotlib.pyplot as plt
import numpy as np
from tqdm import tqdm

from ...experiments.sgd import (
    compare_subgradients,
    compare_trainers,
    relu_trap,
    sgd_bound_experiment,
    sgd_demo_data,
)
from ...plots.sgd import (
    plot_relu_trap,
    plot_sgd_bound_experiment,
    plot_subgradient_check,
    plot_trainers,
)
from ..figures import save_figure


def sgd_section(opts) -> list:
    """The perceptron as SGD: autograd vs closed form, the relu trap, SGD vs the perceptron,
    and the SGD bound measured against :math:`T`."""
    paths = []
    fig, axes = plt.subplots(1, 2, figsize=(10, 4.5))
    for ax, delta, name in zip(axes, (0.0, 1.0), ("perceptron loss max(0, -z)",
                                                   "hinge loss max(0, 1 - z)")):
        check = compare_subgradients(60, threshold=delta)
        worst = check.largest_difference
        plot_subgradient_check(check, ax, title=f"{name}: largest difference {worst:g}")
        print(f"{name}: autograd vs closed form on 60 cases "
              f"({int(np.sum(check.kind == 'tie'))} exactly at the kink): "
              f"largest difference {worst:g}")
    paths.append(save_figure(fig, opts.out, "04_sgd_autograd_vs_closed_form"))

    X, Y = sgd_demo_data(60, flip=0.1, seed=1)
    trapped = relu_trap(X, Y)
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    plot_relu_trap(trapped, axes)
    paths.append(save_figure(fig, opts.out, "04_sgd_relu_trap"))
    trap = trapped.trap
    print(f"relu trap: train_autograd with nd.relu makes {trap.updates} updates and stops at "
          f"w = {trap.w}, b = {trap.b} (reported converged={trap.converged})")

    results = compare_trainers(X, Y, max_epochs=8)
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.5))
    plot_trainers(X, Y, results, axes)
    paths.append(save_figure(fig, opts.out, "04_sgd_vs_perceptron"))
    print(f"train (faithful, fast), train_autograd, train_gluon identical: "
          f"{results.identical}; updates per epoch {results.reference.updates_per_epoch}")

    Xb, Yb = sgd_demo_data()
    result = sgd_bound_experiment(Xb, Yb, seeds=10,
                                  progress=functools.partial(tqdm, disable=not opts.progress))
    fig, ax = plt.subplots(figsize=(6.5, 4.5))
    plot_sgd_bound_experiment(result, ax)
    ax.set_title(f"SGD on the hinge loss, 200 points: R = {result.radius:.2f}, "
                 f"L = {result.lipschitz:.2f}, 10 seeds", fontsize=9)
    paths.append(save_figure(fig, opts.out, "04_sgd_bound"))
    print(f"bound experiment: R(w*) = {result.risk_min:.4f} (LP, HiGHS); R = {result.radius:.3f}, "
          f"L = {result.lipschitz:.3f}; max gradient norm seen {result.max_grad_norm:.3f}, "
          f"max ||theta_t|| over all steps {result.max_norm:.3f}")
    print("      T  gap const  bound RL/sqrt T  gap 1/sqrt t  anytime bound")
    for i, T in enumerate(result.horizons):
        print(f"  {T:5d}  {result.constant_gap[:, i].mean():9.4f}  "
              f"{result.constant_bound[i]:15.4f}  {result.anytime_gap[:, i].mean():12.4f}  "
              f"{result.anytime_bound[i]:13.4f}")
    return paths
