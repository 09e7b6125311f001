"""Main-job section: the perceptron's family (passive-aggressive, voted, ALMA) against its
theory."""

from __future__ import annotations

import functools

import matplotlib.pyplot as plt
import numpy as np
from tqdm import tqdm

from ...experiments.family import (
    alma_margin_experiment,
    heldout_predictors_experiment,
    pa_bounds_experiment,
    voted_bound_experiment,
)
from ...plots.family import plot_alma_margins, plot_heldout_predictors, plot_pa_bounds
from ..figures import save_figure

#: What this section runs smaller than its notebook, so that the main job takes seconds.
SMALLER_THAN_THE_BOOK = (
    "20 draws of each experiment (notebook 14: 30 for the bounds, 40 for the frequencies)",
)


def family_section(opts) -> list:
    """PA's mistake bounds, the voted perceptron's bound against its test error, ALMA's
    margin against the optimal one, and last/averaged/voted held-out errors (20 draws each)."""
    progress = functools.partial(tqdm, disable=not opts.progress)
    pa = pa_bounds_experiment(draws=20, seed=opts.seed, progress=progress)
    ratios = {v: float(np.max(pa.mistakes[v] / pa.bounds[v])) for v in pa.mistakes}
    print("  PA, PA-I, PA-II: mistakes within the bound on "
          + ", ".join(f"{v} {h:.0%}" for v, h in pa.holds().items())
          + " of the draws; mistakes/bound at most "
          + ", ".join(f"{v} {r:.3f}" for v, r in ratios.items()))
    voted = voted_bound_experiment(draws=20, seed=opts.seed, progress=progress)
    print(f"  voted perceptron, one pass over {voted.samples}: mean test error "
          f"{voted.error.mean():.4f}, bound {voted.bound:.3f}")
    margins = alma_margin_experiment(draws=20, seed=opts.seed, progress=progress)
    print(f"  ALMA (alpha = {margins.alpha:g}): margin / optimal margin from "
          f"{margins.fraction.min():.2f} to {margins.fraction.max():.2f} (guaranteed "
          f"{1 - margins.alpha:g}); updates at most {margins.updates.max()} "
          f"(bound at least {margins.bound.min():.0f})")
    held = heldout_predictors_experiment(draws=20, seed=opts.seed, progress=progress)
    beats = held.beats_last()
    print(f"  held-out error, median: last {np.median(held.last):.3f}, averaged "
          f"{np.median(held.averaged):.3f}, voted {np.median(held.voted):.3f}; averaged beats "
          f"last in {beats['averaged']:.0%}, voted in {beats['voted']:.0%} of the draws")
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.5))
    plot_pa_bounds(pa, axes[0])
    plot_alma_margins(margins, axes[1])
    plot_heldout_predictors(held, axes[2])
    fig.tight_layout()
    return [save_figure(fig, opts.out, "14_family")]
