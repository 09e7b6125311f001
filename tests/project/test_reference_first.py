"""Reference-first (issue 28): a public trainer's body is its algorithm.

Each trainer listed here shows, in its own body, on one screen, the loop over the data and the
update of the weights inside it: the code a student opens is the algorithm, not a dispatcher.
Its fast twin (``engine="fast"``, in ``gluon_perceptron/core/fast/``) is held to that loop bit
for bit by ``tests/core/fast/test_fast.py``.
"""

import ast
import inspect
import textwrap

import pytest

import gluon_perceptron as gp
from gluon_perceptron.core.rosenblatt import traced

#: Names that hold a trainer's weights (the dual weights, a matrix of many perceptrons, ...).
WEIGHTS = {"w", "b", "W", "B", "theta", "alpha", "v", "A", "u"}

#: At most this many lines of body, without the docstring (and without the decorators).
MAX_LINES = 30


def _body(fn) -> tuple[ast.FunctionDef | ast.AsyncFunctionDef, int]:
    """The function's ``def`` node and its body's length in lines, docstring excluded."""
    fn = inspect.unwrap(fn)
    tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    node = tree.body[0]
    assert isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef), fn
    body = node.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        body = body[1:]  # the docstring
    assert body, f"{fn.__name__} has no body besides its docstring"
    return node, (body[-1].end_lineno or body[-1].lineno) - body[0].lineno + 1


def _target_names(target: ast.expr) -> set[str]:
    """``w`` for ``w``, ``w[i]``, ``w.data``, ``(w, b)``."""
    if isinstance(target, ast.Name):
        return {target.id}
    if isinstance(target, ast.Subscript | ast.Attribute | ast.Starred):
        return _target_names(target.value)
    if isinstance(target, ast.Tuple | ast.List):
        return set().union(*(_target_names(t) for t in target.elts))
    return set()


def _walk_own(node: ast.AST):
    """Every node under ``node`` that is not inside a nested function or class."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            continue
        yield child
        yield from _walk_own(child)


def loop_and_update(fn) -> tuple[int, bool, bool]:
    """The checker both sections of this file use: ``(lines, has_loop, updates_in_loop)``.

    ``lines``: the body's length without the docstring; ``has_loop``: a ``for`` or ``while``
    in the function's own body (not in a nested function); ``updates_in_loop``: an assignment
    (``=``, ``+=``, ...) to one of the :data:`WEIGHTS` names inside such a loop.
    """
    node, lines = _body(fn)
    loops = [n for n in _walk_own(node) if isinstance(n, ast.For | ast.While)]
    updates = False
    for loop in loops:
        for n in _walk_own(loop):
            targets = (n.targets if isinstance(n, ast.Assign) else
                       [n.target] if isinstance(n, ast.AugAssign | ast.AnnAssign) else [])
            if any(_target_names(t) & WEIGHTS for t in targets):
                updates = True
    return lines, bool(loops), updates


def _assert_reference_first(fn) -> None:
    lines, has_loop, updates = loop_and_update(fn)
    name = fn.__name__
    assert lines <= MAX_LINES, f"{name}'s body is {lines} lines (at most {MAX_LINES})"
    assert has_loop, f"{name}'s body has no loop of its own"
    assert updates, f"{name}'s body updates no weights inside its loop"


# --- the checker itself ------------------------------------------------------------------------

def _dispatcher(X, Y):
    """A trainer that hands everything on."""
    return gp.train(X, Y, max_epochs=3)


def _loop_without_update(X, Y):
    total = 0
    for _x in X:
        total += 1
    return total


def _update_in_a_nested_function(X, Y, w):
    def step(x):
        for _ in range(2):
            w[:] += x
    return step


def _a_loop(X, Y, w):
    for x, y in zip(X, Y):
        if y * (x @ w) <= 0:
            w += y * x
    return w


def test_the_checker_tells_a_loop_from_a_dispatcher():
    assert loop_and_update(_a_loop) == (4, True, True)
    assert loop_and_update(_dispatcher) == (1, False, False)
    assert loop_and_update(_loop_without_update)[1:] == (True, False)
    assert loop_and_update(_update_in_a_nested_function)[1:] == (False, False)
    with pytest.raises(AssertionError, match="no loop of its own"):
        _assert_reference_first(_dispatcher)


# --- the Rosenblatt trainers (core/rosenblatt) ---------------------------------------------------

ROSENBLATT = [gp.train, gp.train_pocket, gp.train_averaged, gp.rosenblatt.train_projected,
              gp.rosenblatt.train_aggressive, gp.train_batched, gp.rosenblatt.train_traced,
              gp.rosenblatt.update_path, traced.run_online]


@pytest.mark.parametrize("trainer", ROSENBLATT, ids=lambda f: f.__name__)
def test_a_rosenblatt_trainer_shows_its_loop_and_update(trainer):
    _assert_reference_first(trainer)


def _calls(fn) -> set[str]:
    """The names of the functions ``fn``'s own body calls."""
    node, _ = _body(fn)
    return {n.func.id if isinstance(n.func, ast.Name) else n.func.attr
            for n in _walk_own(node) if isinstance(n, ast.Call)
            and isinstance(n.func, ast.Name | ast.Attribute)}


