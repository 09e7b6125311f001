"""Keep each notebook's text source and its ``.ipynb`` in step.

The source of notebook ``notebooks/NN_name.ipynb`` is ``notebooks/NN_name.py``, a jupytext
"percent" script: cells start at ``# %%`` (code) or ``# %% [markdown]`` (markdown, every line
behind ``# ``). It diffs and lints like code; JupyterLab with jupytext opens it as a notebook.

    python tools/notebooks.py build          # write every .ipynb from its .py (no outputs)
    python tools/notebooks.py check          # exit 1 if an .ipynb differs from its .py
    python tools/notebooks.py build NN       # only the notebooks whose name starts with NN
    python tools/notebooks.py unglue [NN]    # rewrite old sources to the current conventions
    python tools/notebooks.py student [DIR]  # the student edition (default: student/)

``unglue`` is re-runnable (a source already converted is left as it is) and rewrites a source
in place to what JupyterLab and the book both show:

- each number glued for the prose (``glue("key", value, display=False)`` and
  ``{glue:text}`key:fmt` `` in the markdown) becomes an inline expression in the prose,
  ``{eval}`f"{value:fmt}"` ``, which myst-nb (the book) and jupyterlab-myst (JupyterLab) both
  evaluate where the markdown cell stands; the ``glue`` line goes. When the expression is long,
  or a name it reads is bound again before the prose, the value is kept in a variable named
  after the key instead. A glue it cannot convert (a key computed in a loop) is reported and
  left for a person to write as an expression;
- the first markdown cell starts with the front matter ``numbering: enumerator: "NN.%s"``
  (per-notebook numbering in JupyterLab; the book strips it and numbers from its toctree);
- the file starts with the jupytext header naming the project's kernel (:data:`KERNELSPEC`),
  and the first cell says which environment the notebook needs (:data:`ENVIRONMENT_NOTE`);
- code cells between ``solution-start`` and ``solution-end`` are folded in JupyterLab
  (``jupyter={"source_hidden": true}`` on their header line).
"""

from __future__ import annotations

import ast
import json
import re
import sys
from pathlib import Path

import nbformat

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
#: The project's kernel, which ``bash run.sh notebooks`` installs into ``.venv`` (sys-prefix):
#: every notebook names it, so JupyterLab starts it without asking.
KERNELSPEC = {"display_name": "Python (gluon_perceptron)", "language": "python",
              "name": "gluon-perceptron"}
#: The jupytext header every source starts with (what jupytext reads the kernel from).
HEADER = ("# ---\n# jupyter:\n#   kernelspec:\n"
          f"#     display_name: {KERNELSPEC['display_name']}\n"
          f"#     language: {KERNELSPEC['language']}\n"
          f"#     name: {KERNELSPEC['name']}\n# ---\n")


_KEY = re.compile(r"\s*([A-Za-z_][\w.-]*)=")


def header_metadata(header: str) -> dict:
    """The cell metadata on a jupytext header line, as jupytext writes it: after ``# %%`` and an
    optional ``[markdown]``, ``key=<json>`` pairs, e.g.
    ``# %% mystnb={"figure": {"caption": "..."}}``. Raises ValueError on anything else."""
    rest = header[len("# %%"):].replace("[markdown]", "", 1)
    meta, pos, decoder = {}, 0, json.JSONDecoder()
    while rest[pos:].strip():
        key = _KEY.match(rest, pos)
        if not key:
            raise ValueError(f"cell header {header!r}: expected key=<json> at {rest[pos:]!r}")
        try:
            meta[key.group(1)], pos = decoder.raw_decode(rest, key.end())
        except json.JSONDecodeError as err:
            raise ValueError(f"cell header {header!r}: the value of {key.group(1)!r} is not "
                             f"JSON ({err.msg})") from None
    return meta


def _header(kind: str, metadata: dict) -> str:
    head = "# %% [markdown]" if kind == "markdown" else "# %%"
    pairs = " ".join(f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in metadata.items())
    return f"{head} {pairs}" if pairs else head


