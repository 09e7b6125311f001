"""The perceptron's family measured against its theory: passive-aggressive's mistake bounds,
the voted perceptron's error bound, ALMA's margin, and the held-out error of the last, the
averaged and the voted predictors.

Every experiment draws ``draws`` datasets with numpy's ``default_rng(seed)`` (one generator
per experiment) and returns every draw; notebook 14 and the main job print frequencies and
spreads, the tests check the claims on other seeds.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core._convert import as_progress
from ..core._validation import count, real, such_that, validate_params
from ..core.beyond.approximate_margin import alma, alma_bound, normalized_rows
from ..core.beyond.passive import pa_mistake_bound, passive_aggressive
from ..core.beyond.voting import predict_voted, train_voted
from ..core.theory.margins import optimal_margin
from ._progress import Progress, track

#: The rules every experiment here shares: how many draws of how many samples, from which seed.
_DRAWS = dict(draws=count(), samples=count())


def _separable(rng: np.random.Generator, n: int, d: int, epsilon: float, bias: bool = True):
    """``n`` points of :math:`N(0, I_d)` inside the ball of radius 3, at distance above
    ``epsilon`` from a random plane :math:`(w, b)` with :math:`\\|w\\| = 1` (:math:`b = 0`
    without ``bias``), labelled by it; returns ``X, Y, w, b`` (getfake's distribution with
    :math:`b \\sim N(0, 1/4)`, in numpy)."""
    w = rng.normal(size=d)
    w /= np.linalg.norm(w)
    b = float(rng.normal()) * 0.5 if bias else 0.0
    rows: list[np.ndarray] = []
    while sum(len(r) for r in rows) < n:
        X = rng.normal(size=(4 * n, d))
        s = X @ w + b
        rows.append(X[(np.linalg.norm(X, axis=1) < 3.0) & (np.abs(s) > epsilon)])
    X = np.vstack(rows)[:n]
    return X, np.where(X @ w + b > 0, 1.0, -1.0), w, b


# --- passive-aggressive: the three bounds ----------------------------------------------------

@dataclass
class PABounds:
    """Mistakes of PA (separable streams) and of PA-I, PA-II (label noise ``flip``) beside
    Crammer et al.'s bounds for the competitor :math:`u` (the generating plane scaled to
    margin 1 on the clean points), ``draws`` each, homogeneous (``bias=False``).

    Attributes
    ----------
    mistakes, bounds : dict of str to ndarray, shape (draws,)
        Per variant.
    C : float
    flip : float
    """

    mistakes: dict
    bounds: dict
    C: float
    flip: float

    def holds(self) -> dict:
        """Per variant: the fraction of draws whose mistakes are at most the bound."""
        return {v: float(np.mean(self.mistakes[v] <= self.bounds[v])) for v in self.mistakes}


@validate_params(**_DRAWS, flip=real(minimum=0.0, maximum=0.5))
def pa_bounds_experiment(*, draws: int = 30, samples: int = 200, C: float = 0.5,
                         flip: float = 0.05, seed: int | None = 0,
                         progress: Progress | None = None) -> PABounds:
    """``draws`` streams of ``samples`` points in 5 dimensions through the origin with margin
    0.3; PA runs on the clean stream, PA-I and PA-II on a copy with a fraction ``flip`` of its
    labels flipped, each for 3 passes (the bound of a sequence covers repeated passes)."""
    C, flip, progress = float(C), float(flip), as_progress(progress)
    rng = np.random.default_rng(seed)
    mistakes: dict = {"PA": [], "PA-I": [], "PA-II": []}
    bounds: dict = {"PA": [], "PA-I": [], "PA-II": []}
    for _ in track(range(draws), progress, desc="PA bounds"):
        X, Y, w, _ = _separable(rng, samples, 5, 0.3, bias=False)  # the paper has no bias
        u = w / np.min(Y * (X @ w)) * (1.0 + 1e-9)  # margin 1 on every clean point
        noisy = np.where(rng.random(samples) < flip, -Y, Y)
        for variant, labels in (("PA", Y), ("PA-I", noisy), ("PA-II", noisy)):
            run = passive_aggressive(X, labels, variant=variant, C=C, max_epochs=3, bias=False)
            mistakes[variant].append(sum(run.history["mistakes"]))
            bounds[variant].append(pa_mistake_bound(X, labels, u, variant=variant, C=C,
                                                    repeats=run.epochs))
    return PABounds(mistakes={v: np.array(m) for v, m in mistakes.items()},
                    bounds={v: np.array(b) for v, b in bounds.items()}, C=C, flip=flip)


# --- the voted perceptron: its bound against its test error ----------------------------------

@dataclass
class VotedBound:
    """The voted perceptron after one pass over ``samples`` examples, tested on ``tests`` more
    from the same separable distribution, ``draws`` times.

    Attributes
    ----------
    error : ndarray, shape (draws,)
        Its test error.
    ratio : ndarray, shape (draws,)
        :math:`(R/\\gamma)^2` of the draw (training and test points together, bias included:
        at least the theorem's :math:`m + 1` points' value).
    samples : int
    """

    error: np.ndarray
    ratio: np.ndarray
    samples: int

    @property
    def bound(self) -> float:
        """:math:`\\frac{2}{m+1}` times the mean of :math:`(R/\\gamma)^2` over the draws."""
        return 2.0 / (self.samples + 1) * float(self.ratio.mean())


@validate_params(**_DRAWS, tests=count())
def voted_bound_experiment(*, draws: int = 30, samples: int = 500, tests: int = 500,
                           seed: int | None = 0,
                           progress: Progress | None = None) -> VotedBound:
    """``draws`` separable sets in 3 dimensions (margin 0.5 around the plane): one pass of the
    voted perceptron over ``samples``, its error on ``tests`` more, and :math:`(R/\\gamma)^2`."""
    progress = as_progress(progress)
    rng = np.random.default_rng(seed)
    errors, ratios = [], []
    for _ in track(range(draws), progress, desc="voted bound"):
        X, Y, _, _ = _separable(rng, samples + tests, 3, 0.5)
        model = train_voted(X[:samples], Y[:samples], max_epochs=1)
        errors.append(float(np.mean(predict_voted(model, X[samples:]) != Y[samples:])))
        best = optimal_margin(X, Y)
        ratios.append((best.radius / best.gamma) ** 2)
    return VotedBound(error=np.array(errors), ratio=np.array(ratios), samples=samples)


# --- ALMA: the margin it reaches ---------------------------------------------------------------

@dataclass
class AlmaMargins:
    """ALMA\\ :sub:`2` run to convergence on ``draws`` separable sets, beside the optimal
    margin of the normalised rows (:func:`~gluon_perceptron.core.theory.margins.optimal_margin`).

    Attributes
    ----------
    margin : ndarray, shape (draws,)
        The margin :math:`\\min_i y_i \\theta^\\top \\hat x_i / \\|\\theta\\|` ALMA reached.
    optimal : ndarray, shape (draws,)
        :math:`\\gamma^*` of the normalised rows.
    updates, bound : ndarray, shape (draws,)
        ALMA's updates and :func:`~gluon_perceptron.core.beyond.approximate_margin.alma_bound`.
    converged : ndarray of bool
    alpha : float
    """

    margin: np.ndarray
    optimal: np.ndarray
    updates: np.ndarray
    bound: np.ndarray
    converged: np.ndarray
    alpha: float

    @property
    def fraction(self) -> np.ndarray:
        """:math:`\\gamma / \\gamma^*` per draw; the paper promises at least
        :math:`1 - \\alpha`."""
        return self.margin / self.optimal


@validate_params(**_DRAWS, alpha=such_that(
    real(positive=True, maximum=1.0), lambda alpha, args: alpha >= 1e-100,
    "{name} must be at least 1e-100: the bound grows as 1/alpha**2 (try alpha=0.5), got {value}"))
def alma_margin_experiment(*, draws: int = 30, samples: int = 100, alpha: float = 0.5,
                           seed: int | None = 0,
                           progress: Progress | None = None) -> AlmaMargins:
    """``draws`` separable sets in 3 dimensions (margin 0.3); ALMA with the paper's
    :math:`B = 1/\\alpha`, :math:`C = \\sqrt 2`, until a pass makes no update (at most 10,000
    passes)."""
    alpha, progress = float(alpha), as_progress(progress)
    rng = np.random.default_rng(seed)
    out: dict = {k: [] for k in ("margin", "optimal", "updates", "bound", "converged")}
    for _ in track(range(draws), progress, desc="ALMA margins"):
        X, Y, _, _ = _separable(rng, samples, 3, 0.3)
        Z = normalized_rows(X)
        run = alma(X, Y, alpha=alpha, max_epochs=10_000)
        theta = np.append(run.w, run.b)
        best = optimal_margin(Z, Y, bias=False).gamma
        out["margin"].append(float(np.min(Y * (Z @ theta)) / np.linalg.norm(theta)))
        out["optimal"].append(best)
        out["updates"].append(run.updates)
        out["bound"].append(alma_bound(best, alpha))
        out["converged"].append(run.converged)
    return AlmaMargins(**{k: np.array(v) for k, v in out.items()}, alpha=alpha)


# --- last, averaged, voted: held-out error side by side ----------------------------------------

@dataclass
class HeldoutPredictors:
    """Held-out error of the three predictors of one voted-perceptron run (the last weights,
    their count-weighted average, the vote), on ``draws`` noisy sets.

    Attributes
    ----------
    last, averaged, voted : ndarray, shape (draws,)
    flip : float
    epochs : int
    """

    last: np.ndarray
    averaged: np.ndarray
    voted: np.ndarray
    flip: float
    epochs: int

    def beats_last(self) -> dict:
        """Fraction of draws in which each of averaged and voted errs less than the last
        weights (ties count as not beating)."""
        return {"averaged": float(np.mean(self.averaged < self.last)),
                "voted": float(np.mean(self.voted < self.last))}


@validate_params(**_DRAWS, epochs=count(), flip=real(minimum=0.0, maximum=0.5))
def heldout_predictors_experiment(*, draws: int = 30, samples: int = 400, epochs: int = 5,
                                  flip: float = 0.1, seed: int | None = 0,
                                  progress: Progress | None = None) -> HeldoutPredictors:
    """``draws`` sets in 5 dimensions with a fraction ``flip`` of the training labels flipped;
    ``epochs`` passes of the voted perceptron over ``samples``, error on 1,000 clean points."""
    flip, progress = float(flip), as_progress(progress)
    rng = np.random.default_rng(seed)
    errors: dict = {"last": [], "average": [], "vote": []}
    for _ in track(range(draws), progress, desc="last, averaged, voted"):
        X, Y, _, _ = _separable(rng, samples + 1000, 5, 0.0)
        noisy = np.where(rng.random(samples) < flip, -Y[:samples], Y[:samples])
        model = train_voted(X[:samples], noisy, max_epochs=epochs)
        for method in errors:
            predicted = predict_voted(model, X[samples:], method=method)
            errors[method].append(float(np.mean(predicted != Y[samples:])))
    return HeldoutPredictors(last=np.array(errors["last"]), averaged=np.array(errors["average"]),
                             voted=np.array(errors["vote"]), flip=flip, epochs=epochs)
