"""The last edges of bad input (issue 32): sizes refused before anything is allocated, results
that overflowed silently, and exceptions that came from numpy instead of naming the argument.

Each test was written before its fix and failed then (the comment ``# was:`` says how).
"""

import gzip
import struct

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mxnet import nd

import gluon_perceptron as gp
from gluon_perceptron.core.beyond.separation import signed_unit_rows
from gluon_perceptron.core.chapter.sampler import MAX_SAMPLES
from gluon_perceptron.core.data.idx import IDXError
from gluon_perceptron.core.data.real import Split
from gluon_perceptron.core.gradient.losses import score
from gluon_perceptron.experiments.black_and_white import tail_stats

RNG = np.random.default_rng(3)
X = RNG.normal(size=(30, 2))
Y = np.where(X[:, 0] - 0.5 * X[:, 1] + 0.2 > 0, 1.0, -1.0)


# --- sizes from an argument are refused before anything is allocated -----------------------

def test_remedies_experiment_refuses_more_points_than_the_sampler_draws():
    # was: MemoryError (or MXNet's "Failed to allocate"), the sampler's cap skipped inside
    with pytest.raises(ValueError, match=r"samples=100,000,000 .* use fewer samples"):
        gp.experiments.remedies_experiment(10**8, epochs=1)


def test_remedies_experiment_refuses_at_the_sampler_cap_not_below_it():
    limit = MAX_SAMPLES // 2  # it draws 2 * samples points
    with pytest.raises(ValueError, match=r"samples"):
        gp.experiments.remedies_experiment(limit + 1, epochs=1)


def test_compare_subgradients_refuses_a_count_it_cannot_finish():
    # was: ran past 60 s (one autograd call per case, 10**8 of them)
    with pytest.raises(ValueError, match=r"cases must be at most"):
        gp.experiments.compare_subgradients(10**8)


# --- silently wrong results ------------------------------------------------------------------

def test_signed_unit_rows_of_huge_rows_are_unit():
    # was: all-zero rows (the squared norm overflowed to inf)
    Z = signed_unit_rows(X * 1e300, Y)
    np.testing.assert_allclose(np.linalg.norm(Z, axis=1), 1.0, rtol=1e-12)
    small = signed_unit_rows(X, Y)
    # the bias column is negligible next to 1e300, so the rows are the signed unit x
    expected = Y[:, None] * X / np.linalg.norm(X, axis=1)[:, None]
    np.testing.assert_allclose(Z[:, :2], expected, rtol=1e-12)
    assert np.all(np.abs(Z[:, 2]) < 1e-250)
    assert np.all(np.abs(small[:, 2]) > 0.1)


def test_signed_unit_rows_of_tiny_rows_keep_their_direction():
    Z = signed_unit_rows(X * 1e-300, Y)  # (x, 1) is all bias: rows are y (0, 0, 1)
    np.testing.assert_allclose(Z, np.column_stack([np.zeros((30, 2)), Y]), atol=1e-250)


def test_forgetron_refuses_a_stream_whose_kernel_overflows():
    # was: NaN coefficients, no error
    with pytest.raises(ValueError, match=r"overflowed.*[Ss]cale"):
        gp.beyond.forgetron(X * 1e200, Y, budget=5, kernel="linear")


def test_gradient_score_refuses_a_float32_overflow():
    # was: inf, silently
    w = nd.array([3e38, 3e38])
    with pytest.raises(ValueError, match=r"score overflowed .* float32"):
        score(w, nd.zeros(1), nd.array([1.0, 1.0]))
    assert score(w, nd.zeros(1), nd.array([1.0, -1.0])).asscalar() == 0.0


def test_tail_stats_std_of_huge_values_whose_spread_fits():
    # was: mean inf and std inf for values near float64's top whose spread is small
    trace = np.array([1.5e308, 1.6e308, 1.7e308, 1.6e308])
    stats = tail_stats(trace, 4)
    assert stats.mean == pytest.approx(1.6e308, rel=1e-12)
    assert stats.std == pytest.approx(np.std(trace / 1e300) * 1e300, rel=1e-12)
    assert stats.spread == pytest.approx(2e307, rel=1e-12)


def test_tail_stats_is_unchanged_on_ordinary_values():
    trace = RNG.normal(size=50)
    stats = tail_stats(trace, 20)
    assert stats.mean == float(trace[-20:].mean())
    assert stats.std == float(trace[-20:].std())


# --- the right exception, naming the argument -------------------------------------------------

def test_feature_margin_names_x_when_its_kernel_overflows():
    # was: numpy.linalg.LinAlgError from inside eigh
    with pytest.raises(ValueError, match=r"X .*overflow.*scale X down"):
        gp.beyond.feature_margin(X * 1e200, Y)


def test_learning_curve_names_the_split_part_of_the_wrong_length():
    split = Split(X, np.arange(30) % 3, X[:10], np.arange(10) % 3)
    gp.experiments.learning_curve(split, 1, epochs=2)
    short = Split(X, (np.arange(30) % 3)[:-1], X[:10], np.arange(10) % 3)
    # was: numpy's "operands could not be broadcast together"
    with pytest.raises(ValueError, match=r"split\.y_train .*29 labels.*30"):
        gp.experiments.learning_curve(short, 1, epochs=2)
    narrow = Split(X, np.arange(30) % 3, X[:10, :1], np.arange(10) % 3)
    with pytest.raises(ValueError, match=r"split\.X_test .*1 column.*2"):
        gp.experiments.learning_curve(narrow, 1, epochs=2)


