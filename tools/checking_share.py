"""How much of the package is argument checking: checking lines over package lines.

``python tools/checking_share.py [--by-file]`` prints the share (issue 28 item 3: at most 6 %);
``tests/project/test_architecture.py::test_checking_is_a_small_share_of_the_package`` checks it.

What counts, once, in the package's ``.py`` files:

- **package lines**: the lines of code, i.e. every line that holds part of a statement, without
  blank lines, comment-only lines and docstrings (of a module, class or function);
- **checking lines**, a subset of those:

  1. every code line of the shared checking modules, ``core/_validation.py`` (the decorator and
     its declared constraints) and ``core/_checks.py`` (the ``_checks`` helpers);
  2. decorator lines: the whole ``@validate_params(...)`` expression of every decorated
     function;
  3. rule declarations: a statement (an assignment or a ``return``, at any level) whose value
     builds a rule, i.e. calls a name imported from ``_validation`` or an attribute of that
     module (``_DATA = dict(X=rule.features(), Y=rule.labels())``);
  4. rule functions: a function whose parameters are ``(value, name, args)`` (any first name),
     the one-off rules a decorator hands ``rule.Rule``, whole;
  5. calls of the ``_checks`` helpers in a body: a statement that calls a name imported from
     ``_checks`` or an attribute of that module;
  6. explicit raise-on-bad-input: every ``raise ValueError(...)``/``raise TypeError(...)``
     statement, with the ``if`` line(s) of a block whose body is nothing but that raise.

A line counted by two of these is counted once.

Two shares come of it. The **whole count** (1-6) over the package lines may only go down (the
architecture test's ceiling): a check moved from a rule into a body's ``raise`` or into the
shared modules still counts. **Issue 28's count** is kinds 2-4, what the issue measured as its
13 % ("212 decorated functions and 188 one-off rule functions (1,506 lines)"), with the rule
declarations that stand in for decorator lines: the issue's target, at most 6 %, applies to it.
On the issue's own tree (0.3.0, ba140fc: 211 decorated functions, 11,392 package lines) kinds
2-4 give 1,982 lines, 17.4 %, more than the issue's 1,506: this count is at least as strict.
"""

from __future__ import annotations

import argparse
import ast
import io
import sys
import tokenize
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "gluon_perceptron"

#: The shared checking modules: every code line of them counts (1).
SHARED = ("_validation", "_checks")

#: The exceptions a raise of bad input names (6).
BAD_INPUT = {"ValueError", "TypeError"}


@dataclass
class Share:
    """Checking lines and package lines, in total and by file (paths relative to the root)."""

    checking: int = 0
    total: int = 0
    by_file: dict[str, tuple[int, int]] = field(default_factory=dict)
    #: Checking lines by what counted them first (the numbers 1-6 of the module's docstring).
    by_kind: dict[str, int] = field(default_factory=dict)

    @property
    def ratio(self) -> float:
        return self.checking / self.total if self.total else 0.0

    @property
    def declared(self) -> int:
        """The checking lines issue 28 counted: decorators, rule declarations, rule functions."""
        return sum(self.by_kind.get(kind, 0) for kind in ISSUE_KINDS)

    def part(self, prefix: str) -> tuple[int, int]:
        """``(checking, total)`` of the files under ``prefix`` (e.g. ``"plots/"``)."""
        rows = [v for k, v in self.by_file.items() if k.startswith(prefix)]
        return sum(c for c, _ in rows), sum(t for _, t in rows)


def _span(node: ast.AST) -> set[int]:
    """The line numbers a statement or an expression spans."""
    assert isinstance(node, (ast.stmt, ast.expr)) and node.end_lineno is not None
    return set(range(node.lineno, node.end_lineno + 1))


def _docstring_lines(nodes: list[ast.AST]) -> set[int]:
    lines: set[int] = set()
    for node in nodes:
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                    and isinstance(body[0].value.value, str):
                lines |= _span(body[0])
    return lines


def code_lines(source: str, nodes: list[ast.AST] | None = None) -> set[int]:
    """The line numbers that hold code: a token other than a comment, a newline or an
    indentation, minus the docstrings (``nodes``: ``ast.walk`` of the source's tree, if made)."""
    lines: set[int] = set()
    skip = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT,
            tokenize.ENDMARKER, tokenize.ENCODING}
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type not in skip:
            lines |= set(range(token.start[0], token.end[0] + 1))
    return lines - _docstring_lines(list(ast.walk(ast.parse(source))) if nodes is None else nodes)


def _imported_from(nodes: list[ast.AST], module: str) -> tuple[set[str], set[str]]:
    """The names a file imports from ``module`` (``from ._checks import features``) and the
    names it binds to the module itself (``from .. import _validation as rule``)."""
    names: set[str] = set()
    aliases: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.ImportFrom):
            if (node.module or "").split(".")[-1] == module:
                names |= {a.asname or a.name for a in node.names}
            else:
                aliases |= {a.asname or a.name for a in node.names if a.name == module}
        elif isinstance(node, ast.Import):
            aliases |= {a.asname or a.name for a in node.names
                        if a.name.split(".")[-1] == module and a.asname}
    return names, aliases


