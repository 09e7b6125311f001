"""Black & White: experiments on data that is not separable, broken rules and remedies.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ..core import _checks
from ..core._arrays import _row_norms
from ..core._convert import as_features, as_labels, as_progress, as_seeds
from ..core._validation import (
    Rule,
    count,
    fits,
    fraction,
    instance,
    optional,
    real,
    validate_params,
)
from ..core.chapter.sampler import drawn_points
from ..core.data.synthetic import (
    SEPARATION,
    GaussianClasses,
    NoisyData,
    gaussian_classes,
    getfake_noisy,
    xor_data,
)
from ..core.rosenblatt.lockstep import lockstep_runs
from ..core.rosenblatt.traced import (
    OnlineRun,
    notes_sequence,
    run_online,
    train_traced,
)
from ..core.rosenblatt.training import TrainResult, error_rate
from ..core.rosenblatt.variants import (
    train_aggressive,
)
from ..core.theory.bounds import amaldi_hauser_bound
from ..core.theory.separability import hinge_separator, is_separable
from ._as_numpy import numpy_pair
from ._progress import Progress, track


def horizon_maxima(norms, horizons) -> np.ndarray:
    """:math:`\\max_{t \\le T} \\|\\theta_t\\|` for each horizon :math:`T` (in epochs).

    For a bounded run these level off; for a diverging one they keep growing.
    """
    return np.array([norms[:T].max() for T in horizons])


def boundary_turns(weights) -> np.ndarray:
    """Angle in degrees between :math:`\\theta = (w, b)` after consecutive passes.

    0 means the decision rule did not change over a pass (up to scale); it is NaN where
    :math:`\\theta = 0` on either side.

    Parameters
    ----------
    weights : list of (w, b)
        As in ``TrainResult.history["weights"]``.
    """
    thetas = np.array([np.append(w, b) for w, b in weights], dtype=np.float64)  # rows (w, b)
    with np.errstate(invalid="ignore", divide="ignore"):  # a zero theta has no direction
        unit = thetas / _row_norms(thetas)[:, None]  # overflow-safe norms near float64's limit
        cos = np.sum(unit[1:] * unit[:-1], axis=1)
    return np.degrees(np.arccos(np.clip(cos, -1.0, 1.0)))


def step_errors(run: OnlineRun, X, Y) -> np.ndarray:
    """Error on ``(X, Y)`` of :math:`(w_t, b_t)` after every step of ``run``.

    On data whose snapshots after each pass hide the motion (on XOR the perceptron is back at
    :math:`\\theta = 0` after every pass) this shows the error the learner really has.
    """
    return np.array([error_rate(th[:-1], th[-1], X, Y) for th in run.thetas])


def heldout_errors(result: TrainResult, X, Y) -> np.ndarray:
    """Error of the predictor after each pass on other data ``(X, Y)``, ties counted as errors
    (as :func:`error_rate`).

    Needs ``result.history["weights"]``: train with ``record=True``.
    """
    W = np.array([w for w, _ in result.history["weights"]], dtype=np.float64)
    b = np.array([b for _, b in result.history["weights"]], dtype=np.float64)
    return np.mean(Y * (W @ np.asarray(X, dtype=np.float64).T + b[:, None]) <= 0, axis=1)


@dataclass
class TailStats:
    """Mean, standard deviation and range (max - min) of the last epochs of a trace."""

    mean: float
    std: float
    spread: float


def tail_stats(trace, last: int) -> TailStats:
    """Summarise the last ``last`` values of a per-epoch trace: where it sits, how it moves."""
    tail = np.asarray(trace, dtype=np.float64)[-last:]
    with np.errstate(over="ignore", invalid="ignore"):
        spread, mean, std = float(np.ptp(tail)), float(tail.mean()), float(tail.std())
    if not (math.isfinite(mean) and math.isfinite(std)):  # the sum of squares overflowed
        e = int(np.frexp(np.abs(tail).max())[1])  # scaled by 2**-e: exact, all below 1
        scaled = np.ldexp(tail, -e)
        mean, std = float(np.ldexp(scaled.mean(), e)), float(np.ldexp(scaled.std(), e))
    return TailStats(mean, std, spread)


def _numpy_xy(X, Y) -> tuple[np.ndarray, np.ndarray]:
    return X.asnumpy().astype(np.float64), Y.asnumpy().astype(np.float64)


# --- part 1: the plain rule on data no line separates --------------------------------------

@dataclass
class NonseparableRuns:
    """Part 1: three datasets no line separates and the plain rule's runs on them.

    Attributes
    ----------
    data : dict of str to (ndarray, ndarray)
        ``"20% label noise"`` (:func:`getfake_noisy`), ``"overlapping Gaussians"``
        (:func:`gaussian_classes`) and ``"XOR"``.
    traces : dict of str to TrainResult
        :func:`train_traced` with ``record=True`` on each.
    separable : dict of str to bool
        :func:`is_separable` of each (False for all three).
    bounds : dict of str to float
        :func:`amaldi_hauser_bound` of each: a ceiling on :math:`\\|\\theta_t\\|`.
    xor_run : OnlineRun
        Five passes over XOR step by step (after each pass it is back at 0).
    xor_step_errors : ndarray
        Training error of XOR's weights after every step of ``xor_run``.
    noisy : NoisyData
        The label-noise draw (which labels were flipped, the generating plane).
    gauss : GaussianClasses
    epochs : int
    """

    data: dict
    traces: dict
    separable: dict
    bounds: dict
    xor_run: OnlineRun
    xor_step_errors: np.ndarray
    noisy: NoisyData = field(repr=False)
    gauss: GaussianClasses = field(repr=False)
    epochs: int

    @property
    def steps(self) -> dict:
        """What :func:`~gluon_perceptron.plot_nonseparable` draws step by step (XOR)."""
        return {"XOR": (self.xor_step_errors, self.xor_run.norms, len(self.data["XOR"][1]))}

    def norm_maxima(self, name: str) -> np.ndarray:
        """Largest :math:`\\|(w, b)\\|` over the first tenth of the passes and over all of them
        (for XOR, over the steps of ``xor_run``, since it is 0 after every pass)."""
        _checks.choice(name, "name", set(self.data))
        norms = (self.xor_run.norms if name == "XOR"
                 else np.asarray(self.traces[name].history["norm"]))
        return horizon_maxima(norms, [max(norms.size // 10, 1), norms.size])


#: The most samples whose C(samples, 3) triples amaldi_hauser_bound examines by default (call
#: it with a larger ``max_subsets`` for more).
_MAX_BOUNDED_SAMPLES = max(n for n in range(3, 1000) if math.comb(n, 3) <= 500_000)


#: ``epochs`` of a run that records (w, b) after every pass: epochs x 3 numbers that must fit.
_RECORDED_EPOCHS = fits(count(), lambda epochs, args: 3 * epochs, "the recorded weights "
                        "(epochs={value} passes x 3 numbers)")
#: Part 1's draws: the fraction of labels flipped, the Gaussians' separation; and a progress bar.
_PART1 = dict(flip=fraction(), separation=SEPARATION)


@validate_params(epochs=_RECORDED_EPOCHS, samples=count(2, _MAX_BOUNDED_SAMPLES), **_PART1)
def nonseparable_experiment(epochs: int = 300, *, samples: int = 100, flip: float = 0.2,
                            separation: float = 2.0, seed: int | None = None,
                            progress: Progress | None = None) -> NonseparableRuns:
    """Draw part 1's datasets and run the plain perceptron ``epochs`` passes on each.

    Draws :func:`getfake_noisy` (``samples`` points in 2-D, a fraction ``flip`` of labels
    flipped), then :func:`gaussian_classes` (``samples`` points, ``separation``), in that
    order, from MXNet's generator (``seed=None`` keeps its current state).

    Parameters
    ----------
    progress : callable, optional
        A tqdm-like wrapper for the loop over the three datasets.
    """
    flip, separation, progress = float(flip), float(separation), as_progress(progress)
    noisy = getfake_noisy(samples, 2, 0.0, flip, seed=seed)
    gauss = gaussian_classes(samples, 2, separation)
    data = {"20% label noise": (noisy.X, noisy.Y),
            "overlapping Gaussians": (gauss.X, gauss.Y),
            "XOR": xor_data()}
    arrays = {name: numpy_pair(*xy) for name, xy in data.items()}
    traces = {name: train_traced(*arrays[name], max_epochs=epochs, record=True)
              for name in track(list(arrays), progress, desc="non-separable sets")}
    Xx, Yx = data["XOR"]
    xor_run = run_online(np.tile(Xx, (5, 1)), np.tile(Yx, 5))
    return NonseparableRuns(
        data=data, traces=traces,
        separable={name: is_separable(*xy) for name, xy in arrays.items()},
        bounds={name: amaldi_hauser_bound(*xy) for name, xy in arrays.items()},
        xor_run=xor_run, xor_step_errors=step_errors(xor_run, Xx, Yx), noisy=noisy,
        gauss=gauss, epochs=epochs)


@dataclass
class NormGrowth:
    """When the plain rule's running maximum of :math:`\\|(w, b)\\|` stops growing, over draws.

    Attributes
    ----------
    seeds : ndarray of int
        The MXNet seed of each draw.
    epochs : int
        Passes of each run.
    last_new_max : dict of str to ndarray of int
        Per dataset (``"20% label noise"``, ``"overlapping Gaussians"``), per draw: the pass
        (from 1) at which :math:`\\|(w, b)\\|` after a pass reached its largest value.
    first_max, total_max : dict of str to ndarray
        Per dataset, per draw: the largest norm over the first tenth of the passes, and over
        all of them.
    """

    seeds: np.ndarray
    epochs: int
    last_new_max: dict
    first_max: dict
    total_max: dict

    def growth(self, name: str) -> np.ndarray:
        """Per draw, the largest norm over all passes over that of the first tenth (>= 1)."""
        _checks.choice(name, "name", set(self.total_max))
        return self.total_max[name] / self.first_max[name]

    def late(self, name: str, after: int) -> int:
        """In how many draws the last new maximum comes after pass ``after``."""
        _checks.choice(name, "name", set(self.last_new_max))
        return int(np.sum(self.last_new_max[name] > _checks.positive_int(after, "after")))

    @property
    def draws(self) -> int:
        """Number of draws."""
        return self.seeds.size


@validate_params(epochs=_RECORDED_EPOCHS, samples=drawn_points(1, "norm_growth_over_seeds"),
                 **_PART1)
def norm_growth_over_seeds(seeds=40, epochs: int = 300, *, samples: int = 100,
                           flip: float = 0.2, separation: float = 2.0,
                           progress: Progress | None = None) -> NormGrowth:
    """Part 1's two random datasets, drawn once per seed, and where the plain rule's norm peaks.

    Each draw seeds MXNet with its seed and draws what :func:`nonseparable_experiment` draws
    (:func:`getfake_noisy`, then :func:`gaussian_classes`), then runs :func:`train_traced`
    for ``epochs`` passes on each (without the Amaldi-Hauser bound, which is slow).

    Parameters
    ----------
    seeds : int or sequence of int
        ``n`` for the seeds ``0, ..., n - 1``, or the seeds themselves.
    progress : callable, optional
        A tqdm-like wrapper for the loop over draws.
    """
    seeds, flip, separation = as_seeds(seeds), float(flip), float(separation)
    names = ("20% label noise", "overlapping Gaussians")
    last: dict[str, list] = {name: [] for name in names}
    first: dict[str, list] = {name: [] for name in names}
    total: dict[str, list] = {name: [] for name in names}
    tenth = max(epochs // 10, 1)
    for draw in track(seeds, as_progress(progress), desc="norm growth over seeds"):
        noisy = getfake_noisy(samples, 2, 0.0, flip, seed=draw)
        gauss = gaussian_classes(samples, 2, separation)
        for name, (X, Y) in zip(names, ((noisy.X, noisy.Y), (gauss.X, gauss.Y))):
            norms = np.asarray(train_traced(*numpy_pair(X, Y), max_epochs=epochs)
                               .history["norm"])
            last[name].append(int(np.argmax(norms)) + 1)
            first[name].append(float(norms[:tenth].max()))
            total[name].append(float(norms.max()))
    return NormGrowth(seeds=np.array(seeds), epochs=epochs,
                      last_new_max={k: np.array(v) for k, v in last.items()},
                      first_max={k: np.array(v) for k, v in first.items()},
                      total_max={k: np.array(v) for k, v in total.items()})


# --- part 2: rules without the mistake test --------------------------------------------------

@dataclass
class BrokenRules:
    """Part 2: the aggressive rule on the notes' sequence, and the unguarded rule on data.

    Attributes
    ----------
    sequence : (ndarray, ndarray)
        :func:`notes_sequence` of ``steps`` examples.
    plain, aggressive : OnlineRun
        The perceptron and the aggressive rule on it.
    unguarded : TrainResult
        :func:`train_aggressive` on the given data.
    """

    sequence: tuple = field(repr=False)
    plain: OnlineRun = field(repr=False)
    aggressive: OnlineRun = field(repr=False)
    unguarded: TrainResult = field(repr=False)

    @property
    def aggressive_mistakes_at(self) -> np.ndarray:
        """The steps :math:`t` (from 1) where the aggressive rule erred."""
        return np.flatnonzero(self.aggressive.mistakes) + 1


@validate_params(steps=fits(
    count(), lambda steps, args: 3 * steps, "the weights of steps={value} steps (3 numbers each)"))
def broken_rules_experiment(X, Y, *, steps: int = 2**12, max_epochs: int = 300) -> BrokenRules:
    """Run the notes' sequence of ``steps`` examples through the plain and the aggressive rule,
    and the unguarded rule ``max_epochs`` passes over ``(X, Y)``. Deterministic."""
    X, Y = as_features(X), as_labels(Y, like=X)
    sequence = notes_sequence(steps)
    return BrokenRules(sequence=sequence, plain=run_online(*sequence),
                       aggressive=run_online(*sequence, rule="aggressive"),
                       unguarded=train_aggressive(X, Y, max_epochs=max_epochs))


# --- part 3: remedies --------------------------------------------------------------------------

#: The methods :func:`remedies_experiment` compares, in order.
REMEDY_METHODS = ("plain", "pocket", "averaged", "decaying", "decaying + margin", "projected")
#: The methods that return the last iterate :math:`\\theta` itself, so its error depends on
#: where in the data order the run stopped.
LAST_ITERATE = ("plain", "decaying", "projected")


@dataclass
class Remedies:
    """Held-out error over epochs of the plain rule and each remedy, on label-noise data.

    Attributes
    ----------
    errors : dict of str to ndarray
        Held-out error after each pass, per method (keys :data:`REMEDY_METHODS`).
    results : dict of str to TrainResult
    flip : float
        Fraction of labels flipped: the Bayes error of the noisy distribution (for
        ``flip < 1/2``), which no classifier beats on average.
    plane_error : float
        The generating plane's held-out error (the flipped fraction of the held-out labels).
    hinge_error : float
        Held-out error of :func:`hinge_separator` fitted on the training half.
    radius : float
        Ball radius used by the projected run.
    train, test : tuple of ndarray
        The two halves ``(X, Y)``.
    majority_error : float
        Held-out error of always answering the training half's majority label: what a rule
        that ignores :math:`x` gets.
    train_flipped : ndarray of bool
        Which training labels were flipped.
    shuffle : bool
        Whether each pass visited the training half in a fresh random order.
    """

    errors: dict
    results: dict
    flip: float
    plane_error: float
    hinge_error: float
    radius: float
    train: tuple = field(repr=False)
    test: tuple = field(repr=False)
    majority_error: float = float("nan")
    train_flipped: np.ndarray | None = field(default=None, repr=False)
    shuffle: bool = False

    def tail(self, method: str, last: int) -> TailStats:
        """:func:`tail_stats` of ``method``'s held-out error over the last ``last`` passes."""
        errors = self.errors[_checks.choice(method, "method", set(self.errors))]
        return tail_stats(errors, _checks.positive_int(last, "last", maximum=errors.size))


