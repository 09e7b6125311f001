"""Timing helpers shared by the benchmarks (``run_all.py`` and the scripts it runs)."""

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
