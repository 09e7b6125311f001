"""Beyond Rosenblatt: the kernel perceptron (dual form), the Forgetron, the second-order
perceptron, and the smooth and rescaled perceptrons on the separation problem.

Every bound is checked against measured runs on many draws (the count is in each test's
docstring); the claims of notebook 13 are checked here on the objects the experiments return.
"""

import mxnet as mx
import numpy as np
import pytest

import gluon_perceptron as gp
from gluon_perceptron.core.beyond import budget as forgetron_module
from gluon_perceptron.core.beyond import kernel_perceptron as dual
from gluon_perceptron.core.beyond import solvers
from gluon_perceptron.core.beyond.budget import forgetron_bound
from gluon_perceptron.core.beyond.second_order import second_order_bound
from gluon_perceptron.core.beyond.solvers import perceptron_separation
from gluon_perceptron.experiments import beyond


def dyadic_fake(seed, samples=60, dimensions=3, epsilon=0.1):
    """getfake data rounded to multiples of 1/64 in float64: every sum the perceptron makes is
    exact, so any two summation orders agree bit for bit."""
    mx.random.seed(seed)
    fake = gp.sample_separable(samples, dimensions, epsilon)
    X = np.round(fake.X.asnumpy().astype(np.float64) * 64) / 64
    return X, fake.Y.asnumpy().astype(np.float64)


def naive_mistakes(X, Y, max_epochs):
    """The primal rule with a bias, written out, counting the updates made on each example."""
    w, b = np.zeros(X.shape[1]), 0.0
    alpha = np.zeros(len(Y), dtype=np.int64)
    for _ in range(max_epochs):
        made = 0
        for i in range(len(Y)):
            if Y[i] * (X[i] @ w + b) <= 0:
                w, b = w + Y[i] * X[i], b + Y[i]
                alpha[i] += 1
                made += 1
        if made == 0:
            break
    return alpha


# --- the kernel perceptron -------------------------------------------------------------------

def test_linear_kernel_is_train_exactly():
    """On 12 draws: the same updates per pass as ``train``, the same mistakes example by
    example, and sum_i alpha_i y_i (x_i, 1) equal to train's (w, b) bit for bit."""
    for seed in range(12):
        X, Y = dyadic_fake(seed)
        ref = gp.train(X, Y, max_epochs=200)
        run = gp.beyond.train_kernel(X, Y, max_epochs=200)
        w, b = run.primal_weights()
        assert run.converged and ref.converged
        assert run.updates_per_epoch == ref.updates_per_epoch
        np.testing.assert_array_equal(run.alpha, naive_mistakes(X, Y, 200))
        np.testing.assert_array_equal(w, ref.w)
        assert b == ref.b


def test_linear_kernel_float_data_same_mistakes():
    """Raw float32 getfake data (8 draws): same updates as ``train``; weights equal to
    rounding (the sums are taken in different orders)."""
    for seed in range(8):
        mx.random.seed(seed)
        X, Y = gp.getfake(40, 2, 0.05)
        ref = gp.train(X, Y, max_epochs=500)
        run = gp.beyond.train_kernel(X, Y, max_epochs=500)
        assert run.updates_per_epoch == ref.updates_per_epoch
        w, b = run.primal_weights()
        np.testing.assert_allclose(w, ref.w, rtol=1e-5, atol=1e-5)
        assert b == pytest.approx(ref.b, abs=1e-5)


@pytest.mark.parametrize("kernel", ["linear", "poly", "rbf"])
def test_faithful_engine_equals_fast(kernel):
    """The NDArray engine (one example at a time) makes the fast engine's mistakes, 3 draws."""
    for seed in range(3):
        X, Y = beyond.two_moons(25, noise=0.1, seed=seed)
        X = np.round(X * 16) / 16
        kw = {"kernel": kernel, "max_epochs": 15, "gamma": 1.0, "degree": 2}
        fast = gp.beyond.train_kernel(X, Y, **kw)
        slow = gp.beyond.train_kernel(X, Y, engine="faithful", **kw)
        np.testing.assert_array_equal(fast.alpha, slow.alpha)
        assert fast.updates_per_epoch == slow.updates_per_epoch
        np.testing.assert_allclose(fast.decision_function(X), slow.decision_function(X))


