"""Figures of multiclass.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.axes import Axes

from ..core import _checks
from ..core.rosenblatt.multiclass import BinaryErrorRates, MulticlassModel


def plot_binary_error_rates(model: MulticlassModel, rates: BinaryErrorRates | dict,
                            ax=None) -> Axes:
    """Miss and false-alarm rates of each one-vs-all perceptron, side by side.

    ``rates`` is :func:`binary_error_rates` of ``model`` (or the dict it used to be).
    """
    _checks.instance(model, MulticlassModel, "model", "from train_one_vs_all(X, y)")
    ax = ax if ax is not None else plt.subplots(figsize=(6, 4))[1]
    k = np.arange(len(rates["miss"]))
    ax.bar(k - 0.2, rates["miss"], width=0.4, label="miss rate (positive scored <= 0)")
    ax.bar(k + 0.2, rates["false alarm"], width=0.4, label="false-alarm rate (negative > 0)")
    ax.set_xticks(k, [str(c) for c in model.classes[model.pairs[:, 0]]])
    ax.set_xlabel("class k of the perceptron 'k or not'")
    ax.set_ylabel("rate on the test set")
    ax.set_title(f"{model.scheme}: imbalance (positives {model.positive_share.mean():.0%})",
                 fontsize=10)
    ax.legend(fontsize=8)
    return ax


def plot_confusion_matrix(M, classes, ax=None, *, title: str = "") -> Axes:
    """The confusion matrix as an image with its counts; the diagonal holds the hits.

    ``classes`` labels the rows and columns of ``M``, one each (e.g. ``model.classes``).
    """
    wanted = "classes must be a 1-D sequence of class labels, one per row of M (e.g. model.classes)"
    if classes is None or isinstance(classes, (str, bytes, dict)) \
            or not hasattr(classes, "__len__"):
        raise ValueError(f"{wanted}, got {classes!r:.60}")
    cl = _checks.to_numpy(classes, "classes")
    if cl.ndim != 1 or cl.size == 0:
        raise ValueError(f"{wanted}, got shape {cl.shape}")
    classes = cl.tolist()
    M = _checks.to_numpy(M, "M")
    if M.ndim != 2 or M.shape[0] != M.shape[1] or M.shape[0] != len(classes):
        raise ValueError(f"M must be square with one row per class ({len(classes)} classes), "
                         f"got shape {M.shape}; use confusion_matrix(y_true, y_pred, classes)")
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
    accuracy = np.trace(M) / max(M.sum(), 1)
    ax.set_title(f"{title}  (accuracy {accuracy:.3f})".strip(), fontsize=10)
    return ax
