"""The notebooks' statements about random results, as frequencies over many draws.

A statement about random data is a theorem, or a frequency over at least :data:`DRAWS` draws
that a test checks on draws of its own (CONTRIBUTING.md). Every such frequency lives here, once:

* a :class:`Study` is one random experiment at the size a notebook runs it; ``measure(seed)``
  makes one draw of it and returns its readings (a dict of numbers);
* a :class:`Claim` is an event on one draw's readings (``holds``) and the share of draws on
  which the notebook says it happens (``at_least`` and ``at_most``), with the notebook's own
  ``words``, which its markdown contains verbatim (``tests/experiments/test_claims.py`` checks it).

:func:`check_claims` makes the draws of one study on the seeds it is given and returns a
:class:`ClaimCheck` per claim: how often the event held, and whether that frequency supports
the words. The tests run it on seeds of their own (:data:`TEST_START`), the notebooks print
their own draws (seeds below :data:`TEST_START`), and ``bash run.sh claims`` runs every study
on a fresh range of seeds and prints each claim with its frequency and its words.

Three ranges of seeds, disjoint, each with one use:

* seeds below 10,000: the notebooks' own draws (and the main job's);
* :data:`TEST_START` on (10,000 to 10,999, ``TEST_SEEDS`` in ``tests/conftest.py``): the
  reserved draws the tests check the claims on; nobody prints them, and no promise is set from
  them;
* :data:`CALIBRATION_START` on (20,000 to 20,999): the calibration draws a claim's promise is
  set from (:func:`promise`; :attr:`Claim.calibration` records the count seen there), before
  the reserved draws are looked at;

and ``bash run.sh claims`` starts at a random seed of 100,000 or more.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import numpy as np

from ..core import _validation as rule
from ..core._validation import validate_params
from ._progress import Progress, track

#: The draws a frequency is measured over (at least 40).
DRAWS = 40

#: The first seed the tests use for the claims; notebooks print draws of smaller seeds.
TEST_START = 10_000

#: The first seed of the calibration draws (:func:`promise`): 20,000 to 20,999, disjoint from
#: the notebooks' seeds (below 10,000), the reserved ones (10,000 to 10,999) and those of
#: ``bash run.sh claims`` (100,000 on).
CALIBRATION_START = 20_000

#: The chance, under the calibration's estimate, that a fresh count of :data:`DRAWS` draws
#: breaks a promise set by :func:`promise`.
RISK = 0.01


@validate_params(draws=rule.count(), count=rule.count(minimum=0, at_most="draws"),
                 side=rule.one_of("at_least", "at_most"), risk=rule.fraction())
def promise(count: int, draws: int = DRAWS, *, side: str = "at_least",
            risk: float = RISK) -> int:
    r"""The count of :data:`DRAWS` fresh draws a notebook may promise, from ``count`` of
    ``draws`` calibration draws on which the event held.

    The frequency's uncertainty after the calibration is its posterior under a uniform prior,
    :math:`\mathrm{Beta}(k + 1, n - k + 1)`; a fresh count of :data:`DRAWS` draws then follows
    the beta-binomial predictive law. The promise is its ``risk`` quantile: ``side="at_least"``
    gives the largest ``m`` with :math:`P(X < m) \le` ``risk``, ``side="at_most"`` the
    smallest ``m`` with :math:`P(X > m) \le` ``risk``. So the reserved draws break a promise
    set this way with a chance of about ``risk``, unless the frequency is not what the
    calibration saw.
    """
    from scipy.stats import betabinom

    count, draws, risk = int(count), int(draws), float(risk)
    law = betabinom(DRAWS, count + 1, draws - count + 1)
    return int(law.ppf(risk) if side == "at_least" else law.isf(risk))


@dataclass(frozen=True)
class Study:
    """One random experiment, at the size a notebook runs it.

    Attributes
    ----------
    name : str
    notebook : str
        The notebook that prints a draw of it (``"13_beyond_rosenblatt"``).
    draw : str
        What one draw is, in words.
    measure : callable
        ``measure(seed) -> dict``: one draw's readings.
    stride : int
        How many consecutive seeds one draw uses: draw ``k`` of a range starting at ``s``
        uses seed ``s + stride * k``, so no two draws share a seed.
    """

    name: str
    notebook: str
    draw: str
    measure: Callable[[int], dict] = field(repr=False)
    stride: int = 1


@dataclass(frozen=True)
class Claim:
    """What a notebook says about a :class:`Study`, as a frequency.

    Attributes
    ----------
    key : str
        ``"NN-what"``, NN the notebook's number.
    study : str
        The :class:`Study` whose draws it counts.
    event : str
        What one draw must show, in words.
    holds : callable
        ``holds(readings) -> bool``: whether a draw shows the event.
    at_least, at_most : float
        The share of draws the words promise: the claim is supported when the event holds on
        a share in ``[at_least, at_most]`` of the draws.
    words : str
        The notebook's words for the claim, verbatim in its markdown.
    calibration : (int, int) or None
        On how many of how many calibration draws (seeds from :data:`CALIBRATION_START`) the
        event held: the promise is no stricter than :func:`promise` of them (the tests check
        it). Every claim of :data:`CLAIMS` has one; ``None`` is for a claim not calibrated yet,
        which the tests refuse.
    """

    key: str
    study: str
    event: str
    holds: Callable[[dict], bool] = field(repr=False)
    at_least: float
    at_most: float = 1.0
    words: str = ""
    calibration: tuple[int, int] | None = None

    def allowed(self, draws: int) -> tuple[int, int]:
        """The counts of ``draws`` draws that support the words: ``(low, high)``."""
        return math.ceil(self.at_least * draws - 1e-9), math.floor(self.at_most * draws + 1e-9)


@dataclass
class ClaimCheck:
    """How often a :class:`Claim`'s event held over the draws of :func:`check_claims`.

    Attributes
    ----------
    claim : Claim
    seeds : ndarray of int
        The first seed of each draw.
    held : ndarray of bool
        Per draw, whether the event held.
    """

    claim: Claim
    seeds: np.ndarray
    held: np.ndarray

    @property
    def count(self) -> int:
        """On how many draws the event held."""
        return int(self.held.sum())

    @property
    def draws(self) -> int:
        """How many draws were made."""
        return int(self.held.size)

    @property
    def supported(self) -> bool:
        """Whether the count lies in what the words promise (:meth:`Claim.allowed`)."""
        low, high = self.claim.allowed(self.draws)
        return low <= self.count <= high

    def __str__(self) -> str:
        low, high = self.claim.allowed(self.draws)
        promise = (f"at least {low}" if high == self.draws else
                   f"at most {high}" if low == 0 else f"{low} to {high}")
        verdict = "supports" if self.supported else "does NOT support"
        return (f"{self.claim.key}: {self.claim.event}: on {self.count} of {self.draws} "
                f"draws (the words promise {promise}); this {verdict} "
                f"\"{self.claim.words}\"")


# --- the studies --------------------------------------------------------------------------------

def _separation(seed: int) -> dict:
    """Notebook 13: the exponents of the three solvers on 5 problems per margin."""
    from .beyond import separation_experiment
    sep = separation_experiment(draws=5, max_iterations=100_000, seed=seed)
    return {m: abs(sep.slope(m)) for m in ("perceptron", "smooth", "rescaled")}


def _generalization(seed: int) -> dict:
    """Notebook 07: one table of 100 draws per N in 25 ... 400."""
    import mxnet as mx

    from .optimality import generalization_curve
    mx.random.seed(seed)
    curve = generalization_curve([25, 50, 100, 200, 400], 100, epsilon=0.5, test_points=200)
    bound, loo = curve.scaled("bound"), curve.scaled("loo")
    z = np.abs(curve.means("loo") - curve.means("test")) / np.hypot(curve.sems("loo"),
                                                                     curve.sems("test"))
    means = curve.means("bound")
    return {"bound_steps": bound[1:] / bound[:-1], "bound_falls": bool(np.all(np.diff(means) < 0)),
            "loo_ratio": loo[-1] / loo[0], "z": z}


def _mixing(seed: int) -> dict:
    """Notebook 12: rounds of both mixings against one perceptron's passes."""
    from .distributed import hard_separable, mixing_speedup
    X, Y = hard_separable(4000, 200, 0.1, seed=seed)
    speed = mixing_speedup(X, Y, workers=(2, 4, 8), max_epochs=2000)
    return dict(zip(speed.method, speed.passes))


