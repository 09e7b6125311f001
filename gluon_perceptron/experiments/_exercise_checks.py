"""The exercise checkers behind :mod:`gluon_perceptron.experiments.exercises`.

Every checker takes the reader's function (``solution``), runs it on many cases against the
package's own implementation (or the exact answer), and returns an :class:`ExerciseCheck`.
The cases are fixed (seeded), so a check gives the same verdict every time; each checker
builds its cases so that the edge the exercise is about (the tie :math:`y f(x) = 0`, a score
of exactly 0, a shard without mistakes, ...) is hit exactly, in integer-valued floats.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from mxnet import autograd, nd

from ..core._convert import as_scalar, as_vector
from ..core._validation import Rule, one_of, scalar, such_that, unchecked, validate_params, vector


@dataclass(frozen=True)
class ExerciseCheck:
    """The verdict of an exercise checker; ``str`` and ``repr`` are :attr:`message`.

    Attributes
    ----------
    passed : bool
        True when the reader's function agreed with the reference on every case.
    message : str
        One sentence: what was checked, or what differs on the smallest failing case, which it
        shows whole (every argument as Python reads it back) and names a tie where it is one.
    cases : int
        How many cases were run (all of them: a failing check still runs every case, to name
        the smallest that fails).
    failing_case : dict or None
        The inputs of the smallest failing case (None when it passed).
    failures : int
        How many cases failed.
    """

    passed: bool
    message: str
    cases: int
    failing_case: dict | None = field(default=None, compare=False)
    failures: int = 0

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:
        return self.message

    def __bool__(self) -> bool:
        return self.passed


#: The rule of the reader's function: any callable, called later with the checker's cases.
YOUR_FUNCTION: Rule = such_that(unchecked, lambda value, _: callable(value), "{name} must be "
                                "your function (a callable), got {value.__class__.__name__}; "
                                "pass the function itself, without calling it", error=TypeError)

#: The one declaration of the checkers that take only the reader's function: ``solution`` is
#: checked, and runs untrusted (``skip_nested=False``): what it calls of the package is checked
#: as a user's call is.
takes_solution: Callable = validate_params(solution=YOUR_FUNCTION, skip_nested=False)


def _literal(value: Any) -> str:
    """A number or nested list as Python reads it back: floats by ``repr`` (exact)."""
    if isinstance(value, list):
        return "[" + ", ".join(_literal(v) for v in value) + "]"
    if isinstance(value, float):
        return repr(value)
    return repr(value)


def _show(value: Any) -> str:
    """A case's value, whole and on one line, as Python reads it back: an array as its nested
    list (never elided), a float by ``repr``."""
    if isinstance(value, nd.NDArray):
        value = value.asnumpy()
    if isinstance(value, np.ndarray):
        return _literal(value.tolist())
    if isinstance(value, (float, np.floating)):
        return repr(float(value))
    if isinstance(value, np.integer):
        return repr(int(value))
    if isinstance(value, (list, tuple)):  # e.g. the voted perceptron's [(w_k, c_k), ...]
        inner = ", ".join(_show(v) for v in value)
        if isinstance(value, list):
            return f"[{inner}]"
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    return repr(value)


def _describe(case: dict) -> str:
    return ", ".join(f"{k}={_show(v)}" for k, v in case.items() if not k.startswith("_"))


def _size(case: dict) -> int:
    """How big a case is: the numbers in its arrays, and an integer argument by its value (the
    number of steps of a sequence)."""
    total = 0
    for key, value in case.items():
        if key.startswith("_"):
            continue
        if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
            total += abs(int(value))
        else:
            total += _numbers(value)
    return total


def _numbers(value) -> int:
    """How many numbers ``value`` holds: an array's size, summed over a list or tuple (the
    voted perceptron's pairs ``(w, c)`` are ragged, which numpy refuses to size)."""
    if isinstance(value, (list, tuple)):
        return sum(_numbers(v) for v in value)
    return int(value.size if isinstance(value, (np.ndarray, nd.NDArray)) else np.size(value))


