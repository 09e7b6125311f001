"""Ten digits with binary perceptrons: one-vs-all against one-vs-one, on one split and on many.

:func:`multiclass_demo` is what the main job and notebook 10 show on one split: accuracy,
confusion matrices, cost, and the imbalance one-vs-all lives with. :func:`multiclass_over_splits`
measures the same on many seeded splits, and asks the exact question behind "the pairs are
separable": a pair the perceptron separated within ``max_epochs`` is separable (its weights
are the certificate); for every other pair the exact linear program of
:func:`geometry.is_separable` decides, because "not separated within 20 epochs" is not "not
separable".
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from ..core._convert import as_progress, as_seeds
from ..core._validation import validate_params
from ..core.data.real import Split, digits_split
from ..core.rosenblatt.multiclass import (
    BinaryErrorRates,
    MulticlassCost,
    MulticlassModel,
    binary_error_rates,
    confusion_matrix,
    predict_multiclass,
    ties,
    train_one_vs_all,
    train_one_vs_one,
)
from ..core.theory.separability import is_separable
from ._progress import Progress, track
from .digits import SPLIT, as_split


@dataclass
class SchemeResult:
    """One multiclass scheme trained on a split and measured on its test part.

    Attributes
    ----------
    model : MulticlassModel
    predicted : ndarray, shape (n_test,)
    accuracy : float
        Fraction of test examples predicted right.
    ties : int
        Test examples with more than one class at the top score or vote count.
    confusion : ndarray of int, shape (c, c)
        Rows: true class, columns: predicted class.
    cost : MulticlassCost
    """

    model: MulticlassModel
    predicted: np.ndarray
    accuracy: float
    ties: int
    confusion: np.ndarray
    cost: MulticlassCost

    @property
    def scheme(self) -> str:
        return self.model.scheme


@dataclass
class MulticlassDemo:
    """:func:`multiclass_demo`: both schemes on one split, and one-vs-all's imbalance.

    Attributes
    ----------
    max_epochs : int
    one_vs_all, one_vs_one : SchemeResult
    rates : BinaryErrorRates
        Miss and false-alarm rates of the one-vs-all perceptrons on the test part.
    """

    max_epochs: int
    one_vs_all: SchemeResult
    one_vs_one: SchemeResult
    rates: BinaryErrorRates

    @property
    def schemes(self) -> tuple[SchemeResult, SchemeResult]:
        return self.one_vs_all, self.one_vs_one


def _scheme(model: MulticlassModel, split: Split) -> SchemeResult:
    predicted = predict_multiclass(model, split.X_test)
    return SchemeResult(model=model, predicted=predicted,
                        accuracy=float(np.mean(predicted == split.y_test)),
                        ties=ties(model, split.X_test),
                        confusion=confusion_matrix(split.y_test, predicted, model.classes),
                        cost=model.cost())


@validate_params(split=SPLIT)
def multiclass_demo(split: Split, *, max_epochs: int = 20,
                    progress: Progress | None = None) -> MulticlassDemo:
    """Train one-vs-all and one-vs-one on ``split`` and measure them on its test part.

    Parameters
    ----------
    split : Split
        Integer class labels (e.g. :func:`datasets.digits_split`).
    max_epochs : int
        Bound on the passes of every binary perceptron.
    progress : callable, optional
        A tqdm-like wrapper for the loop over the two schemes.
    """
    split, progress = as_split(split), as_progress(progress)
    schemes = {"one-vs-all": train_one_vs_all, "one-vs-one": train_one_vs_one}
    ova, ovo = (schemes[name](split.X_train, split.y_train, max_epochs=max_epochs)
                for name in track(list(schemes), progress, desc="schemes"))
    return MulticlassDemo(max_epochs=max_epochs, one_vs_all=_scheme(ova, split),
                          one_vs_one=_scheme(ovo, split),
                          rates=binary_error_rates(ova, split.X_test, split.y_test))


@dataclass
class MulticlassOverSplits:
    """:func:`multiclass_over_splits`: both schemes on many seeded splits of the 8x8 digits.

    Every array has one entry (or row) per split, in the order of ``seeds``; index 0 of the
    last axis of ``accuracy`` and ``visits`` is one-vs-all, index 1 one-vs-one.

    Attributes
    ----------
    seeds : ndarray of int, shape (s,)
    max_epochs : int
    accuracy : ndarray, shape (s, 2)
        Test accuracy.
    visits : ndarray of int, shape (s, 2)
        Example visits (margin tests) made in training.
    perceptrons : ndarray of int, shape (2,)
        10 and 45.
    ova_separated : ndarray of int, shape (s,)
        One-vs-all perceptrons that separated their training data within ``max_epochs``.
    ova_full_runs : ndarray of int, shape (s,)
        One-vs-all perceptrons that ran all ``max_epochs`` passes.
    pairs_separated : ndarray of int, shape (s,)
        One-vs-one perceptrons (of 45) that separated their pair within ``max_epochs``.
    pairs_separable : ndarray of int, shape (s,)
        Pairs whose training examples are linearly separable, decided exactly: separated by
        the perceptron, or else by the linear program of :func:`geometry.is_separable`.
    miss, false_alarm : ndarray, shape (s,)
        Mean miss and false-alarm rate of the one-vs-all perceptrons on the test part.
    no_positive : ndarray, shape (s,)
        Fraction of test digits no one-vs-all perceptron claims.
    """

    seeds: np.ndarray
    max_epochs: int
    accuracy: np.ndarray
    visits: np.ndarray
    perceptrons: np.ndarray
    ova_separated: np.ndarray
    ova_full_runs: np.ndarray
    pairs_separated: np.ndarray
    pairs_separable: np.ndarray
    miss: np.ndarray
    false_alarm: np.ndarray
    no_positive: np.ndarray


def _separable_pairs(model: MulticlassModel, split: Split) -> int:
    """How many one-vs-one pairs are linearly separable (certificate, else the exact LP)."""
    count = 0
    for (k, k2), result in zip(model.pairs, model.results):
        if result.converged:
            count += 1
            continue
        first, second = model.classes[k], model.classes[k2]
        keep = (split.y_train == first) | (split.y_train == second)
        Y = np.where(split.y_train[keep] == first, 1.0, -1.0)
        count += bool(is_separable(split.X_train[keep], Y))
    return count


@validate_params()
def multiclass_over_splits(seeds: Iterable[int] = range(20), *, max_epochs: int = 20,
                           progress: Progress | None = None) -> MulticlassOverSplits:
    """:func:`multiclass_demo` on the 8x8 digits split by every seed, with the pairs'
    separability decided exactly.

    Parameters
    ----------
    seeds : int or iterable of int
        One :func:`datasets.digits_split` per seed (default 20); a count ``k`` means
        ``range(k)``.
    max_epochs : int
    progress : callable, optional
        A tqdm-like wrapper for the loop over splits.
    """
    seeds, progress = as_seeds(seeds), as_progress(progress)
    rows = []
    for draw in track(seeds, progress, desc="splits"):
        split = digits_split(seed=draw)
        demo = multiclass_demo(split, max_epochs=max_epochs)
        ova, ovo = demo.one_vs_all, demo.one_vs_one
        rows.append(dict(
            accuracy=(ova.accuracy, ovo.accuracy),
            visits=(ova.cost.example_visits, ovo.cost.example_visits),
            ova_separated=ova.cost.separated,
            ova_full_runs=sum(r.epochs == max_epochs for r in ova.model.results),
            pairs_separated=ovo.cost.separated,
            pairs_separable=_separable_pairs(ovo.model, split),
            miss=float(np.mean(demo.rates.miss)),
            false_alarm=float(np.mean(demo.rates.false_alarm)),
            no_positive=demo.rates.no_positive,
            perceptrons=(ova.cost.perceptrons, ovo.cost.perceptrons)))

    def column(key: str) -> np.ndarray:
        return np.array([row[key] for row in rows])

    return MulticlassOverSplits(
        seeds=np.array(seeds), max_epochs=max_epochs, accuracy=column("accuracy"),
        visits=column("visits"), perceptrons=np.array(rows[0]["perceptrons"]),
        ova_separated=column("ova_separated"), ova_full_runs=column("ova_full_runs"),
        pairs_separated=column("pairs_separated"), pairs_separable=column("pairs_separable"),
        miss=column("miss"), false_alarm=column("false_alarm"),
        no_positive=column("no_positive"))