def convert(text: str) -> nbformat.NotebookNode:
    """The notebook a percent script describes: its cells (with the metadata of their header
    lines), no outputs, stable cell ids."""
    cells, kind, lines, meta = [], None, [], {}

    def flush():
        body = "\n".join(lines).strip("\n")
        if kind == "markdown":
            body = "\n".join(line[2:] if line.startswith("# ") else line.lstrip("#")
                             for line in body.splitlines())
            cells.append(nbformat.v4.new_markdown_cell(body, metadata=meta))
        elif kind == "code" and body.strip():
            cells.append(nbformat.v4.new_code_cell(body, metadata=meta))

    for line in text.splitlines():
        if line.startswith("# %%"):
            flush()
            kind, lines = ("markdown" if "[markdown]" in line else "code"), []
            meta = header_metadata(line)
        elif kind is not None:
            lines.append(line)
    flush()
    for i, cell in enumerate(cells):
        cell["id"] = f"cell-{i:02d}"  # stable ids: regenerating a notebook gives a small diff
    nb = nbformat.v4.new_notebook(cells=cells)
    nb.metadata["kernelspec"] = dict(KERNELSPEC)
    nb.metadata["language_info"] = {"name": "python"}
    nb.metadata["jupytext"] = {"formats": "ipynb,py:percent"}
    return nb


def to_percent(nb: nbformat.NotebookNode) -> str:
    """The percent script of a notebook (the inverse of :func:`convert`)."""
    parts = []
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            body = "\n".join(("# " + line).rstrip() for line in cell.source.splitlines())
            parts.append(_header("markdown", cell.metadata) + "\n" + body)
        elif cell.cell_type == "code":
            parts.append(_header("code", cell.metadata) + "\n" + cell.source)
    return HEADER + "\n" + "\n\n".join(parts) + "\n"


# --- unglue: the old sources to the current conventions ------------------------------------

_GLUE_ROLE = re.compile(r"\{glue:text\}`([A-Za-z_][\w.-]*)(?::([^`]*))?`")
_FRONT_MATTER = re.compile(r"\A---\nnumbering:\n  enumerator: \"(\d+)\.%s\"\n---\n")
#: An expression longer than this goes into a named variable rather than into the prose.
INLINE_LIMIT = 60
#: The dict that holds the numbers a loop computes for the prose (``PROSE["passes_xor"]``).
PROSE = "prose"


def _bound_names(nodes) -> set[str]:
    names = set()
    for node in nodes:
        for sub in ast.walk(node):
            if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store | ast.Del):
                names.add(sub.id)
            elif isinstance(sub, ast.FunctionDef | ast.ClassDef | ast.AsyncFunctionDef):
                names.add(sub.name)
            elif isinstance(sub, ast.alias):
                names.add((sub.asname or sub.name).split(".")[0])
    return names


def _glue_call(stmt) -> tuple[str, ast.expr] | None:
    """(key, value) of a top-level ``glue("key", value, ...)`` statement, else None."""
    if not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)):
        return None
    call = stmt.value
    if not (isinstance(call.func, ast.Name) and call.func.id == "glue" and len(call.args) >= 2
            and isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str)):
        return None
    return call.args[0].value, call.args[1]


def _glue_call_any(stmt) -> bool:
    return (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)
            and isinstance(stmt.value.func, ast.Name) and stmt.value.func.id == "glue"
            and len(stmt.value.args) >= 2)


def _expression(value: str, fmt: str | None) -> str:
    return f'f"{{{value}:{fmt}}}"' if fmt else value


