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

import mxnet as mx
import numpy as np
from mxnet import nd

from ..core import _checks
from ..core.chapter.getfake import PRINTED_TRACE, _check_sampler_args, getfake
from ..core.chapter.step import perceptron
from ..core.data.synthetic import ENGINE_ALIASES, ENGINES, _mx_seed, sample_separable
from ..core.rosenblatt.batched import train_batched
from ..core.rosenblatt.results import Unpackable
from ..core.rosenblatt.train import _train_fast, train
from ..core.theory.bounds import chapter_bound, generating_plane_bound
from ._progress import Progress, track

#: The chapter's margins: ``np.arange(0.025, 0.45, 0.025)``, i.e. 0.025, 0.05, ..., 0.425.
EPSILONS = np.arange(0.025, 0.45, 0.025)

#: The original notebook's seed: ``mx.random.seed(1)``.
CHAPTER_SEED = 1


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
class Demo(Unpackable):
    """What :func:`demo` returns; unpacks like the tuple it replaced: ``w, b, updates = ...``.

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


def _start(w, b, d: int) -> tuple[nd.NDArray, nd.NDArray]:
    """Zeros, or the caller's ``w, b`` checked to fit ``d`` features and one another."""
    if w is None and b is None:
        return nd.zeros(shape=(d,)), nd.zeros(shape=(1,))
    if w is None or b is None:
        raise ValueError("pass both w and b (to continue from earlier parameters) or neither")
    for name, a in (("w", w), ("b", b)):
        _checks.instance(a, nd.NDArray, name, "it is updated in place; use nd.array(...)")
    if w.shape != (d,) or b.shape != (1,):
        raise ValueError(f"w must have shape ({d},) and b shape (1,) for X with {d} features, "
                         f"got {w.shape} and {b.shape}")
    if w.dtype != b.dtype or np.dtype(w.dtype) not in (np.float32, np.float64):
        raise TypeError(f"w and b must share one float dtype (float32 or float64), got "
                        f"{np.dtype(w.dtype).name} and {np.dtype(b.dtype).name}; use "
                        f"w.astype('float32') and b.astype('float32')")
    return w, b


