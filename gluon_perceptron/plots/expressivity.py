"""Figures of expressivity: the loss surface.
"""

from __future__ import annotations

import math

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.axes import Axes
from matplotlib.ticker import MaxNLocator

from ..core import _checks
from ..core._convert import as_features, as_labels
from ..core._validation import Rule, labels, optional, shaped, unchecked, validate_params
from ..core.rosenblatt.traced import UpdatePath
from ..core.theory.expressivity import total_perceptron_loss, two_point_data

#: Most level sets drawn (on a wide square they are spaced out, not all of 1, 2, 3, ...).
MAX_LEVELS = 40


def _surface_data(Y, name, args):
    """``Y`` with ``X``, or neither (the default two-point data)."""
    if (args["X"] is None) != (Y is None):
        raise ValueError("pass both X and Y, or neither (for the default two-point data); "
                         f"got only {'Y' if args['X'] is None else 'X'}")
    return None if Y is None else labels()(Y, name, args)


def _extent(extent, name, args):
    """``extent`` > 0 such that the losses over the square fit float64."""
    extent = _checks.finite_float(extent, name, strictly_positive=True)
    with np.errstate(over="ignore"):
        total = float(np.abs(two_point_data()[0] if args["X"] is None else args["X"]).sum(
            dtype=np.float64))
    if not math.isfinite(2.0 * extent * max(1.0, total)):  # bounds the grid and its losses
        raise ValueError(f"plot_loss_surface overflowed: extent={extent:g} and X (sum of |x| "
                         f"{total:.3g}) give losses beyond float64 over the square "
                         f"[-extent, extent]^2; use a smaller extent or rescale X")
    return extent


@validate_params(X=optional(shaped(columns=2, why="the loss surface is drawn over 2 weights")),
                 Y=Rule(_surface_data, "labels of X, or None", ("X",)), path=unchecked,
                 extent=Rule(_extent, "extent > 0, losses in float64", ("X",)))
def plot_loss_surface(X=None, Y=None, *, path: UpdatePath | None = None, extent: float = 4.0,
                      ax=None) -> Axes:
    """The zero-loss region shaded, level sets 1, 2, ..., and a perceptron's path on top.

    Defaults to :func:`two_point_data`. ``path`` is a homogeneous run on the same data, e.g.
    ``update_path(X, Y, max_epochs=100, bias=False)``; without one only the surface is drawn
    (a figure trains nothing).
    """
    X, Y = two_point_data() if X is None else (as_features(X), Y)
    Y, extent = as_labels(Y, like=X), float(extent)
    if ax is None:
        _, ax = plt.subplots(figsize=(5.5, 5))
    grid = np.linspace(-extent, extent, 401)
    W = np.stack(np.meshgrid(grid, grid), axis=-1)
    L = total_perceptron_loss(W, X, Y)
    ax.contourf(grid, grid, (L == 0).astype(float), levels=[0.5, 1.5], colors=["#cfe8cf"])
    # the level sets 1, 2, 3, ...; on a wide square, at most MAX_LEVELS of them, evenly spaced
    levels = np.asarray(MaxNLocator(nbins=MAX_LEVELS, integer=True).tick_values(
        1.0, max(L.max(), 1.0)))
    levels = levels[(levels >= 1) & (levels <= L.max())]
    cs = ax.contour(grid, grid, L, levels=levels, colors="gray", linewidths=0.7)
    ax.clabel(cs, levels[:6], inline=True, fontsize=7)
    if path is not None:
        ax.plot(path.thetas[:, 0], path.thetas[:, 1], "o-", color="C3", ms=4,
                label=f"perceptron from w = 0 ({path.updates} updates)")
        ax.plot(*path.thetas[-1], "*", color="k", ms=12, label="final w")
        ax.legend(fontsize=10, loc="lower left")
    ax.set_xlabel("w1")
    ax.set_ylabel("w2")
    ax.set_aspect("equal")
    return ax
