"""The argument rules the figures share (see :mod:`..core._validation`): where to draw, the
data drawn, a title.

A figure takes the package's result objects as they are, without rules: they were checked
where the user's input entered. A figure declares rules (``@validate_params``) only for what a
user passes it directly: data, numbers, a title, where to draw.
"""

from __future__ import annotations

import numpy as np
from matplotlib.axes import Axes

from ..core import _checks
from ..core._validation import Rule, labels, optional

__all__ = ["ax_rule", "axes_grid", "plane_features", "plane_labels", "text", "title"]


def _ax(value, name: str, args: dict):
    if value is not None and not isinstance(value, Axes):
        raise TypeError(f"{name} must be None (a new figure) or a matplotlib Axes, e.g. "
                        f"plt.subplots()[1], got {type(value).__name__} {value!r:.40}")
    return value


#: ``ax``: None (the function makes a figure) or a matplotlib Axes.
ax_rule = Rule(_ax, "ax_rule")


def axes_grid(want: tuple[int, ...]) -> Rule:
    """``axes``: None or an array (or list) of matplotlib Axes of shape ``want``, returned as
    given."""
    def check(value, name, args):
        if value is None:
            return None
        try:
            grid = np.asarray(value, dtype=object)
        except ValueError:  # a ragged list
            grid = None
        if grid is None or grid.shape != want or not all(isinstance(a, Axes) for a in grid.flat):
            rows = ", ".join(map(str, want))
            raise TypeError(f"{name} must be None (a new figure) or an array of matplotlib "
                            f"Axes of shape ({rows}{',' if len(want) == 1 else ''}), e.g. "
                            f"plt.subplots({rows})[1], got {type(value).__name__} "
                            f"{value!r:.60}")
        return value
    return Rule(check, f"axes_grid({want!r})")


def _plane_features(value, name, args):
    Xn = _checks.features(value, name)
    if Xn.shape[1] < 2:
        raise ValueError(f"{name} must have at least 2 features to draw boundaries in the "
                         f"plane, got {Xn.shape[1]}")
    return Xn


def plane_features(message: str | None = None) -> Rule:
    """``X`` with at least 2 features (the plane drawn); ``message`` (with ``{d}``, the number
    of features) replaces the default text when there are fewer."""
    if message is None:
        return Rule(_plane_features, "plane_features()")

    def check(value, name, args):
        Xn = _checks.features(value, name)
        if Xn.shape[1] < 2:
            raise ValueError(message.format(d=Xn.shape[1]))
        return Xn
    return Rule(check, f"plane_features({message!r:.30})")


#: ``Y``: the labels of ``X``, -1 or +1.
plane_labels = labels(of="X")


def _text(value, name, args):
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a string, got {type(value).__name__} {value!r:.40}")
    return value


#: A string (a title, a label).
text = Rule(_text, "text()")
#: None or a string.
title = optional(text)
