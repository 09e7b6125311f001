"""Multiclass by reduction: OvA/OvO equal independently trained binary perceptrons."""

from itertools import combinations

import numpy as np
import pytest

from gluon_perceptron.core import multiclass
from gluon_perceptron.core.rosenblatt import train

EPOCHS = 20


@pytest.fixture(scope="module")
def models(split):
    return {scheme: train(split.X_train, split.y_train, max_epochs=EPOCHS)
            for scheme, train in (("one-vs-all", multiclass.train_one_vs_all),
                                  ("one-vs-one", multiclass.train_one_vs_one))}


def reference_one_vs_all(split):
    """c perceptrons trained one at a time with train(); argmax with first-max ties."""
    runs = [train(split.X_train, np.where(split.y_train == k, 1.0, -1.0), max_epochs=EPOCHS)
            for k in range(10)]
    S = np.column_stack([split.X_test @ r.w + r.b for r in runs])
    predicted = []
    for row in S:
        best = max(range(10), key=lambda k: (row[k], -k))
        predicted.append(best)
    return runs, np.array(predicted)


def reference_one_vs_one(split):
    """45 perceptrons on the pairs' own examples; votes counted in a plain loop."""
    runs, pairs = [], list(combinations(range(10), 2))
    for k, k2 in pairs:
        keep = (split.y_train == k) | (split.y_train == k2)
        runs.append(train(split.X_train[keep], np.where(split.y_train[keep] == k, 1.0, -1.0),
                          max_epochs=EPOCHS))
    predicted = []
    for x in split.X_test:
        count = [0] * 10
        for (k, k2), r in zip(pairs, runs):
            count[k if x @ r.w + r.b > 0 else k2] += 1
        predicted.append(count.index(max(count)))  # first maximum: smallest label
    return runs, np.array(predicted)


@pytest.mark.parametrize("scheme, reference", [("one-vs-all", reference_one_vs_all),
                                               ("one-vs-one", reference_one_vs_one)])
def test_batched_equals_independent_binary_perceptrons(split, models, scheme, reference):
    model = models[scheme]
    runs, predicted = reference(split)
    assert len(model.results) == len(runs)
    for got, want in zip(model.results, runs):
        assert got.updates_per_epoch == want.updates_per_epoch
        assert np.allclose(got.w, want.w) and np.isclose(got.b, want.b)
    assert np.array_equal(multiclass.predict_multiclass(model, split.X_test), predicted)


@pytest.mark.parametrize("scheme", ["one-vs-all", "one-vs-one"])
def test_loop_engine_gives_the_same_model(split, models, scheme):
    trainer = multiclass.train_one_vs_all if scheme == "one-vs-all" else multiclass.train_one_vs_one
    loop = trainer(split.X_train, split.y_train, max_epochs=EPOCHS, engine="loop")
    assert np.allclose(loop.W, models[scheme].W) and np.allclose(loop.b, models[scheme].b)


def test_accuracy_cost_and_imbalance(split, models):
    """The notebook's numbers: both schemes above 94 % on the ten digits, one-vs-one ahead;
    OvA's problems have 10 % positives and few separate, OvO's are balanced and all separate,
    and OvO visits far fewer examples."""
    ova, ovo = models["one-vs-all"], models["one-vs-one"]
    acc = {s: np.mean(multiclass.predict_multiclass(m, split.X_test) == split.y_test)
           for s, m in models.items()}
    assert acc["one-vs-all"] > 0.94 and acc["one-vs-one"] > acc["one-vs-all"]
    assert np.allclose(ova.positive_share, np.bincount(split.y_train) / len(split.y_train))
    assert np.all(np.abs(ovo.positive_share - 0.5) < 0.05)
    pair_share = [np.isin(split.y_train, pair).mean() for pair in ovo.pairs]
    assert len(pair_share) == 45 and np.all(np.abs(np.array(pair_share) - 0.2) < 0.03)
    c_ova, c_ovo = ova.cost(), ovo.cost()
    assert c_ova["perceptrons"] == 10 and c_ovo["perceptrons"] == 45
    assert c_ovo["separated"] == 45 and c_ova["separated"] < 5  # most OvA runs never separate
    assert c_ova["passes"] == sum(r.epochs for r in ova.results)
    assert c_ova["example visits"] == len(split.y_train) * c_ova["passes"]
    assert c_ovo["example visits"] < c_ova["example visits"] / 2


