"""The perceptron's family (passive-aggressive, voted, ALMA): each compiled twin bit for bit
against its readable loop, and each algorithm against an oracle (scikit-learn, river) or the
paper."""

from __future__ import annotations

import math

import numpy as np
import pytest

from gluon_perceptron import beyond
from gluon_perceptron.core.beyond import approximate_margin, passive, voting
from gluon_perceptron.core.data import real

VARIANTS = ("PA", "PA-I", "PA-II")


def _draw(seed: int, n: int = 200, d: int = 6, flip: float = 0.05):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)) * rng.uniform(0.2, 3.0)
    Y = np.where(X @ rng.normal(size=d) + 0.3 > 0, 1.0, -1.0)
    Y[rng.random(n) < flip] *= -1
    return X, Y


# --- the compiled twins against the readable loops, bit for bit ------------------------------

@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("variant", VARIANTS)
def test_pa_twin_is_the_loop_bit_for_bit(seed, variant):
    X, Y = _draw(seed)
    bias = seed % 2 == 0
    fast, loop = (beyond.passive_aggressive(X, Y, variant=variant, C=0.1 + seed / 7,
                                            max_epochs=4, bias=bias, engine=e)
                  for e in ("fast", "faithful"))
    assert np.array_equal(fast.w, loop.w) and fast.b == loop.b
    assert fast.updates_per_epoch == loop.updates_per_epoch and fast.history == loop.history
    assert bias or fast.b == 0.0


@pytest.mark.parametrize("seed", range(10))
def test_voted_twin_is_the_loop_bit_for_bit(seed):
    X, Y = _draw(seed, flip=0.0 if seed % 2 else 0.05)
    fast, loop = (beyond.train_voted(X, Y, max_epochs=5, bias=seed % 3 > 0, engine=e)
                  for e in ("fast", "faithful"))
    for name in ("weights", "biases", "counts"):
        assert np.array_equal(getattr(fast, name), getattr(loop, name)), name
    assert fast.updates_per_epoch == loop.updates_per_epoch
    assert fast.counts.sum() == len(X) * fast.epochs  # every visit counted once


@pytest.mark.parametrize("seed", range(10))
def test_alma_twin_is_the_loop_bit_for_bit(seed):
    X, Y = _draw(seed, flip=0.0)
    fast, loop = (beyond.alma(X, Y, alpha=0.2 + seed / 15, max_epochs=6, bias=seed % 2 == 0,
                              engine=e) for e in ("fast", "faithful"))
    assert np.array_equal(fast.w, loop.w) and fast.b == loop.b
    assert fast.updates_per_epoch == loop.updates_per_epoch and fast.history == loop.history


def test_sequential_dot_sums_left_to_right():
    """The readable loops' inner product is the one-term-at-a-time sum (not numpy's pairwise
    or BLAS sum): checked on a sum whose value depends on the order."""
    a = np.array([1e16, 1.0, -1e16, 1.0])
    assert passive._dot(a, np.ones(4)) == 1.0  # ((1e16 + 1) - 1e16) + 1, rounded step by step
    assert passive._dot(np.zeros(0), np.zeros(0)) == 0.0


# --- the rules themselves ---------------------------------------------------------------------

def test_pa_step_reaches_zero_loss_on_the_example():
    """PA's step is the smallest move that makes the hinge loss of the example 0."""
    x, y = np.array([[0.5, -1.0, 2.0]]), np.array([1.0])
    run = beyond.passive_aggressive(x, y, variant="PA", max_epochs=1, bias=False)
    assert math.isclose(y[0] * (run.w @ x[0]), 1.0, rel_tol=1e-15)
    assert np.allclose(run.w, x[0] / (x[0] @ x[0]))  # tau = 1 / |x|^2 from w = 0
    capped = beyond.passive_aggressive(x, y, variant="PA-I", C=0.01, max_epochs=1, bias=False)
    assert np.allclose(capped.w, 0.01 * x[0])
    soft = beyond.passive_aggressive(x, y, variant="PA-II", C=0.5, max_epochs=1, bias=False)
    assert np.allclose(soft.w, x[0] / (x[0] @ x[0] + 1.0))


