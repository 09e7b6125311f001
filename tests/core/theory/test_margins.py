"""The optimal margin from SLSQP, checked by closed forms, brute force and its KKT conditions."""

import numpy as np
import pytest
from scipy.optimize import nnls

import gluon_perceptron as gp
from gluon_perceptron.core.theory.separability import signed_rows


def _fibonacci_sphere(count):
    k = np.arange(count) + 0.5
    phi = np.arccos(1 - 2 * k / count)
    theta = np.pi * (1 + 5**0.5) * k
    return np.stack([np.cos(theta) * np.sin(phi), np.sin(theta) * np.sin(phi), np.cos(phi)], 1)


def _best_direction(S, A, rows):
    """``(S @ A.T).min(axis=1).max()``, the best smallest margin over the directions ``S``,
    without the full (directions x examples) product: the smallest margin over some ``rows``
    of ``A`` is an upper bound of each direction's, so a direction whose bound is below the
    true margin of one direction cannot be the best, and only the others are computed in full.
    The same maximum whichever rows are given (to the last bit of a 3-term dot product: BLAS
    may sum a smaller product in another order), at a tenth of the cost."""
    upper = (S @ A[rows].T).min(axis=1)
    reached = (S[np.argmax(upper)] @ A.T).min()  # one direction's true smallest margin
    candidates = S[upper >= reached]
    return (candidates @ A.T).min(axis=1).max()


def test_closed_forms():
    # two symmetric points through the origin: margin 1
    X, Y = np.array([[1.0, 0.0], [-1.0, 0.0]]), np.array([1.0, -1.0])
    assert gp.theory.optimal_margin(X, Y, bias=False).gamma == pytest.approx(1.0, abs=1e-7)
    # with bias, a_1 = (1, 1, 1), a_2 = (-1, 1, -1): the nearest point of their hull is (0,1,0)
    X, Y = np.array([[1.0, 1.0], [1.0, -1.0]]), np.array([1.0, -1.0])
    opt = gp.theory.optimal_margin(X, Y)
    assert opt.gamma == pytest.approx(1.0, abs=1e-7)
    np.testing.assert_allclose(opt.theta, [0.0, 1.0, 0.0], atol=1e-6)
    assert opt.bound == pytest.approx(3.0, rel=1e-6)       # max ||a_i||^2 = 3
    # the adversary's basis vectors: 1/sqrt(n)
    X, Y = np.eye(9), np.where(np.arange(9) % 2, 1.0, -1.0)
    assert gp.theory.optimal_margin(X, Y, bias=False).gamma == pytest.approx(1 / 3, rel=1e-6)


@pytest.mark.parametrize("k", range(6))
def test_optimal_margin_is_certified(seed, k):
    """All constraints met, KKT holds (theta is a non-negative mix of the support rows), no
    random perturbation does better, and a brute-force search over the sphere agrees."""
    seed(100 + k)
    fake = gp.sample_separable(60 + 40 * k, 2, 0.05 + 0.05 * k)
    opt = gp.theory.optimal_margin(fake.X, fake.Y)
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
    best = _best_direction(_fibonacci_sphere(200_000), A, opt.support)
    assert best <= opt.gamma + 1e-9
    assert best >= opt.gamma - 0.02


def test_optimal_margin_beats_the_generating_plane(seed):
    seed(3)
    for d in (2, 5, 12):
        fake = gp.sample_separable(200, d, 0.1)
        opt = gp.theory.optimal_margin(fake.X, fake.Y)
        u = gp.theory.separator(fake.wfake, fake.bfake)
        gen = (signed_rows(fake.X, fake.Y) @ u).min() / np.linalg.norm(u)
        assert opt.gamma >= gen - 1e-9
        info = gp.theory.generating_plane_bound(fake.X, fake.Y, fake.wfake, fake.bfake)
        assert opt.bound <= info["bound"] * (1 + 1e-9)
        run = gp.train(fake.X, fake.Y, max_epochs=10_000)
        assert run.updates <= opt.bound


def test_not_separable_is_a_clear_error():
    X, Y = gp.xor_data()
    with pytest.raises(ValueError, match="not linearly separable"):
        gp.theory.optimal_margin(X, Y)
    with pytest.raises(ValueError, match="max_iter"):
        gp.theory.optimal_margin(np.eye(2), np.array([1.0, -1.0]), max_iter=0)


# --- the solver: certified on real and badly scaled data, both margins ---------------------


def _small_margin_data(n, d, margin, seed):
    """``n`` points in ``d`` dimensions, none closer than ``margin`` to a plane with bias 0.3
    (neither through the origin nor balanced: the bias matters)."""
    rng = np.random.default_rng(seed)
    w = rng.normal(size=d)
    w /= np.linalg.norm(w)
    X = rng.normal(size=(6 * n, d))
    f = X @ w + 0.3
    keep = np.abs(f) > margin
    return X[keep][:n], np.sign(f[keep][:n]), w


