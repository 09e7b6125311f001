"""Figures of multiclass.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.axes import Axes

from ..core import _checks
from ..core._convert import as_numpy
from ..core._validation import Rule, class_labels, validate_params
from ..core.rosenblatt.multiclass import BinaryErrorRates, MulticlassModel
from ._rules import text

#: The fix a message about a confusion matrix names.
_FIX = "use confusion_matrix(y_true, y_pred, classes)"


def _matrix(M, name, args) -> np.ndarray:
    """``M``: square counts (whole numbers >= 0, not all 0), one row per class."""
    k, Mn, fix = len(args["classes"]), _checks.to_numpy(M, name), _FIX
    if Mn.shape != (k, k):
        raise ValueError(f"{name} must be square with one row per class ({k} classes), got "
                         f"shape {Mn.shape}; {fix}")
    if not np.issubdtype(Mn.dtype, np.number) or np.issubdtype(Mn.dtype, np.complexfloating):
        raise TypeError(f"{name} must hold counts (numbers), got dtype {Mn.dtype}; {fix}")
    bad = ~np.isfinite(Mn) | (Mn < 0) | (Mn != np.round(Mn))
    if np.any(bad):
        i, j = np.argwhere(bad)[0]
        raise ValueError(f"{name} must hold counts (whole numbers >= 0), got {name}[{i}, {j}] "
                         f"= {Mn[i, j]!r}; {fix}")
    if not Mn.any():
        raise ValueError(f"{name} holds no example (every count is 0): nothing to draw; pass the "
                         f"counts of a non-empty test set")
    return Mn.astype(np.int64)


def plot_binary_error_rates(model: MulticlassModel, rates: BinaryErrorRates | dict,
                            ax=None) -> Axes:
    """Miss and false-alarm rates of each one-vs-all perceptron, side by side.

    ``rates`` is :func:`binary_error_rates` of ``model`` (or the dict it used to be).
    """
    ax = ax if ax is not None else plt.subplots(figsize=(6, 4))[1]
    k = np.arange(len(rates["miss"]))
    ax.bar(k - 0.2, rates["miss"], width=0.4, label="miss rate (positive scored <= 0)")
    ax.bar(k + 0.2, rates["false alarm"], width=0.4, label="false-alarm rate (negative > 0)")
    ax.set_xticks(k, [str(c) for c in model.classes[model.pairs[:, 0]]])
    ax.set_xlabel("class k of the perceptron 'k or not'")
    ax.set_ylabel("rate on the test set")
    ax.set_title(f"{model.scheme}: imbalance (positives {model.positive_share.mean():.0%})",
                 fontsize=10)
    ax.legend(fontsize=10)
    return ax


@validate_params(classes=class_labels(of=None), title=text,
                 M=Rule(_matrix, "square counts, one row per class", ("classes",)))
def plot_confusion_matrix(M, classes, ax=None, *, title: str = "") -> Axes:
    """The confusion matrix as an image with its counts; the diagonal holds the hits.

    ``classes`` labels the rows and columns of ``M``, one each (e.g. ``model.classes``).
    """
    M, classes = as_numpy(M).astype(np.int64), as_numpy(classes).tolist()
    ax = ax if ax is not None else plt.subplots(figsize=(5, 5))[1]
    ax.imshow(M, cmap="Blues")
    for i in range(M.shape[0]):
        for j in range(M.shape[1]):
            if M[i, j]:
                ax.text(j, i, str(M[i, j]), ha="center", va="center", fontsize=7,
                        color="white" if M[i, j] > M.max() / 2 else "black")
    ticks = np.arange(len(classes))
    ax.set_xticks(ticks, [str(c) for c in classes])
    ax.set_yticks(ticks, [str(c) for c in classes])
    ax.set_xlabel("predicted")
    ax.set_ylabel("true")
    accuracy = np.trace(M) / M.sum()
    ax.set_title(f"{title}  (accuracy {accuracy:.3f})".strip(), fontsize=10)
    return ax