@pytest.mark.parametrize("engine", ["fast", "faithful"])
def test_xor_is_separated_by_poly_and_rbf_not_by_a_line(engine):
    X, Y = gp.xor_data()
    for kernel in ("poly", "rbf"):
        run = gp.beyond.train_kernel(X, Y, kernel=kernel, max_epochs=50, engine=engine)
        assert run.converged
        np.testing.assert_array_equal(run.predict(X), Y)
        assert np.all(Y * run.decision_function(X) > 0)
    line = gp.beyond.train_kernel(X, Y, kernel="linear", max_epochs=30, engine=engine)
    assert not line.converged and line.epochs == 30  # reports hitting max_epochs
    with pytest.raises(ValueError, match="not separable"):
        gp.beyond.feature_margin(X, Y, kernel="linear")


def test_kernel_mistake_bound_in_feature_space():
    """Updates <= R^2/gamma^2 in feature space on 30 noisy two-moons sets per kernel (rbf and
    poly); every run separates its set, and the bound is not vacuous (below 10x the count)."""
    for kernel in ("rbf", "poly"):
        exp = beyond.kernel_bound_experiment(kernel=kernel, draws=30, samples=30)
        assert exp.updates.size == 30 and exp.converged.all()
        assert np.all(exp.updates <= exp.bound)
        if kernel == "rbf":
            assert np.median(exp.ratio) > 0.1


def test_feature_margin_of_the_linear_kernel_is_the_optimal_margin():
    """With the linear kernel the feature space is (x, 1): the margin is optimal_margin's."""
    for seed in range(5):
        X, Y = dyadic_fake(seed, samples=30, dimensions=2)
        fm = gp.beyond.feature_margin(X, Y)
        om = gp.theory.optimal_margin(X, Y)
        assert fm.gamma == pytest.approx(om.gamma, rel=1e-4)
        assert fm.radius == pytest.approx(om.radius)


def test_kernel_demo_claims():
    """Notebook 13's first claims: XOR and two moons, linear fails, poly and rbf separate,
    each within its bound."""
    demo = beyond.kernel_demo(seed=1)
    for data in ("xor", "moons"):
        assert not demo.runs[(data, "linear")].converged
        assert (data, "linear") not in demo.margins
        for kernel in ("poly", "rbf"):
            run, margin = demo.runs[(data, kernel)], demo.margins[(data, kernel)]
            assert run.converged and run.updates <= margin.bound


def test_gram_matrix_too_large_is_refused_with_its_size():
    X, Y = beyond.two_moons(100, seed=0)
    with pytest.raises(ValueError, match=r"n=100 .*max_gram_bytes=1000"):
        gp.beyond.train_kernel(X, Y, max_epochs=5, max_gram_bytes=1000)
    assert gp.beyond.train_kernel(X, Y, max_epochs=5, max_gram_bytes=80_000).epochs >= 1


@pytest.mark.parametrize("kwargs, match", [
    ({"kernel": "sigmoid"}, "kernel"), ({"degree": 0}, "degree"), ({"gamma": -1.0}, "gamma"),
    ({"max_epochs": 0}, "max_epochs"), ({"engine": "loop"}, "engine"),
    ({"learning_rate": 0.0}, "learning_rate"), ({"coef0": float("nan")}, "coef0"),
])
def test_train_kernel_validates_its_arguments(kwargs, match):
    X, Y = gp.xor_data()
    args = {"max_epochs": 5, **kwargs}
    with pytest.raises(ValueError, match=match):
        gp.beyond.train_kernel(X, Y, **args)