def test_pa_is_passive_on_examples_with_margin():
    X, Y = np.array([[2.0, 0.0], [-3.0, 0.0]]), np.array([1.0, -1.0])
    run = beyond.passive_aggressive(X, Y, variant="PA-I", max_epochs=3)
    assert run.converged and run.updates_per_epoch[-1] == 0
    assert run.history["mistakes"][-1] == 0


def test_voted_prediction_is_a_vote_of_the_kept_weights():
    X, Y = _draw(3, n=120, flip=0.1)
    model = beyond.train_voted(X, Y, max_epochs=3)
    Xt = _draw(4, n=50)[0]
    votes = sum(c * np.sign(w @ Xt.T + b)
                for w, b, c in zip(model.weights, model.biases, model.counts))
    assert np.array_equal(beyond.predict_voted(model, Xt), np.where(votes >= 0, 1.0, -1.0))
    assert np.array_equal(beyond.predict_voted(model, Xt, method="last"),
                          np.where(Xt @ model.w + model.b >= 0, 1.0, -1.0))


def test_voted_average_is_the_averaged_perceptron():
    """The count-weighted average of the voted perceptron's weights is the averaged
    perceptron's (every visit's weights averaged), up to the order of the sums."""
    X, Y = _draw(5, n=150, flip=0.05)
    model = beyond.train_voted(X, Y, max_epochs=4)
    import gluon_perceptron as gp
    averaged = gp.train_averaged(X, Y, max_epochs=model.epochs)
    w, b = model.averaged()
    assert np.allclose(w, averaged.w, rtol=1e-9, atol=1e-12) and math.isclose(b, averaged.b,
                                                                                 rel_tol=1e-9)


@pytest.mark.parametrize("seed", range(30))
def test_voted_primal_and_kernel_forms_agree_exactly(seed):
    """On data with few binary digits every sum is exact, so the two forms make the same
    mistakes and give the same votes, whatever the order of the sums (30 draws)."""
    rng = np.random.default_rng(seed)
    X = rng.integers(-4, 5, size=(120, 5)).astype(np.float64)
    Y = np.where(X @ rng.integers(-3, 4, size=5) + 0.5 > 0, 1.0, -1.0)
    Y[rng.random(120) < 0.05] *= -1
    primal = beyond.train_voted(X, Y, max_epochs=3, bias=seed % 2 == 0)
    dual = beyond.train_voted_kernel(X, Y, max_epochs=3, bias=seed % 2 == 0)
    assert primal.updates_per_epoch == dual.updates_per_epoch
    assert np.array_equal(primal.counts, dual.counts)
    Xt = rng.integers(-4, 5, size=(60, 5)).astype(np.float64)
    assert np.array_equal(voting._scores(primal, Xt), voting._scores(dual, Xt))
    for method in ("vote", "average", "last"):
        assert np.array_equal(beyond.predict_voted(primal, Xt, method=method),
                              beyond.predict_voted(dual, Xt, method=method))


def test_kernel_voted_separates_xor_with_a_polynomial_kernel():
    X = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
    Y = np.array([-1.0, 1.0, 1.0, -1.0])
    model = beyond.train_voted_kernel(X, Y, max_epochs=50, kernel="poly", degree=2, gamma=1.0)
    assert model.converged
    assert np.array_equal(beyond.predict_voted(model, X, method="last"), Y)


def test_alma_follows_the_paper_on_a_hand_example():
    """Two updates worked by hand: x normalised, gamma_k = B / sqrt(k), eta_k = C / sqrt(k),
    w projected back into the unit ball."""
    X, Y = np.array([[3.0, 4.0], [0.0, -2.0]]), np.array([1.0, 1.0])
    run = beyond.alma(X, Y, alpha=0.5, max_epochs=1, bias=False)
    w = math.sqrt(2) * np.array([0.6, 0.8])  # k = 1: eta = sqrt(2), |w| > 1: normalised
    w /= np.linalg.norm(w)
    # second example: margin -0.8 <= (1 - 0.5) * 2 / sqrt(2): update with eta = sqrt(2)/sqrt(2)
    w = w + 1.0 * np.array([0.0, -1.0])
    w /= max(1.0, np.linalg.norm(w))
    assert np.allclose(run.w, w, rtol=1e-15) and run.history["k"] == 3
    assert run.updates_per_epoch == [2]


