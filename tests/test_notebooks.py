"""Every notebook runs top to bottom, calls the package instead of redefining it, has no outputs."""

import json
import os
import re
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("*.ipynb"))
PACKAGE_FUNCTIONS = re.compile(r"^\s*def (getfake|plotdata|plotscore|perceptron|train)\(",
                               re.MULTILINE)


def test_there_are_notebooks():
    assert len(NOTEBOOKS) >= 3


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_is_clean(path):
    nb = json.loads(path.read_text())
    assert nb["metadata"]["kernelspec"]["name"] == "python3"
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    assert code, "a notebook with no code"
    for cell in code:
        src = "".join(cell["source"])
        assert not PACKAGE_FUNCTIONS.search(src), "redefines a package function"
        assert cell.get("outputs", []) == [], "outputs are not committed (see README)"
    assert any("gluon_perceptron" in "".join(c["source"]) for c in code)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_runs(path, tmp_path):
    nbformat = pytest.importorskip("nbformat")
    from nbclient import NotebookClient

    os.environ["MPLBACKEND"] = "Agg"
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(nb, timeout=600, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}})
    client.execute()
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
              if o.get("output_type") == "error"]
    assert not errors
