"""Figures of expressivity: the loss surface.
"""

from __future__ import annotations

import math

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.axes import Axes
from matplotlib.ticker import MaxNLocator

from ..core import _checks
from ..core.rosenblatt.variants import UpdatePath
from ..core.theory.expressivity import total_perceptron_loss, two_point_data

#: Most level sets drawn (on a wide square they are spaced out, not all of 1, 2, 3, ...).
MAX_LEVELS = 40


def plot_loss_surface(X=None, Y=None, *, path: UpdatePath | None = None, extent: float = 4.0,
                      ax=None) -> Axes:
    """The zero-loss region shaded, level sets 1, 2, ..., and a perceptron's path on top.

    Defaults to :func:`two_point_data`. ``path`` is a homogeneous run on the same data, e.g.
    ``update_path(X, Y, max_epochs=100, bias=False)``; without one only the surface is drawn
    (a figure trains nothing).
    """
    if (X is None) != (Y is None):
        raise ValueError("pass both X and Y, or neither (for the default two-point data); "
                         f"got only {'Y' if X is None else 'X'}")
    if X is None:
        X, Y = two_point_data()
    Xn, Yn = _checks.dataset(X, Y)
    extent = _checks.finite_float(extent, "extent", strictly_positive=True)
    with np.errstate(over="ignore"):
        total = float(np.abs(Xn).sum(dtype=np.float64))
        reach = 2.0 * extent * max(1.0, total)  # bounds the grid and the losses on it
    if not math.isfinite(reach):
        raise ValueError(f"plot_loss_surface overflowed: extent={extent:g} and X (sum of |x| "
                         f"{total:.3g}) give losses beyond float64 "
                         f"over the square [-extent, extent]^2; use a smaller extent or "
                         f"rescale X")
    if path is not None:
        _checks.instance(path, UpdatePath, "path", "the result of update_path(X, Y, ...)")
    if Xn.shape[1] != 2:
        raise ValueError(f"the loss surface is drawn over 2 weights; X has {Xn.shape[1]}")
    if path is not None and path.thetas.shape[1] != 2:
        raise ValueError(f"path must be a run without bias on 2 features (2 weights), got "
                         f"{path.thetas.shape[1]} weights per step")
    if ax is None:
        _, ax = plt.subplots(figsize=(5.5, 5))
    grid = np.linspace(-extent, extent, 401)
    W = np.stack(np.meshgrid(grid, grid), axis=-1)
    L = total_perceptron_loss(W, Xn, Yn)
    ax.contourf(grid, grid, (L == 0).astype(float), levels=[0.5, 1.5], colors=["#cfe8cf"])
    # the level sets 1, 2, 3, ...; on a wide square, at most MAX_LEVELS of them, evenly spaced
    levels = MaxNLocator(nbins=MAX_LEVELS, integer=True).tick_values(1.0, max(L.max(), 1.0))
    levels = levels[(levels >= 1) & (levels <= L.max())]
    cs = ax.contour(grid, grid, L, levels=levels, colors="gray", linewidths=0.7)
    ax.clabel(cs, levels[:6], inline=True, fontsize=7)
    if path is not None:
        ax.plot(path.thetas[:, 0], path.thetas[:, 1], "o-", color="C3", ms=4,
                label=f"perceptron from w = 0 ({path.updates} updates)")
        ax.plot(*path.thetas[-1], "*", color="k", ms=12, label="final w")
        ax.legend(fontsize=8, loc="lower left")
    ax.set_xlabel("w1")
    ax.set_ylabel("w2")
    ax.set_aspect("equal")
    return ax
