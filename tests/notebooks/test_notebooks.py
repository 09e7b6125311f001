"""Every notebook runs top to bottom, calls the package instead of redefining it, has no outputs,
and what it prints backs the claims its prose makes (the claims below, one function per notebook).

The same claims are also checked on other seeds by the module tests; here they are checked on the
notebook's own run, so a notebook whose text and numbers drift apart fails.
"""

import json
import re
import sys
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parents[2] / "notebooks").glob("*.ipynb"))
PACKAGE_FUNCTIONS = re.compile(r"^\s*def (getfake|plotdata|plotscore|perceptron|train)\(",
                               re.MULTILINE)


def test_there_are_notebooks():
    """Numbered 01, 02, ... without gaps, so an empty or partial glob cannot pass silently."""
    numbers = [int(p.name[:2]) for p in NOTEBOOKS]
    assert len(numbers) >= 11 and numbers == list(range(1, len(numbers) + 1))


def test_every_notebook_has_its_source_and_they_agree(capsys):
    """``notebooks/NN_name.py`` (jupytext percent) is the source; the ``.ipynb`` is built from it
    by ``python tools/notebooks.py build`` and must not drift from it."""
    missing = [p.name for p in NOTEBOOKS if not p.with_suffix(".py").exists()]
    assert not missing, f"notebooks without a .py source: {missing}"
    # `python tools/notebooks.py check`, in this process (a new one pays nbformat's import again)
    assert _tool().main(["check"]) == 0, capsys.readouterr().out


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_is_clean(path):
    nb = json.loads(path.read_text())
    assert nb["metadata"]["kernelspec"]["name"] == "gluon-perceptron"  # the project's kernel
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    assert code, "a notebook with no code"
    for cell in code:
        src = "".join(cell["source"])
        assert not PACKAGE_FUNCTIONS.search(src), "redefines a package function"
        assert cell.get("outputs", []) == [], "outputs are not committed (see README)"
    assert any("gluon_perceptron" in "".join(c["source"]) for c in code)


def executed(book, path: Path):
    """The run of the notebook at ``path`` that the book's build made (``docs/build.py``)."""
    if not (book.out / "execution.json").exists():
        pytest.fail(f"the book was not built (python docs/build.py):\n{book.log[-4000:]}")
    runs = {Path(run.name).name: run for run in book.builder.read_runs(book.out)}
    assert path.stem in runs, f"{path.name} is not in the book built in {book.out}"
    return runs[path.stem]


@pytest.mark.timeout(3600)  # the first to ask builds the book (every notebook executed)
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_runs(path, book):
    """The notebook as the book executed it (once per test run: the ``book`` fixture): it ran
    to the end with no error and nothing on stderr (no warning), it shows a figure wherever it
    plots. The claims of its prose are tested on the experiments' objects, in each topic's
    test file."""
    run = executed(book, path)
    assert not run.problems, f"{path.name}, executed in {run.executed}:\n" + "\n".join(
        run.problems)


@pytest.mark.timeout(3600)
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_every_figure_has_a_caption(path, book):
    """Each cell that draws a figure carries its caption (``mystnb.figure.caption``, which the
    book shows under the figure and uses as its alt text), and draws one figure only."""
    nb = json.loads(Path(executed(book, path).executed).read_text())
    figures = 0
    for cell in nb["cells"]:
        pngs = [o for o in cell.get("outputs", []) if "image/png" in o.get("data", {})]
        if not pngs:
            continue
        figures += 1
        start = "".join(cell["source"])[:70]
        caption = cell["metadata"].get("mystnb", {}).get("figure", {}).get("caption", "")
        assert len(caption.split()) >= 5, f"a figure without a caption, in the cell {start!r}"
        assert len(pngs) == 1, f"one caption for {len(pngs)} figures, in the cell {start!r}"
    assert figures, f"{path.name} draws no figure"



def test_cell_header_metadata_reaches_the_notebook():
    """A caption on a header line (``# %% mystnb={...}``) becomes the cell's metadata, survives
    the round trip, and a header the converter cannot read is refused by name."""
    root = Path(__file__).resolve().parents[2]
    sys.path.insert(0, str(root / "tools"))
    try:
        import notebooks as tool
    finally:
        sys.path.pop(0)
    text = ('# %% mystnb={"figure": {"caption": "Two clouds."}}\nprint(1)\n\n'
            '# %% [markdown]\n# Text.\n')
    nb = tool.convert(text)
    assert nb.cells[0].metadata == {"mystnb": {"figure": {"caption": "Two clouds."}}}
    assert nb.cells[1].metadata == {}
    assert tool.convert(tool.to_percent(nb)) == nb
    with pytest.raises(ValueError, match="expected key=<json>"):
        tool.header_metadata("# %% caption")


