r"""The perceptron on many machines, measured: the mixing bound, passes against workers, noise.

- :func:`mixing_bound_experiment`: McDonald, Hall & Mann's (2010) Theorem 3,
  :math:`\sum_n \sum_i \mu_{i,n} k_{i,n} \le R^2/\gamma^2`, against the counts of
  :func:`~gluon_perceptron.train_mixed` on getfake data, for several worker counts and both
  mixings.
- :func:`mixing_speedup`: rounds, mistakes and wall time of mixing with :math:`W` shards beside
  one perceptron (``train``), in one process or on the parameter server.
- :func:`nonseparable_mixing`: what mixing does when no separator exists: the training error of
  the mixed weights round by round.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from functools import partial

import mxnet as mx
import numpy as np

from ..core import _checks
from ..core._convert import as_counts, as_features, as_labels, as_progress, as_values
from ..core._validation import (
    MIXINGS,
    Rule,
    count,
    finite_values,
    fits,
    flag,
    fraction,
    instance,
    names,
    real,
    such_that,
    validate_params,
)
from ..core.chapter.sampler import _REACHABLE, SAMPLE_RULES
from ..core.data.synthetic import getfake_noisy, sample_separable
from ..core.distributed.mixing import shard_count, train_mixed
from ..core.fast.training_fast import _fast_run
from ..core.rosenblatt.results import train_result
from ..core.theory.margins import optimal_margin
from ._progress import Progress, track

#: Why ``hard_separable``'s margin is at most 2.5: P(|u.x + 0.1| > 2.5) is 1.3 % for u.x ~ N(0, 1).
_KEEPS = "a larger one keeps about 1 % of the Gaussian points or fewer: too many candidates"
_N = ("samples",)  # what the size of hard_separable's points reads


@validate_params(samples=count(), margin=real(minimum=0.0, maximum=2.5, why=_KEEPS),
                 dimensions=fits(count(), lambda d, args: args["samples"] * d,
                                 "the points (samples={samples:,} x dimensions={value:,})", _N))
def hard_separable(samples: int = 20_000, dimensions: int = 785, margin: float = 0.1, *,
                   seed: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    r"""A hard linearly separable set: :math:`x \sim N(0, I_d)` in float32, labelled by a
    random unit plane :math:`u^\top x + 0.1`, keeping only :math:`|u^\top x + 0.1| > `
    ``margin``. With :math:`\|x\| \approx \sqrt d`, :math:`R^2/\gamma^2` is large: the
    perceptron needs about a hundred passes at the default size (the chapter's ``getfake``
    cannot draw it: its points must have norm below 3). Draws with
    ``numpy.random.default_rng(seed)``: ``seed=None`` is fresh randomness, an integer
    reproduces.

    Raises
    ------
    ValueError
        For a bad argument, or a ``margin`` above 2.5, which would keep about 1 % of the
        Gaussian points or fewer (the package's samplers give up after about 100 candidates per
        point).
    """
    rng = np.random.default_rng(seed)
    u = rng.normal(size=dimensions)
    u /= np.linalg.norm(u)
    X = np.empty((0, dimensions), dtype=np.float32)
    scores = np.empty(0)
    while X.shape[0] < samples:
        batch = rng.normal(size=(samples, dimensions)).astype(np.float32)
        s = batch @ u + 0.1
        keep = np.abs(s) > margin
        X, scores = np.vstack([X, batch[keep]]), np.concatenate([scores, s[keep]])
    return X[:samples], np.where(scores[:samples] > 0, 1.0, -1.0).astype(np.float32)


def _shard_counts(of: str) -> Rule:
    """Worker counts, each at most the examples of ``of`` (``samples``, or the rows of ``X``):
    every shard needs one (:func:`~..core.distributed.mixing.shard_count`'s rule for each)."""
    return Rule(lambda workers, name, args: [shard_count(of)(w, name, args) for w in
                                             _checks.counts(workers, name)], "counts() <= n", (of,))


@dataclass
class MixingBoundExperiment:
    """Theorem 3 of iterative parameter mixing against measured counts, one row per run.

    Every attribute is an array with one entry per run.

    Attributes
    ----------
    workers : ndarray of int
    seed : ndarray of int
    mixing : ndarray of str
    bound : ndarray
        :math:`R^2/\\gamma^2` with :math:`R = \\max \\|(x, 1)\\|` and :math:`\\gamma` the optimal
        margin of :math:`(w, b)` normalised together.
    mixed_mistakes : ndarray
        :math:`\\sum_n \\sum_i \\mu_{i,n} k_{i,n}` (what the theorem bounds).
    updates : ndarray of int
        All mistakes, :math:`\\sum_n \\sum_i k_{i,n}` (at most :math:`W R^2/\\gamma^2`).
    rounds : ndarray of int
        Rounds that made a mistake (weighted mixing: at most :math:`R^2/\\gamma^2`).
    """

    workers: np.ndarray
    seed: np.ndarray
    mixing: np.ndarray
    bound: np.ndarray
    mixed_mistakes: np.ndarray
    updates: np.ndarray
    rounds: np.ndarray

    @property
    def ratio(self) -> np.ndarray:
        """Measured :math:`\\sum \\mu k` over the bound (at most 1 when the theorem holds)."""
        return self.mixed_mistakes / self.bound


#: The arguments of the experiments that draw getfake data and cut it into shards (a margin
#: the planes can reach, checked before the first draw).
_DRAWS = dict(SAMPLE_RULES, epsilon=_REACHABLE, workers=_shard_counts("samples"))
_RECORD = ("dimensions", "workers")  # what the size of nonseparable_mixing's records reads


@validate_params(**_DRAWS, mixings=names(*MIXINGS), seed=count(minimum=0, maximum=_checks.SEED_MAX))
def mixing_bound_experiment(*, samples: int = 200, dimensions: int = 5, epsilon: float = 0.05,
                            workers=(1, 2, 4), mixings=MIXINGS, trials: int = 5, seed: int = 0,
                            progress: Progress | None = None) -> MixingBoundExperiment:
    """Run :func:`~gluon_perceptron.train_mixed` on ``trials`` getfake datasets (MXNet seeds
    ``seed, seed + 1, ...``, modulo 2**32) for every worker count and mixing, beside the
    bound."""
    workers, progress = as_counts(workers), as_progress(progress)
    draw = partial(sample_separable, samples, dimensions, epsilon)
    rows = []
    for t in track(range(seed, seed + trials), progress, desc="mixing bound"):
        s = t % (_checks.SEED_MAX + 1)
        mx.random.seed(s)
        fake = draw()
        X, Y = fake.X.asnumpy(), fake.Y.asnumpy()
        om = optimal_margin(X, Y)
        bound = om.radius ** 2 / om.gamma ** 2
        for w in workers:
            for m in mixings:
                r = train_mixed(X, Y, shards=w, max_epochs=None, mixing=m)
                rows.append((w, s, m, bound, r.mixed_mistakes, r.updates,
                             int(np.count_nonzero(r.updates_per_epoch))))
    cols = list(zip(*rows))
    return MixingBoundExperiment(
        workers=np.array(cols[0]), seed=np.array(cols[1]), mixing=np.array(cols[2]),
        bound=np.array(cols[3]), mixed_mistakes=np.array(cols[4]),
        updates=np.array(cols[5]), rounds=np.array(cols[6]))


@dataclass
class MixingSpeedup:
    """Mixing with W shards beside one perceptron, on one dataset.

    Attributes
    ----------
    method : list of str
        ``"train"`` or ``"<mixing> W=<W>"`` (``"... (cluster)"`` on the parameter server).
    workers : list of int
    passes : list of int
        Passes over the data (rounds; for mixing each worker passes over its shard only).
    updates : list of int
    converged : list of bool
    seconds : list of float
        Wall time: in one process the sum of the passes (the shards' passes one after
        another), on the cluster the whole call.
    pass_seconds, exchange_seconds, startup_seconds : list of float
        On the cluster: the slowest worker's local passes summed over rounds, its exchanges
        summed, and the start-up until every worker connected (0 in one process); in one
        process ``pass_seconds`` is the longest shard's passes summed: the time
        :math:`W` machines would need without exchange.
    """

    method: list = field(default_factory=list)
    workers: list = field(default_factory=list)
    passes: list = field(default_factory=list)
    updates: list = field(default_factory=list)
    converged: list = field(default_factory=list)
    seconds: list = field(default_factory=list)
    pass_seconds: list = field(default_factory=list)
    exchange_seconds: list = field(default_factory=list)
    startup_seconds: list = field(default_factory=list)

    def add(self, method, workers, result, seconds, pass_s, exchange_s=0.0, startup_s=0.0):
        """Append one row."""
        self.method.append(method)
        self.workers.append(int(workers))
        self.passes.append(result.epochs)
        self.updates.append(result.updates)
        self.converged.append(bool(result.converged))
        self.seconds.append(float(seconds))
        self.pass_seconds.append(float(pass_s))
        self.exchange_seconds.append(float(exchange_s))
        self.startup_seconds.append(float(startup_s))


@validate_params(workers=_shard_counts("X"), mixings=names(*MIXINGS), cluster=flag())
def mixing_speedup(X, Y, *, workers=(1, 2, 4), mixings=MIXINGS, max_epochs: int = 1000,
                   cluster: bool = False, timeout: float = 600.0,
                   progress: Progress | None = None) -> MixingSpeedup:
    """Passes and time to separate ``(X, Y)``: ``train``, then mixing for every ``workers``
    and ``mixings``, in one process (``cluster=False``) or on the parameter server."""
    from ..core.distributed.cluster_training import _train_distributed

    Xn = as_features(X)
    Yn, workers, progress = as_labels(Y, like=Xn), as_counts(workers), as_progress(progress)
    out = MixingSpeedup()
    w, b = np.zeros(Xn.shape[1], dtype=Xn.dtype), np.zeros(1, dtype=Xn.dtype)
    start = time.perf_counter()
    per_epoch = _fast_run(Xn, Yn, w, b, max_epochs, 1.0, 0.0)
    seconds = time.perf_counter() - start
    out.add("train", 1, train_result(w, b[0], per_epoch), seconds, seconds)
    for W in track(workers, progress, desc="workers"):
        for m in mixings:
            if cluster:
                start = time.perf_counter()
                r = _train_distributed([(Xn, Yn, max_epochs, m)], workers=W,
                                       timeout=timeout)[0]
                out.add(f"{m} W={W} (cluster)", W, r, time.perf_counter() - start,
                        r.pass_seconds.sum(axis=0).max(),
                        np.nansum(r.exchange_seconds, axis=0).max(), r.startup_seconds)
            else:
                r = train_mixed(Xn, Yn, shards=W, max_epochs=max_epochs, mixing=m)
                out.add(f"{m} W={W}", W, r, r.pass_seconds.sum(),
                        r.pass_seconds.sum(axis=0).max())
    return out


@dataclass
class NonseparableMixing:
    """Mixing on data no plane separates: training error of the mixed weights per round.

    Attributes
    ----------
    workers : list of int
    mixing : str
    error : ndarray, shape (len(workers), rounds)
        Fraction of training examples with :math:`y (w^\\top x + b) \\le 0` after each round.
    updates : ndarray, shape (len(workers), rounds)
        Mistakes made during each round (all shards).
    flipped : float
        Fraction of labels flipped in the data (the error a perfect plane would have).
    """

    workers: list
    mixing: str
    error: np.ndarray
    updates: np.ndarray
    flipped: float


@validate_params(**_DRAWS, flip=fraction(), rounds=fits(
    count(), lambda rounds, args: rounds * (args["dimensions"] + 1 + 2 * len(args["workers"])),
    "nonseparable_mixing's records (rounds={value:,} of (w, b), errors and counts)", _RECORD))
def nonseparable_mixing(*, samples: int = 400, dimensions: int = 2, epsilon: float = 0.1,
                        flip: float = 0.1, workers=(1, 2, 4, 8), mixing: str = "uniform",
                        rounds: int = 40, seed: int = 0,
                        progress: Progress | None = None) -> NonseparableMixing:
    """Train with mixing for ``rounds`` rounds on getfake data with a fraction ``flip`` of its
    labels flipped; record the training error of the mixed weights after every round."""
    workers, progress = as_counts(workers), as_progress(progress)
    noisy = getfake_noisy(samples, dimensions, epsilon, flip, seed=seed)
    X, Y = noisy.X.asnumpy(), noisy.Y.asnumpy()
    errors, updates = [], []
    for W in track(workers, progress, desc="workers"):
        r = train_mixed(X, Y, shards=W, max_epochs=rounds, mixing=mixing)
        path = r.history["weights"]
        errors.append(np.mean(Y[None, :] * (path[:, :-1] @ X.T + path[:, -1:]) <= 0, axis=1))
        updates.append(np.asarray(r.updates_per_epoch))
    return NonseparableMixing(workers=workers, mixing=mixing, error=np.array(errors),
                              updates=np.array(updates),
                              flipped=float(np.mean(noisy.flipped)))


@dataclass
class LatencyModel:
    r"""When mixing over a network pays, as the round trip grows: a model fed by measurements.

    One machine makes :math:`p_1` passes of :math:`P` seconds each. Mixing with :math:`W`
    workers makes :math:`r_W` rounds; each round costs the longest shard's pass
    (:math:`P / W`: a shard holds :math:`n / W` examples) and one exchange, :math:`e_0` on
    this machine plus :math:`k` network round trips of :math:`\tau` seconds (a push and a pull,
    each a request and its answer: :math:`k = 2`). So

    .. math::

        \text{speed-up}(P, \tau) = \frac{p_1 P}{r_W (P / W + e_0 + k \tau)},
        \qquad \tau^* = \frac{P (p_1 / r_W - 1 / W) - e_0}{k},

    and mixing pays while :math:`\tau < \tau^*` (never, when :math:`\tau^* \le 0`): the rounds
    times the round trips must stay below the pass time saved.

    Attributes
    ----------
    round_trips : ndarray
        :math:`\tau` (seconds), the x axis.
    pass_seconds : ndarray
        :math:`P`, one curve each: one machine's pass over the whole data.
    workers, passes_one, rounds : int
        :math:`W`, :math:`p_1`, :math:`r_W` (measured on the experiment's data).
    exchange_seconds, trips_per_round : float
        :math:`e_0`, :math:`k`.
    speedup : ndarray, shape (len(pass_seconds), len(round_trips))
    break_even : ndarray
        :math:`\tau^*` per curve (NaN where mixing never pays).
    """

    round_trips: np.ndarray
    pass_seconds: np.ndarray
    workers: int
    passes_one: int
    rounds: int
    exchange_seconds: float
    trips_per_round: float
    speedup: np.ndarray
    break_even: np.ndarray


#: ``workers`` of mixing_latency: a W >= 2 the speed-up experiment ran in process with ``mixing``.
_MEASURED = such_that(count(minimum=2), lambda workers, args: workers in [
    w for m, w in zip(args["speedup"].method, args["speedup"].workers)
    if m.startswith(args["mixing"]) and "cluster" not in m],
    "{name}={value}: the speed-up experiment has no in-process {args[mixing]} row with that many "
    "workers; run mixing_speedup with them", ("speedup", "mixing"))


@validate_params(speedup=instance(MixingSpeedup, "the result of mixing_speedup(X, Y)"),
                 pass_seconds=finite_values(strict=True),
                 workers=_MEASURED, exchange_seconds=real(minimum=0.0, maximum=60.0),
                 max_round_trip=real(positive=True, maximum=10.0),
                 trips_per_round=real(positive=True, maximum=100.0))
def mixing_latency(speedup: MixingSpeedup, *, exchange_seconds: float, workers: int = 4,
                   mixing: str = "uniform", pass_seconds=(1e-3, 1e-2, 1e-1, 1.0),
                   max_round_trip: float = 0.02, trips_per_round: float = 2.0
                   ) -> LatencyModel:
    """The model of :class:`LatencyModel` with the passes and rounds counted by ``speedup``
    (in one process) and ``exchange_seconds`` measured on this machine's cluster, for
    one-machine pass times ``pass_seconds`` and round trips up to ``max_round_trip`` s."""
    P, workers = as_values(pass_seconds), int(workers)
    first = speedup.method.index("train")
    row = next(i for i, (m, w) in enumerate(zip(speedup.method, speedup.workers))
               if w == workers and m.startswith(mixing) and "cluster" not in m)
    passes_one, rounds = speedup.passes[first], speedup.passes[row]
    share = 1.0 / workers
    tau = np.linspace(0.0, max_round_trip, 201)
    cost = rounds * (share * P[:, None] + exchange_seconds + trips_per_round * tau[None, :])
    gain = passes_one * P[:, None] / cost
    tau_star = (P * (passes_one / rounds - share) - exchange_seconds) / trips_per_round
    return LatencyModel(round_trips=tau, pass_seconds=P, workers=workers,
                        passes_one=passes_one, rounds=rounds,
                        exchange_seconds=float(exchange_seconds),
                        trips_per_round=float(trips_per_round), speedup=gain,
                        break_even=np.where(tau_star > 0, tau_star, np.nan))
