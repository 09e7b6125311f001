"""Reference-first (issue 28, item 1): a public trainer's body is its algorithm, the loop with
its update rule on one screen.

For each trainer, its own body (the source without the docstring and the decorators) holds at
most 30 lines, a ``for`` or ``while`` loop, and inside that loop the update: an assignment to
the named variable (``w += ...``, ``alpha[j] += 1``) or a call of the named step function.
"""

import ast
import inspect
import textwrap

import pytest

import gluon_perceptron as gp

MAX_BODY_LINES = 30


def check_reference_first(fn, update: str) -> None:
    """Fail unless ``fn``'s own body is at most 30 lines (docstring, decorators and blank lines
    left out) and holds a loop whose body assigns ``update`` (or calls a function of that name);
    nested functions and lambdas do not count: the loop must be in ``fn`` itself."""
    fn = inspect.unwrap(fn)
    tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    body = tree.body[0].body
    if isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    lines = inspect.getsource(fn).splitlines()[body[0].lineno - 1:body[-1].end_lineno]
    length = sum(1 for line in lines if line.strip())
    assert length <= MAX_BODY_LINES, f"{fn.__name__}: {length} lines"

    def own(nodes):  # the nodes of fn's own body, not of functions defined in it
        for node in nodes:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                continue
            yield node
            yield from own(ast.iter_child_nodes(node))

    def names(target):  # w, alpha[j], trainer.step: every name and attribute in it
        return {n.id if isinstance(n, ast.Name) else n.attr for n in ast.walk(target)
                if isinstance(n, (ast.Name, ast.Attribute))}

    loops = [n for n in own(body) if isinstance(n, (ast.For, ast.While))]
    assert loops, f"{fn.__name__} has no loop of its own"
    updates = [n for loop in loops for n in own(loop.body)
               if isinstance(n, (ast.Assign, ast.AugAssign)) and update in set().union(
                   *(names(t) for t in (n.targets if isinstance(n, ast.Assign) else [n.target])))
               or isinstance(n, ast.Call) and update in names(n.func)]
    assert updates, f"{fn.__name__}: no update of {update} inside its loop"


# --- beyond Rosenblatt, the gradient trainers, mixing and relaxation (r28b) -------------------

BEYOND_AND_THE_REST = [
    (gp.beyond.train_kernel, "alpha"),
    (gp.beyond.forgetron, "sigma"),
    (gp.beyond.train_second_order, "Ainv"),
    (gp.beyond.smooth_perceptron, "w"),
    (gp.beyond.rescaled_perceptron, "C"),
    (gp.train_autograd, "sgd_step"),
    (gp.train_gluon, "step"),
    (gp.distributed.mixing_round, "theta"),
    (gp.theory.relaxation_method, "w"),
]


@pytest.mark.parametrize("fn, update", BEYOND_AND_THE_REST,
                         ids=[fn.__name__ for fn, _ in BEYOND_AND_THE_REST])
def test_the_body_is_the_algorithm_beyond_rosenblatt(fn, update):
    check_reference_first(fn, update)


def test_the_checker_fails_a_delegating_trainer(tmp_path, monkeypatch):
    """A body that hands its loop to a helper fails, as does a loop without the update and a
    body of 31 lines."""
    source = ("def delegating(X):\n    return helper(X)\n\n\n"
              "def helper(X):\n    w = 0\n    for x in X:\n        w += x\n    return w\n\n\n"
              "def nested(X):\n    def inner():\n        for x in X:\n            w = x\n"
              "    return inner\n\n\n"
              "def long(X):\n" + "".join(f"    x{i} = {i}\n" for i in range(30))
              + "    for x in X:\n        x0 += x\n")
    (tmp_path / "reference_first_cases.py").write_text(source)
    monkeypatch.syspath_prepend(str(tmp_path))
    import reference_first_cases as cases

    check_reference_first(cases.helper, "w")
    with pytest.raises(AssertionError, match="no loop"):
        check_reference_first(cases.delegating, "w")
    with pytest.raises(AssertionError, match="no update of b"):
        check_reference_first(cases.helper, "b")
    with pytest.raises(AssertionError, match="no loop"):
        check_reference_first(cases.nested, "w")
    with pytest.raises(AssertionError, match="32 lines"):
        check_reference_first(cases.long, "x0")
