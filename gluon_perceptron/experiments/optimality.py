"""Optimality and generalization: the adversary of Theorem 1.34 and leave-one-out.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import partial

import numpy as np
from mxnet import nd
from scipy import sparse

from ..core import _checks
from ..core._convert import as_counts, as_features, as_labels, as_progress
from ..core._validation import (
    Rule,
    count,
    counts,
    fits,
    optional,
    real,
    repeats,
    shaped,
    such_that,
    unchecked,
    validate_params,
)
from ..core.chapter.perceptron_step import perceptron
from ..core.data.synthetic import sample_separable
from ..core.rosenblatt.traced import update_path
from ..core.rosenblatt.training import error_rate, train
from ..core.theory.margins import optimal_margin
from ._progress import Progress, track

# --- optimality: the adversary of Theorem 1.34 ------------------------------------------------

#: Most weights the default learner keeps (an NDArray of float32; MXNet's limit is 2**31).
MAX_DIMENSIONS = 10**8
#: Most entries :attr:`AdversaryRun.X` builds densely; beyond it use ``X_sparse``.
MAX_DENSE_ENTRIES = 5 * 10**7


class PerceptronLearner:
    """The chapter's perceptron as an online learner: predict, then learn from the label.

    Predicts :math:`\\operatorname{sign}(w^\\top x + b)` (a score of 0 predicts -1, as
    :func:`~gluon_perceptron.predict` does) and updates with the package's
    :func:`~gluon_perceptron.perceptron` step, which fires on every mistake.
    """

    def __init__(self, dimensions: int):
        self.w = nd.zeros(shape=(dimensions,))
        self.b = nd.zeros(shape=(1,))

    def predict(self, x: np.ndarray) -> float:
        """The label the learner commits to before seeing ``y``."""
        score = float(self.w.asnumpy() @ x + self.b.asscalar())
        return 1.0 if score > 0 else -1.0

    def update(self, x: np.ndarray, y: float) -> None:
        """One :func:`~gluon_perceptron.perceptron` step on ``(x, y)``."""
        perceptron(self.w, self.b, nd.array(x), y)


@dataclass
class AdversaryRun:
    """The dataset the adversary built and what it cost the learner.

    The examples are the first ``n`` basis vectors of :math:`\\mathbb{R}^d`, so the run keeps
    only their labels: :attr:`X` builds the dense rows on request, :attr:`X_sparse` the same
    rows as a sparse matrix (``n`` nonzeros, whatever ``d``).

    Attributes
    ----------
    Y : ndarray, shape (n,)
        :math:`y_i = -\\hat y_i`, the opposite of the learner's prediction.
    mistakes : int
        Rounds where the prediction was wrong (all ``n`` of them).
    gamma : float
        The margin promised.
    dimensions : int
        :math:`d`.
    """

    Y: np.ndarray
    mistakes: int
    gamma: float
    dimensions: int

    @property
    def n(self) -> int:
        """:math:`n = \\min(\\lfloor 1/\\gamma^2 \\rfloor, d)`."""
        return self.Y.shape[0]

    @property
    def X(self) -> np.ndarray:
        """The basis vectors :math:`e_1, \\dots, e_n` in the order shown, shape (n, d)."""
        if self.n * self.dimensions > MAX_DENSE_ENTRIES:
            raise ValueError(f"X would be a dense {self.n} x {self.dimensions} array, more than "
                             f"{MAX_DENSE_ENTRIES} entries; use X_sparse")
        return np.eye(self.n, self.dimensions)

    @property
    def X_sparse(self) -> sparse.csr_matrix:
        """:attr:`X` as a sparse matrix (``n`` nonzeros)."""
        return sparse.eye(self.n, self.dimensions).tocsr()

    @property
    def witness(self) -> np.ndarray:
        """:math:`w^* = \\gamma \\sum_i y_i e_i`: :math:`\\|w^*\\| \\le 1` and every margin is
        :math:`\\gamma`."""
        w = np.zeros(self.dimensions)
        w[:self.n] = self.gamma * self.Y
        return w


def _rounds(gamma: float, dimensions: int) -> int:
    """:math:`n = \\min(\\lfloor 1/\\gamma^2 \\rfloor, d)`, guarding against
    1/0.1**2 = 99.999... (and gamma**2 underflowing to 0)."""
    if gamma * math.sqrt(dimensions) <= 1.0:
        return dimensions
    return min(int(np.floor(1.0 / gamma**2 * (1 + 1e-12))), dimensions)


def _examples(dimensions: int, args: dict) -> int:
    """How many numbers the adversary's examples hold, were they kept: n of d coordinates."""
    return _rounds(args["gamma"], dimensions) * dimensions