def demo(X, Y, *, w: nd.NDArray | None = None, b: nd.NDArray | None = None,
         verbose: bool | None = None) -> Demo:
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
    verbose : bool, optional
        Deprecated and ignored (``demo`` used to print); print ``demo(X, Y).trace`` instead.

    Returns
    -------
    Demo
        ``w, b, updates`` (unpacks like the tuple it replaced).
    """
    if verbose is not None:
        warnings.warn("demo(verbose=...) is deprecated and ignored: demo prints nothing; "
                      "print(demo(X, Y).trace) instead", DeprecationWarning, stacklevel=2)
    Xn, Yn = _checks.dataset(X, Y)
    w, b = _start(w, b, Xn.shape[1])
    Xd = nd.array(Xn, dtype=w.dtype)
    updates = []
    for i in range(Xn.shape[0]):
        if perceptron(w, b, Xd[i], Yn[i]) == 1:
            updates.append(Update(i, Xd[i].asnumpy(), float(Yn[i]), w.asnumpy().copy(),
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


def demo_statistics(seeds=range(100), *, samples: int = 50, epsilon: float = 0.3,
                    progress: Progress | None = None) -> DemoStatistics:
    """Run the demo (``getfake`` then one pass from zero) once per seed and collect the counts."""
    seeds = np.array(_checks.seeds(seeds), dtype=np.int64)
    _check_sampler_args(samples, 2, epsilon, None)
    progress = _checks.progress(progress)
    updates, errors, first = [], [], []
    for s in track(seeds, progress, desc="demo over seeds"):
        mx.random.seed(int(s))
        X, Y = getfake(samples, 2, epsilon)
        run = demo(X, Y)
        Xn, Yn = X.asnumpy(), Y.asnumpy()
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


def compare_samplers(seeds=range(10), *, samples: int = 2000, dimensions: int = 2,
                     epsilon: float = 0.2, progress: Progress | None = None
                     ) -> SamplerComparison:
    """Draw with both samplers under each seed; compare their margins and label shares."""
    seeds = np.array(_checks.seeds(seeds), dtype=np.int64)
    progress = _checks.progress(progress)
    engines = ("faithful", "fast")
    quart = {e: [] for e in engines}
    share = {e: [] for e in engines}
    same_plane, same_points = [], []
    draws = {e: partial(sample_separable, samples, dimensions, epsilon, engine=e) for e in engines}
    for s in track(seeds, progress, desc="samplers"):
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

def _epsilons(epsilons, samples: int, dimensions: int) -> np.ndarray:
    """:data:`EPSILONS` for ``None``; else finite margins ``> 0`` the sampler can reach, checked
    with its own rule (which also checks ``samples`` and ``dimensions``)."""
    _check_sampler_args(samples, dimensions, 0.0, None)
    if epsilons is None:
        return np.asarray(EPSILONS, dtype=float)
    eps = _checks.finite_values(epsilons, "epsilons", strict=True)
    for e in eps:
        try:
            _check_sampler_args(samples, dimensions, float(e), None)
        except ValueError as exc:
            raise ValueError(f"epsilons holds {e:g}, which the sampler refuses: {exc}") from None
    return eps


@dataclass
class FaithfulExperiment(Unpackable):
    """What :func:`margin_experiment_faithful` returns; unpacks as ``epsilons, updates``.

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

    def __iter__(self):  # unpacks like the (epsilons, updates) tuple it replaced
        return iter((self.epsilons, self.updates))


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
    trials = _checks.repeats(trials, "trials")
    samples = _checks.positive_int(samples, "samples")
    eps = _epsilons(epsilons, samples, 2)
    _checks.elements(trials * eps.size, f"margin_experiment_faithful's runs (trials={trials:,} "
                                        f"x {eps.size} epsilons)")
    warm = w is not None
    w, b = _start(w, b, 2)
    seed = _checks.seed(seed)
    progress = _checks.progress(progress)
    _mx_seed(seed)
    err = np.zeros(eps.size)
    runs = [(j, i, e) for j in range(trials) for i, e in enumerate(eps)]
    for _, i, epsilon in track(runs, progress, desc="faithful experiment"):
        X, Y = getfake(samples, 2, float(epsilon))
        X = X.astype(w.dtype, copy=False)
        for k in range(samples):
            err[i] += perceptron(w, b, X[k], Y[k])
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
    engine : {"fast", "faithful", "ndarray"}
        How to train: the exact kernel over all runs at once (``"fast"``), the chapter's step
        (``"faithful"``), or MXNet batched (``"ndarray"``, through ``train_batched``); all make
        the same updates.
    sampler : {"fast", "faithful"}
        The sampler of :func:`sample_separable` (``"batched"`` is the old name of ``"fast"``).
    seed : int, optional
        Seeds MXNet's generator first; ``None`` uses its current state.
    """
    trials = _checks.repeats(trials, "trials")
    samples = _checks.positive_int(samples, "samples")
    dimensions = _checks.positive_int(dimensions, "dimensions")
    eps = _epsilons(epsilons, samples, dimensions)  # > 0: the bound divides by epsilon^2
    max_epochs = _checks.positive_int(max_epochs, "max_epochs")
    _checks.choice(engine, "engine", {"fast", "faithful", "ndarray"})
    _checks.choice(sampler, "sampler", set(ENGINES) | set(ENGINE_ALIASES))
    seed = _checks.seed(seed)
    progress = _checks.progress(progress)
    _checks.elements(trials * eps.size * samples * dimensions,
                     f"margin_experiment's datasets (trials={trials:,} x {eps.size} epsilons x "
                     f"samples={samples:,} x dimensions={dimensions:,})")
    _mx_seed(seed)
    shape = (trials, eps.size)
    out = {k: np.zeros(shape) for k in ("updates", "epochs", "R", "gamma", "bfake", "bound",
                                        "chapter_bound")}
    converged = np.zeros(shape, dtype=bool)
    runs = [(j, i) for j in range(trials) for i in range(eps.size)]
    draws = [partial(sample_separable, samples, dimensions, float(e), engine=sampler) for e in eps]
    fakes = [draws[i]() for j, i in track(runs, progress, desc="corrected experiment")]
    if engine in ("fast", "ndarray"):  # all runs as one computation, each identical to train
        results = train_batched(np.stack([f.X.asnumpy() for f in fakes]),
                                np.stack([f.Y.asnumpy() for f in fakes]), max_epochs=max_epochs,
                                **({"engine": "ndarray"} if engine == "ndarray" else {}))
    else:
        results = [train(f.X, f.Y, max_epochs=max_epochs, engine=engine) for f in fakes]
    for (j, i), fake, result in zip(runs, fakes, results):
        info = generating_plane_bound(fake.X, fake.Y, fake.wfake, fake.bfake)
        out["updates"][j, i] = result.updates
        out["epochs"][j, i] = result.epochs
        converged[j, i] = result.converged
        out["R"][j, i] = info["R"]
        out["gamma"][j, i] = info["gamma"]
        out["bfake"][j, i] = info["b"]
        out["bound"][j, i] = info["bound"]
        out["chapter_bound"][j, i] = chapter_bound(info["R"], float(eps[i]))
    if not converged.all():
        warnings.warn(f"{np.sum(~converged)} runs stopped at max_epochs={max_epochs} before "
                      f"separating their data (see result.converged); raise max_epochs",
                      RuntimeWarning, stacklevel=2)
    return MarginExperiment(epsilons=eps, converged=converged, **out)


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


def _configs(configs) -> list[tuple[int, int]]:
    """A non-empty sequence of ``(samples, dimensions)`` pairs."""
    wanted = "configs must be a non-empty sequence of (samples, dimensions) pairs"
    if isinstance(configs, (str, bytes)) or not hasattr(configs, "__iter__"):
        raise ValueError(f"{wanted}, got {configs!r:.60}")
    out = []
    for pair in list(configs)[:10**4]:
        if isinstance(pair, (str, bytes)) or not hasattr(pair, "__len__") or len(pair) != 2:
            raise ValueError(f"{wanted}, got the entry {pair!r:.60}")
        out.append((_checks.positive_int(pair[0], "samples"),
                    _checks.positive_int(pair[1], "dimensions")))
    if not out:
        raise ValueError(f"{wanted}, got an empty sequence")
    return out


def updates_by_size(configs=((100, 2), (1000, 2), (1000, 10)), *, seeds: int = 20,
                    epsilon: float = 0.1, max_epochs: int = 10_000,
                    progress: Progress | None = None) -> SizeExperiment:
    """For each ``(samples, dimensions)`` and seed ``0 .. seeds-1``: ``mx.random.seed(s)``,
    ``sample_separable(samples, dimensions, epsilon)``, train to convergence, record the updates
    next to the dataset's bound."""
    configs = _configs(configs)
    seeds = _checks.repeats(seeds, "seeds")
    epsilon = _checks.finite_float(epsilon, "epsilon", strictly_positive=True)
    max_epochs = _checks.positive_int(max_epochs, "max_epochs")
    progress = _checks.progress(progress)
    _checks.elements(2 * len(configs) * seeds, f"updates_by_size's records (2 per run, "
                                               f"{len(configs)} configs x seeds={seeds:,})")
    updates = np.zeros((len(configs), seeds))
    bound = np.zeros((len(configs), seeds))
    draws = [partial(sample_separable, samples, dims, epsilon) for samples, dims in configs]
    for c, (samples, dims) in enumerate(track(configs, progress, desc="sizes")):
        for s in range(seeds):
            mx.random.seed(s)
            fake = draws[c]()
            run = _train_fast(fake.X.asnumpy(), fake.Y.asnumpy(), max_epochs)
            if not run.converged:
                raise RuntimeError(f"a run on {samples} x {dims} data did not converge within "
                                   f"max_epochs={max_epochs}; raise max_epochs")
            updates[c, s] = run.updates
            bound[c, s] = generating_plane_bound(fake.X, fake.Y, fake.wfake,
                                                 fake.bfake)["bound"]
    return SizeExperiment(configs, epsilon, updates, bound)
