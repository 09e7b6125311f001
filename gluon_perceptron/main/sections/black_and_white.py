"""Main-job section: Black & White: data that is not separable."""

from __future__ import annotations

from functools import partial

import matplotlib.pyplot as plt
import numpy as np
from tqdm import tqdm

from ...core._arrays import _split
from ...core._convert import as_seeds
from ...experiments.black_and_white import (
    LAST_ITERATE,
    _remedies_and_spread,
    broken_rules_experiment,
    nonseparable_experiment,
    order_effect,
)
from ...plots.black_and_white import (
    plot_aggressive,
    plot_boundaries,
    plot_nonseparable,
    plot_order_effect,
    plot_remedies,
    plot_remedies_over_seeds,
    plot_unguarded,
)
from ..figures import save_figure

#: What this section runs smaller than its notebook, so that the main job takes seconds
#: (printed under the section's title and kept in index.json).
SMALLER_THAN_THE_BOOK = (
    "the many-seed summary of the remedies over 12 seeds (notebook 05: 40)",
    "the norm's running maximum over 40 seeds is in notebook 05 only",
)

#: Passes used in part 1 (horizons: the first tenth, and all of them).
SECTION_EPOCHS = 300
#: Draws of the many-seed summary (each seeds MXNet with 0, 1, ...; it runs last).
SEEDS = 12  # the notebook runs 40; the main job keeps to a few seconds a section


