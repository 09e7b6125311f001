"""How much input validation a public call does: its time share (issue 10) and its count
(issue 18).

``python benchmarks/validation_share.py`` (also part of ``bash run.sh bench``). Every function
of ``gluon_perceptron.core._checks`` and the one entry into declared checking,
``gluon_perceptron.core._validation._check_call`` (all the rules of one call), are wrapped with
a timer that counts only the outermost entry: ``dataset`` calling ``features``, or a rule of a
checked call calling ``_checks``, is counted once.

1. The share (issue 10, at most 5 %): ``train_pocket`` on 1000 x 20 noisy data (never
   separable, so all 50 epochs run); the time inside validation over the time of the whole
   call, best of a few repeats.
2. The outer validation calls of one public call (issue 18, at most 10): ``train_pocket`` as
   above, ``remedies_experiment(seed=3)``, and ``remedies_over_seeds()``,
   ``margin_experiment()``, ``bound_experiment()`` with their defaults. A check of a call
   nested in a checked one (the package calling itself) is skipped, so it is not counted.
"""

from __future__ import annotations

import functools
import inspect
import sys
import time
from dataclasses import dataclass

import numpy as np

import gluon_perceptron as gp
from gluon_perceptron.core import _checks, _validation

TARGET = 0.05

#: Issue 18: the most outer validation calls one public call may make.
CALLS_TARGET = 10


@dataclass
class Share:
    """One measurement: seconds of the call, of its validation, and how many checks ran."""

    seconds: float
    validation_seconds: float
    checks: int
    dataset_checks: int

    @property
    def ratio(self) -> float:
        return self.validation_seconds / self.seconds


def _noisy(n: int, d: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    Y = np.where(X @ rng.standard_normal(d) > 0, 1.0, -1.0)
    Y[rng.random(n) < 0.1] *= -1
    return X, Y


@dataclass
class Calls:
    """The outer validation calls of one public call, by the name of the function entered."""

    label: str
    seconds: float
    by_name: dict[str, int]

    @property
    def calls(self) -> int:
        return sum(self.by_name.values())


class _Timers:
    """Wraps ``_checks``' functions and ``_validation._check_call``; time and calls counted at
    the outermost level only."""

    def __init__(self):
        self.depth = 0
        self.seconds = 0.0
        self.calls: dict[str, int] = {}
        self.saved = {(_checks, name): fn for name, fn in vars(_checks).items()
                      if inspect.isfunction(fn) and fn.__module__ == _checks.__name__}
        self.saved[_validation, "_check_call"] = _validation._check_call

    def wrap(self, name, fn):
        @functools.wraps(fn)
        def timed(*args, **kwargs):
            if self.depth:
                return fn(*args, **kwargs)
            self.depth += 1
            # _check_call(function, ...): named by the function whose rules it runs
            key = f"{args[0].__name__} (declared)" if name == "_check_call" else name
            self.calls[key] = self.calls.get(key, 0) + 1
            start = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                self.seconds += time.perf_counter() - start
                self.depth -= 1
        return timed

    def __enter__(self):
        for (module, name), fn in self.saved.items():
            setattr(module, name, self.wrap(name, fn))
        return self

    def __exit__(self, *exc):
        for (module, name), fn in self.saved.items():
            setattr(module, name, fn)


def measure(n: int = 1000, d: int = 20, epochs: int = 50, repeat: int = 5) -> Share:
    """Best-of-``repeat`` share of validation in ``train_pocket(X, Y, max_epochs=epochs)``."""
    X, Y = _noisy(n, d)
    gp.train_pocket(X, Y, max_epochs=2)  # warm-up: imports
    best = None
    for _ in range(repeat):
        with _Timers() as timers:
            start = time.perf_counter()
            result = gp.train_pocket(X, Y, max_epochs=epochs)
            total = time.perf_counter() - start
        assert result.epochs == epochs, "the benchmark wants data that is not separable"
        share = Share(total, timers.seconds, sum(timers.calls.values()),
                      timers.calls.get("dataset", 0))
        if best is None or share.seconds < best.seconds:
            best = share
    return best


def count(label: str, function, *args, **kwargs) -> Calls:
    """The outer validation calls of one ``function(*args, **kwargs)``."""
    with _Timers() as timers:
        start = time.perf_counter()
        function(*args, **kwargs)
        seconds = time.perf_counter() - start
    return Calls(label, seconds, dict(sorted(timers.calls.items(), key=lambda kv: -kv[1])))


def calls_per_public_call() -> list[Calls]:
    """Issue 18's table: the outer validation calls of each measured public call."""
    X, Y = _noisy(1000, 20)
    return [
        count("train_pocket 1000x20, 50 epochs", gp.train_pocket, X, Y, max_epochs=50),
        count("remedies_experiment(seed=3)", gp.experiments.remedies_experiment, seed=3),
        count("remedies_over_seeds()", gp.experiments.remedies_over_seeds),
        count("margin_experiment()", gp.experiments.margin_experiment),
        count("bound_experiment()", gp.experiments.bound_experiment),
    ]


def describe(row: Calls, top: int = 4) -> str:
    """``N outer validation calls (target <= 10): name x k, ...``."""
    names = ", ".join(f"{name} x {k}" for name, k in list(row.by_name.items())[:top])
    more = " ..." if len(row.by_name) > top else ""
    verdict = "ok" if row.calls <= CALLS_TARGET else "OVER"
    return (f"{row.calls} outer validation calls (target <= {CALLS_TARGET}, {verdict})"
            + (f": {names}{more}" if names else ""))


def main() -> int:
    share = measure()
    print(f"train_pocket 1000x20, 50 epochs: {share.seconds * 1e3:.1f} ms, validation "
          f"{share.validation_seconds * 1e3:.3f} ms in {share.checks} checks "
          f"({share.dataset_checks} of the dataset): share {share.ratio:.4f} "
          f"(target <= {TARGET})")
    rows = calls_per_public_call()
    for row in rows:
        print(f"{row.label:<34} {describe(row)}")
    ok = share.ratio <= TARGET and all(row.calls <= CALLS_TARGET for row in rows)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
