"""The chapter's experiments: the faithful one keeps its slip, the corrected one its bound."""

import warnings

import numpy as np
import pytest

import gluon_perceptron as gp


def test_epsilons_are_the_chapters():
    assert len(gp.EPSILONS) == 17
    np.testing.assert_allclose(gp.EPSILONS[[0, -1]], [0.025, 0.425])


def test_faithful_experiment_never_resets(seed):
    """Each dataset starts from the weights the previous one left (the chapter's slip)."""
    from mxnet import nd

    seed(21)
    w, b = nd.zeros((2,)), nd.zeros((1,))
    _, err = gp.margin_experiment_faithful([0.2, 0.3], trials=1, samples=100, w=w, b=b,
                                           progress=False)
    seed(21)
    X1, Y1 = gp.getfake(100, 2, 0.2)
    X2, Y2 = gp.getfake(100, 2, 0.3)
    first = gp.train(X1, Y1, max_epochs=1, engine="faithful")
    warm = gp.train(X2, Y2, max_epochs=1, engine="faithful", w0=first.w, b0=first.b)
    assert list(err) == [first.updates, warm.updates]
    np.testing.assert_array_equal(w.asnumpy(), warm.w)  # the caller's w was carried through
    cold = gp.train(X2, Y2, max_epochs=1, engine="faithful")
    assert cold.updates != warm.updates or not np.array_equal(cold.w, warm.w)


def test_corrected_experiment_respects_its_bound(seed):
    r = gp.margin_experiment([0.05, 0.2, 0.4], trials=4, samples=300, progress=False)
    assert r.updates.shape == (4, 3)
    assert r.converged.all()
    assert np.all(r.updates <= r.bound)
    assert np.all(r.gamma >= np.array([0.05, 0.2, 0.4]) - 1e-5)
    # where the chapter's assumption b*^2 <= 1 holds, its own bound holds too
    ok = r.chapter_assumptions
    assert np.all(r.updates[ok] <= r.chapter_bound[ok])
    # the bound with the true ||(w*, b*)|| is at most the chapter's when b*^2 <= 1
    assert np.all(r.bound[ok] <= r.chapter_bound[ok] * (1 + 1e-9))


def test_counts_fall_as_the_margin_widens_far_below_the_bounds(seed):
    """Notebook 3: "the measured counts fall as the margin widens, far below either bound"."""
    seed(5)
    r = gp.margin_experiment([0.025, 0.1, 0.4], trials=6, samples=300, progress=False)
    mean = r.updates.mean(axis=0)
    assert np.all(np.diff(mean) < 0), mean
    assert np.all(r.updates <= 0.25 * r.bound) and np.all(r.updates <= 0.25 * r.chapter_bound)


def test_bias_bound_algebra():
    assert gp.chapter_bound(3.0, 0.5) == pytest.approx(80.0)
    assert gp.bias_bound(3.0, 0.5, 1.0, 1.0) == pytest.approx(gp.chapter_bound(3.0, 0.5))
    assert gp.bias_bound(3.0, 0.5, 1.0, 2.0) > gp.chapter_bound(3.0, 0.5)
    with pytest.raises(ValueError, match="epsilon"):
        gp.chapter_bound(3.0, 0.0)


def test_plane_must_separate():
    X, Y = gp.xor_data()
    with pytest.raises(ValueError, match="does not separate"):
        gp.generating_plane_bound(X, Y, np.array([1.0, 0.0]), np.array([0.0]))


@pytest.mark.parametrize("samples,dims", [(100, 2), (1000, 2), (1000, 10)])
def test_bound_holds_whatever_the_size_and_dimension(seed, samples, dims):
    for s in range(8):
        seed(s)
        fake = gp.sample_separable(samples, dims, 0.1)
        run = gp.train(fake.X, fake.Y, max_epochs=10_000)
        info = gp.generating_plane_bound(fake.X, fake.Y, fake.wfake, fake.bfake)
        assert run.converged
        assert run.updates <= info["bound"] <= 10 * (1 + info["b"] ** 2) / 0.1**2


def test_counts_grow_with_size_and_dimension_but_not_the_bound(seed):
    """Notebook 3: the bound ignores n and d, the measured counts grow with both."""
    means = []
    for samples, dims in [(100, 2), (1000, 2), (1000, 10)]:
        counts = []
        for s in range(12):
            seed(s)
            fake = gp.sample_separable(samples, dims, 0.1)
            counts.append(gp.train(fake.X, fake.Y, max_epochs=10_000).updates)
        means.append(np.mean(counts))
    assert means[0] < means[1] < means[2], means


def test_about_a_third_of_planes_break_the_chapters_assumption(seed):
    """P(|N(0,1)| > 1) = 0.317: the notebook's 'about a third'."""
    b = np.array([gp.sample_separable(1, 2, 0.0).bfake.asscalar() for _ in range(600)])
    assert 0.25 < np.mean(b**2 > 1) < 0.39


def test_corrected_experiment_reports_runs_that_hit_the_bound(seed):
    """With too few passes allowed, the runs that did not separate are flagged, not hidden."""
    with pytest.warns(RuntimeWarning, match="stopped at max_epochs=1"):
        with warnings.catch_warnings():  # pytest.warns would re-raise MXNet's deprecation noise
            warnings.simplefilter("ignore", DeprecationWarning)
            r = gp.margin_experiment([0.025], trials=3, samples=1000, max_epochs=1,
                                     progress=False)
    assert not r.converged.all()
    assert np.all(r.epochs == 1)
