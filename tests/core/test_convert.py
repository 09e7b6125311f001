"""The one-line conversions a public body starts with (``core/_convert.py``): each gives, on
what its rule accepts, the value the rule used to hand the body (the same numbers, dtype and
type), so a body that converts its own arguments computes what it computed before."""

from __future__ import annotations

import re

import numpy as np
import pytest
from mxnet import nd

from gluon_perceptron.core import _validation as rule
from gluon_perceptron.core._convert import (
    as_counts,
    as_features,
    as_labels,
    as_numpy,
    as_progress,
    as_scalar,
    as_seeds,
    as_values,
    as_vector,
)

X64 = np.array([[1.0, -2.0], [0.5, 3.0], [-1.0, 0.0]])


def _same(a, b) -> None:
    """Equal numbers, one dtype and one type."""
    assert type(a) is type(b)
    if isinstance(a, np.ndarray):
        assert a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b)
    else:
        assert a == b


@pytest.mark.parametrize("X", [X64, X64.astype(np.float32), X64.astype(np.int64), X64.tolist(),
                               nd.array(X64, dtype="float32"), nd.array(X64, dtype="float64")],
                         ids=["float64", "float32", "int64", "list", "nd-float32", "nd-float64"])
def test_as_features_is_what_the_rule_gave(X):
    _same(as_features(X), rule.features()(X, "X", {}))
    _same(as_features(X, dtype=np.float64), rule.features(dtype=np.float64)(X, "X", {}))
    assert as_features(X).dtype in (np.float32, np.float64)


@pytest.mark.parametrize("Y", [[1, -1, 1], np.array([[1.0], [-1.0], [1.0]]),
                               np.array([1, -1, 1], dtype=np.int8), nd.array([1.0, -1.0, 1.0])],
                         ids=["list", "column", "int8", "ndarray"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_as_labels_follows_the_dtype_of_x_as_the_rule_did(Y, dtype):
    X = X64.astype(dtype)
    got = as_labels(Y, like=X)
    _same(got, rule.labels(of="X")(Y, "Y", {"X": X}))
    assert got.dtype == dtype and got.shape == (3,)
    _same(as_labels(Y), rule.labels(of=None)(Y, "Y", {}))
    assert as_labels(Y).dtype == np.float64


@pytest.mark.parametrize("v", [[1, 2], np.array([[1.0], [2.0]]), np.array([[1.0, 2.0]]),
                               np.array([1.0, 2.0], dtype=np.float32), nd.array([1.0, 2.0])],
                         ids=["list", "column", "row", "float32", "ndarray"])
def test_as_vector_is_what_the_rule_gave(v):
    _same(as_vector(v), rule.vector()(v, "w", {}))
    assert as_vector(v).shape == (2,)
    assert as_vector(v, like=np.zeros(1, dtype=np.float32)).dtype == np.float32


def test_as_values_as_seeds_and_as_counts_are_what_the_rules_gave():
    for values in ([0.1, 2], (1, 3), np.array([[0.5], [1.5]], dtype=np.float32)):
        _same(as_values(values), rule.finite_values()(values, "epsilons", {}))
    assert as_values(np.array([[1, 2], [3, 4]])).tolist() == [1.0, 2.0, 3.0, 4.0]  # trusted
    for table in (np.ones((2, 2)), np.ones((1, 2, 1)), [[0.1, 0.2], [0.3, 0.4]]):
        shape = np.shape(table)
        with pytest.raises(ValueError, match=r"epsilons .* got shape " + re.escape(f"{shape}")):
            rule.finite_values()(table, "epsilons", {})
    for seeds in (3, np.int64(2), [5, np.int64(7)], range(4, 6)):
        _same(as_seeds(seeds), rule.seeds()(seeds, "seeds", {}))
    assert as_seeds(3) == [0, 1, 2] and as_seeds((9, 4)) == [9, 4]
    for counts in ([1, 2], (np.int64(4),), np.array([3, 5])):
        _same(as_counts(counts), rule.counts()(counts, "workers", {}))
        assert all(type(c) is int for c in as_counts(counts))


def test_as_progress_reads_the_old_booleans_as_none():
    assert as_progress(True) is None and as_progress(np.bool_(False)) is None
    assert as_progress(None) is None and as_progress(print) is print
    for value in (True, False, None, print):
        assert as_progress(value) is rule.progress()(value, "progress", {})


@pytest.mark.parametrize("y", [1, -1.0, np.int64(-1), np.array([1.0]), nd.array([-1.0]),
                               np.array([[1]])])
def test_as_scalar_of_a_label_is_what_the_rule_gave(y):
    _same(as_scalar(y), rule.label()(y, "y", {}))
    assert type(as_scalar(y)) is float


@pytest.mark.parametrize("b", [0.5, 2, np.float32(0.25), np.array([1.5]), nd.array([-0.5]),
                               nd.zeros(1)])
def test_as_scalar_is_what_the_rule_gave(b):
    _same(as_scalar(b), rule.scalar()(b, "b", {}))
    assert type(as_scalar(b)) is float


def test_as_numpy_reads_ndarrays_and_leaves_numpy_arrays_alone():
    assert as_numpy(X64) is X64
    got = as_numpy(nd.array(X64, dtype="float64"))
    assert isinstance(got, np.ndarray) and got.dtype == np.float64 and np.array_equal(got, X64)
    assert as_numpy([[1, 2]]).shape == (1, 2)


def test_conversions_of_converted_values_change_nothing():
    """The package's own calls pass what a conversion returns: converting again is a no-op
    that copies nothing (the same array, or a view of it)."""
    X = as_features(X64.astype(np.float32))
    assert as_features(X) is X
    Y = as_labels([1, -1, 1], like=X)
    w, values = as_vector(np.ones(2)), as_values([1.0, 2.0])
    for converted, again in ((Y, as_labels(Y, like=X)), (w, as_vector(w)),
                             (values, as_values(values))):
        assert np.shares_memory(converted, again) and converted.dtype == again.dtype