def _verdict(cases: Iterable[tuple[dict, Callable[[], str | None]]], passed: str
             ) -> ExerciseCheck:
    """Run every ``(case, compare)`` pair; ``compare()`` returns None when the reader's
    function agrees on the case, else what differs. The check fails when any case differs, and
    its sentence rebuilds the smallest failing case (the first of the smallest), whole."""
    count = 0
    failures: list[tuple[int, dict, str]] = []
    for case, compare in cases:
        count += 1
        try:
            difference = compare()
        except Exception as exc:  # the reader's code may raise anything
            difference = f"your function raised {type(exc).__name__}: {exc}"
        if difference is not None:
            failures.append((count, case, difference))
    if not failures:
        return ExerciseCheck(True, f"passed: {passed} on {count} cases.", count, None)
    number, case, difference = min(failures, key=lambda f: _size(f[1]))
    where = case.get("_what")
    where = f", {where}" if where else ""
    return ExerciseCheck(False, f"failed on {len(failures)} of {count} cases, the smallest "
                                f"case {number} ({_describe(case)}{where}): {difference}.",
                         count, case, len(failures))


def _same(a, b, tol: float = 1e-6) -> bool:
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    return a.shape == b.shape and bool(np.allclose(a, b, rtol=tol, atol=tol))


def _integer_vectors(rng: np.random.Generator, d: int, low: int = -3, high: int = 4
                     ) -> np.ndarray:
    return rng.integers(low, high, size=d).astype(np.float64)


# --- notebook 01: recover an affine function ---------------------------------------------------

@takes_solution
def check_recover_affine(solution: Callable) -> ExerciseCheck:
    """Check ``solution(f, d) -> (w, b)``, which recovers an affine :math:`f(x) = w^\\top x + b`
    on :math:`\\mathbb{R}^d` from :math:`d + 1` evaluations: :math:`b = f(0)` and
    :math:`w_i = f(e_i) - f(0)` (Exercise 1.14 of the notes).

    The cases run :math:`d = 1, \\dots, 6` with zero, integer and real weights and biases; a
    solution that calls ``f`` more than :math:`d + 1` times fails too.
    """
    def cases() -> Iterator:
        rng = np.random.default_rng(114)
        for d in range(1, 7):
            for kind in ("zero", "integer", "real", "no bias"):
                w = (np.zeros(d) if kind == "zero" else _integer_vectors(rng, d)
                     if kind == "integer" else np.round(rng.normal(size=d), 3))
                b = 0.0 if kind == "no bias" else round(float(rng.normal()), 3)
                yield {"d": d, "w": w, "b": b}, _compare(w, b, d)

    def _compare(w, b, d):
        def compare():
            calls = []

            def f(x):
                x = np.asarray(x, dtype=np.float64)
                if x.shape != (d,):
                    raise ValueError(f"f takes a vector of {d} numbers, got shape {x.shape}")
                calls.append(x)
                return float(w @ x + b)
            got = solution(f, d)
            if not isinstance(got, tuple) or len(got) != 2:
                return f"your function returned {_show(got)}, not a pair (w, b)"
            gw, gb = got
            if not _same(np.reshape(np.asarray(gw, dtype=np.float64), -1), w):
                return f"your w is {_show(np.asarray(gw))} where f has w = {_show(w)}"
            if not _same(np.reshape(np.asarray(gb, dtype=np.float64), -1), [b]):
                return f"your b is {_show(gb)} where f has b = f(0) = {_show(b)}"
            if len(calls) > d + 1:
                return f"your function called f {len(calls)} times; d + 1 = {d + 1} " \
                       f"(f(0) and f(e_i)) are enough"
            return None
        return compare

    return _verdict(cases(), "your (w, b) is f's, from at most d + 1 calls of f,")


# --- notebook 02: the chapter's step -----------------------------------------------------------

def _step_cases(rng: np.random.Generator) -> Iterator[tuple]:
    """(w, b, x, y, what) for the step: zero weights (every margin a tie), exact ties with
    nonzero weights, mistakes and correct points, in integer-valued float32."""
    for d in (1, 2, 3, 5):
        for y in (1.0, -1.0):
            x = _integer_vectors(rng, d)
            yield np.zeros(d), 0.0, x, y, "w = 0, b = 0: a tie"
            w = _integer_vectors(rng, d)
            x = _integer_vectors(rng, d)
            yield w, -float(w @ x), x, y, "a tie y f(x) = 0 with w != 0"
            for _ in range(6):
                w, x = _integer_vectors(rng, d), _integer_vectors(rng, d)
                b = float(rng.integers(-3, 4))
                margin = y * (w @ x + b)
                what = ("a tie y f(x) = 0" if margin == 0 else "a mistake" if margin < 0
                        else "a correct point")
                yield w, b, x, y, what


