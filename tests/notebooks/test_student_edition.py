"""The student edition (``bash run.sh notebooks --student``, ``python tools/notebooks.py
student``): each notebook without its solutions, every solution's code replaced by a stub that
raises NotImplementedError, with the checker call below it.

Per notebook, the student copy runs to its first stub: every code cell before it is, in order
and to the character, a code cell of the notebook that the book's build executed (the ``book``
fixture: each notebook run once from its source for the whole test run), and that run reached
each of them without an error or anything on stderr; the copy has nothing before its first stub
that the notebook lacks, so it runs as the book's run did (the notebook is not executed a second
time here). Then, in a kernel given the names the copy imports before its first stub, the stubs
run and the first one stops at NotImplementedError (raised, or reported by the checker it is
handed to); each reference solution is pasted back after them, and every checker passes. The
solutions need no other name of the notebook: tests/experiments/test_exercises.py runs each
alone with ``np``, ``nd`` and ``gp``. The reference sources and the book are not touched.

The copies share one kernel per test process (its start, MXNet's import included, costs a few
CPU-seconds): each runs after ``%reset -f`` (no name of the copy before it is left), with its
own working folder and no figure open.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.py"))

sys.path.insert(0, str(ROOT / "tools"))
try:
    import notebooks as tool
finally:
    sys.path.pop(0)


def _text(outputs) -> str:
    parts = []
    for out in outputs:
        if out["output_type"] == "stream":
            parts.append(out["text"])
        elif out["output_type"] in ("execute_result", "display_data"):
            parts.append(out["data"].get("text/plain", ""))
        elif out["output_type"] == "error":
            parts.append(f"{out['ename']}: {out['evalue']}")
    return "\n".join(parts)


def _errors(outputs) -> list[str]:
    return [f"{o['ename']}: {o['evalue']}" for o in outputs if o["output_type"] == "error"]


def test_the_student_edition_has_no_solution():
    """No solution prose or code is left, and each code solution has become one stub."""
    for source in SOURCES:
        nb, references = tool.student(source.read_text())
        text = "\n".join(c.source for c in nb.cells)
        assert "{solution" not in text, source.name
        for index, reference in references.items():
            stub = nb.cells[index].source
            assert "raise NotImplementedError" in stub and "exercises.check" in stub
            body = [line for line in reference.splitlines()
                    if line.startswith("    ") and "NotImplementedError" not in line]
            assert not any(line in stub for line in body if line.strip()), (
                f"{source.name}: the stub keeps the solution's code:\n{stub}")
    assert sum(len(tool.student(s.read_text())[1]) for s in SOURCES) >= 10


def test_writing_the_student_edition_keeps_the_students_files(tmp_path):
    """A copy already there is the student's work: written once, never overwritten."""
    written = tool.write_student_edition(tmp_path)
    assert sorted(p.name for p in written) == [s.name for s in SOURCES]
    mine = tmp_path / SOURCES[0].name
    mine.write_text("# my own work\n")
    assert tool.write_student_edition(tmp_path) == []
    assert mine.read_text() == "# my own work\n"


#: Run in the shared kernel before each copy: no name left by the copy before (``%reset -f``
#: empties the namespace and the output history), the copy's own folder, no figure open.
RESET = """\
%reset -f
def _fresh(folder):
    import os, sys
    os.chdir(folder)
    if "matplotlib.pyplot" in sys.modules:
        sys.modules["matplotlib.pyplot"].close("all")
_fresh({folder!r})
del _fresh
assert not [name for name in get_ipython().user_ns if not name.startswith("_")
            and name not in get_ipython().user_ns_hidden], "names left by the copy before"
"""


@pytest.fixture(scope="module")
def kernel(tmp_path_factory):
    """One kernel manager, its kernel started, for the student copies this process runs."""
    from jupyter_client.manager import KernelManager

    folder = tmp_path_factory.mktemp("student-kernel")
    km = KernelManager(kernel_name="python3", transport="ipc",
                       ip=str(folder / "kernel"))  # no TCP port to lose to other tests
    km.start_kernel(cwd=str(folder))
    try:
        yield km
    finally:
        km.shutdown_kernel(now=True)


