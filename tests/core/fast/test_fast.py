"""Every fast twin (``gluon_perceptron/core/fast/``) is its readable loop, bit for bit.

The public trainer's body is the loop; ``engine="fast"`` (the default) hands the same arguments
to the twin. Here each twin is compared with the loop on data with ties (integer-valued: every
sum exact), noisy and separable floats, sparse rows, float32 and float64, shuffled orders, and
on input that overflows (the same error, word for word).
``tests/core/fast/test_training_fast.py`` holds ``train``'s twin to its loop and to scikit-learn;
``tests/project/test_reference_first.py`` checks that the loops are in the trainers' bodies.
"""

import numpy as np
import pytest

import gluon_perceptron as gp
from gluon_perceptron.core.rosenblatt import multiclass


def _dataset(seed, kind, dtype=np.float64, n=70, d=4):
    rng = np.random.default_rng(seed)
    if kind == "integer":  # pixels 0..8: every sum exact, ties frequent
        X = rng.integers(0, 9, size=(n, d)).astype(float)
        Y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    elif kind == "sparse":
        X = rng.random((n, d)) * (rng.random((n, d)) < 0.3)
        Y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    else:
        X = rng.standard_normal((n, d))
        Y = np.where(X @ rng.standard_normal(d) + 0.2 > 0, 1.0, -1.0)
        if kind == "noisy":  # never separable
            Y[rng.random(n) < 0.2] *= -1
    return X.astype(dtype), Y


def _assert_same(fast, readable):
    assert fast.updates_per_epoch == readable.updates_per_epoch
    assert fast.converged == readable.converged
    assert fast.w.dtype == readable.w.dtype
    np.testing.assert_array_equal(fast.w, readable.w)
    assert fast.b == readable.b
    assert fast.history.keys() == readable.history.keys()
    for key, trace in fast.history.items():
        if key == "weights":
            for (w1, b1), (w2, b2) in zip(trace, readable.history[key], strict=True):
                np.testing.assert_array_equal(w1, w2)
                assert b1 == b2
        else:
            assert trace == readable.history[key], key


def _both(trainer, *args, **kwargs):
    return trainer(*args, **kwargs), trainer(*args, engine="faithful", **kwargs)


VARIANTS = {
    "pocket": (gp.train_pocket, {}),
    "averaged": (gp.train_averaged, {}),
    "projected": (gp.rosenblatt.train_projected, {"radius": 3.0}),
    "projected, a small ball": (gp.rosenblatt.train_projected, {"radius": 0.4}),
}

KINDS = ["integer", "noisy", "separable", "sparse"]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_a_variant_twin_is_its_loop(name, kind, dtype):
    trainer, extra = VARIANTS[name]
    for s in range(2):
        X, Y = _dataset(10 * s + len(kind), kind, dtype)
        for record in (False, True):
            fast, readable = _both(trainer, X, Y, max_epochs=12, learning_rate=0.7,
                                   record=record, **extra)
            _assert_same(fast, readable)
            assert fast.updates > 0


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_a_variant_twin_is_its_loop_on_shuffled_passes(name, kind):
    trainer, extra = VARIANTS[name]
    X, Y = _dataset(3, kind)
    for seed in (0, 7):
        _assert_same(*_both(trainer, X, Y, max_epochs=9, shuffle=True, seed=seed, record=True,
                            **extra))


@pytest.mark.parametrize("kind", KINDS)
def test_the_aggressive_twin_is_its_loop(kind):
    X, Y = _dataset(4, kind, np.float32)
    for record in (False, True):
        fast, readable = _both(gp.rosenblatt.train_aggressive, X, Y, max_epochs=5,
                               learning_rate=0.3, record=record)
        _assert_same(fast, readable)
        assert fast.updates_per_epoch == [len(Y)] * 5


def test_a_pocket_twin_with_the_ratchet_at_work():
    """Noisy data, shuffled, many passes: the pocket is replaced in later passes too (not
    settled after the first), and the twin keeps the same weights at the same steps."""
    X, Y = _dataset(3, "noisy", n=200, d=3)
    fast, readable = _both(gp.train_pocket, X, Y, max_epochs=40, record=True, shuffle=True,
                           seed=1)
    _assert_same(fast, readable)
    errors = fast.history["error"]
    assert all(a >= b for a, b in zip(errors, errors[1:]))  # the ratchet: never worse
    assert len(set(errors)) >= 3


# --- overflow: the same error, word for word ---------------------------------------------------

_SEP = _dataset(14, "separable", n=50)

