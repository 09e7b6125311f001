r"""Iterative parameter mixing: the perceptron on shards, averaged after every pass.

McDonald, Hall & Mann (2010), "Distributed Training Strategies for the Structured Perceptron"
(NAACL), Figure 3. The data is cut into :math:`S` shards. Round :math:`n` starts every shard from
the same mixed weights :math:`\theta^{(n-1)} = (w, b)` (zero at first); shard :math:`i` makes
one perceptron pass over its examples, in order, ending at :math:`\theta_i` after
:math:`k_{i,n}` mistakes; the new weights are the convex combination

.. math:: \theta^{(n)} = \sum_{i=1}^{S} \mu_{i,n}\, \theta_i, \qquad
          \mu_{i,n} = \frac{1}{S} \ \text{(uniform)} \quad\text{or}\quad
          \mu_{i,n} = \frac{k_{i,n}}{\sum_j k_{j,n}} \ \text{(weighted by mistakes)}.

Rounds repeat until one makes no mistake on any shard (then :math:`\theta^{(n-1)}` separates
all the data and is kept as it is) or ``max_epochs`` rounds are done.

**The bound** (their Theorem 3): if some unit :math:`u` has :math:`y_i \langle u, (x_i, 1)
\rangle \ge \gamma > 0` and :math:`\|(x_i, 1)\| \le R`, then for every :math:`N`

.. math:: \sum_{n=1}^{N} \sum_{i=1}^{S} \mu_{i,n}\, k_{i,n} \le \frac{R^2}{\gamma^2}.

With uniform mixing the left side is the total number of mistakes over :math:`S`, so at most
:math:`S R^2/\gamma^2` mistakes; with weighted mixing each round with mistakes adds
:math:`\sum_i k_{i,n}^2 / \sum_i k_{i,n} \ge 1`, so at most :math:`R^2/\gamma^2` rounds make
mistakes. One shard is the perceptron itself, and the bound is Novikoff's.

Exactness: one round is :func:`mixing_round`, which both :func:`train_mixed` and the
distributed workers run (through the one loop :func:`_run_rounds`): a shard's pass is
:func:`~gluon_perceptron.core.fast.training_fast.fast_pass`, one pass of ``train``'s fast
engine, and the mixture is summed in shard order in the data's dtype. So
``train_mixed(shards=1)`` equals ``train`` bit for bit, and a distributed run with :math:`W`
workers equals ``train_mixed(shards=W)`` bit for bit.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from .. import _checks
from .._convert import as_features, as_labels, as_vector
from .._validation import (
    Rule,
    count,
    features,
    function,
    labels,
    optional,
    user_code,
    validate_params,
)
from ..fast.training_fast import fast_pass
from ..rosenblatt.results import TrainResult, train_result
from .shards import check_shards, open_shard


@dataclass
class DistributedResult(TrainResult):
    """A :class:`~gluon_perceptron.TrainResult` with what every shard did in every round.

    ``updates_per_epoch[n]`` is the total of mistakes of round ``n`` over all shards; with one
    shard it is exactly ``train``'s list. In one process, ``history["weights"]`` holds the
    mixed :math:`(w, b)` after every round, shape (rounds, d + 1).

    Attributes
    ----------
    workers : int
        Shards (one per worker, shard ``i`` on the worker of rank ``i``).
    mixing : str
        ``"uniform"`` or ``"weighted"``.
    shard_updates : ndarray, shape (rounds, workers)
        :math:`k_{i,n}`: mistakes of shard ``i`` in round ``n``.
    mixing_weights : ndarray, shape (rounds, workers)
        :math:`\\mu_{i,n}` (zeros in a round without mistakes, where nothing is mixed).
    pass_seconds : ndarray, shape (rounds, workers)
        Wall time of each shard's local pass.
    exchange_seconds : ndarray, shape (rounds, workers)
        Wall time of each worker's push and pull (zeros in one process).
    startup_seconds : float
        From the launch to the last worker connected to the cluster (0 in one process).
    wall_seconds : float
        The whole call, start-up and shutdown included.
    ranks : dict
        Launch index of a worker -> the rank the scheduler gave it (empty in one process).
    logs : dict
        Role -> log file (empty in one process or when the logs were not kept).
    pids : dict
        Role -> PID of every process the run started (all stopped when the call returns).
    """

    workers: int = 1
    mixing: str = "uniform"
    shard_updates: np.ndarray = field(default_factory=lambda: np.zeros((0, 1), np.int64))
    mixing_weights: np.ndarray = field(default_factory=lambda: np.zeros((0, 1)))
    pass_seconds: np.ndarray = field(default_factory=lambda: np.zeros((0, 1)))
    exchange_seconds: np.ndarray = field(default_factory=lambda: np.zeros((0, 1)))
    startup_seconds: float = 0.0
    wall_seconds: float = 0.0
    ranks: dict = field(default_factory=dict)
    logs: dict = field(default_factory=dict)
    pids: dict = field(default_factory=dict)

    @property
    def mixed_mistakes(self) -> float:
        r""":math:`\sum_n \sum_i \mu_{i,n} k_{i,n}`, the quantity Theorem 3 bounds by
        :math:`R^2/\gamma^2`."""
        k = self.shard_updates.astype(float)
        return float(np.sum(self.mixing_weights * k))


# --- the rules of the arguments (checked once, at the public edge) ----------------------------

def shard_count(of: str) -> Rule:
    """The rule of a number of shards (or workers): an integer in ``1 .. n``, ``n`` the rows
    of the argument ``of`` (an array, or that integer itself)."""
    def check(value, name, args):
        n = args[of] if isinstance(args[of], int) else args[of].shape[0]
        if (value := count()(value, name, args)) > n:
            raise ValueError(f"{name}={value:,} but there are only {n:,} examples: every shard "
                             f"needs at least one; use {name} <= {n:,}")
        return value
    return Rule(check, f"count() <= rows of {of}", (of,))


def _mixed_labels(Y, name: str, args: dict):
    """``Y``: labels of ``X`` when both are given; else passed on (the ``shards`` rule says
    what is missing, or that files and ``X, Y`` were both given)."""
    return Y if args["X"] is None or Y is None else labels(of="X")(Y, name, args)


#: ``X, Y`` of the mixing trainers: in memory, or None when ``shards`` names files.
DATA = dict(X=optional(features()), Y=Rule(_mixed_labels, "labels(of='X') or None", ("X",)))


def data_or_files(trainer: str, number: bool) -> Rule:
    """The rule of a mixing trainer's ``shards``: file pairs without ``X, Y``, checked by their
    headers (:func:`.shards.check_shards`; the body opens or describes them); or, with ``X, Y``,
    a number of shards ``1 .. n`` (``number``: ``train_mixed``) or None (``train_distributed``,
    whose ``workers`` cut the data)."""
    memory = "X, Y with shards=<a number>" if number else "X, Y (in memory)"
    files = "shards=[(features, labels), ...] of files"

    def check(shards, name, args):
        given = [args[v] is not None for v in ("X", "Y")]
        if isinstance(shards, (list, tuple, str, os.PathLike)) or not (number or shards is None):
            if any(given):
                raise ValueError(f"{trainer} takes either {memory} or {files}, not both; drop X, Y")
            check_shards(shards, name)  # a path, a number (train_distributed): a named error
            return shards
        if not all(given):
            raise ValueError(f"{trainer} needs the data: {memory}, or {files}")
        return shard_count("X")(shards, name, args) if number else None
    return Rule(check, f"{'count() <= n' if number else 'None'} with X, Y; or file pairs",
                ("X", "Y"))


def _require_separable(Xn: np.ndarray, Yn: np.ndarray, what: str = "the data") -> None:
    """Refuse ``max_epochs=None`` on rows no hyperplane separates (the separability LP)."""
    from ..theory.separability import _separating_point, _signed_rows

    if _separating_point(_signed_rows(Xn, Yn, True), "train_mixed") is None:
        raise ValueError(f"max_epochs=None runs until a round makes no mistake, which never "
                         f"happens here: {what} is not linearly separable; pass "
                         f"max_epochs=<a number of rounds>")


def _all_rows(X, Y, shards) -> tuple[np.ndarray, np.ndarray, str]:
    """``X, Y`` and their name for :func:`_require_separable`; without ``X``, the rows of every
    shard file, opened and concatenated."""
    if X is not None:
        return X, Y, "the data"
    parts = _open_files(shards)
    return (np.concatenate([Xs for Xs, _ in parts]), np.concatenate([Ys for _, Ys in parts]),
            "the shards' data")


def rounds(read_files: bool) -> Rule:
    """The rule of the mixing trainers' ``max_epochs`` (declared after the cheap rules): a
    count, or None on separable rows only (the LP) of ``X, Y``, or of the shard files when
    ``read_files`` (``train_mixed``); a cluster's files, whose rows this process never reads,
    pass None on: each worker checks its own shard."""
    def check(max_epochs, name, args):
        if max_epochs is None and (args["X"] is not None or read_files):
            _require_separable(*_all_rows(args["X"], args["Y"], args["shards"]))
        return optional(count())(max_epochs, name, args)
    return Rule(check, "optional(count()), None on separable data only", ("X", "Y", "shards"))


# --- the algorithm -----------------------------------------------------------------------------

@validate_params(n=count(), shards=shard_count("n"))
def shard_bounds(n: int, shards: int) -> list[tuple[int, int]]:
    """Contiguous shards of ``n`` examples in data order, as ``(start, stop)``; the first
    ``n % shards`` shards hold one example more (as ``np.array_split``). Every shard holds at
    least one example: ``1 <= shards <= n``."""
    n, shards = int(n), int(shards)
    sizes = [n // shards + (i < n % shards) for i in range(shards)]
    stops = np.cumsum(sizes)
    return [(int(s - size), int(s)) for s, size in zip(stops, sizes)]


def _round_shards(shards, name: str, args: dict) -> list[tuple[np.ndarray, np.ndarray]]:
    """``shards`` of :func:`mixing_round`: a non-empty list of ``(X_i, Y_i)`` pairs, each
    ``features`` and their ``labels``, of one width and one float dtype."""
    if not isinstance(shards, (list, tuple)) or not shards or not all(
            isinstance(pair, (list, tuple)) and len(pair) == 2 for pair in shards):
        raise TypeError(f"{name} must be a non-empty list of (X_i, Y_i) pairs, one per shard, "
                        f"got {type(shards).__name__} {shards!r:.40}")
    pairs = [(_checks.features(Xs, f"{name}[{i}][0]"), Ys) for i, (Xs, Ys) in enumerate(shards)]
    for i, (Xs, Ys) in enumerate(pairs):
        _checks.labels(Ys, Xs.shape[0], f"{name}[{i}][1]", dtype=Xs.dtype, of=f"{name}[{i}][0]")
        if (Xs.shape[1], Xs.dtype) != (pairs[0][0].shape[1], pairs[0][0].dtype):
            raise ValueError(f"{name}[{i}] has {Xs.shape[1]} {Xs.dtype} features but {name}[0] "
                             f"has {pairs[0][0].shape[1]} {pairs[0][0].dtype}: every shard "
                             f"holds examples of one width and one dtype")
    return pairs


def _round_theta(theta, name: str, args: dict) -> np.ndarray:
    """``theta`` of :func:`mixing_round`: ``(w, b)``, one entry per feature and one for the
    bias (the body converts it to the shards' dtype)."""
    return _checks.vector(theta, name, size=args["shards"][0][0].shape[1] + 1)


def _round_arrays(theta, shards) -> tuple[np.ndarray, list]:
    """``theta`` and ``shards`` as the fast pass takes them: C-contiguous features, their
    labels and ``theta`` in the features' dtype (no copy of what is so already)."""
    pairs = [(np.ascontiguousarray(as_features(Xs)), Ys) for Xs, Ys in shards]
    pairs = [(Xs, np.ascontiguousarray(as_labels(Ys, like=Xs))) for Xs, Ys in pairs]
    return as_vector(theta, like=pairs[0][0]), pairs


@validate_params(shards=Rule(_round_shards, "(X_i, Y_i) pairs"),
                 theta=Rule(_round_theta, "vector(columns of shards + 1)", ("shards",)),
                 exchange=optional(function("exchange(rows) -> every shard's row, in order")))
def mixing_round(theta, shards, *, mixing: str = "uniform", learning_rate: float = 1.0,
                 exchange: Callable[[np.ndarray], np.ndarray] | None = None) -> tuple:
    r"""One round of iterative parameter mixing (McDonald, Hall & Mann 2010, Figure 3).

    Every shard :math:`i` makes one perceptron pass (``train``'s fast pass, in data order)
    from the mixed :math:`\theta^{(n-1)} = (w, b)`, ending at :math:`\theta_i` after
    :math:`k_{i,n}` mistakes; the new weights are

    .. math:: \theta^{(n)} = \sum_{i=1}^{S} \mu_{i,n}\, \theta_i, \qquad
              \mu_{i,n} = \frac{1}{S} \ \text{(uniform)} \quad\text{or}\quad
              \frac{k_{i,n}}{\sum_j k_{j,n}} \ \text{(weighted)},

    summed in shard order in the data's dtype (so every process holding the same rows gets the
    same bits); a round without a mistake keeps :math:`\theta`. :func:`train_mixed` and every
    worker of ``train_distributed`` repeat this round until it makes no mistake.

    Parameters
    ----------
    theta : array-like, shape (d + 1,)
        The mixed weights :math:`(w, b)` the round starts from (zeros in the first round).
    shards : list of (X_i, Y_i)
        The shards this process holds: all of them in one process, its own in a cluster.
    mixing : {"uniform", "weighted"}
    learning_rate : float
        :math:`\eta > 0` of each local pass.
    exchange : callable, optional
        In a cluster, ``exchange(rows)`` (the parameter server's push and pull) returns every
        shard's row in rank order.

    Returns
    -------
    rows : ndarray, shape (S, d + 3)
        One row per shard: :math:`(w_i, b_i, k_{i,n}, \text{seconds of its pass})`.
    theta : ndarray or None
        The mixed :math:`\theta^{(n)}`; None when no shard made a mistake.
    mu, k : ndarray
        The mixing weights (zeros without a mistake) and the mistakes per shard.
    """
    theta, shards = _round_arrays(theta, shards)
    local = []
    for Xs, Ys in shards:  # every shard: one perceptron pass from the same mixed theta
        w, b = theta[:-1].copy(), theta[-1:].copy()
        start = time.perf_counter()
        k_i = fast_pass(Xs, Ys, w, b, float(learning_rate), 0.0)  # train's pass: w, b in place
        seconds = time.perf_counter() - start
        local.append(np.concatenate([w, b, np.array([k_i, seconds], dtype=Xs.dtype)]))
    exchange = user_code(exchange, "exchange")  # a user's exchange runs checked
    rows = np.stack(local) if exchange is None else exchange(np.stack(local))
    k = rows[:, -2].astype(np.int64)
    if k.sum() == 0:  # no mistake on any shard: theta separates them all, nothing to mix
        return rows, None, np.zeros(len(k)), k
    mu = np.full(len(k), 1.0 / len(k)) if mixing == "uniform" else k / k.sum()
    theta = rows.dtype.type(mu[0]) * rows[0, :-2]
    for i in range(1, len(k)):  # the mixture, in shard order, in the data's dtype
        theta += rows.dtype.type(mu[i]) * rows[i, :-2]
    return rows, theta, mu, k


class _Rounds:
    """What the rounds did, appended round by round, then turned into a result."""

    def __init__(self, d: int, dtype):
        self.theta = np.zeros(d + 1, dtype=dtype)
        self.k: list[np.ndarray] = []
        self.mu: list[np.ndarray] = []
        self.passes: list[np.ndarray] = []
        self.exchanges: list[np.ndarray] = []  # none in one process: zeros
        self.thetas: list[np.ndarray] = []

    def add(self, rows: np.ndarray, theta: np.ndarray | None, mu: np.ndarray,
            k: np.ndarray) -> None:
        """Record one round (``theta`` None: no mistake, the weights are kept)."""
        if theta is not None:
            self.theta = theta
        self.k.append(k)
        self.mu.append(mu)
        self.passes.append(rows[:, -1].astype(np.float64))
        self.thetas.append(self.theta)

    def result(self, mixing: str, **extra) -> DistributedResult:
        k = np.array(self.k, dtype=np.int64)
        history = {"weights": np.array(self.thetas)} if self.thetas else {}
        exchanges = np.array(self.exchanges) if self.exchanges else np.zeros(k.shape)
        base = train_result(self.theta[:-1].copy(), self.theta[-1], k.sum(axis=1), history)
        return DistributedResult(**vars(base), workers=k.shape[1], mixing=mixing,
                                 shard_updates=k, mixing_weights=np.array(self.mu),
                                 pass_seconds=np.array(self.passes),
                                 exchange_seconds=exchanges, **extra)


def _run_rounds(shards: list, max_epochs: int | None, mixing: str, learning_rate: float,
                exchange: Callable[[np.ndarray], np.ndarray] | None = None) -> _Rounds:
    """Rounds of :func:`mixing_round` until one makes no mistake or ``max_epochs`` are done:
    the loop of :func:`train_mixed` and of every distributed worker. Both run it trusted (the
    body of ``train_mixed``; a worker's :func:`~.worker.run`): ``mixing_round`` checks nothing
    here, its shards were checked where they entered."""
    rec = _Rounds(shards[0][0].shape[1], shards[0][0].dtype)
    while max_epochs is None or len(rec.k) < max_epochs:  # the round budget
        rows, theta, mu, k = mixing_round(rec.theta, shards, mixing=mixing,
                                          learning_rate=learning_rate, exchange=exchange)
        rec.add(rows, theta, mu, k)
        if theta is None:  # a round without a mistake
            break
    return rec


@validate_params(**DATA, shards=data_or_files("train_mixed", number=True),
                 max_epochs=rounds(read_files=True))
def train_mixed(X=None, Y=None, *, shards, max_epochs: int | None = None,
                mixing: str = "uniform", learning_rate: float = 1.0) -> DistributedResult:
    r"""Iterative parameter mixing in one process: the algorithm of ``train_distributed``.

    The data (in order) is cut into ``shards`` contiguous shards; every round each shard makes
    one perceptron pass from the mixed weights, then the weights are mixed (see the module
    docstring for the rule and its bound :math:`\sum_n \sum_i \mu_{i,n} k_{i,n} \le
    R^2/\gamma^2`, McDonald, Hall & Mann 2010, Theorem 3).

    Parameters
    ----------
    X : array-like or NDArray, shape (n, d)
    Y : array-like or NDArray, shape (n,), labels in {-1, +1}
    shards : int or list of (features, labels)
        :math:`S \ge 1`, at most ``n``. ``shards=1`` is ``train`` (bit for bit). Or, without
        ``X, Y``, one pair of files per shard (``.npy``, IDX or ``numpy.memmap``, see
        :mod:`.shards`): each file pair is one shard, in the order given, so the result equals
        the in-memory run on the concatenated rows whenever the files hold the blocks of
        :func:`shard_bounds`. This one process reads every shard.
    max_epochs : int, optional
        Bound on the rounds (one pass per shard each). None runs to convergence and is
        allowed only on linearly separable data (checked first by a linear program, on all
        the shards' rows).
    mixing : {"uniform", "weighted"}
        :math:`\mu_{i,n} = 1/S`, or proportional to the shard's mistakes in the round.
    learning_rate : float
        :math:`\eta > 0` of each local pass.

    Returns
    -------
    DistributedResult
        ``converged`` when the last round made no mistake on any shard.
    """
    start = time.perf_counter()
    parts = _shard_rows(X, Y, shards)  # (X_i, Y_i) per shard: blocks of X, Y, or files opened
    rec = _run_rounds(parts, max_epochs, mixing, learning_rate)
    return rec.result(mixing, wall_seconds=time.perf_counter() - start)


def _open_files(shards) -> list[tuple[np.ndarray, np.ndarray]]:
    """Every ``(features, labels)`` file pair of ``shards`` opened as ``(X_i, Y_i)``, its values
    checked and named by the shard's index (:func:`.shards.open_shard`)."""
    return [open_shard(shard, i) for i, shard in enumerate(check_shards(shards)[0])]


def _shard_rows(X, Y, shards) -> list[tuple[np.ndarray, np.ndarray]]:
    """The rows of :func:`train_mixed`'s shards: ``X, Y`` cut into ``shards`` contiguous blocks
    (:func:`shard_bounds`), or, without ``X, Y``, the file pairs of ``shards`` opened."""
    if X is None:
        return _open_files(shards)
    X = as_features(X)
    Y = as_labels(Y, like=X)
    return [(np.ascontiguousarray(X[a:b]), np.ascontiguousarray(Y[a:b]))
            for a, b in shard_bounds(X.shape[0], shards)]


def encode_rows(rows: np.ndarray) -> np.ndarray:
    """Rows of float32/float64 as float32 holding their 16-bit pieces (integers 0..65535).

    A ``dist_sync`` server sums what the workers push; each worker pushes its own row and
    zeros elsewhere, and an integer below :math:`2^{24}` plus zeros is exact in float32, so
    the pulled array decodes (:func:`decode_rows`) to exactly the bits that were pushed,
    whatever the server's dtype handling, and -0.0 and all.
    """
    rows = np.ascontiguousarray(rows)
    return rows.view(np.uint16).astype(np.float32)


def decode_rows(pieces: np.ndarray, dtype) -> np.ndarray:
    """Inverse of :func:`encode_rows`."""
    return np.ascontiguousarray(np.rint(pieces).astype(np.uint16)).view(dtype)