@takes_solution
def check_step(solution: Callable) -> ExerciseCheck:
    """Check the chapter's step written by the reader, ``solution(w, b, x, y) -> 0 or 1``,
    against :func:`gluon_perceptron.perceptron`.

    The step must update the NDArrays ``w`` (shape (d,)) and ``b`` (shape (1,)) in place,
    :math:`w \\mathrel{+}= y x`, :math:`b \\mathrel{+}= y`, when :math:`y (w^\\top x + b) \\le
    0` (the tie included) and return 1, else leave them and return 0. The cases include zero
    weights, exact ties with nonzero weights, mistakes and correct points, for d = 1 to 5.
    """
    from ..core.chapter.perceptron_step import perceptron

    def cases() -> Iterator:
        for w, b, x, y, what in _step_cases(np.random.default_rng(2)):
            yield {"w": w, "b": b, "x": x, "y": y, "_what": what}, _compare(w, b, x, y)

    def _compare(w, b, x, y):
        def compare():
            rw, rb = nd.array(w), nd.array([b])
            ref = perceptron(rw, rb, nd.array(x), y)
            uw, ub = nd.array(w), nd.array([b])
            got = solution(uw, ub, nd.array(x), y)
            if got is None or int(got) != ref:
                return f"your step returned {got!r} where gp.perceptron returns {ref} " \
                       f"({'it updates' if ref else 'no update'})"
            if not _same(uw.asnumpy(), rw.asnumpy()):
                return f"your w is {_show(uw)} after the step, gp.perceptron's is {_show(rw)}" \
                       + (" (w must be changed in place)" if _same(uw.asnumpy(), w) else "")
            if not _same(ub.asnumpy(), rb.asnumpy()):
                return f"your b is {_show(ub)} after the step, gp.perceptron's is {_show(rb)}" \
                       + (" (b must be changed in place)" if _same(ub.asnumpy(), [b]) else "")
            return None
        return compare

    return _verdict(cases(), "your step agrees with gp.perceptron (updates, w, b, ties "
                             "included)")


# --- notebook 04: subgradients by hand vs autograd ---------------------------------------------

def _autograd_subgradient(w: np.ndarray, b: float, x: np.ndarray, y: float, loss: str
                          ) -> tuple[np.ndarray, np.ndarray]:
    from ..core.gradient.losses import hinge_loss, perceptron_loss
    fn = perceptron_loss if loss == "perceptron" else hinge_loss
    wn, bn = nd.array(w, dtype="float64"), nd.array([b], dtype="float64")
    wn.attach_grad()
    bn.attach_grad()
    with autograd.record():
        value = fn(wn, bn, nd.array(x, dtype="float64"), y)
    value.backward()
    return wn.grad.asnumpy() + 0.0, bn.grad.asnumpy() + 0.0


@validate_params(solution=YOUR_FUNCTION, loss=one_of("perceptron", "hinge"), skip_nested=False)
def check_subgradient(solution: Callable, loss: str = "perceptron") -> ExerciseCheck:
    """Check a subgradient written by hand, ``solution(w, b, x, y) -> (grad_w, grad_b)``, against
    MXNet's autograd on :func:`gluon_perceptron.perceptron_loss` (``loss="perceptron"``,
    :math:`\\max(0, -y f(x))`) or :func:`gluon_perceptron.hinge_loss` (``loss="hinge"``,
    :math:`\\max(0, 1 - y f(x))`).

    ``w`` and ``x`` are float64 numpy vectors, ``b`` a float and ``y`` -1 or +1; the gradient
    is :math:`(-y x, -y)` where :math:`y f(x) \\le \\delta` (:math:`\\delta` = 0 or 1, the
    kink included, as the perceptron updates there) and 0 elsewhere. The cases sit at the kink
    exactly, just either side of it, and far from it.
    """
    kink = 0.0 if loss == "perceptron" else 1.0

    def cases() -> Iterator:
        rng = np.random.default_rng(4)
        for d in (1, 2, 3, 5):
            for y in (1.0, -1.0):
                yield from _at(np.zeros(d), 0.0, _integer_vectors(rng, d), y, "w = 0, b = 0")
                for offset, what in ((0.0, "at the kink"), (0.5, "just above the kink"),
                                     (-0.5, "just below the kink"), (3.0, "far above"),
                                     (-3.0, "far below")):
                    w, x = _integer_vectors(rng, d), _integer_vectors(rng, d)
                    # y (w.x + b) = kink + offset, exactly: b = y (kink + offset) - w.x
                    b = y * (kink + offset) - float(w @ x)
                    yield from _at(w, b, x, y, what)

    def _at(w, b, x, y, what):
        margin = y * (w @ x + b)
        if margin == kink and "kink" not in what:
            what += " (at the kink)"
        what = f"{what}, y f(x) = {margin:g}"
        yield {"w": w, "b": b, "x": x, "y": y, "_what": what}, _compare(w, b, x, y)

    def _compare(w, b, x, y):
        def compare():
            gw, gb = _autograd_subgradient(w, b, x, y, loss)
            got = solution(w.copy(), b, x.copy(), y)
            if not isinstance(got, tuple) or len(got) != 2:
                return f"your function returned {_show(got)}, not a pair (grad_w, grad_b)"
            uw = np.reshape(np.asarray(got[0], dtype=np.float64), -1)
            ub = np.reshape(np.asarray(got[1], dtype=np.float64), -1)
            if not _same(uw, gw):
                return f"your gradient in w is {_show(uw)} where autograd on " \
                       f"gp.{loss}_loss gives {_show(gw)}"
            if not _same(ub, gb):
                return f"your gradient in b is {_show(ub)} where autograd on " \
                       f"gp.{loss}_loss gives {_show(gb)}"
            return None
        return compare

    return _verdict(cases(), f"your subgradient agrees with autograd on gp.{loss}_loss, at, "
                             f"around and far from the kink y f(x) = {kink:g},")


