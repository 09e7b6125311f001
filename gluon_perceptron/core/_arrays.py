r"""Numpy helpers every concern shares: row norms without overflow, one vector split into
:math:`(w, b)`, finiteness, and the one overflow error every trainer raises."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import numpy as np

#: The largest finite float32 and its smallest normal number, as Python floats: MXNet's own
#: arrays and rates are float32.
FLOAT32_MAX, FLOAT32_TINY = float(np.finfo(np.float32).max), float(np.finfo(np.float32).tiny)
#: The largest size a number whose square enters a bound may have: its square, times the
#: modest factors of the bounds, stays finite in float64 (whose largest number is 1.8e308).
SQUARABLE = 1e150

#: What to do about an overflow, for a trainer with a learning rate.
SCALE_OR_RATE = "Scale the data down (e.g. divide X by np.abs(X).max()) or lower the learning_rate"

#: What to do about an overflow, for a trainer without one (the step is fixed).
SCALE = "Scale the data down (e.g. divide X by np.abs(X).max())"


def _overflow(what: str, dtype=np.float64, fix: str = SCALE_OR_RATE) -> ValueError:
    """The error every trainer raises when training leaves the floating-point range; ``fix``
    says what the user can change (a trainer without a learning rate names its own knobs)."""
    top = np.finfo(dtype).max
    return ValueError(f"training overflowed: {what} became inf or NaN ({np.dtype(dtype).name} "
                      f"holds magnitudes up to {top:.3g}). {fix}")


def _is_ndarray(a) -> bool:
    """Whether ``a`` is an MXNet NDArray, asked without importing MXNet: a process that has
    not imported it holds none (a cluster's mixing worker runs without the package, seconds of
    start-up saved)."""
    mx = sys.modules.get("mxnet")
    return mx is not None and isinstance(a, mx.nd.NDArray)


def _finite(a) -> bool:
    """Whether every entry of a numpy array or an NDArray is finite."""
    values = a.asnumpy() if _is_ndarray(a) else a
    return bool(np.isfinite(values).all())


def _guard(epoch: int, *, margins: Any = 0.0, weights: Sequence = (), dtype=np.float64,
           fix: str = SCALE_OR_RATE) -> None:
    """The one overflow guard, one line in a readable loop: "training overflowed: the margins
    y (w.x + b) in pass {epoch} became inf or NaN" unless ``margins`` (a margin, or an array of
    them) is finite, then "the weights (w, b) in pass {epoch} ..." unless every array in
    ``weights`` (numpy or NDArray) is. ``fix`` ends the message: what the user can change."""
    if not _finite(margins):
        raise _overflow(f"the margins y (w.x + b) in pass {epoch}", dtype, fix)
    if not all(_finite(a) for a in weights):
        raise _overflow(f"the weights (w, b) in pass {epoch}", dtype, fix)


def _split(theta: np.ndarray) -> tuple[np.ndarray, float]:
    return theta[:-1].copy(), float(theta[-1])


def _row_norms(A: np.ndarray) -> np.ndarray:
    r""":math:`\|a_i\|` of each row of ``A`` (a vector: its norm), without overflow: each row
    is divided by its largest entry before squaring."""
    A = np.atleast_2d(np.asarray(A, dtype=np.float64))
    top = np.max(np.abs(A), axis=1)
    scale = np.where(top > 0.0, top, 1.0)
    B = A / scale[:, None]
    return top * np.sqrt(np.einsum("ij,ij->i", B, B))


def _radius(A: np.ndarray) -> float:
    r""":math:`\max_i \|a_i\|` of the rows of ``A``, without overflow for huge entries."""
    return float(np.max(_row_norms(A)))