def test_alma_margin_reaches_the_promised_fraction():
    """Run to convergence on separable data, ALMA's margin on the normalised rows is at least
    (1 - alpha) times the optimal margin (Gentile 2001), with updates under the bound."""
    import gluon_perceptron as gp
    X, Y = _draw(11, n=80, d=3, flip=0.0)
    Z = approximate_margin.normalized_rows(X)
    best = gp.theory.optimal_margin(Z, Y, bias=False).gamma
    run = beyond.alma(X, Y, alpha=0.5, max_epochs=10_000)
    theta = np.append(run.w, run.b)
    assert run.converged
    assert np.min(Y * (Z @ theta)) / np.linalg.norm(theta) >= 0.5 * best
    assert run.updates <= approximate_margin.alma_bound(best, 0.5)


def test_bounds_are_the_papers_formulas():
    X = np.array([[3.0, 4.0], [1.0, 0.0]])
    Y = np.array([1.0, -1.0])
    u = np.array([0.0, 0.5])  # margins 2 and 0: hinge 0 and 1
    with pytest.raises(ValueError, match="hinge"):
        passive.pa_mistake_bound(X, Y, u, variant="PA")
    assert passive.pa_mistake_bound(X, Y, u, variant="PA-I", C=0.5) == 25.0 * (0.25 + 1.0)
    assert passive.pa_mistake_bound(X, Y, u, variant="PA-II", C=0.5, repeats=2) == \
        26.0 * (0.25 + 2.0)
    assert approximate_margin.alma_bound(0.5, 1.0) == 8.0 + 4.0
    assert voting.voted_bound(2.0, 0.5, 31) == 1.0


@pytest.mark.parametrize("call, message", [
    (lambda X, Y: beyond.passive_aggressive(X, Y, variant="PA-III"), "variant"),
    (lambda X, Y: beyond.passive_aggressive(X, Y, C=0.0), "C"),
    (lambda X, Y: beyond.alma(X, Y, alpha=1.5), "alpha"),
    (lambda X, Y: beyond.alma(X, Y, alpha=0.0), "alpha"),
    (lambda X, Y: beyond.predict_voted(beyond.train_voted(X, Y), X[:, :2]), "features"),
    (lambda X, Y: beyond.predict_voted(beyond.train_voted(X, Y), X, method="mean"), "method"),
])
def test_bad_arguments_are_named(call, message):
    X, Y = _draw(0, n=20)
    with pytest.raises((ValueError, TypeError), match=message):
        call(X, Y)


@pytest.mark.parametrize("trainer", [
    lambda X, Y, e: beyond.passive_aggressive(X, Y, variant="PA", max_epochs=3, engine=e),
    lambda X, Y, e: beyond.train_voted(X, Y, max_epochs=3, engine=e),
])
@pytest.mark.parametrize("engine", ["fast", "faithful"])
def test_overflow_is_refused(trainer, engine):
    X = np.array([[1e308, 1e308], [-1e308, 1e308]])
    Y = np.array([1.0, 1.0])
    with pytest.raises(ValueError, match="overflow"):
        trainer(X, Y, engine)


def test_budget_is_reported():
    X, Y = _draw(1, flip=0.2)
    for run in (beyond.passive_aggressive(X, Y, max_epochs=3),
                beyond.train_voted(X, Y, max_epochs=3),
                beyond.alma(X, Y, alpha=0.5, max_epochs=3)):
        assert run.epochs == 3 and not run.converged


# --- oracles: scikit-learn and river ---------------------------------------------------------

