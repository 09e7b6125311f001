"""Saving figures for the main job: each PNG written whole, and each run's files recorded.

A figure is drawn into a temporary file in the destination folder and renamed into place
(``os.replace``, atomic on one file system), so an interrupted run never leaves half a PNG.
While :func:`recording` is active, every saved path is appended to its list, with SIGINT held
back between the rename and the append, so the list is exactly the figures on disk.
"""

from __future__ import annotations

import contextlib
import os
import signal
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

import matplotlib.pyplot as plt


class FigureError(ValueError):
    """A figure cannot be written where it was asked to go (e.g. a folder holds its name)."""


_RECORDS: list[list[Path]] = []
_UMASK = os.umask(0o022)
os.umask(_UMASK)


@contextlib.contextmanager
def recording() -> Iterator[list[Path]]:
    """Collect the paths :func:`save_figure` writes inside the ``with`` block, in order."""
    paths: list[Path] = []
    _RECORDS.append(paths)
    try:
        yield paths
    finally:
        # by identity: list.remove compares by value, and two recordings may hold equal lists
        del _RECORDS[next(i for i, r in enumerate(_RECORDS) if r is paths)]


@contextlib.contextmanager
def _sigint_held() -> Iterator[None]:
    """Delay SIGINT (delivered on exit) where the main thread can; elsewhere do nothing."""
    can = (hasattr(signal, "pthread_sigmask")
           and threading.current_thread() is threading.main_thread())
    if can:
        old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        if can:
            signal.pthread_sigmask(signal.SIG_SETMASK, old)


_FIX = "pass a folder you can write to (--out DIR)"


def _reason(exc: OSError) -> str:
    return exc.strerror or type(exc).__name__


def folder_path(value, argument: str = "out_dir") -> Path:
    """``value`` as a :class:`~pathlib.Path`, refusing what is not a folder's path.

    Raises
    ------
    TypeError
        If ``value`` is not a ``str`` or ``os.PathLike`` (``None``, a number, bytes).
    ValueError
        If ``value`` is empty or holds a NUL character.
    """
    if not isinstance(value, str | os.PathLike):
        raise TypeError(f"{argument} must be a folder path (str or pathlib.Path), e.g. "
                        f"'figures', got {type(value).__name__}")
    text = os.fspath(value)
    if not isinstance(text, str):
        raise TypeError(f"{argument} must be a folder path (str or pathlib.Path), e.g. "
                        f"'figures', got a path of {type(text).__name__}")
    if not text or "\0" in text:
        raise ValueError(f"{argument} must be a non-empty folder path without NUL characters, "
                         f"e.g. 'figures', got {text!r}")
    return Path(text).expanduser()


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
        handle, probe = tempfile.mkstemp(dir=out, prefix=".write-test.", suffix=".part")
    except OSError as exc:
        return f"cannot be written to ({_reason(exc)}): {_FIX}"
    os.close(handle)
    os.unlink(probe)
    return None


def save_figure(fig, out_dir: str | os.PathLike, name: str) -> Path:
    """Save ``fig`` as ``out_dir/name.png`` (creating the folder), close it, return the path.

    The PNG is written to a temporary file beside it and renamed into place, so the path
    holds either the previous file or the whole new one, never a partial PNG.

    Raises
    ------
    TypeError
        If ``fig`` is not a matplotlib figure, or ``out_dir`` is not a path (``str`` or
        ``os.PathLike``).
    ValueError
        If ``name`` is not a plain file name, or ``out_dir`` is empty.
    FigureError
        (a ``ValueError``) if ``out_dir`` is a file, lies under a file, cannot be created or
        written to (``/proc/x``, a read-only folder), or ``out_dir/name.png`` is a folder.
    """
    if not callable(getattr(fig, "savefig", None)):
        raise TypeError(f"fig must be a matplotlib Figure (e.g. ax.figure), got "
                        f"{type(fig).__name__}")
    if not isinstance(name, str) or not name or "/" in name or "\\" in name \
            or name in (".", "..") or "\0" in name:
        raise ValueError(f"name must be a non-empty file name without folders or extension, "
                         f"e.g. '05_margins', got {name!r}")
    out = folder_path(out_dir, "out_dir")
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
    try:
        os.chmod(tmp, 0o666 & ~_UMASK)  # mkstemp makes it private; a PNG is not
        with os.fdopen(handle, "wb") as stream:
            fig.savefig(stream, format="png", dpi=90, bbox_inches="tight")
        with _sigint_held():
            os.replace(tmp, path)
            for paths in _RECORDS:
                paths.append(path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    finally:
        plt.close(fig)
    return path