#: The arguments of :func:`remedies_experiment` and :func:`remedies_over_seeds`: ``epochs``
#: is a count whose held-out scores (epochs x samples numbers) fit.
_REMEDIES = dict(
    samples=drawn_points(2, "the remedies experiment"), flip=fraction(),
    epochs=fits(count(), lambda epochs, args: epochs * args["samples"], "the held-out scores "
                "(epochs={value} passes x samples={samples} held-out points)", ("samples",)))


@validate_params(**_REMEDIES, epsilon=real(minimum=0.0), radius=optional(real(positive=True)))
def remedies_experiment(samples: int = 200, *, flip: float = 0.2, epochs: int = 300,
                        epsilon: float = 0.0, radius: float | None = None,
                        shuffle: bool = False, seed: int | None = None,
                        progress: Progress | None = None) -> Remedies:
    """Train every method on one noisy half, measure its error on the other after each pass.

    The data is :func:`~gluon_perceptron.getfake_noisy` with ``2 * samples`` points in 2-D,
    split in halves. Methods: ``plain`` (constant step), ``pocket``, ``averaged``,
    ``decaying`` (:math:`\\eta_e = 1/e`), ``decaying + margin`` (the same with
    :math:`\\delta = 1`) and ``projected`` (ball of ``radius``; default half the plain run's
    largest :math:`\\|\\theta\\|`, since a larger ball would never be reached).

    Parameters
    ----------
    shuffle : bool
        Visit the training half in a fresh random order every pass (the same orders for every
        method) instead of the data order.
    seed : int, optional
        Seeds MXNet's generator before the draw (``None``: its current state, the chapter's
        convention) and, with ``shuffle``, the orders (``None``: 0).
    progress : callable, optional
        A tqdm-like wrapper for the loop over methods.
    """
    flip, epsilon, progress = float(flip), float(epsilon), as_progress(progress)
    data = getfake_noisy(2 * samples, 2, epsilon, flip, seed=seed)
    return _remedies(data, samples, epochs, flip, radius=None if radius is None else float(radius),
                     shuffle=bool(shuffle), order_seed=0 if seed is None else seed,
                     progress=progress)


