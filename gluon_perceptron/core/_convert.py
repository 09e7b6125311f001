"""The one visible line a public body starts with: its arguments as the algorithm needs them.

A rule of :mod:`._validation` checks a user's argument and leaves it as given; the body
converts, with the functions here, e.g. ``X, Y = as_features(X), as_labels(Y, like=X)``. They
only convert, they never check: the rules have, and the package's own calls pass arrays that
are already what these return (then each is a no-op that costs a dtype comparison).
"""

from __future__ import annotations

import numbers

import numpy as np

from ._arrays import _is_ndarray

__all__ = ["as_numpy", "as_features", "as_labels", "as_vector", "as_values", "as_seeds",
           "as_counts", "as_progress", "as_scalar"]


def as_numpy(a) -> np.ndarray:
    """``a`` (an NDArray, a numpy array, a nested sequence) as a numpy array."""
    return a.asnumpy() if _is_ndarray(a) else np.asarray(a)


def as_features(X, dtype=None) -> np.ndarray:
    """``X`` as a 2-D float array: float32 and float64 keep their precision, anything else is
    float64; ``dtype``, when given, is the dtype (the rule ``features(dtype=...)``)."""
    a = as_numpy(X)
    if dtype is not None:
        return a.astype(dtype, copy=False)
    return a if a.dtype in (np.float32, np.float64) else a.astype(np.float64)


def as_labels(Y, like: np.ndarray | None = None) -> np.ndarray:
    """``Y`` as a 1-D array of -1/+1 labels in the dtype of ``like`` (the converted ``X``), or
    float64 without it."""
    return as_numpy(Y).reshape(-1).astype(np.float64 if like is None else like.dtype,
                                          copy=False)


def as_vector(v, like: np.ndarray | None = None) -> np.ndarray:
    """``v`` (shape ``(d,)``, ``(d, 1)`` or ``(1, d)``) as a 1-D float array: float32 and
    float64 keep their precision (or take ``like``'s dtype), anything else is float64."""
    a = as_numpy(v).reshape(-1)
    if like is not None:
        return a.astype(like.dtype, copy=False)
    return a if a.dtype in (np.float32, np.float64) else a.astype(np.float64)


def as_values(values) -> np.ndarray:
    """A sequence of numbers as a 1-D float64 array (the rule ``finite_values()``)."""
    return as_numpy(values).reshape(-1).astype(np.float64, copy=False)


def as_seeds(seeds) -> list[int]:
    """A count ``k`` as the seeds ``0 .. k - 1``, or a sequence of seeds as a list of ints."""
    if isinstance(seeds, numbers.Integral):
        return list(range(int(seeds)))
    return [int(s) for s in seeds]


def as_counts(values) -> list[int]:
    """A sequence of integers as a list of ints (the rule ``counts()``)."""
    return [int(v) for v in values]


def as_progress(progress):
    """None for no progress reports (the old booleans mean None), else the callable."""
    return None if isinstance(progress, (bool, np.bool_)) else progress


def as_scalar(value) -> float:
    """A number or a one-element array (e.g. an NDArray ``b``, or one label ``y``) as a
    float."""
    return float(as_numpy(value).reshape(-1)[0])