def digits_readings(curves, i: int) -> dict:
    """The readings of split ``i`` of ``learning_curves("digits", ..., digits=(0, 8),
    averaged=(0, 8))``: one draw of the ``digits`` study (the tests read them off the curves
    they have already run)."""
    plain, averaged = curves.spread(8)
    centre = curves.weights[i, curves.of(0)].reshape(8, 8)[3:5, 3:5]
    return {"lead": curves.lead_over_majority(0)[i],
            "separated_0": bool(curves.separated(0)[i]),
            "clean_0": int(curves.first_clean_epoch(0)[i]),
            "separated_8": bool(curves.separated(8)[i]),
            "calmer_8": bool(averaged[i] < plain[i] / 2),
            "correlation": curves.correlation[i],
            "centre_negative": bool(np.all(centre < 0))}


def _margins(seed: int) -> dict:
    """Notebook 03: the corrected experiment, 10 trials of 1000 points per margin."""
    from .chapter import margin_experiment
    r = margin_experiment(trials=10, samples=1000, seed=seed)
    mean = r.updates.mean(axis=0)
    return {"fall": float(mean[0] / mean[-1]), "within": bool(np.all(r.updates <= r.bound))}


def _dimension(seed: int) -> dict:
    """Notebook 06: the median count at d = 10 over that at d = 2, on one grid."""
    from .convergence import dimension_growth
    return {"ratio": float(dimension_growth([seed], dimensions=(2, 10)).ratios(10)[0])}


