"""The chapter's experiments: the demo, the printed 2017 trace replayed, and the
updates-against-margin experiment, faithful and corrected.

*Deep Learning - The Straight Dope*, "The Perceptron": the demo (the section after "A
Separable Classification Problem") and the experiment of "The Perceptron Convergence Theorem".
Every function here returns a dataclass and prints nothing; the main job prints.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from functools import partial
from itertools import product

import mxnet as mx
import numpy as np
from mxnet import nd

from ..core._convert import as_features, as_labels, as_progress, as_seeds, as_values
from ..core._validation import (
    ENGINES,
    Rule,
    count,
    fits,
    ndarray,
    one_of,
    optional,
    real,
    seeds,
    validate_params,
)
from ..core.chapter.perceptron_step import perceptron
from ..core.chapter.sampler import (
    MARGINS,
    MAX_SAMPLES,
    PRINTED_TRACE,
    SAMPLE_RULES,
    _check_shape,
    getfake,
)
from ..core.data.synthetic import _mx_seed, sample_separable
from ..core.rosenblatt.batched import train_batched
from ..core.rosenblatt.training import train
from ..core.theory.bounds import chapter_bound, generating_plane_bound
from ._as_numpy import numpy_draw, numpy_pair
from ._progress import Progress, track

#: The chapter's margins: ``np.arange(0.025, 0.45, 0.025)``, i.e. 0.025, 0.05, ..., 0.425
#: (read-only: a constant of the package, never changed through a result or a user's code).
EPSILONS = np.arange(0.025, 0.45, 0.025)
EPSILONS.setflags(write=False)

#: The original notebook's seed: ``mx.random.seed(1)``.
CHAPTER_SEED = 1

#: What the sampler's ``samples, dimensions`` must be: ``getfake``'s own rules.
_SHAPE = {name: SAMPLE_RULES[name] for name in ("samples", "dimensions")}


@dataclass
class Update:
    """One update of the demo: the example that caused it and the parameters after it."""

    index: int
    x: np.ndarray
    y: float
    w: np.ndarray
    b: float

    def trace_lines(self) -> list[str]:
        """The chapter's three printed lines for this update."""
        return ["Encountered an error and updated parameters",
                f"data   {self.x}, label {self.y}",
                f"weight {self.w}, bias  {self.b}"]


@dataclass
class Demo:
    """What :func:`demo` returns.

    Attributes
    ----------
    w, b : NDArray
        The parameters after the pass (the same objects the pass updated in place).
    updates : list of Update
        One entry per update, in order.
    """

    w: nd.NDArray
    b: nd.NDArray
    updates: list[Update] = field(default_factory=list)

    def trace_lines(self) -> list[str]:
        """The lines the chapter's loop prints: three per update."""
        return [line for u in self.updates for line in u.trace_lines()]

    @property
    def trace(self) -> str:
        """:meth:`trace_lines` joined into the text the chapter prints."""
        return "\n".join(self.trace_lines())


#: The rule of a caller's ``w`` (and part of ``b``'s): the demo updates them in place.
_IN_PLACE = ndarray("it is updated in place")


def _fits_w(b, name: str, args: dict):
    """The rule of ``b``, after ``w``: both None, or NDArrays of one float dtype that fit the
    features of ``X`` (the chapter's 2 where there is no ``X``)."""
    w, d = args["w"], args["X"].shape[1] if "X" in args else 2
    if (w is None) != (b is None):
        raise ValueError("pass both w and b (to continue from earlier parameters) or neither")
    if b is not None and (_IN_PLACE(b, name, args).shape != (1,) or w.shape != (d,)):
        raise ValueError(f"w must have shape ({d},) and b shape (1,) for X with {d} features, "
                         f"got {w.shape} and {b.shape}")
    if b is not None and (w.dtype != b.dtype or np.dtype(w.dtype) not in (np.float32, np.float64)):
        raise TypeError(f"w and b must share one float dtype (float32 or float64), got "
                        f"{np.dtype(w.dtype).name} and {np.dtype(b.dtype).name}")
    return b


