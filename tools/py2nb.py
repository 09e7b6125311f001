"""Turn a percent-format script into a clean notebook (no outputs, kernelspec python3).

    python tools/py2nb.py source.py notebooks/NN_name.ipynb

Cells start at lines ``# %%`` (code) or ``# %% [markdown]`` (markdown; each line of the cell
starts with ``# ``). The notebooks are the committed artefact; sources need not be kept.
"""

import sys

import nbformat


def convert(text: str) -> nbformat.NotebookNode:
    cells, kind, lines = [], None, []

    def flush():
        body = "\n".join(lines).strip("\n")
        if kind == "markdown":
            body = "\n".join(line[2:] if line.startswith("# ") else line.lstrip("#")
                             for line in body.splitlines())
            cells.append(nbformat.v4.new_markdown_cell(body))
        elif kind == "code" and body.strip():
            cells.append(nbformat.v4.new_code_cell(body))

    for line in text.splitlines():
        if line.startswith("# %%"):
            flush()
            kind, lines = ("markdown" if "[markdown]" in line else "code"), []
        elif kind is not None:
            lines.append(line)
    flush()
    for i, cell in enumerate(cells):
        cell["id"] = f"cell-{i:02d}"  # stable ids: regenerating a notebook gives a small diff
    nb = nbformat.v4.new_notebook(cells=cells)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    nb.metadata["language_info"] = {"name": "python"}
    return nb


if __name__ == "__main__":
    src, dst = sys.argv[1:3]
    nbformat.write(convert(open(src).read()), dst)