def test_train_second_order_blames_a_not_the_learning_rate():
    # was: "... or lower the learning_rate" (it has none: A^{-1} = I/a overflowed)
    with pytest.raises(ValueError, match=r"\ba=1e-300\b") as caught:
        gp.beyond.train_second_order(X, Y, a=1e-300, max_epochs=3)
    assert "learning_rate" not in str(caught.value)


def test_update_path_blames_w0_not_the_learning_rate():
    # was: "... or lower the learning_rate" (update_path steps by 1)
    with pytest.raises(ValueError, match=r"w0") as caught:
        gp.rosenblatt.update_path(X, Y, max_epochs=3, w0=[1e308, 1e308])
    assert "learning_rate" not in str(caught.value)


# --- read_idx on random headers ----------------------------------------------------------------

def _idx_bytes(code, dims, data):
    return bytes([0, 0, code, len(dims)]) + struct.pack(f">{len(dims)}I", *dims) + data


def test_read_idx_names_a_header_of_more_dimensions_than_numpy_holds(tmp_path):
    path = tmp_path / "many.idx"
    path.write_bytes(_idx_bytes(0x08, [1] * 40, b"\x07"))
    # was: numpy's "maximum supported dimension for an ndarray is 32"
    with pytest.raises(IDXError, match=r"many\.idx.*40 dimensions"):
        gp.data.read_idx(path)


def test_read_idx_names_an_empty_array_of_impossible_shape(tmp_path):
    path = tmp_path / "big.idx"
    path.write_bytes(_idx_bytes(0x08, [0, 2**32 - 1, 2**32 - 1, 2**32 - 1], b""))
    # was: numpy's "array is too big; `arr.size * arr.dtype.itemsize` is larger than ..."
    with pytest.raises(IDXError, match=r"big\.idx"):
        gp.data.read_idx(path)


@settings(max_examples=150, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(code=st.sampled_from([0x08, 0x09, 0x0B, 0x0C, 0x0D, 0x0E, 0x07, 0x10]),
       dims=st.lists(st.one_of(st.integers(0, 3), st.integers(0, 2**32 - 1)), min_size=1,
                     max_size=40),
       data=st.binary(max_size=24), gz=st.booleans())
def test_read_idx_on_random_headers_raises_only_idx_errors(tmp_path, code, dims, data, gz):
    raw = _idx_bytes(code, dims, data)
    path = tmp_path / ("f.idx.gz" if gz else "f.idx")
    path.write_bytes(gzip.compress(raw) if gz else raw)
    try:
        array = gp.data.read_idx(path)
    except IDXError as exc:
        assert "f.idx" in str(exc)
    else:
        assert array.shape == tuple(dims)


def test_a_failed_allocation_of_the_sampler_says_to_restart(monkeypatch):
    """MXNet 1.9.1 after "Failed to allocate CPU Memory" (fault injection with ``ulimit -v``,
    issue 32): the next MXNet call worked in 5 of 6 trials and hung in one. So the sampler's
    error says to restart the process."""
    import mxnet as mx

    from gluon_perceptron.core.data import synthetic

    draw = synthetic.nd.random_normal

    def fail(*args, shape, **kwargs):  # the plane draws; a block of candidates fails
        if len(shape) == 2:
            raise mx.base.MXNetError("Failed to allocate CPU Memory")
        return draw(*args, shape=shape, **kwargs)

    monkeypatch.setattr(synthetic.nd, "random_normal", fail)
    with pytest.raises(MemoryError, match=r"samples=1,000,000 .*use fewer samples.*restart"):
        gp.sample_separable(10**6, 3, 0.1, seed=0)


# --- numbers given as Python ints ----------------------------------------------------------

@pytest.mark.parametrize("call", [
    lambda v: gp.train(X, Y, max_epochs=3, threshold=v),
    lambda v: gp.train(X.astype(np.float32), Y, max_epochs=3, learning_rate=v),
    lambda v: gp.beyond.passive_aggressive(X, Y, variant="PA-I", C=v),
    lambda v: gp.beyond.alma(X, Y, alpha=1, C=v),
    lambda v: gp.beyond.forgetron(X, Y, budget=3, kernel="rbf", gamma=v),
    lambda v: gp.beyond.train_second_order(X, Y, a=v)],
    ids=["train-threshold", "train-learning_rate", "pa-C", "alma-C", "forgetron-gamma",
         "second_order-a"])
def test_an_int_beyond_int64_is_the_float_it_is_after_a_small_int(call):
    """A number passed as a Python int (``C=5``) is a float to the body: a small one first made
    the compiled twin an int64 one, which then refused ``2**63`` (was: ``OverflowError: int too
    big to convert``, the fuzz profile's find); beyond 2**64 numpy made an object array of it
    (was: ``UFuncTypeError`` for the Forgetron's gamma, ``TypeError`` for ``a``)."""
    small = call(1)
    for big in (2**63, 2**64 + 1):
        assert type(call(big)) is type(small)


def test_alma_margin_experiment_refuses_an_alpha_its_bound_cannot_hold():
    """The bound grows as 1/alpha**2 (was: ``OverflowError: (34, 'Numerical result out of
    range')`` from inside ``alma_bound``, the fuzz profile's find)."""
    with pytest.raises(ValueError, match=r"alpha must be at least 1e-100: the bound grows"):
        gp.experiments.alma_margin_experiment(draws=1, samples=10, alpha=1.47e-300)