#: A learner of the caller's, or None: an object with the methods ``predict(x)``, ``update(x, y)``.
_LEARNER = optional(such_that(
    unchecked, lambda v, args: all(callable(getattr(v, m, None)) for m in ("predict", "update")),
    "{name} must have methods predict(x) and update(x, y), like PerceptronLearner(dimensions); "
    "got {value.__class__.__name__}", error=TypeError))


# skip_nested=False: the learner is the caller's code, whatever it calls stays checked
@validate_params(skip_nested=False, gamma=real(positive=True, maximum=1.0, why="e_i has norm 1"),
                 dimensions=fits(count(maximum=MAX_DIMENSIONS), _examples, "the adversary's "
                                 "examples of dimensions={value:,} coordinates", ("gamma",)),
                 learner=_LEARNER)
def adversary_run(gamma: float, dimensions: int, learner=None) -> AdversaryRun:
    """Theorem 1.34: force :math:`n = \\min(1/\\gamma^2, d)` mistakes on a deterministic learner.

    Round ``i`` shows :math:`e_i` and, once the learner has predicted :math:`\\hat y_i`,
    reveals :math:`y_i = -\\hat y_i`. Every round is a mistake, yet
    :math:`w^* = \\gamma \\sum_i y_i e_i` has norm :math:`\\gamma\\sqrt n \\le 1` and margin
    :math:`\\gamma` on every example: no algorithm's worst-case mistake bound can beat
    :math:`\\min(1/\\gamma^2, d)`, and the perceptron's :math:`R^2/\\gamma^2` meets it when
    :math:`d \\ge 1/\\gamma^2`.

    Only one example of length :math:`d` exists at a time (the one shown), so the memory is
    :math:`O(d)` and the work :math:`O(n d)`, never :math:`O(d^2)`.

    Parameters
    ----------
    gamma : float
        Margin in ``(0, 1]``.
    dimensions : int
    learner : object with ``predict(x) -> float`` and ``update(x, y)``, optional
        Default: a fresh :class:`PerceptronLearner`.
    """
    gamma, learner = float(gamma), PerceptronLearner(dimensions) if learner is None else learner
    n = _rounds(gamma, dimensions)
    Y = np.zeros(n)
    mistakes = 0
    for i in range(n):
        x = np.zeros(dimensions)  # e_i, fresh each round: a learner may keep what it is shown
        x[i] = 1.0
        guess = float(learner.predict(x))
        Y[i] = -1.0 if guess > 0 else 1.0
        mistakes += guess != Y[i]
        learner.update(x, Y[i])
    return AdversaryRun(Y=Y, mistakes=int(mistakes), gamma=gamma, dimensions=dimensions)


@dataclass
class AdversaryCurve:
    """Mistakes the adversary forces on the perceptron for several margins (fixed ``d``).

    Attributes
    ----------
    gammas : ndarray
    forced : ndarray of int
        Mistakes forced at each :math:`\\gamma`.
    limit : ndarray of int
        :math:`\\min(\\lfloor 1/\\gamma^2 \\rfloor, d)`, the theorem's count.
    dimensions : int
    """

    gammas: np.ndarray
    forced: np.ndarray
    limit: np.ndarray
    dimensions: int


def adversary_curve(gammas, dimensions: int, *,
                    progress: Progress | None = None) -> AdversaryCurve:
    """:func:`adversary_run` against a fresh :class:`PerceptronLearner` for every margin.

    ``progress``: a tqdm-like wrapper for the loop over margins. For the package (the main
    job): its arguments are not checked here, each :func:`adversary_run` checks its own.
    """
    gammas = np.asarray(gammas, dtype=np.float64)
    forced = [adversary_run(float(g), dimensions).mistakes
              for g in track(gammas, progress, desc="adversary")]
    limit = np.minimum(np.floor(1 / gammas**2 * (1 + 1e-12)), dimensions).astype(int)
    return AdversaryCurve(gammas=gammas, forced=np.array(forced), limit=limit,
                          dimensions=dimensions)


