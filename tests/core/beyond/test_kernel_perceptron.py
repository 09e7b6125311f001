"""The kernel and budget perceptrons against plain readable references, and the tie rule of
every ``predict`` (issue 32: hand mutants of these bodies survived the whole suite).

The references below are the update rules as the papers state them, one example at a time in
plain Python, written without the package's helpers; the package's runs must make the same
decisions and hold the same numbers.
"""

import math

import numpy as np
import pytest

import gluon_perceptron as gp
from gluon_perceptron.core.beyond.kernel_perceptron import KernelPerceptron
from gluon_perceptron.core.beyond.kernels import KernelFunction
from gluon_perceptron.core.rosenblatt import multiclass
from gluon_perceptron.experiments.optimality import PerceptronLearner


def _k(kind, x, z, gamma, degree=3, coef0=1.0):
    dot = sum(a * b for a, b in zip(x, z))
    if kind == "linear":
        return dot
    if kind == "poly":
        return (gamma * dot + coef0) ** degree
    return math.exp(-gamma * sum((a - b) ** 2 for a, b in zip(x, z)))


def _data(n=40, seed=0, shift=1.5):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2))
    Y = np.where(X[:, 0] + 0.5 * X[:, 1] + shift > 0, 1.0, -1.0)  # needs a bias
    return X, Y


def reference_kernel_perceptron(X, Y, kind, gamma, max_epochs, eta=1.0, bias=True):
    """Dual perceptron: f(x_j) = eta sum_i alpha_i y_i (K(x_i, x_j) + [bias]); update alpha_j
    when y_j f(x_j) <= 0; passes in order until one makes no update."""
    n = len(Y)
    alpha = [0] * n
    per_epoch = []
    for _ in range(max_epochs):
        made = 0
        for j in range(n):
            f = eta * sum(alpha[i] * Y[i] * (_k(kind, X[i], X[j], gamma) + (1.0 if bias else 0))
                          for i in range(n) if alpha[i])
            if Y[j] * f <= 0:
                alpha[j] += 1
                made += 1
        per_epoch.append(made)
        if made == 0:
            break
    return np.array(alpha), per_epoch


@pytest.mark.parametrize("engine", ["fast", "faithful"])
@pytest.mark.parametrize("kind", ["linear", "poly", "rbf"])
def test_kernel_perceptron_matches_the_plain_reference(kind, engine):
    X, Y = _data()
    gamma = 0.5
    run = gp.beyond.train_kernel(X, Y, max_epochs=8, kernel=kind, gamma=gamma, engine=engine)
    alpha, per_epoch = reference_kernel_perceptron(X, Y, kind, gamma, 8)
    np.testing.assert_array_equal(run.alpha, alpha)
    assert run.updates_per_epoch == per_epoch
    Xq = np.random.default_rng(9).normal(size=(15, 2))
    f = [sum(alpha[i] * Y[i] * (_k(kind, X[i], x, gamma) + 1.0) for i in range(len(Y)))
         for x in Xq]
    np.testing.assert_allclose(run.decision_function(Xq), f, rtol=1e-10, atol=1e-10)


def test_kernel_decision_function_includes_the_bias():
    """A linear kernel perceptron with bias is ``train``'s (w, b) with b != 0: its decision
    function is w.x + b, the constant feature included."""
    X, Y = _data(shift=3.0)
    run = gp.beyond.train_kernel(X, Y, max_epochs=50, kernel="linear")
    w, b = run.primal_weights()
    assert b != 0.0
    Xq = np.array([[0.0, 0.0], [1.0, -2.0], [-3.0, 0.5]])
    np.testing.assert_allclose(run.decision_function(Xq), Xq @ w + b, rtol=1e-12)
    # and (w, b) are train's own: the same updates on the same data in the same order
    plain = gp.train(X, Y, max_epochs=50)
    np.testing.assert_allclose(w, plain.w, rtol=1e-12)
    assert b == pytest.approx(plain.b, rel=1e-12)