def _relaxation(seed: int) -> dict:
    """Notebook 11: the table of rules and step sizes on one split of "0 or not 0"."""
    from .relaxation import relaxation_over_splits
    r = relaxation_over_splits([seed])
    return {"reflections_win": bool(r.reflections_win()[0]),
            "blind_stuck": bool(r.blind_projections_stuck()[0]),
            "greedy_ahead": bool(r.greedy_ahead()[0]),
            "test_accuracy": float(r.test_accuracy[0])}


def _digits(seed: int) -> dict:
    """Notebook 09: "0 or not 0" and "8 or not 8" on one split of the 8x8 digits."""
    from .digits import learning_curves
    return digits_readings(learning_curves("digits", seeds=[seed], digits=(0, 8),
                                           averaged=(0, 8)), 0)


def _mnist(seed: int) -> dict:
    """Notebook 09: "0 or not 0" on one split of the 5,000 MNIST digits."""
    from ..core.data.real import mnist_5k_split
    from .digits import learning_curves
    r = learning_curves("mnist-5k", seeds=[seed], digits=(0,), averaged=False)
    split = mnist_5k_split(seed=seed)
    ring = split.X_train[split.y_train == 0].mean(axis=0) > 0.5
    w = r.weights[0, 0]
    return {"lead": r.lead_over_majority(0)[0], "final": float(r.test_accuracy[0, 0, -1]),
            "separated": bool(r.separated(0)[0]),
            "centre_negative": bool(w.reshape(28, 28)[12:16, 12:16].mean() < 0),
            "ring_positive": bool(np.mean(w[ring] > 0) > 0.5)}


def _samplers(seed: int) -> dict:
    """Notebook 01: both samplers under 10 consecutive seeds, 500 points each."""
    from .chapter import compare_samplers
    cmp = compare_samplers(range(seed, seed + 10), samples=500)
    spread = min(cmp.quartiles[e].std(axis=0).min() for e in ("faithful", "fast"))
    return {"gap": cmp.largest_quartile_gap, "spread": float(spread)}


def _sizes(seed: int) -> dict:
    """Notebook 03: mean updates to convergence over 20 consecutive seeds per size."""
    from .chapter import updates_by_size
    r = updates_by_size([(100, 2), (1000, 2), (1000, 10)], seeds=range(seed, seed + 20))
    return {"means": r.updates.mean(axis=1), "ratio": float(r.ratios.max())}


def _sgd(seed: int) -> dict:
    """Notebook 04: its problem, 10 SGD runs per schedule and horizon from generator ``seed``;
    bound / mean gap per horizon."""
    from .sgd import sgd_bound_experiment, sgd_demo_data
    # every argument given as its checked form: inside check_claims this call is not checked
    r = sgd_bound_experiment(*sgd_demo_data(), horizons=np.array([10, 30, 100, 300, 1000]),
                             seeds=10, seed=seed, threshold=1.0)
    return {"constant": r.constant_bound / r.constant_gap.mean(axis=0),
            "anytime": r.anytime_bound / r.anytime_gap.mean(axis=0)}


def remedies_readings(spread, i: int) -> dict:
    """The readings of draw ``i`` of ``remedies_over_seeds(seeds, 150, epochs=200,
    last=100)``: one draw of the ``remedies`` study
    (``tests/experiments/test_black_and_white.py`` reads them off the draws it has already made)."""
    return {"tail": {m: float(v[i]) for m, v in spread.tail.items()},
            "shuffled": {m: float(v[i]) for m, v in spread.shuffled.items()},
            "majority": float(spread.majority[i]), "plane": float(spread.plane[i]),
            "plane_train": float(spread.plane_train[i]),
            "pocket_train": float(spread.pocket_train[i])}