def test_bad_data_is_refused_at_the_edge():
    X, Y = gp.xor_data()
    with pytest.raises(ValueError, match="Y must hold only -1 and \\+1"):
        gp.beyond.train_kernel(X, (Y + 1) / 2, max_epochs=5)
    with pytest.raises(ValueError, match="X must be finite"):
        gp.beyond.train_kernel(np.where(X > 0, np.nan, X), Y, max_epochs=5)
    run = gp.beyond.train_kernel(X, Y, kernel="rbf", max_epochs=5)
    with pytest.raises(ValueError, match="3 features"):
        run.decision_function(np.zeros((2, 3)))
    with pytest.raises(ValueError, match="linear"):
        run.primal_weights()


# --- the Forgetron ---------------------------------------------------------------------------

def test_shrink_factor_is_the_largest_allowed():
    """Psi(lambda, phi, mu) <= room, and no larger phi in (0, 1] is allowed; 2,000 draws."""
    def psi(lam, p, mu):
        return (lam * p) ** 2 + 2 * lam * p * (1 - p * mu)

    rng = np.random.default_rng(0)
    for _ in range(2000):
        lam, mu, room = rng.uniform(0.01, 1), rng.uniform(-2, 2), rng.uniform(0.01, 3)
        phi = forgetron_module.shrink_factor(lam, mu, room)
        assert 0 < phi <= 1 and psi(lam, phi, mu) <= room * (1 + 1e-9) + 1e-12
        if phi < 1:
            assert psi(lam, min(1.0, phi * (1 + 1e-6)), mu) > room


def test_forgetron_with_room_is_the_kernel_perceptron():
    """A budget above the stream's mistakes never forgets: exactly the kernel perceptron's
    single pass (no bias), on 5 streams."""
    for seed in range(5):
        X, Y = beyond.two_moons(200, noise=0.2, seed=seed)
        run = gp.beyond.forgetron(X, Y, budget=500, gamma=2.0)
        ref = gp.beyond.train_kernel(X, Y, kernel="rbf", gamma=2.0, bias=False, max_epochs=1)
        assert run.removals == 0 and run.mistakes == ref.updates
        np.testing.assert_array_equal(run.active, ref.support)


def test_forgetron_respects_its_budget_and_pays_for_it():
    """On 8 noisy streams: never more than B support vectors; with the smallest budget more
    mistakes than without a budget, and the mistakes fall as the budget grows (first to last).
    """
    for seed in range(8):
        exp = beyond.forgetron_experiment(budgets=(5, 20, 400), samples=400, seed=seed)
        assert exp.mistakes[0] > exp.unbudgeted and exp.mistakes[0] > exp.mistakes[-1]
        assert exp.mistakes[-1] == exp.unbudgeted  # 400 >= the support it needs
        X, Y = beyond.two_moons(400, noise=0.3, seed=seed)
        run = gp.beyond.forgetron(X, Y, budget=5, gamma=2.0)
        assert run.active.size <= 5 and run.removals == run.mistakes - run.active.size
        assert np.all((run.shrink > 0) & (run.shrink <= 1))
        assert np.all(np.isinf(exp.bound[:2]))  # B < 83: the theorem does not apply


def blobs(seed, samples, flip=0.0):
    rng = np.random.default_rng(seed)
    Y = np.where(rng.random(samples) < 0.5, 1.0, -1.0)
    X = rng.normal(size=(samples, 2)) * 0.5 + 2.0 * Y[:, None]
    return X, np.where(rng.random(samples) < flip, -Y, Y)