#: The methods of :data:`REMEDY_METHODS` as runs of :func:`_lockstep_runs`: the step's decay,
#: the margin threshold, and what the method returns after each pass (the running weights,
#: their average over every step, or the pocket). ``projected`` is ``plain`` with its ball.
_RUNS = {
    "plain": (0.0, 0.0, "running"),
    "decaying": (1.0, 0.0, "running"),
    "decaying + margin": (1.0, 1.0, "running"),
    "pocket": (0.0, 0.0, "pocket"),
    "averaged": (0.0, 0.0, "averaged"),
    "projected": (0.0, 0.0, "running"),
}


@dataclass
class _Job:
    """One :func:`remedies_experiment` draw on its way: the data, the methods already trained,
    and what the others still need (the projection's radius, the visiting orders)."""

    data: NoisyData
    samples: int
    epochs: int
    flip: float
    shuffle: bool
    order_seed: int
    methods: Sequence[str]
    train: tuple
    test: tuple
    results: dict
    radius: float | None
    refs: dict | None = None  # plane, hinge, majority errors: the same for the same halves


def _prepare(data: NoisyData, samples: int, epochs: int, flip: float, *,
             radius: float | None, shuffle: bool, order_seed: int,
             methods: Sequence[str] = REMEDY_METHODS) -> _Job:
    """Split ``data`` and settle the projection's radius: half the largest norm of the plain
    run (:func:`train_traced`, compiled), which needs that run first; a larger ball is never
    reached. The other methods wait for :func:`_finish`."""
    X, Y = _numpy_xy(data.X, data.Y)
    train_xy, test_xy = (X[:samples], Y[:samples]), (X[samples:], Y[samples:])
    results = {}
    if "projected" in methods and radius is None:
        order = {"shuffle": True, "seed": order_seed} if shuffle else {}
        plain = train_traced(*train_xy, max_epochs=epochs, record=True, **order)
        radius = 0.5 * max(plain.history["norm"])
        if "plain" in methods:
            results["plain"] = plain
    return _Job(data, samples, epochs, flip, shuffle, order_seed, methods, train_xy, test_xy,
                results, radius)


