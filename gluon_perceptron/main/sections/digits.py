"""Main-job section: Digits: 0 or not 0."""

from __future__ import annotations

import matplotlib.pyplot as plt
from tqdm import tqdm

from ...core.datasets import digits_split, one_vs_rest
from ...experiments.digits import SLIDE_DIGITS, baselines, learning_curve
from ...plots.digits import plot_digit_weights, plot_learning_curve
from ..figures import save_figure

# --- the main job's section ----------------------------------------------------------------

def digits_section(opts) -> list:
    """The "0 or not 0" demo, its baselines and learning curve, and the weights of 0, 3, 5, 8."""
    split = digits_split(seed=opts.seed)
    curves = [learning_curve(split, d, epochs=20, averaged=d in (0, 8))
              for d in tqdm(SLIDE_DIGITS, desc="digits", disable=not opts.progress)]
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
    return paths