def _remedies(seed: int) -> dict:
    """Notebook 05: the remedies on 150 + 150 noisy points, 200 passes, one seed."""
    from .black_and_white import remedies_over_seeds
    return remedies_readings(remedies_over_seeds([seed], 150, epochs=200, last=100), 0)


def growth_readings(growth, i: int) -> dict:
    """The readings of draw ``i`` of ``norm_growth_over_seeds(seeds, 300)``: one draw of the
    ``growth`` study."""
    return {name: {"last": int(growth.last_new_max[name][i]),
                   "growth": float(growth.growth(name)[i])} for name in growth.last_new_max}


def _growth(seed: int) -> dict:
    """Notebook 05: where the plain rule's norm peaks on part 1's two sets, 300 passes."""
    from .black_and_white import norm_growth_over_seeds
    return growth_readings(norm_growth_over_seeds([seed], 300), 0)


def multiclass_readings(runs, i: int) -> dict:
    """The readings of split ``i`` of ``multiclass_over_splits(seeds, max_epochs=20)``: one
    draw of the ``multiclass`` study."""
    ova, ovo = runs.accuracy[i]
    return {"ova": float(ova), "ovo": float(ovo),
            "miss_ratio": float(runs.miss[i] / runs.false_alarm[i]),
            "visits_ratio": float(runs.visits[i, 1] / runs.visits[i, 0])}


def _multiclass(seed: int) -> dict:
    """Notebook 10: one-vs-all and one-vs-one on one split of the 8x8 digits."""
    from .multiclass import multiclass_over_splits
    return multiclass_readings(multiclass_over_splits([seed], max_epochs=20), 0)


def _noisy_mixing(seed: int) -> dict:
    """Notebook 12: uniform mixing on getfake data with 10% flipped labels, 40 rounds; the mean
    training error over the last 10 rounds per W."""
    from .distributed import nonseparable_mixing
    r = nonseparable_mixing(seed=seed)
    return dict(zip(r.workers, r.error[:, -10:].mean(axis=1)))


STUDIES: dict[str, Study] = {s.name: s for s in (
    Study("margins", "03_convergence_theorem", "margin_experiment(trials=10, samples=1000): "
          "the corrected experiment, 10 datasets of 1000 points per margin", _margins),
    Study("dimension", "06_convergence_bounds", "one grid of dimension_growth: 32 datasets "
          "each at d = 2 and d = 10", _dimension),
    Study("separation", "13_beyond_rosenblatt", "separation_experiment(draws=5, "
          "max_iterations=100_000): 5 problems at each of 6 margins, three solvers",
          _separation, stride=5),
    Study("generalization", "07_optimality_and_generalization", "one table of "
          "generalization_curve: 100 draws at each N = 25, 50, 100, 200, 400", _generalization),
    Study("mixing", "12_perceptron_on_many_machines", "hard_separable(4000, 200, 0.1), "
          "train against uniform and weighted mixing with W = 2, 4, 8", _mixing),
    Study("relaxation", "11_relaxation_method", "one split of the 8x8 digits, \"0 or not 0\" "
          "as a system of inequalities, five rules and four step sizes, 50 epochs", _relaxation),
    Study("digits", "09_digits_zero_or_not", "one split of the 8x8 digits, \"0 or not 0\" "
          "and \"8 or not 8\", 20 epochs", _digits),
    Study("mnist", "09_digits_zero_or_not", "one split of the 5,000 MNIST digits, \"0 or "
          "not 0\", 20 epochs", _mnist),
    Study("samplers", "01_separable_data", "compare_samplers(10 consecutive seeds, "
          "samples=500): both samplers' margin quartiles", _samplers, stride=10),
    Study("sizes", "03_convergence_theorem", "updates_by_size: 20 consecutive seeds each of "
          "100 x 2, 1000 x 2 and 1000 x 10 points, epsilon = 0.1", _sizes, stride=20),
    Study("sgd", "04_perceptron_as_sgd", "sgd_bound_experiment(sgd_demo_data(), seeds=10): "
          "the notebook's problem, 10 SGD runs per schedule and horizon", _sgd),
    Study("remedies", "05_black_and_white", "remedies_over_seeds: 150 + 150 points with 20% "
          "flipped labels, 200 passes, each method's mean held-out error over the last 100",
          _remedies),
    Study("growth", "05_black_and_white", "norm_growth_over_seeds: part 1's two sets, 300 "
          "passes of the plain rule", _growth),
    Study("multiclass", "10_multiclass", "multiclass_over_splits: one split of the 8x8 digits, "
          "one-vs-all and one-vs-one, 20 epochs", _multiclass),
    Study("noisy-mixing", "12_perceptron_on_many_machines", "nonseparable_mixing: 400 getfake "
          "points, 10% flipped, uniform mixing with W = 1, 2, 4, 8 for 40 rounds",
          _noisy_mixing),
)}


