"""The convergence theorem measured: bounds against runs, the proof traced along a run, rescaled
data.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product

import mxnet as mx
import numpy as np

from ..core import _checks
from ..core._arrays import SQUARABLE, _radius
from ..core._convert import (
    as_counts,
    as_features,
    as_labels,
    as_progress,
    as_scalar,
    as_seeds,
    as_values,
    as_vector,
)
from ..core._validation import (
    Rule,
    bound_text,
    counts,
    optional,
    real,
    such_that,
    validate_params,
    vector,
)
from ..core.chapter.sampler import MARGINS, _check_sampler_args
from ..core.data.synthetic import _separable_numpy
from ..core.rosenblatt.results import ItemAccess
from ..core.rosenblatt.traced import UpdatePath, update_path
from ..core.rosenblatt.training import train
from ..core.theory.bounds import (
    chapter_bound,
    general_bound,
    generating_plane_bound,
    novikoff_bound,
)
from ..core.theory.margins import (
    NORMAL_OF_X,
    _optimal_margin,
    optimal_margin,
    radius,
    separator,
    shift_plane_to_origin,
)
from ..core.theory.separability import _signed_rows
from ._as_numpy import NumpyDraw
from ._progress import Progress, track


@dataclass
class ProofTrace:
    """Both halves of the convergence proof, measured along one run (:func:`proof_trace`).

    Attributes
    ----------
    path : UpdatePath
    progress : ndarray, shape (updates + 1,)
        :math:`u^\\top \\theta_t` (Part 1: grows by at least ``s`` per update).
    lower : ndarray
        Its lower bound :math:`u^\\top \\theta_0 + t s`.
    norm2 : ndarray
        :math:`\\|\\theta_t\\|^2` (Part 2: grows by at most :math:`2\\delta + R_a^2` per update).
    upper : ndarray
        Its upper bound :math:`\\|\\theta_0\\|^2 + t (2\\delta + R_a^2)`.
    s : float
        The separator's smallest margin :math:`\\min_i a_i^\\top u`.
    radius_a : float
        :math:`R_a = \\max_i \\|a_i\\|`.
    u_norm : float
    bound : float
        :func:`general_bound` for this run: the ``t`` where the two halves meet.
    """

    path: UpdatePath
    progress: np.ndarray
    lower: np.ndarray
    norm2: np.ndarray
    upper: np.ndarray
    s: float
    radius_a: float
    u_norm: float
    bound: float


def _separating(u, name: str, args: dict) -> np.ndarray:
    """``u``, a float64 separator of ``(X, Y)`` with (or without) a bias entry."""
    A, u = _signed_rows(args["X"], args["Y"], args["bias"]), _checks.vector(u, name)
    if u.shape[0] != A.shape[1]:
        raise ValueError(f"u must have {A.shape[1]} entries "
                         f"({'(w*, b*)' if args['bias'] else 'w*'}), got {u.shape[0]}")
    if (smallest := np.min(A @ u.astype(np.float64))) <= 0:
        raise ValueError(f"u does not separate the data: its smallest margin is {smallest:.3g}")
    return u


@validate_params(b0=real(maximum=SQUARABLE, why="its square enters the mistake bound"),
                 threshold=real(minimum=0.0, maximum=SQUARABLE, why="it enters the mistake bound"),
                 w0=optional(such_that(vector(size_of="X"),
                                       lambda w, a: np.linalg.norm(w) <= SQUARABLE,
                                       f"{{name}} must have a norm of at most "
                                       f"{bound_text(SQUARABLE)} (its square enters the "
                                       f"mistake bound), got {{value!r:.60}}")),
                 u=Rule(_separating, "a separator of (X, Y)", ("X", "Y", "bias")))
def proof_trace(X, Y, u, *, max_epochs: int = 10_000, bias: bool = True, w0=None,
                b0: float = 0.0, threshold: float = 0.0) -> ProofTrace:
    """Run the perceptron and record the two quantities the convergence proof squeezes.

    Parameters
    ----------
    X, Y : array-like
        The data.
    u : array-like, shape (d + 1,) with bias, (d,) without
        A separator :math:`u = (w^*, b^*)` (any norm), e.g. :func:`separator` of the generating
        plane or :attr:`OptimalMargin.theta`.
    max_epochs, bias, w0, b0, threshold
        As in :func:`update_path`.

    Raises
    ------
    ValueError
        For a bad argument, or if ``u`` does not separate the data (the proof needs
        :math:`a_i^\\top u > 0`).
    """
    X, Y, un = as_features(X), as_labels(Y, like=X), as_values(u)
    w0, b0, threshold = None if w0 is None else as_vector(w0), float(b0), float(threshold)
    A = _signed_rows(X, Y, bias)
    s = float(np.min(A @ un))  # the proof's s: the smallest a_i . u
    path = update_path(X, Y, max_epochs=max_epochs, bias=bias, w0=w0, b0=b0,
                       threshold=threshold)
    t = np.arange(path.thetas.shape[0])
    theta0 = path.thetas[0]
    radius_a = _radius(A)
    u_norm = float(np.linalg.norm(un))
    return ProofTrace(
        path=path, progress=path.thetas @ un, lower=theta0 @ un + t * s,
        norm2=np.sum(path.thetas**2, axis=1),
        upper=theta0 @ theta0 + t * (2 * threshold + radius_a**2), s=s, radius_a=radius_a,
        u_norm=u_norm, bound=general_bound(radius_a, s, u_norm,
                                           w0_norm=float(np.linalg.norm(theta0)),
                                           threshold=threshold))


# --- the bounds against measured counts on many datasets -------------------------------------

#: Fields of :class:`BoundExperiment` holding one value per dataset.
BOUND_FIELDS = ("dimensions", "samples", "epsilon", "R", "gamma", "b", "updates", "converged",
                "bias_bound", "chapter_bound", "optimal_bound", "homogeneous_updates",
                "homogeneous_converged", "novikoff_bound")


@dataclass
class BoundExperiment(ItemAccess):
    """Measured updates next to every mistake bound, one entry per dataset
    (:func:`bound_experiment`).

    Every attribute is an array with one value per dataset, in the order of the grid
    ``(d, n, epsilon, trial)``. ``result["updates"]`` (the dict it replaced) still works.

    Attributes
    ----------
    dimensions, samples, epsilon : ndarray
        The cell of the grid.
    R, gamma, b : ndarray
        Radius, the generating plane's smallest margin and its bias :math:`b^*`.
    updates : ndarray
        Updates of the perceptron with bias, from zero.
    converged : ndarray
        Whether that run converged.
    bias_bound, chapter_bound, optimal_bound : ndarray
        :math:`(R^2+1)(1+b^{*2})/\\gamma^2`, :math:`2(R^2+1)/\\epsilon^2` and
        :math:`(R^2+1)/\\gamma_2^2`.
    homogeneous_updates, homogeneous_converged, novikoff_bound : ndarray
        The perceptron without bias on the data moved so the plane passes through the origin,
        and :math:`R'^2/\\gamma^2`.
    """

    dimensions: np.ndarray
    samples: np.ndarray
    epsilon: np.ndarray
    R: np.ndarray
    gamma: np.ndarray
    b: np.ndarray
    updates: np.ndarray
    converged: np.ndarray
    bias_bound: np.ndarray
    chapter_bound: np.ndarray
    optimal_bound: np.ndarray
    homogeneous_updates: np.ndarray
    homogeneous_converged: np.ndarray
    novikoff_bound: np.ndarray

    @property
    def trials(self) -> int:
        """Datasets per cell of the grid."""
        cells = {(d, n, e) for d, n, e in zip(self.dimensions, self.samples, self.epsilon)}
        return self.updates.size // len(cells)

    def _field(self, field: str) -> np.ndarray:
        """The array of ``field`` (one of :data:`BOUND_FIELDS`), one value per dataset."""
        return getattr(self, _checks.choice(field, "field", set(BOUND_FIELDS)))

    def median_by_dimension(self, field: str = "updates") -> tuple[np.ndarray, np.ndarray]:
        """``(dims, medians)``: the median of ``field`` over every dataset of each dimension."""
        dims, values = np.unique(self.dimensions), self._field(field)
        return dims, np.array([np.median(values[self.dimensions == d]) for d in dims])

    def quartiles_by_dimension(self, field: str = "updates") -> np.ndarray:
        """Shape ``(len(dims), 3)``: the 25th, 50th and 75th percentiles per dimension."""
        values = self._field(field)
        return np.array([np.percentile(values[self.dimensions == d], [25, 50, 75])
                         for d in np.unique(self.dimensions)])


def _grid_margins(epsilons, name: str, args: dict) -> np.ndarray:
    """The grid's margins: > 0 (the bounds divide by them) and within the sampler's reach, with
    every shape ``(n, d)`` one it draws, in a table that fits."""
    if np.ndim(epsilons) != 1:
        raise ValueError(f"epsilons must be a sequence of values, e.g. epsilons=(0.1,) for one, "
                         f"got {epsilons!r:.60}")
    eps = MARGINS(epsilons, name, args)
    for n, d in product(args["samples"], args["dimensions"]):
        _check_sampler_args(n, d, 0.0, None)  # the shape (n, d) of every dataset
    cells = len(args["dimensions"]) * len(args["samples"]) * eps.size * args["trials"]
    _checks.elements(cells * len(BOUND_FIELDS), f"the grid's table ({len(BOUND_FIELDS)} numbers "
                                                f"per dataset, trials={args['trials']:,} a cell)")
    return eps


#: The grid of :func:`bound_experiment` and :func:`dimension_growth`.
_GRID = dict(dimensions=counts(), samples=counts(), epsilons=Rule(
    _grid_margins, "margins > 0 the sampler reaches", ("dimensions", "samples", "trials")))


@validate_params(**_GRID)
def bound_experiment(dimensions=(2, 5, 10, 20), samples=(100, 1000), epsilons=(0.1, 0.3),
                     *, trials: int = 3, max_epochs: int = 10_000,
                     progress: Progress | None = None) -> BoundExperiment:
    """Measured updates next to every mistake bound, over a grid of getfake datasets.

    For each ``(d, n, epsilon)`` and trial, draws :func:`~gluon_perceptron.sample_separable`
    and records:

    * with bias (the chapter's perceptron, :func:`~gluon_perceptron.train` from zero):
      ``updates``; ``bias_bound`` :math:`(R^2+1)(1+b^{*2})/\\gamma^2` from the generating
      plane; the chapter's ``chapter_bound`` :math:`2(R^2+1)/\\epsilon^2` (valid when
      :math:`b^{*2} \\le 1`, as the chapter states); ``optimal_bound``
      :math:`(R^2+1)/\\gamma_2^2` from :func:`~gluon_perceptron.optimal_margin`;
    * without bias, on the same data moved so the plane passes through the origin
      (:func:`shift_plane_to_origin`): ``homogeneous_updates`` of :func:`update_path` with
      ``bias=False`` and Novikoff's ``novikoff_bound`` :math:`R'^2/\\gamma^2`.

    Every bound depends on the data only through a radius and a margin, never on ``d`` or
    ``n`` directly. Draws from MXNet's global generator (seed it with ``mx.random.seed``).

    Parameters
    ----------
    dimensions, samples, epsilons : sequence
        The grid.
    trials : int
        Datasets per cell.
    max_epochs : int
        Bound on each run's passes (a run that hits it has ``converged`` False).
    progress : callable, optional
        A tqdm-like wrapper for the loop over datasets.

    Returns
    -------
    BoundExperiment
    """
    dimensions, samples, epsilons = as_counts(dimensions), as_counts(samples), as_values(epsilons)
    grid = [(d, n, float(e)) for d in dimensions for n in samples for e in epsilons
            for _ in range(trials)]
    rows = []
    for d, n, eps in track(grid, as_progress(progress), desc="bound experiment"):
        fake = NumpyDraw.of(*_separable_numpy(n, d, eps))  # sample_separable's draw, as numpy
        run = train(fake.X, fake.Y, max_epochs=max_epochs)
        info = generating_plane_bound(fake.X, fake.Y, fake.wfake, fake.bfake)
        # nested calls take their arguments as their rules would make them: a float64 normal
        Xh = shift_plane_to_origin(fake.X, fake.wfake.astype(np.float64), fake.bfake)
        hom = update_path(Xh, fake.Y, max_epochs=max_epochs, bias=False)
        rows.append((d, n, eps, info.R, info.gamma, info.b, run.updates,
                     run.converged, info.bound, chapter_bound(info.R, eps),
                     _optimal_margin(fake.X, fake.Y).bound, hom.updates, hom.converged,
                     novikoff_bound(radius(Xh), info.gamma)))
    return BoundExperiment(**{k: np.array(v) for k, v in zip(BOUND_FIELDS, zip(*rows))})


@dataclass
class DimensionGrowth:
    """How much the median count grows with the dimension, on many independent grids.

    Attributes
    ----------
    seeds : ndarray of int
        The MXNet seed of each grid.
    dimensions : ndarray of int
        The dimensions compared (the first is the reference).
    medians : ndarray, shape (grids, len(dimensions))
        Per grid, the median updates over the datasets of each dimension.
    """

    seeds: np.ndarray
    dimensions: np.ndarray
    medians: np.ndarray

    def ratios(self, dimension: int) -> np.ndarray:
        """Per grid, the median count at ``dimension`` over that at the first dimension."""
        _checks.choice(dimension, "dimension", set(self.dimensions.tolist()))
        column = int(np.flatnonzero(self.dimensions == dimension)[0])
        return self.medians[:, column] / self.medians[:, 0]


@validate_params(**_GRID)
def dimension_growth(seeds=10, dimensions=(2, 10), samples=(100, 1000), epsilons=(0.1, 0.3),
                     *, trials: int = 8, max_epochs: int = 10_000,
                     progress: Progress | None = None) -> DimensionGrowth:
    """The median updates per dimension of :func:`bound_experiment`'s grid, on many grids.

    Each grid seeds MXNet with its seed and draws ``trials`` datasets per cell
    ``(d, n, epsilon)``, as :func:`bound_experiment` does, but only trains (no bounds, no
    quadratic programs), so many grids are cheap. One grid's ratio of medians is a random
    number; this gives its spread.

    Parameters
    ----------
    seeds : int or sequence of int
        ``k`` for the seeds ``0, ..., k - 1``, or the seeds themselves.
    progress : callable, optional
        A tqdm-like wrapper for the loop over grids.
    """
    seeds, dimensions, samples = as_seeds(seeds), as_counts(dimensions), as_counts(samples)
    epsilons, medians = as_values(epsilons), []
    for grid in track(seeds, as_progress(progress), desc="grids"):
        mx.random.seed(grid)
        counts_: dict[int, list] = {d: [] for d in dimensions}
        for d in dimensions:
            for n in samples:
                for eps in epsilons:
                    for _ in range(trials):  # sample_separable's draws, as numpy
                        X, Y, _, _ = _separable_numpy(n, d, float(eps))
                        counts_[d].append(train(X, Y, max_epochs=max_epochs).updates)
        medians.append([np.median(counts_[d]) for d in dimensions])
    return DimensionGrowth(seeds=np.array(seeds), dimensions=np.array(dimensions),
                           medians=np.array(medians, dtype=np.float64))


# --- data normalization (Exercise 1.29) -------------------------------------------------------

@dataclass
class TransformedRun:
    """A run on rescaled and moved data, with its bounds (:func:`transformed_run`).

    Attributes
    ----------
    R, gamma, b : float
        Radius, the moved plane's smallest margin and its bias.
    bias_bound, optimal_bound : float
        :math:`(R'^2+1)(1+b'^2)/\\gamma'^2` (generating plane) and
        :math:`(R'^2+1)/\\gamma_2^2`.
    updates : int
    converged : bool
        The perceptron with bias (:func:`~gluon_perceptron.train`).
    homogeneous_updates : int or None
        The perceptron without bias (:func:`update_path`), when the moved plane passes through
        the origin; otherwise None.
    homogeneous_converged : bool or None
        Whether that run converged within ``max_epochs``.
    """

    R: float
    gamma: float
    b: float
    bias_bound: float
    optimal_bound: float
    updates: int
    converged: bool
    homogeneous_updates: int | None
    homogeneous_converged: bool | None = None


@validate_params(wfake=NORMAL_OF_X, scale=real(positive=True), shift=optional(vector(size_of="X")))
def transformed_run(X, Y, wfake, bfake, *, scale: float = 1.0, shift=None,
                    max_epochs: int = 100_000) -> TransformedRun:
    """Train on :math:`x' = \\lambda x + \\bar x` and recompute the bounds for it.

    The generating plane moves with the data: with unit :math:`w^*`,
    :math:`w^{*\\top} x' + (\\lambda b^* - w^{*\\top}\\bar x) = \\lambda (w^{*\\top} x + b^*)`,
    so the data stays separable, the margin becomes :math:`\\lambda\\gamma` and the bias
    :math:`\\lambda b^* - w^{*\\top} \\bar x`: only the part of the shift along
    :math:`w^*` moves the bias, a shift parallel to the plane leaves it alone.

    Returns
    -------
    TransformedRun
        Without bias and from zero a scaling changes nothing (``homogeneous_updates``).
    """
    Xn, Yn, wfake, bfake = as_features(X), as_labels(Y, like=X), as_vector(wfake), as_scalar(bfake)
    shift_v, scale = np.zeros(Xn.shape[1]) if shift is None else as_values(shift), float(scale)
    u = separator(wfake, bfake)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):  # refused below
        w = u[:-1] / np.linalg.norm(u[:-1])
        b = u[-1] / np.linalg.norm(u[:-1])
        Xt = scale * Xn.astype(np.float64) + shift_v
        bt = scale * b - w @ shift_v
    # the data's own checks, about the moved data and plane: said of the scale, the shift and
    # the plane (a tiny wfake beside a moderate bfake is a plane far away, b / |w|)
    try:
        if not (np.all(np.isfinite(Xt)) and np.isfinite(bt)):
            raise ValueError(f"the moved data overflow float64 ({np.finfo(float).max:.3g})")
        info = generating_plane_bound(Xt, Yn, w, float(bt))
        run = train(Xt, Yn, max_epochs=max_epochs)
        hom = update_path(Xt, Yn, max_epochs=max_epochs, bias=False) if abs(bt) < 1e-12 else None
        optimal = optimal_margin(Xt, Yn).bound
    except ValueError as exc:
        raise ValueError(f"transformed_run(scale={scale:g}, shift={shift!r:.40}) moves the data "
                         f"or the plane wfake, bfake beyond float64 (use a scale nearer 1, the "
                         f"plane's unit normal FakeData.wfake): {exc}") from None
    return TransformedRun(R=info.R, gamma=info.gamma, b=float(bt), bias_bound=info.bound,
                          optimal_bound=optimal, updates=run.updates,
                          converged=run.converged,
                          homogeneous_updates=None if hom is None else hom.updates,
                          homogeneous_converged=None if hom is None else hom.converged)
