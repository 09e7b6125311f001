"""Beyond Rosenblatt: the variants of the notes' Remarks 1.39-1.42, measured against their bounds.

Every experiment draws many datasets or streams and returns a dataclass with the measured
counts beside the bound each run must respect; notebook 13 and the main job print and plot
them, the tests check them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial

import numpy as np

from ..core import _checks
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
    _cone_perceptron,
    _rescaled,
    _separation_problem,
    _smooth,
    perceptron_separation_bound,
    phase_length,
    rescaled_bound,
    smooth_bound,
)
from ..core.data.synthetic import _mx_seed, sample_separable, xor_data
from ..core.rosenblatt.engine import fast_pass
from ._progress import Progress, track

#: Margins of the separation experiment: from 0.3 down to 1e-3.
GAMMAS = tuple(float(g) for g in np.geomspace(0.3, 1e-3, 6))
#: The separation algorithms compared.
METHODS = ("perceptron", "smooth", "rescaled")


def two_moons(samples: int, *, noise: float = 0.1, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Two interleaved half circles (labels -1, +1), a set no line separates.

    Points :math:`(\\cos t, \\sin t)` and :math:`(1 - \\cos t, 1/2 - \\sin t)`,
    :math:`t \\sim U[0, \\pi]`, plus Gaussian noise of standard deviation ``noise``
    (``numpy.random.default_rng(seed)``).

    Raises
    ------
    ValueError
        For a bad argument, or a ``noise`` so large that the points' squared norms (what every
        kernel and bound computes) overflow float64.
    """
    samples = _checks.positive_int(samples, "samples", minimum=2)
    noise = _checks.finite_float(noise, "noise", minimum=0.0)
    seed = _checks.seed(seed)
    _checks.elements(2 * samples, f"two_moons(samples={samples:,})'s samples x 2 points")
    return _two_moons(samples, noise, seed)


def _two_moons(samples: int, noise: float, seed: int | None) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    Y = np.where(rng.random(samples) < 0.5, 1.0, -1.0)
    t = rng.uniform(0, np.pi, samples)
    upper = np.column_stack([np.cos(t), np.sin(t)])
    lower = np.column_stack([1 - np.cos(t), 0.5 - np.sin(t)])
    with np.errstate(over="ignore", invalid="ignore"):  # an overflow is refused just below
        X = np.where(Y[:, None] > 0, upper, lower) + noise * rng.normal(size=(samples, 2))
        # every squared distance |x - x'|^2 <= 4 max |x|^2 must stay finite for the kernels
        finite = np.isfinite(4.0 * np.max(np.einsum("ij,ij->i", X, X)))
    if not finite:
        raise ValueError(f"two_moons overflowed: noise={noise:g} puts points so far out that "
                         f"their squared norms are not finite in float64; use a noise on the "
                         f"moons' own scale (radius 1), e.g. noise=0.1")
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


KERNEL_SETTINGS = {"linear": {}, "poly": {"degree": 3, "gamma": 1.0},
                   "rbf": {"gamma": 2.0}}


def kernel_demo(*, samples: int = 100, max_epochs: int = 200, seed: int = 0) -> KernelDemo:
    """Train the kernel perceptron (fast engine) with each kernel of :data:`KERNEL_SETTINGS` on
    XOR and on noise-free two moons; measure each feature-space margin."""
    samples = _checks.positive_int(samples, "samples", minimum=2)
    max_epochs = _checks.positive_int(max_epochs, "max_epochs")
    seed = _checks.seed(seed)
    _gram_elements(samples, "kernel_demo")
    data = {"xor": xor_data(), "moons": _two_moons(samples, 0.0, seed)}
    runs, margins = {}, {}
    for name, (X, Y) in data.items():
        for kind, params in KERNEL_SETTINGS.items():
            kern = _kernel(kind, params.get("degree", 3), params.get("gamma"), 1.0, X.shape[1])
            runs[(name, kind)] = train_kernel(X, Y, max_epochs=max_epochs, kernel=kind,
                                              degree=kern.degree, gamma=kern.gamma,
                                              max_gram_bytes=2**62)
            margin = _margin(kern, X, Y, bias=True)
            if margin is not None:
                margins[(name, kind)] = margin
    return KernelDemo(runs=runs, margins=margins, data=data)


def _gram_elements(samples: int, function: str) -> None:
    """Refuse, before any work, a ``samples x samples`` Gram matrix above the array limit."""
    _checks.elements(samples * samples, f"{function}'s samples x samples Gram matrix "
                                        f"(samples={samples:,})")


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
    _checks.choice(kernel, "kernel", set(KERNEL_SETTINGS))
    draws = _checks.repeats(draws, "draws")
    samples = _checks.positive_int(samples, "samples", minimum=2)
    noise = _checks.finite_float(noise, "noise", minimum=0.0)
    max_epochs = _checks.positive_int(max_epochs, "max_epochs")
    seed = _checks.seed(seed)
    if seed is None:
        raise ValueError("seed must be an integer: draw s uses the seed seed + s, got None")
    progress = _checks.progress(progress)
    _gram_elements(samples, "kernel_bound_experiment")
    _checks.elements(3 * draws, f"kernel_bound_experiment's records (3 per draw, "
                                f"draws={draws:,})")
    params = KERNEL_SETTINGS[kernel]
    kern = _kernel(kernel, params.get("degree", 3), params.get("gamma"), 1.0, 2)
    updates, bound, converged = [], [], []
    for s in track(range(seed, seed + draws), progress, desc=f"{kernel} kernel bound"):
        X, Y = _two_moons(samples, noise, s)
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


