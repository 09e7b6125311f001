"""Many perceptron runs stepped together, one numpy computation per example for all of them.

Black & White's remedies (notebook 05) train the plain perceptron, Gallant's pocket, the
averaged perceptron, decaying steps and the projected perceptron on many draws at once;
:func:`lockstep_runs` gives each run exactly what its own trainer (``train_traced``,
``train_pocket``, ``train_averaged``, ``train_projected`` with ``record=True``) gives, bit for
bit, and falls back to those trainers where it cannot (data of different shapes, more than
:data:`_LOCKSTEP_MAX_P` coordinates, margins that leave the floats).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._arrays import _split
from ..fast.variants_fast import _lockstep_pass, _Pocket
from .engine import _use_compiled
from .pass_parts import _history, _project, _step_size
from .results import TrainResult, train_result
from .traced import train_traced
from .variants import train_averaged, train_pocket, train_projected


def lockstep_runs(train: list[tuple], epochs: list[int], *, keep: list[dict],
                   decay: np.ndarray, threshold: np.ndarray, radius: np.ndarray, orders: list,
                   progress=None) -> list[dict]:
    """Several perceptron runs from :math:`\\theta = 0`, stepped together one example a step.

    Run ``r`` is what :func:`train_traced` (step :math:`1/e^{\\text{decay}}` in pass
    :math:`e`, margin ``threshold``), ``train_pocket``, ``train_averaged`` or, with a finite
    ``radius[r]``, ``train_projected`` compute on ``train[r]`` with ``record=True`` for
    ``epochs[r]`` passes, visiting the examples in data order (``orders[r]`` None) or in
    ``default_rng(orders[r])``'s fresh order every pass. ``keep[r]`` names the results the run
    gives and what each returns after a pass: ``"running"`` (the weights themselves),
    ``"averaged"`` (their average over every step so far) or ``"pocket"`` (Gallant's pocket
    with ratchet); the pocket and the averaged perceptron watch the same plain run.

    Each trainer drives its own Python loop over the updates; here one numpy computation
    decides step ``t`` for every run at once and updates the runs that err (with numba, one
    compiled call per pass makes the same operations in the same order,
    :func:`~gluon_perceptron.core.fast.variants_fast._lockstep_pass`). A margin is summed
    left to right, :math:`(w_1 x_1 + w_2 x_2 + \\dots) + b`, as the compiled kernel does; the
    weights change by the trainers' own operations (``w += eta y x``, ``b += eta y``, the same
    projection, whose norm is the sum of squares left to right in both), and the pocket's
    ratchet is the fast ``train_pocket``'s own
    (:class:`~gluon_perceptron.core.fast.variants_fast._Pocket`), so the results are the trainers'
    bit for bit. (The pocket, averaged and projected trainers sum margins with BLAS, which can
    differ in the last bit: a decision could only differ for a margin within rounding of 0,
    never seen on these continuous draws; the tests compare with the trainers.)
    """
    R = len(train)
    Xs = [np.asarray(X, dtype=np.float64) for X, _ in train]
    Ys = [np.asarray(Y, dtype=np.float64) for _, Y in train]
    n, p = Xs[0].shape[0], Xs[0].shape[1] + 1
    if any(X.shape != Xs[0].shape for X in Xs) or p > _LOCKSTEP_MAX_P:
        return [_one_by_one(*args) for args in zip(train, epochs, keep, decay, threshold,
                                                       radius, orders)]
    # each example as a = (x, 1), so that theta = (w, b) moves by eta y a; runs along the
    # last axis, so that step t is one row per coordinate
    A = np.stack([np.hstack([X, np.ones((n, 1))]) for X in Xs])      # (R, n, p)
    Y = np.stack(Ys)                                                # (R, n)
    theta = np.zeros((p, R))
    rngs = [None if o is None else np.random.default_rng(o) for o in orders]
    projected = np.isfinite(radius)
    any_projected = bool(projected.any())
    ball = np.where(projected, radius, np.inf)
    pocket = np.array(["pocket" in k.values() for k in keep])
    rows = np.arange(R)[:, None]
    limit = np.asarray(epochs)
    # per pass: the running theta at its end, the averaged and the pocket predictor, updates
    ends, means, pockets, made_per_pass = [], [], [], []
    total = np.zeros((p, R))   # sum of theta after every step so far (the averaged predictor)
    steps = 0
    never = np.iinfo(np.int64).max
    ratchets = [_Pocket(X, Y, np.zeros(p)) for X, Y in zip(Xs, Ys)]  # the fast pocket's
    best_run = np.zeros(R, dtype=np.int64)  # each pocket's best_run
    due_after = np.where(pocket, 0, never)   # streak beyond which the ratchet is tried
    streak = np.zeros(R, dtype=np.int64)
    ptheta = np.zeros((p, R))
    active = np.ones(R, dtype=bool)
    passes = np.zeros(R, dtype=np.int64)
    margin, hit, step = np.empty(R), np.empty(R, dtype=bool), np.empty(R)
    bad = np.zeros(R, dtype=bool)
    compiled = _use_compiled()
    threshold = np.asarray(threshold, dtype=np.float64)
    errors = np.ones(R)  # each pocket's training error (the compiled pass's ratchets)
    passes_ahead = range(1, max(epochs) + 1)
    if progress is not None:  # a tqdm-like wrapper
        passes_ahead = progress(passes_ahead, desc="remedies")
    for e in passes_ahead:
        active &= passes < limit
        if not active.any():
            break
        eta = np.array([_step_size(1.0, e, float(d)) for d in decay])
        order = np.stack([np.arange(n) if g is None else g.permutation(n) for g in rngs])
        At = np.ascontiguousarray(A[rows, order].transpose(1, 2, 0))  # (n, p, R)
        Yt = np.ascontiguousarray(Y[rows, order].T)                    # (n, R)
        made = np.zeros(R, dtype=np.int64)
        psum = np.zeros((p, R))
        if compiled:  # the loop below, compiled: the same operations, run by run
            status = _lockstep_pass(At, Yt, A, Y, theta, eta, threshold, active, ball,
                                    projected, pocket, streak, due_after, best_run, errors,
                                    ptheta, psum, made)
            bad |= status > 0
        else:
            with np.errstate(over="ignore", invalid="ignore"):  # refused after the pass
                for t in range(n):
                    a, y = At[t], Yt[t]
                    np.multiply(a[0], theta[0], out=margin)
                    for j in range(1, p - 1):
                        margin += a[j] * theta[j]
                    margin += theta[-1]
                    margin *= y
                    np.greater(margin, threshold, out=hit)
                    bad |= margin == np.inf  # inf would count as correct; NaN is a hit
                    np.logical_not(hit, out=hit)
                    hit &= active
                    np.multiply(y, hit, out=step)  # y on a mistake, 0 elsewhere: theta + 0a
                    step *= eta
                    theta += a * step
                    made += hit
                    if any_projected:
                        _project_rows(theta, ball, hit)
                    streak += active
                    streak[hit] = 0
                    np.copyto(due_after, best_run, where=hit & pocket)  # new weights: not tried yet
                    due = streak > due_after
                    if due.any():
                        for r in np.flatnonzero(due):
                            due_after[r] = never  # one try per weights
                            ratchets[r].offer(theta[:, r])
                            ptheta[:, r], best_run[r] = ratchets[r].theta, ratchets[r].best_run
                    psum += theta
        if bad.any() or not np.isfinite(theta).all() or np.isnan(psum).any():
            # a margin or the weights left the floats: the trainers say where, with their error
            return [_one_by_one(*args) for args in zip(train, epochs, keep, decay, threshold,
                                                           radius, orders)]
        total = total + psum
        steps += n
        ends.append(theta.T.copy())
        means.append((total / steps).T)
        pockets.append(ptheta.T.copy())
        made_per_pass.append(np.where(active, made, -1))
        passes += active
        active &= made > 0
    out = []
    for r in range(R):
        counts = [int(m[r]) for m in made_per_pass if m[r] >= 0]
        k = len(counts)
        running = np.array([ends[e][r] for e in range(k)])
        kinds: dict[str, Any] = {  # the running weights, or how to build the others
            "running": running,
            "averaged": lambda r=r, k=k: np.array([means[e][r] for e in range(k)]),
            "pocket": lambda r=r, k=k: np.array([pockets[e][r] for e in range(k)])}
        out.append({name: _as_result(running if kind == "running" else kinds[kind](), running,
                                     counts, Xs[r], Ys[r])
                    for name, kind in keep[r].items()})
    return out


#: The largest :math:`d + 1` :func:`lockstep_runs` steps together (the projection's norm is
#: the sum of squares left to right, as ``_project`` computes it).
_LOCKSTEP_MAX_P = 8


def _project_rows(theta: np.ndarray, ball: np.ndarray, hit: np.ndarray) -> None:
    """``_project`` on every run (column of ``theta``) that ``hit`` updated: the sum of
    squares left to right, as numpy's dot of a short vector, then the same scaling."""
    squares = theta * theta
    sq = squares[0] + squares[1]
    for j in range(2, theta.shape[0]):
        sq += squares[j]
    norm = np.sqrt(sq)
    shrink = hit & (norm > ball)
    if shrink.any():
        cols = np.flatnonzero(shrink)
        if not np.isfinite(norm[cols]).all():  # the sum of squares overflowed: _project's way
            for r in cols:
                column = theta[:, r].copy()
                _project(column, ball[r])
                theta[:, r] = column
            return
        theta[:, cols] *= ball[cols] / norm[cols]


