"""getfake / sample_separable: the guarantees the chapter's sampler promises, and bad input."""

import dataclasses

import mxnet as mx
import numpy as np
import pytest
from mxnet import nd

import gluon_perceptron as gp


@pytest.mark.parametrize("engine", ["faithful", "fast"])
@pytest.mark.parametrize("samples,dimensions,epsilon", [(50, 2, 0.3), (200, 5, 0.1), (30, 1, 0.5)])
def test_sampler_guarantees(seed, engine, samples, dimensions, epsilon):
    fake = gp.sample_separable(samples, dimensions, epsilon, engine=engine)
    X, Y = fake.X.asnumpy(), fake.Y.asnumpy()
    assert isinstance(fake.X, nd.NDArray) and isinstance(fake.Y, nd.NDArray)
    assert X.shape == (samples, dimensions) and Y.shape == (samples,)
    assert set(np.unique(Y)) <= {-1.0, 1.0}
    assert np.all(np.linalg.norm(X, axis=1) < 3)
    assert abs(np.linalg.norm(fake.wfake.asnumpy()) - 1) < 1e-5
    margins = gp.generating_margins(X, Y, fake.wfake, fake.bfake)
    # float32 data: allow the rounding of one float32 dot product
    assert np.all(margins > epsilon - 1e-5)
    assert fake.attempts >= samples


def test_getfake_is_the_faithful_sampler_and_reproducible(seed):
    seed(7)
    X1, Y1 = gp.getfake(40, 2, 0.2)
    seed(7)
    fake = gp.sample_separable(40, 2, 0.2, engine="faithful")
    np.testing.assert_array_equal(X1.asnumpy(), fake.X.asnumpy())
    np.testing.assert_array_equal(Y1.asnumpy(), fake.Y.asnumpy())
    seed(8)
    X3, _ = gp.getfake(40, 2, 0.2)
    assert not np.array_equal(X1.asnumpy(), X3.asnumpy())


def test_batched_sampler_is_reproducible_and_shares_the_plane(seed):
    seed(3)
    a = gp.sample_separable(100, 3, 0.2)
    seed(3)
    b = gp.sample_separable(100, 3, 0.2)
    seed(3)
    c = gp.sample_separable(100, 3, 0.2, engine="faithful")
    np.testing.assert_array_equal(a.X.asnumpy(), b.X.asnumpy())
    # same first draws: the plane is the same under one seed, the points are another stream
    np.testing.assert_array_equal(a.wfake.asnumpy(), c.wfake.asnumpy())
    assert not np.array_equal(a.X.asnumpy(), c.X.asnumpy())


def test_batched_sampler_has_the_faithful_distribution(seed):
    """Same law: label balance and margin quantiles agree within sampling error."""
    seed(11)
    fast = gp.sample_separable(3000, 2, 0.2, engine="fast")
    seed(11)
    slow = gp.sample_separable(3000, 2, 0.2, engine="faithful")
    mf = gp.generating_margins(fast.X, fast.Y, fast.wfake, fast.bfake)
    ms = gp.generating_margins(slow.X, slow.Y, slow.wfake, slow.bfake)
    for q in (0.1, 0.5, 0.9):
        assert abs(np.quantile(mf, q) - np.quantile(ms, q)) < 0.12
    assert abs(fast.Y.asnumpy().mean() - slow.Y.asnumpy().mean()) < 0.08
    nf = np.linalg.norm(fast.X.asnumpy(), axis=1)
    ns = np.linalg.norm(slow.X.asnumpy(), axis=1)
    assert abs(nf.mean() - ns.mean()) < 0.06


@pytest.mark.parametrize("kwargs,word", [
    (dict(samples=-1, dimensions=2, epsilon=0.1), "samples"),
    (dict(samples=0, dimensions=2, epsilon=0.1), "samples"),
    (dict(samples=2.5, dimensions=2, epsilon=0.1), "samples"),
    (dict(samples=10, dimensions=0, epsilon=0.1), "dimensions"),
    (dict(samples=10, dimensions=2, epsilon=-0.1), "epsilon"),
    (dict(samples=10, dimensions=2, epsilon=float("nan")), "epsilon"),
    (dict(samples=10, dimensions=2, epsilon=float("inf")), "epsilon"),
    (dict(samples=10, dimensions=2, epsilon=50.0), "epsilon"),
])
def test_getfake_rejects_bad_arguments(kwargs, word):
    with pytest.raises(ValueError, match=word):
        gp.getfake(**kwargs)