def _finish(jobs: list[_Job], progress: Progress | None = None) -> list[Remedies]:
    """Train what the jobs still need, all runs stepped together
    (:func:`~gluon_perceptron.core.rosenblatt.lockstep.lockstep_runs`; the pocket and the
    averaged perceptron watch one plain run), then score every method on its job's held-out
    half."""
    runs = []  # (job, {method: what it keeps}, decay, threshold, radius)
    for job in jobs:
        todo = [m for m in REMEDY_METHODS if m in job.methods and m not in job.results]
        watched = {m: _RUNS[m][2] for m in todo if m in ("pocket", "averaged")}
        if "plain" in todo:
            watched["plain"] = "running"
        if watched:
            runs.append((job, watched, 0.0, 0.0, np.inf))
        for m in todo:
            if m in ("decaying", "decaying + margin"):
                runs.append((job, {m: "running"}, *_RUNS[m][:2], np.inf))
            elif m == "projected":
                assert job.radius is not None  # _prepare settles it where "projected" runs
                runs.append((job, {m: "running"}, 0.0, 0.0, float(job.radius)))
    if runs:
        trained = lockstep_runs(
            [job.train for job, *_ in runs], [job.epochs for job, *_ in runs],
            keep=[watched for _, watched, *_ in runs],
            decay=np.array([run[2] for run in runs]),
            threshold=np.array([run[3] for run in runs]),
            radius=np.array([run[4] for run in runs]),
            orders=[job.order_seed if job.shuffle else None for job, *_ in runs],
            progress=progress)
        for (job, *_), made in zip(runs, trained):
            job.results.update(made)
    out = []
    for job in jobs:
        results = {m: job.results[m] for m in REMEDY_METHODS if m in job.results}
        errors = {name: heldout_errors(r, *job.test) for name, r in results.items()}
        refs = job.refs if job.refs is not None else _references(job)
        out.append(Remedies(errors=errors, results=results, flip=float(job.flip),
                            radius=float(job.radius) if job.radius is not None else float("nan"),
                            train=job.train, test=job.test,
                            train_flipped=np.asarray(job.data.flipped[:job.samples]),
                            shuffle=job.shuffle, **refs))
    return out