#: The starting ``w, b`` of :func:`demo` and :func:`margin_experiment_faithful`.
_START = dict(w=optional(_IN_PLACE), b=Rule(_fits_w, "both None, or NDArrays that fit X", ("w",)))


def _start(w, b, d: int) -> tuple[nd.NDArray, nd.NDArray]:
    """The caller's ``w, b``, or zeros for ``d`` features (float32)."""
    if w is None and b is None:
        return nd.zeros(shape=(d,)), nd.zeros(shape=(1,))
    return w, b


@validate_params(**_START)
def demo(X, Y, *, w: nd.NDArray | None = None, b: nd.NDArray | None = None) -> Demo:
    """One pass of the chapter's perceptron over ``(X, Y)``, recording each update.

    The chapter's loop ``for (x, y) in zip(X, Y): res = perceptron(w, b, x, y)``, from
    :math:`w = 0, b = 0` unless ``w, b`` are given. Prints nothing: :attr:`Demo.trace` is the
    text the chapter prints (three lines per update).

    Parameters
    ----------
    X, Y : NDArray or array-like
        Usually ``getfake(50, 2, 0.3)`` after ``mx.random.seed(1)``.
    w, b : NDArray, optional
        Starting parameters, changed in place (default zeros, float32). ``X`` is cast to
        their dtype.

    Returns
    -------
    Demo
        ``w, b, updates`` (unpacks like the tuple it replaced).
    """
    X, Y = as_features(X), as_labels(Y, like=X)
    w, b = _start(w, b, X.shape[1])
    Xd = nd.array(X, dtype=w.dtype)
    updates = []
    for i in range(X.shape[0]):
        if perceptron(w, b, Xd[i], float(Y[i])) == 1:
            updates.append(Update(i, Xd[i].asnumpy(), float(Y[i]), w.asnumpy().copy(),
                                  float(b.asscalar())))
    return Demo(w, b, updates)


# --- the chapter's printed trace, replayed ---------------------------------------------------

@dataclass
class TraceReplay:
    """The chapter's printed 2017 trace replayed through :func:`~.perceptron`.

    Attributes
    ----------
    x : ndarray, shape (4, 2)
        The printed points (float32), in order.
    y : ndarray, shape (4,)
        Their printed labels.
    printed_w, printed_b : ndarray
        The weights and biases printed after each update.
    replayed_w, replayed_b : ndarray
        Ours after each step, starting from :math:`w = 0, b = 0`.
    updated : ndarray of bool
        Whether each step updated (the printed trace lists updates only, so all should).
    """

    x: np.ndarray
    y: np.ndarray
    printed_w: np.ndarray
    printed_b: np.ndarray
    replayed_w: np.ndarray
    replayed_b: np.ndarray
    updated: np.ndarray

    @property
    def max_difference(self) -> float:
        """Largest absolute difference between printed and replayed parameters."""
        return float(max(np.abs(self.printed_w - self.replayed_w).max(),
                         np.abs(self.printed_b - self.replayed_b).max()))

    @property
    def reproduces(self) -> bool:
        """Every step updated and every parameter matches the print to float32 precision."""
        return bool(self.updated.all() and self.max_difference < 1e-6)


@validate_params()
def replay_printed_trace() -> TraceReplay:
    """Feed the chapter's printed points to :func:`~.perceptron`, from :math:`w = 0, b = 0`.

    The chapter printed four updates, made in 2017 by an older MXNet whose random stream
    differs from today's, so ``mx.random.seed(1)`` no longer draws those points. The print
    lists the offending point and the parameters after each update; since the perceptron only
    changes ``w, b`` on an update, replaying the four points alone must reproduce the printed
    parameters.
    """
    x = np.array([row[0] for row in PRINTED_TRACE], dtype=np.float32)
    y = np.array([row[1] for row in PRINTED_TRACE], dtype=np.float32)
    w, b = nd.zeros(shape=(2,)), nd.zeros(shape=(1,))
    ws, bs, updated = [], [], []
    for xi, yi in zip(x, y):
        updated.append(perceptron(w, b, nd.array(xi), float(yi)) == 1)
        ws.append(w.asnumpy().copy())
        bs.append(float(b.asscalar()))
    return TraceReplay(x=x, y=y,
                       printed_w=np.array([row[2] for row in PRINTED_TRACE], dtype=np.float32),
                       printed_b=np.array([row[3] for row in PRINTED_TRACE], dtype=np.float32),
                       replayed_w=np.array(ws), replayed_b=np.array(bs, dtype=np.float32),
                       updated=np.array(updated))