def _real_sets() -> dict:
    """Real binary problems: scikit-learn's digits pairs, breast cancer, wine pairs, and the
    5,000 MNIST digits (zero or not, 1000 rows of it)."""
    datasets = pytest.importorskip("sklearn.datasets")
    sets = {}
    digits = datasets.load_digits()
    for a, b in ((0, 1), (3, 8), (4, 9), (1, 7), (5, 6), (2, 3)):
        keep = np.isin(digits.target, (a, b))
        sets[f"digits {a}/{b}"] = (digits.data[keep] / 16.0,
                                   np.where(digits.target[keep] == a, 1.0, -1.0))
    cancer = datasets.load_breast_cancer()
    sets["breast cancer"] = (cancer.data / cancer.data.max(0), np.where(cancer.target, 1.0, -1.0))
    wine = datasets.load_wine()
    for a, b in ((0, 1), (1, 2)):
        keep = np.isin(wine.target, (a, b))
        sets[f"wine {a}/{b}"] = (wine.data[keep] / wine.data.max(0),
                                 np.where(wine.target[keep] == a, 1.0, -1.0))
    X, y = real.load_mnist_5k()
    sets["MNIST 5k"] = (X, np.where(y == 0, 1.0, -1.0))
    return sets


_SETS: dict = {}


def _real(name: str):
    if not _SETS:
        _SETS.update(_real_sets())
    return _SETS[name]


_REAL = ["digits 0/1", "digits 3/8", "digits 4/9", "digits 1/7", "digits 5/6", "digits 2/3",
         "breast cancer", "wine 0/1", "wine 1/2", "MNIST 5k"]


@pytest.mark.parametrize("C", [0.01, 0.5, 10.0])
@pytest.mark.parametrize("variant", ["PA-I", "PA-II"])
@pytest.mark.parametrize("name", _REAL)
def test_pa_equals_scikit_learn_bit_for_bit(name, variant, C):
    """PA-I and PA-II make scikit-learn's PassiveAggressiveClassifier's updates exactly: the
    same weights and intercept, bit for bit (10 real sets x 2 variants x 3 C = 60 runs)."""
    linear_model = pytest.importorskip("sklearn.linear_model")
    X, Y = _real(name)
    epochs = 3 if name == "MNIST 5k" else 8
    ours = beyond.passive_aggressive(X, Y, variant=variant, C=C, max_epochs=epochs)
    theirs = linear_model.PassiveAggressiveClassifier(
        C=C, loss="hinge" if variant == "PA-I" else "squared_hinge", max_iter=epochs,
        shuffle=False, tol=None, fit_intercept=True, average=False).fit(X, Y)
    # when ours converged early, scikit-learn's remaining passes make no update either
    assert np.array_equal(ours.w, theirs.coef_[0]) and ours.b == theirs.intercept_[0]


def _river_run(model, X, Y, epochs: int):
    for _ in range(epochs):
        for x, y in zip(X, Y):
            model.learn_one(dict(enumerate(x)), bool(y > 0))
    return model


@pytest.mark.parametrize("variant, mode", [("PA", 0), ("PA-I", 1), ("PA-II", 2)])
@pytest.mark.parametrize("name", ["digits 3/8", "breast cancer", "wine 1/2"])
def test_pa_equals_river_to_1e_12(name, variant, mode):
    """river's PAClassifier (the three variants) to 1e-12: it squares a square root for
    :math:`\\|x\\|^2`, so it differs in the last bits."""
    linear_model = pytest.importorskip(
        "river.linear_model", reason="river is not installed (the 'river' extra: pip install "
                                     "-e '.[river]')")
    X, Y = _real(name)
    X, Y = X[:150], Y[:150]
    ours = beyond.passive_aggressive(X, Y, variant=variant, C=0.5, max_epochs=2)
    theirs = _river_run(linear_model.PAClassifier(C=0.5, mode=mode), X, Y, ours.epochs)
    w = np.array([theirs.weights.get(j, 0.0) for j in range(X.shape[1])])
    assert np.allclose(w, ours.w, rtol=0, atol=1e-12)
    assert abs(theirs.intercept - ours.b) <= 1e-12