def _references(job: _Job) -> dict:
    """The errors every method is compared with: the generating plane, the hinge LP and the
    majority label, on the job's held-out half."""
    train_xy, test_xy = job.train, job.test
    w, b, _ = hinge_separator(*train_xy)
    plane = error_rate(job.data.wfake.asnumpy(), float(job.data.bfake.asscalar()), *test_xy)
    majority = 1.0 if np.mean(train_xy[1] > 0) >= 0.5 else -1.0
    return dict(plane_error=plane, hinge_error=error_rate(w, b, *test_xy),
                majority_error=float(np.mean(test_xy[1] != majority)))


def _remedies(data: NoisyData, samples: int, epochs: int, flip: float, *,
              radius: float | None,
              shuffle: bool, order_seed: int, progress: Progress | None = None,
              methods: Sequence[str] = REMEDY_METHODS) -> Remedies:
    """Train ``methods`` on the first ``samples`` points of ``data``, score them on the rest."""
    job = _prepare(data, samples, epochs, flip, radius=radius, shuffle=shuffle,
                   order_seed=order_seed, methods=methods)
    return _finish([job], progress)[0]


# --- why the last iterate depends on the order ------------------------------------------------

@dataclass
class OrderEffect:
    """Held-out error of the plain perceptron after *every step* of its last passes.

    Attributes
    ----------
    step_errors : ndarray, shape (passes, n)
        Held-out error of :math:`\\theta` after step ``i`` of each of the last passes.
    updated : ndarray of bool, shape (passes, n)
        Whether step ``i`` of that pass updated.
    flipped : ndarray of bool, shape (n,)
        Which training labels were flipped (in the order the passes visit them).
    """

    step_errors: np.ndarray
    updated: np.ndarray
    flipped: np.ndarray

    @property
    def end_errors(self) -> np.ndarray:
        """The error after each pass: what ``history["weights"]`` records."""
        return self.step_errors[:, -1]

    @property
    def mean_errors(self) -> np.ndarray:
        """The error averaged over all the steps of each pass."""
        return self.step_errors.mean(axis=1)

    def last_updates(self, k: int) -> np.ndarray:
        """Indices of the last ``k`` examples updated on in the final pass."""
        return np.flatnonzero(self.updated[-1])[-_checks.positive_int(k, "k"):]

    def flipped_share_of_last_updates(self, k: int) -> float:
        """Share of flipped labels among the last ``k`` updates of each pass, over all passes
        (about ``flip`` if the order did not matter)."""
        k = _checks.positive_int(k, "k")
        shares = [self.flipped[np.flatnonzero(u)[-k:]].mean() for u in self.updated if u.any()]
        return float(np.mean(shares)) if shares else float("nan")