def unglue(text: str, number: int) -> tuple[str, list[str]]:
    """The source ``text`` of notebook ``number`` in the current conventions (see the module's
    docstring), and what could not be converted."""
    nb = convert(text)
    cells = nb.cells
    left: list[str] = []
    trees = {}
    for i, cell in enumerate(cells):
        if cell.cell_type == "code":
            try:
                trees[i] = ast.parse(cell.source)
            except SyntaxError:  # IPython magics: nothing to convert in that cell
                trees[i] = ast.Module(body=[], type_ignores=[])
    all_names = set().union(*(_bound_names(t.body) for t in trees.values())) if trees else set()
    # every glue statement: key -> (cell, statement, value node)
    glued: dict[str, tuple[int, ast.stmt, ast.expr]] = {}
    for i, tree in trees.items():
        for stmt in tree.body:
            found = _glue_call(stmt)
            if found:
                glued[found[0]] = (i, stmt, found[1])
    # which keys each markdown cell shows
    uses: dict[str, list[int]] = {}
    for j, cell in enumerate(cells):
        if cell.cell_type == "markdown":
            for match in _GLUE_ROLE.finditer(cell.source):
                uses.setdefault(match.group(1), []).append(j)
    # decide, per key: the expression in the prose, and what replaces the glue line
    shown: dict[str, str] = {}
    replace: dict[tuple[int, int], str] = {}  # (cell, first line) -> replacement ("" drops it)
    spans: dict[tuple[int, int], int] = {}    # (cell, first line) -> last line
    for key, (i, stmt, value) in glued.items():
        source = ast.get_source_segment(cells[i].source, value) or ast.unparse(value)
        inline = source if "\n" not in source else ast.unparse(value)
        reads = {n.id for n in ast.walk(value) if isinstance(n, ast.Name)}
        later = [s for s in trees[i].body if s.lineno > stmt.lineno]
        rebound = set()
        for j in uses.get(key, []):
            rebound |= _bound_names(later)
            rebound |= _bound_names([s for k in range(i + 1, j) if k in trees
                                     for s in trees[k].body])
        spans[(i, stmt.lineno)] = stmt.end_lineno
        if key not in uses:
            replace[(i, stmt.lineno)] = ""
            continue
        fits = (len(inline) <= INLINE_LIMIT and not reads & rebound
                and not set('"\\`') & set(inline) and "\n" not in inline)
        if fits:
            shown[key] = inline
            replace[(i, stmt.lineno)] = ""
        else:
            name = key if key.isidentifier() and key not in all_names else f"shown_{key}"
            name = name.replace(".", "_").replace("-", "_")
            shown[key] = name
            indent = " " * stmt.col_offset
            replace[(i, stmt.lineno)] = f"{indent}{name} = {source}"
    # a glue inside a loop (its key computed, e.g. f"passes_{name}"): the value goes into the
    # dict PROSE under the same key, and the prose reads it from there
    nested: set[int] = set()
    for i, tree in trees.items():
        for top in tree.body:
            inner = [s for s in ast.walk(top) if s is not top and _glue_call_any(s)]
            for stmt in inner:
                key_src = ast.get_source_segment(cells[i].source, stmt.value.args[0])
                value_src = ast.get_source_segment(cells[i].source, stmt.value.args[1])
                indent = " " * stmt.col_offset
                replace[(i, stmt.lineno)] = f"{indent}{PROSE}[{key_src}] = {value_src}"
                spans[(i, stmt.lineno)] = stmt.end_lineno
                nested.add(i)
                if isinstance(stmt.value.args[0], ast.Constant):
                    shown[stmt.value.args[0].value] = f"{PROSE}[{stmt.value.args[0].value!r}]"
    for key in uses:
        if key not in shown and key not in glued and nested:
            shown[key] = f"{PROSE}[{key!r}]"
    # the code cells without their glue lines
    for i in trees:
        lines = cells[i].source.split("\n")
        out, skip_to = [], 0
        for n, line in enumerate(lines, start=1):
            if n <= skip_to:
                continue
            if (i, n) in replace:
                skip_to = spans[(i, n)]
                if replace[(i, n)]:
                    out.append(replace[(i, n)])
                continue
            out.append(line)
        cells[i].source = "\n".join(out).strip("\n")
    if nested and PROSE not in all_names:
        first = min(nested)
        cells[first].source = (f"{PROSE} = {{}}  # the numbers the prose below shows\n"
                               + cells[first].source)
    if not any(re.search(r"\bglue\(", cells[i].source) for i in trees):
        for i in trees:
            cells[i].source = re.sub(r"^from myst_nb import glue\n?", "", cells[i].source,
                                     flags=re.MULTILINE).strip("\n")

    def role(match: re.Match) -> str:
        key, fmt = match.group(1), match.group(2)
        if key not in shown:
            left.append(f"{{glue:text}}`{key}` (glued in a loop or not at all)")
            return match.group(0)
        return "{eval}`" + _expression(shown[key], fmt) + "`"

    for cell in cells:
        if cell.cell_type == "markdown":
            cell.source = _GLUE_ROLE.sub(role, cell.source)
    if any(re.search(r"^\s*glue\(", c.source, re.MULTILINE) for c in cells
           if c.cell_type == "code"):
        left.append("glue(...) calls remain (in loops): write their values as expressions")
    cells = _after_their_numbers(cells)
    _front_matter(cells, number)
    _environment_note(cells)
    _fold_solutions(cells)
    nb.cells = [c for c in cells if c.cell_type != "code" or c.source.strip()]
    return to_percent(nb), left


#: What the first cell says about the environment a notebook needs (for a Jupyter that is not
#: the project's: another kernel would import another gluon_perceptron, or none).
ENVIRONMENT_NOTE = ("*Runs on the kernel **Python (gluon_perceptron)**, this repository's `.venv`:"
                    " open it with `bash run.sh notebooks`, which installs both.*")