def _check_kkt(X, Y, opt):
    """Independent KKT check of a result: constraints met, support at the margin, and theta a
    non-negative mix of the support rows (with the SVM's free bias: of the rows without the
    bias input, with balanced multipliers)."""
    A = signed_rows(X, Y, bias=opt.bias)
    margins = A @ opt.theta
    assert margins.min() == pytest.approx(opt.gamma, rel=1e-9)
    assert opt.kkt_residual <= 1e-9
    np.testing.assert_allclose(margins[opt.support], opt.gamma, rtol=1e-6)
    if opt.margin == "svm" and opt.bias:
        E = np.vstack([A[opt.support, :-1].T, 100.0 * Y[opt.support]])
        lam, resid = nnls(E, np.append(opt.w, 0.0))
    else:
        lam, resid = nnls(A[opt.support].T, opt.theta)
    assert resid < 1e-6 * np.linalg.norm(opt.theta) and lam.sum() > 0


@pytest.mark.parametrize("n, d, margin", [(300, 20, 1e-3), (500, 40, 1e-3), (200, 10, 3e-2)])
def test_small_margins_in_tens_of_dimensions(n, d, margin):
    X, Y, w = _small_margin_data(n, d, margin, seed=n + d)
    for kind in ("perceptron", "svm"):
        opt = gp.theory.optimal_margin(X, Y, margin=kind)
        _check_kkt(X, Y, opt)
        # never worse than the generating plane, normalised the same way
        u = np.append(w, 0.3)
        gen = (Y * (X @ w + 0.3)).min() / np.linalg.norm(u if kind == "perceptron" else w)
        assert opt.gamma >= gen * (1 - 1e-9)
    opt = gp.theory.optimal_margin(X, Y)
    assert opt.bound <= gp.theory.optimal_margin(X, Y, margin="svm").bound * (1 + 1e-9)


def test_real_digits_pairs(split):
    """scikit-learn's digits, 0 against 1 and 3 against 8 (about 360 x 64): separable, solved,
    certified; the SVM margin is at least the whole-vector one (its norm ignores b)."""
    from sklearn.datasets import load_digits

    X, y = load_digits(return_X_y=True)
    for a, b in [(0, 1), (3, 8)]:
        mask = (y == a) | (y == b)
        Xs, Ys = X[mask], np.where(y[mask] == a, 1.0, -1.0)
        per, svm = gp.theory.optimal_margin(Xs, Ys), gp.theory.optimal_margin(Xs, Ys, margin="svm")
        _check_kkt(Xs, Ys, per)
        _check_kkt(Xs, Ys, svm)
        assert svm.gamma >= per.gamma * (1 - 1e-9)


@pytest.mark.parametrize("scale", [1e-4, 1e-150, 1e16, 1e150])
def test_the_margin_scales_with_the_data(scale):
    """Both margins that do not depend on units scale exactly: the SVM's geometric margin and
    the homogeneous one. (The whole-(w, b) margin does not: the bias input stays 1.)"""
    X, Y, _ = _small_margin_data(200, 8, 1e-2, seed=7)
    Y0 = np.where(X[:, 0] > 0, 1.0, -1.0)  # separable through the origin
    for kind, bias, labels in (("svm", True, Y), ("perceptron", False, Y0)):
        base = gp.theory.optimal_margin(X, labels, bias=bias, margin=kind)
        big = gp.theory.optimal_margin(X * scale, labels, bias=bias, margin=kind)
        assert big.gamma == pytest.approx(scale * base.gamma, rel=1e-7)
        np.testing.assert_allclose(big.w, base.w, atol=1e-7)


def test_whole_vector_margin_small_scales():
    """Scaled down, the whole-(w, b) margin tends to scale * (the SVM margin): solved at 1e-4
    and 1e-150 (where SLSQP gave up or called the data not separable)."""
    X, Y, _ = _small_margin_data(200, 8, 1e-2, seed=8)
    svm = gp.theory.optimal_margin(X, Y, margin="svm").gamma
    for scale in (1e-4, 1e-150):
        opt = gp.theory.optimal_margin(X * scale, Y)
        assert opt.gamma / scale == pytest.approx(svm, rel=1e-4)
        assert opt.gamma <= scale * svm * (1 + 1e-9)


def test_margin_options_are_checked():
    X, Y = np.array([[1.0, 1.0], [1.0, -1.0]]), np.array([1.0, -1.0])
    with pytest.raises(TypeError, match="bias must be True or False"):
        gp.theory.optimal_margin(X, Y, bias="no")
    with pytest.raises(ValueError, match="margin must be one of"):
        gp.theory.optimal_margin(X, Y, margin="hard")
    with pytest.raises(ValueError, match="single class"):
        gp.theory.optimal_margin(X, np.ones(2), margin="svm")
    # one class is fine for the perceptron's margin: the bias alone separates
    assert gp.theory.optimal_margin(X, np.ones(2)).gamma > 0


