"""Main-job section: The perceptron on many machines."""

from __future__ import annotations

import functools
import tempfile

import matplotlib.pyplot as plt
import numpy as np
from tqdm import tqdm

from ...core.data.synthetic import sample_separable
from ...core.distributed.cluster_training import train_distributed
from ...core.distributed.mixing import train_mixed
from ...experiments.distributed import (
    hard_separable,
    mixing_bound_experiment,
    mixing_speedup,
    nonseparable_mixing,
)
from ...plots.distributed import plot_mixing_bound, plot_mixing_speedup, plot_nonseparable_mixing
from ..figures import save_figure

#: What this section runs smaller than its notebook, so that the main job takes seconds
#: (printed under the section's title and kept in index.json).
SMALLER_THAN_THE_BOOK = (
    "the mixing bound over 4 trials (notebook 12: 5)",
    "the 40-seed spread under label noise is in notebook 12 only",
)


def distributed_section(opts) -> list:
    """One small cluster on 127.0.0.1; mixing against one perceptron; the bound; noise."""
    progress = functools.partial(tqdm, disable=not opts.progress)
    fake = sample_separable(200, 5, 0.1, seed=opts.seed)
    X, Y = fake.X.asnumpy(), fake.Y.asnumpy()
    with tempfile.TemporaryDirectory() as logs:
        run = train_distributed(X, Y, workers=2, mixing="uniform", log_dir=logs, timeout=300)
        same = train_mixed(X, Y, shards=2, mixing="uniform")
        print(f"cluster on 127.0.0.1: {', '.join(f'{r} (pid {p})' for r, p in run.pids.items())}")
        print(f"  ranks (launch index -> rank): {run.ranks}; logs: "
              f"{', '.join(p.name for p in run.logs.values())}")
        print(f"  {run.epochs} rounds, {run.updates} mistakes, converged {run.converged}; "
              f"equals train_mixed(shards=2) bit for bit: "
              f"{run.w.tobytes() == same.w.tobytes() and run.b == same.b}")
        print(f"  start-up {run.startup_seconds:.1f} s, exchanges "
              f"{1e3 * np.nanmean(run.exchange_seconds):.2f} ms each, whole call "
              f"{run.wall_seconds:.1f} s")

    Xh, Yh = hard_separable(4000, 200, 0.1, seed=opts.seed)
    speed = mixing_speedup(Xh, Yh, workers=(1, 2, 4, 8), max_epochs=2000, progress=progress)
    print("passes to separate a hard 4,000 x 200 set (margin 0.1), in one process:")
    for m, p, u in zip(speed.method, speed.passes, speed.updates):
        print(f"  {m:14s} {p:5d} passes {u:7d} mistakes")
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    plot_mixing_speedup(speed, axes)
    axes[0].set_title("uniform mixing needs fewer passes as W grows", fontsize=10)
    axes[1].set_title("time: local passes (W machines in parallel)", fontsize=10)
    paths = [save_figure(fig, opts.out, "12_mixing_passes")]

    bound = mixing_bound_experiment(trials=4, seed=opts.seed, progress=progress)
    print("McDonald et al.'s Theorem 3, sum mu k <= R^2/gamma^2, on getfake data:")
    for w in (1, 2, 4):
        for m in ("uniform", "weighted"):
            sel = (bound.workers == w) & (bound.mixing == m)
            print(f"  W={w} {m:8s} largest measured/bound = {bound.ratio[sel].max():.3f}")
    fig, ax = plt.subplots(figsize=(5.5, 4.2))
    plot_mixing_bound(bound, ax)
    paths.append(save_figure(fig, opts.out, "12_mixing_bound"))

    noisy = nonseparable_mixing(seed=opts.seed, progress=progress)
    print("non-separable data (10% labels flipped), training error of the mixed weights, "
          "mean of the last 10 rounds:")
    for w, err in zip(noisy.workers, noisy.error):
        print(f"  W={w}: {err[-10:].mean():.3f}")
    fig, ax = plt.subplots(figsize=(6, 4))
    plot_nonseparable_mixing(noisy, ax)
    paths.append(save_figure(fig, opts.out, "12_mixing_nonseparable"))
    return paths