def test_forgetron_guarantee_where_it_applies():
    """K(x, x) = 1 (Gaussian kernel), B >= 83: M <= 2||g||^2 + 4 sum hinge(g).

    On 8 clean two-cluster streams with B = 400 the bound is informative (below a tenth of
    the stream); on 4 streams with 3% flipped labels and B = 83 the Forgetron does forget
    (removals on at least one), and the bound, though above the stream length there, holds.
    """
    for seed in range(8):
        X, Y = blobs(seed, 600)
        run = gp.beyond.forgetron(X, Y, budget=400, gamma=0.1)
        assert run.mistakes <= forgetron_bound(X, Y, budget=400, gamma=0.1) < 60
    removals = 0
    for seed in range(4):
        X, Y = blobs(seed, 1500, flip=0.03)
        run = gp.beyond.forgetron(X, Y, budget=83, gamma=0.5)
        removals += run.removals
        assert run.mistakes <= forgetron_bound(X, Y, budget=83, gamma=0.5)
    assert removals > 0
    assert forgetron_bound(X, Y, budget=82, gamma=0.1) == np.inf
    assert forgetron_bound(X, Y, budget=100, kernel="poly") == np.inf  # K(x, x) > 1


# --- the second-order perceptron -------------------------------------------------------------

def test_second_order_matches_the_formula():
    """Sherman-Morrison bookkeeping against solving (aI + SS^T + xx^T) w = v at every step."""
    for seed in range(3):
        X, Y = dyadic_fake(seed, samples=80, epsilon=0.02)
        run = gp.beyond.train_second_order(X, Y, a=0.5)
        Z = np.hstack([X, np.ones((len(Y), 1))])
        S, v, rows = [], np.zeros(Z.shape[1]), []
        for t in range(len(Y)):
            M = 0.5 * np.eye(Z.shape[1]) + sum(np.outer(s, s) for s in S) + np.outer(Z[t], Z[t])
            if Y[t] * (Z[t] @ np.linalg.solve(M, v)) <= 0:
                S.append(Z[t])
                v = v + Y[t] * Z[t]
                rows.append(t)
        np.testing.assert_array_equal(run.mistake_rows, rows)


def test_second_order_with_huge_a_is_the_perceptron():
    """a -> infinity makes A^-1 v proportional to v: the plain perceptron's mistakes, 8 draws."""
    for seed in range(8):
        X, Y = dyadic_fake(seed)
        run = gp.beyond.train_second_order(X, Y, a=1e9, max_epochs=50)
        ref = gp.train(X, Y, max_epochs=50)
        assert run.updates_per_epoch == ref.updates_per_epoch


def test_second_order_bound_and_fewer_mistakes():
    """On 20 getfake streams: mistakes <= the paper's bound on every stream, and on average
    fewer mistakes than the plain perceptron on the same streams (notebook 13's claim)."""
    exp = beyond.second_order_experiment(draws=20, samples=300, seed=3)
    assert np.all(exp.second_order <= exp.bound)
    assert np.all(exp.plain <= exp.novikoff)
    assert exp.second_order.mean() < exp.plain.mean()
    assert np.mean(exp.second_order <= exp.plain) >= 0.8


def test_second_order_bound_on_noisy_data_with_hinge_term():
    """The bound holds for any u and gamma, also with D_gamma > 0: 10 noisy streams, 3 gammas."""
    for seed in range(10):
        mx.random.seed(seed)
        noisy = gp.data.getfake_noisy(200, 3, 0.05, 0.1)
        X, Y = noisy.X.asnumpy().astype(np.float64), noisy.Y.asnumpy().astype(np.float64)
        run = gp.beyond.train_second_order(X, Y, a=1.0)
        u = np.append(noisy.wfake.asnumpy(), noisy.bfake.asnumpy())
        for g in (0.05, 0.3, 1.0):
            assert run.mistakes <= second_order_bound(X, Y, run, u, gamma=g)


# --- the separation problem ------------------------------------------------------------------

def test_separation_problem_has_the_margin_asked_for():
    """rho(A) >= gamma always (the plane achieves it) and within 10% of it, on 12 draws."""
    for gamma, seed in [(g, s) for g in (0.2, 0.02, 0.002) for s in range(4)]:
        P = gp.beyond.separation_problem(80, 2, gamma, seed=seed)
        assert np.allclose(np.linalg.norm(P.A, axis=1), 1)
        assert np.all(P.A @ P.plane >= gamma * (1 - 1e-9))
        assert gamma * (1 - 1e-6) <= P.rho <= 1.1 * gamma