# --- the demo over many draws ----------------------------------------------------------------

@dataclass
class DemoStatistics:
    """The demo's one pass over many draws of ``getfake(samples, 2, epsilon)``.

    Attributes
    ----------
    seeds : ndarray of int
        The ``mx.random.seed`` of each draw.
    updates : ndarray of int
        Updates in the one pass, per draw.
    training_error : ndarray
        Training error of ``(w, b)`` after the pass, per draw.
    first_update : ndarray of int
        Index of the example of the first update (always 0: the tie at zero).
    """

    seeds: np.ndarray
    updates: np.ndarray
    training_error: np.ndarray
    first_update: np.ndarray

    @property
    def separated(self) -> int:
        """In how many draws the one pass already separates the data."""
        return int(np.sum(self.training_error == 0))


@validate_params(samples=count(maximum=MAX_SAMPLES), epsilon=real(minimum=0.0))
def demo_statistics(seeds=range(100), *, samples: int = 50, epsilon: float = 0.3,
                    progress: Progress | None = None) -> DemoStatistics:
    """Run the demo (``getfake`` then one pass from zero) once per seed and collect the counts."""
    seeds, epsilon = np.array(as_seeds(seeds), dtype=np.int64), float(epsilon)
    updates, errors, first = [], [], []
    for s in track(seeds, as_progress(progress), desc="demo over seeds"):
        mx.random.seed(int(s))
        X, Y = getfake(samples, 2, epsilon)
        Xn, Yn = numpy_pair(X, Y)
        run = demo(Xn, Yn)
        scores = Xn @ run.w.asnumpy() + run.b.asscalar()
        updates.append(len(run.updates))
        errors.append(float(np.mean(Yn * scores <= 0)))
        first.append(run.updates[0].index)
    return DemoStatistics(seeds, np.array(updates), np.array(errors), np.array(first))


# --- the two samplers over many draws --------------------------------------------------------

@dataclass
class SamplerComparison:
    """``sample_separable`` with the faithful and the fast (block) sampler, one pair per seed.

    Attributes
    ----------
    seeds : ndarray of int
    same_plane : ndarray of bool
        Whether both engines drew the same generating plane under the seed.
    same_points : ndarray of bool
        Whether they drew the same points (they should not: different random streams).
    quartiles : dict of str to ndarray, shape (seeds, 3)
        Quartiles of the margins :math:`y (w^{*\\top} x + b^*)` per engine.
    positive_share : dict of str to ndarray, shape (seeds,)
        Share of +1 labels per engine.
    """

    seeds: np.ndarray
    same_plane: np.ndarray
    same_points: np.ndarray
    quartiles: dict
    positive_share: dict

    @property
    def largest_quartile_gap(self) -> float:
        """Largest difference of the seed-averaged margin quartiles between the engines."""
        return float(np.abs(self.quartiles["faithful"].mean(axis=0)
                            - self.quartiles["fast"].mean(axis=0)).max())