# --- generalization: the leave-one-out bound (Theorem 2.6) -----------------------------------

@dataclass
class LeaveOneOut:
    """Leave-one-out mistakes of the perceptron (:func:`leave_one_out`).

    Attributes
    ----------
    errors : int
        Held-out examples misclassified (ties counted).
    support : int
        :math:`|I|`, the examples the full run updated on.
    updates : int
        Updates of the full run.
    converged : bool
        Whether every run converged within ``max_epochs``.
    """

    errors: int
    support: int
    updates: int
    converged: bool


@validate_params(X=shaped(2, at_least=True, why="leave-one-out holds one out, trains on the rest"))
def leave_one_out(X, Y, *, max_epochs: int = 10_000,
                  progress: Progress | None = None) -> LeaveOneOut:
    """Leave-one-out mistakes of the perceptron (with bias), trained to convergence.

    The proof of Theorem 2.6 gives the shortcut used here: an example the full run never
    updated on can be removed without changing the run, and the final weights classify it
    correctly; so only the examples in :math:`I` (those updated on) need retraining.

    Parameters
    ----------
    progress : callable, optional
        A tqdm-like wrapper for the loop over the retrained examples.

    Returns
    -------
    LeaveOneOut
    """
    Xn, Yn, progress = as_features(X), as_labels(Y, like=X), as_progress(progress)
    full = update_path(Xn, Yn, max_epochs=max_epochs)
    touched = np.unique(full.examples)
    errors = 0
    converged = full.converged
    for i in track(touched, progress, desc="leave one out"):
        keep = np.arange(Xn.shape[0]) != i
        run = train(Xn[keep], Yn[keep], max_epochs=max_epochs)
        converged &= run.converged
        errors += int(Yn[i] * (Xn[i] @ run.w + run.b) <= 0)
    return LeaveOneOut(errors=errors, support=int(touched.size), updates=full.updates,
                       converged=bool(converged))


@dataclass
class GeneralizationExperiment:
    """Theorem 2.6 over many draws at one size :math:`N` (:func:`generalization_experiment`).

    Every array has one entry per draw.

    Attributes
    ----------
    loo : ndarray
        Leave-one-out error rate on the :math:`N+1` points.
    test : ndarray
        Error on fresh points of the perceptron trained on the first :math:`N`.
    support, updates : ndarray
        :math:`|I|/(N+1)` and mistakes/(N+1) of the full run.
    bound : ndarray
        :math:`R_a^2/\\gamma_2^2/(N+1)`.
    samples : int
        :math:`N`.
    converged : ndarray of bool
        Per draw: every run (leave-one-out and the one on :math:`N` points) converged within
        its ``max_epochs`` of 10,000 (if not, that draw's errors are not those of Theorem 2.6).
    """

    loo: np.ndarray
    test: np.ndarray
    support: np.ndarray
    updates: np.ndarray
    bound: np.ndarray
    samples: int
    converged: np.ndarray | None = None

    @property
    def draws(self) -> int:
        """Number of draws."""
        return self.loo.size

    def _per_draw(self, key: str) -> np.ndarray:
        """The array of ``key`` (one of :data:`_PER_DRAW`), one value per draw."""
        return getattr(self, _checks.choice(key, "key", set(_PER_DRAW)))

    def mean(self, key: str) -> float:
        """Mean of ``key`` over the draws."""
        return float(np.mean(self._per_draw(key)))

    def sem(self, key: str) -> float:
        """Standard error of that mean (sample standard deviation / sqrt(draws))."""
        values = self._per_draw(key)
        return float(np.std(values, ddof=1) / np.sqrt(values.size)) if values.size > 1 else 0.0


_PER_DRAW = ("loo", "test", "support", "updates", "bound")


def _draw_size(samples: str) -> Rule:
    """The rule of ``dimensions``: each draw samples ``samples + 1 + test_points`` points of
    ``dimensions`` coordinates (``samples`` names the argument: one size, or the sizes)."""
    return fits(count(), lambda d, args: (np.max(args[samples]) + 1 + args["test_points"]) * d,
                "one draw (samples + 1 + test_points={test_points} points x dimensions="
                "{value})", (samples, "test_points"))


#: What :func:`generalization_experiment` and :func:`generalization_curve` share.
_DRAWS = dict(draws=repeats(), test_points=count(), epsilon=real(minimum=0.0))


