"""The book's build takes its children with it (issue 32): Sphinx, its parallel workers and
the notebook kernels end when ``docs/build.py`` ends, by SIGTERM (``timeout``), Ctrl-C
(SIGINT) or SIGKILL, as the cluster's processes do.

Once, on a loaded machine, a build ended by ``timeout`` left its Sphinx process asleep, its
parent gone, for 1 h 42 min. Here the build executes one notebook that sleeps; when its kernel
is running the build is signalled, and every process it had started must be gone within
seconds.
"""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = [pytest.mark.book, pytest.mark.timeout(300)]

ROOT = Path(__file__).resolve().parents[2]


def _notebook(code: str) -> str:
    return json.dumps({"cells": [{"cell_type": "markdown", "metadata": {}, "source": "# Slow"},
                                 {"cell_type": "code", "metadata": {}, "execution_count": None,
                                  "outputs": [], "source": code}],
                       "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3",
                                                   "language": "python"}},
                       "nbformat": 4, "nbformat_minor": 5})


def _stat(pid: int) -> tuple[str, int, str] | None:
    """(state, parent, start time) of a live process, None once it is gone (a zombie is)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2:].split()
    return None if fields[0] in "ZX" else (fields[0], int(fields[1]), fields[19])


def _descendants(root: int) -> dict[int, str]:
    """Every live process under ``root``, with its start time (to tell a reused PID)."""
    parents = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (stat := _stat(int(entry))):
            parents[int(entry)] = stat
    found, frontier = {}, [root]
    while frontier:
        pid = frontier.pop()
        for child, (_, parent, started) in parents.items():
            if parent == pid and child not in found:
                found[child] = started
                frontier.append(child)
    return found


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT, signal.SIGKILL])
def test_the_build_takes_sphinx_and_the_kernels_with_it(tmp_path, sig):
    notebooks = tmp_path / "notebooks"
    notebooks.mkdir()
    flag = tmp_path / "kernel.pid"
    (notebooks / "01_slow.ipynb").write_text(_notebook(
        f"import os, time\nopen({str(flag)!r}, 'w').write(str(os.getpid()))\ntime.sleep(600)"))
    build = subprocess.Popen(
        [sys.executable, str(ROOT / "docs" / "build.py"), "--out", str(tmp_path / "out"),
         "--notebooks", str(notebooks), "--no-api", "--jobs", "1"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    children: dict[int, str] = {}
    try:
        deadline = time.monotonic() + 180
        while not flag.exists() or not flag.read_text():
            assert build.poll() is None, "the build ended before its notebook ran"
            assert time.monotonic() < deadline, "the notebook's kernel never started"
            time.sleep(0.2)
        kernel = int(flag.read_text())
        children = _descendants(build.pid)
        assert kernel in children, "the kernel is not among the build's processes"
        assert len(children) >= 2  # Sphinx and the kernel at least
        os.kill(build.pid, sig)
        build.wait(timeout=60)
        deadline = time.monotonic() + 20
        alive = children
        while alive and time.monotonic() < deadline:
            time.sleep(0.2)
            alive = {pid: s for pid, s in alive.items() if (st := _stat(pid)) and st[2] == s}
        commands = {pid: Path(f"/proc/{pid}/cmdline").read_bytes()[:120] for pid in alive}
        assert not alive, f"still running after {sig.name} of the build: {commands}"
    finally:
        if build.poll() is None:
            build.kill()
            build.wait()
        for pid, started in children.items():
            if (st := _stat(pid)) and st[2] == started:
                os.kill(pid, signal.SIGKILL)