@validate_params(remedies=instance(Remedies, "the result of remedies_experiment()"), last=Rule(
    lambda v, name, args: count(maximum=args["remedies"].results["plain"].epochs)(v, name, args),
    "count(<= the run's passes)", ("remedies",)))
def order_effect(remedies: Remedies, *, last: int = 100) -> OrderEffect:
    """Replay the plain run of ``remedies`` step by step and score every step's weights.

    The plain rule from :math:`\\theta = 0` is the same run whether it is cut into passes or
    fed the passes as one stream (:func:`run_online` on the training half repeated), so the
    pass-end weights here are those of ``remedies.results["plain"]``; in between, the stream
    shows every weight vector the run visits.
    """
    if remedies.shuffle:
        raise ValueError("order_effect replays the data order; pass a remedies_experiment run "
                         "made with shuffle=False")
    X, Y = remedies.train
    epochs = remedies.results["plain"].epochs
    n = Y.size
    run = run_online(np.tile(X, (epochs, 1)), np.tile(Y, epochs))
    thetas = run.thetas.reshape(epochs, n, -1)[-last:]
    Xt, Yt = remedies.test
    scores = thetas[..., :-1] @ Xt.T + thetas[..., -1:]           # (passes, n, test points)
    errors = np.mean(Yt * scores <= 0, axis=-1)
    flipped = (remedies.train_flipped if remedies.train_flipped is not None
               else np.zeros(n, dtype=bool))
    return OrderEffect(step_errors=errors, updated=run.mistakes.reshape(epochs, n)[-last:],
                       flipped=np.asarray(flipped, dtype=bool))