def test_svm_closed_form():
    # two points 2 apart: the SVM plane is their bisector, margin 1, whatever their offset
    X, Y = np.array([[5.0, 3.0], [7.0, 3.0]]), np.array([-1.0, 1.0])
    opt = gp.theory.optimal_margin(X, Y, margin="svm")
    assert opt.gamma == pytest.approx(1.0, rel=1e-12)
    np.testing.assert_allclose(opt.w, [1.0, 0.0], atol=1e-12)
    assert opt.b == pytest.approx(-6.0, rel=1e-12)


@pytest.mark.parametrize("margin", [1e-3, 1e-5])
def test_margins_far_below_the_radius_are_certified(margin):
    """A margin much smaller than the radius makes w (of norm 1/gamma) and the multipliers
    large, so the certificate must be relative to them (as two_moons met with the linear
    kernel in feature space). Signed rows a_i + margin * n with sum(a_i) = 0 in the plane
    n^T x = 0 make that plane optimal (n is a positive mix of them); the rest lie far away."""
    rng = np.random.default_rng(3)
    n = np.array([0.6, 0.8, 0.0])
    e1, e2 = np.array([0.8, -0.6, 0.0]), np.array([0.0, 0.0, 1.0])
    support = 3.0 * np.array([e1, e2, -(e1 + e2)]) + margin * n
    far = rng.normal(size=(17, 3))
    far += (2.0 - np.minimum(far @ n, 0.0))[:, None] * n  # n^T z >= 2
    Z = np.vstack([support, far])
    Y = np.where(rng.random(len(Z)) < 0.5, 1.0, -1.0)
    X = Y[:, None] * Z
    opt = gp.theory.optimal_margin(X, Y, bias=False)
    assert opt.gamma == pytest.approx(margin, rel=1e-6)
    _check_kkt(X, Y, opt)


@pytest.mark.parametrize("scale", [1e4, 1e5, 1e6])
def test_whole_vector_margin_of_data_with_a_large_radius(scale):
    """Where the radius dwarfs the bias input 1, the whole-(w, b) margin needs w of norm about
    the radius: the least-distance solver loses the active set there, and Goldfarb and
    Idnani's dual active-set method (steps in theta itself) finds it; certified, and it tends
    to a limit as the data grows."""
    rng = np.random.default_rng(1)
    X = rng.normal(size=(200, 3))
    Y = np.sign(X[:, 0] + 0.5)
    opt = gp.theory.optimal_margin(X * scale, Y)
    _check_kkt(X * scale, Y, opt)
    assert opt.gamma == pytest.approx(gp.theory.optimal_margin(X * 1e3, Y).gamma, rel=1e-4)


@pytest.mark.filterwarnings("error::RuntimeWarning")  # was: numpy's overflow warnings first
def test_a_radius_beyond_double_precision_is_a_clear_error():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(200, 3))
    Y = np.sign(X[:, 0] + 0.5)
    with pytest.raises(ValueError, match="X's radius .* dwarfs the bias input 1.*standardise X"):
        gp.theory.optimal_margin(X * 1e10, Y)
    assert gp.theory.optimal_margin(X * 1e10, Y, margin="svm").gamma > 0  # that margin scales


def test_subnormal_data_is_refused_by_name():
    """Issue 20: optimal_margin(X * 1e-320, Y) gave w = [nan, nan], gamma = 0."""
    X = np.array([[1.0, 2.0], [-1.0, -1.5], [2.0, 1.0]])
    Y = np.array([1.0, -1.0, 1.0])
    with pytest.raises(ValueError, match="X's largest entry .* subnormal .* rescale X"):
        gp.theory.optimal_margin(X * 1e-320, Y)
    fit = gp.theory.optimal_margin(X * 1e-300, Y, bias=False)  # tiny but normal: scales exactly
    assert np.all(np.isfinite(fit.w)) and fit.gamma > 0


def test_shift_plane_to_origin_with_a_tiny_normal():
    """Issue 20: ||w*||**2 underflowed to 0 and the shift became inf/NaN."""
    X = np.array([[1.0, 2.0], [-1.0, -1.5]])
    shifted = gp.theory.shift_plane_to_origin(X, [1e-200, 0.0], 1.0)
    np.testing.assert_array_equal(shifted, [[1e200, 2.0], [1e200, -1.5]])
    np.testing.assert_array_equal(gp.theory.shift_plane_to_origin(X, [3.0, 4.0], 2.0),
                                  X + 2.0 * np.array([3.0, 4.0]) / 25.0)
    with pytest.raises(ValueError, match="shift_plane_to_origin overflowed"):
        gp.theory.shift_plane_to_origin(X, [1e-200, 0.0], 1e300)