def reference_forgetron(X, Y, budget, kind, gamma):
    """The self-tuned Forgetron as Dekel, Shalev-Shwartz & Singer (2008) state it, with the
    shrink factor found by bisection (not by the closed form the package uses)."""
    active, sigma = [], {}
    M, Q, shrinks = 0, 0.0, []

    def f(x):
        return sum(sigma[i] * Y[i] * _k(kind, X[i], x, gamma) for i in active)

    for t in range(len(Y)):
        if Y[t] * f(X[t]) > 0:
            continue
        M += 1
        active.append(t)
        sigma[t] = 1.0
        if len(active) <= budget:
            continue
        r = active[0]                 # the oldest support vector is removed
        lam, mu = sigma[r], Y[r] * f(X[r])

        def psi(phi, lam=lam, mu=mu):
            return (lam * phi) ** 2 + 2 * lam * phi * (1 - phi * mu)

        room = 15 / 32 * M - Q
        if psi(1.0) <= room:
            phi = 1.0
        else:
            lo, hi = 0.0, 1.0         # psi(lo) <= room < psi(hi)
            for _ in range(200):
                mid = (lo + hi) / 2
                lo, hi = (mid, hi) if psi(mid) <= room else (lo, mid)
            phi = lo
        Q += psi(phi)
        shrinks.append(phi)
        for i in active:
            sigma[i] *= phi
        active.remove(r)
        del sigma[r]
    return M, active, [sigma[i] for i in active], shrinks


@pytest.mark.parametrize("kind, budget", [("rbf", 4), ("linear", 3), ("rbf", 12)])
def test_forgetron_matches_the_plain_reference(kind, budget):
    rng = np.random.default_rng(5)
    X = rng.normal(size=(120, 2))
    Y = np.where(X[:, 0] * X[:, 1] > 0, 1.0, -1.0)  # XOR-like: many mistakes, many removals
    Y[rng.random(120) < 0.1] *= -1
    gamma = 1.0
    run = gp.beyond.forgetron(X, Y, budget=budget, kernel=kind, gamma=gamma)
    M, active, sigma, shrinks = reference_forgetron(X, Y, budget, kind, gamma)
    assert run.removals > 10 and any(s < 1.0 for s in shrinks)  # the shrink step is exercised
    assert run.mistakes == M
    assert run.active.tolist() == active
    np.testing.assert_allclose(run.shrink, shrinks, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(run.sigma, sigma, rtol=1e-9, atol=1e-12)


# --- the tie rule: a score of exactly 0 predicts -1, everywhere -------------------------------

def test_predict_gives_minus_one_at_a_zero_score():
    X = np.array([[0.0, 5.0], [2.0, 2.0], [1.0, 0.0]])
    np.testing.assert_array_equal(gp.predict(np.array([1.0, -1.0]), 0.0, X), [-1, -1, 1])
    np.testing.assert_array_equal(gp.predict(np.array([1.0, 1.0]), -4.0, X[1:2]), [-1])


def test_kernel_perceptron_predict_gives_minus_one_at_a_zero_score():
    X, Y = _data(n=6)
    run = KernelPerceptron(alpha=np.zeros(6, dtype=np.int64), updates_per_epoch=[0],
                           converged=True, X=X, Y=Y,
                           kernel=KernelFunction("linear", 3, 0.5, 1.0), learning_rate=1.0,
                           bias=True)
    assert np.all(run.decision_function(X) == 0.0)
    np.testing.assert_array_equal(run.predict(X), -np.ones(6))


def test_online_learner_predicts_minus_one_at_a_zero_score():
    learner = PerceptronLearner(2)  # w = 0, b = 0: every score is 0
    assert learner.predict(np.array([1.0, 2.0])) == -1.0


def test_one_vs_one_vote_at_a_zero_score_goes_to_the_second_class():
    X = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, -1.0]] * 3)
    y = np.array([0, 1, 2] * 3)
    model = gp.rosenblatt.train_one_vs_one(X, y, max_epochs=20)
    model.W[:] = 0.0
    model.b[:] = 0.0
    votes = multiclass.votes(model, X[:1])
    # pairs (0, 1), (0, 2), (1, 2): each vote goes to its negative (second) class
    np.testing.assert_array_equal(votes, [[0, 1, 2]])
    assert gp.rosenblatt.predict_multiclass(model, X[:1]).tolist() == [2]