def test_one_vs_all_perceptrons_say_not_mine(split, models):
    """Imbalance: OvA misses positives far more often than it raises false alarms."""
    model = models["one-vs-all"]
    rates = multiclass.binary_error_rates(model, split.X_test, split.y_test)
    S = split.X_test @ model.W.T + model.b
    for k in range(10):
        pos = split.y_test == k
        assert rates["miss"][k] == pytest.approx(np.mean(S[pos, k] <= 0))
        assert rates["false alarm"][k] == pytest.approx(np.mean(S[~pos, k] > 0))
    assert rates["miss"].mean() > 3 * rates["false alarm"].mean()
    assert rates["no positive"] == pytest.approx(np.mean(np.all(S <= 0, axis=1)))
    assert rates["no positive"] > 0.05


def test_tie_breaking_is_deterministic_and_documented():
    X = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, -1.0]])
    y = np.array([0, 1, 2])
    model = multiclass.train_one_vs_all(X, y, max_epochs=5)
    model.W[:] = 0.0
    model.b[:] = 0.0  # every score is 0: a three-way tie everywhere
    assert multiclass.predict_multiclass(model, X).tolist() == [0, 0, 0]
    assert multiclass.ties(model, X) == 3
    ovo = multiclass.train_one_vs_one(X, y, max_epochs=5)
    # a voting cycle: (0, 1) votes 0, (0, 2) votes 2, (1, 2) votes 1: one vote each
    ovo.W[:] = 0.0
    ovo.b[:] = [1.0, -1.0, 1.0]
    assert ovo.pairs.tolist() == [[0, 1], [0, 2], [1, 2]]
    assert multiclass.votes(ovo, X).tolist() == [[1, 1, 1]] * 3
    assert multiclass.predict_multiclass(ovo, X).tolist() == [0, 0, 0]
    assert multiclass.ties(ovo, X) == 3
    ovo.b[:] = 0.0  # a score of exactly 0 votes for the second class of the pair
    assert multiclass.votes(ovo, X).tolist() == [[0, 1, 2]] * 3


def test_labels_need_not_be_0_to_c():
    rng = np.random.default_rng(0)
    X = np.vstack([rng.normal(loc, 0.3, size=(20, 2)) for loc in ([0, 3], [3, 0], [-3, -3])])
    y = np.repeat(np.array([7, 2, 5]), 20)
    for trainer in (multiclass.train_one_vs_all, multiclass.train_one_vs_one):
        model = trainer(X, y, max_epochs=50)
        assert model.classes.tolist() == [2, 5, 7]
        assert np.array_equal(multiclass.predict_multiclass(model, X), y)


def test_confusion_matrix():
    M = multiclass.confusion_matrix([0, 0, 1, 2, 2, 2], [0, 1, 1, 2, 0, 2], [0, 1, 2])
    assert M.tolist() == [[1, 1, 0], [0, 1, 0], [1, 0, 2]]
    with pytest.raises(ValueError, match="not in classes"):
        multiclass.confusion_matrix([0, 3], [0, 0], [0, 1])


def test_bad_input():
    with pytest.raises(ValueError, match="at least 2 classes"):
        multiclass.train_one_vs_all(np.ones((3, 2)), [1, 1, 1], max_epochs=2)
    with pytest.raises(ValueError, match="same length"):
        multiclass.train_one_vs_one(np.ones((3, 2)), [0, 1], max_epochs=2)
    with pytest.raises(ValueError, match="engine"):
        multiclass.train_one_vs_all(np.ones((2, 2)), [0, 1], max_epochs=2, engine="gpu")
    model = multiclass.train_one_vs_all(np.eye(2), [0, 1], max_epochs=2)
    with pytest.raises(ValueError, match="features"):
        multiclass.predict_multiclass(model, np.ones((1, 3)))
    with pytest.raises(ValueError, match="one-vs-one"):
        multiclass.votes(model, np.eye(2))


@pytest.mark.parametrize("trainer", [multiclass.train_one_vs_all, multiclass.train_one_vs_one])
def test_ndarray_lockstep_engine_gives_the_same_model(split, trainer):
    """All c (or c(c-1)/2) perceptrons as one MXNet computation per example: same model."""
    X, y = split.X_train[:300], split.y_train[:300]
    lockstep = trainer(X, y, max_epochs=4, engine="ndarray")
    compiled = trainer(X, y, max_epochs=4, engine="batched")
    for a, b in zip(lockstep.results, compiled.results):
        assert a.updates_per_epoch == b.updates_per_epoch
    np.testing.assert_array_equal(lockstep.W, compiled.W)
    np.testing.assert_array_equal(lockstep.b, compiled.b)
