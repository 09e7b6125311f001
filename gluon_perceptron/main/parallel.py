"""Sections of the main job run at once, in helper processes (``--jobs N``).

Every section seeds the generators itself, so a section prints the same numbers in whichever
process runs it. Who runs which is decided as they go (:class:`Claims`): the job takes the
sections from the front, in the chapter's order, and each :class:`Helper` process
(:mod:`~gluon_perceptron.main.helper`) takes the next free one from the back, until they
meet. No process waits while another still has sections to start, whatever the machine and
however long each section takes. The job still prints every section in order: a helper's
section is printed when the job reaches it, from what the helper reported (its printed lines,
figures, seconds).

Only the package's own sections go to a helper (a helper finds a section by its module and
name); any other section runs in the job's process.
"""

from __future__ import annotations

import contextlib
import fcntl
import importlib
import io
import os
import pickle
import signal
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, cast

from .drawer import HEADER

if TYPE_CHECKING:  # not at run time: importing core loads MXNet
    from ..core.distributed.lifeline import Piped

#: The job's sections, in order (a test checks them against the job): the CLI counts the
#: helpers it will want from these names before it loads anything heavy.
SECTIONS = (
    "The perceptron, step by step",
    "Updates against the margin",
    "The perceptron loss",
    "The perceptron as SGD",
    "Black & White",
    "Convergence bounds",
    "Optimality and generalization",
    "Expressivity and the loss surface",
    "Digits: 0 or not 0",
    "Multiclass",
    "The relaxation method",
    "The perceptron on many machines",
    "Beyond Rosenblatt",
    "The perceptron's family",
)

#: Who holds a section in :class:`Claims`: nobody yet, the job, or helper ``k`` (``HELPER + k``).
FREE, JOB, HELPER = 0, 1, 2


def helpers_for(jobs: int, sections: int) -> int:
    """Helper processes for ``sections`` sections in ``jobs`` processes (the job is one)."""
    return max(min(jobs, sections) - 1, 0)


def available_cores() -> int:
    """The cores this process may run on."""
    with contextlib.suppress(AttributeError, OSError):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


class Claims:
    """Which process runs each section of a run of the job, decided as they go.

    One byte per section (:data:`FREE`, :data:`JOB` or ``HELPER + k``) in a temporary file
    with no name (nothing is left on disk, even if every process is killed), open in the job
    and in each helper (the same descriptor, passed when the helper starts). A claim reads
    and writes its byte under a POSIX record lock (``fcntl.lockf``), which is held per process,
    so two processes never both take a section. ``flock`` would not do: its lock belongs to
    the open file, which the processes share.
    """

    def __init__(self, fd: int):
        self.fd = fd

    @classmethod
    def new(cls) -> Claims:
        handle, name = tempfile.mkstemp(prefix="gluon_perceptron-claims-")
        os.unlink(name)
        return cls(handle)

    def reset(self) -> None:
        """Every section free (a new run of the job)."""
        os.ftruncate(self.fd, 0)

    def take(self, index: int, who: int) -> int:
        """Claim section ``index`` for ``who`` if it is free; return who holds it now."""
        fcntl.lockf(self.fd, fcntl.LOCK_EX)
        try:
            held = os.pread(self.fd, 1, index)
            if held and held[0] != FREE:
                return held[0]
            os.pwrite(self.fd, bytes([who]), index)
            return who
        finally:
            fcntl.lockf(self.fd, fcntl.LOCK_UN)


def claims_from_the_back(claims: Claims, names: list, who: int):
    """The indices of ``names`` a helper ``who`` claims, from the last one back: it skips a
    ``None`` (a section only the job can run) and one another helper holds, and stops at the
    first one the job holds (the job has reached it, and holds every one before it)."""
    for index in reversed(range(len(names))):
        if names[index] is None:
            continue
        held = claims.take(index, who)
        if held == who:
            yield index
        elif held == JOB:
            return


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
_WAITING: list[Piped] = []
#: This process's :class:`Claims` (made with the first helper; each run resets it).
_CLAIMS: list[Claims] = []


def _claims() -> Claims | None:
    """This process's :class:`Claims`; None where no temporary file can be made (an unwritable
    temporary folder): the job then runs every section itself."""
    if not _CLAIMS:
        try:
            _CLAIMS.append(Claims.new())
        except OSError:
            return None
    return _CLAIMS[0]


