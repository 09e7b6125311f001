r"""ALMA\ :sub:`2`, the approximate large margin algorithm (Gentile 2001), for the 2-norm.

A perceptron that updates on *margin* mistakes with a shrinking target and step, and keeps its
weights in the unit ball. With every example normalised, :math:`\hat x_t = x_t / \|x_t\|`, and
:math:`k` the number of updates so far plus one:

.. math:: \text{if } y_t w^\top \hat x_t \le (1 - \alpha) \frac{B}{\sqrt k}: \quad
          w \leftarrow \frac{w + \eta_k y_t \hat x_t}{\max(1, \|w + \eta_k y_t \hat x_t\|)},
          \quad \eta_k = \frac{C}{\sqrt k}, \quad k \leftarrow k + 1,

with :math:`\alpha \in (0, 1]`, and the paper's choice :math:`B = 1/\alpha`,
:math:`C = \sqrt 2`. Theorem 3 of the paper: if the normalised data is separable with margin
:math:`\gamma^*`, the updates are at most :math:`\frac{2}{\gamma^{*2}} (\frac2\alpha - 1)^2 +
\frac8\alpha - 4` (:func:`alma_bound`), and run until no update the final :math:`w` separates
the data with margin at least :math:`(1 - \alpha) \gamma^*`: :math:`\alpha` trades the
margin reached for the updates needed (:math:`\alpha = 1` is a perceptron on normalised data).

The bias is the weight of a constant feature 1, appended *before* normalising.
river's ``ALMAClassifier`` and LIBOL's ``ALMA.m`` depart from the paper (see the slips page).
"""

from __future__ import annotations

import math

import numpy as np

from .._arrays import _row_norms
from .._convert import as_features, as_labels
from .._validation import (
    optional,
    real,
    validate_params,
)
from ..fast.family_fast import _alma_passes, _dot
from ..rosenblatt.engine import _drive, _guard, _use_compiled
from ..rosenblatt.results import TrainResult, train_result


def normalized_rows(X, *, bias: bool = True) -> np.ndarray:
    """:math:`\\hat x_i = \\tilde x_i / \\|\\tilde x_i\\|` with :math:`\\tilde x_i = (x_i, 1)`
    (or :math:`x_i` without ``bias``); a zero row stays zero."""
    X = X.astype(np.float64)
    Z = np.hstack([X, np.ones((X.shape[0], 1))]) if bias else X
    norms = _row_norms(Z)
    return Z / np.where(norms > 0.0, norms, 1.0)[:, None]


@validate_params(B=optional(real(positive=True)),
                 alpha=real(positive=True, maximum=1.0, why="try alpha=0.5"))
@np.errstate(over="ignore", invalid="ignore")  # what overflows, the guards below refuse
def alma(X, Y, *, alpha: float, B: float | None = None, C: float = math.sqrt(2.0),
         max_epochs: int = 1, bias: bool = True, engine: str = "fast") -> TrainResult:
    """ALMA\\ :sub:`2` (Gentile 2001): passes over ``(X, Y)`` in order until one makes no
    update or ``max_epochs``.

    Parameters
    ----------
    X, Y : array-like
        Features and labels in {-1, +1}; every row is normalised (after the bias's 1 is
        appended), as the paper assumes :math:`\\|x_t\\| = 1`.
    alpha : float
        :math:`\\alpha \\in (0, 1]`: aim at :math:`(1 - \\alpha)` times the best margin.
    B : float, optional
        Scale of the margin target :math:`(1 - \\alpha) B / \\sqrt k`; default
        :math:`1/\\alpha`, the paper's.
    C : float
        Scale of the step :math:`C / \\sqrt k`; default :math:`\\sqrt 2`, the paper's.
    max_epochs : int
        Bound on the passes (one pass is the paper's online setting).
    bias : bool
        Append the constant feature 1 before normalising.
    engine : {"fast", "faithful"}
        ``"faithful"``: the loop below, in numpy. ``"fast"``: its compiled twin, bit for
        bit (without numba, the loop below).

    Returns
    -------
    TrainResult
        ``w, b``: the weights on the normalised rows (:math:`\\|(w, b)\\| \\le 1`); they
        predict :math:`\\operatorname{sign}(w^\\top x + b)` on raw rows too, since
        normalising does not change a sign. ``updates_per_epoch`` counts margin mistakes;
        ``history["k"]`` is the final :math:`k`.
    """
    Z, Y = normalized_rows(as_features(X), bias=bias), as_labels(Y)  # the arguments as arrays
    alpha, C = float(alpha), float(C)  # ints would make the compiled twin an int64 one
    B = 1.0 / alpha if B is None else float(B)
    w, k = np.zeros(Z.shape[1]), np.ones(1, dtype=np.int64)  # k = updates so far + 1
    if engine == "fast" and _use_compiled():  # the compiled twin of the loop below
        return _fast_alma(Z, Y, w, k, alpha, B, C, max_epochs, bias)

    per_epoch: list[int] = []
    for epoch in range(1, max_epochs + 1):  # the epoch budget
        updates = 0
        for z, y in zip(Z, Y):
            margin = y * _dot(w, z)
            _guard(epoch, margins=margin)  # the overflow guard
            if margin > (1.0 - alpha) * B / math.sqrt(k[0]):
                continue  # beyond the target margin gamma_k = B / sqrt(k): no update
            w += C / math.sqrt(k[0]) * y * z  # eta_k = C / sqrt(k)
            w /= max(1.0, math.sqrt(_dot(w, w)))  # back into the unit ball
            k[0] += 1
            updates += 1
        _guard(epoch, weights=(w,))
        per_epoch.append(updates)
        if updates == 0:  # a pass without an update
            break
    return _alma_result(w, bias, per_epoch, k)


def _alma_result(w: np.ndarray, bias: bool, per_epoch: list[int], k) -> TrainResult:
    weights, b = (w[:-1], w[-1]) if bias else (w, 0.0)
    return train_result(weights, b, per_epoch, {"k": int(k[0])})


def _fast_alma(Z, Y, w, k, alpha, B, C, max_epochs, bias) -> TrainResult:
    """:func:`alma`'s loop, compiled
    (:func:`~gluon_perceptron.core.fast.family_fast._alma_passes`)."""
    Zc, chunk = np.ascontiguousarray(Z), [1]

    def passes(budget: int) -> list[int]:
        counts = np.empty(min(budget, chunk[0]), dtype=np.int64)
        chunk[0] = min(2 * chunk[0], 1024)
        done = _alma_passes(Zc, Y, w, k, alpha, B, C, counts)
        return counts[:done].tolist()

    return _alma_result(w, bias, _drive(passes, max_epochs, (w,)), k)


def alma_bound(gamma: float, alpha: float) -> float:
    """Gentile's (2001, Theorem 3) bound on ALMA\\ :sub:`2`'s updates with :math:`B = 1/\\alpha`,
    :math:`C = \\sqrt 2`, on unit rows separable with margin :math:`\\gamma`:
    :math:`\\frac{2}{\\gamma^2} (\\frac2\\alpha - 1)^2 + \\frac8\\alpha - 4`."""
    return 2.0 / (gamma * gamma) * (2.0 / alpha - 1.0) ** 2 + 8.0 / alpha - 4.0