def test_river_alma_departs_from_the_paper_on_one_example():
    """The slips page's example. river's ALMAClassifier does not normalise x: after
    x1 = (3, 4) both hold w = (0.6, 0.8), and on x2 = (-3, 2.5) the paper's margin
    w.x2 / |x2| = 0.051 is below the target (1 - 0.9) (1/0.9) / sqrt(2) = 0.079, so it
    updates, while river's raw margin 0.2 is above it. And river projects only the
    coordinates present in x: after a sparse x its weights leave the unit ball."""
    linear_model = pytest.importorskip(
        "river.linear_model", reason="river is not installed (the 'river' extra)")
    X, Y = np.array([[3.0, 4.0], [-3.0, 2.5]]), np.array([1.0, 1.0])
    paper = beyond.alma(X, Y, alpha=0.9, max_epochs=1, bias=False)
    theirs = _river_run(linear_model.ALMAClassifier(alpha=0.9, B=1 / 0.9), X[:1], Y, 1)
    assert np.allclose([theirs.w[0], theirs.w[1]], [0.6, 0.8])
    theirs.learn_one({0: -3.0, 1: 2.5}, True)
    assert paper.history["k"] == 3 and theirs.k == 2  # the paper updates on x2, river not
    theirs.learn_one({0: -3.0}, True)  # a sparse x: feature 1 absent
    assert math.hypot(theirs.w[0], theirs.w[1]) > 1.0  # outside the ball the paper keeps
    sparse = beyond.alma(np.array([[3.0, 4.0], [-3.0, 2.5], [-3.0, 0.0]]), np.ones(3),
                         alpha=0.9, max_epochs=1, bias=False)
    assert np.linalg.norm(sparse.w) <= 1.0 + 1e-15


def _libol_alma(X, Y, alpha):
    """LIBOL's ``algorithms/ALMA.m`` (p = 2), transcribed: B fixed at 1/alpha, x used as it
    comes (not normalised), no bias, and an update only when the margin is strictly below the
    target (the paper updates at a tie too). Returns the weights and k."""
    w, k, B, C = np.zeros(X.shape[1]), 1, 1.0 / alpha, math.sqrt(2.0)
    for x, y in zip(X, Y):
        if (1.0 - alpha) * B / math.sqrt(k) - y * (w @ x) > 0:
            w = w + C / math.sqrt(k) * y * x
            w = w / max(1.0, np.linalg.norm(w))
            k += 1
    return w, k


def test_libol_alma_departs_from_the_paper_on_one_example():
    """The slips page's example, against LIBOL's rule: on x2 = (-3, 2.5) the raw margin 0.2 is
    above the target 0.079, so LIBOL does not update where the paper (margin 0.051 on the
    normalised x2) does; and at a margin exactly on the target LIBOL does not update, the paper
    does."""
    X, Y = np.array([[3.0, 4.0], [-3.0, 2.5]]), np.array([1.0, 1.0])
    paper = beyond.alma(X, Y, alpha=0.9, max_epochs=1, bias=False)
    w, k = _libol_alma(X, Y, alpha=0.9)
    assert np.allclose(w, [0.6, 0.8]) and k == 2 and paper.history["k"] == 3
    # ties: alpha = 1 makes the target 0, and from w = 0 every margin is 0 (x2 is orthogonal
    # to w after the paper's first update), so the paper updates twice and LIBOL never moves
    X, Y = np.array([[1.0, 0.0], [0.0, 1.0]]), np.array([1.0, 1.0])
    w, k = _libol_alma(X, Y, alpha=1.0)
    paper = beyond.alma(X, Y, alpha=1.0, max_epochs=1, bias=False)
    assert k == 1 and not w.any() and paper.history["k"] == 3


# --- the theory, measured (experiments; seeds the notebook never prints) ---------------------

