"""Sections of the main job run at once, in helper processes (``--jobs N``).

Every section seeds the generators itself, so a section prints the same numbers in whichever
process runs it. :func:`split` cuts the sections, in the chapter's order, into ``N`` runs of
consecutive sections of about equal expected seconds; the job runs the first run itself and
one :class:`Helper` process (:mod:`~gluon_perceptron.main.helper`) runs each other. The job
still prints every section in order: a helper's section is printed when the job reaches it,
from what the helper reported (its printed lines, figures, seconds).

Only the package's own sections go to a helper (a helper finds a section by its module and
name); any other section runs in the job's process.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import pickle
import signal
import subprocess
import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from .drawer import HEADER

#: Seconds each section took on a 2-core machine in a run of two processes (``index.json``),
#: its figures drawn beside it; :func:`split` balances on them. A section not listed counts 1 s.
EXPECTED_SECONDS = {
    "The perceptron, step by step": 1.3,
    "Updates against the margin": 0.6,
    "The perceptron loss": 0.1,
    "The perceptron as SGD": 2.3,
    "Black & White": 4.9,
    "Convergence bounds": 0.7,
    "Optimality and generalization": 1.1,
    "Expressivity and the loss surface": 0.3,
    "Digits: 0 or not 0": 2.3,
    "Multiclass": 0.3,
    "The relaxation method": 1.1,
    "The perceptron on many machines": 4.3,
    "Beyond Rosenblatt": 2.7,
}


def available_cores() -> int:
    """The cores this process may run on."""
    with contextlib.suppress(AttributeError, OSError):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def split(names: list[str], jobs: int) -> list[list[str]]:
    """``names`` cut into at most ``jobs`` runs of consecutive names whose largest sum of
    :data:`EXPECTED_SECONDS` is as small as it can be (the linear partition problem, solved
    exactly: there are a dozen sections)."""
    cost = [EXPECTED_SECONDS.get(name, 1.0) for name in names]
    n, k = len(names), max(1, min(jobs, len(names)))
    prefix = [0.0]
    for c in cost:
        prefix.append(prefix[-1] + c)
    # best[j][i]: the smallest largest run when the first i names form j runs; cut: where
    # the last of those runs starts
    best = [[float("inf")] * (n + 1) for _ in range(k + 1)]
    cut = [[0] * (n + 1) for _ in range(k + 1)]
    best[0][0] = 0.0
    for j in range(1, k + 1):
        for i in range(1, n + 1):
            for start in range(j - 1, i):
                worst = max(best[j - 1][start], prefix[i] - prefix[start])
                if worst < best[j][i]:
                    best[j][i], cut[j][i] = worst, start
    runs, end = [], n
    for j in range(k, 0, -1):
        runs.append(names[cut[j][end]:end])
        end = cut[j][end]
    return [run for run in reversed(runs) if run]


def portable(section: Callable) -> bool:
    """Whether a helper process can find ``section``: one of the package's own functions,
    reachable by its module and name."""
    module = getattr(section, "__module__", "") or ""
    if not module.startswith("gluon_perceptron."):
        return False
    try:
        return getattr(importlib.import_module(module), section.__qualname__, None) is section
    except ImportError:
        return False


@dataclass
class Report:
    """What a helper reported of one section.

    Attributes
    ----------
    name : str
        The section.
    status : str
        ``"done"``, ``"failed"`` (it raised ``error``), ``"stopped"`` (by the job) or
        ``"lost"`` (the helper ended before reporting it).
    printed : str
        What the section printed.
    seconds : float or None
        How long it took in the helper.
    figures : int
        How many figures it saved.
    error : BaseException or None
        What it raised (``"failed"``), when that could travel between processes.
    traceback : str
        The helper's traceback (``"failed"``), or why the report is missing (``"lost"``).
    """

    name: str
    status: str
    printed: str = ""
    seconds: float | None = None
    figures: int = 0
    error: BaseException | None = None
    traceback: str = ""


#: Helper processes started ahead of their plan (:func:`start_helpers`), not yet given one.
_WAITING: list[subprocess.Popen] = []


def _spawn() -> subprocess.Popen:
    """A helper process (:mod:`~gluon_perceptron.main.helper`), dying with this one."""
    from ..core.distributed.lifeline import start_child

    return start_child("gluon_perceptron.main.helper", {**os.environ, "MPLBACKEND": "Agg"})


def start_helpers(count: int) -> None:
    """Start ``count`` helper processes now, so that they load MXNet and the sections while
    the job does (each takes seconds); :class:`Helper` gives them their plans."""
    _WAITING.extend(_spawn() for _ in range(count))


def end_waiting_helpers() -> None:
    """End the helpers started ahead that got no plan, by their PIDs, at once (they have only
    been loading modules)."""
    while _WAITING:
        process = _WAITING.pop()
        with contextlib.suppress(ProcessLookupError):
            process.kill()
        process.wait()
        for stream in (process.stdin, process.stdout):
            with contextlib.suppress(OSError):
                stream.close()


class Helper:
    """One helper process running ``names`` (in order) with the job's options: one started
    ahead (:func:`start_helpers`), or a new one.

    ``on_figure(section, path)`` is called for every figure the helper reports, as it is
    read. The process dies with the job, even on SIGKILL, and is stopped by its PID
    (:meth:`stop`).
    """

    def __init__(self, opts, names: list[str], on_figure: Callable[[str, Path], None]):
        self.names, self.on_figure = list(names), on_figure
        self.reports: dict[str, Report] = {}
        self.ended = False
        self.process = _WAITING.pop(0) if _WAITING else _spawn()
        plan = pickle.dumps((replace(opts, progress=False), self.names))
        try:
            self.process.stdin.write(plan)
            self.process.stdin.close()
        except OSError:  # it died at once: read() says so
            pass

    def _read(self) -> bool:
        """Read one message; False at the end of the helper's output (or of a message cut
        short by its death)."""
        head = self.process.stdout.read(HEADER.size)
        payload = self.process.stdout.read(HEADER.unpack(head)[0]) \
            if len(head) == HEADER.size else b""
        try:
            kind, name, *rest = pickle.loads(payload)
        except Exception:  # noqa: BLE001 - the end, or a message cut short
            self.ended = True
            return False
        if kind == "figure":
            self.on_figure(name, Path(rest[0]))
        elif kind in ("done", "failed"):
            self.reports[name] = Report(name, kind, *rest)
        elif kind == "stopped" and name is not None:
            self.reports[name] = Report(name, "stopped")
        return True

    def wait(self, name: str) -> Report:
        """The report of section ``name``, waiting for it (a lost report if the helper ended
        without one)."""
        while name not in self.reports and not self.ended:
            self._read()
        if name not in self.reports:
            code = self.process.wait()
            self.reports[name] = Report(name, "lost", traceback=(
                f"the helper process (pid {self.process.pid}) running {self.names} ended "
                f"with exit code {code} before it reported {name!r}"))
        return self.reports[name]

    def stop(self, grace: float = 30.0) -> list[Report]:
        """Stop the helper (SIGTERM, unless it reported its end; SIGKILL after ``grace``
        seconds or at a second Ctrl-C), read what it reported until then, and return the
        reports of the sections it finished."""
        timer = threading.Timer(grace, self._kill)
        timer.start()
        try:
            ended = set(self.names) <= set(self.reports) or any(
                r.status == "failed" for r in self.reports.values())  # it ends by itself
            if self.process.poll() is None and not ended:
                with contextlib.suppress(ProcessLookupError):
                    self.process.send_signal(signal.SIGTERM)
            while not self.ended:
                self._read()
        except BaseException:
            self._kill()
            raise
        finally:
            timer.cancel()
            self.process.wait()
            self.process.stdout.close()
        return [r for r in self.reports.values() if r.status == "done"]

    def _kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            self.process.kill()


class Helpers:
    """The helper processes of one run of the job: which of the ``chosen`` ``(name, section)``
    pairs they run (:func:`split`; the first run stays in the job), their reports, their end.
    The figures they report go into ``saved[name]`` and every active recording."""

    def __init__(self, opts, chosen: list, saved: dict[str, list[Path]]):
        self.opts, self.saved = opts, saved
        runs = split([name for name, _ in chosen], opts.jobs)
        movable = {name for name, section in chosen if portable(section)}
        # a run other than the first goes to a helper if all of its sections can
        self.plan = [run for run in runs[1:] if set(run) <= movable]
        self.runs: dict[str, Helper] = {}  # section name -> the helper running it
        self.helpers: list[Helper] = []

    def start(self) -> None:
        for run in self.plan:
            helper = Helper(self.opts, run, self._figure)
            self.helpers.append(helper)
            self.runs.update(dict.fromkeys(run, helper))

    def _figure(self, name: str, path: Path) -> None:
        from .figures import record

        self.saved[name].append(path)
        record(path)

    def wait(self, name: str) -> Report:
        return self.runs[name].wait(name)

    def stop(self) -> list[Report]:
        """Stop every helper; the reports of the sections they finished."""
        reports = []
        for helper in self.helpers:
            reports += helper.stop()
        return reports
