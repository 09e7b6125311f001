"""Each notebook's run, from kernel start to its last cell (issue 27: at most 10 s on two idle
cores, at the sizes and seeds its prose states).

    python benchmarks/notebooks.py          # one row per notebook (also part of run_all.py)
    python benchmarks/notebooks.py 02 05    # only the notebooks whose name starts so

Each notebook (``notebooks/NN_name.ipynb``, built from its source) runs in a fresh kernel of
this Python, one after the other, as a student's Run All would, figures drawn inline; the time
includes the kernel's start. A cell that errs stops the notebook and is reported.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
#: Issue 27's target for one notebook, kernel start to last cell, in seconds.
TARGET_SECONDS = 10.0


def time_notebook(path: Path) -> tuple[float, str]:
    """Seconds from kernel start to the end of the last cell, and the error if one stopped it."""
    import nbformat
    from jupyter_client.manager import KernelManager
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    nb = nbformat.read(path, as_version=4)
    with tempfile.TemporaryDirectory(prefix="gluon-perceptron-bench-") as work:
        km = KernelManager(kernel_name="python3", transport="ipc", ip=str(Path(work) / "k"))
        client = NotebookClient(nb, km=km, timeout=600,
                                resources={"metadata": {"path": work}})
        start = time.perf_counter()
        try:
            client.execute()
            error = ""
        except CellExecutionError as exc:
            error = str(exc).strip().splitlines()[-1][:120]
        return time.perf_counter() - start, error


def run(prefixes: tuple[str, ...] = ()) -> list[tuple[str, float, str]]:
    rows = []
    for path in sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb")):
        if prefixes and not path.name.startswith(prefixes):
            continue
        seconds, error = time_notebook(path)
        rows.append((path.stem, seconds, error))
        print(f"  {path.stem:<40} {seconds:6.1f} s {error}", flush=True)
    return rows


if __name__ == "__main__":
    over = [name for name, seconds, error in run(tuple(sys.argv[1:]))
            if error or seconds > TARGET_SECONDS]
    print(f"over {TARGET_SECONDS:g} s or failed: {', '.join(over) or 'none'}")