def black_and_white_section(opts) -> list:
    """Non-separable data, broken rules and remedies: the figures and the measured numbers."""
    progress = partial(tqdm, disable=not opts.progress)
    paths = []
    part1 = nonseparable_experiment(SECTION_EPOCHS)
    data, traces, bounds = part1.data, part1.traces, part1.bounds
    xor_run = part1.xor_run
    fig, axes = plt.subplots(3, 3, figsize=(12, 9))
    plot_nonseparable(traces, axes, bounds=bounds, steps=part1.steps)
    fig.suptitle("plain perceptron on non-separable data: never converges, stays bounded")
    fig.subplots_adjust(hspace=0.45, wspace=0.3, top=0.92)
    paths.append(save_figure(fig, opts.out, "05_nonseparable"))
    print(f"part 1: plain perceptron, {SECTION_EPOCHS} passes from w = 0, b = 0 (data "
          f"separable by a line? {list(part1.separable.values())})")
    for name, res in traces.items():
        norms = np.asarray(res.history["norm"])
        first, rest = np.array_split(norms, [norms.size // 10])
        print(f"  {name:22s} updates/pass min {min(res.updates_per_epoch)}, mean "
              f"{res.updates / res.epochs:.1f}; max ||(w,b)|| first tenth {first.max():.2f}, "
              f"rest {rest.max():.2f}; theorem's bound {bounds[name]:.3g}")
    print(f"  (XOR is back at (w, b) = 0 after every pass; within a pass ||(w,b)|| reaches "
          f"{xor_run.norms.max():.2f})")

    noisy = part1.noisy
    plane = (noisy.wfake.asnumpy(), float(noisy.bfake.asscalar()))
    fig, axes = plt.subplots(1, 3, figsize=(13, 4.4))
    for ax, name in zip(axes[:2], ("20% label noise", "overlapping Gaussians")):
        extra = {"flipped": noisy.flipped, "plane": plane} if name == "20% label noise" else {}
        plot_boundaries(*data[name], traces[name].history["weights"][-8:], ax=ax, **extra)
        ax.set_title(f"{name}: boundaries after the last 8 passes", fontsize=9)
    Xx, Yx = data["XOR"]
    xor_steps = [_split(th) for th in xor_run.thetas[:4]]
    plot_boundaries(Xx, Yx, xor_steps, ax=axes[2], extent=2.0)
    axes[2].set_title("XOR: boundaries after steps 1-4 (step 4: back to 0)", fontsize=9)
    paths.append(save_figure(fig, opts.out, "05_moving_boundary"))

    part2 = broken_rules_experiment(*data["20% label noise"], max_epochs=SECTION_EPOCHS)
    plain, aggressive, unguarded = part2.plain, part2.aggressive, part2.unguarded
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.2))
    plot_aggressive(plain, aggressive, axes[:2])
    plot_unguarded(traces["20% label noise"], unguarded, axes[2])
    axes[2].set_title("20% label noise: weight norm", fontsize=10)
    fig.subplots_adjust(wspace=0.3)
    paths.append(save_figure(fig, opts.out, "05_broken_rules"))
    print(f"part 2: notes' sequence, T = {part2.sequence[0].shape[0]}: perceptron "
          f"{int(plain.mistakes.sum())} mistakes; aggressive {int(aggressive.mistakes.sum())}, "
          f"at t = {part2.aggressive_mistakes_at.tolist()}; "
          f"||theta_T|| {plain.norms[-1]:.2f} vs {aggressive.norms[-1]:.0f}")
    plain_norm = traces["20% label noise"].history["norm"][-1]
    print(f"        unguarded rule on the noisy data: ||(w,b)|| after {SECTION_EPOCHS} passes "
          f"{unguarded.history['norm'][-1]:.0f} (plain: {plain_norm:.2f})")

    # the single draw of part 3 and the many-seed summary, their step-by-step runs together
    remedies, spread = _remedies_and_spread(150, 200, as_seeds(SEEDS), 100,
                                            progress)
    fig, axes = plt.subplots(1, 2, figsize=(13, 4.6), sharey=True)
    plot_remedies(remedies, axes)
    fig.suptitle("20% label noise, 150 training / 150 held-out points")
    paths.append(save_figure(fig, opts.out, "05_remedies"))
    print(f"part 3: held-out error over the last 100 of 200 passes (Bayes {remedies.flip:.3f}, "
          f"generating plane {remedies.plane_error:.3f}, hinge LP {remedies.hinge_error:.3f})")
    for name in remedies.errors:
        stats = remedies.tail(name, 100)
        print(f"  {name:18s} mean {stats.mean:.3f}  std {stats.std:.3f}  "
              f"range {stats.spread:.3f}")
    print(f"  always answering the majority label: {remedies.majority_error:.3f} held out")

    effect = order_effect(remedies, last=100)
    fig, ax = plt.subplots(figsize=(11, 3.8))
    plot_order_effect(effect, ax)
    ax.set_title("plain perceptron, this draw: held-out error within its last 3 passes",
                 fontsize=10)
    paths.append(save_figure(fig, opts.out, "05_order_effect"))
    print(f"  why this draw: the data order ends on flipped labels ("
          f"{int(effect.flipped[-10:].sum())} of the last 10 training points); "
          f"{effect.flipped_share_of_last_updates(5):.0%} of each pass's last 5 updates are "
          f"on flipped labels; held-out error at the end of a pass {effect.end_errors.mean():.3f}"
          f", averaged over every step of a pass {effect.mean_errors.mean():.3f}")

    fig, ax = plt.subplots(figsize=(11, 4.6))
    plot_remedies_over_seeds(spread, ax)
    paths.append(save_figure(fig, opts.out, "05_remedies_over_seeds"))
    print(f"over {spread.draws} draws (seeds 0-{spread.draws - 1}), held-out error over the "
          f"last 100 passes, quartiles [25% 50% 75%]; coin flip 0.5, majority label "
          f"{_quartiles(np.percentile(spread.majority, [25, 50, 75]))}:")
    for name in spread.tail:
        print(f"  {name:18s} {_quartiles(spread.quartiles(name))}  above 0.5 in "
              f"{spread.above(name):2d}, worse than the majority label in "
              f"{spread.worse_than_majority(name):2d} of {spread.draws}")
    for name in LAST_ITERATE:
        print(f"  {name + ', shuffled':18s} {_quartiles(spread.quartiles(name, shuffled=True))}"
              f"  above 0.5 in {spread.above(name, shuffled=True):2d}, worse than the majority "
              f"label in {spread.worse_than_majority(name, shuffled=True):2d} of {spread.draws}")
    return paths


def _quartiles(q) -> str:
    return "[" + " ".join(f"{v:.3f}" for v in q) + "]"