# --- notebook 05: the aggressive perceptron errs at every step (notes 1.20) ---------------------

@takes_solution
def check_aggressive_sequence(solution: Callable) -> ExerciseCheck:
    """Check ``solution(steps) -> (X, Y)``, a linearly separable sequence of ``steps`` examples
    on which the aggressive perceptron (an update on every example, ``run_online`` of
    ``gluon_perceptron.core.rosenblatt.traced`` with ``rule="aggressive"``, from zero) errs at
    every step (Exercise 1.20 of the notes).

    Run for ``steps`` from 1 to 200; separability is decided by
    :func:`gluon_perceptron.theory.is_separable`.
    """
    from ..core.rosenblatt.traced import run_online
    from ..core.theory.separability import is_separable

    def cases() -> Iterator:
        for steps in (1, 2, 3, 4, 5, 8, 9, 16, 17, 33, 64, 100, 200):
            yield {"steps": steps}, _compare(steps)

    def _compare(steps):
        def compare():
            got = solution(steps)
            if not isinstance(got, tuple) or len(got) != 2:
                return f"your function returned {_show(got)}, not a pair (X, Y)"
            X = np.asarray(got[0], dtype=np.float64)
            Y = np.reshape(np.asarray(got[1], dtype=np.float64), -1)
            if X.ndim != 2 or X.shape[0] != steps or Y.shape != (steps,):
                return f"your X has shape {X.shape} and Y {Y.shape}; expected {steps} rows " \
                       f"and {steps} labels"
            if not np.all(np.isin(Y, (-1.0, 1.0))) or not np.all(np.isfinite(X)):
                return "your labels must be -1 or +1 and your X finite"
            if not is_separable(X, Y):
                return "your sequence is not linearly separable (gp.theory.is_separable)"
            run = run_online(X, Y, rule="aggressive")
            right = np.flatnonzero(~run.mistakes)
            if right.size:
                t = int(right[0])
                return f"the aggressive perceptron is right at step t = {t + 1} " \
                       f"(margin {run.margins[t]:.3g} > 0)"
            return None
        return compare

    return _verdict(cases(), "your sequences are separable and the aggressive perceptron errs "
                             "at every step,")


# --- notebook 06: the padded run is the bias run -----------------------------------------------

def _run_ties(X: np.ndarray, Y: np.ndarray, max_epochs: int) -> str:
    """How many of the run's updates (gp.train's, with bias) are at a tie y f(x) = 0, in words:
    the first update from w = 0, b = 0 always is."""
    from ..core.rosenblatt.traced import update_path
    path = update_path(X, Y, max_epochs=max_epochs)
    theta, k = path.thetas[:-1], path.examples
    ties = int(np.sum(Y[k] * (np.sum(X[k] * theta[:, :-1], axis=1) + theta[:, -1]) == 0))
    return f"{ties} of the run's {k.size} update{'s' if k.size != 1 else ''} at a tie " \
           f"y f(x) = 0"