def test_every_algorithm_within_its_bound():
    """Perceptron <= 1/rho^2, smooth <= ceil(2 sqrt(2 ln n)/rho - 1), rescaled <= its volume
    bound, on 4 margins x 4 draws = 16 problems; every reported separator checked."""
    exp = beyond.separation_experiment(gammas=(0.3, 0.05, 0.01, 0.004), draws=4, samples=60,
                                       max_iterations=300_000, seed=10)
    for method in beyond.METHODS:
        assert exp.converged[method].all(), method
        assert np.all(exp.iterations[method] <= exp.bound[method]), method
    assert exp.slope("perceptron", of="bound") == pytest.approx(-2)
    assert exp.slope("smooth", of="bound") == pytest.approx(-1, abs=0.1)
    assert exp.slope("rescaled", of="bound") > -0.5


def test_reported_separators_separate_and_caps_are_reported():
    for seed in range(4):
        P = gp.beyond.separation_problem(60, 3, 0.003, seed=seed)
        for solve in (perceptron_separation, gp.beyond.smooth_perceptron,
                      gp.beyond.rescaled_perceptron):
            run = solve(P.A, max_iterations=100_000)
            assert run.converged == bool(np.all(P.A @ run.w > 0))
            capped = solve(P.A, max_iterations=3)
            assert not capped.converged or np.all(P.A @ capped.w > 0)
    capped = gp.beyond.smooth_perceptron(P.A, max_iterations=3)
    assert not capped.converged and capped.iterations == 3


def test_rescaled_perceptron_certificates():
    """Every failed phase certifies ||C^T x|| <= 1/sqrt(N); a tiny phase forces rescalings."""
    for seed in range(5):
        P = gp.beyond.separation_problem(60, 2, 0.002, seed=seed)
        run = gp.beyond.rescaled_perceptron(P.A, phase=20)
        assert run.converged and run.rescalings == len(run.history["certificates"])
        assert run.rescalings > 0
        assert np.all(np.array(run.history["certificates"]) <= 1 / np.sqrt(20) + 1e-12)


def test_caratheodory_keeps_the_point():
    rng = np.random.default_rng(0)
    for _ in range(20):
        C = rng.normal(size=(40, 4))
        x = rng.random(40)
        x /= x.sum()
        y = solvers._caratheodory(C, x)
        assert np.count_nonzero(y) <= 5 and np.all(y >= 0)
        assert y.sum() == pytest.approx(1)
        np.testing.assert_allclose(C.T @ y, C.T @ x, atol=1e-10)


def test_smooth_beats_the_perceptron_as_the_margin_shrinks():
    """Notebook 13's claim on 6 draws at rho = 0.002: the smooth and the rescaled perceptron's
    median counts are below the perceptron's (capped perceptron runs only count less, so this
    is conservative), and they never need more than their bounds."""
    exp = beyond.separation_experiment(gammas=(0.002,), draws=6, samples=100,
                                       max_iterations=30_000, seed=0)
    for method in ("smooth", "rescaled"):
        assert np.median(exp.iterations[method]) < np.median(exp.iterations["perceptron"])
        assert np.all(exp.iterations[method] <= exp.bound[method])


def test_iterations_grow_slower_than_the_perceptron_worst_case():
    """Notebook 13's reading of the exponents, on a seed no notebook prints: the medians of
    all three algorithms grow like rho^-s with s between 0.8 and 1.8 (the perceptron's s moves
    between about 1.0 and 1.6 from seed to seed), well below the perceptron's bound, s = 2."""
    exp = beyond.separation_experiment(draws=5, max_iterations=100_000, seed=10_000)
    for method in beyond.METHODS:
        assert -1.8 < exp.slope(method) < -0.8, method
    assert exp.slope("perceptron", of="bound") == pytest.approx(-2)