def _as_result(predictors: np.ndarray, running: np.ndarray, counts: list[int], X: np.ndarray,
               Y: np.ndarray) -> TrainResult:
    """The :class:`TrainResult` the trainers build with ``record=True``: per pass the norm of
    the running :math:`\\theta`, and the training error and weights of the predictor."""
    w, b = _split(predictors[-1])
    return train_result(w, b, counts, _history(X, Y, running, predictors, record=True))


def _one_by_one(train_xy: tuple, epochs: int, keep: dict, decay: float, threshold: float,
                radius: float, order_seed) -> dict:
    """What :func:`lockstep_runs` computes for one run, by the trainers themselves (for data
    of different shapes, or margins that leave the floats: the trainers raise on those)."""
    order = {} if order_seed is None else {"shuffle": True, "seed": order_seed}
    made = {}
    for name, kind in keep.items():
        if np.isfinite(radius):
            made[name] = train_projected(*train_xy, max_epochs=epochs, radius=float(radius),
                                         record=True, **order)
        elif kind == "running":
            made[name] = train_traced(*train_xy, max_epochs=epochs, record=True,
                                      decay=float(decay), threshold=float(threshold), **order)
        else:
            trainer = train_pocket if kind == "pocket" else train_averaged
            made[name] = trainer(*train_xy, max_epochs=epochs, record=True, **order)
    return made
