"""Optimality and generalization: the adversary of Theorem 1.34 and leave-one-out.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from tqdm import tqdm

from ..core import _checks
from ..core.data import sample_separable
from ..core.geometry import optimal_margin
from ..core.rosenblatt import error_rate, perceptron, train
from ..core.variants import update_path

# --- optimality: the adversary of Theorem 1.34 ------------------------------------------------

class PerceptronLearner:
    """The chapter's perceptron as an online learner: predict, then learn from the label.

    Predicts :math:`\\operatorname{sign}(w^\\top x + b)` (a score of 0 predicts -1, as
    :func:`~gluon_perceptron.predict` does) and updates with the package's
    :func:`~gluon_perceptron.perceptron` step, which fires on every mistake.
    """

    def __init__(self, dimensions: int):
        from mxnet import nd

        dimensions = _checks.positive_int(dimensions, "dimensions")
        self.w = nd.zeros(shape=(dimensions,))
        self.b = nd.zeros(shape=(1,))

    def predict(self, x: np.ndarray) -> float:
        """The label the learner commits to before seeing ``y``."""
        score = float(self.w.asnumpy() @ x + self.b.asscalar())
        return 1.0 if score > 0 else -1.0

    def update(self, x: np.ndarray, y: float) -> None:
        """One :func:`~gluon_perceptron.perceptron` step on ``(x, y)``."""
        from mxnet import nd


        perceptron(self.w, self.b, nd.array(x), y)


@dataclass
class AdversaryRun:
    """The dataset the adversary built and what it cost the learner.

    Attributes
    ----------
    X : ndarray, shape (n, d)
        The basis vectors :math:`e_1, \\dots, e_n` in the order shown.
    Y : ndarray, shape (n,)
        :math:`y_i = -\\hat y_i`, the opposite of the learner's prediction.
    mistakes : int
        Rounds where the prediction was wrong (all ``n`` of them).
    gamma : float
        The margin promised.
    """

    X: np.ndarray
    Y: np.ndarray
    mistakes: int
    gamma: float

    @property
    def n(self) -> int:
        """:math:`n = \\min(\\lfloor 1/\\gamma^2 \\rfloor, d)`."""
        return self.X.shape[0]

    @property
    def witness(self) -> np.ndarray:
        """:math:`w^* = \\gamma \\sum_i y_i e_i`: :math:`\\|w^*\\| \\le 1` and every margin is
        :math:`\\gamma`."""
        return self.gamma * (self.Y @ self.X)


def adversary_run(gamma: float, dimensions: int, learner=None) -> AdversaryRun:
    """Theorem 1.34: force :math:`n = \\min(1/\\gamma^2, d)` mistakes on a deterministic learner.

    Round ``i`` shows :math:`e_i` and, once the learner has predicted :math:`\\hat y_i`,
    reveals :math:`y_i = -\\hat y_i`. Every round is a mistake, yet
    :math:`w^* = \\gamma \\sum_i y_i e_i` has norm :math:`\\gamma\\sqrt n \\le 1` and margin
    :math:`\\gamma` on every example: no algorithm's worst-case mistake bound can beat
    :math:`\\min(1/\\gamma^2, d)`, and the perceptron's :math:`R^2/\\gamma^2` meets it when
    :math:`d \\ge 1/\\gamma^2`.

    Parameters
    ----------
    gamma : float
        Margin in ``(0, 1]``.
    dimensions : int
    learner : object with ``predict(x) -> float`` and ``update(x, y)``, optional
        Default: a fresh :class:`PerceptronLearner`.
    """
    gamma = _checks.finite_float(gamma, "gamma", strictly_positive=True)
    if gamma > 1:
        raise ValueError(f"gamma must be in (0, 1] (the e_i have norm 1), got {gamma}")
    dimensions = _checks.positive_int(dimensions, "dimensions")
    learner = PerceptronLearner(dimensions) if learner is None else learner
    if not (callable(getattr(learner, "predict", None))
            and callable(getattr(learner, "update", None))):
        raise TypeError(f"learner must have methods predict(x) and update(x, y), like "
                        f"PerceptronLearner(dimensions); got {type(learner).__name__}")
    # floor(1/gamma^2), guarding against 1/0.1**2 = 99.999...
    n = min(int(np.floor(1.0 / gamma**2 * (1 + 1e-12))), dimensions)
    X = np.eye(dimensions)[:n]
    Y = np.zeros(n)
    mistakes = 0
    for i in range(n):
        guess = float(learner.predict(X[i]))
        Y[i] = -1.0 if guess > 0 else 1.0
        mistakes += guess != Y[i]
        learner.update(X[i], Y[i])
    return AdversaryRun(X=X, Y=Y, mistakes=mistakes, gamma=gamma)


# --- generalization: the leave-one-out bound (Theorem 2.6) -----------------------------------

def leave_one_out(X, Y, *, max_epochs: int = 10_000) -> dict:
    """Leave-one-out mistakes of the perceptron (with bias), trained to convergence.

    The proof of Theorem 2.6 gives the shortcut used here: an example the full run never
    updated on can be removed without changing the run, and the final weights classify it
    correctly; so only the examples in :math:`I` (those updated on) need retraining.

    Returns
    -------
    dict
        ``errors`` (held-out examples misclassified, ties counted), ``support``
        (:math:`|I|`), ``updates`` of the full run, ``converged`` (all runs).
    """

    Xn, Yn = _checks.dataset(X, Y)
    if Xn.shape[0] < 2:
        raise ValueError(f"leave-one-out needs at least 2 examples (one to hold out, the rest "
                         f"to train on), got {Xn.shape[0]}")
    full = update_path(Xn, Yn, max_epochs=max_epochs)
    touched = np.unique(full.examples)
    errors = 0
    converged = full.converged
    for i in touched:
        keep = np.arange(Xn.shape[0]) != i
        run = train(Xn[keep], Yn[keep], max_epochs=max_epochs)
        converged &= run.converged
        errors += int(Yn[i] * (Xn[i] @ run.w + run.b) <= 0)
    return {"errors": errors, "support": int(touched.size), "updates": full.updates,
            "converged": bool(converged)}


def generalization_experiment(samples: int = 30, draws: int = 100, *, dimensions: int = 2,
                              epsilon: float = 0.1, test_points: int = 200,
                              progress: bool = False) -> dict[str, np.ndarray]:
    """Theorem 2.6 over many draws: held-out error against :math:`E[R^2/\\gamma^2]/(N+1)`.

    Each draw takes :math:`N + 1` = ``samples + 1`` training points and ``test_points``
    fresh points from one :func:`~gluon_perceptron.sample_separable` plane, and records per
    draw (arrays of length ``draws``):

    * ``loo``: leave-one-out error rate on the :math:`N+1` points (:func:`leave_one_out`);
      its mean estimates the expected error on a new point after training on :math:`N`;
    * ``test``: error on the fresh points of the perceptron trained on the first :math:`N`;
    * ``support``, ``updates``: :math:`|I|/(N+1)` and mistakes/(N+1) of the full run, the
      steps of the proof;
    * ``bound``: :math:`R_a^2/\\gamma_2^2/(N+1)` with the optimal padded margin
      (:func:`~gluon_perceptron.margins.optimal_margin`), :math:`R_a^2 = R^2 + 1`.

    The theorem says ``mean(loo) <= mean(bound)``.
    """


    samples = _checks.positive_int(samples, "samples")
    draws = _checks.positive_int(draws, "draws")
    test_points = _checks.positive_int(test_points, "test_points")
    m = samples + 1
    out = {k: np.zeros(draws) for k in ("loo", "test", "support", "updates", "bound")}
    for j in tqdm(range(draws), desc="leave-one-out draws", disable=not progress):
        fake = sample_separable(m + test_points, dimensions, epsilon)
        X, Y = fake.X.asnumpy(), fake.Y.asnumpy()
        loo = leave_one_out(X[:m], Y[:m])
        run = train(X[:samples], Y[:samples], max_epochs=10_000)
        out["loo"][j] = loo["errors"] / m
        out["test"][j] = error_rate(run.w, run.b, X[m:], Y[m:])
        out["support"][j] = loo["support"] / m
        out["updates"][j] = loo["updates"] / m
        out["bound"][j] = optimal_margin(X[:m], Y[:m]).bound / m
    return out
