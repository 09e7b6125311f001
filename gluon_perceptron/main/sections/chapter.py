"""Main-job sections of the chapter itself: the demo step by step, updates against the margin,
the loss."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from ...core.data import getfake
from ...experiments.chapter import demo, margin_experiment, margin_experiment_faithful
from ...plots.chapter import plot_losses, plot_margin_experiment, plot_update, plotdata
from ..figures import save_figure

# --- the main job's sections -------------------------------------------------------------

def demo_section(opts) -> list:
    """The demo: ``getfake(50, 2, 0.3)``, one printed pass, a figure per update."""
    X, Y = getfake(50, 2, 0.3)
    w, b, updates = demo(X, Y)
    paths = []
    fig, ax = plt.subplots(figsize=(5, 5))
    plotdata(X, Y, ax=ax)
    ax.set_title("getfake(50, 2, 0.3)")
    paths.append(save_figure(fig, opts.out, "01_data"))
    for k, update in enumerate(updates, start=1):
        fig, ax = plt.subplots(figsize=(5, 5))
        plot_update(X, Y, update, ax=ax)
        paths.append(save_figure(fig, opts.out, f"02_update_{k:02d}"))
    print(f"one pass made {len(updates)} updates; final w = {w.asnumpy()}, "
          f"b = {b.asscalar()}")
    return paths


def experiment_section(opts) -> list:
    """Updates against the margin: corrected experiment (and the faithful one on request)."""
    faithful = None
    if opts.faithful_experiment:
        print("running the chapter's experiment exactly as written (1 to 2 minutes)...")
        # as in the chapter, it continues from the weights the demo left (same seed, same data)
        w, b, _ = demo(*getfake(50, 2, 0.3), verbose=False)
        faithful = margin_experiment_faithful(w=w, b=b, progress=opts.progress)
    else:
        print("(the chapter's own experiment, which never resets w, b and makes one pass, "
              "takes 1 to 2 minutes: add --faithful-experiment to run it too)")
    result = margin_experiment(progress=opts.progress)
    broken = ~result.chapter_assumptions
    print(f"{result.updates.size} runs, all converged: {bool(result.converged.all())}; "
          f"updates never above their bound: {bool(np.all(result.updates <= result.bound))}")
    print(f"{int(broken.sum())} of {broken.size} generating planes have b*^2 > 1, where the "
          f"chapter's 2(R^2+1)/eps^2 is not guaranteed; (R^2+1)(1+b*^2)/gamma^2 still holds")
    print(" epsilon  mean updates  max updates  median bound")
    for i, e in enumerate(result.epsilons):
        print(f"  {e:5.3f}  {result.updates[:, i].mean():12.1f}  "
              f"{result.updates[:, i].max():11.0f}  {np.median(result.bound[:, i]):12.0f}")
    fig, ax = plt.subplots(figsize=(7, 4.5))
    plot_margin_experiment(result, ax=ax, faithful=faithful)
    ax.set_title("updates against the margin (10 trials x 1000 points)")
    return [save_figure(fig, opts.out, "03_updates_vs_margin")]


def loss_section(opts) -> list:
    """The chapter's plot of max(0, f) and max(0, -f)."""
    fig, ax = plt.subplots(figsize=(6, 4))
    plot_losses(ax=ax)
    ax.set_title("the perceptron's hinge-like losses")
    return [save_figure(fig, opts.out, "04_losses")]