def _datasets(rng: np.random.Generator) -> Iterator[tuple[np.ndarray, np.ndarray, str]]:
    """Small datasets in integer-valued floats (exact arithmetic: ties are real ties):
    separable, with duplicates and conflicting points, XOR, one feature."""
    from ..core.data.synthetic import xor_data
    for d in (1, 2, 3, 5):
        for n in (1, 4, 12, 30):
            X = rng.integers(-4, 5, size=(n, d)).astype(np.float64)
            w, b = _integer_vectors(rng, d), float(rng.integers(-2, 3))
            Y = np.where(X @ w + b > 0, 1.0, -1.0)
            yield X, Y, "separable"
    X = rng.integers(-3, 4, size=(10, 2)).astype(np.float64)
    yield np.vstack([X, X]), np.concatenate([np.ones(10), -np.ones(10)]), "conflicting copies"
    Xx, Yx = xor_data()
    yield np.asarray(Xx, dtype=np.float64), np.asarray(Yx, dtype=np.float64), "XOR"


@takes_solution
def check_padded_run(solution: Callable) -> ExerciseCheck:
    """Check ``solution(X, Y, max_epochs) -> (w, b)``: the perceptron *without* bias on the
    padded examples :math:`(x_i, 1)`, split into the first :math:`d` weights and the last. It
    must equal the perceptron with bias, :func:`gluon_perceptron.train`, on the same data: the
    same updates, so the same :math:`(w, b)`.

    Cases: separable data in d = 1 to 5, copies of a point with both labels, XOR (a run that
    stops at ``max_epochs``), in integer-valued floats, so that ties are exact.
    """
    from ..core.rosenblatt.training import train

    def cases() -> Iterator:
        for X, Y, what in _datasets(np.random.default_rng(6)):
            for max_epochs in (1, 3, 50):
                yield ({"X": X, "Y": Y, "max_epochs": max_epochs,
                        "_what": f"{what}, {_run_ties(X, Y, max_epochs)}"},
                       _compare(X, Y, max_epochs))

    def _compare(X, Y, max_epochs):
        def compare():
            ref = train(X, Y, max_epochs=max_epochs)
            got = solution(X.copy(), Y.copy(), max_epochs)
            if not isinstance(got, tuple) or len(got) != 2:
                return f"your function returned {_show(got)}, not a pair (w, b)"
            uw = np.reshape(np.asarray(got[0], dtype=np.float64), -1)
            ub = np.reshape(np.asarray(got[1], dtype=np.float64), -1)
            if not _same(uw, ref.w):
                return f"your w is {_show(uw)} where gp.train's is {_show(ref.w)}"
            if not _same(ub, [ref.b]):
                return f"your b is {_show(ub)} where gp.train's is {_show(ref.b)}"
            return None
        return compare

    return _verdict(cases(), "your padded run without bias ends at gp.train's (w, b)")


# --- notebook 07: leave-one-out through the set I ----------------------------------------------

def _held_out_ties(X: np.ndarray, Y: np.ndarray, max_epochs: int) -> list[int]:
    """The examples of I on which the run without them ends at a tie y f(x) = 0: held out,
    each is a leave-one-out mistake (the perceptron counts a tie as one)."""
    from ..core.rosenblatt.traced import update_path
    from ..core.rosenblatt.training import train
    ties = []
    for i in np.unique(update_path(X, Y, max_epochs=max_epochs).examples):
        keep = np.arange(len(X)) != i
        run = train(X[keep], Y[keep], max_epochs=max_epochs)
        if Y[i] * (X[i] @ run.w + run.b) == 0:
            ties.append(int(i))
    return ties


def _loo_cases(rng: np.random.Generator) -> Iterator[tuple[np.ndarray, np.ndarray, str]]:
    """The leave-one-out checker's data: the small separable sets of :func:`_datasets`, then
    sets on which a held-out example ends at a tie y f(x) = 0 (a mistake), the smallest
    first."""
    for X, Y, what in _datasets(rng):
        if what == "separable" and X.shape[0] >= 2:
            yield X, Y, what
    yield np.array([[1.0], [-2.0], [-1.0]]), np.array([1.0, -1.0, -1.0]), "separable"
    found = 0
    for _ in range(400):  # about one small set in four has a held-out tie
        d, n = int(rng.integers(1, 3)), int(rng.integers(3, 7))
        X = rng.integers(-3, 4, size=(n, d)).astype(np.float64)
        w, b = _integer_vectors(rng, d), float(rng.integers(-2, 3))
        Y = np.where(X @ w + b > 0, 1.0, -1.0)
        if _held_out_ties(X, Y, 1000):
            yield X, Y, "separable"
            found += 1
            if found == 8:
                return


