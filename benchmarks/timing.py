"""Timing helpers shared by the benchmarks (``run_all.py`` and the scripts it runs), and the
host's yardstick (``python benchmarks/timing.py`` prints it; ``bash run.sh test`` records it
before and after the tests)."""

from __future__ import annotations

import time


def best_time(fn, repeat: int) -> float:
    """Best wall time of ``repeat`` calls of ``fn`` (after the caller's warm-up)."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def interleaved_best(calls: dict, rounds: int) -> dict:
    """Best wall time of each call over ``rounds`` rounds that time every call in turn.

    Interleaving puts a slow spell of the machine on all of them alike, so their ratio holds
    where separate best-of runs drift apart.
    """
    best = dict.fromkeys(calls, float("inf"))
    for _ in range(rounds):
        for name, call in calls.items():
            start = time.perf_counter()
            call()
            best[name] = min(best[name], time.perf_counter() - start)
    return best


#: The yardstick's loop: additions in the interpreter, on one core, with no library.
YARDSTICK_ADDITIONS = 5_000_000
#: The yardstick on the machines the targets were set on (2 cores), with Debian's Python 3.11
#: (built with PGO), at its fastest measured (2026-11-27); pyenv's default build, without PGO,
#: takes about 0.12 s. The same machines drift by up to 40 % within twenty minutes.
REFERENCE_YARDSTICK_SECONDS = 0.091


def _additions(n: int) -> int:
    total = 0
    for i in range(n):
        total += i
    return total


def yardstick(repeat: int = 3) -> float:
    """Best wall time of :data:`YARDSTICK_ADDITIONS` additions in a Python loop: how fast this
    host runs this interpreter now. A test run's time times
    ``REFERENCE_YARDSTICK_SECONDS / yardstick()`` is what it would take on the reference
    machines, so a slow spell of the host (or a slower interpreter) is told apart from slower
    code."""
    return best_time(lambda: _additions(YARDSTICK_ADDITIONS), repeat)


if __name__ == "__main__":
    print(f"{yardstick():.4f}")
