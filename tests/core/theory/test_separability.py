"""core/theory/separability.py: the hinge-loss separator's arguments."""

import numpy as np
import pytest

import gluon_perceptron as gp


def test_hinge_separator_needs_a_positive_threshold():
    # with threshold 0, theta = 0 is optimal on any data: XOR would read "loss 0, separable"
    X = np.array([[0.0, 0.0], [1.0, 1.0], [0.0, 1.0], [1.0, 0.0]])
    Y = np.array([-1.0, -1.0, 1.0, 1.0])
    assert gp.theory.hinge_separator(X, Y)[2] > 0  # XOR is not separable
    with pytest.raises(ValueError, match="threshold must be > 0"):
        gp.theory.hinge_separator(X, Y, threshold=0.0)
