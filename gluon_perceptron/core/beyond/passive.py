r"""Passive-aggressive learning (Crammer, Dekel, Keshet, Shalev-Shwartz & Singer 2006).

On each example the weights move as little as possible to reach a hinge loss of zero:

.. math:: w_{t+1} = \arg\min_w \tfrac12 \|w - w_t\|^2 \quad\text{s.t.}\quad
          \ell(w; (x_t, y_t)) = \max(0, 1 - y_t w^\top x_t) = 0,

whose solution is :math:`w_{t+1} = w_t + \tau_t y_t x_t` with :math:`\tau_t = \ell_t /
\|x_t\|^2` ("PA"). The two soft versions bound the step: PA-I caps it,
:math:`\tau_t = \min(C, \ell_t / \|x_t\|^2)`, and PA-II adds :math:`C \xi^2` to the objective,
:math:`\tau_t = \ell_t / (\|x_t\|^2 + 1/(2C))`. The rule is *passive* when the loss is zero
and *aggressive* otherwise: unlike the perceptron it also moves on examples it classifies
right with a margin below 1.

scikit-learn's ``PassiveAggressiveClassifier`` is PA-I (``loss="hinge"``) and PA-II
(``loss="squared_hinge"``) in its SGD loop; :func:`passive_aggressive` makes its updates bit
for bit (``shuffle=False, tol=None``), including its intercept, which moves by
:math:`\tau_t y_t` with :math:`\tau_t` computed from :math:`\|x_t\|^2` alone (the paper has no
bias; see the slips page).
"""

from __future__ import annotations

import math

import numpy as np

from .._convert import as_features, as_labels
from .._validation import one_of, validate_params
from ..fast.family_fast import PA, PA_I, PA_II, _dot, _pa_passes
from ..rosenblatt.engine import _drive, _guard, _use_compiled
from ..rosenblatt.results import TrainResult, train_result

VARIANTS = ("PA", "PA-I", "PA-II")
_CODE = {"PA": PA, "PA-I": PA_I, "PA-II": PA_II}


def pa_tau(variant: str, loss: float, sq: float, C: float) -> float:
    """:math:`\\tau`: the step of ``variant`` for hinge loss ``loss`` and :math:`\\|x\\|^2 =`
    ``sq`` (positive, or any for PA-II)."""
    if variant == "PA":
        return loss / sq
    if variant == "PA-I":
        return min(C, loss / sq)
    return loss / (sq + 0.5 / C)


@validate_params(variant=one_of(*VARIANTS))
@np.errstate(over="ignore", invalid="ignore")  # what overflows, the guards below refuse
def passive_aggressive(X, Y, *, variant: str = "PA-I", C: float = 1.0, max_epochs: int = 5,
                       bias: bool = True, engine: str = "fast") -> TrainResult:
    """Passive-aggressive passes over ``(X, Y)`` in order, until a pass has zero hinge loss
    everywhere (no update) or ``max_epochs``.

    On each example, with :math:`\\ell_t = \\max(0, 1 - y_t (w^\\top x_t + b))`:
    :math:`w \\leftarrow w + \\tau_t y_t x_t` and :math:`b \\leftarrow b + \\tau_t y_t`, where
    :math:`\\tau_t = \\ell_t / \\|x_t\\|^2` (PA), :math:`\\min(C, \\ell_t / \\|x_t\\|^2)`
    (PA-I) or :math:`\\ell_t / (\\|x_t\\|^2 + 1/(2C))` (PA-II). An example with
    :math:`x_t = 0` is skipped by PA and PA-I (as scikit-learn does).

    Parameters
    ----------
    X, Y : array-like
        Features and labels in {-1, +1}. Computed in float64.
    variant : {"PA", "PA-I", "PA-II"}
    C : float
        The aggressiveness :math:`C > 0` of PA-I and PA-II (unused by PA).
    max_epochs : int
        Bound on the passes; ``converged=False`` reports hitting it.
    bias : bool
        Learn :math:`b` as scikit-learn's ``fit_intercept=True`` does; False: :math:`b = 0`,
        the paper's setting, where :func:`pa_mistake_bound` holds.
    engine : {"fast", "faithful"}
        ``"faithful"``: the loop below, one example at a time in numpy. ``"fast"``: its
        compiled twin (the same operations, the same bits; without numba, the
        loop below).

    Returns
    -------
    TrainResult
        ``w``, ``b``; ``updates_per_epoch`` counts the examples with positive loss;
        ``history["mistakes"]`` the examples with :math:`y_t (w^\\top x_t + b) \\le 0` and
        ``history["squared_loss"]`` :math:`\\sum_t \\ell_t^2`, per pass.

    Raises
    ------
    ValueError
        When a margin or the weights overflow (scale X down).
    """
    X, Y, C = as_features(X, np.float64), as_labels(Y), float(C)  # as float64 arrays, a float
    history: dict[str, list[float]] = {"mistakes": [], "squared_loss": []}
    w, b = np.zeros(X.shape[1]), np.zeros(1)
    if engine == "fast" and _use_compiled():  # the compiled twin of the loop below
        return _fast_pa(X, Y, w, b, variant, C, max_epochs, bias, history)

    per_epoch: list[int] = []
    for epoch in range(1, max_epochs + 1):  # the epoch budget
        updates = mistakes = 0
        squared_loss = 0.0
        for x, y in zip(X, Y):
            margin = y * (_dot(w, x) + b[0])  # summed left to right, as scikit-learn does
            sq = _dot(x, x)
            _guard(epoch, margins=margin + sq)  # the overflow guard
            mistakes += margin <= 0.0
            loss = 1.0 - margin if margin <= 1.0 else 0.0
            squared_loss += loss * loss
            if loss == 0.0 or (sq == 0.0 and variant != "PA-II"):
                continue  # passive
            step = pa_tau(variant, loss, sq, C) * y  # aggressive: the smallest move to loss 0
            w += x * step
            b[0] += step if bias else 0.0
            updates += 1
        _guard(epoch, weights=(w, b))
        history["mistakes"].append(mistakes)
        history["squared_loss"].append(squared_loss)
        per_epoch.append(updates)
        if updates == 0:  # a pass with zero loss everywhere
            break
    return train_result(w, b[0], per_epoch, history)