def test_pa_bounds_hold_on_30_draws():
    """Crammer et al.'s Theorems 2, 4 and 5 are theorems: every draw is under its bound."""
    import gluon_perceptron as gp
    run = gp.experiments.pa_bounds_experiment(draws=30, seed=1000)
    assert run.holds() == {"PA": 1.0, "PA-I": 1.0, "PA-II": 1.0}
    assert all(len(m) == 30 and m.min() >= 0 for m in run.mistakes.values())
    assert run.mistakes["PA-I"].sum() > 0  # the noisy streams do make mistakes


def test_voted_error_is_under_its_bound_on_30_draws():
    """Freund and Schapire's bound on the expected error: the mean test error over 30 draws is
    below 2/(m+1) E[(R/gamma)^2]."""
    import gluon_perceptron as gp
    run = gp.experiments.voted_bound_experiment(draws=30, seed=1000)
    assert run.error.shape == (30,) and run.error.mean() <= run.bound
    assert math.isclose(run.bound, 2 / 501 * run.ratio.mean())


def test_alma_reaches_its_margin_on_30_draws():
    """Gentile's Theorem 3 with B = 1/alpha, C = sqrt 2: run to convergence, the margin is at
    least (1 - alpha) gamma* and the updates at most the bound, on every draw."""
    import gluon_perceptron as gp
    run = gp.experiments.alma_margin_experiment(draws=30, seed=1000, alpha=0.5)
    assert run.converged.all()
    assert (run.fraction >= 1 - run.alpha).all() and (run.fraction <= 1 + 1e-9).all()
    assert (run.updates <= run.bound).all()


def test_averaged_and_voted_beat_the_last_weights_on_40_draws():
    """The notebook's claim, on draws it never prints: with 10% of the labels flipped, the
    averaged and the voted predictors err less than the last weights in at least 9 draws of
    10 (40 draws)."""
    import gluon_perceptron as gp
    run = gp.experiments.heldout_predictors_experiment(draws=40, seed=1000)
    assert min(run.beats_last().values()) >= 0.9


def test_fast_without_numba_runs_the_loop(monkeypatch):
    """With the numpy backend (``GLUON_PERCEPTRON_FAST=numpy``), engine="fast" runs the
    readable loop rather than the uncompiled twin: the same results."""
    from gluon_perceptron.core.rosenblatt import engine
    X, Y = _draw(2, n=60)
    runs = {}
    for backend in ("compiled", "numpy"):
        monkeypatch.setattr(engine, "FAST_BACKEND", backend)
        if backend == "numpy":  # the twins must not run: uncompiled, they are slow Python
            for module, twin in ((passive, "_fast_pa"), (voting, "_fast_voted"),
                                 (voting, "_fast_voted_kernel"),
                                 (approximate_margin, "_fast_alma")):
                monkeypatch.setattr(module, twin, None)
        runs[backend] = (beyond.passive_aggressive(X, Y, max_epochs=3),
                         beyond.train_voted(X, Y, max_epochs=3),
                         beyond.alma(X, Y, alpha=0.5, max_epochs=3),
                         beyond.train_voted_kernel(X, Y, max_epochs=3))
    for a, b in zip(runs["compiled"][:3], runs["numpy"][:3]):
        assert np.array_equal(a.w, b.w) and a.updates_per_epoch == b.updates_per_epoch
    assert np.array_equal(runs["compiled"][3].rows, runs["numpy"][3].rows)


@pytest.mark.parametrize("seed", range(6))
def test_voted_kernel_twin_is_the_loop_bit_for_bit(seed):
    X, Y = _draw(seed, n=120, flip=0.1)
    kernel = ("linear", "poly", "rbf")[seed % 3]
    fast, loop = (beyond.train_voted_kernel(X, Y, max_epochs=4, kernel=kernel,
                                            bias=seed % 2 == 0, engine=e)
                  for e in ("fast", "faithful"))
    assert np.array_equal(fast.rows, loop.rows) and np.array_equal(fast.counts, loop.counts)
    assert fast.updates_per_epoch == loop.updates_per_epoch
    Xt = _draw(seed + 50, n=40)[0]
    assert np.array_equal(voting._scores(fast, Xt), voting._scores(loop, Xt))