def _tool():
    root = Path(__file__).resolve().parents[2]
    sys.path.insert(0, str(root / "tools"))
    try:
        import notebooks as tool
    finally:
        sys.path.pop(0)
    return tool


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_source_is_in_the_current_conventions(path):
    """No `glue`: the prose's numbers are inline expressions that the book and JupyterLab both
    evaluate; the source names the project's kernel, numbers per notebook (front matter), says
    which environment it needs and folds its solutions' code (``tools/notebooks.py unglue``
    would change nothing)."""
    tool = _tool()
    source = path.with_suffix(".py").read_text()
    assert "{glue" not in source and not re.search(r"^\s*glue\(", source, re.MULTILINE)
    assert "from myst_nb import glue" not in source
    assert source.startswith(tool.HEADER)
    assert tool.unglue(source, int(path.name[:2]))[0] == source, (
        "python tools/notebooks.py unglue would change it")


def test_unglue_writes_the_numbers_as_inline_expressions():
    tool = _tool()
    text = ("# %% [markdown]\n# # 4. Title\n\n"
            "# %%\nfrom myst_nb import glue\nx = [1, 2]\n"
            'glue("n", len(x), display=False)\nglue("m", sum(x) / 3, display=False)\n'
            'for k in (1, 2):\n    glue(f"k{k}", k * 10, display=False)\n\n'
            "# %% [markdown]\n# {glue:text}`n` items, mean {glue:text}`m:.2f`, "
            "{glue:text}`k2`.\n")
    new, left = tool.unglue(text, 4)
    assert not left
    assert "glue" not in new
    assert '{eval}`len(x)` items, mean {eval}`f"{sum(x) / 3:.2f}"`' in new
    assert "prose[f\"k{k}\"] = k * 10" in new and "{eval}`prose['k2']`" in new
    assert 'enumerator: "4.%s"' in new and new.startswith(tool.HEADER)
    assert tool.unglue(new, 4)[0] == new  # re-runnable
    nb = tool.convert(new)
    namespace: dict = {}
    exec(nb.cells[1].source, namespace)  # the code still runs, and the prose's values hold
    assert eval("len(x)", namespace) == 2 and eval("prose['k2']", namespace) == 20


# --- The notebooks show what they run (issue 28, item 7) ---------------------------------------

_LINK = re.compile(r"\]\((\d\d_[\w-]+)\.ipynb(?:#[\w-]*)?\)")


def _dotted(node) -> str | None:
    """``gp.rosenblatt.train`` for that attribute chain; None for anything else."""
    import ast

    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    return ".".join([node.id, *reversed(parts)]) if isinstance(node, ast.Name) else None


def _core_function(obj) -> bool:
    """A function of ``gluon_perceptron.core`` a reader should see (``show_source`` itself is
    the tool that shows, not an algorithm)."""
    import inspect

    import gluon_perceptron as gp

    return (inspect.isfunction(inspect.unwrap(obj)) and obj is not gp.show_source
            and getattr(obj, "__module__", "").startswith("gluon_perceptron.core"))


def _events(source: str) -> list[tuple]:
    """A notebook's source, in reading order: ``("text", markdown)`` for a markdown cell,
    ``("show", obj)`` for each object a ``gp.show_source(...)`` call shows, ``("call", obj,
    path)`` for each call of a package object through a ``gp.`` path (or a name imported from
    ``gluon_perceptron``), resolved to what the name refers to."""
    import ast
    import importlib
    import inspect

    import gluon_perceptron as gp

    names: dict = {"gp": gp, "gluon_perceptron": gp}
    events: list[tuple] = []

    def resolve(path):
        head, *rest = path.split(".")
        obj = names.get(head)
        for part in rest:
            obj = getattr(obj, part, None)
        return obj

    for cell in _tool().convert(source).cells:
        if cell.cell_type == "markdown":
            events.append(("text", cell.source))
            continue
        tree = ast.parse(cell.source)
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module is not None \
                    and node.module.startswith("gluon_perceptron"):
                module = importlib.import_module(node.module)
                names.update({a.asname or a.name: getattr(module, a.name) for a in node.names})
        calls = sorted((n for n in ast.walk(tree) if isinstance(n, ast.Call)),
                       key=lambda n: (n.lineno, n.col_offset))
        for call in calls:
            path = _dotted(call.func)
            obj = resolve(path) if path else None
            if obj is None:
                continue
            if obj is gp.show_source:
                shown = [resolve(_dotted(a)) if _dotted(a) else None for a in call.args]
                home = inspect.getmodule(shown[0]) if shown and shown[0] else None
                for arg, got in zip(call.args, shown):
                    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                        got = getattr(home, arg.value, None)
                    if got is not None:
                        events.append(("show", inspect.unwrap(got)))
            elif _core_function(obj):
                events.append(("call", inspect.unwrap(obj), path))
    return events


