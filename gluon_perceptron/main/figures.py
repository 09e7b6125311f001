"""Saving figures for the main job: each PNG written whole, and each run's files recorded.

A figure is drawn into a temporary file in the destination folder and renamed into place
(``os.replace``, atomic on one file system), so an interrupted run never leaves half a PNG.
While :func:`recording` is active, every saved path is appended to its list, with SIGINT held
back between the rename and the append, so the list is exactly the figures on disk.

Inside :func:`saving_in_background` (the main job), :func:`save_figure` hands each figure,
pickled, to one drawer process (:mod:`~gluon_perceptron.main.drawer`) and returns at once, so
the job computes its next figure while the last one is drawn (on two cores, drawing is a third
of the job). The rename and the recording still happen in this process, in the order of the
calls, and the block does not end before every figure it was handed is on disk. A figure that
does not pickle, or that the drawer fails on, is drawn here as before.
"""

from __future__ import annotations

import collections
import contextlib
import os
import pickle
import signal
import subprocess
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path


class FigureError(ValueError):
    """A figure cannot be written where it was asked to go (e.g. a folder holds its name)."""


_RECORDS: list[list[Path]] = []
_BACKGROUND: list[_Background] = []
_CALLS = [0]  # calls of save_figure so far (drawn or still being drawn)
#: How figures are drawn: the same in this process and in the drawer.
_SAVEFIG = {"format": "png", "dpi": 90, "bbox_inches": "tight"}
_UMASK = os.umask(0o022)
os.umask(_UMASK)

#: The mode of the job's files (figures and manifest): what ``open`` would give, 0644 under
#: the usual umask 022.
FIGURE_MODE = 0o666 & ~_UMASK


@contextlib.contextmanager
def recording(into: list | None = None) -> Iterator[list[Path]]:
    """Collect the paths :func:`save_figure` writes inside the ``with`` block, in order (into
    a new list, or ``into``: a list whose ``append`` does more, as a helper process's does)."""
    paths: list[Path] = [] if into is None else into
    _RECORDS.append(paths)
    try:
        yield paths
    finally:
        # by identity: list.remove compares by value, and two recordings may hold equal lists
        del _RECORDS[next(i for i, r in enumerate(_RECORDS) if r is paths)]


def calls() -> int:
    """How many figures :func:`save_figure` was asked to save so far in this process."""
    return _CALLS[0]


def _draw(fig, file: str) -> None:
    with open(file, "wb") as stream:
        fig.savefig(stream, **_SAVEFIG)


def _publish(tmp: str, path: Path, records: list) -> None:
    """Rename the whole PNG into place and record it, SIGINT held back in between."""
    with sigint_held():
        try:
            os.replace(tmp, path)
        except OSError as exc:
            raise FigureError(f"{path} cannot be replaced ({_reason(exc)}): it is read-only, "
                              f"immutable or not yours to overwrite; move or delete it, or save "
                              f"into another folder (--out DIR)") from exc
        for paths in records:
            paths.append(path)


def record(path: Path) -> None:
    """Add ``path``, a figure another process saved for this job (a section run in a helper
    process), to every active :func:`recording`, as :func:`save_figure` adds its own."""
    with sigint_held():
        for paths in _RECORDS:
            paths.append(path)


