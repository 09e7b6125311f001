"""Checkers of notebook 14's exercises (the perceptron's family), re-exported by
:mod:`gluon_perceptron.experiments._exercise_checks`."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np

from ..core.beyond.passive import pa_tau
from ._exercise_checks import ExerciseCheck, _show, _verdict, takes_solution


def _pa_cases(rng: np.random.Generator) -> Iterator[tuple]:
    """(w, x, y, variant, C, what): a margin above 1 (passive), exactly 1, a mistake, the cap
    of PA-I active and not, PA-II, in integer-valued floats."""
    x = np.array([1.0, 2.0, -2.0])  # |x|^2 = 9
    yield np.array([1.0, 1.0, -1.0]), x, 1.0, "PA", 1.0, "margin 5 > 1: passive"
    yield np.array([1.0, 0.0, 0.0]), x, 1.0, "PA-I", 1.0, "margin exactly 1: loss 0"
    yield np.zeros(3), x, 1.0, "PA", 1.0, "w = 0, loss 1"
    yield np.zeros(3), x, -1.0, "PA-I", 0.05, "the cap C = 0.05 below loss / |x|^2 = 1/9"
    yield np.zeros(3), x, -1.0, "PA-I", 1.0, "the cap C = 1 above loss / |x|^2"
    yield np.array([0.0, -1.0, 0.0]), x, 1.0, "PA-II", 0.5, "loss 3, |x|^2 + 1/(2C) = 10"
    for _ in range(30):
        d = int(rng.integers(1, 6))
        w, x = rng.integers(-3, 4, size=d).astype(float), rng.integers(-3, 4, size=d).astype(float)
        if not x.any():
            x[0] = 1.0
        yield (w, x, float(rng.choice([-1.0, 1.0])), str(rng.choice(["PA", "PA-I", "PA-II"])),
               float(rng.choice([0.1, 1.0, 10.0])), "")


@takes_solution
def check_pa_step(solution: Callable) -> ExerciseCheck:
    """Check the reader's ``solution(w, x, y, variant, C) -> tau``, the passive-aggressive
    step size of ``variant`` ("PA", "PA-I" or "PA-II") at weights ``w`` (no bias), against
    :func:`gluon_perceptron.beyond.passive_aggressive`'s: 0 when the hinge loss
    :math:`\\max(0, 1 - y w^\\top x)` is 0, else :math:`\\ell / \\|x\\|^2`,
    :math:`\\min(C, \\ell / \\|x\\|^2)` or :math:`\\ell / (\\|x\\|^2 + 1/(2C))`."""
    def cases():
        for w, x, y, variant, C, what in _pa_cases(np.random.default_rng(14)):
            loss = max(0.0, 1.0 - y * float(w @ x))
            want = pa_tau(variant, loss, float(x @ x), C) if loss > 0 else 0.0
            yield ({"w": w, "x": x, "y": y, "variant": variant, "C": C, "_what": what},
                   _compare_tau(w, x, y, variant, C, want))

    def _compare_tau(w, x, y, variant, C, want):
        def compare():
            got = solution(w.copy(), x.copy(), y, variant, C)
            if got is None or not np.isclose(float(got), want, rtol=1e-9, atol=1e-12):
                return f"your tau is {got!r} where {variant}'s step is {want:g}"
            return None
        return compare

    return _verdict(cases(), "your step sizes agree with passive_aggressive's (passive "
                             "examples, the cap of PA-I and PA-II's softening included)")


def _vote_cases(rng: np.random.Generator) -> Iterator[tuple]:
    """(pairs, X, what): a tied vote, a weight vector that abstains (score 0), random lists."""
    yield [(np.array([1.0, 0.0]), 2), (np.array([-1.0, 0.0]), 2)], np.array([[1.0, 3.0]]), \
        "a tied vote: 2 - 2 = 0 predicts +1"
    yield [(np.array([0.0, 1.0]), 5), (np.array([-1.0, 0.0]), 1)], np.array([[2.0, 0.0]]), \
        "the first vector scores 0 and abstains"
    yield [(np.array([1.0, 1.0]), 1), (np.array([-1.0, 0.0]), 3)], np.array([[1.0, 1.0]]), \
        "the count decides, not the majority of vectors"
    for _ in range(30):
        d, k = int(rng.integers(1, 5)), int(rng.integers(1, 6))
        pairs = [(rng.integers(-3, 4, size=d).astype(float), int(rng.integers(0, 5)))
                 for _ in range(k)]
        yield pairs, rng.integers(-3, 4, size=(6, d)).astype(float), ""


@takes_solution
def check_vote(solution: Callable) -> ExerciseCheck:
    """Check the reader's ``solution(pairs, X) -> labels``: the voted perceptron's prediction
    :math:`\\operatorname{sign}(\\sum_k c_k \\operatorname{sign}(w_k^\\top x))` for each row of
    ``X`` from a list ``pairs`` of :math:`(w_k, c_k)`, labels in {-1, +1} with a tied vote
    (a sum of 0) predicting +1, as :func:`gluon_perceptron.beyond.predict_voted` does."""
    def cases():
        for pairs, X, what in _vote_cases(np.random.default_rng(41)):
            total = sum(c * np.sign(X @ w) for w, c in pairs)
            want = np.where(total >= 0, 1.0, -1.0)
            yield {"pairs": pairs, "X": X, "_what": what}, _compare_vote(pairs, X, want)

    def _compare_vote(pairs, X, want):
        def compare():
            got = solution([(w.copy(), c) for w, c in pairs], X.copy())
            got = None if got is None else np.asarray(got, dtype=np.float64).reshape(-1)
            if got is None or got.shape != want.shape or not np.array_equal(got, want):
                return f"your labels are {_show(got)} where the vote gives {_show(want)}"
            return None
        return compare

    return _verdict(cases(), "your vote agrees with predict_voted (ties and abstaining "
                             "vectors included)")