@validate_params(**SAMPLE_RULES)
def compare_samplers(seeds=range(10), *, samples: int = 2000, dimensions: int = 2,
                     epsilon: float = 0.2, progress: Progress | None = None
                     ) -> SamplerComparison:
    """Draw with both samplers under each seed; compare their margins and label shares."""
    seeds, epsilon = np.array(as_seeds(seeds), dtype=np.int64), float(epsilon)
    engines = ("faithful", "fast")
    quart: dict[str, list] = {e: [] for e in engines}
    share: dict[str, list] = {e: [] for e in engines}
    same_plane, same_points = [], []
    draws = {e: partial(sample_separable, samples, dimensions, epsilon, engine=e) for e in engines}
    for s in track(seeds, as_progress(progress), desc="samplers"):
        fakes = {}
        for e in engines:
            mx.random.seed(int(s))
            f = fakes[e] = draws[e]()
            m = f.Y.asnumpy() * (f.X.asnumpy() @ f.wfake.asnumpy() + f.bfake.asscalar())
            quart[e].append(np.quantile(m, [0.25, 0.5, 0.75]))
            share[e].append(float(np.mean(f.Y.asnumpy() == 1)))
        a, b = fakes["faithful"], fakes["fast"]
        same_plane.append(np.array_equal(a.wfake.asnumpy(), b.wfake.asnumpy()))
        same_points.append(np.array_equal(a.X.asnumpy(), b.X.asnumpy()))
    return SamplerComparison(seeds, np.array(same_plane), np.array(same_points),
                             {e: np.array(v) for e, v in quart.items()},
                             {e: np.array(v) for e, v in share.items()})


# --- updates against the margin ----------------------------------------------------------------

#: The rule of ``epsilons``: None (:data:`EPSILONS`), or :data:`MARGINS`.
_MARGINS = optional(MARGINS)


def _datasets(eps: np.ndarray | None, args: dict) -> int:
    """How many numbers :func:`margin_experiment`'s datasets hold, all drawn before training."""
    size = EPSILONS.size if eps is None else eps.size
    return size * args["trials"] * args["samples"] * args["dimensions"]


def _margins(epsilons) -> np.ndarray:
    """``epsilons`` as a new float64 array, :data:`EPSILONS` for None (a result must alias
    neither the constant nor the caller's array)."""
    return np.array(EPSILONS if epsilons is None else as_values(epsilons), dtype=np.float64)


@dataclass
class FaithfulExperiment:
    """What :func:`margin_experiment_faithful` returns.

    Attributes
    ----------
    epsilons : ndarray
    updates : ndarray
        Mean updates of one warm-started pass, per epsilon.
    trials, samples : int
        The sizes it ran at (the chapter's: 10 and 1000).
    warm_start : bool
        Whether it continued from weights the caller passed (the chapter continues from the
        demo's).
    """

    epsilons: np.ndarray
    updates: np.ndarray
    trials: int = 10
    samples: int = 1000
    warm_start: bool = False


@validate_params(samples=count(maximum=MAX_SAMPLES), epsilons=_MARGINS, **_START)
def margin_experiment_faithful(epsilons=None, *, trials: int = 10, samples: int = 1000,
                               w: nd.NDArray | None = None, b: nd.NDArray | None = None,
                               seed: int | None = None,
                               progress: Progress | None = None) -> FaithfulExperiment:
    """The chapter's convergence experiment, exactly as written (including its slip).

    For each trial and each epsilon: ``X, Y = getfake(samples, 2, epsilon)`` and one pass of
    :func:`perceptron` over it, adding the updates to ``Err[i]``; ``w, b`` are never reset, so
    every dataset starts from the weights the previous one left (in the chapter, the first
    starts from the demo's weights: pass them as ``w, b``). Returns the average over trials.
    Takes 1 to 2 minutes at the chapter's sizes (10 trials x 17 margins x 1000 points), almost
    all of it in the one-point-at-a-time sampler.

    Parameters
    ----------
    epsilons : array-like, optional
        Default :data:`EPSILONS`.
    trials, samples : int
    w, b : NDArray, optional
        Starting parameters, changed in place (default zeros).
    seed : int, optional
        Seeds MXNet's generator first; ``None`` continues its stream, as the chapter does.
    progress : callable, optional
        A tqdm-like wrapper for a progress bar (``True``/``False`` are accepted and ignored).

    Returns
    -------
    FaithfulExperiment
    """
    eps, progress = _margins(epsilons), as_progress(progress)
    warm = w is not None
    w, b = _start(w, b, 2)
    _mx_seed(seed)
    err = np.zeros(eps.size)
    runs = product(range(trials), enumerate(eps))  # lazily: trials x epsilons may be many
    for _, (i, epsilon) in track(runs, progress, desc="faithful experiment",
                                 total=trials * eps.size):
        X, Y = getfake(samples, 2, float(epsilon))
        X, labels_ = X.astype(w.dtype, copy=False), Y.asnumpy()
        for k in range(samples):
            err[i] += perceptron(w, b, X[k], float(labels_[k]))
    return FaithfulExperiment(eps, err / trials, trials, samples, warm)


