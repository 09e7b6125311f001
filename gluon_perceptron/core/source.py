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


def _without_docstring(source: str) -> str:
    """``source`` of one function with its docstring lines removed."""
    tree = ast.parse(source)
    body = tree.body[0].body if tree.body and hasattr(tree.body[0], "body") else []
    if body and isinstance(body[0], ast.Expr) and isinstance(getattr(body[0], "value", None),
                                                             ast.Constant) \
            and isinstance(body[0].value.value, str):
        lines = source.splitlines(keepends=True)
        first, last = body[0].lineno - 1, body[0].end_lineno
        return "".join(lines[:first] + lines[last:])
    return source


def _function(obj, name: str, args: dict):
    if not callable(obj):
        raise TypeError(f"obj must be a function or class of the package, got "
                        f"{type(obj).__name__}; e.g. show_source(gp.getfake)")
    return obj


def _helpers(helpers, name: str, args: dict) -> list:
    """``helpers`` as functions: names are looked up in ``obj``'s module."""
    module = inspect.getmodule(args["obj"])
    found = []
    for item in helpers:
        helper = getattr(module, item, None) if isinstance(item, str) else item
        if not callable(helper):
            raise ValueError(f"helpers must be functions, or names of functions {module.__name__}"
                             f" defines or imports, got {item!r}")
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
        Functions to show after it, or their names in ``obj``'s module (the private pieces it
        calls, e.g. ``"_draw_plane", "_sample_faithful"`` for :func:`getfake`).
    docstring : bool
        Keep the docstrings (default: drop them, the chapter's code has none).

    Returns
    -------
    IPython.display.Code or str
        A syntax-highlighted ``Code`` object when IPython is installed (a notebook displays it),
        else the text.
    """
    parts = [obj, *helpers]
    texts = []
    for part in parts:
        src = textwrap.dedent(inspect.getsource(part))
        texts.append(src if docstring else _without_docstring(src))
    text = "\n\n\n".join(t.rstrip("\n") for t in texts) + "\n"
    try:
        from IPython.display import Code
    except ImportError:  # pragma: no cover - IPython comes with the notebook extra
        return text
    return Code(text, language="python")
