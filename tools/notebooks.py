"""Keep each notebook's text source and its ``.ipynb`` in step.

The source of notebook ``notebooks/NN_name.ipynb`` is ``notebooks/NN_name.py``, a jupytext
"percent" script: cells start at ``# %%`` (code) or ``# %% [markdown]`` (markdown, every line
behind ``# ``). It diffs and lints like code; JupyterLab with jupytext opens it as a notebook.

    python tools/notebooks.py build          # write every .ipynb from its .py (no outputs)
    python tools/notebooks.py check          # exit 1 if an .ipynb differs from its .py
    python tools/notebooks.py build NN       # only the notebooks whose name starts with NN

A cell header may carry cell metadata as jupytext writes it, ``key=JSON`` pairs after the
``# %%`` (and its ``[markdown]``), e.g. a figure's caption for myst-nb::

    # %% mystnb={"figure": {"caption": "The data: blue is +1, orange is -1."}}
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import nbformat

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"


_KEY = re.compile(r"\s*([A-Za-z_][\w.-]*)=")


def header_metadata(header: str) -> dict:
    """The cell metadata on a ``# %%`` header line: its ``key=JSON`` pairs (jupytext's
    notation), ``{}`` when there are none. Anything else on the line is refused by name, so a
    caption with a typo in its JSON cannot vanish silently."""
    rest = header[len("# %%"):].strip()
    if rest.startswith("[markdown]"):
        rest = rest[len("[markdown]"):]
    meta, pos, decoder = {}, 0, json.JSONDecoder()
    while rest[pos:].strip():
        key = _KEY.match(rest, pos)
        if key is None:
            raise ValueError(f"cell header {header!r}: expected key=JSON at {rest[pos:]!r}")
        try:
            value, pos = decoder.raw_decode(rest, key.end())
        except json.JSONDecodeError as err:
            raise ValueError(f"cell header {header!r}: the value of {key.group(1)} is not "
                             f"JSON ({err.msg})") from None
        meta[key.group(1)] = value
    return meta


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
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    nb.metadata["language_info"] = {"name": "python"}
    nb.metadata["jupytext"] = {"formats": "ipynb,py:percent"}
    return nb


def to_percent(nb: nbformat.NotebookNode) -> str:
    """The percent script of a notebook (the inverse of :func:`convert`)."""
    parts = []
    for cell in nb.cells:
        meta = "".join(f" {key}={json.dumps(value, ensure_ascii=False)}"
                       for key, value in cell.get("metadata", {}).items())
        if cell.cell_type == "markdown":
            body = "\n".join(("# " + line).rstrip() for line in cell.source.splitlines())
            parts.append(f"# %% [markdown]{meta}\n" + body)
        elif cell.cell_type == "code":
            parts.append(f"# %%{meta}\n" + cell.source)
    return "\n\n".join(parts) + "\n"


def pairs(prefix: str = "") -> list[tuple[Path, Path]]:
    """(source, notebook) for every notebook source, sorted by name."""
    return [(py, py.with_suffix(".ipynb")) for py in sorted(NOTEBOOKS.glob(f"{prefix}*.py"))]


def rendered(py: Path) -> str:
    return nbformat.writes(convert(py.read_text())) + "\n"


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("build", "check"):
        print(__doc__)
        return 2
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