def forgetron_experiment(*, budgets=(10, 25, 50, 100, 200, 400), samples: int = 2000,
                         noise: float = 0.3, gamma: float = 2.0, seed: int = 0,
                         progress: Progress | None = None) -> ForgetronExperiment:
    """One pass of the Forgetron (Gaussian kernel) over a noisy two-moons stream, per budget,
    beside the unbudgeted kernel perceptron's single pass."""
    budgets = np.array(_checks.counts(budgets, "budgets"))
    samples = _checks.positive_int(samples, "samples", minimum=2)
    noise = _checks.finite_float(noise, "noise", minimum=0.0)
    gamma = _checks.finite_float(gamma, "gamma", strictly_positive=True)
    seed = _checks.seed(seed)
    progress = _checks.progress(progress)
    _gram_elements(samples, "forgetron_experiment")
    X, Y = _two_moons(samples, noise, seed)
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


def second_order_experiment(*, draws: int = 20, samples: int = 500, dimensions: int = 5,
                            epsilon: float = 0.05, a: float = 1.0, seed: int | None = 0,
                            progress: Progress | None = None) -> SecondOrderExperiment:
    """``draws`` getfake streams (MXNet generator, seeded once with ``seed``); each is fed once
    to the second-order and to the plain perceptron."""
    draws = _checks.repeats(draws, "draws")
    a = _checks.finite_float(a, "a", strictly_positive=True)
    seed = _checks.seed(seed)
    progress = _checks.progress(progress)
    draw = partial(sample_separable, samples, dimensions, epsilon)
    _checks.elements(4 * draws, f"second_order_experiment's records (4 per draw, "
                                f"draws={draws:,})")
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


def separation_experiment(*, gammas=GAMMAS, draws: int = 5, samples: int = 100,
                          dimensions: int = 2, max_iterations: int = 200_000, seed: int = 0,
                          progress: Progress | None = None) -> SeparationExperiment:
    """For every margin and ``draws`` problems from
    :func:`~gluon_perceptron.core.beyond.separation.separation_problem` (MXNet seeds
    ``(seed + s) mod 2**32``), run the
    perceptron, the smooth and the rescaled perceptron to a separator (each bounded by
    ``max_iterations``) and record each one's bound for that draw."""
    gammas = _checks.finite_values(gammas, "gammas", strict=True)
    if np.any(gammas >= 1):
        raise ValueError(f"gammas must be margins below 1 (the margin of unit rows), got "
                         f"{gammas.tolist()!r:.60}")
    draws = _checks.repeats(draws, "draws")
    samples = _checks.positive_int(samples, "samples", minimum=2)
    dimensions = _checks.positive_int(dimensions, "dimensions")
    max_iterations = _checks.positive_int(max_iterations, "max_iterations")
    seed = _checks.seed(seed)
    if seed is None:
        raise ValueError("seed must be an integer: draw s seeds MXNet with seed + s, got None")
    progress = _checks.progress(progress)
    _checks.elements(samples * (dimensions + 1), f"separation_experiment's samples x "
                                                 f"(dimensions + 1) rows (samples={samples:,}, "
                                                 f"dimensions={dimensions:,})")
    _checks.elements(11 * gammas.size * draws, f"separation_experiment's records (11 per "
                                               f"margin and draw, draws={draws:,})")
    shape = (gammas.size, draws)
    rho = np.zeros(shape)
    its = {m: np.zeros(shape, dtype=np.int64) for m in METHODS}
    ok = {m: np.zeros(shape, dtype=bool) for m in METHODS}
    bound = {m: np.zeros(shape) for m in METHODS}
    rescalings = np.zeros(shape, dtype=np.int64)
    cells = [(i, s) for i in range(gammas.size) for s in range(draws)]
    for i, s in track(cells, progress, desc="separation problems"):
        P = _separation_problem(samples, dimensions, float(gammas[i]), 0.2,
                                (seed + s) % (_checks.SEED_MAX + 1))
        n, m = P.A.shape
        rho[i, s] = P.rho
        w, its["perceptron"][i, s], ok["perceptron"][i, s] = _cone_perceptron(P.A,
                                                                              max_iterations)
        ok["perceptron"][i, s] &= bool(np.all(P.A @ w > 0))
        for method, run in (("smooth", _smooth(P.A, max_iterations)),
                            ("rescaled", _rescaled(P.A, max_iterations, phase_length(m)))):
            its[method][i, s], ok[method][i, s] = run.iterations, run.converged
            if method == "rescaled":
                rescalings[i, s] = run.rescalings
        bound["perceptron"][i, s] = perceptron_separation_bound(P.rho)
        bound["smooth"][i, s] = smooth_bound(P.rho, n)
        bound["rescaled"][i, s] = rescaled_bound(P.rho, n, m)
    return SeparationExperiment(gammas=gammas, rho=rho, iterations=its, converged=ok,
                                bound=bound, samples=samples, dimensions=dimensions,
                                max_iterations=max_iterations, rescalings=rescalings)