def _fast_pa(X, Y, w, b, variant, C, max_epochs, bias, history) -> TrainResult:
    """:func:`passive_aggressive`'s loop, compiled
    (:func:`~gluon_perceptron.core.fast.family_fast._pa_passes`)."""
    chunk = [1]

    def passes(budget: int) -> list[int]:
        counts = np.empty(min(budget, chunk[0]), dtype=np.int64)
        mistakes, losses = np.zeros_like(counts), np.zeros(counts.shape[0])
        chunk[0] = min(2 * chunk[0], 1024)
        done = _pa_passes(np.ascontiguousarray(X), Y, w, b, _CODE[variant], C, bias, counts,
                          mistakes, losses)
        history["mistakes"].extend(mistakes[:done].tolist())
        history["squared_loss"].extend(losses[:done].tolist())
        return counts[:done].tolist()

    per_epoch = _drive(passes, max_epochs, (w, b))
    return train_result(w, b[0], per_epoch, history)


def pa_mistake_bound(X, Y, u, *, variant: str = "PA-I", C: float = 1.0,
                     repeats: int = 1) -> float:
    """Crammer et al.'s (2006) bound on the mistakes of ``variant`` (``bias=False``) over
    ``repeats`` passes of ``(X, Y)``, for the competitor ``u``.

    With :math:`R = \\max_t \\|x_t\\|` and :math:`\\ell^*_t = \\max(0, 1 - y_t u^\\top x_t)`,
    summed over the whole sequence (``repeats`` copies of the data):

    - PA (Theorem 2, needs :math:`\\ell^*_t = 0` for all :math:`t`):
      :math:`M \\le \\sum_t \\ell_t^2 \\le \\|u\\|^2 R^2`;
    - PA-I (Theorem 4): :math:`M \\le \\max(R^2, 1/C) (\\|u\\|^2 + 2C \\sum_t \\ell^*_t)`;
    - PA-II (Theorem 5): :math:`M \\le \\sum_t \\ell_t^2 \\le (R^2 + \\frac1{2C})
      (\\|u\\|^2 + 2C \\sum_t (\\ell^*_t)^2)`.

    Each mistake has :math:`\\ell_t \\ge 1`, so PA's and PA-II's bounds on the cumulative
    squared loss bound the mistakes too.

    Raises
    ------
    ValueError
        For PA, when some :math:`\\ell^*_t > 0` (the theorem says nothing); when the bound
        overflows.
    """
    X, u = X.astype(np.float64), u.astype(np.float64)
    R2 = float(np.max(np.einsum("ij,ij->i", X, X)))
    hinge = np.maximum(0.0, 1.0 - Y.astype(np.float64, copy=False) * (X @ u))
    uu = float(u @ u)
    if variant == "PA" and hinge.any():
        raise ValueError("PA's bound needs a u with y u.x >= 1 on every example (no hinge "
                         "loss); scale u up, or use variant='PA-I' or 'PA-II'")
    if variant == "PA":
        bound = uu * R2
    elif variant == "PA-I":
        bound = max(R2, 1.0 / C) * (uu + 2.0 * C * repeats * float(hinge.sum()))
    else:
        bound = (R2 + 0.5 / C) * (uu + 2.0 * C * repeats * float((hinge * hinge).sum()))
    if not math.isfinite(bound):
        raise ValueError(f"the bound overflowed (|u| = {math.sqrt(uu):.3g}, R^2 = {R2:.3g}, "
                         f"C={C:.3g}); rescale X, u and C to a moderate range")
    return bound
