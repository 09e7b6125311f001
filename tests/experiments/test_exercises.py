"""The notebooks' exercises: every checker accepts the notebook's solution and rejects a wrong
one with a sentence naming what differs; every notebook ends with 2-4 exercises, each with a
folded solution."""

import re
from pathlib import Path

import numpy as np
import pytest
from mxnet import nd

import gluon_perceptron as gp
from gluon_perceptron.experiments._exercise_checks import ExerciseCheck

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
SOURCES = sorted(NOTEBOOKS.glob("[0-9][0-9]_*.py"))


def _cells(path: Path) -> list[tuple[str, str]]:
    """(kind, text) of each cell of a percent script, markdown without its '# ' prefixes."""
    cells = []
    for chunk in re.split(r"^# %%", path.read_text(), flags=re.M)[1:]:
        head, _, body = chunk.partition("\n")
        if "[markdown]" in head:
            body = "\n".join(line[2:] if line.startswith("# ") else line.lstrip("#")
                             for line in body.splitlines())
            cells.append(("markdown", body))
        else:
            cells.append(("code", body))
    return cells


def _exercises(path: Path) -> tuple[list[str], dict[str, str], dict[str, str]]:
    """The exercise labels, the options of each solution, and each gated solution's code."""
    labels, options, code = [], {}, {}
    cells = _cells(path)
    for i, (kind, text) in enumerate(cells):
        if kind != "markdown":
            continue
        labels += re.findall(r"^:::\{exercise\}\n:label: (\S+)", text, flags=re.M)
        for gated, label in re.findall(r"^:::\{solution(-start)?\} (\S+)", text, flags=re.M):
            options[label] = text
            if gated:
                end = next(j for j in range(i + 1, len(cells))
                           if cells[j][0] == "markdown" and "{solution-end}" in cells[j][1])
                code[label] = "\n".join(body for kind, body in cells[i + 1:end]
                                        if kind == "code")
    return labels, options, code


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.stem)
def test_every_notebook_ends_with_exercises_and_folded_solutions(path):
    labels, options, _ = _exercises(path)
    assert 2 <= len(labels) <= 4, f"{path.name}: {len(labels)} exercises"
    assert len(set(labels)) == len(labels)
    assert all(label.startswith(f"ex-{path.name[:2]}-") for label in labels), labels
    assert set(options) == set(labels), "every exercise has one solution, and no other"
    for label, text in options.items():
        assert re.search(rf"\{{solution(-start)?\}} {label}\n:class: dropdown\n", text), label
    cells = _cells(path)
    first = next(i for i, (kind, text) in enumerate(cells)
                 if kind == "markdown" and text.startswith("## Exercises"))
    later = "".join(text for kind, text in cells[:first])
    assert "{exercise}" not in later, "the exercises come after the '## Exercises' cell"
    kind, summary = cells[first - 1]
    assert kind == "markdown" and summary.startswith("## Summary\n"), (
        f"{path.name}: a '## Summary' cell comes right before the exercises")
    bullets = re.findall(r"^\* ", summary, flags=re.M)
    assert 2 <= len(bullets) <= 6 and len(summary) < 1500, "a short summary: 2 to 6 points"


def _solutions():
    return [(path, label, source) for path in SOURCES
            for label, source in _exercises(path)[2].items()]


@pytest.mark.parametrize("path, label, source", _solutions(), ids=lambda v: getattr(
    v, "stem", v if isinstance(v, str) and v.startswith("ex-") else ""))
def test_every_solution_in_the_notebooks_passes_its_checker(path, label, source):
    """The solution cells run alone (numpy, nd and gp given) and their checks pass."""
    assert "gp.exercises.check_" in source, f"{label}: the solution cell calls no checker"
    lines = source.strip().splitlines()
    namespace = {"np": np, "nd": nd, "gp": gp}
    checks = []
    real = {name: getattr(gp.exercises, name) for name in gp.exercises.__all__
            if name.startswith("check_")}

    def recording(check):
        def run(*args, **kwargs):
            checks.append(check(*args, **kwargs))
            return checks[-1]
        return run

    patched = type("Exercises", (), {name: staticmethod(recording(f))
                                     for name, f in real.items()})
    namespace["gp"] = type("GP", (), {"__getattr__": lambda self, n: getattr(gp, n),
                                      "exercises": patched})()
    exec(compile("\n".join(lines), f"{path.name}:{label}", "exec"), namespace)
    assert checks, f"{label}: no check ran"
    for check in checks:
        assert isinstance(check, ExerciseCheck)
        assert check.passed, f"{label}: {check}"
        assert check.cases >= 4 and str(check).startswith("passed")


# --- each checker rejects a wrong solution, naming what differs --------------------------------