@takes_solution
def check_leave_one_out(solution: Callable) -> ExerciseCheck:
    """Check ``solution(X, Y, max_epochs) -> (errors, support)``: the leave-one-out mistakes of
    the perceptron with bias trained to convergence, and :math:`|I|`, the number of distinct
    examples the full run updated on, against
    :func:`gluon_perceptron.experiments.leave_one_out` (whose ``errors <= support``: an example
    outside :math:`I` is never a leave-one-out mistake).

    Cases: separable data in d = 1 to 5 with 2 to 30 points, integer-valued (exact ties), and
    small sets on which a held-out example ends at a tie :math:`y f(x) = 0`, which counts as a
    mistake (the perceptron updates there), starting with ``X = [[1], [-2], [-1]]``,
    ``Y = [1, -1, -1]``.
    """
    from .optimality import leave_one_out

    def cases() -> Iterator:
        for X, Y, what in _loo_cases(np.random.default_rng(7)):
            ties = _held_out_ties(X, Y, 1000)
            if ties:
                what += (f", held out, example {ties[0]} ends at a tie y f(x) = 0 (a mistake)"
                         if len(ties) == 1 else
                         f", held out, examples {ties} end at a tie y f(x) = 0 (mistakes)")
            yield {"X": X, "Y": Y, "_what": what}, _compare(X, Y)

    def _compare(X, Y):
        def compare():
            ref = leave_one_out(X, Y, max_epochs=1000)
            got = solution(X.copy(), Y.copy(), 1000)
            if not isinstance(got, tuple) or len(got) != 2:
                return f"your function returned {_show(got)}, not a pair (errors, support)"
            errors, support = got
            if int(support) != ref.support:
                return f"your |I| is {support} where the run updated on {ref.support} " \
                       f"distinct examples"
            if int(errors) != ref.errors:
                return f"you count {errors} leave-one-out mistakes where " \
                       f"gp.experiments.leave_one_out counts {ref.errors}"
            return None
        return compare

    return _verdict(cases(), "your leave-one-out mistakes and |I| agree with "
                             "gp.experiments.leave_one_out, held-out ties included,")


# --- notebook 08: NAND and NOR ----------------------------------------------------------------

@validate_params(name=one_of("AND", "OR", "NAND", "NOR"), b=scalar(), w=such_that(
    vector(), lambda w, _: w.size == 2, "{name} must hold 2 weights (one per input), got {value}"))
def check_gate(name: str, w, b: float) -> ExerciseCheck:
    """Check weights ``w`` (2 numbers) and bias ``b`` for a Boolean gate on :math:`\\pm 1`
    inputs: :math:`w^\\top x + b > 0` exactly where the gate is true, and never 0 (a score of
    0 is neither true nor false). ``name``: ``"AND"``, ``"OR"``, ``"NAND"`` or ``"NOR"``.
    """
    from ..core.theory.expressivity import BOOLEAN_FUNCTIONS, boolean_inputs
    w, b = as_vector(w).astype(np.float64), as_scalar(b)
    truth = BOOLEAN_FUNCTIONS[name.removeprefix("N")]
    sign = -1.0 if name.startswith("N") else 1.0

    def cases() -> Iterator:
        for x in boolean_inputs(2):
            yield {"x": x}, _compare(x)

    def _compare(x):
        def compare():
            score = float(w @ x + b)
            want = sign * truth(x)
            if score == 0.0:
                return "the score w.x + b is 0, neither true nor false"
            if np.sign(score) != want:
                return f"the score w.x + b is {score:g}, {'true' if score > 0 else 'false'}, " \
                       f"where {name} is {'true' if want > 0 else 'false'}"
            return None
        return compare

    return _verdict(cases(), f"w = {_show(w)}, b = {b:g} computes {name} (no score is 0)")


# --- notebook 09: the accuracy of a random guess -----------------------------------------------

@takes_solution
def check_random_guess(solution: Callable) -> ExerciseCheck:
    """Check ``solution(p) -> accuracy``: the expected accuracy of a guess that says +1 with
    probability :math:`p`, on data whose fraction of +1 labels is :math:`p`,
    :math:`p^2 + (1 - p)^2`, against the ``class_frequencies`` baseline of
    :func:`gluon_perceptron.experiments.baselines`. Cases: :math:`p = k/n` for
    :math:`n \\le 20`, 0 and 1 included.
    """
    from .digits import baselines

    def cases() -> Iterator:
        seen = set()
        for n in range(1, 21):
            for k in range(n + 1):
                if k / n in seen:
                    continue
                seen.add(k / n)
                Y = np.where(np.arange(n) < k, 1.0, -1.0)
                yield {"p": k / n}, _compare(k / n, Y)

    def _compare(p, Y):
        def compare():
            ref = baselines(Y, Y).class_frequencies
            got = solution(p)
            if not _same(np.asarray(got, dtype=np.float64).reshape(-1), [ref], 1e-9):
                return f"your accuracy is {_show(got)} where the class-frequency guess " \
                       f"scores {ref:g}"
            return None
        return compare

    return _verdict(cases(), "your accuracy is the class-frequency guess's, p**2 + (1 - p)**2,")