@pytest.mark.parametrize("trainer", [gp.rosenblatt.train_one_vs_all,
                                     gp.rosenblatt.train_one_vs_one], ids=lambda f: f.__name__)
def test_the_multiclass_trainers_are_reductions_to_the_one_lockstep_loop(trainer):
    """One implementation of the lockstep rule: the multiclass trainers build their label rows
    and masks and hand them to ``train_batched``, whose body is the loop; no loop of their own."""
    lines, has_loop, _ = loop_and_update(trainer)
    assert lines <= MAX_LINES and not has_loop
    assert "train_batched" in _calls(trainer)


# --- beyond Rosenblatt, the gradient trainers, parameter mixing, relaxation ----------------------

BEYOND = [gp.beyond.train_kernel, gp.beyond.train_second_order, gp.beyond.smooth_perceptron,
          gp.beyond.rescaled_perceptron, gp.distributed.mixing_round,
          gp.theory.relaxation_method]


@pytest.mark.parametrize("trainer", BEYOND, ids=lambda f: f.__name__)
def test_a_trainer_beyond_rosenblatt_shows_its_loop_and_update(trainer):
    _assert_reference_first(trainer)


def _updates_in_loop(fn, names: set, steps: set) -> bool:
    """Whether a loop of ``fn``'s own body assigns one of ``names`` or calls a step function
    named in ``steps`` (``sgd_step(...)``, ``trainer.step(...)``)."""
    node, _ = _body(fn)
    for loop in (n for n in _walk_own(node) if isinstance(n, ast.For | ast.While)):
        for n in _walk_own(loop):
            targets = (n.targets if isinstance(n, ast.Assign) else
                       [n.target] if isinstance(n, ast.AugAssign | ast.AnnAssign) else [])
            if any(_target_names(t) & names for t in targets):
                return True
            func = n.func if isinstance(n, ast.Call) else None
            if isinstance(func, ast.Name | ast.Attribute) and \
                    (func.id if isinstance(func, ast.Name) else func.attr) in steps:
                return True
    return False


#: Trainers whose update is not an assignment to one of WEIGHTS: the Forgetron's coefficients
#: sigma, and the step of autograd (the package's ``sgd_step``) and of Gluon
#: (``Trainer.step``), called on each example inside the loop.
OWN_UPDATES = [(gp.beyond.forgetron, {"sigma"}, set()), (gp.train_autograd, set(), {"sgd_step"}),
               (gp.train_gluon, set(), {"step"})]


@pytest.mark.parametrize("trainer, names, steps", OWN_UPDATES,
                         ids=[f.__name__ for f, _, _ in OWN_UPDATES])
def test_the_forgetron_and_the_gradient_trainers_show_their_loop_and_step(trainer, names, steps):
    lines, has_loop, _ = loop_and_update(trainer)
    assert lines <= MAX_LINES, f"{trainer.__name__}'s body is {lines} lines"
    assert has_loop, f"{trainer.__name__}'s body has no loop of its own"
    assert _updates_in_loop(trainer, names, steps), f"{trainer.__name__} steps nowhere in its loop"


def test_the_step_checker_needs_the_step_inside_the_loop():
    assert _updates_in_loop(_a_loop, {"w"}, set())
    assert not _updates_in_loop(_a_loop, {"sigma"}, {"sgd_step"})
    assert not _updates_in_loop(_dispatcher, set(), {"train"})  # a call, but in no loop
    assert not _updates_in_loop(_update_in_a_nested_function, {"w"}, set())


# --- the perceptron family: passive-aggressive and ALMA (core/beyond) ---------------------------

FAMILY = [gp.beyond.passive_aggressive, gp.beyond.alma]


@pytest.mark.parametrize("trainer", FAMILY, ids=lambda f: f.__name__)
def test_a_family_trainer_shows_its_loop_and_update(trainer):
    _assert_reference_first(trainer)


@pytest.mark.parametrize("trainer", [gp.beyond.train_voted, gp.beyond.train_voted_kernel],
                         ids=lambda f: f.__name__)
def test_the_voted_perceptrons_show_their_loop_and_what_they_keep(trainer):
    """The voted perceptron keeps every weight vector (primal: ``weights.append``; dual: the
    rows of its mistakes and the scores) and its survival count (``counts``)."""
    lines, has_loop, _ = loop_and_update(trainer)
    assert lines <= MAX_LINES and has_loop
    assert _updates_in_loop(trainer, {"counts", "scores"}, {"append"})