def _step(strict: bool, sign: float = 1.0):
    def step(w, b, x, y):
        margin = y * (nd.dot(w, x) + b).asscalar()
        if margin < 0 if strict else margin <= 0:
            w += sign * y * x
            b += sign * y
            return 1
        return 0
    return step


def _copying_step(w, b, x, y):
    if y * (nd.dot(w, x) + b).asscalar() <= 0:
        w = w + y * x  # rebinds the name: the caller's w is unchanged
        b = b + y
        return 1
    return 0


def _subgradient(kink: float, at_kink: bool = True):
    def subgradient(w, b, x, y):
        margin = y * (w @ x + b)
        if margin < kink or (at_kink and margin == kink):
            return -y * x, np.array([-y])
        return np.zeros_like(w), np.zeros(1)
    return subgradient


def _padded(X, Y, max_epochs, constant=1.0):
    A = np.column_stack([X, np.full(len(X), constant)])
    theta = np.zeros(A.shape[1])
    for _ in range(max_epochs):
        updates = 0
        for a, y in zip(A, Y):
            if y * (theta @ a) <= 0:
                theta += y * a
                updates += 1
        if not updates:
            break
    return theta[:-1], theta[-1] * constant


def _loo(count_all: bool):
    def loo(X, Y, max_epochs):
        updated = np.unique(gp.rosenblatt.update_path(X, Y, max_epochs=max_epochs).examples)
        errors = 0
        for i in updated:
            keep = np.arange(len(X)) != i
            run = gp.train(X[keep], Y[keep], max_epochs=max_epochs)
            errors += int(Y[i] * (X[i] @ run.w + run.b) <= 0)
        return errors, len(X) if count_all else updated.size
    return loo


def _loo_tie_is_right(X, Y, max_epochs):
    """Counts a tie y f(x) = 0 on the held-out example as right: the plausible slip."""
    updated = np.unique(gp.rosenblatt.update_path(X, Y, max_epochs=max_epochs).examples)
    errors = 0
    for i in updated:
        keep = np.arange(len(X)) != i
        run = gp.train(X[keep], Y[keep], max_epochs=max_epochs)
        errors += int(Y[i] * (X[i] @ run.w + run.b) < 0)
    return errors, updated.size


def _loo_on_the_full_run(X, Y, max_epochs):
    """Tests each example on the weights trained with it: never a mistake once converged."""
    run = gp.train(X, Y, max_epochs=max_epochs)
    support = np.unique(gp.rosenblatt.update_path(X, Y, max_epochs=max_epochs).examples).size
    return int(np.sum(Y * (X @ run.w + run.b) <= 0)), support


def _padded_strict(X, Y, max_epochs):
    """The padded run that does not update at a tie y theta.a = 0."""
    A = np.column_stack([X, np.ones(len(X))])
    theta = np.zeros(A.shape[1])
    for _ in range(max_epochs):
        changed = False
        for a, y in zip(A, Y):
            if y * (theta @ a) < 0:
                theta += y * a
                changed = True
        if not changed:
            break
    return theta[:-1], theta[-1]


def _solve_with_ties(A):
    w = np.zeros(A.shape[0])
    for _ in range(1000):
        violated = np.flatnonzero(A.T @ w < 0)  # a tie a_i^T w = 0 is not > 0
        if violated.size == 0:
            return w
        w += A[:, violated[0]]
    return w