def _calls_into(node: ast.AST, names: set[str], aliases: set[str]) -> bool:
    for sub in ast.walk(node):
        if isinstance(sub, ast.Call):
            f = sub.func
            if isinstance(f, ast.Name) and f.id in names:
                return True
            if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) \
                    and f.value.id in aliases:
                return True
    return False


def _is_rule_function(node: ast.AST) -> bool:
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    params = [a.arg for a in node.args.posonlyargs + node.args.args]
    return len(params) == 3 and params[1:] == ["name", "args"]


def _raises_bad_input(node: ast.AST) -> bool:
    if not isinstance(node, ast.Raise) or node.exc is None:
        return False
    exc = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
    return isinstance(exc, ast.Name) and exc.id in BAD_INPUT


#: The kinds of checking line, in the order of the module's docstring.
KINDS = ("shared modules", "decorators", "rule declarations", "rule functions",
         "_checks calls", "raise on bad input")
#: What issue 28 counted ("212 decorated functions and 188 one-off rule functions"), with the
#: shared dicts of rules that stand in for decorator lines: the rest of KINDS is this tool's own.
ISSUE_KINDS = ("decorators", "rule declarations", "rule functions")


def checking_lines(source: str, shared: bool = False,
                   kinds: dict[str, int] | None = None) -> tuple[set[int], set[int]]:
    """``(checking, code)``: the line numbers of one file's checking lines and of its code
    lines. ``shared``: the file is one of the shared checking modules (every line counts).
    ``kinds``, if given, is increased by the lines of each kind (a line counted once, under
    the first kind of :data:`KINDS` that counts it)."""
    nodes = list(ast.walk(ast.parse(source)))  # one walk of the tree, read by every count below
    code = code_lines(source, nodes)
    if shared:
        if kinds is not None:
            kinds["shared modules"] = kinds.get("shared modules", 0) + len(code)
        return code, code
    rule_names, rule_aliases = _imported_from(nodes, "_validation")
    check_names, check_aliases = _imported_from(nodes, "_checks")
    found = _Found(code, kinds)
    for node in nodes:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            for deco in node.decorator_list:  # 2
                target = deco.func if isinstance(deco, ast.Call) else deco
                if getattr(target, "id", getattr(target, "attr", None)) == "validate_params":
                    found.add("decorators", _span(deco))
    for node in nodes:
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Return)) \
                and node.value is not None \
                and _calls_into(node.value, rule_names, rule_aliases):  # 3
            found.add("rule declarations", _span(node))
    for node in nodes:
        if _is_rule_function(node):  # 4
            found.add("rule functions", _span(node))
    for node in nodes:
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Expr, ast.Return)) \
                and node.value is not None \
                and _calls_into(node.value, check_names, check_aliases):  # 5
            found.add("_checks calls", _span(node))
    for node in nodes:
        if _raises_bad_input(node):  # 6
            found.add("raise on bad input", _span(node))
        if isinstance(node, ast.If) and len(node.body) == 1 and not node.orelse \
                and _raises_bad_input(node.body[0]):  # 6: the if line(s)
            found.add("raise on bad input", _span(node.test) | {node.lineno})
    return found.lines, code


class _Found:
    """The checking lines of one file (code lines only), and their count by kind."""

    def __init__(self, code: set[int], kinds: dict[str, int] | None):
        self.code, self.kinds = code, kinds
        self.lines: set[int] = set()

    def add(self, kind: str, lines: set[int]) -> None:
        new = (lines & self.code) - self.lines
        self.lines |= new
        if self.kinds is not None:
            self.kinds[kind] = self.kinds.get(kind, 0) + len(new)


def measure(root: Path = ROOT) -> Share:
    """The checking share of the package under ``root`` (every ``*.py`` file)."""
    share = Share()
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        source = path.read_text(encoding="utf-8")
        checking, code = checking_lines(source, shared=path.stem in SHARED,
                                        kinds=share.by_kind)
        share.by_file[rel] = (len(checking), len(code))
        share.checking += len(checking)
        share.total += len(code)
    return share


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--by-file", action="store_true", help="one row per file as well")
    parser.add_argument("root", nargs="?", type=Path, default=ROOT)
    opts = parser.parse_args(argv)
    share = measure(opts.root)
    if opts.by_file:
        rows = sorted(share.by_file.items(), key=lambda kv: -kv[1][0])
        for rel, (c, t) in rows:
            if c:
                print(f"{c:5d} / {t:5d}  {c / t:6.1%}  {rel}")
    for kind in KINDS:
        print(f"{kind:20s} {share.by_kind.get(kind, 0):5d}")
    for part in ("core/", "experiments/", "plots/", "main/"):
        c, t = share.part(part)
        print(f"{part:13s} {c:5d} / {t:5d} = {c / max(t, 1):.1%}")
    print(f"{'package':13s} {share.checking:5d} / {share.total:5d} = {share.ratio:.1%}")
    declared = share.declared
    print(f"{'as issue 28':13s} {declared:5d} / {share.total:5d} = {declared / share.total:.1%}"
          f"  ({', '.join(ISSUE_KINDS)} only, as the issue counted its 13 %)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
