"""Beyond Rosenblatt: the variants of the notes' Remarks 1.39-1.42, measured against their bounds.

Every experiment draws many datasets or streams and returns a dataclass with the measured
counts beside the bound each run must respect; notebook 13 and the main job print and plot
them, the tests check them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import TypedDict

import numpy as np

from ..core import _checks
from ..core._arrays import SQUARABLE
from ..core._convert import as_counts, as_progress, as_values
from ..core._validation import (
    Rule,
    count,
    counts,
    finite_values,
    fits,
    one_of,
    real,
    repeats,
    such_that,
    validate_params,
)
from ..core.beyond.budget import forgetron, forgetron_bound
from ..core.beyond.kernel_perceptron import (
    FeatureMargin,
    KernelPerceptron,
    _hard_margin,
    train_kernel,
)
from ..core.beyond.kernels import _kernel
from ..core.beyond.second_order import _bound, _padded, train_second_order
from ..core.beyond.separation import (
    perceptron_separation_bound,
    rescaled_bound,
    separation_problem,
    smooth_bound,
)
from ..core.beyond.solvers import perceptron_separation, rescaled_perceptron, smooth_perceptron
from ..core.chapter.sampler import _REACHABLE, SAMPLE_RULES
from ..core.data.synthetic import _mx_seed, sample_separable, xor_data
from ..core.fast.training_fast import fast_pass
from ._progress import Progress, track

#: Margins of the separation experiment: from 0.3 down to 1e-3.
GAMMAS = tuple(float(g) for g in np.geomspace(0.3, 1e-3, 6))
#: The separation algorithms compared.
METHODS = ("perceptron", "smooth", "rescaled")


def _gram(function: str, minimum: int = 2) -> Rule:
    """The rule of ``samples``: a ``samples x samples`` Gram matrix that fits."""
    return fits(count(minimum=minimum), lambda samples, args: samples * samples,
                function + "'s samples x samples Gram matrix (samples={value:,})")


def _records(function: str, per_draw: int) -> Rule:
    """The rule of ``draws``: ``per_draw`` records per draw that fit."""
    return fits(repeats(), lambda draws, args: per_draw * draws,
                f"{function}'s records ({per_draw} per draw, draws={{value:,}})")


#: The rule of a ``seed`` that is not None: draw ``s`` uses ``seed + s``.
_DRAW_SEED = count(minimum=0, maximum=_checks.SEED_MAX)
#: The largest noise of :func:`two_moons`: the squared distances between its points, which the
#: kernels compute, stay finite in float64 (a normal draw stays below 40 in size).
MAX_NOISE = SQUARABLE
_NOISE = real(minimum=0.0, maximum=MAX_NOISE, why="the kernels' squared distances stay finite")


def two_moons(samples: int, *, noise: float = 0.1,
              seed: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Two interleaved half circles (labels -1, +1), a set no line separates.

    Points :math:`(\\cos t, \\sin t)` and :math:`(1 - \\cos t, 1/2 - \\sin t)`,
    :math:`t \\sim U[0, \\pi]`, plus Gaussian noise of standard deviation ``noise``
    (``numpy.random.default_rng(seed)``: ``seed=None`` is fresh randomness, an integer
    reproduces). A helper the experiments call, whose rules keep ``noise`` at most
    :data:`MAX_NOISE`: its arguments are not checked again.
    """
    rng = np.random.default_rng(seed)
    Y = np.where(rng.random(samples) < 0.5, 1.0, -1.0)
    t = rng.uniform(0, np.pi, samples)
    upper = np.column_stack([np.cos(t), np.sin(t)])
    lower = np.column_stack([1 - np.cos(t), 0.5 - np.sin(t)])
    X = np.where(Y[:, None] > 0, upper, lower) + noise * rng.normal(size=(samples, 2))
    return X, Y


# --- the kernel perceptron: XOR, two moons, and the bound in feature space -------------------

@dataclass
class KernelDemo:
    """Kernel perceptrons on XOR and two moons, with their feature-space margins.

    Attributes
    ----------
    runs : dict
        ``(dataset, kernel) -> KernelPerceptron``.
    margins : dict
        ``(dataset, kernel) -> FeatureMargin`` (absent where the set is not separable).
    data : dict
        ``dataset -> (X, Y)``.
    """

    runs: dict[tuple[str, str], KernelPerceptron]
    margins: dict[tuple[str, str], FeatureMargin]
    data: dict[str, tuple[np.ndarray, np.ndarray]]


class _KernelSetting(TypedDict, total=False):
    degree: int
    gamma: float


KERNEL_SETTINGS: dict[str, _KernelSetting] = {"linear": {}, "poly": {"degree": 3, "gamma": 1.0},
                                              "rbf": {"gamma": 2.0}}