WRONG = [
    ("check_step", (_step(strict=True),), r"a tie\): your step returned 0 where "
                                          r"gp\.perceptron returns 1"),
    ("check_step", (_step(strict=False, sign=-1.0),), r"your w is .* gp\.perceptron's is"),
    ("check_step", (_copying_step,), r"w must be changed in place"),
    ("check_step", (lambda w, b, x, y: None,), r"returned None where gp\.perceptron returns 1"),
    ("check_subgradient", (_subgradient(0.0, at_kink=False),),
     r"at the kink\)?, y f\(x\) = 0\): your gradient in w is .* autograd on gp\.perceptron_loss"),
    ("check_subgradient", (_subgradient(0.0), "hinge"), r"at the kink\)?, y f\(x\) = 1\)"),
    ("check_subgradient", (lambda w, b, x, y: (y * x, np.array([y])),),
     r"your gradient in w is .* where autograd"),
    ("check_recover_affine", (lambda f, d: (np.array([f(e) for e in np.eye(d)]),
                                            f(np.zeros(d))),), r"your w is .* where f has w"),
    ("check_recover_affine", (lambda f, d: (np.array([f(e) - f(np.zeros(d))
                                                      for e in np.eye(d)]), f(np.zeros(d))),),
     r"called f \d+ times; d \+ 1 = \d+"),
    ("check_aggressive_sequence", (lambda s: (np.ones((s, 1)), np.ones(s)),),
     r"steps=2\): the aggressive perceptron is right at step t = 2"),
    ("check_aggressive_sequence", (lambda s: (np.ones((s, 1)), np.resize([1.0, -1.0], s)),),
     r"steps=2\): your sequence is not linearly separable"),
    ("check_padded_run", (lambda X, Y, m: _padded(X, Y, m, constant=2.0),),
     r"where gp\.train's is"),
    ("check_padded_run", (_padded_strict,), r"\d+ of the run's \d+ updates? at a tie y f\(x\) = 0\)"
                                            r": your [wb] is"),
    ("check_padded_run", (lambda X, Y, m: _padded(X, Y, 1),), r"max_epochs=3, .*where gp\.train"),
    ("check_leave_one_out", (_loo(count_all=True),), r"your \|I\| is \d+ where the run updated"),
    ("check_leave_one_out", (_loo_tie_is_right,),
     r"\(X=\[\[1\.0\], \[-2\.0\], \[-1\.0\]\], Y=\[1\.0, -1\.0, -1\.0\], separable, held "
     r"out, example 2 ends at a tie y f\(x\) = 0 \(a mistake\)\): you count 0 leave-one-out "
     r"mistakes where gp\.experiments\.leave_one_out counts 1"),
    ("check_leave_one_out", (_loo_on_the_full_run,), r"you count 0 leave-one-out mistakes"),
    ("check_random_guess", (lambda p: max(p, 1 - p),),
     r"your accuracy is [\d.]+ where the class-frequency guess scores [\d.]+"),
    ("check_random_guess", (lambda p: 0.5,), r"p=0\.0\): your accuracy is 0\.5 where"),
    # the last maximum, not the first
    ("check_one_vs_all", (lambda W, b, X: W.shape[0] - 1 - np.argmax((X @ W.T + b)[:, ::-1],
                                                                     axis=1),),
     r"a tie goes to the smallest class"),
    ("check_inequality_solver", (_solve_with_ties,), r"has a_i\^T w = 0, not > 0"),
    ("check_projection_step", (lambda w, a, c, eta: w - eta * (a @ w - c) / (a @ a) * a,),
     r"satisfied\): your new w is"),
    ("check_mixing", (lambda t, k, m: t.mean(axis=0),), r"mixing=.weighted.\): your mixed"),
    ("check_mixing", (lambda t, k, m: (k[:, None] * t).sum(axis=0) / len(k),),
     r"your mixed theta is"),
    ("check_one_vs_all", (lambda W, b, X: np.argmax(X @ W.T, axis=1),), r"gets class \d+ where"),
    ("check_inequality_solver", (lambda A: np.zeros(A.shape[0]),),
     r"\(A=\[\[3\.0\]\], .*\): column 0 has a_i\^T w = 0, not > 0 \(a tie"),
    ("check_projection_step", (lambda w, a, c, eta: w - (a @ w - c) / (a @ a) * a
                               if a @ w > c else w,), r"violated\): your new w is"),
    ("check_subgradient", (lambda w, b, x, y: (-y * x, np.array([-y])),),
     r"just above the kink, y f\(x\) = 0\.5\): your gradient in w is \[-3\.0\]"),
    ("check_pa_step", (lambda w, x, y, variant, C: max(0.0, 1 - y * (w @ x)) / (x @ x),),
     r"variant='PA-II', C=1\.0\): your tau is 1\.25 where PA-II's step is 1\.111"),
    ("check_vote", (lambda pairs, X: np.sign(sum(c * (X @ w) for w, c in pairs)),),
     r"pairs=\[\(\[1\.0, 0\.0\], 2\), \(\[-1\.0, 0\.0\], 2\)\], X=\[\[1\.0, 3\.0\]\], a tied vote"
     r".*your labels are \[0\.0\] where the vote gives \[1\.0\]"),
]


def test_the_smallest_vote_case_is_found_without_numpy_sizing_ragged_pairs():
    """The voted perceptron's cases hold ragged pairs (w, c): sizing them with np.size gave
    numpy's deprecation warning (an error in a later numpy)."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check = gp.exercises.check_vote(lambda pairs, X: -np.ones(len(X)))
    assert not check.passed and check.failing_case is not None


@pytest.mark.parametrize("name, args, match", WRONG, ids=[w[0] for w in WRONG])
def test_a_checker_rejects_a_wrong_solution_and_says_what_differs(name, args, match):
    check = getattr(gp.exercises, name)(*args)
    assert isinstance(check, ExerciseCheck)
    assert not check.passed and not check
    assert check.failing_case is not None
    assert str(check) == repr(check) == check.message
    assert check.message.startswith(f"failed on {check.failures} of {check.cases} cases, "
                                    f"the smallest case ")
    assert check.message.endswith(".") and check.message.count(". ") == 0, check.message
    assert "..." not in check.message and "\n" not in check.message, check.message
    assert re.search(match, check.message), check.message
    # the sentence rebuilds the case: every argument, whole, as Python reads it back
    for key, value in check.failing_case.items():
        if key.startswith("_"):
            continue
        shown = re.search(rf"\b{key}=((?:\[[^a-z]*?\])(?=, [a-zA-Z_]+=|, [a-z]|\))|[^,()]+)",
                          check.message)
        assert shown, (key, check.message)
        rebuilt = eval(shown.group(1), {"np": np})  # noqa: S307  (our own message)
        if isinstance(value, str):
            assert rebuilt == value
        else:
            assert _numbers(rebuilt) == _numbers(value), (key, check.message)


def _numbers(value) -> list[float]:
    """Every number of a case's value in order, through arrays, lists and tuples (a voted
    perceptron's [(w_k, c_k), ...] holds both)."""
    if isinstance(value, nd.NDArray):
        value = value.asnumpy()
    if isinstance(value, (list, tuple)):
        return [x for item in value for x in _numbers(item)]
    return np.asarray(value, dtype=float).ravel().tolist()


