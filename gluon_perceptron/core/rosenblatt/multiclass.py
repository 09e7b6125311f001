"""Multiclass perceptrons by reduction to binary ones (Remark 1.36 of the notes).

With :math:`c` classes:

* **one-vs-all** trains :math:`c` perceptrons, the :math:`k`-th with class :math:`k` as
  :math:`+1` and every other class as :math:`-1`, and predicts the class whose perceptron
  scores highest, :math:`\\hat y = \\operatorname{argmax}_k\\, w_k^\\top x + b_k`. Each binary
  problem is imbalanced: about :math:`1/c` of its examples are positive.
* **one-vs-one** trains :math:`\\binom{c}{2}` perceptrons, one per pair :math:`k < k'` on the
  examples of those two classes only (:math:`k` as :math:`+1`, :math:`k'` as :math:`-1`), and
  predicts the class with the most votes, class :math:`k` winning the vote of pair
  :math:`(k, k')` when :math:`w_{k,k'}^\\top x + b_{k,k'} > 0` and :math:`k'` otherwise. Each
  binary problem is balanced, and small.

Ties are broken deterministically: the smallest class label wins, both for equal one-vs-all
scores and for equal vote counts.

Each trainer's body is the reduction: one row of labels per binary perceptron (and for
one-vs-one a mask selecting each pair's examples), handed to
:func:`~.batched.train_batched`, whose body is the one lockstep loop of the package: all the
binary perceptrons trained at once, in NDArray, one row of ``W`` each; at example :math:`i`,
one computation scores it under every row, :math:`s = W x_i + b`, and updates exactly the rows
that err (``engine="faithful"``). Since every perceptron walks through the examples in the same
order, and one that made a pass without an update stops, each row ends where
:func:`rosenblatt.train` would take it on its own. The default ``engine="fast"`` gives the same
perceptrons, bit for bit, from ``train_batched``'s twin,
:func:`gluon_perceptron.core.fast.batched_fast.train_runs`: ``train``'s compiled passes, perceptron
after perceptron.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import mxnet as mx
import numpy as np

from .._convert import as_features, as_numpy
from .._validation import (
    ENGINES,
    class_labels,
    features_for,
    fits,
    instance,
    one_of,
    validate_params,
)
from .batched import train_batched
from .results import TrainResult

SCHEMES = ("one-vs-all", "one-vs-one")


@dataclass
class MulticlassCost:
    """What training a :class:`MulticlassModel` cost (see :meth:`MulticlassModel.cost`).

    ``as_dict()`` gives the dict it replaced (keys with spaces: ``"example visits"``).
    """

    perceptrons: int
    passes: int
    example_visits: int
    updates: int
    separated: int

    def as_dict(self) -> dict[str, int]:
        """The dict this used to be, keys with spaces (``"example visits"``)."""
        return {"perceptrons": self.perceptrons, "passes": self.passes,
                "example visits": self.example_visits, "updates": self.updates,
                "separated": self.separated}


@dataclass
class BinaryErrorRates:
    """How each binary perceptron of a model errs on its own task (:func:`binary_error_rates`).

    Also readable by the keys of the dict it replaced: ``rates["false alarm"]``.

    Attributes
    ----------
    miss : ndarray, shape (m,)
        Per perceptron, the fraction of its positives scored :math:`\\le 0`.
    false_alarm : ndarray, shape (m,)
        Per perceptron, the fraction of its negatives scored :math:`> 0`.
    no_positive : float
        One-vs-all: the fraction of examples no perceptron claims (all scores
        :math:`\\le 0`); NaN for one-vs-one.
    """

    miss: np.ndarray
    false_alarm: np.ndarray
    no_positive: float

    def __getitem__(self, key: str):
        return getattr(self, key.replace(" ", "_"))


@dataclass
class MulticlassModel:
    """Binary perceptrons combined into a multiclass rule.

    Attributes
    ----------
    scheme : {"one-vs-all", "one-vs-one"}
    classes : ndarray, shape (c,)
        The class labels, sorted; predictions are drawn from them.
    W : ndarray, shape (m, d)
        One row per binary perceptron (:math:`m = c` or :math:`c(c-1)/2`).
    b : ndarray, shape (m,)
    pairs : ndarray of int, shape (m, 2)
        For row ``r``: the positions in ``classes`` of its positive and negative class
        (one-vs-all: ``(k, -1)``, -1 standing for "all the others").
    results : list of TrainResult
        The binary runs, in row order.
    examples : ndarray of int, shape (m,)
        Training examples each binary perceptron saw.
    positive_share : ndarray, shape (m,)
        Fraction of those examples labelled +1: the imbalance of each binary problem.
    """

    scheme: str
    classes: np.ndarray
    W: np.ndarray
    b: np.ndarray
    pairs: np.ndarray
    results: list[TrainResult]
    examples: np.ndarray
    positive_share: np.ndarray

    @property
    def w(self) -> np.ndarray:
        """:attr:`W`: the binary perceptrons' weights, one row each (``b`` holds their biases)."""
        return self.W

    @property
    def updates_per_epoch(self) -> list[int]:
        """The updates of all the binary perceptrons in each pass (a run that stopped adds 0)."""
        per_run = [r.updates_per_epoch for r in self.results]
        return [sum(u[e] for u in per_run if e < len(u)) for e in range(self.epochs)]

    @property
    def converged(self) -> bool:
        """True only if every binary perceptron converged."""
        return all(r.converged for r in self.results)

    @property
    def epochs(self) -> int:
        """Passes of the longest binary run."""
        return max((r.epochs for r in self.results), default=0)

    def cost(self) -> MulticlassCost:
        """Training cost: perceptrons, passes, example visits, updates, runs that separated.

        An example visit is one margin test :math:`y (w^\\top x + b) \\le 0`; a run making
        :math:`E` passes over :math:`n_r` examples makes :math:`E n_r` of them.
        """
        epochs = np.array([r.epochs for r in self.results])
        return MulticlassCost(perceptrons=len(self.results), passes=int(epochs.sum()),
                              example_visits=int(np.sum(epochs * self.examples)),
                              updates=int(sum(r.updates for r in self.results)),
                              separated=int(sum(r.converged for r in self.results)))


