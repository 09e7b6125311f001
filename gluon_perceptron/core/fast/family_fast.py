r"""Private: the compiled twins of the perceptron family's readable loops.

Each function here is the loop of a public trainer (:func:`~.passive.passive_aggressive`,
:func:`~.voting.train_voted`, :func:`~.approximate_margin.alma`) compiled by numba, making the
same decisions in the same floating-point operations, so the tests hold the twin to the loop
bit for bit. Every inner product is summed left to right, one term at a time, as the readable
loops' :func:`_dot` does (and as scikit-learn's SGD loop does: ``X @ w`` would differ in the
last bit). Without numba (``GLUON_PERCEPTRON_FAST=numpy``) they run as plain Python.

Each ``*_passes`` makes at most ``counts.shape[0]`` passes, stops after a pass without an
update, writes each pass's updates to ``counts`` (``-1`` for a pass that met a margin that is
not finite) and returns the number of passes made: the contract of
:func:`~gluon_perceptron.core.rosenblatt.engine._drive`.
"""

from __future__ import annotations

import math

import numpy as np

from ..rosenblatt.engine import _jit

PA, PA_I, PA_II = 0, 1, 2  # the variants' codes in the compiled loop


def _dot(a: np.ndarray, b: np.ndarray) -> float:
    """:math:`\\sum_j a_j b_j`, summed left to right (the readable loops' inner product)."""
    return float(np.add.accumulate(a * b)[-1]) if a.shape[0] else 0.0


@_jit
def _sequential_dot(a, b):  # pragma: no cover - runs compiled
    s = 0.0
    for j in range(a.shape[0]):
        s += a[j] * b[j]
    return s


@_jit
def _pa_passes(X, Y, w, b, variant, C, bias, counts, mistakes, losses):  # pragma: no cover
    """Passes of the passive-aggressive loop; ``mistakes[e]`` and ``losses[e]`` (the sum of
    squared hinge losses) of pass ``e`` beside ``counts[e]``."""
    n, d = X.shape
    for e in range(counts.shape[0]):
        updates = 0
        errors = 0
        total = 0.0
        for i in range(n):
            dot = 0.0
            sq = 0.0
            for j in range(d):  # two independent left-to-right sums, side by side
                dot += w[j] * X[i, j]
                sq += X[i, j] * X[i, j]
            margin = Y[i] * (dot + b[0])
            if not math.isfinite(margin + sq):
                updates = -1
                break
            if margin <= 0.0:
                errors += 1
            loss = 1.0 - margin if margin <= 1.0 else 0.0
            total += loss * loss
            if loss == 0.0 or (sq == 0.0 and variant != PA_II):
                continue
            if variant == PA:
                tau = loss / sq
            elif variant == PA_I:
                tau = min(C, loss / sq)
            else:
                tau = loss / (sq + 0.5 / C)
            step = tau * Y[i]
            for j in range(d):
                w[j] += X[i, j] * step
            if bias:
                b[0] += step
            updates += 1
        counts[e], mistakes[e], losses[e] = updates, errors, total
        if updates <= 0:
            return e + 1
    return counts.shape[0]


@_jit
def _voted_pass(Z, Y, w, rows, survivals, k):  # pragma: no cover - runs compiled
    """One pass of the voted perceptron's loop over the rows ``Z`` (padded with the bias's 1).

    ``k[0]`` counts the mistakes so far; mistake ``m`` (from 1) was made on example
    ``rows[m - 1]``, and ``survivals[m]`` is how many visits the weights it made lasted
    (``survivals[0]``: the zero weights'). The caller leaves room for ``n`` more mistakes.
    Returns the mistakes of the pass, or -1 at a margin that is not finite.
    """
    updates = 0
    for i in range(Z.shape[0]):
        margin = Y[i] * _sequential_dot(w, Z[i])
        if not math.isfinite(margin):
            return -1
        if margin > 0.0:
            survivals[k[0]] += 1
            continue
        for j in range(Z.shape[1]):
            w[j] += Y[i] * Z[i, j]
        rows[k[0]] = i
        k[0] += 1
        survivals[k[0]] = 1
        updates += 1
    return updates


@_jit
def _alma_passes(Z, Y, w, k, alpha, B, C, counts):  # pragma: no cover - runs compiled
    """Passes of ALMA_2 over the unit rows ``Z``; ``k[0]`` is the paper's :math:`k`."""
    n, d = Z.shape
    for e in range(counts.shape[0]):
        updates = 0
        for i in range(n):
            margin = Y[i] * _sequential_dot(w, Z[i])
            if not math.isfinite(margin):
                updates = -1
                break
            if margin > (1.0 - alpha) * B / math.sqrt(k[0]):
                continue
            eta = C / math.sqrt(k[0])
            for j in range(d):
                w[j] += eta * Y[i] * Z[i, j]
            norm = math.sqrt(_sequential_dot(w, w))
            if norm > 1.0:
                for j in range(d):
                    w[j] /= norm
            k[0] += 1
            updates += 1
        counts[e] = updates
        if updates <= 0:
            return e + 1
    return counts.shape[0]


@_jit
def _voted_kernel_pass(G, Y, scores, rows, survivals, k):  # pragma: no cover - compiled
    """One pass of the voted perceptron's dual loop over the Gram matrix ``G`` (the bias's 1
    already added): ``scores[i]`` is :math:`v_k^\\top \\phi(x_i)`, kept up to date; ``rows``,
    ``survivals`` and ``k`` as in :func:`_voted_pass`."""
    updates = 0
    n = G.shape[0]
    for i in range(n):
        if not math.isfinite(scores[i]):
            return -1
        if Y[i] * scores[i] > 0.0:
            survivals[k[0]] += 1
            continue
        rows[k[0]] = i
        k[0] += 1
        survivals[k[0]] = 1
        for j in range(n):
            scores[j] += Y[i] * G[i, j]
        updates += 1
    return updates