def _order(r: dict) -> bool:
    return r["perceptron"] > r["smooth"] > r["rescaled"]


CLAIMS: dict[str, Claim] = {c.key: c for c in (
    # notebook 01
    Claim("01-samplers-agree", "samplers", "the engines' seed-averaged margin quartiles differ "
          "by less than the smallest spread of a quartile from seed to seed",
          lambda r: r["gap"] < r["spread"], 0.85,
          words="the gap is below the spread on nearly every comparison (at least 34 of 40)",
          calibration=(40, 40)),
    # notebook 03
    Claim("03-count-falls", "margins", "the mean count at the narrowest margin is more than 5 "
          "times that at the widest", lambda r: r["fall"] > 5, 0.925,
          words="falls by a factor above 5 on nearly every run (at least 37 of 40)",
          calibration=(199, 200)),
    Claim("03-sizes-grow", "sizes", "the mean count over 20 seeds grows from 100 to 1000 "
          "points (2 dimensions) and from 2 to 10 dimensions (1000 points)",
          lambda r: r["means"][0] < r["means"][1] < r["means"][2], 0.85,
          words="from 2 to 10 dimensions on nearly every set (at least 34 of 40)",
          calibration=(40, 40)),
    # notebook 06: promises from 200 calibration grids (seeds 20,000 to 20,199)
    Claim("06-growth-real", "dimension", "the median count grows from d = 2 to d = 10",
          lambda r: r["ratio"] > 1, 0.95,
          words="the count grows from d = 2 to d = 10 on nearly every grid (at least 38 of 40)",
          calibration=(200, 200)),
    Claim("06-growth-size", "dimension", "the factor from d = 2 to d = 10 is between 1.5 and 5",
          lambda r: 1.5 <= r["ratio"] <= 5, 0.925,
          words="by a factor between 1.5 and 5 on nearly every grid (at least 37 of 40)",
          calibration=(198, 200)),
    # notebook 13: promises from 200 calibration runs (seeds 20,000 to 20,999, 5 a run)
    Claim("13-perceptron-steepest", "separation",
          "the perceptron's exponent is the largest of the three",
          lambda r: r["perceptron"] > max(r["smooth"], r["rescaled"]), 0.7,
          words="the perceptron's exponent is the largest of the three on most draws (at "
                "least 28 of 40)",
          calibration=(172, 200)),
    Claim("13-full-order", "separation", "the exponents are in the order perceptron > smooth "
          "> rescaled", _order, 0.5,
          words="the full order perceptron, smooth, rescaled on at least half of them",
          calibration=(140, 200)),
    # notebook 07: promises from 80 calibration tables (seeds 20,000 to 20,079), the frequency
    # of 07-loo-half being too uncertain on 40
    Claim("07-bound-falls", "generalization", "the table's bound falls at every doubling of N",
          lambda r: r["bound_falls"], 0.9,
          words="falls at every doubling of N on nearly every table (at least 36 of 40)",
          calibration=(80, 80)),
    Claim("07-bound-rises", "generalization",
          "the table's (N+1) x bound rises at every doubling of N",
          lambda r: bool(np.all(r["bound_steps"] > 1)), 0.85,
          words="rise at every doubling on nearly every table (at least 34 of 40)",
          calibration=(78, 80)),
    Claim("07-loo-falls", "generalization",
          "(N+1) x leave-one-out error at N = 400 is below 0.8 of its N = 25 value",
          lambda r: r["loo_ratio"] < 0.8, 0.9,
          words="below 0.8 of its N = 25 value on nearly every table (at least 36 of 40)",
          calibration=(80, 80)),
    Claim("07-loo-half", "generalization",
          "(N+1) x leave-one-out error at N = 400 is at most half its N = 25 value",
          lambda r: r["loo_ratio"] <= 0.5, 0.525,
          words="at most half of it on more than half of them (at least 21 of 40)",
          calibration=(60, 80)),
    Claim("07-columns-agree", "generalization",
          "leave-one-out and fresh points differ by at most 2 standard errors at N = 25, 50, "
          "100", lambda r: bool(np.all(r["z"][:3] <= 2)), 0.625,
          words="differ by at most 2 standard errors at N = 25, 50 and 100 on most tables "
                "(at least 25 of 40)", calibration=(66, 80)),
    # notebook 12 (mixing: promises from 200 calibration sets, seeds 20,000 to 20,199)
    Claim("12-uniform-fewer", "mixing", "uniform mixing needs fewer rounds than the "
          "perceptron needs passes, at every W", lambda r: all(
              r[f"uniform W={w}"] < r["train"] for w in (2, 4, 8)), 0.875,
          words="fewer rounds than the perceptron needs passes, at every W, on nearly every "
                "draw (at least 35 of 40)",
          calibration=(195, 200)),
    Claim("12-weighted-W2", "mixing", "weighted mixing with W = 2 needs more rounds than the "
          "perceptron needs passes", lambda r: r["weighted W=2"] > r["train"], 0.375, 0.775,
          words="at W = 2 on about half of the draws (15 to 31 of 40)",
          calibration=(115, 200)),
    Claim("12-weighted-W8", "mixing", "weighted mixing with W = 8 needs more rounds than the "
          "perceptron needs passes", lambda r: r["weighted W=8"] > r["train"], 0.75,
          words="at W = 8 on most (at least 30 of 40)",
          calibration=(179, 200)),
    Claim("12-weighted-uniform", "mixing", "weighted mixing needs more rounds than uniform "
          "mixing at every W", lambda r: all(r[f"weighted W={w}"] > r[f"uniform W={w}"]
                                             for w in (2, 4, 8)), 0.9,
          words="more rounds than uniform mixing at every W on nearly every draw (at least 36 of "
                "40)",
          calibration=(196, 200)),
    Claim("12-noisy-W8", "noisy-mixing", "with 10% flipped labels, the mean training error of "
          "the last 10 rounds is lower with W = 8 than with W = 1", lambda r: r[8] < r[1],
          0.75, words="$W = 8$ is below $W = 1$ on most draws (at least 30 of 40)",
          calibration=(38, 40)),
    # notebook 04
    Claim("04-under-bound", "sgd", "the mean gap of 10 runs is at most the bound at every T, "
          "for both schedules", lambda r: bool(np.all(r["constant"] >= 1)
                                               and np.all(r["anytime"] >= 1)), 0.85,
          words="stays under both bounds at every $T$ on nearly every run (at least 34 of 40)",
          calibration=(40, 40)),
    Claim("04-constant-tight", "sgd", "the constant rate's bound is less than 15 times its mean "
          "gap at every T", lambda r: bool(np.all(r["constant"] < 15)), 0.85,
          words="within 15 times its gap at every $T$ on nearly every run (at least 34 of 40)",
          calibration=(40, 40)),
    Claim("04-anytime-looser", "sgd", "bound / gap of the 1/sqrt t schedule grows from the "
          "first T to the last and ends above the constant rate's",
          lambda r: r["anytime"][-1] > r["anytime"][0] and r["anytime"][-1] > r["constant"][-1],
          0.85, words="ends above the constant rate's on nearly every run (at least 34 of 40)",
          calibration=(40, 40)),
    # notebook 05
    Claim("05-late-noise", "growth", "on the label-noise set the running maximum of ||(w, b)|| "
          "still grows after pass 30", lambda r: r["20% label noise"]["last"] > 30, 0.575,
          words="after pass 30 on most label-noise draws (at least 23 of 40)",
          calibration=(33, 40)),
    Claim("05-late-gauss", "growth", "on the Gaussians the running maximum of ||(w, b)|| "
          "still grows after pass 30", lambda r: r["overlapping Gaussians"]["last"] > 30, 0.675,
          words="and on most Gaussian ones (at least 27 of 40)", calibration=(36, 40)),
    Claim("05-grows-little", "growth", "on both sets the largest norm of 300 passes is below "
          "1.5 times the largest of the first 30", lambda r: all(
              v["growth"] < 1.5 for v in r.values()), 0.85,
          words="below 1.5 times it on both sets on nearly every draw (at least 34 of 40)",
          calibration=(40, 40)),
    Claim("05-plain-above-half", "remedies", "the plain perceptron's mean held-out error over "
          "the last 100 passes is above 0.5", lambda r: r["tail"]["plain"] > 0.5, 0.0, 0.2,
          words="above 0.5 on few draws (at most 8 of 40)", calibration=(1, 40)),
    Claim("05-plain-far", "remedies", "the plain perceptron's error is more than 10 points "
          "above the generating plane's", lambda r: r["tail"]["plain"] > r["plane"] + 0.1,
          0.475, words="more than 10 points above the generating plane on many draws (at "
                       "least 19 of 40)", calibration=(29, 40)),
    Claim("05-plain-worse", "remedies", "the plain perceptron errs more than always answering "
          "the majority label", lambda r: r["tail"]["plain"] > r["majority"], 0.175,
          words="worse than the majority label on some draws (at least 7 of 40)",
          calibration=(16, 40)),
    Claim("05-shuffled-below-half", "remedies", "with a fresh order every pass, none of plain, "
          "decaying and projected has a mean error above 0.5",
          lambda r: all(v <= 0.5 for v in r["shuffled"].values()), 0.85,
          words="shuffled rule is above 0.5 on nearly every draw (at least 34 of 40)",
          calibration=(40, 40)),
    Claim("05-pocket-near-plane", "remedies", "the pocket's error is within 8 points of the "
          "generating plane's", lambda r: r["tail"]["pocket"] <= r["plane"] + 0.08, 0.75,
          words="the pocket within 8 points of the generating plane on most draws (at least "
                "30 of 40)", calibration=(38, 40)),
    Claim("05-averaged-near-plane", "remedies", "the averaged perceptron's error is within 8 "
          "points of the generating plane's", lambda r: r["tail"]["averaged"] <= r["plane"]
          + 0.08, 0.525, words="the averaged perceptron on most (at least 21 of 40)",
          calibration=(31, 40)),
    Claim("05-settled-worse", "remedies", "the pocket or the averaged perceptron errs more "
          "than the majority label", lambda r: max(r["tail"]["pocket"], r["tail"]["averaged"])
          > r["majority"], 0.0, 0.375,
          words="worse than the majority label on a minority of draws (at most 15 of 40)",
          calibration=(6, 40)),
    Claim("05-pocket-undercuts", "remedies", "the pocket's training error is below the "
          "generating plane's", lambda r: r["pocket_train"] < r["plane_train"], 0.125,
          words="undercuts it on some draws (at least 5 of 40)", calibration=(13, 40)),
    # notebook 10
    Claim("10-ovo-above-95", "multiclass", "one-vs-one gets more than 95 % of the test digits "
          "right", lambda r: r["ovo"] > 0.95, 0.725,
          words="above 95 % on most splits no notebook prints (at least 29 of 40)",
          calibration=(37, 40)),
    Claim("10-ovo-ahead", "multiclass", "one-vs-one gets more test digits right than "
          "one-vs-all", lambda r: r["ovo"] > r["ova"], 0.8,
          words="ahead on most splits no notebook prints (at least 32 of 40)",
          calibration=(39, 40)),
    Claim("10-ovo-fewer-visits", "multiclass", "one-vs-one makes fewer than half the example "
          "visits of one-vs-all", lambda r: r["visits_ratio"] < 0.5, 0.85,
          words="fewer than half on nearly every split no notebook prints (at least 34 of 40)",
          calibration=(40, 40)),
    Claim("10-misses", "multiclass", "the one-vs-all perceptrons' mean miss rate is more than "
          "twice their mean false-alarm rate", lambda r: r["miss_ratio"] > 2, 0.8,
          words="more than twice on most splits no notebook prints (at least 32 of 40)",
          calibration=(39, 40)),
    # notebook 11: promise from 200 calibration splits (seeds 20,000 to 20,199)
    Claim("11-reflections-win", "relaxation", "for every rule, eta = 2 solves the system in "
          "fewer iterations than eta = 1", lambda r: r["reflections_win"], 0.8,
          words="it holds for all five rules on most splits (at least 32 of 40)",
          calibration=(187, 200)),
    # notebook 09, 8x8 digits: promises from 200 calibration splits (seeds 20,000 to 20,199)
    Claim("09-ahead-after-one-epoch", "digits", "\"0 or not 0\" is more than 5 points above "
          "the majority baseline after one epoch", lambda r: r["lead"][0] > 0.05, 0.825,
          words="more than five points above it on most splits (at least 33 of 40)",
          calibration=(188, 200)),
    Claim("09-below-baseline", "digits", "\"0 or not 0\" falls below the majority baseline "
          "in some epoch", lambda r: r["lead"].min() < 0, 0.0, 0.075,
          words="falls below the baseline itself in some epoch on few splits (at most 3 of 40)",
          calibration=(1, 200)),
    Claim("09-zero-separated", "digits", "\"0 or not 0\" is separated within 20 epochs",
          lambda r: r["separated_0"], 0.95,
          words="separated within 20 epochs on nearly every split (at least 38 of 40)",
          calibration=(200, 200)),
    Claim("09-zero-separated-early", "digits", "\"0 or not 0\" is separated within 8 "
          "epochs", lambda r: r["separated_0"] and r["clean_0"] <= 8, 0.6,
          words="within 8 epochs on most of them (at least 24 of 40)",
          calibration=(158, 200)),
    Claim("09-correlation", "digits", "the weights of \"0 or not 0\" and \"8 or not 8\" "
          "correlate above 0.5 with their mean-image contrast",
          lambda r: bool(np.all(r["correlation"] > 0.5)), 0.95,
          words="above 0.5 for both digits on nearly every split (at least 38 of 40)",
          calibration=(200, 200)),
    Claim("09-eight-not-separated", "digits", "\"8 or not 8\" is not separated within 20 "
          "epochs", lambda r: not r["separated_8"], 0.95,
          words="not separated within 20 epochs on nearly every split (at least 38 of 40)",
          calibration=(200, 200)),
    Claim("09-averaged-calmer", "digits", "over the last 10 epochs of \"8 or not 8\" the "
          "averaged perceptron's test accuracy moves less than half as much as the plain one's",
          lambda r: r["calmer_8"], 0.85,
          words="below half the plain one on nearly every split (at least 34 of 40)",
          calibration=(193, 200)),
    Claim("09-centre-negative", "digits", "all four centre weights of \"0 or not 0\" are "
          "negative", lambda r: r["centre_negative"], 0.95,
          words="all four centre weights are negative on nearly every split (at least 38 of "
                "40)",
          calibration=(200, 200)),
    # notebook 09, MNIST: promises from 200 calibration splits (seeds 20,000 to 20,199)
    Claim("09-mnist-lead", "mnist", "the lead over the majority baseline exceeds 5 points in "
          "every epoch", lambda r: bool(np.all(r["lead"] > 0.05)), 0.75,
          words="more than five points in every epoch on most splits (at least 30 of 40)",
          calibration=(179, 200)),
    Claim("09-mnist-not-separated", "mnist", "the 3,750 training digits are not separated "
          "within 20 epochs", lambda r: not r["separated"], 0.9,
          words="does not separate its 3,750 training digits within 20 epochs on nearly "
                "every split (at least 36 of 40)",
          calibration=(197, 200)),
    Claim("09-mnist-template", "mnist", "the centre weighs against a 0 on average and more "
          "than half of the ring where a typical 0 has ink weighs for it",
          lambda r: r["centre_negative"] and r["ring_positive"], 0.95,
          words="on nearly every split (at least 38 of 40) the centre weighs against a 0",
          calibration=(200, 200)),
)}