# --- notebook 10: one-vs-all prediction --------------------------------------------------------

@takes_solution
def check_one_vs_all(solution: Callable) -> ExerciseCheck:
    """Check ``solution(W, b, X) -> classes``: the one-vs-all prediction
    :math:`\\operatorname{argmax}_k w_k^\\top x + b_k` for each row of ``X`` (``W`` of shape
    (c, d), ``b`` (c,)), as class indices 0 .. c - 1, a tie going to the smallest index, as
    :func:`gluon_perceptron.rosenblatt.predict_multiclass` does. Integer-valued scores make
    ties frequent.
    """
    def cases() -> Iterator:
        rng = np.random.default_rng(10)
        for c in (2, 3, 10):
            for d in (1, 2, 4):
                W = rng.integers(-2, 3, size=(c, d)).astype(np.float64)
                b = rng.integers(-2, 3, size=c).astype(np.float64)
                X = rng.integers(-2, 3, size=(15, d)).astype(np.float64)
                yield {"W": W, "b": b, "X": X}, _compare(W, b, X)

    def _compare(W, b, X):
        def compare():
            scores = X @ W.T + b
            ref = np.argmax(scores, axis=1)
            got = np.reshape(np.asarray(solution(W.copy(), b.copy(), X.copy())), -1)
            if got.shape != ref.shape:
                return f"your function returned {got.size} classes for {X.shape[0]} rows"
            wrong = np.flatnonzero(got != ref)
            if wrong.size:
                i = int(wrong[0])
                tie = np.sum(scores[i] == scores[i].max()) > 1
                return f"row {i} (scores {_show(scores[i])}) gets class {got[i]} where the " \
                       f"rule gives {ref[i]}" + (" (a tie goes to the smallest class)"
                                                 if tie else "")
            return None
        return compare

    return _verdict(cases(), "your one-vs-all predictions agree, ties to the smallest class,")


# --- notebook 11: the perceptron for A^T w > 0, and one relaxation step ------------------------

@takes_solution
def check_inequality_solver(solution: Callable) -> ExerciseCheck:
    """Check ``solution(A) -> w`` with :math:`A^\\top w > 0` (every column :math:`a_i` of ``A``
    has :math:`a_i^\\top w > 0`), the perceptron for homogeneous inequalities (Exercise 1.22 of
    the notes). Every system has a solution: the columns are
    :math:`a_i = y_i (x_i, 1)` of separable data
    (:func:`gluon_perceptron.theory.perceptron_system`) or integer columns on one side of a
    hyperplane through 0; one column, one row and repeated columns included.
    """
    from ..core.theory.relaxation import perceptron_system

    def cases() -> Iterator:
        rng = np.random.default_rng(122)
        for X, Y, what in _datasets(rng):
            if what == "separable":
                A, _ = perceptron_system(X, Y)
                yield {"A": A, "_what": "a_i = y_i (x_i, 1)"}, _compare(A)
        for p in (1, 2, 4):
            for n in (1, 3, 20):
                u = _integer_vectors(rng, p)
                u[0] = 1.0 if not u.any() else u[0]
                A = rng.integers(-3, 4, size=(p, n)).astype(np.float64)
                A *= np.where(u @ A > 0, 1.0, -1.0)
                A[:, u @ A == 0] = u[:, None]
                yield {"A": A, "_what": "columns on one side of a plane"}, _compare(
                    np.hstack([A, A[:, :1]]))

    def _compare(A):
        def compare():
            w = np.reshape(np.asarray(solution(A.copy()), dtype=np.float64), -1)
            if w.shape != (A.shape[0],):
                return f"your w has {w.size} entries; A has {A.shape[0]} rows"
            values = A.T @ w
            bad = np.flatnonzero(~(values > 0))
            if bad.size:
                i = int(bad[0])
                tie = " (a tie: 0 is not > 0)" if values[i] == 0 else ""
                return f"column {i} has a_i^T w = {values[i]:g}, not > 0{tie}"
            return None
        return compare

    return _verdict(cases(), "your w solves A^T w > 0")


