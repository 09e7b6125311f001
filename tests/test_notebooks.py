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

NOTEBOOKS = sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("*.ipynb"))
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
    root = Path(__file__).resolve().parent.parent
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
    root = Path(__file__).resolve().parent.parent
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