def _spawn() -> Piped:
    """A helper process (:mod:`~gluon_perceptron.main.helper`), dying with this one, holding
    this process's :class:`Claims`."""
    from ..core.distributed.lifeline import start_child

    return start_child("gluon_perceptron.main.helper", {**os.environ, "MPLBACKEND": "Agg"},
                       pass_fds=(_CLAIMS[0].fd,))  # made by the caller's _claims()


def start_helpers(count: int) -> None:
    """Start ``count`` helper processes now, so that they load MXNet and the sections while
    the job does (each takes seconds); :class:`Helper` gives them their plans."""
    if _claims() is not None:
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
    """Helper process ``k`` of a run of the job: one started ahead (:func:`start_helpers`), or
    a new one. It takes sections of ``names`` (the run's sections in order, ``None`` for one
    only the job can run) from the back, as :func:`claims_from_the_back` says, and runs them
    with the job's options.

    ``on_figure(section, path)`` is called for every figure the helper reports, as it is
    read. The process dies with the job, even on SIGKILL, and is stopped by its PID
    (:meth:`stop`).
    """

    def __init__(self, opts, names: list, on_figure: Callable[[str, Path], None], k: int = 0):
        self.on_figure = on_figure
        self.reports: dict[str, Report] = {}
        self.ended = self.idle = False
        self.process = _WAITING.pop(0) if _WAITING else _spawn()
        plan = pickle.dumps((replace(opts, progress=False), list(names), _CLAIMS[0].fd,
                             HELPER + k))
        try:
            self.process.stdin.write(plan)
            self.process.stdin.close()
        except OSError:  # it died at once: read() says so
            pass

    def _read(self) -> bool:
        """Read one message; False at the end of the helper's output (or of a message cut
        short by its death).

        Ctrl-C may come while it waits (``peek`` only fills the stream's buffer: nothing is
        lost), not while it reads and records a message: a figure half read would be on disk
        and missing from the count and the manifest, and the next read would start inside it.
        """
        from .figures import sigint_held

        cast(io.BufferedReader, self.process.stdout).peek(1)
        with sigint_held():
            return self._take_message()

    def _take_message(self) -> bool:
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
        elif kind == "idle":  # no section left for it: it ends by itself
            self.idle = True
        return True

    def wait(self, name: str) -> Report:
        """The report of section ``name``, waiting for it (a lost report if the helper ended
        without one)."""
        while name not in self.reports and not self.ended:
            self._read()
        if name not in self.reports:
            code = self.process.wait()
            self.reports[name] = Report(name, "lost", traceback=(
                f"the helper process (pid {self.process.pid}) ended with exit code {code} "
                f"before it reported {name!r}"))
        return self.reports[name]

    def stop(self, grace: float = 30.0) -> list[Report]:
        """Stop the helper (SIGTERM, unless it reported its end; SIGKILL after ``grace``
        seconds or at a second Ctrl-C), read what it reported until then, and return the
        reports of the sections it finished."""
        timer = threading.Timer(grace, self._kill)
        timer.start()
        try:
            ended = self.idle or any(  # it ends by itself
                r.status == "failed" for r in self.reports.values())
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
    """The helper processes of one run of the job over the ``chosen`` ``(name, section)``
    pairs (``opts.jobs - 1`` of them, fewer for fewer sections), who runs what
    (:class:`Claims`), their reports, their end. The figures they report go into
    ``saved[name]`` and every active recording."""

    def __init__(self, opts, chosen: list, saved: dict[str, list[Path]]):
        self.opts, self.saved = opts, saved
        self.names = [name if portable(section) else None for name, section in chosen]
        movable = any(self.names) and _claims() is not None
        self.wanted = helpers_for(opts.jobs, len(chosen)) if movable else 0
        self.helpers: list[Helper] = []

    def start(self) -> None:
        if self.wanted:
            _CLAIMS[0].reset()
        for k in range(self.wanted):
            self.helpers.append(Helper(self.opts, self.names, self._figure, k))

    def claim(self, index: int) -> Helper | None:
        """Section ``index`` for the job (None), or the helper that took it first."""
        if not self.helpers:
            return None
        held = _CLAIMS[0].take(index, JOB)
        return None if held == JOB else self.helpers[held - HELPER]

    def _figure(self, name: str, path: Path) -> None:
        from .figures import record

        self.saved[name].append(path)
        record(path)

    def stop(self) -> list[Report]:
        """Stop every helper; the reports of the sections they finished."""
        reports = []
        for helper in self.helpers:
            reports += helper.stop()
        return reports