OVERFLOWING = {
    "train, huge X": (gp.train, (_SEP[0] * 1e307, _SEP[1]), {"max_epochs": 4}),
    "train, huge rate": (gp.train, _SEP, {"max_epochs": 4, "learning_rate": 1e308}),
    "train, float32": (gp.train, ((_SEP[0] * 1e37).astype(np.float32), _SEP[1]),
                       {"max_epochs": 4}),
    "pocket, huge rate": (gp.train_pocket, _SEP, {"max_epochs": 10, "learning_rate": 1e308}),
    "pocket, huge X": (gp.train_pocket, (_SEP[0] * 1e307, _SEP[1]), {"max_epochs": 10}),
    "averaged": (gp.train_averaged, (_SEP[0] * 1e307, _SEP[1]), {"max_epochs": 10}),
    "projected": (gp.rosenblatt.train_projected, (_SEP[0] * 1e307, _SEP[1]),
                  {"max_epochs": 10, "radius": 1e308}),
    "aggressive, huge X": (gp.rosenblatt.train_aggressive, (_SEP[0] * 1e307, _SEP[1]),
                           {"max_epochs": 10}),
    "aggressive, huge rate": (gp.rosenblatt.train_aggressive, _SEP,
                              {"max_epochs": 10, "learning_rate": 1e307}),
}


@pytest.mark.parametrize("name", sorted(OVERFLOWING))
def test_twin_and_loop_refuse_an_overflow_with_the_same_words(name, backend):
    trainer, args, kwargs = OVERFLOWING[name]
    messages = []
    for engine in ("fast", "faithful"):
        with pytest.raises(ValueError, match="training overflowed") as info:
            trainer(*args, engine=engine, **kwargs)
        messages.append(str(info.value))
    assert messages[0] == messages[1]
    assert " in pass " in messages[0]


def test_an_overflow_in_the_last_example_of_a_pass_names_the_weights():
    """The weights leave the floats on the pass's last step: no margin is left to see it, so
    the guard after the pass names the weights, in both."""
    X = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0]])
    Y = np.array([1.0, 1.0, -1.0])  # the last: a tie, (w, b) = (1e308, 0, 1e308); w_1 -> inf
    for trainer in (gp.rosenblatt.train_aggressive, gp.train_averaged, gp.train_pocket):
        messages = []
        for engine in ("fast", "faithful"):
            with pytest.raises(ValueError, match="the weights .* in pass 1") as info:
                trainer(X, Y, max_epochs=3, learning_rate=1e308, engine=engine)
            messages.append(str(info.value))
        assert messages[0] == messages[1]


# --- train: its ties, in the tail rows of the compiled loop, and its float32 -------------------

@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_train_twin_is_its_loop_with_ties(backend, dtype):
    X, Y = _dataset(21, "integer", dtype, n=43, d=3)  # 43 = 4 * 10 + 3: tail rows as well
    for threshold in (0.0, 2.0):
        _assert_same(*_both(gp.train, X, Y, max_epochs=6, threshold=threshold))


# --- multiclass: the NDArray lockstep loop and its compiled twin ---------------------------------

def _classes(seed, kind, dtype, n=40, d=5, c=4):
    rng = np.random.default_rng(seed)
    if kind == "integer":
        X = rng.integers(0, 5, size=(n, d)).astype(float)
    else:
        X = rng.standard_normal((n, d))
    y = rng.integers(0, c, size=n)
    X[:, 0] = 9.0 * (y == 0)  # class 0 apart from the rest: its perceptrons stop early
    return X.astype(dtype), y


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("kind", ["integer", "noisy"])
@pytest.mark.parametrize("trainer", [multiclass.train_one_vs_all, multiclass.train_one_vs_one],
                         ids=["one-vs-all", "one-vs-one"])
def test_a_multiclass_twin_is_its_loop(trainer, kind, dtype):
    X, y = _classes(6, kind, dtype)
    fast = trainer(X, y, max_epochs=5)
    loop = trainer(X, y, max_epochs=5, engine="faithful")
    np.testing.assert_array_equal(fast.W, loop.W)
    np.testing.assert_array_equal(fast.b, loop.b)
    for a, b in zip(fast.results, loop.results, strict=True):
        _assert_same(a, b)
    assert fast.cost() == loop.cost()
    assert 0 < fast.cost().separated < len(fast.results)  # some stop early, some run on


def test_a_multiclass_twin_and_loop_refuse_an_overflow_with_the_same_words():
    X, y = _classes(7, "noisy", np.float64)
    messages = []
    for engine in ("fast", "faithful"):
        with pytest.raises(ValueError, match="training overflowed") as info:
            multiclass.train_one_vs_one(X * 1e307, y, max_epochs=3, engine=engine)
        messages.append(str(info.value))
    assert messages[0] == messages[1]
