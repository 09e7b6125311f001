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
        _RECORDS.remove(paths)


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


def save_figure(fig, out_dir, name: str) -> Path:
    """Save ``fig`` as ``out_dir/name.png`` (creating the folder), close it, return the path.

    The PNG is written to a temporary file beside it and renamed into place, so the path
    holds either the previous file or the whole new one, never a partial PNG.

    Raises
    ------
    TypeError
        If ``fig`` is not a matplotlib figure.
    ValueError
        If ``name`` is not a plain file name, or ``out_dir`` is a file.
    FigureError
        (a ``ValueError``) if ``out_dir/name.png`` exists and is a folder.
    """
    if not callable(getattr(fig, "savefig", None)):
        raise TypeError(f"fig must be a matplotlib Figure (e.g. ax.figure), got "
                        f"{type(fig).__name__}")
    if not isinstance(name, str) or not name or "/" in name or "\\" in name \
            or name in (".", "..") or "\0" in name:
        raise ValueError(f"name must be a non-empty file name without folders or extension, "
                         f"e.g. '05_margins', got {name!r}")
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise ValueError(f"out_dir {str(out)!r} is a file; pass a folder to save figures in")
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{name}.png"
    if path.is_dir():
        raise FigureError(f"{path} is a folder, so the figure {name!r} cannot be saved there: "
                          f"move or rename that folder, or save into another folder "
                          f"(--out DIR)")
    handle, tmp = tempfile.mkstemp(dir=out, prefix=f".{name}.", suffix=".png.part")
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