def test_unreachable_epsilon_for_the_drawn_plane_fails_at_once(seed):
    """Refused before any candidate is drawn: without the check the sampler would stop at its
    max_attempts with a SamplingError, which does not match."""
    seed(0)
    b = abs(float(gp.sample_separable(1, 2, 0.0).bfake.asscalar()))  # the plane seed 0 draws
    seed(0)
    with pytest.raises(ValueError, match="epsilon.*cannot be reached") as info:
        gp.getfake(10, 2, 3.0 + b + 0.01)
    assert not isinstance(info.value, gp.SamplingError)


@pytest.mark.parametrize("engine", ["faithful", "fast"])
def test_rejection_sampling_is_bounded(seed, engine):
    """A reachable but hopeless request stops at max_attempts and says why (no timing: the
    message names the bound it stopped at)."""
    with pytest.raises(gp.SamplingError, match="after max_attempts=2000 draws.*acceptance rate"):
        gp.sample_separable(10, 40, 0.1, engine=engine, max_attempts=2000)


def test_default_bound_stops_high_dimensional_request(seed):
    with pytest.raises(gp.SamplingError, match="dimensions=60"):
        gp.sample_separable(5, 60, 0.0, engine="fast")


def test_xor_and_padding():
    X, Y = gp.xor_data()
    assert X.shape == (4, 2) and list(Y) == [-1, 1, 1, -1]
    P = gp.data.pad_constant(X)
    assert P.shape == (4, 3) and np.all(P[:, 2] == 1)
    with pytest.raises(ValueError, match="value"):
        gp.data.pad_constant(X, float("nan"))


def test_mx_seed_controls_everything(seed):
    mx.random.seed(5)
    a = gp.sample_separable(20, 2, 0.1).X.asnumpy()
    mx.random.seed(5)
    b = gp.sample_separable(20, 2, 0.1).X.asnumpy()
    np.testing.assert_array_equal(a, b)


# --- engine words, seeds and dataclass results (issue 10) ---------------------------------------

def test_fast_is_the_engine_and_batched_is_gone():
    a = gp.sample_separable(50, 3, 0.1, seed=2)
    noisy = gp.data.getfake_noisy(50, 3, 0.1, 0.2, seed=2)
    np.testing.assert_array_equal(noisy.X.asnumpy(), a.X.asnumpy())
    c = gp.sample_separable(50, 3, 0.1, seed=2, engine="fast")
    np.testing.assert_array_equal(a.X.asnumpy(), c.X.asnumpy())
    for engine in ("ndarray", "batched"):  # "batched", the old name of "fast", went in 0.4
        with pytest.raises(ValueError, match=r"engine must be one of \['faithful', 'fast'\]"):
            gp.sample_separable(5, 2, 0.1, engine=engine)
        with pytest.raises(ValueError, match=r"engine must be one of"):
            gp.data.getfake_noisy(5, 2, 0.1, 0.2, engine=engine)


@pytest.mark.parametrize("make", [
    lambda seed: gp.sample_separable(30, 2, 0.1, seed=seed).X,
    lambda seed: gp.sample_separable(8, 2, 0.1, seed=seed, engine="faithful").X,
    lambda seed: gp.data.getfake_noisy(30, 2, 0.1, 0.2, seed=seed).Y,
    lambda seed: gp.data.gaussian_classes(30, 2, 1.0, seed=seed).X,
])
def test_seed_none_keeps_the_global_generator_and_an_int_seeds_it(make):
    mx.random.seed(5)
    global_stream = make(None).asnumpy()
    mx.random.seed(123)
    seeded = make(5).asnumpy()  # seeds MXNet with 5 first, whatever the state was
    np.testing.assert_array_equal(global_stream, seeded)
    assert not np.array_equal(make(6).asnumpy(), seeded)
    with pytest.raises(ValueError, match="seed"):
        make(-1)
    with pytest.raises(ValueError, match=r"seed must be below 2\*\*32"):
        make(2**32)


def test_results_are_dataclasses_without_the_tuple_shim():
    """Nothing in the repository unpacked them any more: the tuple behaviour is gone."""
    fake = gp.sample_separable(10, 2, 0.1, seed=0)
    noisy = gp.data.getfake_noisy(10, 2, 0.1, 0.2, seed=0)
    classes = gp.data.gaussian_classes(10, 2, 1.0, seed=0)
    assert noisy.flipped.sum() == 2 and 0 < classes.bayes_error < 0.5
    for result in (fake, noisy, classes):
        assert dataclasses.is_dataclass(result)
        with pytest.raises(TypeError):
            iter(result)
        with pytest.raises(TypeError):
            result[0]


