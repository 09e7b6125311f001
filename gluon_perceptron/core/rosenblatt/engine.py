r"""What every trainer's passes share: the driver that repeats them, the overflow guard, the
scan-ahead, and the switch that compiles the fast twins.

- :func:`_guard` (from :mod:`.._arrays`, the one overflow guard): the one overflow error of a
  pass, "the margins ... in pass 3" or "the weights ... in pass 3". A readable trainer calls it
  on every margin and on the weights after a pass.
- :func:`_drive`: repeats a twin's passes until one makes no update or ``max_epochs`` are done,
  and raises (through :func:`_guard`) when the weights or the margins overflow.
- :func:`_scan_ahead`: between two updates the weights do not change, so the next mistake can be
  found for a whole block of examples at once; the fast twins of the perceptron
  (:mod:`gluon_perceptron.core.fast.training_fast`), the kernel perceptron and the relaxation
  method's stream use it.
- :data:`FAST_BACKEND` and :func:`_jit`: numba, when installed, compiles the twins.

The readable loops themselves are the public trainers (:func:`~.training.train`,
:mod:`.variants`); their fast twins live in :mod:`gluon_perceptron.core.fast`. Nothing here
validates its arguments: the public trainers declare their rules, checked once at the edge.
"""

from __future__ import annotations

import importlib
import math
import os
import warnings
from collections.abc import Callable, Sequence
from types import ModuleType

import numpy as np

from .._arrays import SCALE_OR_RATE, _guard

#: ``GLUON_PERCEPTRON_FAST=numpy`` keeps numba out entirely (not imported, nothing compiled).
_WANT_NUMPY = os.environ.get("GLUON_PERCEPTRON_FAST", "") == "numpy"


numba: ModuleType | None = None


if not _WANT_NUMPY:
    try:  # optional: a compiled loop for the fast engine
        numba = importlib.import_module("numba")
    except ImportError:  # pragma: no cover - exercised only where numba is not installed
        numba = None


#: How ``engine="fast"`` runs: ``"compiled"`` (numba, when installed) or ``"numpy"`` (block
#: scan). Set the environment variable ``GLUON_PERCEPTRON_FAST=numpy`` to force the numpy path.
FAST_BACKEND = "compiled" if numba is not None else "numpy"


def _drive(passes: Callable[[int], Sequence[int]], max_epochs: int, state: Sequence,
           dtype=np.float64, fix: str = SCALE_OR_RATE) -> list[int]:
    """Repeat passes until one makes no update or ``max_epochs`` passes are done.

    ``passes(budget)`` makes at least one and at most ``budget`` passes, stops after a pass
    without an update, and returns the updates of each pass it made (``-1`` for a pass whose
    margins overflowed). After each call the arrays in ``state`` (the weights) must be finite.
    The record grows with the passes actually made, never with ``max_epochs``. ``fix`` ends
    the overflow's message: what the caller's user can change.
    """
    per_epoch: list[int] = []
    while len(per_epoch) < max_epochs:
        with np.errstate(over="ignore", invalid="ignore"):  # overflow is reported just below
            made = passes(max_epochs - len(per_epoch))
        per_epoch.extend(int(m) for m in made)
        _guard(len(per_epoch), margins=math.nan if per_epoch[-1] < 0 else 0.0, weights=state,
               dtype=dtype, fix=fix)  # -1: the pass met a margin that is not finite
        if per_epoch[-1] == 0:
            break
    return per_epoch


_FIRST_BLOCK = 64  # examples in the first block a scan-ahead looks at


def _scan_ahead(hits: Callable[[int, int], np.ndarray], start: int, stop: int,
                block: int = _FIRST_BLOCK) -> tuple[int, int]:
    """The scan-ahead trick: the first position ``k`` in ``start .. stop - 1`` that is a hit.

    Between two updates the state (weights, scores, residuals) does not change, so whether each
    of the next examples calls for an update can be decided for a whole block at once:
    ``hits(i, j)`` returns one bool per position ``i .. j - 1``, computed with the current
    state. Blocks double (up to 8192) while nothing is found and restart at twice the distance
    to the last hit (at least 16), so the work tracks the update rate.

    Returns ``(k, block)``: ``k = stop`` when no position is a hit, and the block size for the
    next scan (pass it back in).
    """
    i = start
    while i < stop:
        j = min(stop, i + block)
        found = hits(i, j)
        first = int(found.argmax())  # 0 also when there is no hit
        if found[first]:
            return i + first, max(16, first * 2)
        i = j
        block = min(block * 2, 8192)
    return stop, block


_CACHE_WARNED = False


def _jit(fn):
    """Compile ``fn`` with numba, cached on disk when a cache can be written.

    Where it cannot (a read-only ``NUMBA_CACHE_DIR``, no writable home: numba says "no locator
    available"), compile without a cache and warn once.
    """
    global _CACHE_WARNED
    if numba is None:
        return fn
    try:
        return numba.njit(cache=True, nogil=True)(fn)
    except Exception as exc:  # numba raises RuntimeError; any failure to set up a cache will do
        if not _CACHE_WARNED:
            _CACHE_WARNED = True
            warnings.warn(f"gluon_perceptron: numba cannot cache compiled code here ({exc}); "
                          f"compiling without a cache (each new process compiles again). Set "
                          f"NUMBA_CACHE_DIR to a writable folder, or GLUON_PERCEPTRON_FAST=numpy "
                          f"to skip numba", RuntimeWarning, stacklevel=2)
        return numba.njit(cache=False, nogil=True)(fn)


def _use_compiled(backend: str | None = None) -> bool:
    """Whether the fast twins run compiled: numba is there and ``backend`` (default
    :data:`FAST_BACKEND`) says ``"compiled"``."""
    return numba is not None and (FAST_BACKEND if backend is None else backend) == "compiled"