@validate_params(samples=count(), **_DRAWS, dimensions=_draw_size("samples"))
def generalization_experiment(samples: int = 30, draws: int = 100, *, dimensions: int = 2,
                              epsilon: float = 0.1, test_points: int = 200,
                              progress: Progress | None = None) -> GeneralizationExperiment:
    """Theorem 2.6 over many draws: held-out error against :math:`E[R^2/\\gamma^2]/(N+1)`.

    Each draw takes :math:`N + 1` = ``samples + 1`` training points and ``test_points``
    fresh points from one :func:`~gluon_perceptron.sample_separable` plane, and records per
    draw (arrays of length ``draws``):

    * ``loo``: leave-one-out error rate on the :math:`N+1` points (:func:`leave_one_out`);
      its mean estimates the expected error on a new point after training on :math:`N`;
    * ``test``: error on the fresh points of the perceptron trained on the first :math:`N`;
    * ``support``, ``updates``: :math:`|I|/(N+1)` and mistakes/(N+1) of the full run, the
      steps of the proof;
    * ``bound``: :math:`R_a^2/\\gamma_2^2/(N+1)` with the optimal padded margin
      (:func:`~gluon_perceptron.optimal_margin`), :math:`R_a^2 = R^2 + 1`.

    The theorem says ``mean(loo) <= mean(bound)``. Draws from MXNet's global generator (seed
    it with ``mx.random.seed``).
    """
    epsilon, progress = float(epsilon), as_progress(progress)
    m = samples + 1
    out = {k: np.zeros(draws) for k in _PER_DRAW}
    converged = np.zeros(draws, dtype=bool)
    draw = partial(sample_separable, m + test_points, dimensions, epsilon)
    for j in track(range(draws), progress, desc="leave-one-out draws"):
        fake = draw()
        X, Y = fake.X.asnumpy(), fake.Y.asnumpy()
        loo = leave_one_out(X[:m], Y[:m], max_epochs=10_000)
        run = train(X[:samples], Y[:samples], max_epochs=10_000)
        converged[j] = loo.converged and run.converged
        out["loo"][j] = loo.errors / m
        out["test"][j] = error_rate(run.w, float(run.b), X[m:], Y[m:])
        out["support"][j] = loo.support / m
        out["updates"][j] = loo.updates / m
        out["bound"][j] = optimal_margin(X[:m], Y[:m]).bound / m
    return GeneralizationExperiment(**out, samples=samples, converged=converged)


@dataclass
class GeneralizationCurve:
    """:func:`generalization_experiment` at several sizes :math:`N` (:func:`generalization_curve`).

    Attributes
    ----------
    sizes : ndarray of int
    runs : list of GeneralizationExperiment
        One per size.
    """

    sizes: np.ndarray
    runs: list

    def means(self, key: str) -> np.ndarray:
        """Mean of ``key`` over the draws, per size."""
        return np.array([r.mean(key) for r in self.runs])

    def sems(self, key: str) -> np.ndarray:
        """Standard error of each mean, per size."""
        return np.array([r.sem(key) for r in self.runs])

    def scaled(self, key: str) -> np.ndarray:
        """``(N + 1) * mean(key)`` per size: constant if ``key`` falls exactly like 1/N.

        For ``"bound"`` this is :math:`E[R_a^2/\\gamma_2^2]`.
        """
        return (self.sizes + 1) * self.means(key)


@validate_params(sizes=counts(), **_DRAWS, dimensions=_draw_size("sizes"))
def generalization_curve(sizes=(25, 50, 100, 200, 400), draws: int = 100, *,
                         dimensions: int = 2, epsilon: float = 0.5, test_points: int = 200,
                         progress: Progress | None = None) -> GeneralizationCurve:
    """Run :func:`generalization_experiment` for every size in ``sizes`` (same settings).

    Returns
    -------
    GeneralizationCurve
        Means with their standard errors over ``draws`` draws per size.
    """
    sizes, epsilon, progress = as_counts(sizes), float(epsilon), as_progress(progress)
    runs = [generalization_experiment(n, draws, dimensions=dimensions, epsilon=epsilon,
                                      test_points=test_points, progress=progress)
            for n in sizes]
    return GeneralizationCurve(sizes=np.array(sizes), runs=runs)
