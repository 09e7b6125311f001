"""The environment the main job's processes run in, and what they print of an interrupt.

MXNet reads its settings from the environment when it loads; a child process reads it when
Python starts. So the job sets them in its own environment before anything loads MXNet, and
every process it starts (helpers, the drawer, cluster nodes) inherits them. A value the user
set is kept, and the job's caller gets its environment back as it was.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator

#: Variable -> the job's default, each with the reason it pays.
DEFAULTS = {
    # figures are files: no window, in this process or its children
    "MPLBACKEND": "Agg",
    # MXNet's OpenMP threads only spin on the job's small arrays (a fifth of the CPU on two
    # cores); read when MXNet loads, so it holds unless MXNet was imported before
    "OMP_NUM_THREADS": "1",
    # children only (read when Python starts): MXNet's one use of distutils, a version
    # comparison, then loads the standard library's, not setuptools and pkg_resources (0.2 s)
    "SETUPTOOLS_USE_DISTUTILS": "stdlib",
}


@contextlib.contextmanager
def job_environment() -> Iterator[None]:
    """:data:`DEFAULTS` in ``os.environ`` where unset, inside the ``with`` block only (a job
    run inside another program, such as the tests, leaves its environment as it was)."""
    added = [name for name in DEFAULTS if name not in os.environ]
    os.environ.update({name: DEFAULTS[name] for name in added})
    try:
        yield
    finally:
        for name in added:
            os.environ.pop(name, None)


def quiet_unraisable(previous: Callable, dropped: Callable[..., bool]) -> Callable:
    """An ``unraisablehook`` that prints nothing for what ``dropped(unraisable)`` accepts and
    passes anything else to ``previous``. The job and its helpers drop what an interrupt leaves
    behind: the interrupt itself where Python dropped it (raised in a weakref callback or a
    ``__del__``; its flag stops the run at the next section), and :func:`cut_short`."""
    def hook(unraisable) -> None:
        if not dropped(unraisable):
            previous(unraisable)
    return hook


def cut_short(unraisable) -> bool:
    """An MXNet object whose ``__init__`` an interrupt cut short has no ``handle``, and its
    ``__del__`` raises ``AttributeError`` when the interrupt's frames are freed (Python would
    print it, with a traceback, after the job's one line)."""
    function = unraisable.object
    return (unraisable.exc_type is AttributeError and "'handle'" in str(unraisable.exc_value)
            and getattr(function, "__name__", "") == "__del__"
            and getattr(function, "__module__", "").startswith("mxnet."))
