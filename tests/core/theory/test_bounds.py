"""The convergence theorems, checked on many seeded runs against independent computations."""

import re

import numpy as np
import pytest

import gluon_perceptron as gp
from gluon_perceptron.core.theory import separability as geometry
from gluon_perceptron.core.theory.bounds import constant_rate_optimum, general_bound
from gluon_perceptron.experiments import convergence as exp_convergence
from gluon_perceptron.experiments.optimality import adversary_curve


def _datasets(seed, count=12, dims=(2, 5, 10), sizes=(50, 300), eps=(0.05, 0.2)):
    seed(7)
    out = []
    for k in range(count):
        out.append(gp.sample_separable(sizes[k % len(sizes)], dims[k % len(dims)],
                                       eps[(k // 2) % len(eps)]))
    return out


# --- the replay is the same rule as train -----------------------------------------------------

def test_update_path_matches_train_exactly(seed):
    for k, fake in enumerate(_datasets(seed)):
        kw = {} if k % 3 else {"w0": np.ones(fake.X.shape[1]), "b0": -0.5, "threshold": 0.3}
        run = gp.train(fake.X, fake.Y, max_epochs=10_000, **kw)
        path = gp.rosenblatt.update_path(fake.X, fake.Y, max_epochs=10_000, **kw)
        assert path.converged and run.converged
        assert path.updates == run.updates
        np.testing.assert_array_equal(path.w, run.w)
        assert path.b == run.b


def test_update_path_reports_when_it_hits_its_bound():
    X, Y = gp.xor_data()
    path = gp.rosenblatt.update_path(X, Y, max_epochs=7)
    assert not path.converged and path.epochs == 7 and path.updates > 0


def test_padding_gives_the_same_run_as_a_bias_exactly(seed):
    """Remark 1.17: the homogeneous perceptron on (x, 1) is the perceptron with bias on x."""
    for fake in _datasets(seed, count=8):
        for X in (fake.X.asnumpy(), fake.X.asnumpy().astype(np.float64)):
            with_bias = gp.rosenblatt.update_path(X, fake.Y, max_epochs=10_000, bias=True)
            padded = gp.rosenblatt.update_path(gp.data.pad_constant(X), fake.Y, max_epochs=10_000,
                                               bias=False)
            np.testing.assert_array_equal(padded.examples, with_bias.examples)
            np.testing.assert_array_equal(padded.thetas, with_bias.thetas)
            run = gp.train(X, fake.Y, max_epochs=10_000)
            np.testing.assert_array_equal(padded.w, np.append(run.w, run.b))


# --- the proof's two halves, and the bounds ---------------------------------------------------

def test_proof_halves_hold_at_every_update(seed):
    for fake in _datasets(seed, count=8):
        u = gp.theory.separator(fake.wfake, fake.bfake)
        tr = gp.experiments.proof_trace(fake.X, fake.Y, u)
        A = np.hstack([fake.X.asnumpy(), np.ones((fake.X.shape[0], 1))]) \
            * fake.Y.asnumpy()[:, None]
        s = (A @ u).min()
        R2 = (A**2).sum(axis=1).max()
        thetas = tr.path.thetas
        step_progress = np.diff(thetas @ u)
        step_norm = np.diff((thetas**2).sum(axis=1))
        assert np.all(step_progress >= s * (1 - 1e-5))          # Part 1, update by update
        assert np.all(step_norm <= R2 * (1 + 1e-5))             # Part 2, update by update
        assert tr.path.updates <= (R2 * (u @ u)) / s**2           # their squeeze
        assert tr.bound == pytest.approx(R2 * (u @ u) / s**2, rel=1e-5)


def test_bounds_never_exceeded_over_many_datasets(seed):
    seed(11)
    rec = gp.experiments.bound_experiment(dimensions=(2, 6, 15), samples=(60, 400),
                                          epsilons=(0.05, 0.3), trials=2)
    assert rec["updates"].size == 24
    assert rec["converged"].all() and rec["homogeneous_converged"].all()
    assert np.all(rec["updates"] <= rec["bias_bound"])
    assert np.all(rec["updates"] <= rec["optimal_bound"] * (1 + 1e-6))
    assert np.all(rec["optimal_bound"] <= rec["bias_bound"] * (1 + 1e-6))  # gamma_2 is best
    assert np.all(rec["optimal_bound"] <= rec["chapter_bound"] * (1 + 1e-6))
    # notebook 6: "the bounds are loose, often by one or two orders of magnitude"
    for bound in ("bias_bound", "chapter_bound"):
        assert np.median(rec["updates"] / rec[bound]) < 0.1
    assert np.median(rec["homogeneous_updates"] / rec["novikoff_bound"]) < 0.1
    assert np.all(rec["homogeneous_updates"] <= rec["novikoff_bound"])
    ok = rec["b"] ** 2 <= 1
    assert ok.any() and np.all(rec["updates"][ok] <= rec["chapter_bound"][ok])
    # observed, not promised: on getfake data even planes with b*^2 > 1 stay below it
    assert (~ok).any() and np.all(rec["updates"] <= rec["chapter_bound"])
    # the bounds see the data only through R < 3 and gamma >= epsilon
    assert np.all(rec["R"] < 3) and np.all(rec["gamma"] >= rec["epsilon"] - 1e-6)
    assert np.all(rec["chapter_bound"] <= 2 * (9 + 1) / rec["epsilon"] ** 2)


def test_count_is_independent_of_dimension_and_size(seed):
    """Embedding the data in more dimensions (rotated) or repeating it changes neither R,
    gamma nor the bound, and leaves the measured count unchanged or below the same bound."""
    rng = np.random.default_rng(0)
    for fake in _datasets(seed, count=6):
        X, Y = fake.X.asnumpy().astype(np.float64), fake.Y.asnumpy()
        base = gp.train(X, Y, max_epochs=10_000)
        d = X.shape[1]
        Q, _ = np.linalg.qr(rng.normal(size=(d + 20, d + 20)))
        big = np.hstack([X, np.zeros((X.shape[0], 20))]) @ Q
        emb = gp.train(big, Y, max_epochs=10_000)
        assert emb.updates == base.updates
        assert gp.theory.radius(big) == pytest.approx(gp.theory.radius(X))
        twice = gp.train(np.vstack([X, X]), np.concatenate([Y, Y]), max_epochs=10_000)
        info = gp.theory.generating_plane_bound(X, Y, fake.wfake, fake.bfake)
        assert twice.updates <= info["bound"]


def test_general_bound_with_start_and_threshold(seed):
    """(1.4) holds for any start theta_0 and threshold delta."""
    rng = np.random.default_rng(3)
    for fake in _datasets(seed, count=9):
        d = fake.X.shape[1]
        u = gp.theory.separator(fake.wfake, fake.bfake)
        for scale, delta in [(0.0, 1.0), (5.0, 0.0), (30.0, 2.0)]:
            w0 = rng.normal(size=d) * scale
            b0 = float(rng.normal() * scale)
            tr = gp.experiments.proof_trace(fake.X, fake.Y, u, w0=w0, b0=b0, threshold=delta)
            assert tr.path.converged
            assert tr.path.updates <= tr.bound
            # the margin after convergence exceeds the threshold on every example
            A = geometry.signed_rows(fake.X, fake.Y)
            assert (A @ tr.path.thetas[-1]).min() > delta


def test_general_bound_closed_form():
    assert general_bound(np.sqrt(10), 0.5, 1.2) == pytest.approx(10 * 1.44 / 0.25)
    # theta_0 = 0, delta = 0, R_a^2 = R^2 + 1 and u = (w*, b*): the bias bound
    assert general_bound(np.sqrt(10), 0.5, np.sqrt(1 + 0.7**2)) == pytest.approx(
        gp.theory.bias_bound(3.0, 0.5, 1.0, 0.7))
    # (1.4) is at least the largest t solving the squeeze with the worst-aligned start
    Ra, s, un, m, delta = 2.0, 0.3, 1.5, 4.0, 0.7
    t = np.linspace(0, 1000, 200_001)
    ok = (t * s - un * m) / un <= np.sqrt(m**2 + (2 * delta + Ra**2) * t)
    assert t[ok].max() <= general_bound(Ra, s, un, w0_norm=m, threshold=delta)
    assert t[ok].max() >= 0.9 * general_bound(Ra, s, un, w0_norm=m, threshold=delta)
    with pytest.raises(ValueError, match="general_bound overflowed: radius_a=1, s=0,"):
        general_bound(1.0, 0.0, 1.0)  # for the package: s = 0 is not checked, its inf is named


# --- broken assumptions: the naive bound is exceeded ------------------------------------------

def test_broken_assumptions_let_the_count_exceed_the_naive_bound(seed):
    seed(0)
    fake = gp.sample_separable(200, 2, 0.2)
    u = gp.theory.separator(fake.wfake, fake.bfake)
    naive = gp.experiments.proof_trace(fake.X, fake.Y, u).bound     # assumes theta_0 = 0, delta = 0
    big_delta = gp.experiments.proof_trace(fake.X, fake.Y, u, threshold=20.0)
    assert big_delta.path.updates > naive >= \
        gp.experiments.proof_trace(fake.X, fake.Y, u).path.updates
    assert big_delta.path.updates <= big_delta.bound
    far = gp.experiments.proof_trace(fake.X, fake.Y, u, w0=-1000 * u[:-1], b0=float(-1000 * u[-1]))
    assert far.path.updates > naive and far.path.updates <= far.bound


def test_chapter_bound_needs_small_bias():
    """Two 1-D points far from the origin: the plane x = 20 (b* = -20) has margin 10, and
    2(R^2+1)/eps^2 = 18 is exceeded; the bound with the true b* holds."""
    X, Y = np.array([[10.0], [30.0]]), np.array([-1.0, 1.0])
    run = gp.train(X, Y, max_epochs=100_000)
    assert run.converged
    chapter = gp.theory.chapter_bound(gp.theory.radius(X), 10.0)
    assert run.updates > chapter
    assert run.updates <= gp.theory.bias_bound(gp.theory.radius(X), 10.0, 1.0, -20.0)


# --- normalization ----------------------------------------------------------------------------

def test_shift_plane_to_origin_keeps_margins(seed):
    for fake in _datasets(seed, count=4):
        Xh = gp.theory.shift_plane_to_origin(fake.X, fake.wfake, fake.bfake)
        before = gp.generating_margins(fake.X, fake.Y, fake.wfake, fake.bfake)
        after = gp.generating_margins(Xh, fake.Y, fake.wfake, np.zeros(1))
        np.testing.assert_allclose(after, before, atol=1e-5)


def test_scaling_and_translation(seed):
    seed(5)
    fake = gp.sample_separable(150, 3, 0.1)
    Xh = gp.theory.shift_plane_to_origin(fake.X, fake.wfake, fake.bfake)
    runs = {lam: gp.experiments.transformed_run(Xh, fake.Y, fake.wfake, np.zeros(1), scale=lam)
            for lam in (0.01, 1.0, 64.0)}
    # without a bias, from zero, scaling changes nothing: w_t scales by lambda, signs do not
    assert len({r.homogeneous_updates for r in runs.values()}) == 1
    # the margin scales with the data, separability survives
    assert runs[64.0].gamma == pytest.approx(64 * runs[1.0].gamma, rel=1e-6)
    assert all(r.converged for r in runs.values())
    # with a bias the run does change with the scale, and stays below its bound
    orig = {lam: gp.experiments.transformed_run(fake.X, fake.Y, fake.wfake, fake.bfake, scale=lam)
            for lam in (0.05, 1.0, 20.0)}
    assert len({r.updates for r in orig.values()}) > 1
    assert len({round(r.optimal_bound, 6) for r in orig.values()}) == 3  # so does the bound
    assert all(r.updates <= r.optimal_bound * (1 + 1e-6) for r in orig.values())
    # translating keeps the data separable and moves the plane's bias by -w*.shift
    shift = np.full(3, 4.0)
    moved = gp.experiments.transformed_run(fake.X, fake.Y, fake.wfake, fake.bfake, shift=shift)
    w = fake.wfake.asnumpy()
    assert moved.converged
    assert moved.b == pytest.approx(float(fake.bfake.asscalar()) - w @ shift, rel=1e-5)
    assert moved.updates <= moved.bias_bound
    far = gp.experiments.transformed_run(fake.X, fake.Y, fake.wfake, fake.bfake,
                                         shift=np.full(3, 10.0))
    home = gp.experiments.transformed_run(fake.X, fake.Y, fake.wfake, fake.bfake)
    assert far.bias_bound > home.bias_bound and far.optimal_bound > home.optimal_bound
    # ... because moving the data far from the origin makes |b*| and R larger (notebook 6)
    assert abs(far.b) > abs(home.b) and far.R > home.R


# --- optimality: Theorem 1.34 -----------------------------------------------------------------

@pytest.mark.parametrize("gamma,d", [(0.5, 10), (0.3, 10), (0.1, 50), (0.1, 200), (1.0, 3),
                                     (0.5, 50), (0.2, 50), (0.1, 500)])
def test_adversary_forces_min_inverse_gamma_squared_and_d(gamma, d):
    run = gp.experiments.adversary_run(gamma, d)
    n = min(int(round(1 / gamma**2)) if abs(1 / gamma**2 - round(1 / gamma**2)) < 1e-9
            else int(1 / gamma**2), d)
    assert run.n == n and run.mistakes == n
    w = run.witness
    assert np.linalg.norm(w) <= 1 + 1e-12
    np.testing.assert_allclose(run.Y * (run.X @ w), gamma)
    # the best margin of this dataset is 1/sqrt(n): Novikoff's bound R^2/gamma_2^2 = n is tight
    opt = gp.theory.optimal_margin(run.X, run.Y, bias=False)
    assert opt.gamma == pytest.approx(1 / np.sqrt(n), rel=1e-5)
    assert opt.bound == pytest.approx(n, rel=1e-4)
    assert gp.rosenblatt.update_path(run.X, run.Y, max_epochs=100, bias=False).updates == n


def test_adversary_beats_any_deterministic_learner():
    class AlwaysPositive:
        def predict(self, x):
            return 1.0

        def update(self, x, y):
            pass

    run = gp.experiments.adversary_run(0.25, 30, learner=AlwaysPositive())
    assert run.mistakes == run.n == 16 and np.all(run.Y == -1)
    with pytest.raises(ValueError, match="gamma"):
        gp.experiments.adversary_run(1.5, 3)


# --- generalization: Theorem 2.6 --------------------------------------------------------------

def _loo_brute_force(X, Y):
    errors = 0
    for i in range(X.shape[0]):
        keep = np.arange(X.shape[0]) != i
        run = gp.train(X[keep], Y[keep], max_epochs=10_000)
        errors += int(Y[i] * (X[i] @ run.w + run.b) <= 0)
    return errors


def test_leave_one_out_shortcut_equals_brute_force(seed):
    seed(2)
    for n, eps in [(25, 0.05), (40, 0.1), (30, 0.02)]:
        fake = gp.sample_separable(n, 2, eps)
        X, Y = fake.X.asnumpy(), fake.Y.asnumpy()
        loo = gp.experiments.leave_one_out(X, Y)
        assert loo.errors == _loo_brute_force(X, Y)
        assert loo.errors <= loo.support <= loo.updates


def test_leave_one_out_bound_holds_on_average(seed):
    seed(4)
    for n in (20, 80):
        g = gp.experiments.generalization_experiment(n, 25, epsilon=0.3, test_points=100)
        assert np.all(g.loo <= g.support)               # per draw: errors only in I
        assert np.all(g.support <= g.updates + 1e-12)
        assert np.all(g.updates <= g.bound * (1 + 1e-6))
        assert g.loo.mean() <= g.bound.mean()


def test_generalization_bound_is_loose_for_small_n_and_falls(seed):
    """Notebook 7: the bound exceeds 1 for the smallest N and falls with N, so do the errors.
    It falls more slowly than 1/N: (N+1) x bound = E[R_a^2/gamma_2^2] grows, since more points
    leave a smaller margin."""
    seed(4)
    sizes = (15, 60, 240)
    g = [gp.experiments.generalization_experiment(n, 20, epsilon=0.5, test_points=100)
         for n in sizes]
    bound = np.array([s.bound.mean() for s in g])
    loo = np.array([s.loo.mean() for s in g])
    assert bound[0] > 1 and np.all(np.diff(bound) < 0)
    assert loo[-1] < loo[0] and np.all(loo <= bound)
    assert np.all(np.diff(bound * (np.array(sizes) + 1)) > 0)


def test_proof_trace_rejects_a_non_separator(seed):
    fake = _datasets(seed, count=1)[0]
    u = -gp.theory.separator(fake.wfake, fake.bfake)
    with pytest.raises(ValueError, match="does not separate"):
        gp.experiments.proof_trace(fake.X, fake.Y, u)
    with pytest.raises(ValueError, match="entries"):
        gp.experiments.proof_trace(fake.X, fake.Y, u[:-1])
    with pytest.raises(ValueError, match="b0"):
        gp.rosenblatt.update_path(fake.X, fake.Y, max_epochs=3, bias=False, b0=1.0)


def test_section_names_are_registered():
    from gluon_perceptron.main import job

    names = job.section_names()
    for name in ("Convergence bounds", "Optimality and generalization",
                 "Expressivity and the loss surface"):
        assert name in names
    assert exp_convergence.BOUND_FIELDS[0] == "dimensions"


def test_adversary_needs_no_dense_identity():
    """Issue 12: adversary_run(0.5, 10**5) shows 4 basis vectors; it never builds d x d."""
    import tracemalloc

    tracemalloc.start()
    run = gp.experiments.adversary_run(0.5, 10**5)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 20 * 2**20   # a dense identity would be 80 GB; one example is 0.8 MB
    assert run.n == run.mistakes == 4 and run.dimensions == 10**5
    assert run.X_sparse.shape == (4, 10**5) and run.X_sparse.nnz == 4
    np.testing.assert_allclose(run.Y * (run.X_sparse @ run.witness), 0.5)
    assert run.X.shape == (4, 10**5)
    big = gp.experiments.adversary_run(0.001, 10**4, learner=_AlwaysNegative())
    with pytest.raises(ValueError, match="X_sparse"):
        big.X  # noqa: B018 - 10**4 x 10**4 dense entries, refused
    with pytest.raises(ValueError, match="dimensions must be at most 100,000,000"):
        gp.experiments.adversary_run(1.0, 10**9)  # the learner's 10**9 weights, refused


class _AlwaysNegative:
    def predict(self, x):
        return -1.0

    def update(self, x, y):
        pass


def test_adversary_curve_matches_the_theorem():
    curve = adversary_curve([0.5, 0.3, 0.2, 0.15, 0.1, 0.07, 0.05], 100)
    np.testing.assert_array_equal(curve.forced, curve.limit)
    assert curve.limit.tolist() == [4, 11, 25, 44, 100, 100, 100]
    with pytest.raises(ValueError, match="gamma"):  # each adversary_run checks its margin
        adversary_curve([0.5, 2.0], 10)


# --- notebook 06's claims, on the objects and over many draws --------------------------------

#: Seeds reserved for the tests: no notebook prints a draw from them.
TEST_SEEDS = range(10_000, 10_040)


def test_count_grows_with_dimension_then_levels_off(seed):
    """Notebook 06: over 32 datasets per dimension (8 per cell of n in {100, 1000}, eps in
    {0.1, 0.3}) the median count grows from d = 2 to d = 10 and much less, if at all, from
    d = 10 to d = 20; the spread within a dimension is as large as that change. Checked on 2
    grids from the reserved seeds."""
    for master in TEST_SEEDS[:2]:
        seed(master)
        rec = gp.experiments.bound_experiment(dimensions=(2, 5, 10, 20), samples=(100, 1000),
                                  epsilons=(0.1, 0.3), trials=8)
        assert rec.trials == 8 and rec.updates.size == 128
        assert rec.converged.all() and rec.homogeneous_converged.all()
        for count, bound in (("updates", "bias_bound"), ("updates", "optimal_bound"),
                             ("updates", "chapter_bound"),
                             ("homogeneous_updates", "novikoff_bound")):
            assert np.all(getattr(rec, count) <= getattr(rec, bound) * (1 + 1e-6)), bound
        dims, med = rec.median_by_dimension("updates")
        assert dims.tolist() == [2, 5, 10, 20]
        assert 1.5 <= med[2] / med[0] <= 5.0
        assert med[1] > med[0] and med[3] <= 1.5 * med[2]
        assert med[3] / med[2] < med[2] / med[0]            # much less growth after d = 10
        q = rec.quartiles_by_dimension("updates")
        assert q[2, 2] - q[2, 0] >= med[2] - med[0]
        # the bounds do not grow with d: the optimal-margin bound's median falls
        _, bound = rec.median_by_dimension("optimal_bound")
        assert bound[-1] < bound[0]
        assert rec["updates"] is rec.updates                 # the old dict access still works


def test_dimension_growth_over_many_grids():
    """Notebook 06: the median count at d = 10 over that at d = 2 is a random number, roughly
    two- to fourfold: on 20 reserved grids every ratio is between 1.5 and 5 and the median
    between 2.3 and 3.6 (on the notebook's 40 grids: 1.8 to 3.9, median 2.95)."""
    growth = gp.experiments.dimension_growth(TEST_SEEDS[:20], dimensions=(2, 10))
    ratios = growth.ratios(10)
    assert ratios.shape == (20,) and growth.medians.shape == (20, 2)
    assert np.all((1.5 <= ratios) & (ratios <= 5.0))
    assert 2.3 <= np.median(ratios) <= 3.6
    assert np.ptp(ratios) > 0.5                          # it does vary from grid to grid
    with pytest.raises(ValueError, match="dimension"):
        growth.ratios(5)


def test_optimal_margin_gives_the_smallest_bound(seed):
    """Notebook 06: gamma_2 is at least the generating plane's margin per unit (w*, b*), so its
    bound is the smaller one, on every dataset."""
    for fake in _datasets(seed, count=6):
        info = gp.theory.generating_plane_bound(fake.X, fake.Y, fake.wfake, fake.bfake)
        opt = gp.theory.optimal_margin(fake.X, fake.Y)
        assert opt.gamma >= info.gamma / np.sqrt(1 + info.b**2) * (1 - 1e-6)
        assert opt.bound <= info.bound * (1 + 1e-6)
        assert info["bound"] == info.bound and "gamma" in info


def test_shift_along_the_normal_grows_the_bias_by_the_distance(seed):
    """Notebook 06: moving the data a distance c along the normal that carries the plane away
    from the origin makes |b*| grow by exactly c; R and the plane's bound grow with it. A shift
    parallel to the plane leaves b* alone. On 5 datasets."""
    for fake in _datasets(seed, count=5, dims=(2, 3)):
        w = fake.wfake.asnumpy().astype(np.float64)
        w /= np.linalg.norm(w)
        b0 = float(fake.bfake.asscalar())
        away = -np.sign(b0) * w
        moved = [gp.experiments.transformed_run(fake.X, fake.Y, fake.wfake, fake.bfake,
                                                shift=c * away, max_epochs=100_000)
                 for c in (0.0, 1.0, 3.0, 10.0)]
        np.testing.assert_allclose([abs(r.b) for r in moved],
                                   abs(b0) + np.array([0.0, 1.0, 3.0, 10.0]), atol=1e-5)
        assert np.all(np.diff([r.R for r in moved]) > 0)
        assert np.all(np.diff([r.bias_bound for r in moved]) > 0)
        assert all(r.converged and r.updates <= r.bias_bound for r in moved)
        along = np.zeros_like(w)
        along[0], along[1] = -w[1], w[0]                       # parallel to the plane
        side = gp.experiments.transformed_run(fake.X, fake.Y, fake.wfake, fake.bfake,
                                              shift=5 * along)
        assert side.b == pytest.approx(moved[0].b, abs=1e-5)


@pytest.fixture(scope="module")
def curves():
    """Notebook 07's table on 1 run from a reserved seed, 40 draws for each N in 25 ... 400."""
    import mxnet as mx

    mx.random.seed(TEST_SEEDS[0])
    return gp.experiments.generalization_curve([25, 50, 100, 200, 400], 40, epsilon=0.5,
                                               test_points=200)


def test_generalization_theorem_in_every_draw(curves):
    """Notebook 07: the steps of Theorem 2.6's proof hold in every draw (leave-one-out
    mistakes <= |I| <= updates <= R_a^2 / gamma_2^2), and every run converged. What the
    notebook says of its tables (the bound's rise and fall, the errors falling faster than
    1/N, the two columns agreeing) are frequencies over 40 tables of 100 draws: the
    ``generalization`` claims, which ``tests/experiments/test_claims.py`` checks on 40 reserved
    tables (``-m claims``)."""
    assert list(curves.sizes) == [25, 50, 100, 200, 400]
    for run in curves.runs:
        assert run.draws == 40 and np.all(run.converged)
        assert np.all(run.loo <= run.support) and np.all(run.support <= run.updates + 1e-12)
        assert np.all(run.updates <= run.bound * (1 + 1e-6))
        assert np.all((0 <= run.test) & (run.test <= 1)) and np.all(run.loo >= 0)


def test_bounds_name_what_overflowed_or_is_invalid():
    with pytest.raises(ValueError, match="chapter_bound overflowed"):
        gp.theory.chapter_bound(1e200, 1e-200)
    with pytest.raises(ValueError, match="novikoff_bound overflowed"):
        gp.theory.novikoff_bound(1e200, 1e-200)
    with pytest.raises(ValueError, match="bias_bound overflowed"):
        gp.theory.bias_bound(1e200, 1e-100, 1.0, 0.0)
    with pytest.raises(ValueError, match="general_bound overflowed"):
        general_bound(1e200, 1e-200, 1.0)
    with pytest.raises(ValueError, match="epsilon"):
        gp.theory.chapter_bound(1.0, float("nan"))
    with pytest.raises(ValueError, match="gamma"):
        gp.theory.bias_bound(1.0, -1.0, 1.0, 0.0)
    eta, value = constant_rate_optimum(4.0, 2.0, 16)
    result = constant_rate_optimum(4.0, 2.0, 16)
    assert (eta, value) == (result[0], result[1]) == (result.learning_rate, result.bound)
    assert (eta, value) == (0.5, 2.0)
    X, Y = np.array([[1.0], [-1.0]]), np.array([1.0, -1.0])
    with pytest.raises(ValueError, match="does not separate"):
        gp.theory.generating_plane_bound(X, Y, np.array([-1.0]), np.array([0.0]))


def test_leave_one_out_is_a_dataclass(seed):
    fake = gp.sample_separable(20, 2, 0.2)
    loo = gp.experiments.leave_one_out(fake.X, fake.Y)
    assert loo.converged and 0 <= loo.errors <= loo.support <= loo.updates


def test_adversary_with_a_margin_whose_square_underflows():
    """gamma**2 underflows to 0 for gamma = 1e-181: then 1/gamma^2 exceeds any d, and the
    adversary shows all d basis vectors (it divided by zero before)."""
    run = gp.experiments.adversary_run(1e-181, 50)
    assert run.n == run.mistakes == 50
    with pytest.raises(ValueError, match="dimensions=1,000,000"):
        # 10**6 examples of 10**6 coordinates: refused up front
        gp.experiments.adversary_run(1e-9, 10**6)


# --- every bound formula, exactly, on hand-computed cases (issue 20) ---------------------------

def test_bound_formulas_have_their_exact_values():
    """Each bound against its formula worked by hand: a mutant (R/gamma**2 for Novikoff's
    R**2/gamma**2, a missing factor 2, a swapped power) gives another number."""
    from gluon_perceptron.core.theory import bounds

    assert bounds.novikoff_bound(3.0, 0.5) == 36.0                    # 9 / 0.25
    assert bounds.chapter_bound(2.0, 0.5) == 40.0                     # 2 (4 + 1) / 0.25
    assert bounds.bias_bound(2.0, 0.5, 3.0, 4.0) == 500.0             # 5 * 25 / 0.25
    assert bounds.general_bound(2.0, 0.5, 3.0, w0_norm=1.0, threshold=0.5) == 192.0
    # (2 * 0.5 + 4) * 9 = 45, plus 2 * 0.5 * 3 * 1 = 3, over 0.25
    assert bounds.general_bound(np.sqrt(5.0), 0.5, 5.0) == pytest.approx(500.0, rel=1e-15)
    np.testing.assert_allclose(bounds.sgd_bound(2.0, 3.0, [1.0, 0.5]),
                               [13.0 / 2.0, 15.25 / 3.0], rtol=1e-15)
    rate = bounds.constant_rate_optimum(2.0, 3.0, 4)
    assert rate.learning_rate == pytest.approx(1.0 / 3.0, rel=1e-15) and rate.bound == 3.0
    # one example a = (1, 0, 1): r = 1, kappa = 1/sqrt(2), p = 3, ||a|| = sqrt(2)
    expected = 2.0 * np.sqrt(2.0) * (2.0**4.5 / np.sqrt(2.0) + 1.0)
    assert bounds.amaldi_hauser_bound(np.array([[1.0, 0.0]]), np.array([1.0])) == \
        pytest.approx(expected, rel=1e-12)
    assert bounds.amaldi_hauser_bound(np.array([[1.0, 0.0]]), np.array([1.0]),
                                      learning_rate=0.5) == pytest.approx(expected / 2, rel=1e-12)
    plane = bounds.generating_plane_bound(np.array([[3.0, 4.0], [0.0, -1.0]]),
                                          np.array([1.0, -1.0]), np.array([0.0, 1.0]), 0.0)
    assert (plane.R, plane.gamma, plane.b, plane.bound) == (5.0, 1.0, 0.0, 26.0)
    assert plane.chapter_assumptions


@pytest.mark.parametrize("c", [1e-150, 1e-3, 7.0, 1e100])
def test_scale_invariant_bounds_do_not_move_with_the_unit(c):
    """R**2/gamma**2 and the bound (1.4) without start or threshold depend on R/gamma only."""
    from gluon_perceptron.core.theory import bounds

    assert bounds.novikoff_bound(3.0 * c, 0.5 * c) == pytest.approx(36.0, rel=1e-13)
    assert bounds.general_bound(2.0 * c, 0.5 * c, 3.0) == pytest.approx(144.0, rel=1e-13)
    assert bounds.sgd_bound(2.0 * c, 3.0, [c, c / 2])[0] == pytest.approx(
        bounds.sgd_bound(2.0, 3.0, [1.0, 0.5])[0] * c, rel=1e-13)


def test_values_whose_squares_overflow_the_bounds_are_refused_by_name():
    """The fuzz profile found errors that named the bound's inner arguments, not the caller's."""
    X = np.array([[1.0, 2.0], [-1.0, -1.5], [2.0, 1.0]])
    Y = np.array([1.0, -1.0, 1.0])
    with pytest.raises(ValueError, match="b0 must be at most 1e150"):
        gp.experiments.proof_trace(X, Y, [1.0, 1.0, 0.0], b0=1.3e154)
    with pytest.raises(ValueError, match="w0 must have a norm of at most 1e150"):
        gp.experiments.proof_trace(X, Y, [1.0, 1.0, 0.0], w0=[1e307, 1e307])  # was w0_norm=inf
    with pytest.raises(ValueError, match="threshold must be at most 1e150"):
        gp.experiments.sgd_bound_experiment(X, Y, threshold=1.3e153)
    with pytest.raises(ValueError, match="gammas must be at least 1e-10"):
        gp.experiments.separation_experiment(gammas=[6e-55])


def test_transformed_run_refuses_a_zero_normal_by_name():
    X = np.random.default_rng(0).normal(size=(10, 2))
    Y = np.where(X[:, 0] + 0.1 > 0, 1.0, -1.0)
    with pytest.raises(ValueError, match="wfake is the zero vector, which defines no plane"):
        gp.experiments.transformed_run(X, Y, np.zeros(2), 0.0, scale=1.0)


@pytest.mark.filterwarnings("error::RuntimeWarning")
@pytest.mark.parametrize("scale, shift, why", [
    (1e308, None, "overflow float64"), (1e200, None, "bias_bound overflowed"),
    (1e-300, None, "bias_bound overflowed"), (1.0, [1e200, 0.0], "does not separate")])
def test_transformed_run_says_which_scale_or_shift_moved_the_data_too_far(scale, shift, why):
    """A scale or shift whose moved data (or its bound) float64 cannot hold is refused by the
    call's own arguments, without numpy's overflow warnings; it said "generating_plane_bound:
    bias_bound overflowed", about an R, gamma and b the reader never passed."""
    fake = gp.sample_separable(30, 2, 0.1, seed=0)
    call = re.escape(f"transformed_run(scale={scale:g}, shift={shift!r}) moves the data")
    with pytest.raises(ValueError, match=rf"{call} or the plane wfake, bfake beyond float64 "
                                         rf"\(use a scale nearer 1, .*\): .*{why}"):
        gp.experiments.transformed_run(fake.X, fake.Y, fake.wfake, fake.bfake, scale=scale,
                                       shift=shift, max_epochs=50)
    tiny = gp.experiments.transformed_run(fake.X, fake.Y, fake.wfake, fake.bfake, scale=1e-150,
                                          max_epochs=50)
    assert np.isfinite([tiny.bias_bound, tiny.optimal_bound]).all()  # what float64 holds runs