#: ``engine``, and for ``"faithful"`` an ``X`` that MXNet's NDArrays can hold.
_FAITHFUL_FITS = fits(one_of(*ENGINES), lambda engine, args: args["X"].size * (
    engine == "faithful"), 'X ({X.shape[0]} x {X.shape[1]} = {X.size} elements) as NDArrays '
    'of the faithful engine (engine="fast" has no such limit)', ("X",))


def _model(scheme, classes, pairs, results, mask, Y) -> MulticlassModel:
    examples = mask.sum(axis=1)
    positives = np.sum((Y == 1) & mask, axis=1)
    return MulticlassModel(scheme=scheme, classes=classes,
                           W=np.stack([r.w for r in results]).astype(np.float64),
                           b=np.array([r.b for r in results], dtype=np.float64),
                           pairs=np.asarray(pairs, dtype=np.int64), results=results,
                           examples=examples, positive_share=positives / examples)


@validate_params(y=class_labels(whole=True), engine=_FAITHFUL_FITS)
def train_one_vs_all(X, y, *, max_epochs: int, engine: str = "fast",
                     ctx: mx.Context | None = None) -> MulticlassModel:
    """One perceptron per class: that class against all the others.

    Parameters
    ----------
    X : array-like, shape (n, d)
    y : array-like, shape (n,)
        Class labels: integers (e.g. digits 0 to 9), strings, or whole-valued floats.
    max_epochs : int
        Bound on the passes of each binary run (they need not separate their data).
    engine : {"fast", "faithful"}
        ``"faithful"`` runs :func:`~.batched.train_batched`'s loop: all ``c`` in lockstep, one
        MXNet computation per example (slow, but it is the batching written in NDArray; ``X``
        at most :math:`2^{31} - 1` elements). ``"fast"`` trains them one after the other by
        ``train``'s compiled twin. Both give the same perceptrons.
    ctx : mxnet.Context, optional
        Where the ``"faithful"`` engine's arrays live (default ``mx.cpu()``).
    """
    X, y = as_features(X), as_numpy(y).reshape(-1)
    classes = np.unique(y)
    Y = np.where(y[None, :] == classes[:, None], 1.0, -1.0)  # row k: class k against the rest
    keep, pairs = np.ones(Y.shape, dtype=bool), [(k, -1) for k in range(classes.size)]
    results = train_batched(X, Y, mask=keep, max_epochs=max_epochs, engine=engine, ctx=ctx)
    return _model("one-vs-all", classes, pairs, results, keep, Y)


@validate_params(y=class_labels(whole=True), engine=_FAITHFUL_FITS)
def train_one_vs_one(X, y, *, max_epochs: int, engine: str = "fast",
                     ctx: mx.Context | None = None) -> MulticlassModel:
    """One perceptron per pair of classes :math:`k < k'`, on those two classes' examples.

    Class :math:`k` (the smaller label) is :math:`+1`, class :math:`k'` is :math:`-1`. Other
    parameters as for :func:`train_one_vs_all`.
    """
    X, y = as_features(X), as_numpy(y).reshape(-1)
    classes = np.unique(y)
    pairs = list(combinations(range(classes.size), 2))
    first, second = (classes[[pair[j] for pair in pairs]][:, None] for j in (0, 1))
    Y = np.where(y[None, :] == first, 1.0, -1.0)  # row (k, k'): class k against class k'
    keep = (y[None, :] == first) | (y[None, :] == second)  # only those two classes' examples
    results = train_batched(X, Y, mask=keep, max_epochs=max_epochs, engine=engine, ctx=ctx)
    return _model("one-vs-one", classes, pairs, results, keep, Y)


