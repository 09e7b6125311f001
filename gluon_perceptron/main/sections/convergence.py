"""Main-job section: Convergence bounds measured."""

from __future__ import annotations

from functools import partial

import matplotlib.pyplot as plt
import numpy as np
from tqdm import tqdm

from ...core.data.synthetic import sample_separable
from ...core.theory.margins import optimal_margin
from ...experiments.convergence import bound_experiment, proof_trace, transformed_run
from ...plots.convergence import plot_bound_experiment, plot_proof_trace
from ..figures import save_figure

#: What this section runs smaller than its notebook, so that the main job takes seconds
#: (printed under the section's title and kept in index.json).
SMALLER_THAN_THE_BOOK = (
    "bounds against counts on 1 dataset per cell with n in (100, 300) (notebook 06: 8 per "
    "cell, n in (100, 1000))",
    "the 40-seed spread of the growth with d is in notebook 06 only",
)


def convergence_section(opts) -> list:
    """Bounds against measured counts; the proof, live; the normalization exercise."""
    rec = bound_experiment(samples=(100, 300), trials=1,
                           progress=partial(tqdm, disable=not opts.progress))
    ok = rec.b ** 2 <= 1
    print(f"{rec.updates.size} getfake datasets (d in {sorted(set(rec.dimensions))}, "
          f"n in {sorted(set(rec.samples))}, eps in {sorted(set(rec.epsilon))}), "
          f"all converged: {bool(rec.converged.all() and rec.homogeneous_converged.all())}")
    for name, count, bound, sel in [
            ("(R^2+1)(1+b*^2)/gamma^2", "updates", "bias_bound", slice(None)),
            ("(R^2+1)/gamma_2^2 (optimal)", "updates", "optimal_bound", slice(None)),
            ("2(R^2+1)/eps^2 where b*^2 <= 1", "updates", "chapter_bound", ok),
            ("Novikoff R^2/gamma^2, no bias", "homogeneous_updates", "novikoff_bound",
             slice(None))]:
        ratio = getattr(rec, count)[sel] / getattr(rec, bound)[sel]
        print(f"  {name:34s} never exceeded: {bool(np.all(ratio <= 1))}; "
              f"largest measured/bound = {ratio.max():.3f}")
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    plot_bound_experiment(rec, axes)
    axes[0].set_title("every bound holds, often by a factor 10-100", fontsize=10)
    axes[1].set_title("counts stay below bounds that do not grow with d or n", fontsize=10)
    paths = [save_figure(fig, opts.out, "06_bounds_vs_measured")]

    fake = sample_separable(200, 2, 0.05)
    trace = proof_trace(fake.X, fake.Y, optimal_margin(fake.X, fake.Y).theta)
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    plot_proof_trace(trace, axes)
    fig.suptitle(f"the proof, live, with the optimal separator u: {trace.path.updates} updates, "
                 f"bound {trace.bound:.0f}",
                 fontsize=10)
    paths.append(save_figure(fig, opts.out, "06_proof_live"))
    print(f"proof, live: {trace.path.updates} updates; Part 1 and Part 2 hold at every update: "
          f"{bool(np.all(trace.progress >= trace.lower - 1e-9))}, "
          f"{bool(np.all(trace.norm2 <= trace.upper + 1e-9))}")

    scales = [0.1, 1.0, 10.0]
    runs = [transformed_run(fake.X, fake.Y, fake.wfake, fake.bfake, scale=lam)
            for lam in scales]
    print("normalization x -> lambda x (Exercise 1.29), with bias, same dataset:")
    print("  lambda   updates   optimal bound")
    for lam, r in zip(scales, runs):
        print(f"  {lam:6.1f}  {r.updates:8d}  {r.optimal_bound:14.0f}")
    return paths