@validate_params(samples=_gram("kernel_demo"))
def kernel_demo(*, samples: int = 100, max_epochs: int = 200, seed: int = 0,
                progress: Progress | None = None) -> KernelDemo:
    """Train the kernel perceptron (fast engine) with each kernel of :data:`KERNEL_SETTINGS` on
    XOR and on noise-free two moons; measure each feature-space margin.

    ``progress``: a tqdm-like wrapper for the loop over the two datasets.
    """
    progress = as_progress(progress)
    data = {"xor": xor_data(), "moons": two_moons(samples, noise=0.0, seed=seed)}
    runs, margins = {}, {}
    for name, (X, Y) in track(list(data.items()), progress, desc="datasets"):
        for kind, params in KERNEL_SETTINGS.items():
            kern = _kernel(kind, params.get("degree", 3), params.get("gamma"), 1.0, X.shape[1])
            runs[(name, kind)] = train_kernel(X, Y, max_epochs=max_epochs, kernel=kind,
                                              degree=kern.degree, gamma=kern.gamma,
                                              max_gram_bytes=2**62)
            margin = _margin(kern, X, Y, bias=True)
            if margin is not None:
                margins[(name, kind)] = margin
    return KernelDemo(runs=runs, margins=margins, data=data)


def _margin(kern, X, Y, *, bias: bool) -> FeatureMargin | None:
    extra = 1.0 if bias else 0.0
    solved = _hard_margin(kern.matrix(X, X) + extra, Y)
    if solved is None:
        return None
    return FeatureMargin(gamma=solved.gamma, support=solved.support,
                         radius=float(np.sqrt(np.max(kern.diagonal(X) + extra))))


@dataclass
class KernelBoundExperiment:
    """Updates of the kernel perceptron against Novikoff's bound in feature space.

    Attributes
    ----------
    kernel : str
    updates : ndarray, shape (draws,)
        Total updates to convergence.
    bound : ndarray, shape (draws,)
        :math:`R^2/\\gamma^2` in feature space.
    converged : ndarray of bool
    """

    kernel: str
    updates: np.ndarray
    bound: np.ndarray
    converged: np.ndarray

    @property
    def ratio(self) -> np.ndarray:
        """Updates over the bound (at most 1 when Novikoff's bound holds)."""
        return self.updates / self.bound


@validate_params(kernel=one_of(*KERNEL_SETTINGS), draws=_records("kernel_bound_experiment", 3),
                 samples=_gram("kernel_bound_experiment"), noise=_NOISE, seed=_DRAW_SEED)
def kernel_bound_experiment(*, kernel: str = "rbf", draws: int = 30, samples: int = 40,
                            noise: float = 0.1, max_epochs: int = 1000, seed: int = 0,
                            progress: Progress | None = None) -> KernelBoundExperiment:
    """On ``draws`` two-moons sets (seeds ``seed, seed + 1, ...``) train to convergence and
    measure the bound in feature space (kernel parameters from :data:`KERNEL_SETTINGS`).

    Raises
    ------
    ValueError
        For a bad argument, or a ``noise`` so large that the kernel's Gram matrix overflows.
    """
    noise, seed, progress = float(noise), int(seed), as_progress(progress)
    params = KERNEL_SETTINGS[kernel]
    kern = _kernel(kernel, params.get("degree", 3), params.get("gamma"), 1.0, 2)
    updates, bound, converged = [], [], []
    for s in track(range(seed, seed + draws), progress, desc=f"{kernel} kernel bound"):
        X, Y = two_moons(samples, noise=noise, seed=s)
        with np.errstate(over="ignore", invalid="ignore"):  # an overflow is refused here
            finite = np.all(np.isfinite(kern.matrix(X, X)))
        if not finite:
            raise ValueError(f"kernel_bound_experiment overflowed: noise={noise:g} spreads the "
                             f"points so far that the {kernel} kernel's Gram matrix is not "
                             f"finite; use a noise on the moons' own scale, e.g. noise=0.1")
        margin = _margin(kern, X, Y, bias=True)
        if margin is None:  # pragma: no cover - the chosen kernels separate these sets
            continue
        run = train_kernel(X, Y, max_epochs=max_epochs, kernel=kernel, degree=kern.degree,
                           gamma=kern.gamma, max_gram_bytes=2**62)
        updates.append(run.updates)
        bound.append(margin.bound)
        converged.append(run.converged)
    return KernelBoundExperiment(kernel=kernel, updates=np.array(updates),
                                 bound=np.array(bound), converged=np.array(converged))


# --- the Forgetron -------------------------------------------------------------------------

