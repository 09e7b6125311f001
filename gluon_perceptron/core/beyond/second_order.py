r"""The second-order perceptron (Cesa-Bianchi, Conconi & Gentile 2005).

The plain perceptron predicts with the sum of its mistakes, :math:`v = \sum_{s} y_s x_s`. The
second-order perceptron whitens that sum by the correlation of the mistakes, including the
example it is about to label:

.. math:: \hat y_t = \operatorname{sign}\big(x_t^\top (a I + S S^\top + x_t x_t^\top)^{-1}
          v\big),

where the columns of :math:`S` are the examples it erred on and :math:`a > 0` a parameter.
With the bias, every example is padded with a constant 1, as ``train`` does.

By Sherman-Morrison, :math:`x^\top (A + x x^\top)^{-1} v = x^\top A^{-1} v / (1 + x^\top
A^{-1} x)` with :math:`A = a I + S S^\top`, and the denominator is positive: the prediction is
the sign of :math:`x_t^\top A^{-1} v`, which needs only :math:`A^{-1}`, kept up to date by a
rank-one update at every mistake.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._arrays import _guard, _split
from .._convert import as_features, as_labels
from .._validation import (
    real,
    validate_params,
)


@dataclass
class SecondOrderRun:
    """Passes of the second-order perceptron over a sequence.

    Attributes
    ----------
    updates_per_epoch : list of int
        Mistakes (ties :math:`x^\\top A^{-1} v = 0` included), each one an update, in each pass.
    converged : bool
        True only if the last pass made no mistake.
    mistake_rows : ndarray of int
        The example of every mistake, in order (an example can repeat over passes).
    a : float
    bias : bool
    w : ndarray
        Final :math:`A^{-1} v`, the bias's entry left out when ``bias`` is True.
    b : float
        That entry: the bias (0 without ``bias``).
    """

    updates_per_epoch: list[int]
    converged: bool
    mistake_rows: np.ndarray
    a: float
    bias: bool
    w: np.ndarray
    b: float

    @property
    def mistakes(self) -> int:
        return int(sum(self.updates_per_epoch))

    @property
    def epochs(self) -> int:
        """Number of passes made."""
        return len(self.updates_per_epoch)


def _padded(X: np.ndarray, bias: bool) -> np.ndarray:
    X = X.astype(np.float64)
    return np.hstack([X, np.ones((X.shape[0], 1))]) if bias else X


@validate_params(a=real(positive=True))
def train_second_order(X, Y, *, a: float = 1.0, max_epochs: int = 1,
                       bias: bool = True) -> SecondOrderRun:
    """The second-order perceptron: passes over ``(X, Y)`` in order (one pass = the online
    setting of the paper), until a pass makes no mistake or ``max_epochs``.

    Update rule: predict :math:`\\operatorname{sign}(x_t^\\top (aI + SS^\\top +
    x_tx_t^\\top)^{-1} v)`; on a mistake append :math:`x_t` to :math:`S` and set
    :math:`v \\leftarrow v + y_t x_t`.

    Bound (Cesa-Bianchi, Conconi & Gentile 2005, Theorem 1): for every :math:`u` and
    :math:`\\gamma > 0`, the number of mistakes satisfies

    .. math:: M \\le \\frac{D_\\gamma(u)}{\\gamma} + \\frac1\\gamma \\sqrt{\\big(a\\|u\\|^2 +
              \\sum_{s \\in \\mathcal M} (u^\\top x_s)^2\\big) \\sum_{i} \\ln\\big(1 +
              \\lambda_i / a\\big)},

    with :math:`\\mathcal M` the mistakes, :math:`\\lambda_i` the eigenvalues of
    :math:`\\sum_{s \\in \\mathcal M} x_s x_s^\\top` and :math:`D_\\gamma(u) = \\sum_{s \\in
    \\mathcal M} \\max(0, \\gamma - y_s u^\\top x_s)`. :func:`second_order_bound` evaluates it.
    Repeated passes are one longer sequence, so the bound covers them too.

    Parameters
    ----------
    X, Y : array-like
    a : float
        :math:`a > 0`; large :math:`a` makes the rule the plain perceptron.
    max_epochs : int
    bias : bool
        Pad the constant feature 1.

    Raises
    ------
    ValueError
        When a prediction :math:`x_t^\\top A^{-1} v` or the weights overflow (scale X down).
    """
    Z, Y, a = _padded(as_features(X), bias), as_labels(Y), float(a)  # as float64 arrays, a float
    Ainv, v = np.eye(Z.shape[1]) / a, np.zeros(Z.shape[1])  # (aI + SS^T)^-1, sum of y_s x_s
    fix = (f"A^-1 starts at I/a: with a={a:g}, use a larger a (e.g. 1), or scale the data "
           f"down (e.g. divide X by np.abs(X).max())")
    rows: list[int] = []  # the example of every mistake, in order
    per_epoch: list[int] = []
    with np.errstate(over="ignore", invalid="ignore"):  # overflow is refused below
        for epoch in range(1, max_epochs + 1):  # the epoch budget
            mistakes = 0
            for t, x in enumerate(Z):
                margin = Y[t] * (x @ (Ainv @ v))  # the sign of x^T (A + x x^T)^-1 v
                _guard(epoch, margins=margin, fix=fix)  # the overflow guard
                if margin <= 0.0:
                    mistakes += 1
                    rows.append(t)
                    u = Ainv @ x
                    Ainv -= np.outer(u, u) / (1.0 + x @ u)  # x joins S (Sherman-Morrison)
                    v += Y[t] * x
            _guard(epoch, weights=(Ainv, v), fix=fix)
            per_epoch.append(mistakes)
            if mistakes == 0:
                break
    w, b = _split(Ainv @ v) if bias else (Ainv @ v, 0.0)
    return SecondOrderRun(updates_per_epoch=per_epoch, converged=per_epoch[-1] == 0,
                          mistake_rows=np.array(rows, dtype=np.int64), a=a, bias=bias, w=w, b=b)


def second_order_bound(X, Y, run: SecondOrderRun, u, gamma: float | None = None) -> float:
    """The right-hand side of the second-order perceptron's bound for the competitor ``u``.

    Parameters
    ----------
    X, Y : array-like
        The sequence ``run`` was trained on.
    run : SecondOrderRun
        The run (its mistakes define :math:`\\mathcal M`).
    u : array-like
        The competitor, one entry per feature (plus one for the bias when ``run.bias``).
    gamma : float, optional
        Default: :math:`\\min_s y_s u^\\top x_s` over all examples when positive (so
        :math:`D_\\gamma = 0`), else 1.
    """
    Z = _padded(X, run.bias)
    margins = Y.astype(np.float64) * (Z @ u)
    if gamma is None:
        gamma = float(margins.min()) if margins.min() > 0 else 1.0
    return _bound(Z[run.mistake_rows], margins[run.mistake_rows], u, run.a, gamma)


def _bound(S: np.ndarray, margins: np.ndarray, u: np.ndarray, a: float, gamma: float) -> float:
    eig = np.clip(np.linalg.eigvalsh(S.T @ S), 0.0, None)
    # D_gamma / gamma written as sum(max(0, 1 - m/gamma)), which cannot overflow for large gamma
    hinge = np.maximum(0.0, 1.0 - margins / gamma).sum()
    spread = a * (u @ u) + float(np.sum((S @ u) ** 2))
    bound = float(hinge + np.sqrt(spread * np.log1p(eig / a).sum()) / gamma)
    if not np.isfinite(bound):
        raise ValueError(f"the bound overflowed for u with norm {np.linalg.norm(u):.3g} and "
                         f"gamma={gamma:.3g}; rescale X, u and gamma to a moderate range")
    return bound
