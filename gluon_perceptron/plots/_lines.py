"""The decision boundary as a line: the one place a figure draws :math:`w^\\top x + b = 0`."""

from __future__ import annotations

import numpy as np


def draw_boundary(ax, w, b: float, extent: float, **style):
    """Draw the line :math:`w^\\top x + b = 0` across the square ``[-extent, extent]^2``.

    Solves for the coordinate with the larger weight, so steep lines are drawn too. Draws
    nothing when :math:`w = 0` (no boundary). ``w`` is a numpy array or an NDArray (a
    generating plane's ``wfake``). Returns the line, or None.
    """
    w = np.asarray(w.asnumpy() if hasattr(w, "asnumpy") else w, dtype=np.float64).reshape(-1)
    if not np.any(w):
        return None
    s = np.linspace(-extent, extent, 2)
    if abs(w[1]) >= abs(w[0]):
        (line,) = ax.plot(s, -(w[0] * s + b) / w[1], **style)
    else:
        (line,) = ax.plot(-(w[1] * s + b) / w[0], s, **style)
    return line


def label_axes(ax, xlabel: str, ylabel: str, *, log_y: bool = False, legend: int | None = 10):
    """Name both axes, optionally put y on a log scale, and add a legend of that font size."""
    if log_y:
        ax.set_yscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if legend is not None:
        ax.legend(fontsize=legend)
    return ax
