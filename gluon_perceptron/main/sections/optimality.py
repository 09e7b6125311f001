"""Main-job section: Optimality and generalization."""

from __future__ import annotations

from functools import partial

import matplotlib.pyplot as plt
import numpy as np
from tqdm import tqdm

from ...experiments.optimality import adversary_curve, generalization_curve
from ...plots.optimality import plot_adversary, plot_generalization_curve
from ..figures import save_figure

#: What this section runs smaller than its notebook, so that the main job takes seconds
#: (printed under the section's title and kept in index.json).
SMALLER_THAN_THE_BOOK = (
    "leave-one-out against a fresh test set over 20 draws for N up to 200 (notebook 07: 100 "
    "draws, N up to 400)",
)


def optimality_section(opts) -> list:
    """Theorem 1.34's adversary against the perceptron; the leave-one-out bound."""
    gammas = np.array([0.5, 0.3, 0.2, 0.15, 0.1, 0.07, 0.05])
    dims = 100
    adversary = adversary_curve(gammas, dims)
    print(f"adversary (d = {dims}): forced mistakes {adversary.forced.tolist()}, "
          f"min(1/gamma^2, d) = {adversary.limit.tolist()}")
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    plot_adversary(adversary, axes[0])
    sizes = [25, 50, 100, 200]
    curve = generalization_curve(sizes, 20, epsilon=0.5,
                                 progress=partial(tqdm, disable=not opts.progress))
    plot_generalization_curve(curve, axes[1])
    print(" N    leave-one-out  fresh-test   bound")
    for n, s in zip(sizes, curve.runs):
        print(f" {n:3d}  {s.loo.mean():13.4f}  {s.test.mean():10.4f}  "
              f"{s.bound.mean():6.3f}")
    print(f" (N+1) x bound = E[R_a^2/gamma_2^2]: {np.round(curve.scaled('bound'), 1).tolist()} "
          f"(+- {np.round((curve.sizes + 1) * curve.sems('bound'), 1).tolist()}, "
          f"standard errors over {curve.runs[0].draws} draws)")
    return [save_figure(fig, opts.out, "07_optimality_generalization")]