@dataclass
class MarginExperiment:
    """Results of :func:`margin_experiment`; arrays have shape ``(trials, len(epsilons))``."""

    epsilons: np.ndarray
    updates: np.ndarray
    epochs: np.ndarray
    converged: np.ndarray
    R: np.ndarray
    gamma: np.ndarray
    bfake: np.ndarray
    bound: np.ndarray
    chapter_bound: np.ndarray

    @property
    def chapter_assumptions(self) -> np.ndarray:
        """Where the chapter's :math:`b^{*2} \\le 1` holds for the generating plane."""
        return self.bfake**2 <= 1.0


@validate_params(**_SHAPE, epsilons=fits(_MARGINS, _datasets, "the datasets of trials, epsilons, "
                 "samples and dimensions", ("trials", "samples", "dimensions")),
                 engine=one_of("fast", "faithful", "lockstep"), sampler=one_of(*ENGINES))
def margin_experiment(epsilons=None, *, trials: int = 10, samples: int = 1000,
                      dimensions: int = 2, max_epochs: int = 10_000, engine: str = "fast",
                      sampler: str = "fast", seed: int | None = None,
                      progress: Progress | None = None) -> MarginExperiment:
    """The corrected convergence experiment: fresh weights, trained to convergence.

    For each trial and epsilon: draw a dataset with :func:`sample_separable`, train from
    ``w = 0, b = 0`` until a pass makes no update, and record the updates next to the bound
    :math:`(R^2 + 1)(1 + b^{*2}) / \\gamma^2` computed from that dataset's radius :math:`R`,
    its actual margin :math:`\\gamma \\ge \\epsilon` and generating plane
    (:math:`\\|w^*\\| = 1`), and next to the chapter's :math:`2 (R^2 + 1) / \\epsilon^2`,
    which assumes :math:`b^{*2} \\le 1`.

    Parameters
    ----------
    engine : {"fast", "faithful", "lockstep"}
        How to train: ``train``'s fast twin run by run (``"fast"``), the chapter's step
        (``"faithful"``), or all runs in lockstep in MXNet (``"lockstep"``, through
        ``train_batched(engine="faithful")``); all make the same updates.
    sampler : {"fast", "faithful"}
        The sampler of :func:`sample_separable`.
    seed : int, optional
        Seeds MXNet's generator first; ``None`` uses its current state.
    """
    eps, progress = _margins(epsilons), as_progress(progress)
    _mx_seed(seed)
    # trial j, margin i: one dataset each, drawn in the order trial by trial
    runs = [(j, i) for j in range(trials) for i in range(eps.size)]
    draws = [partial(sample_separable, samples, dimensions, float(e), engine=sampler) for e in eps]
    fakes = [numpy_draw(draws[i]()) for j, i in track(runs, progress, desc="corrected experiment")]
    results = _train_each(fakes, max_epochs, engine)
    bounds = [generating_plane_bound(f.X, f.Y, f.wfake, f.bfake) for f in fakes]

    def table(values, dtype=float) -> np.ndarray:  # one value per run, as (trials, epsilons)
        return np.array(list(values), dtype=dtype).reshape(trials, eps.size)

    converged = table((r.converged for r in results), bool)
    if not converged.all():
        warnings.warn(f"{np.sum(~converged)} runs stopped at max_epochs={max_epochs} before "
                      f"separating their data (see result.converged); raise max_epochs",
                      RuntimeWarning, stacklevel=3)  # 3: past validate_params' wrapper
    return MarginExperiment(
        epsilons=eps, converged=converged,
        updates=table(r.updates for r in results), epochs=table(r.epochs for r in results),
        R=table(b.R for b in bounds), gamma=table(b.gamma for b in bounds),
        bfake=table(b.b for b in bounds), bound=table(b.bound for b in bounds),
        chapter_bound=table(chapter_bound(b.R, float(eps[i])) for (_, i), b in zip(runs, bounds)))


