"""The argument rules the figures share (see :mod:`..core._validation`; ``ax`` and ``title``
are among its words): a pair of axes, the data drawn in the plane, a text.

A figure takes the package's result objects as they are, without rules: they were checked
where the user's input entered. A figure declares rules (``@validate_params``) only for what a
user passes it directly: data, numbers, a title, where to draw.
"""

from __future__ import annotations

import numpy as np
from matplotlib.axes import Axes

from ..core._validation import instance, shaped, such_that, unchecked

__all__ = ["axes_pair", "plane_features", "text"]


#: ``axes``: None or a pair of matplotlib Axes (an array or a list of shape ``(2,)``).
axes_pair = such_that(unchecked, lambda v, _: v is None or (
    isinstance(v, (list, tuple, np.ndarray)) and getattr(v, "ndim", 1) == 1 and len(v) == 2
    and all(isinstance(a, Axes) for a in v)), "{name} must be None (a new figure) or an array of "
    "matplotlib Axes of shape (2,), e.g. plt.subplots(1, 2)[1], got {value.__class__.__name__} "
    "{value!r:.60}", error=TypeError)


#: ``X`` with at least 2 features (the plane drawn).
plane_features = shaped(columns=2, at_least=True, why="to draw in the plane")

#: A string (a title, a label; ``title``, None or a string, is one of the package's words).
text = instance(str, "a title")
