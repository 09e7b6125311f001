"""The optimal margin from SLSQP, checked by closed forms, brute force and its KKT conditions."""

import numpy as np
import pytest
from scipy.optimize import nnls

import gluon_perceptron as gp
from gluon_perceptron.core.geometry import signed_rows


def _fibonacci_sphere(count):
    k = np.arange(count) + 0.5
    phi = np.arccos(1 - 2 * k / count)
    theta = np.pi * (1 + 5**0.5) * k
    return np.stack([np.cos(theta) * np.sin(phi), np.sin(theta) * np.sin(phi), np.cos(phi)], 1)


def test_closed_forms():
    # two symmetric points through the origin: margin 1
    X, Y = np.array([[1.0, 0.0], [-1.0, 0.0]]), np.array([1.0, -1.0])
    assert gp.optimal_margin(X, Y, bias=False).gamma == pytest.approx(1.0, abs=1e-7)
    # with bias, a_1 = (1, 1, 1), a_2 = (-1, 1, -1): the nearest point of their hull is (0,1,0)
    X, Y = np.array([[1.0, 1.0], [1.0, -1.0]]), np.array([1.0, -1.0])
    opt = gp.optimal_margin(X, Y)
    assert opt.gamma == pytest.approx(1.0, abs=1e-7)
    np.testing.assert_allclose(opt.theta, [0.0, 1.0, 0.0], atol=1e-6)
    assert opt.bound == pytest.approx(3.0, rel=1e-6)       # max ||a_i||^2 = 3
    # the adversary's basis vectors: 1/sqrt(n)
    X, Y = np.eye(9), np.where(np.arange(9) % 2, 1.0, -1.0)
    assert gp.optimal_margin(X, Y, bias=False).gamma == pytest.approx(1 / 3, rel=1e-6)


@pytest.mark.parametrize("k", range(6))
def test_optimal_margin_is_certified(seed, k):
    """All constraints met, KKT holds (theta is a non-negative mix of the support rows), no
    random perturbation does better, and a brute-force search over the sphere agrees."""
    seed(100 + k)
    fake = gp.sample_separable(60 + 40 * k, 2, 0.05 + 0.05 * k)
    opt = gp.optimal_margin(fake.X, fake.Y)
    A = signed_rows(fake.X, fake.Y)
    theta = opt.theta
    assert np.linalg.norm(theta) == pytest.approx(1.0)
    margins = A @ theta
    assert margins.min() == pytest.approx(opt.gamma) and opt.gamma > 0
    # KKT: theta = sum over support vectors of lambda_i a_i with lambda_i >= 0
    # (nnls returns lambda >= 0 by construction: the residual is what can fail)
    lam, resid = nnls(A[opt.support].T, theta)
    assert resid < 1e-6 and lam.sum() > 0
    # complementary slackness: the support vectors are exactly the points at the margin
    np.testing.assert_allclose(margins[opt.support], opt.gamma, rtol=1e-4)
    # perturbations of theta never improve the smallest margin
    rng = np.random.default_rng(k)
    for scale in (1e-1, 1e-2, 1e-4):
        P = theta + scale * rng.normal(size=(2000, 3))
        P /= np.linalg.norm(P, axis=1, keepdims=True)
        assert (P @ A.T).min(axis=1).max() <= opt.gamma + 1e-9
    # brute force over 200 000 directions: within the grid's resolution, from below
    S = _fibonacci_sphere(200_000)
    best = (S @ A.T).min(axis=1).max()
    assert best <= opt.gamma + 1e-9
    assert best >= opt.gamma - 0.02


def test_optimal_margin_beats_the_generating_plane(seed):
    seed(3)
    for d in (2, 5, 12):
        fake = gp.sample_separable(200, d, 0.1)
        opt = gp.optimal_margin(fake.X, fake.Y)
        u = gp.separator(fake.wfake, fake.bfake)
        gen = (signed_rows(fake.X, fake.Y) @ u).min() / np.linalg.norm(u)
        assert opt.gamma >= gen - 1e-9
        info = gp.generating_plane_bound(fake.X, fake.Y, fake.wfake, fake.bfake)
        assert opt.bound <= info["bound"] * (1 + 1e-9)
        run = gp.train(fake.X, fake.Y, max_epochs=10_000)
        assert run.updates <= opt.bound


def test_not_separable_is_a_clear_error():
    X, Y = gp.xor_data()
    with pytest.raises(ValueError, match="not linearly separable"):
        gp.optimal_margin(X, Y)
    with pytest.raises(ValueError, match="max_iter"):
        gp.optimal_margin(np.eye(2), np.array([1.0, -1.0]), max_iter=0)
