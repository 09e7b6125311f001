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


def _shown(items, name: str, args: dict):
    """``obj``, or each of ``helpers`` (a function, or its name in ``obj``'s module): a public
    function or class. A private one (``_helper``, ``_Class.method``) is not shown: a reader can
    neither call it nor count on it; show the public function that holds the idea."""
    module = inspect.getmodule(args.get("obj", items))
    for item in items if name == "helpers" else (items,):
        found = getattr(module, item, None) if isinstance(item, str) else item
        for shown in (item if isinstance(item, str) else "",
                      getattr(found, "__qualname__", getattr(found, "__name__", ""))):
            if any(part.startswith("_") for part in shown.split(".")):
                raise ValueError(f"{name} must be a public function or class, got the private "
                                 f"{shown!r}: show the public function that calls it (or make "
                                 f"it public, or inline it there)")
        if not callable(found):  # a bad helper is a ValueError, a bad obj a TypeError
            raise (ValueError if name == "helpers" else TypeError)(
                f"{name} must be functions or classes of the package, or names of functions "
                f"obj's module defines or imports, got {item!r:.60}; e.g. show_source(gp.getfake)")
    return items


@validate_params(obj=Rule(_shown, "a public function or class"), docstring=flag(),
                 helpers=Rule(_shown, "public functions, or names in obj's module", ("obj",)))
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
