"""Multiclass by reduction: OvA/OvO equal independently trained binary perceptrons."""

from itertools import combinations

import numpy as np
import pytest

from gluon_perceptron.core.rosenblatt import multiclass
from gluon_perceptron.core.rosenblatt.training import train
from gluon_perceptron.experiments import multiclass as mc_exp

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
    assert c_ova.perceptrons == 10 and c_ovo.perceptrons == 45
    assert c_ovo.separated == 45 and c_ova.separated < 5  # most OvA runs never separate
    assert c_ova.passes == sum(r.epochs for r in ova.results)
    assert c_ova.example_visits == len(split.y_train) * c_ova.passes
    assert c_ovo.example_visits < c_ova.example_visits / 2


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


@pytest.mark.parametrize("trainer", [multiclass.train_one_vs_all, multiclass.train_one_vs_one])
def test_faithful_lockstep_engine_gives_the_same_model(split, trainer):
    """All c (or c(c-1)/2) perceptrons as one MXNet computation per example: same model.
    (150 digits: the faithful engine costs one MXNet step per example and pass; on them too
    some perceptrons stop early and the others run all 4 passes, as on 300.)"""
    X, y = split.X_train[:150], split.y_train[:150]
    lockstep = trainer(X, y, max_epochs=4, engine="faithful")
    compiled = trainer(X, y, max_epochs=4, engine="fast")
    for a, b in zip(lockstep.results, compiled.results):
        assert a.updates_per_epoch == b.updates_per_epoch
    np.testing.assert_array_equal(lockstep.W, compiled.W)
    np.testing.assert_array_equal(lockstep.b, compiled.b)


# --- engine words, results as dataclasses, input checked at the edge (issues 10 and 12) ------

def test_engine_words(split):
    """``"fast"`` (the default) and ``"faithful"`` (the loop in the body), as every trainer's;
    the old words ``"batched"`` and ``"loop"`` (deprecated in 0.3) and ``"ndarray"`` (the
    faithful engine's name in 0.3) went in 0.4."""
    X, y = split.X_train[:200], split.y_train[:200]
    fast = multiclass.train_one_vs_one(X, y, max_epochs=3)
    explicit = multiclass.train_one_vs_one(X, y, max_epochs=3, engine="fast")
    np.testing.assert_array_equal(explicit.W, fast.W)
    np.testing.assert_array_equal(explicit.b, fast.b)
    for old in ("batched", "loop", "ndarray"):
        with pytest.raises(ValueError, match=r"engine must be one of \['faithful', 'fast'\]"):
            multiclass.train_one_vs_all(X, y, max_epochs=2, engine=old)


def test_a_model_has_the_common_result_names(split, models):
    """``w`` (= ``W``), ``updates_per_epoch`` (every binary run's, added pass by pass),
    ``converged`` (all of them) and ``epochs`` (the longest run's)."""
    for model in models.values():
        runs = model.results
        assert model.w is model.W and model.epochs == max(r.epochs for r in runs)
        assert sum(model.updates_per_epoch) == sum(r.updates for r in runs)
        assert model.updates_per_epoch[0] == sum(r.updates_per_epoch[0] for r in runs)
        assert len(model.updates_per_epoch) == model.epochs
        assert model.converged == all(r.converged for r in runs)
    X, y = split.X_train[:300], split.y_train[:300]
    assert not multiclass.train_one_vs_all(X, y, max_epochs=1).converged


def test_input_is_checked_once_at_the_edge(split, monkeypatch):
    """Input is checked once at the edge: train_batched, called inside, trusts it."""
    from gluon_perceptron.core import _checks

    calls = []
    real = _checks.features
    monkeypatch.setattr(_checks, "features", lambda *a, **k: calls.append(1) or real(*a, **k))
    multiclass.train_one_vs_one(split.X_train[:200], split.y_train[:200], max_epochs=2,
                                engine="fast")
    assert len(calls) == 1


def test_cost_and_rates_are_dataclasses(split, models):
    ova = models["one-vs-all"]
    cost = ova.cost()
    assert isinstance(cost, multiclass.MulticlassCost)
    assert cost.as_dict()["example visits"] == cost.example_visits
    rates = multiclass.binary_error_rates(ova, split.X_test, split.y_test)
    assert isinstance(rates, multiclass.BinaryErrorRates)
    assert rates["false alarm"] is rates.false_alarm and rates["no positive"] == rates.no_positive


def test_float_labels_must_be_whole_numbers():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(21, 3))
    y = np.arange(21) / 10 + 0.05  # 21 distinct floats: not 21 classes
    for trainer in (multiclass.train_one_vs_all, multiclass.train_one_vs_one):
        with pytest.raises(ValueError, match=r"y must hold class labels.*21 non-integer"):
            trainer(X, y, max_epochs=2)
    whole = multiclass.train_one_vs_all(X, np.arange(21) % 3 * 1.0, max_epochs=2)
    assert whole.classes.tolist() == [0.0, 1.0, 2.0]
    with pytest.raises(ValueError, match="class labels"):
        multiclass.train_one_vs_all(X[:2], [1 + 1j, 2j], max_epochs=2)