@takes_solution
def check_projection_step(solution: Callable) -> ExerciseCheck:
    """Check one step of the relaxation method, ``solution(w, a, c, eta) -> new w``:
    :math:`w - \\eta (a^\\top w - c)^+ a / \\|a\\|^2`, against one iteration of
    :func:`gluon_perceptron.theory.relaxation_method` on the single inequality
    :math:`a^\\top w \\le c`. Cases: violated, satisfied and exactly tight inequalities,
    :math:`\\eta \\in \\{0.5, 1, 1.5, 2\\}`.
    """
    from ..core.theory.relaxation import relaxation_method

    def cases() -> Iterator:
        rng = np.random.default_rng(11)
        for d in (1, 2, 3, 5):
            for eta in (0.5, 1.0, 1.5, 2.0):
                for what in ("violated", "satisfied", "tight"):
                    w, a = _integer_vectors(rng, d), _integer_vectors(rng, d)
                    a[0] = a[0] or 1.0
                    c = float(a @ w) + {"violated": -2.0, "satisfied": 2.0, "tight": 0.0}[what]
                    label = "tight, a tie a^T w = c" if what == "tight" else what
                    yield ({"w": w, "a": a, "c": c, "eta": eta, "_what": label},
                           _compare(w, a, c, eta))

    def _compare(w, a, c, eta):
        def compare():
            ref = relaxation_method(a[:, None], np.array([c]), eta=eta, w0=w.copy(),
                                    max_iterations=1, tol=0.0).w
            got = np.reshape(np.asarray(solution(w.copy(), a.copy(), c, eta),
                                        dtype=np.float64), -1)
            if not _same(got, ref):
                return f"your new w is {_show(got)} where the relaxation step gives {_show(ref)}"
            return None
        return compare

    return _verdict(cases(), "your step agrees with gp.theory.relaxation_method")


# --- notebook 12: one round of parameter mixing ------------------------------------------------

@takes_solution
def check_mixing(solution: Callable) -> ExerciseCheck:
    """Check ``solution(thetas, mistakes, mixing) -> theta``: one round of iterative parameter
    mixing, :math:`\\sum_i \\mu_i \\theta_i` with :math:`\\mu_i = 1/W` (``mixing="uniform"``) or
    :math:`k_i / \\sum_j k_j` (``"weighted"``), ``thetas`` of shape (W, d + 1) and
    ``mistakes`` (W,) integers, against :func:`gluon_perceptron.distributed.train_mixed`'s
    mixing. Cases: 1 to 6 workers, shards without mistakes included (the total is positive).
    """
    from ..core.distributed.mixing import mixing_round

    def cases() -> Iterator:
        rng = np.random.default_rng(12)
        for workers in (1, 2, 3, 6):
            for d in (1, 3):
                for _ in range(3):
                    thetas = np.round(rng.normal(size=(workers, d + 1)), 2)
                    mistakes = rng.integers(0, 4, size=workers)
                    mistakes[rng.integers(workers)] += 1
                    for mixing in ("uniform", "weighted"):
                        yield ({"thetas": thetas, "mistakes": mistakes, "mixing": mixing},
                               _compare(thetas, mistakes, mixing))

    def _compare(thetas, mistakes, mixing):
        def compare():
            rows = np.column_stack([thetas, mistakes, np.zeros(len(mistakes))])
            # the round's mixing of these rows: its passes, on one example each, are replaced
            # by the rows themselves (what a cluster's exchange hands back)
            ones = [(np.ones((1, thetas.shape[1] - 1)), np.ones(1))] * len(mistakes)
            _, ref, _, _ = mixing_round(np.zeros(thetas.shape[1]), ones, mixing=mixing,
                                        exchange=lambda _: rows)
            got = np.reshape(np.asarray(solution(thetas.copy(), mistakes.copy(), mixing),
                                        dtype=np.float64), -1)
            if not _same(got, ref):
                return f"your mixed theta is {_show(got)} where {mixing} mixing gives " \
                       f"{_show(ref)}"
            return None
        return compare

    return _verdict(cases(), "your mixing agrees with train_mixed's, uniform and weighted,")


# --- notebook 14: the perceptron's family (in their own module) --------------------------------

from ._family_checks import check_pa_step, check_vote  # noqa: E402, F401
