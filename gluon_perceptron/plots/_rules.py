"""The argument rules the figures share (see :mod:`..core._validation`): where to draw, the
data drawn, a result to draw, a title.

Every plot function declares its checks with ``@validate_params`` and these rules; its body
only draws.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from matplotlib.axes import Axes

from ..core import _checks
from ..core._validation import Rule, instance, labels, optional

__all__ = ["ax_rule", "axes_grid", "plane_features", "plane_labels", "result", "text", "title"]


def _ax(value, name: str, args: dict):
    if value is not None and not isinstance(value, Axes):
        raise TypeError(f"{name} must be None (a new figure) or a matplotlib Axes, e.g. "
                        f"plt.subplots()[1], got {type(value).__name__} {value!r:.40}")
    return value


#: ``ax``: None (the function makes a figure) or a matplotlib Axes.
ax_rule = Rule(_ax, "ax_rule")


def axes_grid(shape: tuple[int, ...] | Callable[[dict], tuple[int, ...]],
              needs: tuple[str, ...] = ()) -> Rule:
    """``axes``: None or an array (or list) of matplotlib Axes of ``shape``, returned as an
    object array; ``shape`` may be ``shape(args)`` of the arguments named in ``needs``."""
    def check(value, name, args):
        if value is None:
            return None
        want = shape(args) if callable(shape) else shape
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
        return grid
    return Rule(check, f"axes_grid({shape!r})", needs)


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


def result(cls: type | tuple[type, ...], hint: str) -> Rule:
    """The result of an experiment (an instance of ``cls``; ``hint`` says which function
    returns one)."""
    return instance(cls, hint)


def _text(value, name, args):
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a string, got {type(value).__name__} {value!r:.40}")
    return value


#: A string (a title, a label).
text = Rule(_text, "text()")
#: None or a string.
title = optional(text)