def test_separation_inputs_are_checked():
    with pytest.raises(ValueError, match="zero row"):
        gp.beyond.smooth_perceptron(np.zeros((3, 2)))
    with pytest.raises(ValueError, match="max_iterations"):
        gp.beyond.rescaled_perceptron(np.eye(2), max_iterations=0)
    with pytest.raises(ValueError, match="gamma"):
        gp.beyond.separation_problem(10, 2, 1.5)


# --- figures ---------------------------------------------------------------------------------

def test_plots_return_their_axes():
    demo = beyond.kernel_demo(samples=30)
    assert gp.plots.plot_kernel_boundary(demo.runs[("xor", "rbf")], resolution=30) is not None
    forg = beyond.forgetron_experiment(budgets=(5, 50), samples=100)
    assert gp.plots.plot_forgetron(forg).get_xscale() == "log"
    sep = beyond.separation_experiment(gammas=(0.3, 0.03), draws=2, samples=30,
                                       max_iterations=5000)
    ax = gp.plots.plot_separation(sep)
    assert ax.get_xscale() == "log" and ax.get_yscale() == "log"


# --- one driver: the overflow check of train (issue 18) --------------------------------------

@pytest.mark.parametrize("kernel, engine", [("linear", "fast"), ("rbf", "fast"),
                                            ("linear", "faithful")])
def test_train_kernel_refuses_scores_that_overflow(kernel, engine):
    """XOR x 1e200 used to return converged=True with NaN decision values."""
    X, Y = gp.xor_data()
    with pytest.raises(ValueError, match=r"training overflowed: the margins .* in pass 1 "
                                         r"became inf or NaN"):
        gp.beyond.train_kernel(X * 1e200, Y, kernel=kernel, max_epochs=5, engine=engine)


def test_decision_function_refuses_scores_that_overflow():
    """MXNet's exp(-inf) = 0 lets the faithful engine train the Gaussian kernel on XOR x 1e200
    (far points: K = I, which is right); numpy's Gram matrix of the same points is NaN, and the
    scores say so instead of returning NaN."""
    X, Y = gp.xor_data()
    run = gp.beyond.train_kernel(X * 1e200, Y, kernel="rbf", max_epochs=5, engine="faithful")
    assert run.converged and run.updates_per_epoch == [4, 0]
    with pytest.raises(ValueError, match="training overflowed: the scores f"):
        run.decision_function(X * 1e200)


def test_train_second_order_refuses_predictions_that_overflow():
    X, Y = gp.xor_data()
    with pytest.raises(ValueError, match="training overflowed"):
        gp.beyond.train_second_order(X * 1e200, Y, max_epochs=5)


def test_second_order_run_has_the_common_field_names():
    X, Y = gp.xor_data()
    run = gp.beyond.train_second_order(X, Y, max_epochs=3)
    assert run.epochs == len(run.updates_per_epoch) == 3 and not run.converged
    assert run.w.shape == (X.shape[1],) and isinstance(run.b, float)  # the bias apart from w
    assert gp.beyond.train_second_order(X, Y, bias=False).b == 0.0
    assert not hasattr(run, "mistakes_per_epoch")  # deprecated in 0.3, removed in 0.4