def scores(model: MulticlassModel, X: np.ndarray) -> np.ndarray:
    """Every binary perceptron's score :math:`w_r^\\top x + b_r`, shape ``(n, m)``; refuses
    scores that overflowed (``X`` far too large)."""
    with np.errstate(over="ignore", invalid="ignore"):
        s = X @ model.W.T + model.b
    if not np.all(np.isfinite(s)):
        raise ValueError("the scores w.x + b overflowed to inf or NaN: X's values are too large "
                         "for the model's weights; rescale X as the training data was")
    return s


def votes(model: MulticlassModel, X: np.ndarray) -> np.ndarray:
    """One-vs-one votes, shape ``(n, c)``: pair :math:`(k, k')` votes :math:`k` if its score
    is :math:`> 0`, else :math:`k'` (``model`` from :func:`train_one_vs_one`)."""
    s = scores(model, X)
    winners = np.where(s > 0, model.pairs[:, 0], model.pairs[:, 1])  # one class per pair
    counts = np.zeros((s.shape[0], model.classes.size), dtype=np.int64)
    np.add.at(counts, (np.arange(s.shape[0])[:, None], winners), 1)
    return counts


@validate_params(model=instance(MulticlassModel, "from train_one_vs_all or train_one_vs_one"),
                 X=features_for(lambda model: model.W.shape[1]))
def predict_multiclass(model: MulticlassModel, X) -> np.ndarray:
    """The predicted class of each row of ``X``; ties go to the smallest class label.

    One-vs-all: :math:`\\operatorname{argmax}_k s_k(x)`. One-vs-one: the class with the most
    votes (:func:`votes`). ``numpy.argmax`` returns the first maximum, and ``classes`` is
    sorted, hence the tie rule.
    """
    X = as_features(X)
    table = scores(model, X) if model.scheme == "one-vs-all" else votes(model, X)
    return model.classes[np.argmax(table, axis=1)]


def ties(model: MulticlassModel, X: np.ndarray) -> int:
    """How many rows of ``X`` have more than one class at the top score or vote count."""
    table = scores(model, X) if model.scheme == "one-vs-all" else votes(model, X)
    return int(np.sum(np.sum(table == table.max(axis=1, keepdims=True), axis=1) > 1))


def binary_error_rates(model: MulticlassModel, X, y) -> BinaryErrorRates:
    """How each binary perceptron errs on its own task, on the examples ``(X, y)``: the
    experiments' reading of a model on their own split (no user input enters here: it checks
    nothing, and a label outside ``model.classes`` counts as a negative of every task).

    For row ``r`` (positive class :math:`k`), among the examples its task labels :math:`+1`
    the **miss rate** is the fraction it scores :math:`\\le 0`, and among those labelled
    :math:`-1` the **false-alarm rate** the fraction it scores :math:`> 0`. In one-vs-all the
    negatives outnumber the positives about :math:`c - 1` to 1, and the perceptrons learn to
    say "not mine": misses far above false alarms. For one-vs-one only the examples of the
    pair count.

    Returns
    -------
    BinaryErrorRates
        ``miss`` and ``false_alarm``, arrays of shape ``(m,)``; ``no_positive``: the
        fraction of examples that no one-vs-all perceptron claims (all scores :math:`\\le 0`),
        left to the argmax to sort out (NaN for one-vs-one).
    """
    X, y = as_features(X), as_numpy(y).reshape(-1)
    s = scores(model, X)
    positive = y[:, None] == model.classes[model.pairs[:, 0]][None, :]
    if model.scheme == "one-vs-all":
        negative = ~positive
    else:
        negative = y[:, None] == model.classes[model.pairs[:, 1]][None, :]
    claimed = s > 0
    miss = np.sum(~claimed & positive, axis=0) / np.maximum(positive.sum(axis=0), 1)
    alarm = np.sum(claimed & negative, axis=0) / np.maximum(negative.sum(axis=0), 1)
    nobody = float(np.mean(~claimed.any(axis=1))) if model.scheme == "one-vs-all" else np.nan
    return BinaryErrorRates(miss=miss, false_alarm=alarm, no_positive=nobody)


def confusion_matrix(y_true, y_pred, classes) -> np.ndarray:
    """Counts ``M[i, j]`` of examples of class ``classes[i]`` predicted as ``classes[j]``:
    the experiments' reading of a model (``classes`` lists each class once and holds every
    label of ``y_true`` and ``y_pred``; no user input enters here, so it checks nothing)."""
    y_true, y_pred, classes = (as_numpy(a).reshape(-1) for a in (y_true, y_pred, classes))
    index = {v: i for i, v in enumerate(classes.tolist())}
    M = np.zeros((classes.size, classes.size), dtype=np.int64)
    np.add.at(M, ([index[v] for v in y_true.tolist()], [index[v] for v in y_pred.tolist()]), 1)
    return M