# --- the same, over many draws -----------------------------------------------------------------

@dataclass
class RemediesOverSeeds:
    """:func:`remedies_experiment` over many draws: what one draw cannot say.

    Attributes
    ----------
    seeds : ndarray of int
        The MXNet seed of each draw.
    last : int
        Passes averaged at the end of each run.
    tail : dict of str to ndarray
        Per method, per draw: the mean held-out error over the last ``last`` passes, data order.
    tail_std, tail_spread : dict of str to ndarray
        The same passes' standard deviation and range (max - min): how much the error still
        moves from pass to pass.
    shuffled : dict of str to ndarray
        The same for :data:`LAST_ITERATE` methods with a fresh order every pass (empty if the
        experiment ran without shuffling).
    majority, plane, hinge : ndarray
        Per draw: held-out error of the majority label, the generating plane and the hinge LP.
    plane_train, pocket_train : ndarray
        Per draw: training error of the generating plane (exactly ``flip``) and of the pocket.
    flip : float
    """

    seeds: np.ndarray
    last: int
    tail: dict
    tail_std: dict
    tail_spread: dict
    shuffled: dict
    majority: np.ndarray
    plane: np.ndarray
    hinge: np.ndarray
    plane_train: np.ndarray
    pocket_train: np.ndarray
    flip: float

    def _values(self, method: str, shuffled: bool) -> np.ndarray:
        table = self.shuffled if shuffled else self.tail
        _checks.choice(method, "method", set(table))
        return table[method]

    def quartiles(self, method: str, *, shuffled: bool = False) -> np.ndarray:
        """25th, 50th and 75th percentile over the draws."""
        return np.percentile(self._values(method, shuffled), [25, 50, 75])

    def median(self, method: str, *, shuffled: bool = False) -> float:
        """Median over the draws."""
        return float(np.median(self._values(method, shuffled)))

    def above(self, method: str, level: float = 0.5, *, shuffled: bool = False) -> int:
        """In how many draws the error exceeds ``level`` (0.5: worse than a coin flip)."""
        return int(np.sum(self._values(method, shuffled) > level))

    def worse_than_majority(self, method: str, *, shuffled: bool = False) -> int:
        """In how many draws the method errs more than always answering the majority label."""
        return int(np.sum(self._values(method, shuffled) > self.majority))

    @property
    def draws(self) -> int:
        """Number of draws."""
        return self.seeds.size


@validate_params(**_REMEDIES, last=count(at_most="epochs"))
def remedies_over_seeds(seeds=40, samples: int = 150, *, flip: float = 0.2, epochs: int = 200,
                        last: int = 100, shuffle: bool = True,
                        progress: Progress | None = None) -> RemediesOverSeeds:
    """Run :func:`remedies_experiment` once per seed and keep each method's tail error.

    Parameters
    ----------
    seeds : int or sequence of int
        ``n`` for the seeds ``0, ..., n - 1``, or the seeds themselves. Each draw seeds MXNet's
        global generator with its seed (so the generator's state afterwards is that of the last
        draw).
    samples, flip, epochs
        As in :func:`remedies_experiment` (``samples`` training and as many held-out points).
    last : int
        Passes averaged at the end of each run.
    shuffle : bool
        Also run the :data:`LAST_ITERATE` methods with a fresh order every pass (the order's
        seed is the draw's).
    progress : callable, optional
        A tqdm-like wrapper for the loop over draws.
    """
    seeds, flip, progress = as_seeds(seeds), float(flip), as_progress(progress)
    return _over_seeds(seeds, samples, flip, epochs, last, bool(shuffle), progress)[0]