@pytest.mark.parametrize("name, w, b, match", [
    ("NAND", [1.0, 1.0], -1.0, r"the score w\.x \+ b is -3, false, where NAND is true"),
    ("NOR", [-1.0, -1.0], 0.0, r"is 0, neither true nor false"),
    ("NAND", [-1.0, -1.0], 1.0, None), ("NOR", [-1.0, -1.0], -1.0, None),
    ("AND", [1.0, 1.0], -1.0, None), ("OR", [1.0, 1.0], 1.0, None),
])
def test_check_gate(name, w, b, match):
    check = gp.exercises.check_gate(name, w, b)
    assert check.passed is (match is None), check
    if match:
        assert re.search(match, str(check)), check
    else:
        assert check.cases == 4


def test_a_reader_error_is_a_failed_case_not_a_crash():
    def broken(w, b, x, y):
        raise RuntimeError("not written yet")
    check = gp.exercises.check_step(broken)
    assert not check.passed and check.cases == check.failures > 1
    assert "your function raised RuntimeError: not written yet" in str(check)


@pytest.mark.parametrize("name", [n for n in gp.exercises.__all__ if n.startswith("check_")
                                  and n != "check_gate"])
def test_a_checker_refuses_what_is_not_a_function(name):
    with pytest.raises(TypeError, match="solution must be your function"):
        getattr(gp.exercises, name)(3)


def test_check_subgradient_names_its_loss():
    with pytest.raises(ValueError, match="loss"):
        gp.exercises.check_subgradient(_subgradient(0.0), loss="relu")
    with pytest.raises(ValueError, match="name"):
        gp.exercises.check_gate("XOR", [1.0, 1.0], 0.0)


def test_check_leave_one_out_has_held_out_ties_and_rejects_counting_them_right():
    """The issue's case X = [[1], [-2], [-1]], Y = [1, -1, -1] (held out, example 2 ends at a
    tie: 1 leave-one-out mistake, 0 if a tie counted as right) and 8 more sets with a held-out
    tie are among the cases; a solution that counts a tie as right fails on every one."""
    from gluon_perceptron.experiments._exercise_checks import _held_out_ties

    seen = []

    def reference(X, Y, max_epochs):
        seen.append((X, Y))
        run = gp.experiments.leave_one_out(X, Y, max_epochs=max_epochs)
        return run.errors, run.support

    assert gp.exercises.check_leave_one_out(reference).passed
    tied = [(X, Y) for X, Y in seen if _held_out_ties(X, Y, 1000)]
    assert len(tied) >= 9
    assert any(X.tolist() == [[1.0], [-2.0], [-1.0]] and Y.tolist() == [1.0, -1.0, -1.0]
               for X, Y in tied)
    wrong = gp.exercises.check_leave_one_out(_loo_tie_is_right)
    assert wrong.failures >= len(tied) and wrong.cases == len(seen)


def test_a_failing_check_names_its_smallest_failing_case():
    """A step that never updates fails on many cases; the sentence shows the smallest (d = 1),
    not the first one met."""
    check = gp.exercises.check_step(lambda w, b, x, y: 0)
    assert check.failures > 1
    assert check.failing_case["w"].size == 1
    assert "w=[0.0], b=0.0, x=[" in check.message


@pytest.mark.parametrize("name", [n for n in gp.exercises.__all__ if n.startswith("check_")
                                  and n != "check_gate"])
def test_a_checker_runs_the_readers_code_untrusted(name):
    """Every checker that takes the reader's function runs it with the package's checks on
    (``skip_nested=False``): a reader's call of ``gp.train`` with a bad argument gets the
    named error a user's call gets, not the unchecked body."""
    from gluon_perceptron.core._validation import trusted

    seen = []

    def solution(*args):
        seen.append(trusted())

    getattr(gp.exercises, name)(solution)
    assert seen and not any(seen), name