def _execute(nb, km, **options) -> None:
    """Execute ``nb`` in the running kernel of ``km`` (a client of its own, closed after)."""
    from nbclient import NotebookClient

    client = NotebookClient(nb, km=km, timeout=900, **options)
    try:
        client.execute()
    finally:
        if client.kc is not None:
            client.kc.stop_channels()


def _imports(cells) -> str:
    """The import statements of ``cells`` (code cells), in order: the names the copy has when
    its first stub runs, without the computations of the notebook."""
    import ast

    lines = []
    for cell in cells:
        for node in ast.parse(cell.source).body:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                lines.append(ast.unparse(node))
    return "\n".join(lines)


def _book_run(book, source: Path) -> list[dict]:
    """The code cells of the notebook ``source`` as the book's build executed them."""
    import json

    executed = book.out / "jupyter_execute" / "notebooks" / f"{source.stem}.ipynb"
    if not executed.exists():
        pytest.fail(f"the book did not execute {source.name} ({executed}):\n{book.log[-4000:]}")
    return [c for c in json.loads(executed.read_text())["cells"] if c["cell_type"] == "code"]


@pytest.mark.timeout(3600)  # the first to ask builds the book (every notebook executed)
@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.stem[:2])
def test_student_copy_runs_to_its_first_stub_and_the_solutions_pass(source, tmp_path, kernel,
                                                                      book):
    import nbformat

    nb, references = tool.student(source.read_text())
    stubs = sorted(references)
    first = stubs[0] if stubs else len(nb.cells)
    before = [cell for cell in nb.cells[:first] if cell.cell_type == "code"]
    ran = _book_run(book, source)
    if not stubs:  # no exercise with code: the copy is every code cell of the notebook
        assert len(before) == len(ran), (
            f"{source.name}: the student copy has {len(before)} code cells, the notebook "
            f"{len(ran)}")
    for k, (cell, run) in enumerate(zip(before, ran, strict=False)):
        assert cell.source == "".join(run["source"]), (
            f"{source.name}: code cell {k} of the student copy (before its first stub) is not "
            f"the notebook's code cell {k}:\n{cell.source[:500]}")
        assert run["execution_count"] is not None, (
            f"{source.name}: the book's run never reached code cell {k}: the copy would not "
            "run to its first stub")
        outputs = [nbformat.from_dict(o) for o in run.get("outputs", [])]
        stderr = [o["text"] for o in outputs if o["output_type"] == "stream"
                  and o["name"] == "stderr"]
        assert not _errors(outputs) and not stderr, (
            f"{source.name}: cell {k} errs before the first stub: {_errors(outputs)} {stderr}")
    assert len(ran) >= len(before), (
        f"{source.name}: the student copy has code cells before its first stub that the "
        f"notebook lacks ({len(before)} against {len(ran)})")
    if not stubs:
        return  # no exercise with code: the copy ran to its end (the book's run)
    cells = [nbformat.v4.new_code_cell(_imports(before))] + [nb.cells[i] for i in stubs]
    pasted = []
    for index in stubs:  # each reference solution, pasted back, runs after the stubs
        pasted.append(len(cells))
        cells.append(nbformat.v4.new_code_cell(references[index]))
    if not kernel.is_alive():  # the copy before ended it
        kernel.restart_kernel(now=True)
    _execute(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
        RESET.format(folder=str(tmp_path)))]), kernel)
    copy = nbformat.v4.new_notebook(cells=cells, metadata=nb.metadata)
    _execute(copy, kernel, allow_errors=True)
    assert not _errors(cells[0].outputs), (
        f"{source.name}: the copy's imports err: {_errors(cells[0].outputs)}")
    assert "NotImplementedError" in _text(cells[1].outputs), (
        f"{source.name}: the first stub did not stop at NotImplementedError: "
        f"{_text(cells[1].outputs)[:500]}")
    for index, at in zip(stubs, pasted):
        outputs = cells[at].outputs
        shown = _text(outputs)
        assert not _errors(outputs), f"{source.name}: pasted solution errs: {_errors(outputs)}"
        assert "passed" in shown and "failed" not in shown, (
            f"{source.name}: the checker of the solution pasted back into cell {index} says "
            f"{shown[:500]!r}")