def _environment_note(cells) -> None:
    first = next(c for c in cells if c.cell_type == "markdown")
    if ENVIRONMENT_NOTE in first.source:
        return
    lines = first.source.split("\n")
    title = next((k for k, line in enumerate(lines) if line.startswith("# ")), None)
    if title is not None:
        lines[title + 1:title + 1] = ["", ENVIRONMENT_NOTE]
        first.source = "\n".join(lines)


def _read_names(expression: str) -> set[str]:
    """The free names an inline expression reads (builtins and comprehension targets left out)."""
    import builtins
    try:
        tree = ast.parse(expression, mode="eval")
    except SyntaxError:
        return set()
    inner = {n.id for c in ast.walk(tree) if isinstance(c, ast.comprehension)
             for n in ast.walk(c.target) if isinstance(n, ast.Name)}
    return ({n.id for n in ast.walk(tree) if isinstance(n, ast.Name)
             and isinstance(n.ctx, ast.Load)} - set(dir(builtins)) - inner)


def _after_their_numbers(cells) -> list:
    """Glue let the prose state a number computed further down; an inline expression is
    evaluated where it stands. A paragraph that reads a name no code cell above has bound (or a
    key of PROSE set further down) moves, with the rest of its cell, to just after the first
    code cell that binds it."""
    moved = True
    while moved:
        moved = False
        bound: set[str] = set()
        for j, cell in enumerate(cells):
            if cell.cell_type == "code":
                try:
                    bound |= _bound_names(ast.parse(cell.source).body)
                except SyntaxError:
                    pass
                continue
            paragraphs = cell.source.split("\n\n")
            for p, paragraph in enumerate(paragraphs):
                expressions = re.findall(r"\{eval\}`([^`]*)`", paragraph)
                missing = set().union(*map(_read_names, expressions)) - bound
                keys = set(re.findall(rf"{PROSE}\['([^']+)'\]", paragraph))
                if not missing and not keys:
                    continue
                target, seen = None, set(bound)
                for k in range(j + 1, len(cells)):
                    if cells[k].cell_type != "code":
                        continue
                    try:
                        seen |= _bound_names(ast.parse(cells[k].source).body)
                    except SyntaxError:
                        continue
                    sets_key = any(key.split("_")[0] in cells[k].source and PROSE + "[" in
                                   cells[k].source for key in keys)
                    if missing <= seen and (not keys or sets_key or not missing):
                        target = k if (missing or sets_key) else None
                        break
                if target is None:
                    continue
                head, tail = "\n\n".join(paragraphs[:p]), "\n\n".join(paragraphs[p:])
                cells.insert(target + 1, nbformat.v4.new_markdown_cell(tail))
                if head.strip():
                    cell.source = head
                else:
                    cells.pop(j)
                moved = True
                break
            if moved:
                break
    return cells


def _front_matter(cells, number: int) -> None:
    first = next(c for c in cells if c.cell_type == "markdown")
    if not _FRONT_MATTER.match(first.source + "\n"):
        first.source = (f'---\nnumbering:\n  enumerator: "{number}.%s"\n---\n'
                        + first.source)


def _fold_solutions(cells) -> None:
    """Fold (in JupyterLab) the code of every solution: the cells between a markdown cell with
    ``{solution-start}`` and the next with ``{solution-end}``."""
    inside = False
    for cell in cells:
        if cell.cell_type == "markdown":
            if "{solution-start}" in cell.source:
                inside = True
            if "{solution-end}" in cell.source:
                inside = False
        elif inside:
            cell.metadata.setdefault("jupyter", {})["source_hidden"] = True


# --- the student edition ----------------------------------------------------------------------

_LABEL = re.compile(r"\{solution(?:-start)?\}\s*(\S+)")


def _stub(source: str, label: str) -> str:
    """The stub of a solution's code: each function it defines raises NotImplementedError,
    the checker calls below it stay (their literal answers replaced by ``...``)."""
    tree = ast.parse(source)
    defs = [s for s in tree.body if isinstance(s, ast.FunctionDef)]
    checks = [s for s in tree.body if "exercises.check" in ast.unparse(s)]
    parts = []
    for func in defs:
        args = ast.get_source_segment(source, func.args) or ast.unparse(func.args)
        parts.append(f"def {func.name}({args}):\n"
                     f'    raise NotImplementedError("{label}: write {func.name}, then run '
                     'this cell to check it")')
    if not defs:
        parts.append(f'raise NotImplementedError("{label}: replace each ... below with your '
                     'answer, then run this cell")')
    lines = []
    for check in checks:
        if not defs:  # the answer is in the call: hide it
            check = _hide_answers(check)
            lines.append(ast.unparse(check))
        else:
            lines.append(ast.get_source_segment(source, check) or ast.unparse(check))
    return "\n\n\n".join(parts) + "\n\n\n" + "\n".join(lines)


