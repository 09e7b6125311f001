"""The student edition (``bash run.sh notebooks --student``, ``python tools/notebooks.py
student``): each notebook without its solutions, every solution's code replaced by a stub that
raises NotImplementedError, with the checker call below it.

Per notebook, the student copy is executed: every cell before its first stub runs without an
error, and the first stub stops at NotImplementedError (raised, or reported by the checker it
is handed to). Then, in the same kernel, each reference solution is pasted back in place of
its stub, and every checker passes. The reference sources and the book are not touched.

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


@pytest.mark.timeout(1800)
@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.stem[:2])
def test_student_copy_runs_to_its_first_stub_and_the_solutions_pass(source, tmp_path, kernel):
    import nbformat

    nb, references = tool.student(source.read_text())
    stubs = sorted(references)
    pasted = []
    for index in stubs:  # each reference solution, pasted back, runs after the student copy
        pasted.append(len(nb.cells))
        nb.cells.append(nbformat.v4.new_code_cell(references[index]))
    if not kernel.is_alive():  # the copy before ended it
        kernel.restart_kernel(now=True)
    _execute(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
        RESET.format(folder=str(tmp_path)))]), kernel)
    _execute(nb, kernel, allow_errors=True)
    first = stubs[0] if stubs else len(nb.cells) - len(pasted)
    for k, cell in enumerate(nb.cells[:first]):
        if cell.cell_type == "code":
            assert not _errors(cell.outputs), (
                f"{source.name}: cell {k} errs before the first stub: {_errors(cell.outputs)}")
    if not stubs:
        return  # no exercise with code: the copy ran to its end
    assert "NotImplementedError" in _text(nb.cells[first].outputs), (
        f"{source.name}: the first stub did not stop at NotImplementedError: "
        f"{_text(nb.cells[first].outputs)[:500]}")
    for index, at in zip(stubs, pasted):
        outputs = nb.cells[at].outputs
        shown = _text(outputs)
        assert not _errors(outputs), f"{source.name}: pasted solution errs: {_errors(outputs)}"
        assert "passed" in shown and "failed" not in shown, (
            f"{source.name}: the checker of the solution pasted back into cell {index} says "
            f"{shown[:500]!r}")
