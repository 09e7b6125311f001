"""The notebooks' statements about random results, as frequencies over many draws.

A statement about random data is a theorem, or a frequency over at least :data:`DRAWS` draws
that a test checks on draws of its own (CONTRIBUTING.md). Every such frequency lives here, once:

* a :class:`Study` is one random experiment at the size a notebook runs it; ``measure(seed)``
  makes one draw of it and returns its readings (a dict of numbers);
* a :class:`Claim` is an event on one draw's readings (``holds``) and the share of draws on
  which the notebook says it happens (``at_least`` and ``at_most``), with the notebook's own
  ``words``, which its markdown contains verbatim (``tests/test_claims.py`` checks it).

:func:`check_claims` makes the draws of one study on the seeds it is given and returns a
:class:`ClaimCheck` per claim: how often the event held, and whether that frequency supports
the words. The tests run it on seeds of their own (:data:`TEST_START`), the notebooks print
their own draws (seeds below :data:`TEST_START`), and ``bash run.sh claims`` runs every study
on a fresh range of seeds and prints each claim with its frequency and its words.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import numpy as np

from ._progress import Progress, track

#: The draws a frequency is measured over (at least 40).
DRAWS = 40

#: The first seed the tests use for the claims; notebooks print draws of smaller seeds.
TEST_START = 10_000


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
    """

    key: str
    study: str
    event: str
    holds: Callable[[dict], bool] = field(repr=False)
    at_least: float
    at_most: float = 1.0
    words: str = ""

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
)}


def _order(r: dict) -> bool:
    return r["perceptron"] > r["smooth"] > r["rescaled"]


