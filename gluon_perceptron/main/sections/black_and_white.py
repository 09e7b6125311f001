"""Main-job section: Black & White: data that is not separable."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from ...core.bounds import amaldi_hauser_bound
from ...core.geometry import _split, is_separable
from ...core.variants import notes_sequence, run_online, train_aggressive
from ...experiments.black_and_white import (
    SECTION_EPOCHS,
    _nonseparable_runs,
    remedies_experiment,
    step_errors,
    tail_stats,
)
from ...plots.black_and_white import (
    plot_aggressive,
    plot_boundaries,
    plot_nonseparable,
    plot_remedies,
    plot_unguarded,
)
from ..figures import save_figure


def black_and_white_section(opts) -> list:
    """Non-separable data, broken rules and remedies: four figures and the measured numbers."""
    paths = []
    part1 = _nonseparable_runs(SECTION_EPOCHS)
    data, traces = part1["data"], part1["traces"]
    bounds = {name: amaldi_hauser_bound(*xy) for name, xy in data.items()}
    Xx, Yx = data["XOR"]
    xor_run = run_online(np.tile(Xx, (5, 1)), np.tile(Yx, 5))
    steps = {"XOR": (step_errors(xor_run, Xx, Yx), xor_run.norms, len(Yx))}
    fig, axes = plt.subplots(3, 3, figsize=(12, 9))
    plot_nonseparable(traces, axes, bounds=bounds, steps=steps)
    fig.suptitle("plain perceptron on non-separable data: never converges, stays bounded")
    fig.subplots_adjust(hspace=0.45, wspace=0.3, top=0.92)
    paths.append(save_figure(fig, opts.out, "05_nonseparable"))
    print(f"part 1: plain perceptron, {SECTION_EPOCHS} passes from w = 0, b = 0 (data "
          f"separable by a line? {[is_separable(*xy) for xy in data.values()]})")
    for name, res in traces.items():
        norms = np.asarray(res.history["norm"])
        first, rest = np.array_split(norms, [norms.size // 10])
        print(f"  {name:22s} updates/pass min {min(res.updates_per_epoch)}, mean "
              f"{res.updates / res.epochs:.1f}; max ||(w,b)|| first tenth {first.max():.2f}, "
              f"rest {rest.max():.2f}; theorem's bound {bounds[name]:.3g}")
    print(f"  (XOR is back at (w, b) = 0 after every pass; within a pass ||(w,b)|| reaches "
          f"{xor_run.norms.max():.2f})")

    fig, axes = plt.subplots(1, 3, figsize=(13, 4.4))
    for ax, name in zip(axes[:2], ("20% label noise", "overlapping Gaussians")):
        plot_boundaries(*data[name], traces[name].history["weights"][-8:], ax=ax)
        ax.set_title(f"{name}: boundaries after the last 8 passes", fontsize=9)
    xor_steps = [_split(th) for th in xor_run.thetas[:4]]
    plot_boundaries(Xx, Yx, xor_steps, ax=axes[2], extent=2.0)
    axes[2].set_title("XOR: boundaries after steps 1-4 (step 4: back to 0)", fontsize=9)
    paths.append(save_figure(fig, opts.out, "05_moving_boundary"))

    Xs, Ys = notes_sequence(2**12)
    plain, aggressive = run_online(Xs, Ys), run_online(Xs, Ys, rule="aggressive")
    noisy = data["20% label noise"]
    unguarded = train_aggressive(*noisy, max_epochs=SECTION_EPOCHS)
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.2))
    plot_aggressive(plain, aggressive, axes[:2])
    plot_unguarded(traces["20% label noise"], unguarded, axes[2])
    axes[2].set_title("20% label noise: weight norm", fontsize=10)
    fig.subplots_adjust(wspace=0.3)
    paths.append(save_figure(fig, opts.out, "05_broken_rules"))
    at = np.flatnonzero(aggressive.mistakes) + 1
    print(f"part 2: notes' sequence, T = {Xs.shape[0]}: perceptron {int(plain.mistakes.sum())} "
          f"mistakes; aggressive {int(aggressive.mistakes.sum())}, at t = {at.tolist()}; "
          f"||theta_T|| {plain.norms[-1]:.2f} vs {aggressive.norms[-1]:.0f}")
    plain_norm = traces["20% label noise"].history["norm"][-1]
    print(f"        unguarded rule on the noisy data: ||(w,b)|| after {SECTION_EPOCHS} passes "
          f"{unguarded.history['norm'][-1]:.0f} (plain: {plain_norm:.2f})")

    remedies = remedies_experiment(150, epochs=200, progress=opts.progress)
    fig, axes = plt.subplots(1, 2, figsize=(13, 4.6), sharey=True)
    plot_remedies(remedies, axes)
    fig.suptitle("20% label noise, 150 training / 150 held-out points")
    paths.append(save_figure(fig, opts.out, "05_remedies"))
    print(f"part 3: held-out error over the last 100 of 200 passes (Bayes {remedies.flip:.3f}, "
          f"generating plane {remedies.plane_error:.3f}, hinge LP {remedies.hinge_error:.3f})")
    for name, errs in remedies.errors.items():
        stats = tail_stats(errs, 100)
        print(f"  {name:18s} mean {stats.mean:.3f}  std {stats.std:.3f}  "
              f"range {stats.spread:.3f}")
    return paths
