"""Main-job sections of the chapter itself: the demo step by step, updates against the margin,
the loss."""

from __future__ import annotations

import functools

import matplotlib.pyplot as plt
import mxnet as mx
import numpy as np
from tqdm import tqdm

from ...core.chapter.sampler import getfake
from ...experiments.chapter import (
    CHAPTER_SEED,
    demo,
    margin_experiment,
    margin_experiment_faithful,
)
from ...plots.chapter import plot_losses, plot_margin_experiment, plot_update, plotdata
from ..figures import save_figure


def _bar(opts):
    """The progress wrapper experiments take: tqdm, silenced by ``--no-progress``."""
    return functools.partial(tqdm, disable=not opts.progress)


def _chapter_demo():
    """The original notebook's start: ``mx.random.seed(1)``, ``getfake(50, 2, 0.3)``, one pass."""
    mx.random.seed(CHAPTER_SEED)
    X, Y = getfake(50, 2, 0.3)
    return X, Y, demo(X, Y)


def demo_section(opts) -> list:
    """The demo with the chapter's seed: ``getfake(50, 2, 0.3)``, one printed pass, a figure per
    update. Always ``mx.random.seed(1)``, whatever ``--seed`` says, so it prints what the
    original notebook prints on MXNet 1.9."""
    X, Y, run = _chapter_demo()
    print(f"(the chapter's seed: mx.random.seed({CHAPTER_SEED}), as in the original notebook)")
    print(run.trace)
    paths = []
    fig, ax = plt.subplots(figsize=(5, 5))
    plotdata(X, Y, ax=ax)
    ax.set_title("getfake(50, 2, 0.3)")
    paths.append(save_figure(fig, opts.out, "01_data"))
    for k, update in enumerate(run.updates, start=1):
        fig, ax = plt.subplots(figsize=(5, 5))
        plot_update(X, Y, update, ax=ax)
        paths.append(save_figure(fig, opts.out, f"02_update_{k:02d}"))
    print(f"one pass made {len(run.updates)} updates; final w = {run.w.asnumpy()}, "
          f"b = {run.b.asscalar()}")
    return paths


def experiment_section(opts) -> list:
    """Updates against the margin: corrected experiment (and the faithful one on request)."""
    faithful = None
    if opts.faithful_experiment:
        print("running the chapter's experiment exactly as written (1 to 2 minutes)...")
        # as in the chapter, it continues from the weights (and the random stream) the demo left
        _, _, run = _chapter_demo()
        faithful = margin_experiment_faithful(w=run.w, b=run.b, progress=_bar(opts))
        opts.seed_all()  # the corrected experiment draws the same data with or without it
    else:
        print("(the chapter's own experiment, which never resets w, b and makes one pass, "
              "takes 1 to 2 minutes: add --faithful-experiment to run it too)")
    result = margin_experiment(progress=_bar(opts))
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
