"""Figures of the digits demo.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.axes import Axes
from matplotlib.ticker import MaxNLocator

from ..core._convert import as_vector
from ..core._validation import such_that, unchecked, validate_params, vector
from ..core.data.real import Split
from ..experiments.digits import Baselines, LearningCurve, LearningCurves

_BASELINE_STYLES = (":", "-.", "--")


def _baselines_and_limits(ax, base, lowest: float) -> None:
    """Baselines as horizontal lines, and a y range fitted to the curves.

    The y axis starts a little below the lowest accuracy or baseline that is within 0.1 of
    the curves; a baseline further down (the coin flip's 0.5 beside curves near 0.95) is
    listed in the legend as "below the axes" instead of squashing the curves against the top.
    """
    items = list(base.items()) if base is not None else []
    shown = [value for _, value in items if value >= lowest - 0.1]
    bottom = max(0.0, min([lowest] + shown) - 0.02)
    for (name, value), style in zip(items, _BASELINE_STYLES):
        if value >= bottom:
            ax.axhline(value, color="gray", ls=style, lw=1, label=f"{name} ({value:.3f})")
        else:
            ax.plot([], [], color="gray", ls=style, lw=1,
                    label=f"{name} ({value:.3f}, below the axes)")
    ax.set_ylim(bottom, 1.0 + 0.1 * (1.0 - bottom) / 4)


#: One flattened square image (a vector whose size is a square).
_IMAGE = such_that(vector(), lambda x, _: int(round(np.sqrt(x.size))) ** 2 == x.size,
                   "{name} has {value.size} values: cannot show them as a square image (8x8 "
                   "digits have 64, MNIST 784); drop the padded constant before plotting")


def plot_learning_curve(curve: LearningCurve, base: Baselines | dict | None = None,
                        axes=None) -> np.ndarray:
    """Accuracy per epoch (left, with the baselines) and updates per epoch (right)."""
    if axes is None:
        _, axes = plt.subplots(1, 2, figsize=(7.2, 3.6))
    ax, ax_up = axes
    e = np.arange(1, curve.epochs + 1)
    ax.plot(e, curve.train_accuracy, "o-", ms=3, color="C0", label="perceptron: train")
    ax.plot(e, curve.test_accuracy, "s-", ms=3, color="C1", label="perceptron: test")
    if curve.averaged_test_accuracy.size:
        ea = np.arange(1, curve.averaged_test_accuracy.size + 1)
        ax.plot(ea, curve.averaged_train_accuracy, "o--", ms=3, color="C0", alpha=0.6,
                label="averaged: train")
        ax.plot(ea, curve.averaged_test_accuracy, "s--", ms=3, color="C1", alpha=0.6,
                label="averaged: test")
    accuracies = [curve.train_accuracy, curve.test_accuracy, curve.averaged_train_accuracy,
                  curve.averaged_test_accuracy]
    _baselines_and_limits(ax, base, float(min(np.min(a) for a in accuracies if a.size)))
    ax.set_xlabel("epoch")
    ax.set_ylabel("accuracy")
    ax.set_title(f'"{curve.digit} or not {curve.digit}": accuracy after each epoch')
    ax.legend(fontsize=10, loc="lower right")
    ax_up.bar(e, curve.updates, color="C2")
    ax_up.set_xlabel("epoch")
    ax_up.set_ylabel("updates (mistakes) in the epoch")
    clean = np.flatnonzero(curve.updates == 0)
    ax_up.set_title("updates per epoch: never 0,\nthe training set is never separated"
                    if clean.size == 0 else f"updates per epoch: 0 from epoch {clean[0] + 1} on,"
                    f"\nthe training set is separated", fontsize=10)
    for a in axes:
        a.xaxis.set_major_locator(MaxNLocator(integer=True))
    return axes


@validate_params(x=_IMAGE)
def plot_digit(x, ax=None, *, title: str | None = None) -> Axes:
    """One flattened image, ink dark on white."""
    x = as_vector(x)
    side = int(round(np.sqrt(x.size)))
    ax = ax if ax is not None else plt.subplots(figsize=(3, 3))[1]
    ax.imshow(x.reshape(side, side), cmap="gray_r")
    ax.set_xticks([])
    ax.set_yticks([])
    if title:
        ax.set_title(title, fontsize=10)
    return ax


@validate_params(w=_IMAGE)
def plot_weights(w, ax=None, *, title: str | None = None) -> Axes:
    """Pixel weights as an image: red where ink counts for the class, blue where against it.

    The colour scale is symmetric around 0, so white means "this pixel does not matter".
    """
    w = as_vector(w)
    side = int(round(np.sqrt(w.size)))
    ax = ax if ax is not None else plt.subplots(figsize=(3, 3))[1]
    scale = float(np.max(np.abs(w))) or 1.0
    image = ax.imshow(w.reshape(side, side), cmap="RdBu_r", vmin=-scale, vmax=scale)
    plt.colorbar(image, ax=ax, fraction=0.046, pad=0.04)
    ax.set_xticks([])
    ax.set_yticks([])
    if title:
        ax.set_title(title, fontsize=10)
    return ax


def plot_digit_weights(split: Split, curves: list[LearningCurve], axes=None) -> np.ndarray:
    """For each curve: an example of its digit (top row) and the learned weights (bottom)."""
    if axes is None:
        _, axes = plt.subplots(2, len(curves), figsize=(2.2 * len(curves), 4.6), squeeze=False)
    for k, curve in enumerate(curves):
        example = split.X_train[np.flatnonzero(split.y_train == curve.digit)[0]]
        plot_digit(example.astype(np.float64), axes[0][k],
                   title=f"a training image\nof {curve.digit}")
        plot_weights(np.asarray(curve.w, dtype=np.float64).reshape(-1), axes[1][k],
                     title=f'weights, "{curve.digit} or not"\n'
                     f"test accuracy {curve.test_accuracy[-1]:.3f}")
    return axes


# digit: the body's curves.of(digit) names a digit that was not measured
@validate_params(curves=unchecked, digit=unchecked)
def plot_learning_curves(curves: LearningCurves, digit: int, ax=None) -> Axes:
    """Test accuracy after each epoch on every split (thin lines), with the majority baseline.

    One line per split of :func:`learning_curves`; the band is the range of the majority
    baseline over the splits. Shows how much of one curve is the split's luck.
    """
    k = curves.of(digit)
    ax = ax if ax is not None else plt.subplots(figsize=(6, 4))[1]
    e = np.arange(1, curves.epochs + 1)
    for s in range(len(curves.seeds)):
        ax.plot(e, curves.test_accuracy[s, k], color="C1", lw=0.8, alpha=0.5,
                label="perceptron: test, one line per split" if s == 0 else None)
    averaged = curves.averaged_test_accuracy[:, k]
    measured = np.isfinite(averaged).any(axis=0)  # NaN after every split's run separated
    if measured.any():
        ax.plot(e[measured], np.nanmedian(averaged[:, measured], axis=0), "--", color="C0",
                label="averaged perceptron: median over the splits")
    majority = curves.majority[:, k]
    ax.axhspan(majority.min(), majority.max(), color="gray", alpha=0.3,
               label=f"majority baseline ({majority.min():.3f} to {majority.max():.3f})")
    low = min(float(np.min(curves.test_accuracy[:, k])), float(majority.min()))
    ax.set_ylim(max(0.0, low - 0.02), 1.0 + 0.1 * (1.0 - low) / 4)
    ax.set_xlabel("epoch")
    ax.set_ylabel("test accuracy")
    ax.set_title(f'"{digit} or not {digit}" on {len(curves.seeds)} splits '
                 f"({curves.side}x{curves.side} {curves.source})", fontsize=10)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.legend(fontsize=10, loc="lower right")
    return ax