def shown_before_use(sources: dict[str, str]) -> dict[tuple[str, str], str | None]:
    """For each notebook (``{"02_perceptron_algorithm": source, ...}``) and each core function
    it calls: ``None`` when the page shows the function's source (``gp.show_source``) before
    its first call, or links before it, in a markdown cell that names the function, to a
    notebook that shows it; else what is missing."""
    events = {name: _events(source) for name, source in sources.items()}
    shows: dict[object, set[str]] = {}  # function -> the notebooks that show it
    for name, items in events.items():
        for item in items:
            if item[0] == "show":
                shows.setdefault(item[1], set()).add(name)
    verdicts: dict[tuple[str, str], str | None] = {}
    for name, items in events.items():
        shown, texts = set(), []
        for item in items:
            if item[0] == "text":
                texts.append(item[1])
            elif item[0] == "show":
                shown.add(item[1])
            elif (name, item[1].__qualname__) not in verdicts:  # its first call
                function, path = item[1], item[2]
                key = (name, function.__qualname__)
                word = re.compile(rf"\b{re.escape(function.__name__)}\b")
                linked = {m.group(1) for text in texts if word.search(text)
                          for m in _LINK.finditer(text)}
                if function in shown or linked & (shows.get(function, set()) - {name}):
                    verdicts[key] = None
                elif shows.get(function):
                    verdicts[key] = (f"{path} is called before it is shown; link "
                                     f"{sorted(shows[function])} before (naming it) or show it")
                else:
                    verdicts[key] = f"{path} is called but no notebook shows its source"
    return verdicts


def _sources() -> dict[str, str]:
    return {path.stem: path.with_suffix(".py").read_text() for path in NOTEBOOKS}


def test_every_core_function_is_shown_before_it_is_called():
    """Issue 28, item 7: every function of ``gluon_perceptron.core`` a notebook calls has its
    source on that page before its first call, or a link there to the notebook that shows it."""
    verdicts = shown_before_use(_sources())
    missing = {f"{name}: {function}": why for (name, function), why in verdicts.items() if why}
    assert len(verdicts) >= 60  # the parse found the calls: N was 63 when this was written
    assert not missing, (f"{len(verdicts) - len(missing)}/{len(verdicts)} shown before use; "
                         f"{missing}")


def test_the_shown_before_use_check_can_fail():
    head = "import gluon_perceptron as gp\n\n"
    late = head + "# %%\nX, Y = gp.getfake(5, 2, 0.1)\n\n# %%\ngp.show_source(gp.getfake)\n"
    early = head + "# %%\ngp.show_source(gp.getfake)\n\n# %%\nX, Y = gp.getfake(5, 2, 0.1)\n"
    linked = head + ("# %% [markdown]\n# `getfake` is shown in [notebook 01](01_a.ipynb).\n\n"
                     "# %%\nX, Y = gp.getfake(5, 2, 0.1)\n")
    unnamed = linked.replace("`getfake` is", "It is")
    pair = ("02_b", "getfake")
    call = head + "# %%\nX, Y = gp.getfake(5, 2, 0.1)\n"
    assert shown_before_use({"02_b": call})[pair].startswith("gp.getfake is called but")
    assert shown_before_use({"02_b": late})[pair].startswith(
        "gp.getfake is called before it is shown")
    assert shown_before_use({"01_a": early, "02_b": call})[pair].startswith(
        "gp.getfake is called before it is shown; link ['01_a']")
    self_link = (linked.replace("01_a.ipynb", "02_b.ipynb#later")
                 + "\n# %%\ngp.show_source(gp.getfake)\n")
    assert shown_before_use({"02_b": self_link})[pair] is not None  # a page's own later cell
    assert shown_before_use({"02_b": early})[pair] is None
    assert shown_before_use({"01_a": early, "02_b": linked})[pair] is None
    assert shown_before_use({"01_a": early, "02_b": unnamed})[pair] is not None
    assert shown_before_use({"01_a": late, "02_b": linked})[pair] is None  # 01 shows it
    aliased = head + "# %%\nfrom gluon_perceptron.theory import radius\n\nradius(X)\n"
    assert shown_before_use({"03_c": aliased})[("03_c", "radius")] is not None
