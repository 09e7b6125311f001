"""How much of ``train_pocket``'s time goes to input validation (issue 10: at most 5 %).

``python benchmarks/validation_share.py`` (also part of ``bash run.sh bench``). Every function
of ``gluon_perceptron.core._checks`` is wrapped with a timer that counts only the outermost
call (``dataset`` calling ``features`` is counted once), then ``train_pocket`` runs on 1000 x 20
noisy data (never separable, so all 50 epochs run). The share is the time inside validation over
the time of the whole call, best of a few repeats.
"""

from __future__ import annotations

import functools
import inspect
import sys
import time
from dataclasses import dataclass

import numpy as np

import gluon_perceptron as gp
from gluon_perceptron.core import _checks

TARGET = 0.05


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


class _Timers:
    """Wraps the module's functions; time and calls counted at the outermost level only."""

    def __init__(self):
        self.depth = 0
        self.seconds = 0.0
        self.calls: dict[str, int] = {}
        self.saved = {name: fn for name, fn in vars(_checks).items()
                      if inspect.isfunction(fn) and fn.__module__ == _checks.__name__}

    def wrap(self, name, fn):
        @functools.wraps(fn)
        def timed(*args, **kwargs):
            if self.depth:
                return fn(*args, **kwargs)
            self.depth += 1
            self.calls[name] = self.calls.get(name, 0) + 1
            start = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                self.seconds += time.perf_counter() - start
                self.depth -= 1
        return timed

    def __enter__(self):
        for name, fn in self.saved.items():
            setattr(_checks, name, self.wrap(name, fn))
        return self

    def __exit__(self, *exc):
        for name, fn in self.saved.items():
            setattr(_checks, name, fn)


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


def main() -> int:
    share = measure()
    print(f"train_pocket 1000x20, 50 epochs: {share.seconds * 1e3:.1f} ms, validation "
          f"{share.validation_seconds * 1e3:.3f} ms in {share.checks} checks "
          f"({share.dataset_checks} of the dataset): share {share.ratio:.4f} "
          f"(target <= {TARGET})")
    return 0 if share.ratio <= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