def seeds_for(study: str, start: int, draws: int = DRAWS) -> np.ndarray:
    """The first seed of each of ``draws`` draws of ``study`` from ``start`` on (a draw uses
    :attr:`Study.stride` consecutive seeds, so no two draws share one)."""
    return start + STUDIES[study].stride * np.arange(draws)


# not decorated: only the package (``bash run.sh claims``) and the tests call it, and each
# study's draw calls the package as a notebook does, so those calls are checked as a user's
def check_claims(study: str, seeds: Iterable[int], *,
                 progress: Progress | None = None) -> dict[str, ClaimCheck]:
    """Make one draw of ``study`` per seed (see :func:`seeds_for`) and count, for each of its
    claims, on how many the event held.

    Returns
    -------
    dict of str to ClaimCheck
        By claim key, in the order of :data:`CLAIMS`.
    """
    seeds = np.asarray(list(seeds), dtype=np.int64)
    readings = [STUDIES[study].measure(int(s))
                for s in track(seeds, progress, desc=f"{study} draws")]
    return judge_claims(study, seeds, readings)


def judge_claims(study: str, seeds: Iterable[int], readings: list[dict]
                 ) -> dict[str, ClaimCheck]:
    """The :class:`ClaimCheck` of each claim of ``study`` on draws already made: one dict of
    readings per seed."""
    seeds = np.asarray(list(seeds), dtype=np.int64)
    return {c.key: ClaimCheck(c, seeds, np.array([bool(c.holds(r)) for r in readings]))
            for c in CLAIMS.values() if c.study == study}