# --- the pass driver, directly (its mutants were caught only by accident, or by hanging) ------

def _counting(made_per_call, limit=50):
    """A ``passes(budget)`` that records the budgets asked and returns ``made_per_call(budget)``;
    it refuses to be called more than ``limit`` times, so a driver that loops fails, not hangs."""
    asked = []

    def passes(budget):
        asked.append(budget)
        if len(asked) > limit:
            raise RuntimeError("the driver kept asking for passes")
        return made_per_call(budget)
    return passes, asked


def test_drive_makes_exactly_max_epochs_passes_one_at_a_time():
    from gluon_perceptron.core.rosenblatt.engine import _drive

    passes, asked = _counting(lambda budget: [1])
    assert _drive(passes, 5, (np.zeros(2),)) == [1, 1, 1, 1, 1]
    assert asked == [5, 4, 3, 2, 1]


def test_drive_hands_the_whole_budget_to_a_driver_that_makes_many_passes():
    from gluon_perceptron.core.rosenblatt.engine import _drive

    passes, asked = _counting(lambda budget: [2] * budget)
    assert _drive(passes, 7, (np.zeros(2),)) == [2] * 7
    assert asked == [7]
    passes, asked = _counting(lambda budget: [2] * min(budget, 3))
    assert _drive(passes, 7, (np.zeros(2),)) == [2] * 7
    assert asked == [7, 4, 1]


def test_drive_stops_after_a_pass_without_an_update():
    from gluon_perceptron.core.rosenblatt.engine import _drive

    passes, asked = _counting(lambda budget: [3, 0])
    assert _drive(passes, 10, (np.zeros(2),)) == [3, 0]
    assert asked == [10]
    passes, asked = _counting(lambda budget: [0])
    assert _drive(passes, 1, (np.zeros(2),)) == [0]


@pytest.mark.parametrize("state", [(np.array([np.inf]), np.array([1.0])),
                                   (np.array([1.0]), np.array([np.nan])),
                                   (np.array([1.0, np.inf]),)])
def test_drive_refuses_any_state_array_that_overflowed(state):
    from gluon_perceptron.core.rosenblatt.engine import _drive

    passes, _ = _counting(lambda budget: [1])
    with pytest.raises(ValueError, match=r"the weights \(w, b\) in pass 1 became inf"):
        _drive(passes, 5, state)


def test_drive_refuses_a_pass_whose_margins_overflowed():
    from gluon_perceptron.core.rosenblatt.engine import _drive

    passes, _ = _counting(lambda budget: [2, -1])
    with pytest.raises(ValueError, match=r"the margins y \(w.x \+ b\) in pass 2 became inf"):
        _drive(passes, 5, (np.zeros(2),))


# --- amaldi_hauser_bound's rules ----------------------------------------------------------

@pytest.mark.parametrize("rate", [0.0, -1.0])
def test_amaldi_hauser_bound_refuses_a_rate_that_is_not_positive(rate):
    with pytest.raises(ValueError, match=r"learning_rate must be > 0"):
        gp.theory.amaldi_hauser_bound(*gp.xor_data(), learning_rate=rate)


def test_amaldi_hauser_bound_max_subsets_boundary():
    X, Y = gp.xor_data()  # padded rank 3: C(4, 3) = 4 sets
    gp.theory.amaldi_hauser_bound(X, Y, max_subsets=4)
    with pytest.raises(ValueError, match=r"C\(4, 3\) = 4 sets .* more than max_subsets=3"):
        gp.theory.amaldi_hauser_bound(X, Y, max_subsets=3)


def test_amaldi_hauser_bound_default_max_subsets_is_half_a_million():
    # identical points: rank 1, so C(n, 1) = n sets; 500,000 are examined, 500,001 refused
    gp.theory.amaldi_hauser_bound(np.ones((500_000, 2)), np.ones(500_000))
    with pytest.raises(ValueError, match=r"500001 sets .* more than max_subsets=500000"):
        gp.theory.amaldi_hauser_bound(np.ones((500_001, 2)), np.ones(500_001))
