"""Each notebook's run, from kernel start to its last cell (issue 27: at most 10 s on two idle
cores, at the sizes and seeds its prose states).

    python benchmarks/notebooks.py          # one row per notebook (also part of run_all.py)
    python benchmarks/notebooks.py 02 05    # only the notebooks whose name starts so

Each notebook (``notebooks/NN_name.ipynb``, built from its source) runs in a fresh kernel, one
after the other, as a student's Run All would, figures drawn inline. The kernel is the
project's, ``gluon-perceptron`` (what ``bash run.sh notebooks`` installs and every notebook
names), when this Python's Jupyter has it; else this Python, from a kernelspec made for the run.
A cell that errs stops the notebook and is reported.

Each row gives the seconds from the kernel's start to the end of the last cell (the target's
measure), their ratio to the 10 s target, and the CPU seconds the kernel process and its
children used (user + system, every thread): on a loaded machine the wall time says little and
the CPU time is the better guide to what two idle cores would take.
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
#: Issue 27's target for one notebook, kernel start to last cell, in seconds.
TARGET_SECONDS = 10.0
#: The project's kernel (``run.sh``'s ``kernel``; every notebook source names it).
KERNEL = "gluon-perceptron"


def kernel_specs(work: Path):
    """The kernelspec manager of the run and the kernel's name: the project's kernel when it
    is installed, else this Python under that name, from a kernelspec in ``work``."""
    from jupyter_client.kernelspec import KernelSpecManager

    specs = KernelSpecManager()
    if KERNEL in specs.find_kernel_specs():
        return specs, KERNEL
    spec = work / "kernels" / KERNEL
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "Python (gluon_perceptron)", "language": "python"}))
    return KernelSpecManager(kernel_dirs=[str(work / "kernels")]), KERNEL


def _cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of the process ``pid``, its live children and those it
    waited for."""
    import psutil

    process = psutil.Process(pid)
    t = process.cpu_times()
    total = t.user + t.system + t.children_user + t.children_system
    for child in process.children(recursive=True):
        try:
            c = child.cpu_times()
        except psutil.Error:
            continue
        total += c.user + c.system
    return total


def time_notebook(path: Path) -> tuple[float, float, str]:
    """Seconds from kernel start to the end of the last cell, the kernel's CPU seconds, and
    the error if one stopped it."""
    import nbformat
    from jupyter_client.manager import KernelManager
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    nb = nbformat.read(path, as_version=4)
    with tempfile.TemporaryDirectory(prefix="gluon-perceptron-bench-") as work:
        specs, name = kernel_specs(Path(work))
        km = KernelManager(kernel_name=name, kernel_spec_manager=specs, transport="ipc",
                           ip=str(Path(work) / "k"))
        client = NotebookClient(nb, km=km, timeout=600, kernel_name=name,
                                resources={"metadata": {"path": work}})
        start = time.perf_counter()
        error = ""
        with client.setup_kernel():
            try:
                for index, cell in enumerate(nb.cells):
                    client.execute_cell(cell, index)
            except CellExecutionError as exc:
                error = str(exc).strip().splitlines()[-1][:120]
            seconds = time.perf_counter() - start
            cpu = _cpu_seconds(km.provisioner.pid)
        return seconds, cpu, error


def run(prefixes: tuple[str, ...] = ()) -> list[tuple[str, float, float, str]]:
    """Time every notebook (or those whose name starts with one of ``prefixes``), printing a
    row for each: ``(name, seconds, cpu_seconds, error)``."""
    rows = []
    print(f"  {'notebook':<40} {'seconds':>8} {'/ 10 s':>7} {'cpu s':>6}", flush=True)
    for path in sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb")):
        if prefixes and not path.name.startswith(prefixes):
            continue
        seconds, cpu, error = time_notebook(path)
        rows.append((path.stem, seconds, cpu, error))
        print(f"  {path.stem:<40} {seconds:8.1f} {seconds / TARGET_SECONDS:7.2f} {cpu:6.1f}"
              f" {error}", flush=True)
    return rows


if __name__ == "__main__":
    over = [name for name, seconds, _, error in run(tuple(sys.argv[1:]))
            if error or seconds > TARGET_SECONDS]
    print(f"over {TARGET_SECONDS:g} s or failed: {', '.join(over) or 'none'}")