@dataclass
class ForgetronExperiment:
    """Mistakes of the Forgetron on one stream against its budget.

    Attributes
    ----------
    budgets : ndarray of int
    mistakes : ndarray of int
        The Forgetron's mistakes for each budget.
    unbudgeted : int
        Mistakes of the kernel perceptron (one pass, no budget) on the same stream.
    support : int
        Support vectors the unbudgeted run keeps.
    bound : ndarray
        The theorem's :math:`2\\|g\\|^2 + 4\\sum_t \\ell_t(g)` for :math:`g = U\\theta`
        (``inf`` where :math:`B < 83`: the theorem does not apply).
    samples : int
    """

    budgets: np.ndarray
    mistakes: np.ndarray
    unbudgeted: int
    support: int
    bound: np.ndarray
    samples: int


@validate_params(budgets=counts(), samples=_gram("forgetron_experiment"), noise=_NOISE,
                 gamma=real(positive=True))
def forgetron_experiment(*, budgets=(10, 25, 50, 100, 200, 400), samples: int = 2000,
                         noise: float = 0.3, gamma: float = 2.0, seed: int = 0,
                         progress: Progress | None = None) -> ForgetronExperiment:
    """One pass of the Forgetron (Gaussian kernel) over a noisy two-moons stream, per budget,
    beside the unbudgeted kernel perceptron's single pass."""
    budgets, noise, progress = np.array(as_counts(budgets)), float(noise), as_progress(progress)
    X, Y = two_moons(samples, noise=noise, seed=seed)
    free = train_kernel(X, Y, max_epochs=1, kernel="rbf", gamma=gamma, bias=False,
                        max_gram_bytes=2**62)
    mistakes, bound = [], []
    for B in track(budgets, progress, desc="Forgetron budgets"):
        mistakes.append(forgetron(X, Y, budget=int(B), kernel="rbf", gamma=gamma).mistakes)
        bound.append(forgetron_bound(X, Y, budget=int(B), kernel="rbf", gamma=gamma))
    return ForgetronExperiment(budgets=budgets, mistakes=np.array(mistakes),
                               unbudgeted=free.updates, support=int(free.support.size),
                               bound=np.array(bound), samples=samples)


# --- the second-order perceptron -------------------------------------------------------------

@dataclass
class SecondOrderExperiment:
    """Mistakes of the second-order and the plain perceptron on the same streams (one pass).

    Attributes
    ----------
    second_order, plain : ndarray of int, shape (draws,)
    bound : ndarray, shape (draws,)
        The second-order bound for the generating plane :math:`u = (w^*, b^*)` with
        :math:`\\gamma` its smallest margin (so :math:`D_\\gamma = 0`).
    novikoff : ndarray, shape (draws,)
        The plain perceptron's :math:`\\|u\\|^2 \\max_t \\|(x_t, 1)\\|^2 / \\gamma^2`.
    a : float
    """

    second_order: np.ndarray
    plain: np.ndarray
    bound: np.ndarray
    novikoff: np.ndarray
    a: float


#: The sampler's own rules of a stream's shape and margin (an ``epsilon`` the planes reach).
_STREAM = {"samples": SAMPLE_RULES["samples"], "dimensions": SAMPLE_RULES["dimensions"],
           "epsilon": _REACHABLE}


# a: the bound multiplies it by |u|^2, u = (w, b) the generating plane (|w| = 1, b ~ N(0, 1))
@validate_params(draws=_records("second_order_experiment", 4), **_STREAM, a=real(
    positive=True, maximum=SQUARABLE, why="the bound multiplies it by |u|^2; a few units will do"))
def second_order_experiment(*, draws: int = 20, samples: int = 500, dimensions: int = 5,
                            epsilon: float = 0.05, a: float = 1.0, seed: int | None = 0,
                            progress: Progress | None = None) -> SecondOrderExperiment:
    """``draws`` getfake streams (MXNet generator, seeded once with ``seed``); each is fed once
    to the second-order and to the plain perceptron."""
    epsilon, a, progress = float(epsilon), float(a), as_progress(progress)
    draw = partial(sample_separable, samples, dimensions, epsilon)
    _mx_seed(seed)
    so, plain, bound, nov = [], [], [], []
    for _ in track(range(draws), progress, desc="second-order streams"):
        fake = draw()
        X = fake.X.asnumpy().astype(np.float64)
        Y = fake.Y.asnumpy().astype(np.float64)
        u = np.append(fake.wfake.asnumpy(), fake.bfake.asnumpy()).astype(np.float64)
        Z = _padded(X, True)
        run = train_second_order(X, Y, a=a, max_epochs=1)
        margins = Y * (Z @ u)
        g = float(margins.min())
        so.append(run.mistakes)
        bound.append(_bound(Z[run.mistake_rows], margins[run.mistake_rows], u, a, g))
        nov.append((u @ u) * float(np.max((Z * Z).sum(1))) / g**2)
        w, b = np.zeros(dimensions), np.zeros(1)
        plain.append(fast_pass(X, Y, w, b))
    return SecondOrderExperiment(second_order=np.array(so), plain=np.array(plain),
                                 bound=np.array(bound), novikoff=np.array(nov), a=a)