class _Background:
    """One drawer process and the figures handed to it, ``(fig, tmp, path, records)`` each, in
    the order they were saved; at most ``limit`` wait at once."""

    def __init__(self, limit: int):
        from ..core.distributed.lifeline import start_child
        from . import drawer

        self.limit = limit
        self.pending: collections.deque = collections.deque()
        self.header = drawer.HEADER
        self.process = start_child("gluon_perceptron.main.drawer",
                                   {**os.environ, "MPLBACKEND": "Agg"})

    def submit(self, fig, tmp: str, path: Path, records: list) -> bool:
        """Hand ``fig`` to the drawer; False if it cannot go (it does not pickle, the drawer is
        gone): then the caller draws it."""
        while len(self.pending) >= self.limit:
            self.finish_one()
        try:
            payload = pickle.dumps((fig, tmp, _SAVEFIG), protocol=pickle.HIGHEST_PROTOCOL)
        except Exception:  # a figure holding something that does not pickle
            return False
        try:
            self.process.stdin.write(self.header.pack(len(payload)) + payload)
            self.process.stdin.flush()
        except OSError:  # the drawer died: draw here from now on
            return False
        self.pending.append((fig, tmp, path, records))
        _close(fig)  # out of pyplot's figures now (plt.gcf() is not it); drawable still
        return True

    def finish_one(self) -> None:
        """Wait for the oldest figure, then rename it into place and record it; if the drawer
        failed on it, draw it here (which raises what went wrong)."""
        fig, tmp, path, records = self.pending.popleft()
        try:
            if self.process.stdout.readline().strip() != b"ok":
                _draw(fig, tmp)
            _publish(tmp, path, records)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise

    def finish(self) -> None:
        while self.pending:
            self.finish_one()

    def stop(self) -> None:
        """End the drawer (by its PID if it does not end at the end of its input) and remove
        the temporary files of figures it did not finish."""
        with contextlib.suppress(OSError):
            self.process.stdin.close()
        try:
            self.process.wait(timeout=0 if self.pending else 10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process.stdout.close()
        while self.pending:
            with contextlib.suppress(OSError):
                os.unlink(self.pending.popleft()[1])


@contextlib.contextmanager
def saving_in_background(limit: int = 2) -> Iterator[None]:
    """Inside the block, :func:`save_figure` hands each figure to a drawer process (at most
    ``limit`` waiting) and returns at once; the block ends when every figure is on disk and
    recorded, in the order of the calls, also when it ends by an exception (a second Ctrl-C
    while waiting stops the drawer and removes its temporary files). Outside the main thread,
    figures are drawn in place as usual."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    background = _Background(limit)
    _BACKGROUND.append(background)
    try:
        try:
            yield
        finally:
            _BACKGROUND.remove(background)
            background.finish()
    finally:
        background.stop()


@contextlib.contextmanager
def sigint_held() -> Iterator[None]:
    """Delay SIGINT and SIGTERM (delivered on exit) where the main thread can; elsewhere do
    nothing. A helper process of the job is stopped with SIGTERM: a figure it renamed into
    place is recorded, and so reported to the job, before it stops.

    Blocking the signals is not enough for SIGINT: one that arrived just before the block has
    tripped Python's flag, and its handler (``KeyboardInterrupt``) would run at the next
    bytecode inside the block. So the block also puts a handler in place that only notes it,
    and a noted SIGINT is raised again, through the handler before, when the block ends.
    """
    main = threading.current_thread() is threading.main_thread()
    noted: list[int] = []
    before = signal.getsignal(signal.SIGINT) if main else None
    own = callable(before)  # Python's handler (or the job's): not SIG_IGN, SIG_DFL or C's
    if own:
        signal.signal(signal.SIGINT, lambda signum, frame: noted.append(signum))
    can = hasattr(signal, "pthread_sigmask") and main
    if can:
        old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        yield
    finally:
        if can:
            signal.pthread_sigmask(signal.SIG_SETMASK, old)
        if own:
            signal.signal(signal.SIGINT, before)
            if noted:
                signal.raise_signal(signal.SIGINT)


_FIX = "pass a folder you can write to (--out DIR)"


def _close(fig) -> None:
    """``plt.close(fig)``; pyplot loads on first use, so that checking ``--out`` (before the
    job starts its helpers) costs no pyplot import."""
    import matplotlib.pyplot as plt

    plt.close(fig)


def _reason(exc: OSError) -> str:
    return exc.strerror or type(exc).__name__


def folder_problem(out: Path, probe: bool = True) -> str | None:
    """Create the folder ``out`` if needed and (with ``probe``) check a file can be written in it.

    Returns None when figures can be saved there, else what is wrong, as the end of a
    sentence whose subject is the folder (``"is a file; ..."``), with the fix.
    """
    if out.exists() and not out.is_dir():
        return "is a file; pass a folder to save figures in (--out DIR)"
    for parent in out.parents:
        if parent.exists():
            if not parent.is_dir():
                return f"is under {str(parent)!r}, which is a file, not a folder: {_FIX}"
            break
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        return f"cannot be created ({_reason(exc)}): {_FIX}"
    if not probe:
        return None
    try:
        handle, written = tempfile.mkstemp(dir=out, prefix=".write-test.", suffix=".part")
    except OSError as exc:
        return f"cannot be written to ({_reason(exc)}): {_FIX}"
    os.close(handle)
    os.unlink(written)
    return None


def save_figure(fig, out_dir: str | os.PathLike, name: str) -> Path:
    """Save ``fig`` as ``out_dir/name.png`` (creating the folder), close it, return the path.

    The PNG is written to a temporary file beside it and renamed into place, so the path
    holds either the previous file or the whole new one, never a partial PNG.

    Only the package calls it (the main job's sections, with their own figures and file names,
    and the folder the command line's ``--out`` gave as a path): its arguments are not checked.

    Raises
    ------
    FigureError
        (a ``ValueError``) if ``out_dir`` is a file, lies under a file, cannot be created or
        written to (``/proc/x``, a read-only folder), or ``out_dir/name.png`` is a folder.
    """
    out = Path(out_dir).expanduser()
    problem = folder_problem(out, probe=False)  # mkstemp below is the probe
    if problem:
        raise FigureError(f"out_dir {str(out)!r} {problem}")
    path = out / f"{name}.png"
    if path.is_dir():
        raise FigureError(f"{path} is a folder, so the figure {name!r} cannot be saved there: "
                          f"move or rename that folder, or save into another folder "
                          f"(--out DIR)")
    try:
        handle, tmp = tempfile.mkstemp(dir=out, prefix=f".{name}.", suffix=".png.part")
    except OSError as exc:
        raise FigureError(f"out_dir {str(out)!r} cannot be written to ({_reason(exc)}): "
                          f"{_FIX}") from exc
    _CALLS[0] += 1
    try:
        os.chmod(tmp, FIGURE_MODE)  # mkstemp makes it private; a PNG is not
        os.close(handle)
        if _BACKGROUND and _BACKGROUND[-1].submit(fig, tmp, path, list(_RECORDS)):
            return path
        _draw(fig, tmp)
        _publish(tmp, path, list(_RECORDS))
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    finally:
        _close(fig)
    return path