def _hide_answers(stmt: ast.stmt) -> ast.stmt:
    class Hide(ast.NodeTransformer):
        def visit_Call(self, node):
            self.generic_visit(node)
            if "check" in ast.unparse(node.func):
                node.args = [a if isinstance(a, ast.Constant) and isinstance(a.value, str)
                             else ast.Constant(...) for a in node.args]
            return node
    return Hide().visit(stmt)


def student(text: str) -> tuple[nbformat.NotebookNode, dict[int, str]]:
    """The student edition of a notebook source: every solution taken out (its prose, and its
    code replaced by a stub that raises ``NotImplementedError``, with the checker call below
    it), and, per stub cell (its index), the reference solution's code to paste back."""
    nb = convert(text)
    front = _FRONT_MATTER.match(nb.cells[0].source + "\n") if nb.cells else None
    prefix = f"{front.group(1)}." if front else ""
    numbers = {}  # the exercises' labels -> "Exercise NN.k", as JupyterLab and the book number
    for cell in nb.cells:
        for found in re.finditer(r":::\{exercise\}[^\n]*\n:label: (\S+)", cell.source):
            numbers[found.group(1)] = f"Exercise {prefix}{len(numbers) + 1}"
    cells, references, inside, block, label = [], {}, False, [], ""
    for cell in nb.cells:
        if cell.cell_type == "markdown" and "{solution-start}" in cell.source:
            inside, block = True, []
            found = _LABEL.search(cell.source)
            label = numbers.get(found.group(1), "This exercise") if found else "This exercise"
            continue
        if cell.cell_type == "markdown" and "{solution-end}" in cell.source:
            inside = False
            if block:
                reference = "\n\n".join(block)
                stub = nbformat.v4.new_code_cell(_stub(reference, label))
                references[len(cells)] = reference
                cells.append(stub)
            continue
        if inside:
            if cell.cell_type == "code":
                block.append(cell.source)
            continue
        if cell.cell_type == "markdown" and re.search(r"^:::\{solution\}", cell.source,
                                                     re.MULTILINE):
            continue  # a solution in prose: the student writes it
        cells.append(cell)
    for i, cell in enumerate(cells):
        cell["id"] = f"cell-{i:02d}"
        cell.metadata.pop("jupyter", None)
    nb.cells = cells
    return nb, references


def write_student_edition(out: Path) -> list[Path]:
    """Write the student edition of every notebook into ``out`` as jupytext sources
    (``NN_name.py``); a file that is already there is the student's and is left as it is.
    Returns the files written."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for py, _ in pairs():
        target = out / py.name
        if target.exists():
            continue
        nb, _ = student(py.read_text())
        target.write_text(to_percent(nb))
        written.append(target)
    return written


def pairs(prefix: str = "") -> list[tuple[Path, Path]]:
    """(source, notebook) for every notebook source, sorted by name."""
    return [(py, py.with_suffix(".ipynb")) for py in sorted(NOTEBOOKS.glob(f"{prefix}*.py"))]


def rendered(py: Path) -> str:
    return nbformat.writes(convert(py.read_text())) + "\n"


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("build", "check", "unglue", "student"):
        print(__doc__)
        return 2
    if argv[0] == "student":
        out = Path(argv[1]) if len(argv) > 1 else NOTEBOOKS.parent / "student"
        written = write_student_edition(out)
        kept = len(pairs()) - len(written)
        print(f"student edition in {out}: {len(written)} notebooks written"
              + (f", {kept} already there left as they are" if kept else ""))
        return 0
    if argv[0] == "unglue":
        for py, _ in pairs(argv[1] if len(argv) > 1 else ""):
            text, left = unglue(py.read_text(), int(py.name[:2]))
            py.write_text(text)
            for what in left:
                print(f"{py.name}: not converted: {what}")
        return 0
    stale = []
    for py, ipynb in pairs(argv[1] if len(argv) > 1 else ""):
        text = rendered(py)
        if argv[0] == "build":
            ipynb.write_text(text)
        elif not ipynb.exists() or ipynb.read_text() != text:
            stale.append(ipynb.name)
    if stale:
        print("out of date with their .py source (run python tools/notebooks.py build): "
              + ", ".join(stale))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