# --- the separation problem: plain, smooth and rescaled perceptrons -------------------------

@dataclass
class SeparationExperiment:
    """Iterations to a separator against the margin, for the three algorithms.

    Attributes
    ----------
    gammas : ndarray, shape (G,)
        The margins asked for.
    rho : ndarray, shape (G, S)
        The optimal margins measured on each draw (at least the asked ones).
    iterations, converged, bound : dict
        ``method -> ndarray (G, S)``: the algorithm's own count (updates or iterations),
        whether it found a separator before ``max_iterations`` (a run that hit it only gives
        a lower bound on its count), and its bound for that draw.
    samples, dimensions, max_iterations : int
    """

    gammas: np.ndarray
    rho: np.ndarray
    iterations: dict[str, np.ndarray]
    converged: dict[str, np.ndarray]
    bound: dict[str, np.ndarray]
    samples: int
    dimensions: int
    max_iterations: int
    rescalings: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), dtype=np.int64))

    def slope(self, method: str, *, of: str = "iterations") -> float:
        """Least-squares slope of :math:`\\log` (median count, or median bound) against
        :math:`\\log` (median :math:`\\rho`), over the margins whose median count is positive:
        -2 for :math:`1/\\rho^2`, -1 for :math:`1/\\rho`, near 0 for :math:`\\log(1/\\rho)`."""
        table = self.iterations if of == "iterations" else self.bound
        y = np.median(table[method], axis=1)
        x = np.median(self.rho, axis=1)
        keep = y > 0  # a count of 0 (solved at the start) has no logarithm
        return float(np.polyfit(np.log(x[keep]), np.log(y[keep]), 1)[0])


#: ``gammas``: margins in [1e-10, 1), as an array (``draws`` reads its size).
_MARGINS = such_that(finite_values(), lambda g, args: np.all((g >= 1e-10) & (g < 1)),
                     "gammas must be at least 1e-10 (a smaller margin between unit rows is lost "
                     "in double precision) and below 1, got {value}")


@validate_params(gammas=_MARGINS, samples=count(minimum=2), seed=_DRAW_SEED,
                 draws=fits(repeats(), lambda draws, args: 11 * args["gammas"].size * draws,
                            "the records (11 per margin, draws={value:,})", ("gammas",)),
                 dimensions=fits(count(), lambda d, args: args["samples"] * (d + 1), "the rows ("
                                 "samples={samples:,} x (dimensions={value:,} + 1))", ("samples",)))
def separation_experiment(*, gammas=GAMMAS, draws: int = 5, samples: int = 100,
                          dimensions: int = 2, max_iterations: int = 200_000, seed: int = 0,
                          progress: Progress | None = None) -> SeparationExperiment:
    """For every margin and ``draws`` problems from
    :func:`~gluon_perceptron.core.beyond.separation.separation_problem` (MXNet seeds
    ``(seed + s) mod 2**32``), run the
    perceptron, the smooth and the rescaled perceptron to a separator (each bounded by
    ``max_iterations``) and record each one's bound for that draw."""
    gammas, seed, progress = as_values(gammas), int(seed), as_progress(progress)
    shape = (gammas.size, draws)
    rho = np.zeros(shape)
    its = {m: np.zeros(shape, dtype=np.int64) for m in METHODS}
    ok = {m: np.zeros(shape, dtype=bool) for m in METHODS}
    bound = {m: np.zeros(shape) for m in METHODS}
    rescalings = np.zeros(shape, dtype=np.int64)
    cells = [(i, s) for i in range(gammas.size) for s in range(draws)]
    for i, s in track(cells, progress, desc="separation problems"):
        P = separation_problem(samples, dimensions, float(gammas[i]), pinned=0.2,
                               seed=(seed + s) % (_checks.SEED_MAX + 1))
        n, m = P.A.shape
        rho[i, s] = P.rho
        for method, solve in (("perceptron", perceptron_separation),
                              ("smooth", smooth_perceptron), ("rescaled", rescaled_perceptron)):
            run = solve(P.A, max_iterations=max_iterations)
            its[method][i, s], ok[method][i, s] = run.iterations, run.converged
            if method == "rescaled":
                rescalings[i, s] = run.rescalings
        bound["perceptron"][i, s] = perceptron_separation_bound(P.rho)
        bound["smooth"][i, s] = smooth_bound(P.rho, n)
        bound["rescaled"][i, s] = rescaled_bound(P.rho, n, m)
    return SeparationExperiment(gammas=gammas, rho=rho, iterations=its, converged=ok,
                                bound=bound, samples=samples, dimensions=dimensions,
                                max_iterations=max_iterations, rescalings=rescalings)