def test_sizes_beyond_mxnet_are_refused_up_front():
    with pytest.raises(ValueError, match=r"limit of 2\*\*31 - 1"):
        gp.data.gaussian_classes(10**6, 10**4, 1.0)
    with pytest.raises(ValueError, match=r"limit of 2\*\*31 - 1"):
        gp.sample_separable(10**10, 2, 0.1)


@pytest.mark.parametrize("call", [
    lambda: gp.sample_separable(10**9, 2, 0.1),
    lambda: gp.sample_separable(10**9, 2, 0.1, engine="faithful"),
    lambda: gp.data.getfake_noisy(10**9, 2, 0.1, 0.2),
    lambda: gp.data.gaussian_classes(10**9, 2, 1.0),
    lambda: gp.getfake(10**9, 2, 0.1),
])
def test_too_many_samples_names_samples_not_max_attempts(call):
    """Issue 20: 10**9 samples blamed max_attempts, which the caller never set (the default
    bound 100 * samples + 10,000 passed its limit), or failed with an IndexError."""
    with pytest.raises(ValueError, match=r"samples=1,000,000,000 is more than 10,000,000") \
            as info:
        call()
    assert "max_attempts=" not in str(info.value)


def test_the_default_bound_at_the_largest_size_fits():
    from gluon_perceptron.core.chapter.sampler import MAX_SAMPLES, _default_attempts

    assert _default_attempts(10) == 11_000
    assert _default_attempts(MAX_SAMPLES) == 10**9


def test_the_flips_and_the_gaussian_shuffle_are_permutations_beyond_float32():
    """float32 indices are not exact beyond 2**24: the old nd.arange shuffle repeated some
    indices and lost others there."""
    from gluon_perceptron.core.data.synthetic import _permutation

    n = 2**24 + 5
    order = _permutation(n)
    counts = np.bincount(order, minlength=n)  # each of 0 .. n-1 once (a sort costs 4 times as much)
    assert order.dtype == np.int64 and len(counts) == n and np.all(counts == 1)


def test_pad_constant_refuses_a_value_beyond_float32():
    """Issue 20: pad_constant(X32, 1e39) added a column of inf."""
    X32 = np.ones((3, 2), dtype=np.float32)
    with pytest.raises(ValueError, match="value=1e\\+39 does not fit X's dtype float32"):
        gp.data.pad_constant(X32, 1e39)
    assert gp.data.pad_constant(X32.astype(np.float64), 1e39)[0, -1] == 1e39
    assert gp.data.pad_constant(X32, -3.0).dtype == np.float32


def test_the_generators_bodies_convert_their_own_arguments():
    """Issue 28 item 3: called past their rules, the generators convert what the rules only
    checked: a numpy seed (MXNet's seed takes a Python int only), ``ctx=None`` (``mx.cpu()``,
    not the caller's current context), lists and NDArrays for data."""
    a = gp.sample_separable.__wrapped__(20, 2, 0.1, seed=np.int64(4))
    b = gp.sample_separable(20, 2, 0.1, seed=4)
    np.testing.assert_array_equal(a.X.asnumpy(), b.X.asnumpy())
    with mx.Context("cpu", 1):
        X, _ = gp.getfake.__wrapped__(5, 2, 0.1)
        Xn, _ = gp.chapter.getfake_np.__wrapped__(5, 2, 0.1)
    assert X.context == mx.cpu() and Xn.ctx == mx.cpu()
    P = gp.data.pad_constant.__wrapped__([[1, 2], [3, 4]], 1.0)
    assert P.dtype == np.float64 and P.tolist() == [[1, 2, 1], [3, 4, 1]]
    margins = gp.generating_margins.__wrapped__(nd.array([[1.0, 2.0]]), [[-1]], [[1.0], [0.0]],
                                                nd.array([0.5]))
    assert margins.tolist() == [-1.5]
    noisy = gp.data.getfake_noisy.__wrapped__(10, 2, 0.1, 0.2, seed=np.uint32(1))
    assert noisy.flipped.sum() == 2
    assert gp.data.gaussian_classes.__wrapped__(10, 2, 1.0, seed=np.int64(1)).X.shape == (10, 2)
