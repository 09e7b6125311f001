"""The relaxation method: index rules and step sizes compared, on a wedge and on "0 or not 0".

:func:`compare_rules` runs every rule with every :math:`\\eta` on one system;
:func:`wedge_demo` is the two-inequality picture of projections against reflections;
:func:`digits_relaxation` the rule table on "0 or not 0" for one split, and
:func:`relaxation_over_splits` the same table on many seeded splits, so that what the notebook
reads off the table is checked on every split, not on one.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import numpy as np

from ..core import _checks
from ..core._arrays import SQUARABLE
from ..core._convert import as_features, as_progress, as_seeds, as_values
from ..core._validation import Rule, count, names, real, validate_params
from ..core.data.real import digits_split, one_vs_rest
from ..core.fast.relaxation_fast import _shared_gram
from ..core.theory.relaxation import (
    BOUNDS,
    ETA,
    RULES,
    SOLVABLE,
    RelaxationResult,
    perceptron_system,
    relaxation_method,
    wedge_system,
)
from ._progress import Progress, track

#: Relaxation parameters compared by default: under-relaxed, projection, over-relaxed, reflection.
ETAS = (0.5, 1.0, 1.5, 2.0)

#: The rules that pick an index without looking at the residuals, and the greedy ones.
BLIND_RULES = ("cyclic", "randomized", "permuted")
GREEDY_RULES = ("max_distance", "max_residual")


@dataclass
class RuleComparison:
    """:func:`compare_rules`: one :class:`RelaxationResult` per ``(rule, eta)``.

    Reads like the dict it replaced: ``table[("cyclic", 2.0)]``, ``table.items()``, ``set(table)``.

    Attributes
    ----------
    results : dict
        ``(rule, eta) -> RelaxationResult``.
    rules : tuple of str
    etas : tuple of float
    max_iterations : int
        The bound every run had; a run that reached it has ``converged=False``.
    """

    results: dict[tuple[str, float], RelaxationResult]
    rules: tuple[str, ...]
    etas: tuple[float, ...]
    max_iterations: int

    def __getitem__(self, key: tuple[str, float]) -> RelaxationResult:
        return self.results[key]

    def __iter__(self) -> Iterator[tuple[str, float]]:
        return iter(self.results)

    def __len__(self) -> int:
        return len(self.results)

    def keys(self):
        return self.results.keys()

    def values(self):
        return self.results.values()

    def items(self):
        return self.results.items()

    def iterations(self) -> np.ndarray:
        """Iterations of every run, shape ``(rules, etas)``."""
        return np.array([[self.results[(r, e)].iterations for e in self.etas]
                         for r in self.rules])

    def converged(self) -> np.ndarray:
        """Whether every run became feasible, shape ``(rules, etas)``."""
        return np.array([[self.results[(r, e)].converged for e in self.etas]
                         for r in self.rules])


def _sequence(values, name: str) -> tuple:
    if isinstance(values, str) or np.ndim(values) != 1 or len(values) == 0:
        raise ValueError(f"{name} must be a non-empty sequence (e.g. a tuple with one "
                         f"value), got {values!r}")
    return tuple(values)


@validate_params(rules=names(*RULES), A=SOLVABLE, c=BOUNDS, max_iterations=count(minimum=0),
                 etas=Rule(lambda v, n, a: tuple(ETA(e, f"{n}[{i}]", a) for i, e in enumerate(
                     _sequence(v, n))), "etas in (0, 2]"))
def compare_rules(A, c, *, etas=ETAS, rules=RULES, max_iterations: int = 100_000,
                  seed: int = 0) -> RuleComparison:
    """Run :func:`relaxation_method` for every index rule and relaxation parameter.

    Every run starts from :math:`w = 0` with the default ``tol``; the system and the
    arguments are checked once.

    Parameters
    ----------
    seed : int or None
        Seed of the random index rules' generator, in ``0 .. 2**32 - 1`` (None: a fresh one).

    Returns
    -------
    RuleComparison
        Compare the runs' ``iterations`` (to feasibility, or ``max_iterations`` when
        ``converged`` is False).
    """
    A, c = as_features(A, np.float64), as_values(c)
    etas, rules = tuple(map(float, etas)), tuple(rules)
    with _shared_gram(A):  # the runs share the system's Gram matrix A^T A
        results = {(rule, eta): relaxation_method(A, c, eta=eta, rule=rule,
                                                  max_iterations=max_iterations, seed=seed)
                   for rule in rules for eta in etas}
    return RuleComparison(results=results, rules=rules, etas=etas,
                          max_iterations=max_iterations)


@dataclass
class WedgeDemo:
    """:func:`wedge_demo`: the relaxation method on :math:`|w_2| \\le s (w_1 - 1)`.

    Attributes
    ----------
    A, c : ndarray
        The two inequalities (:func:`relaxation.wedge_system`).
    w0 : ndarray
        The start, ``(0, 0.5)``.
    paths : dict
        ``"eta = 1"`` and ``"eta = 2"``: cyclic runs of at most ``short`` iterations, with
        their paths recorded.
    exact, tolerant : RelaxationResult
        Projections (:math:`\\eta = 1`) for at most ``long`` iterations, with ``tol=0`` and
        with the default ``tol=1e-9``.
    """

    A: np.ndarray
    c: np.ndarray
    w0: np.ndarray
    paths: dict[str, RelaxationResult]
    exact: RelaxationResult
    tolerant: RelaxationResult


@validate_params(slope=real(positive=True, maximum=SQUARABLE, why="its square enters each row"),
                 short=count(minimum=0), long=count(minimum=0))
def wedge_demo(slope: float = 0.1, *, short: int = 60, long: int = 2000) -> WedgeDemo:
    """Projections creep towards the apex of a thin wedge; reflections jump in.

    Deterministic (cyclic rule): no seed.
    """
    A, c = wedge_system(float(slope))
    w0 = np.array([0.0, 0.5])
    paths = {f"eta = {eta:g}": relaxation_method(A, c, eta=eta, w0=w0, max_iterations=short,
                                                 record=True) for eta in (1.0, 2.0)}
    exact = relaxation_method(A, c, eta=1.0, w0=w0, max_iterations=long, tol=0.0)
    tolerant = relaxation_method(A, c, eta=1.0, w0=w0, max_iterations=long)
    return WedgeDemo(A=A, c=c, w0=w0, paths=paths, exact=exact, tolerant=tolerant)


@dataclass
class DigitRelaxation:
    """:func:`digits_relaxation`: the rule table on "digit or not" for one split.

    Attributes
    ----------
    seed : int or None
    digit, epochs : int
    shape : tuple of int
        ``A.shape``: (pixels + 1, training examples).
    table : RuleComparison
    best : RelaxationResult
        Maximal distance with :math:`\\eta = 2`.
    smallest_margin : float
        :math:`\\min_i y_i (w^\\top x_i + b)` of ``best`` on the training part.
    test_accuracy : float
        Of ``best`` on the test part (a score of 0 counts as wrong).
    """

    seed: int | None
    digit: int
    epochs: int
    shape: tuple[int, int]
    table: RuleComparison
    best: RelaxationResult
    smallest_margin: float
    test_accuracy: float

    @property
    def bound(self) -> int:
        """The iteration bound: ``epochs`` times the number of inequalities."""
        return self.table.max_iterations


#: The rules of ``epochs`` and ``digit``: ``epochs`` passes over a split's training part (at
#: most the 1,797 digits) stay within ``MAX_COUNT`` iterations; a digit is 0 .. 9.
_DIGIT_RULES = dict(epochs=count(maximum=_checks.MAX_COUNT // 1797),
                    digit=count(minimum=0, maximum=9))


@validate_params(**_DIGIT_RULES)
def digits_relaxation(seed: int = 0, *, digit: int = 0, epochs: int = 50) -> DigitRelaxation:
    """Every rule and :math:`\\eta` of :func:`compare_rules` on "``digit`` or not" as
    :math:`A^\\top \\tilde w \\le -1` (:func:`relaxation.perceptron_system`), on
    ``digits_split(seed=seed)``, with a bound of ``epochs`` passes' worth of iterations; the
    random rules use the same ``seed`` (None: a fresh, unrepeatable split and generator)."""
    split = digits_split(seed=seed)
    Y = one_vs_rest(split.y_train, digit)
    bound = epochs * len(Y)
    A, c = perceptron_system(split.X_train, Y)
    table = compare_rules(A, c, max_iterations=bound, seed=seed)
    best = table[("max_distance", 2.0)]
    w, b = best.w[:-1], best.w[-1]
    Y_test = one_vs_rest(split.y_test, digit)
    return DigitRelaxation(
        seed=seed, digit=digit, epochs=epochs, shape=A.shape, table=table, best=best,
        smallest_margin=float(np.min(Y * (split.X_train @ w + b))),
        test_accuracy=1.0 - float(np.mean(Y_test * (split.X_test @ w + b) <= 0)))


@dataclass
class RelaxationOverSplits:
    """:func:`relaxation_over_splits`: the rule table on many splits.

    Attributes
    ----------
    seeds : ndarray of int, shape (s,)
    rules : tuple of str
    etas : tuple of float
    iterations : ndarray of int, shape (s, rules, etas)
    converged : ndarray of bool, shape (s, rules, etas)
    test_accuracy : ndarray, shape (s,)
        Of maximal distance with :math:`\\eta = 2`.
    """

    seeds: np.ndarray
    rules: tuple[str, ...]
    etas: tuple[float, ...]
    iterations: np.ndarray
    converged: np.ndarray
    test_accuracy: np.ndarray

    def _cell(self, rule: str, eta: float) -> tuple[np.ndarray, np.ndarray]:
        r, e = self.rules.index(rule), self.etas.index(eta)
        return self.iterations[:, r, e], self.converged[:, r, e]

    def reflections_win(self) -> np.ndarray:
        """Per split: for every rule, :math:`\\eta = 2` is feasible in fewer iterations than
        :math:`\\eta = 1`."""
        return np.all([self._cell(r, 2.0)[1] & (self._cell(r, 2.0)[0] < self._cell(r, 1.0)[0])
                       for r in self.rules], axis=0)

    def blind_projections_stuck(self) -> np.ndarray:
        """Per split: no blind rule with :math:`\\eta = 1` is feasible at the bound."""
        return ~np.any([self._cell(r, 1.0)[1] for r in BLIND_RULES], axis=0)

    def greedy_ahead(self) -> np.ndarray:
        """Per split: for every :math:`\\eta`, the slower greedy rule needs fewer iterations
        than the fastest blind rule."""
        return np.all([np.max([self._cell(g, e)[0] for g in GREEDY_RULES], axis=0)
                       < np.min([self._cell(b, e)[0] for b in BLIND_RULES], axis=0)
                       for e in self.etas], axis=0)


@validate_params(**_DIGIT_RULES)
def relaxation_over_splits(seeds: Iterable[int] = range(10), *, digit: int = 0,
                           epochs: int = 50,
                           progress: Progress | None = None) -> RelaxationOverSplits:
    """:func:`digits_relaxation` on every split ``seed`` (default 10 splits; a count ``k``
    means ``range(k)``)."""
    seeds, progress = as_seeds(seeds), as_progress(progress)
    runs = [digits_relaxation(draw, digit=digit, epochs=epochs)
            for draw in track(seeds, progress, desc="splits")]
    return RelaxationOverSplits(
        seeds=np.array(seeds), rules=RULES, etas=ETAS,
        iterations=np.array([run.table.iterations() for run in runs]),
        converged=np.array([run.table.converged() for run in runs]),
        test_accuracy=np.array([run.test_accuracy for run in runs]))
