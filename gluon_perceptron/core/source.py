"""``show_source``: a package function's source code, to read in the notebooks.

Notebooks display the algorithms with it instead of pasting a copy, so what a reader sees is what
runs (one copy, in the package).
"""

from __future__ import annotations

import ast
import inspect
import textwrap
from typing import Any

from ._validation import Rule, flag, validate_params

#: A decorator shown whole when its one-line form is at most this long, else by its name and
#: the names of its arguments, else by its name alone: ``@validate_params(...)``.
DECORATOR_WIDTH = 99


def _decorator_line(node: ast.expr) -> str:
    """One line for a decorator: ``@name(a=..., b=...)`` or ``@name(...)`` when it is too long
    to show whole."""
    whole = "@" + ast.unparse(node)
    if len(whole) <= DECORATOR_WIDTH or not isinstance(node, ast.Call):
        return whole
    names = ["..."] * bool(node.args) + [f"{k.arg}=..." for k in node.keywords if k.arg]
    short = f"@{ast.unparse(node.func)}({', '.join(names)})"
    return short if len(short) <= DECORATOR_WIDTH else f"@{ast.unparse(node.func)}(...)"


def _readable(source: str, docstring: bool) -> str:
    """``source`` of one function or class as a reader wants it: each decorator on one line
    (:func:`_decorator_line`), then the code from ``def`` or ``class``, without its docstring
    unless ``docstring``."""
    tree = ast.parse(source)
    node = tree.body[0] if tree.body else None
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return source
    lines = source.splitlines(keepends=True)
    decorators = [_decorator_line(d) + "\n" for d in node.decorator_list]
    start = node.lineno - 1  # the def line: decorators come before it
    head = node.body[0] if node.body else None
    if not docstring and isinstance(head, ast.Expr) and isinstance(head.value, ast.Constant) \
            and isinstance(head.value.value, str):
        first, last = head.lineno - 1, head.end_lineno
        return "".join(decorators + lines[start:first] + lines[last:])
    return "".join(decorators + lines[start:])


def _refuse_private(label: str, shown: str) -> None:
    """A private name (``_helper``, ``_Class.method``) is not shown: a reader can neither call
    it nor count on it; show the public function that holds the idea."""
    if any(part.startswith("_") for part in shown.split(".") if part != "<locals>"):
        raise ValueError(f"{label} must be a public function or class, got the private "
                         f"{shown!r}: show the public function that calls it (or make it "
                         f"public, or inline it there)")


def _function(obj, name: str, args: dict):
    if not callable(obj):
        raise TypeError(f"obj must be a function or class of the package, got "
                        f"{type(obj).__name__}; e.g. show_source(gp.getfake)")
    _refuse_private(name, getattr(obj, "__qualname__", getattr(obj, "__name__", "")))
    return obj


def _helpers(helpers, name: str, args: dict) -> list:
    """``helpers`` as functions: names are looked up in ``obj``'s module."""
    module = inspect.getmodule(args["obj"])
    found = []
    for item in helpers:
        if isinstance(item, str):
            _refuse_private(name, item)
        helper = getattr(module, item, None) if isinstance(item, str) else item
        if not callable(helper):
            where = module.__name__ if module is not None else "obj's module"
            raise ValueError(f"helpers must be functions, or names of functions {where} "
                             f"defines or imports, got {item!r}")
        _refuse_private(name, getattr(helper, "__qualname__", getattr(helper, "__name__", "")))
        found.append(helper)
    return found


@validate_params(obj=Rule(_function, "a function or class"),
                 helpers=Rule(_helpers, "functions, or names in obj's module", ("obj",)),
                 docstring=flag())
def show_source(obj, *helpers, docstring: bool = False) -> Any:
    """The source code of a package function, to read next to the chapter's.

    Notebooks display the chapter's functions with this instead of pasting a copy, so what a
    reader sees is what runs.

    Parameters
    ----------
    obj : function or class
        E.g. ``gp.getfake``, ``gp.perceptron``, ``gp.plotdata``, ``gp.plotscore``.
    *helpers : str or function
        Functions to show after it, or their names in ``obj``'s module (the pieces it calls,
        e.g. ``"draw_plane", "sample_faithful"`` for :func:`getfake`). Public names only, as
        ``obj``: a private one (``"_helper"``) is refused.
    docstring : bool
        Keep the docstrings (default: drop them, the chapter's code has none).

    Each function is shown from its ``def`` line, a decorator on one line above it (with the
    names of its arguments only, when whole it would be longer than a line).

    Raises
    ------
    ValueError
        For a private name (a name, or a class of a method, starting with ``_``): show the
        public function that holds the idea.

    Returns
    -------
    IPython.display.Code or str
        A syntax-highlighted ``Code`` object when IPython is installed (a notebook displays it),
        else the text.
    """
    parts = [obj, *(getattr(inspect.getmodule(obj), h) if isinstance(h, str) else h
                    for h in helpers)]
    texts = []
    for part in parts:
        src = textwrap.dedent(inspect.getsource(part))
        texts.append(_readable(src, docstring))
    text = "\n\n\n".join(t.rstrip("\n") for t in texts) + "\n"
    try:
        from IPython.display import Code
    except ImportError:  # pragma: no cover - IPython comes with the notebook extra
        return text
    return Code(text, language="python")