def test_faithful_engine_refuses_what_mxnet_cannot_hold(monkeypatch):
    from gluon_perceptron.core import _checks

    monkeypatch.setattr(_checks, "MAX_ELEMENTS", 10)
    with pytest.raises(ValueError, match=r"3 x 4 = 12 elements.*limit of 2\*\*31 - 1"):
        multiclass.train_one_vs_all(np.ones((3, 4)), [0, 1, 2], max_epochs=1, engine="faithful")
    with pytest.raises(ValueError, match=r'engine="fast" has no such limit'):
        multiclass.train_one_vs_one(np.ones((3, 4)), [0, 1, 2], max_epochs=1, engine="faithful")
    assert multiclass.train_one_vs_all(np.ones((3, 4)), [0, 1, 2], max_epochs=1).W.shape == (3, 4)


# --- the experiments behind notebook 10 and the main job's section -----------------------------

def test_multiclass_demo_is_the_section(split, models):
    demo = mc_exp.multiclass_demo(split, max_epochs=EPOCHS)
    for result, scheme in zip(demo.schemes, ("one-vs-all", "one-vs-one")):
        assert result.scheme == scheme
        np.testing.assert_array_equal(result.model.W, models[scheme].W)
        assert result.accuracy == np.mean(result.predicted == split.y_test)
        assert result.confusion.sum() == len(split.y_test)
        assert np.trace(result.confusion) == np.sum(result.predicted == split.y_test)
    assert demo.one_vs_all.ties == 0 and demo.one_vs_one.ties == 8  # what the main job prints
    assert demo.rates.no_positive == pytest.approx(0.111, abs=5e-4)


#: Splits no notebook prints (notebook 10 uses seeds 0 to 19).
TEST_SPLITS = range(10_000, 10_040)


@pytest.fixture(scope="module")
def over_splits():
    return mc_exp.multiclass_over_splits(TEST_SPLITS, max_epochs=EPOCHS)


def test_notebook_10_claims_on_reserved_splits(over_splits):
    """Notebook 10's readings, with the frequency it states, on 40 splits no notebook prints
    (the issue's re-run found "one-vs-one above 95 % on every split" failing on 2 of 40 and
    "misses more than twice its false alarms on every split" on 1 of 40, so neither is
    claimed for every split):

    * both schemes get about 95 % right, one-vs-all spreads wider (how often one-vs-one is
      above 0.95 and ahead of one-vs-all are the ``multiclass`` claims, checked below in the
      notebook's words);
    * the 45 pairs are separable (exact LP) while the perceptron separates all 45 within 20
      epochs on some splits only: "not separated within 20 epochs" is not "not separable";
    * one-vs-one trains 4.5 times as many perceptrons yet makes fewer than half the example
      visits; most one-vs-all perceptrons run all 20 epochs;
    * a few percent of the test digits are claimed by no one-vs-all perceptron (how often they
      miss more than twice as often as they raise false alarms is a claim, below)
    """
    r = over_splits
    n = len(r.seeds)
    assert n == 40 and r.seeds.min() >= 10_000
    ova, ovo = r.accuracy.T
    assert np.all((0.85 < ova) & (ova < 0.985)) and np.all(ovo > 0.9)
    assert np.ptp(ova) > np.ptp(ovo)
    assert np.mean(r.pairs_separable == 45) >= 0.95
    assert 0 < np.sum(r.pairs_separated == 45) < n
    assert np.all(r.pairs_separated <= r.pairs_separable)
    assert r.perceptrons.tolist() == [10, 45]
    assert np.all(r.visits[:, 1] < r.visits[:, 0] / 2)
    assert np.all(r.ova_full_runs >= 5)
    assert np.all((0.01 < r.no_positive) & (r.no_positive < 0.15))


def test_notebook_10_frequencies_on_reserved_splits(over_splits):
    """Notebook 10's frequencies (the ``multiclass`` claims of
    :mod:`gluon_perceptron.experiments.claims`, in the notebook's words) on the 40 reserved
    splits."""
    from gluon_perceptron.experiments import claims

    r = over_splits
    assert list(r.seeds) == list(claims.seeds_for("multiclass", claims.TEST_START))
    checks = claims.judge_claims("multiclass", r.seeds,
                                 [claims.multiclass_readings(r, i) for i in range(len(r.seeds))])
    assert checks
    failed = [str(c) for c in checks.values() if not c.supported]
    assert not failed, "\n".join(failed)


def test_pairs_the_perceptron_did_not_separate_go_to_the_lp(monkeypatch):
    """The count of separable pairs asks the LP exactly for the pairs the perceptron left
    unseparated (a converged run is its own certificate)."""
    asked = []
    real = mc_exp.is_separable
    monkeypatch.setattr(mc_exp, "is_separable", lambda X, Y: asked.append(len(Y)) or real(X, Y))
    r = mc_exp.multiclass_over_splits([1], max_epochs=EPOCHS)
    assert len(asked) == 45 - r.pairs_separated[0] > 0