def _train_each(fakes: list, max_epochs: int, engine: str) -> list:
    """Train from zero to convergence on every draw: one batched computation for ``"fast"`` and
    ``"lockstep"`` (each run identical to ``train``), else ``train`` one draw at a time."""
    if engine == "faithful":
        return [train(f.X, f.Y, max_epochs=max_epochs, engine=engine) for f in fakes]
    return train_batched(np.stack([f.X for f in fakes]), np.stack([f.Y for f in fakes]),
                         max_epochs=max_epochs,
                         **({"engine": "faithful"} if engine == "lockstep" else {}))


# --- the bound ignores size and dimension; the counts do not -----------------------------------

@dataclass
class SizeExperiment:
    """Updates to convergence for several (samples, dimensions), many seeds each.

    Attributes
    ----------
    configs : list of (int, int)
        ``(samples, dimensions)`` per row.
    epsilon : float
    updates : ndarray, shape (len(configs), seeds)
        Updates to convergence.
    bound : ndarray, shape (len(configs), seeds)
        The dataset's own bound :math:`(R^2 + 1)(1 + b^{*2}) / \\gamma^2`.
    """

    configs: list
    epsilon: float
    updates: np.ndarray
    bound: np.ndarray

    @property
    def ratios(self) -> np.ndarray:
        """updates / bound per run (at most 1: the theorem)."""
        return self.updates / self.bound


def _configs(configs, name: str, args: dict) -> list[tuple[int, int]]:
    """A non-empty sequence of ``(samples, dimensions)`` pairs, each a shape the sampler draws."""
    shape = np.shape(np.array(configs, dtype=object))  # () for a string or a generator
    if isinstance(configs, (str, bytes)) or len(shape) != 2 or shape[1] != 2 or not shape[0]:
        raise ValueError(f"{name} must be a non-empty sequence of (samples, dimensions) pairs, "
                         f"got {configs!r:.60}")
    return [_check_shape(*(count()(v, f"{name}[k]", args) for v in pair)) for pair in configs]


@validate_params(configs=Rule(_configs, "(samples, dimensions) pairs"),
                 seeds=fits(seeds(), lambda seeds, args: 2 * len(args["configs"]) * len(seeds),
                            "updates_by_size's records (2 per config and seed)", ("configs",)),
                 epsilon=real(positive=True))
def updates_by_size(configs=((100, 2), (1000, 2), (1000, 10)), *, seeds=20,
                    epsilon: float = 0.1, max_epochs: int = 10_000,
                    progress: Progress | None = None) -> SizeExperiment:
    """For each ``(samples, dimensions)`` and each seed (a count ``k`` means ``0 .. k-1``):
    ``mx.random.seed(s)``, ``sample_separable(samples, dimensions, epsilon)``, train to
    convergence, record the updates next to the dataset's bound."""
    configs, seeds = [(int(n), int(d)) for n, d in configs], as_seeds(seeds)
    epsilon, progress = float(epsilon), as_progress(progress)
    updates = np.zeros((len(configs), len(seeds)))
    bound = np.zeros((len(configs), len(seeds)))
    draws = [partial(sample_separable, samples, dims, epsilon) for samples, dims in configs]
    for c, (samples, dims) in enumerate(track(configs, progress, desc="sizes")):
        for k, s in enumerate(seeds):
            mx.random.seed(s)
            fake = draws[c]()
            run = train(fake.X.asnumpy(), fake.Y.asnumpy(), max_epochs=max_epochs)
            if not run.converged:
                raise RuntimeError(f"a run on {samples} x {dims} data did not converge within "
                                   f"max_epochs={max_epochs}; raise max_epochs")
            updates[c, k] = run.updates
            draw = numpy_draw(fake)
            bound[c, k] = generating_plane_bound(draw.X, draw.Y, draw.wfake,
                                                 draw.bfake)["bound"]
    return SizeExperiment(configs, epsilon, updates, bound)
