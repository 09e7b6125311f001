r"""What the variants' readable loops (:mod:`.variants`, :mod:`.traced`) and their fast twins
(:mod:`gluon_perceptron.core.fast.variants_fast`) share: the visiting order of each pass, the
decaying step, the projection onto a ball, and the per-pass traces every one returns.

Nothing here checks its arguments: the public trainers' rules are the package's words
(:data:`~.._validation.WORDS`: ``X``, ``Y``, ``engine``, ``record``, ``shuffle``, ...).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from .._arrays import _row_norms
from .training import _error_rate, _error_rates

#: What to do about an overflow of ``update_path``, whose step is 1.
PATH_FIX = ("Scale the data down (e.g. divide X by np.abs(X).max()) or start from a smaller w0 "
            "and b0 (update_path steps by 1)")


def _project(theta: np.ndarray, radius: float) -> None:
    r"""Project :math:`\theta` onto the ball of ``radius`` in place:
    :math:`\theta \leftarrow \theta \min(1, \rho / \|\theta\|)`."""
    # the sum of squares left to right (cumsum is sequential; a BLAS dot's order depends on
    # the CPU), so the lockstep runs and the compiled twins can equal it bit for bit anywhere
    norm = math.sqrt(float(np.cumsum(theta * theta)[-1]))
    if not math.isfinite(norm):  # the sum of squares overflowed: scale first
        norm = float(_row_norms(theta)[0])
    if norm > radius:
        theta *= radius / norm


def _step_size(learning_rate: float, epoch: int, decay: float) -> float:
    """:math:`\\eta_e = \\eta / e^{\\text{decay}}`, refused when it leaves the floats."""
    try:
        eta = learning_rate / epoch**decay
    except OverflowError:
        eta = 0.0
    if eta == 0.0:
        raise ValueError(f"decay={decay} makes the step learning_rate / epoch**decay vanish (0.0 "
                         f"in float64) at pass {epoch}; use a decay of a few units (1 makes the "
                         f"margin perceptron settle)")
    return eta


def _orders(shuffle: bool, seed: int | None) -> Callable[[int], range | np.ndarray]:
    """The visiting order of each pass of ``n`` examples: data order (``range(n)``), or a
    fresh permutation from ``numpy.random.default_rng(seed)`` every pass when ``shuffle`` is
    True."""
    if not shuffle:
        return range
    return np.random.default_rng(seed).permutation


def _float64(X, Y) -> tuple[np.ndarray, np.ndarray]:
    """The trainers here compute in float64 (a no-op for float64 arrays)."""
    return np.asarray(X, dtype=np.float64), np.asarray(Y, dtype=np.float64)


class _Recorder:
    """Collects the per-epoch traces every trainer here returns in ``TrainResult.history``."""

    def __init__(self, X: np.ndarray, Y: np.ndarray, record: bool):
        self.X, self.Y, self.record = X, Y, record
        self.history: dict = {"error": [], "norm": []}
        if self.record:
            self.history["weights"] = []

    def epoch(self, running: np.ndarray, w: np.ndarray, b: float) -> None:
        """Note one pass: the running (w, b), and the predictor returned."""
        self.history["norm"].append(float(_row_norms(running)[0]))
        self.history["error"].append(_error_rate(w, b, self.X, self.Y))
        if self.record:
            self.history["weights"].append((np.array(w, dtype=np.float64), float(b)))


def _history(X: np.ndarray, Y: np.ndarray, running: np.ndarray, predictors: np.ndarray,
             record: bool) -> dict:
    """What :class:`_Recorder` notes pass by pass, at once for a whole run: ``running`` and
    ``predictors`` hold one ``(w, b)`` row per pass (the running weights, and the predictor
    returned); the same numbers, row by row (the twins' and the lockstep runs' traces)."""
    history: dict = {"error": _error_rates(predictors, X, Y),
                     "norm": [float(v) for v in _row_norms(running)] if len(running) else []}
    if record:
        history["weights"] = [(th[:-1].copy(), float(th[-1])) for th in predictors]
    return history
