"""The fast twins of core/fast/ against the readable loops, bit for bit (issue 28, item 2).

- ``train_kernel(engine="fast")`` (:func:`~gluon_perceptron.core.fast.beyond_fast._gram_passes`)
  against its body's NDArray loop (``engine="faithful"``): the two sum :math:`f(x_j)` in
  different orders, so the data here make every sum exact (small integers, rates that are
  powers of 2), where the same decisions must give the same bits.
- ``cone_perceptron``'s scan-ahead twin
  (:func:`~gluon_perceptron.core.fast.beyond_fast._cone_passes`) against its readable loop,
  alone and inside ``rescaled_perceptron`` and ``perceptron_separation``.
- ``relaxation_method``'s twin (:func:`~gluon_perceptron.core.fast.relaxation_fast._relaxation`)
  against its body's loop, for every rule.

Each on ties, shuffles, float32 input and overflow where it can happen. The family's twins
(passive-aggressive, voted, ALMA) are held to their loops in
``tests/core/fast/test_family_fast.py``.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import gluon_perceptron as gp
from gluon_perceptron.core.beyond import solvers
from gluon_perceptron.core.beyond.solvers import perceptron_separation
from gluon_perceptron.core.fast import beyond_fast, relaxation_fast
from gluon_perceptron.core.rosenblatt import engine as pass_engine
from gluon_perceptron.core.rosenblatt.engine import _use_compiled
from gluon_perceptron.core.theory import relaxation
from gluon_perceptron.core.theory.relaxation import wedge_system


def _same(a, b) -> None:
    """Two results of one dataclass, field for field, arrays bit for bit."""
    for field in dataclasses.fields(a):
        x, y = getattr(a, field.name), getattr(b, field.name)
        if isinstance(x, np.ndarray):
            assert x.dtype == y.dtype and np.array_equal(x, y), field.name
        elif isinstance(x, dict):
            assert x.keys() == y.keys(), field.name
            for key in x:
                assert np.array_equal(np.asarray(x[key]), np.asarray(y[key])), (field.name, key)
        elif field.name != "kernel":
            assert x == y, field.name


# --- the kernel perceptron ---------------------------------------------------------------------

def _integer_data(seed: int, n: int = 40, d: int = 3):
    """Small integer features and random labels: every kernel value and score is an exact
    integer (linear, poly), and ties y f(x) = 0 are frequent."""
    rng = np.random.default_rng(seed)
    X = rng.integers(-2, 3, size=(n, d)).astype(np.float64)
    Y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    return X, Y


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("kernel", ["linear", "poly"])
def test_kernel_twin_is_the_loop_bit_for_bit(seed, kernel):
    X, Y = _integer_data(seed)
    kw = dict(max_epochs=6, kernel=kernel, degree=2, gamma=1.0, coef0=1.0,
              learning_rate=[1.0, 0.5, 2.0, 0.25][seed], bias=seed % 2 == 0)
    fast = gp.beyond.train_kernel(X, Y, **kw)
    loop = gp.beyond.train_kernel(X, Y, engine="faithful", **kw)
    _same(fast, loop)
    assert fast.updates > 0


def test_kernel_twin_on_ties_shuffles_and_float32():
    """A tie is an update in both (from alpha = 0 every first score is 0); shuffled rows and
    float32 input (computed in float64) keep the two equal."""
    X, Y = _integer_data(7, n=30)
    rng = np.random.default_rng(3)
    for rows in (np.arange(30), rng.permutation(30)):
        for Xs in (X[rows], X[rows].astype(np.float32)):
            fast = gp.beyond.train_kernel(Xs, Y[rows], max_epochs=5)
            loop = gp.beyond.train_kernel(Xs, Y[rows], max_epochs=5, engine="faithful")
            _same(fast, loop)
            assert fast.updates_per_epoch[0] >= 1  # the first example is a tie: an update


@pytest.mark.parametrize("kernel", ["linear", "poly"])
def test_kernel_twin_refuses_overflow_as_the_loop_does(kernel):
    X, Y = _integer_data(2, n=12)
    messages = []
    for engine in ("fast", "faithful"):
        with pytest.raises(ValueError, match="overflowed") as info:
            gp.beyond.train_kernel(X * 1e160, Y, max_epochs=3, kernel=kernel, degree=3,
                                   engine=engine)
        messages.append(str(info.value))
    assert messages[0] == messages[1]


# --- the cone perceptron (perceptron_separation, rescaled_perceptron) --------------------------

def _cone_cases():
    for seed, gamma in enumerate((0.2, 0.05, 0.01)):
        A = gp.beyond.separation_problem(80, 2, gamma, seed=seed).A
        yield A, 100_000
        yield A[np.random.default_rng(seed).permutation(A.shape[0])], 100_000  # shuffled
        yield A, 7  # the budget stops it after the first pass that reaches 7 updates
    rng = np.random.default_rng(11)
    ties = rng.integers(-1, 2, size=(40, 3)).astype(np.float64)  # integer margins: ties
    yield ties[np.any(ties != 0, axis=1)], 300  # not separable: the budget ends it
    yield gp.beyond.separation_problem(50, 3, 0.1, seed=4).A.astype(np.float32), 100_000


@pytest.mark.parametrize("backend", ["compiled", "numpy"])
@pytest.mark.parametrize("case", range(11))
def test_cone_twin_is_the_loop_bit_for_bit(case, backend, monkeypatch):
    """Both twins: the compiled loop (with numba) and the numpy scan-ahead."""
    if backend == "compiled" and not _use_compiled():
        pytest.skip("numba is not installed")
    monkeypatch.setattr(pass_engine, "FAST_BACKEND", backend)
    A, budget = list(_cone_cases())[case]
    got = []
    for run in (lambda c: beyond_fast._cone_passes(A, budget, c),
                lambda c: solvers.cone_perceptron(A, budget, c, fast=False)):
        counts = np.zeros(A.shape[0])
        w, updates, solved = run(counts)
        got.append((w, updates, solved, counts))
    (w1, u1, s1, c1), (w2, u2, s2, c2) = got
    assert w1.dtype == w2.dtype and np.array_equal(w1, w2)
    assert (u1, s1) == (u2, s2) and np.array_equal(c1, c2)
    assert u1 == c1.sum() > 0


@pytest.mark.parametrize("seed", range(3))
def test_separation_solvers_with_the_readable_cone_loop(seed, monkeypatch):
    """``rescaled_perceptron`` and ``perceptron_separation`` give the same bits when their
    perceptron phases run the readable loop instead of the twin."""
    A = gp.beyond.separation_problem(60, 2, [0.01, 0.005, 0.003][seed], seed=seed).A
    runs = {}
    for fast in (True, False):
        if not fast:
            monkeypatch.setattr(solvers, "_cone_passes", lambda A, m, counts=None:
                                solvers.cone_perceptron(A, m, counts, fast=False))
        runs[fast] = (gp.beyond.rescaled_perceptron(A, max_iterations=20_000, phase=8),
                      perceptron_separation(A, max_iterations=20_000))
    for twin, loop in zip(runs[True], runs[False]):
        _same(twin, loop)
    assert runs[True][0].rescalings > 0  # the phases were short enough to stretch the space


# --- the relaxation method -----------------------------------------------------------------

def _systems():
    rng = np.random.default_rng(5)
    X = rng.normal(size=(60, 3))
    Y = np.where(X @ np.array([1.0, -2.0, 0.5]) > 0.2, 1.0, -1.0)
    yield "separable", *gp.theory.perceptron_system(X, Y), {"max_iterations": 3_000}
    Yn = np.where(rng.random(60) < 0.5, 1.0, -1.0)
    yield "infeasible", *gp.theory.perceptron_system(X, Yn), {"max_iterations": 1_234}
    Xi = rng.integers(-2, 3, size=(30, 2)).astype(np.float64)  # integer residuals: ties at 0
    Yi = np.where(Xi[:, 0] + Xi[:, 1] >= 0, 1.0, -1.0)
    yield "ties", *gp.theory.perceptron_system(Xi, Yi, margin=1.0), {"tol": 0.0,
                                                                      "max_iterations": 3_000}
    yield "wedge", *wedge_system(0.05), {"tol": 0.0, "max_iterations": 2_000,
                                                    "w0": np.array([4.0, 1.0])}
    A, c = gp.theory.perceptron_system(X, Y)
    yield "float32", A.astype(np.float32), c.astype(np.float32), {"max_iterations": 3_000}


@pytest.mark.parametrize("rule", relaxation.RULES)
@pytest.mark.parametrize("eta", [0.7, 2.0])
def test_relaxation_twin_is_the_loop_bit_for_bit(rule, eta, monkeypatch):
    for name, A, c, extra in _systems():
        kw = dict(eta=eta, rule=rule, seed=9, record=True, **extra)
        twin = gp.theory.relaxation_method(A, c, **kw) if rule in relaxation._TWIN_RULES \
            else None
        with monkeypatch.context() as m:
            m.setattr(relaxation, "_TWIN_RULES", ())  # every rule through the readable loop
            loop = gp.theory.relaxation_method(A, c, **kw)
        # the twin runs every rule (the greedy ones by its own loop) with the same bits
        w, t, moves, history = relaxation_fast._relaxation(
            np.asarray(A, dtype=np.float64), np.asarray(c, dtype=np.float64), eta, rule,
            extra.get("w0"), extra.get("max_iterations", 100_000), extra.get("tol", 1e-9), 9,
            True)
        assert np.array_equal(w, loop.w) and (t, moves) == (loop.iterations, loop.moves), name
        for key in history:
            assert np.array_equal(np.asarray(history[key]), np.asarray(loop.history[key])), key
        if twin is not None:
            _same(twin, loop)
        assert loop.moves > 0, name


@pytest.mark.parametrize("rule", ["cyclic", "permuted", "max_distance"])
def test_relaxation_twin_without_the_gram_matrix(rule, monkeypatch):
    """Above GRAM_LIMIT both update the residuals with A^T a_i instead of the Gram row."""
    A, c = next(_systems())[1:3]
    monkeypatch.setattr(relaxation, "GRAM_LIMIT", 0)
    monkeypatch.setattr(relaxation_fast, "GRAM_LIMIT", 0)
    kw = dict(rule=rule, seed=1, record=True, max_iterations=3_000)
    twin = gp.theory.relaxation_method(A, c, **kw)
    monkeypatch.setattr(relaxation, "_TWIN_RULES", ())
    loop = gp.theory.relaxation_method(A, c, **kw)
    w, t, moves, _ = relaxation_fast._relaxation(A, c, 1.0, rule, None, 3_000, 1e-9, 1, False)
    _same(twin, loop)
    assert np.array_equal(w, loop.w) and (t, moves) == (loop.iterations, loop.moves)


@pytest.mark.skipif(not _use_compiled(), reason="numba is not installed")
@pytest.mark.parametrize("rule", relaxation.RULES)
@pytest.mark.parametrize("eta", [0.7, 1.0, 2.0])
def test_compiled_relaxation_is_the_loop_bit_for_bit(rule, eta, monkeypatch):
    """Without ``record`` the twin runs compiled (``_compiled_moves``), every rule, the greedy
    ones included; on "0 or not 0" too, where the exact residuals are recomputed every n
    moves and the blind rules draw many blocks."""
    split = gp.data.digits_split(seed=0)
    digits = (*gp.theory.perceptron_system(split.X_train, gp.data.one_vs_rest(split.y_train, 0)),
              {"max_iterations": 4_000})
    calls = []
    compiled = relaxation_fast._compiled_run
    monkeypatch.setattr(relaxation_fast, "_compiled_run",
                        lambda *a: calls.append(a[6]) or compiled(*a))
    for name, A, c, extra in [*_systems(), ("digits", *digits)]:
        kw = dict(eta=eta, rule=rule, seed=9, **extra)
        twin = gp.theory.relaxation_method(A, c, **kw)
        with monkeypatch.context() as m:
            m.setattr(relaxation, "_TWIN_RULES", ())  # every rule through the readable loop
            loop = gp.theory.relaxation_method(A, c, **kw)
        _same(twin, loop)
        assert loop.moves > 0, name
    assert calls == [rule] * 6  # every system ran compiled


def test_runs_on_one_system_share_its_gram_matrix():
    """compare_rules computes A^T A once (core/fast/relaxation._shared_gram) and its table is
    the separate runs', bit for bit."""
    name, A, c, extra = next(_systems())
    At = np.ascontiguousarray(A.T)
    with relaxation_fast._shared_gram(A):
        shared = relaxation_fast._gram(At)
        assert relaxation_fast._gram(At.copy()) is shared  # equal entries: the same matrix
        assert relaxation_fast._gram(At[:, ::-1].copy()) is not shared  # another system
    assert not relaxation_fast._SHARED and np.array_equal(relaxation_fast._gram(At), At @ At.T)
    table = gp.experiments.compare_rules(A, c, max_iterations=2_000, seed=3)
    for (rule, eta), run in table.items():
        _same(run, gp.theory.relaxation_method(A, c, eta=eta, rule=rule, max_iterations=2_000,
                                               seed=3))