def test_gram_guard_counts_the_peak_and_a_larger_limit_can_be_set(monkeypatch):
    """The Gaussian kernel peaks at two n x n matrices: a limit that fits one is refused for
    rbf but not for linear; the default limit is the memory the process can allocate, and a
    limit above 1e9 bytes is accepted."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(100, 2))
    Y = np.where(X[:, 0] > 0, 1.0, -1.0)
    one = 8 * 100 * 100
    assert gp.beyond.train_kernel(X, Y, max_epochs=2, max_gram_bytes=one).epochs >= 1
    with pytest.raises(ValueError, match=r"kernel='rbf' peaks at 0.2 MiB.*max_gram_bytes=80000"):
        gp.beyond.train_kernel(X, Y, kernel="rbf", max_epochs=2, max_gram_bytes=one)
    assert gp.beyond.train_kernel(X, Y, max_epochs=2, max_gram_bytes=10**12).epochs >= 1
    monkeypatch.setattr(dual, "_available_memory", lambda: 2 * one - 1)
    with pytest.raises(ValueError, match="this process can still allocate"):
        gp.beyond.train_kernel(X, Y, kernel="rbf", max_epochs=2)
    assert gp.beyond.train_kernel(X, Y, max_epochs=2).epochs >= 1
    assert 0 < dual.__dict__["_available_memory"]() < 2 * one  # the patched one is used


def test_available_memory_is_below_the_address_space_limit():
    import resource
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    assert 0 < dual._available_memory()
    if soft == resource.RLIM_INFINITY:
        return
    assert dual._available_memory() <= soft


def _integer_data(seed, n=40):
    """Small integers: every sum is exact, so the dual and the primal forms agree bit for bit."""
    rng = np.random.default_rng(seed)
    X = rng.integers(-4, 5, size=(n, 3)).astype(float)
    return X, np.where(X @ [1.0, 2.0, -1.0] + 0.5 > 0, 1.0, -1.0)


@pytest.mark.parametrize("seed", range(4))
def test_dual_forms_give_w_and_b_for_the_linear_kernel(seed):
    """The dual results' ``w, b`` are the primal runs' own: the kernel perceptron's are
    ``train``'s, the voted kernel perceptron's last are ``train_voted``'s, and the Forgetron's
    (a budget it never reaches, no bias) are one homogeneous pass's."""
    X, Y = _integer_data(seed)
    kernel, plain = gp.beyond.train_kernel(X, Y, kernel="linear", max_epochs=50), gp.train(
        X, Y, max_epochs=50)
    np.testing.assert_array_equal(kernel.w, plain.w)
    assert kernel.b == plain.b
    voted = gp.beyond.train_voted_kernel(X, Y, kernel="linear", max_epochs=3)
    primal = gp.beyond.train_voted(X, Y, max_epochs=3)
    np.testing.assert_array_equal(voted.w, primal.w)
    assert voted.b == primal.b
    run = gp.beyond.forgetron(X, Y, budget=len(X), kernel="linear")
    one_pass = gp.rosenblatt.update_path(X, Y, max_epochs=1, bias=False)
    np.testing.assert_array_equal(run.w, one_pass.w)
    assert run.b == 0.0 and run.epochs == 1
    assert run.updates_per_epoch == [run.mistakes] == one_pass.updates_per_epoch
    assert run.converged == (run.mistakes == 0)


def test_dual_forms_without_numbers_say_so():
    X, Y = _integer_data(0)
    runs = [gp.beyond.train_kernel(X, Y, kernel="rbf", max_epochs=2),
            gp.beyond.train_voted_kernel(X, Y, kernel="poly"),
            gp.beyond.forgetron(X, Y, budget=5)]
    for run, names in zip(runs, [("w", "b"), ("w", "b"), ("w",)]):
        for name in names:
            with pytest.raises(AttributeError, match="kernel='linear'.*dual form"):
                getattr(run, name)
    assert runs[2].b == 0.0  # the Forgetron has no bias, whatever its kernel


def test_separation_runs_count_their_rounds():
    """An epoch of a separation run is a round of its method: a phase of passes (one for
    the plain perceptron, several once the rescaled one stretches), an iteration of the smooth
    perceptron; the updates of all rounds are its own count."""
    P = gp.beyond.separation_problem(60, 2, 0.002, seed=3)
    runs = (perceptron_separation(P.A), gp.beyond.rescaled_perceptron(P.A, phase=20),
            gp.beyond.smooth_perceptron(P.A))
    for run in runs:
        assert run.b == 0.0 and run.epochs == len(run.updates_per_epoch) >= 1
        assert sum(run.updates_per_epoch) == run.iterations, run.method
    assert runs[0].epochs == 1 and runs[1].epochs == runs[1].rescalings + 1
    assert runs[2].epochs == runs[2].iterations