CLAIMS: dict[str, Claim] = {c.key: c for c in (
    # notebook 03
    Claim("03-count-falls", "margins", "the mean count at the narrowest margin is more than 5 "
          "times that at the widest", lambda r: r["fall"] > 5, 0.95,
          words="falls by a factor above 5 on nearly every run (at least 38 of 40)"),
    # notebook 06
    Claim("06-growth-real", "dimension", "the median count grows from d = 2 to d = 10",
          lambda r: r["ratio"] > 1, 0.95,
          words="the count grows from d = 2 to d = 10 on nearly every grid (at least 38 of 40)"),
    Claim("06-growth-size", "dimension", "the factor from d = 2 to d = 10 is between 1.5 and 5",
          lambda r: 1.5 <= r["ratio"] <= 5, 0.9,
          words="by a factor between 1.5 and 5 on nearly every grid (at least 36 of 40)"),
    # notebook 13
    Claim("13-perceptron-steepest", "separation",
          "the perceptron's exponent is the largest of the three",
          lambda r: r["perceptron"] > max(r["smooth"], r["rescaled"]), 0.7,
          words="the perceptron's exponent is the largest of the three on most draws (at "
                "least 28 of 40)"),
    Claim("13-full-order", "separation", "the exponents are in the order perceptron > smooth "
          "> rescaled", _order, 0.5,
          words="the full order perceptron, smooth, rescaled on at least half of them"),
    # notebook 07
    Claim("07-bound-falls", "generalization", "the table's bound falls at every doubling of N",
          lambda r: r["bound_falls"], 0.95,
          words="falls at every doubling of N on nearly every table (at least 38 of 40)"),
    Claim("07-bound-rises", "generalization",
          "the table's (N+1) x bound rises at every doubling of N",
          lambda r: bool(np.all(r["bound_steps"] > 1)), 0.75,
          words="rise at every doubling on most tables (at least 30 of 40), not on all"),
    Claim("07-loo-falls", "generalization",
          "(N+1) x leave-one-out error at N = 400 is below 0.8 of its N = 25 value",
          lambda r: r["loo_ratio"] < 0.8, 0.95,
          words="below 0.8 of its N = 25 value on nearly every table (at least 38 of 40)"),
    Claim("07-loo-half", "generalization",
          "(N+1) x leave-one-out error at N = 400 is at most half its N = 25 value",
          lambda r: r["loo_ratio"] <= 0.5, 0.4,
          words="at most half of it on many of them (at least 16 of 40)"),
    Claim("07-columns-agree", "generalization",
          "leave-one-out and fresh points differ by at most 2 standard errors at N = 25, 50, "
          "100", lambda r: bool(np.all(r["z"][:3] <= 2)), 0.65,
          words="differ by at most 2 standard errors at N = 25, 50 and 100 on most tables "
                "(at least 26 of 40)"),
    # notebook 12
    Claim("12-uniform-fewer", "mixing", "uniform mixing needs fewer rounds than the "
          "perceptron needs passes, at every W", lambda r: all(
              r[f"uniform W={w}"] < r["train"] for w in (2, 4, 8)), 0.95,
          words="fewer rounds than the perceptron needs passes, at every W, on nearly every "
                "draw (at least 38 of 40)"),
    Claim("12-weighted-W2", "mixing", "weighted mixing with W = 2 needs more rounds than the "
          "perceptron needs passes", lambda r: r["weighted W=2"] > r["train"], 0.3, 0.8,
          words="at W = 2 on about half of the draws (12 to 32 of 40)"),
    Claim("12-weighted-W8", "mixing", "weighted mixing with W = 8 needs more rounds than the "
          "perceptron needs passes", lambda r: r["weighted W=8"] > r["train"], 0.75,
          words="at W = 8 on most (at least 30 of 40)"),
    Claim("12-weighted-uniform", "mixing", "weighted mixing needs more rounds than uniform "
          "mixing at every W", lambda r: all(r[f"weighted W={w}"] > r[f"uniform W={w}"]
                                             for w in (2, 4, 8)), 0.8,
          words="more rounds than uniform mixing at every W on most draws (at least 32 of "
                "40)"),
    # notebook 11
    Claim("11-reflections-win", "relaxation", "for every rule, eta = 2 solves the system in "
          "fewer iterations than eta = 1", lambda r: r["reflections_win"], 0.6,
          words="it holds for all five rules on most splits (at least 24 of 40)"),
    # notebook 09, 8x8 digits
    Claim("09-ahead-after-one-epoch", "digits", "\"0 or not 0\" is more than 5 points above "
          "the majority baseline after one epoch", lambda r: r["lead"][0] > 0.05, 0.9,
          words="more than five points above it on most splits (at least 36 of 40)"),
    Claim("09-below-baseline", "digits", "\"0 or not 0\" falls below the majority baseline "
          "in some epoch", lambda r: r["lead"].min() < 0, 0.0, 0.1,
          words="falls below the baseline itself in some epoch on few splits (at most 4 of 40)"),
    Claim("09-zero-separated", "digits", "\"0 or not 0\" is separated within 20 epochs",
          lambda r: r["separated_0"], 0.95,
          words="separated within 20 epochs on nearly every split (at least 38 of 40)"),
    Claim("09-zero-separated-early", "digits", "\"0 or not 0\" is separated within 8 "
          "epochs", lambda r: r["separated_0"] and r["clean_0"] <= 8, 0.6,
          words="within 8 epochs on most of them (at least 24 of 40)"),
    Claim("09-correlation", "digits", "the weights of \"0 or not 0\" and \"8 or not 8\" "
          "correlate above 0.5 with their mean-image contrast",
          lambda r: bool(np.all(r["correlation"] > 0.5)), 0.95,
          words="above 0.5 for both digits on nearly every split (at least 38 of 40)"),
    Claim("09-eight-not-separated", "digits", "\"8 or not 8\" is not separated within 20 "
          "epochs", lambda r: not r["separated_8"], 0.95,
          words="not separated within 20 epochs on nearly every split (at least 38 of 40)"),
    Claim("09-averaged-calmer", "digits", "over the last 10 epochs of \"8 or not 8\" the "
          "averaged perceptron's test accuracy moves less than half as much as the plain one's",
          lambda r: r["calmer_8"], 0.8,
          words="below half the plain one on most splits (at least 32 of 40)"),
    Claim("09-centre-negative", "digits", "all four centre weights of \"0 or not 0\" are "
          "negative", lambda r: r["centre_negative"], 0.9,
          words="all four centre weights are negative on nearly every split (at least 36 of "
                "40)"),
    # notebook 09, MNIST
    Claim("09-mnist-lead", "mnist", "the lead over the majority baseline exceeds 5 points in "
          "every epoch", lambda r: bool(np.all(r["lead"] > 0.05)), 0.7,
          words="more than five points in every epoch on most splits (at least 28 of 40)"),
    Claim("09-mnist-not-separated", "mnist", "the 3,750 training digits are not separated "
          "within 20 epochs", lambda r: not r["separated"], 0.85,
          words="does not separate its 3,750 training digits within 20 epochs on nearly "
                "every split (at least 34 of 40)"),
    Claim("09-mnist-template", "mnist", "the centre weighs against a 0 on average and more "
          "than half of the ring where a typical 0 has ink weighs for it",
          lambda r: r["centre_negative"] and r["ring_positive"], 0.95,
          words="on nearly every split (at least 38 of 40) the centre weighs against a 0"),
)}


def seeds_for(study: str, start: int, draws: int = DRAWS) -> np.ndarray:
    """The first seed of each of ``draws`` draws of ``study`` from ``start`` on (a draw uses
    :attr:`Study.stride` consecutive seeds, so no two draws share one)."""
    return start + STUDIES[study].stride * np.arange(draws)


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
