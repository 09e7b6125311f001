"""The processes a test left behind, read from ``/proc`` (Linux): shared by the cluster tests.

A test module that must leave no child process behind imports :func:`no_children_left` (an
autouse fixture there)."""

from __future__ import annotations

import os
import signal

import pytest


def _state(stat: str) -> tuple[str, int]:
    """A process's state letter and parent PID, from its ``/proc/PID/stat`` line (the command
    name, in parentheses, may hold spaces and parentheses itself)."""
    fields = stat[stat.rindex(")") + 2:].split()
    return fields[0], int(fields[1])


def alive(pid: int) -> bool:
    """Whether process ``pid`` exists and is not a zombie."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return _state(f.read())[0] != "Z"
    except OSError:
        return False


def children() -> dict[int, str]:
    """PID -> command line of every live (non-zombie) child of this process."""
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                state, parent = _state(f.read())
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                command = f.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if parent == os.getpid() and state != "Z":
            found[int(entry)] = command
    return found


@pytest.fixture(autouse=True)
def no_children_left():
    """After each test: no child process survives; any that does is killed by its PID."""
    before = set(children())
    yield
    left = {pid: command for pid, command in children().items() if pid not in before}
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left, f"processes left behind: {left}"