def _over_seeds(seeds, samples: int, flip: float, epochs: int, last: int, shuffle: bool,
                progress: Progress | None, extra: Sequence[_Job] = ()
                ) -> tuple[RemediesOverSeeds, list[Remedies]]:
    """:func:`remedies_over_seeds` on checked arguments; the ``extra`` jobs (other draws of
    the same shape) are trained in the same lockstep computation and returned beside it."""
    tail: dict[str, list] = {m: [] for m in REMEDY_METHODS}
    tail_std: dict[str, list] = {m: [] for m in REMEDY_METHODS}
    tail_spread: dict[str, list] = {m: [] for m in REMEDY_METHODS}
    shuffled: dict[str, list] = {m: [] for m in LAST_ITERATE} if shuffle else {}
    refs: dict[str, list] = {k: [] for k in ("majority", "plane", "hinge", "plane_train",
                                             "pocket_train")}
    # every draw's whole-pass methods first (they settle the projection's radius), then the
    # step-by-step methods of all draws in one lockstep computation (:func:`_finish`)
    jobs = []
    for draw in track(seeds, progress, desc="remedies over seeds"):
        data = getfake_noisy(2 * samples, 2, 0.0, flip, seed=draw)
        jobs.append(_prepare(data, samples, epochs, flip, radius=None, shuffle=False,
                             order_seed=draw))
        if shuffle:
            in_order = jobs[-1]
            jobs.append(_prepare(data, samples, epochs, flip, radius=in_order.radius,
                                 shuffle=True, order_seed=draw, methods=LAST_ITERATE))
            jobs[-1].refs = in_order.refs = _references(in_order)  # same halves, same references
    done = _finish(jobs + list(extra))
    per_draw = 2 if shuffle else 1
    for k in range(0, len(jobs), per_draw):
        fixed, data = done[k], jobs[k].data
        for m in REMEDY_METHODS:
            stats = tail_stats(fixed.errors[m], last)
            tail[m].append(stats.mean)
            tail_std[m].append(stats.std)
            tail_spread[m].append(stats.spread)
        if shuffle:
            for m in LAST_ITERATE:
                shuffled[m].append(tail_stats(done[k + 1].errors[m], last).mean)
        refs["majority"].append(fixed.majority_error)
        refs["plane"].append(fixed.plane_error)
        refs["hinge"].append(fixed.hinge_error)
        refs["plane_train"].append(error_rate(data.wfake.asnumpy(), float(data.bfake.asscalar()),
                                              *fixed.train))
        refs["pocket_train"].append(fixed.results["pocket"].history["error"][-1])
    spread = RemediesOverSeeds(
        seeds=np.array(seeds), last=last,
        tail={m: np.array(v) for m, v in tail.items()},
        tail_std={m: np.array(v) for m, v in tail_std.items()},
        tail_spread={m: np.array(v) for m, v in tail_spread.items()},
        shuffled={m: np.array(v) for m, v in shuffled.items()},
        **{k: np.array(v) for k, v in refs.items()}, flip=float(flip))
    return spread, done[len(jobs):]


def _remedies_and_spread(samples: int, epochs: int, seeds, last: int,
                        progress: Progress | None = None) -> tuple[Remedies, RemediesOverSeeds]:
    """``remedies_experiment(samples, epochs=epochs)`` (drawn first, from MXNet's current
    state) and ``remedies_over_seeds(seeds, samples, epochs=epochs, last=last)``, with every
    step-by-step run of both in one lockstep computation: the same results as the two calls.
    For the main job, whose arguments are constants (not checked here)."""
    data = getfake_noisy(2 * samples, 2, 0.0, 0.2, seed=None)
    job = _prepare(data, samples, epochs, 0.2, radius=None, shuffle=False, order_seed=0)
    spread, (one,) = _over_seeds(seeds, samples, 0.2, epochs, last, True, progress, [job])
    return one, spread

