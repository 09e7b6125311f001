"""Black & White: experiments on data that is not separable, broken rules and remedies.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np
from tqdm import tqdm

from ..core import _checks
from ..core.data import gaussian_classes, getfake_noisy, xor_data
from ..core.geometry import hinge_separator
from ..core.rosenblatt import TrainResult, error_rate
from ..core.variants import OnlineRun, train_averaged, train_pocket, train_projected, train_traced


def horizon_maxima(norms, horizons) -> np.ndarray:
    """:math:`\\max_{t \\le T} \\|\\theta_t\\|` for each horizon :math:`T` (in epochs).

    For a bounded run these level off; for a diverging one they keep growing.
    """
    norms = np.asarray(norms, dtype=np.float64).reshape(-1)
    out = []
    for T in horizons:
        T = _checks.positive_int(T, "horizons")
        if T > norms.size:
            raise ValueError(f"horizon {T} is longer than the run ({norms.size} epochs)")
        out.append(norms[:T].max())
    return np.array(out)


def boundary_turns(weights) -> np.ndarray:
    """Angle in degrees between :math:`\\theta = (w, b)` after consecutive passes.

    0 means the decision rule did not change over a pass (up to scale); it is NaN where
    :math:`\\theta = 0` on either side.

    Parameters
    ----------
    weights : list of (w, b)
        As in ``TrainResult.history["weights"]``.
    """
    thetas = np.array([np.append(w, b) for w, b in weights], dtype=np.float64)
    if thetas.shape[0] < 2:
        raise ValueError("boundary_turns needs the weights of at least 2 passes")
    norms = np.linalg.norm(thetas, axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        cos = np.sum(thetas[1:] * thetas[:-1], axis=1) / (norms[1:] * norms[:-1])
    return np.degrees(np.arccos(np.clip(cos, -1.0, 1.0)))


def step_errors(run: OnlineRun, X, Y) -> np.ndarray:
    """Error on ``(X, Y)`` of :math:`(w_t, b_t)` after every step of ``run``.

    On data whose snapshots after each pass hide the motion (on XOR the perceptron is back at
    :math:`\\theta = 0` after every pass) this shows the error the learner really has.
    """
    Xn, Yn = _checks.dataset(X, Y)
    if run.thetas.shape[1] != Xn.shape[1] + 1:
        raise ValueError(f"run has weights of length {run.thetas.shape[1]} but X has "
                         f"{Xn.shape[1]} features (expected {run.thetas.shape[1] - 1})")
    return np.array([error_rate(th[:-1], th[-1], Xn, Yn) for th in run.thetas])


def heldout_errors(result: TrainResult, X, Y) -> np.ndarray:
    """Error of the predictor after each pass on other data ``(X, Y)``.

    Needs ``result.history["weights"]``: train with ``record=True``.
    """
    if "weights" not in result.history:
        raise ValueError("result has no per-epoch weights; train with record=True")
    Xn, Yn = _checks.dataset(X, Y)
    return np.array([error_rate(w, b, Xn, Yn) for w, b in result.history["weights"]])


class TailStats(NamedTuple):
    """Mean, standard deviation and range (max - min) of the last epochs of a trace."""

    mean: float
    std: float
    spread: float


def tail_stats(trace, last: int) -> TailStats:
    """Summarise the last ``last`` values of a per-epoch trace: where it sits, how it moves."""
    trace = np.asarray(trace, dtype=np.float64).reshape(-1)
    last = _checks.positive_int(last, "last")
    if last > trace.size:
        raise ValueError(f"last={last} is longer than the trace ({trace.size} values)")
    tail = trace[-last:]
    return TailStats(float(tail.mean()), float(tail.std()), float(np.ptp(tail)))


@dataclass
class Remedies:
    """Held-out error over epochs of the plain rule and each remedy, on label-noise data.

    Attributes
    ----------
    errors : dict of str to ndarray
        Held-out error after each pass, per method.
    results : dict of str to TrainResult
    flip : float
        Fraction of labels flipped: the Bayes error of the noisy distribution (for
        ``flip < 1/2``), which no classifier beats on average.
    plane_error : float
        The generating plane's held-out error (the flipped fraction of the held-out labels).
    hinge_error : float
        Held-out error of :func:`hinge_separator` fitted on the training half.
    radius : float
        Ball radius used by the projected run.
    train, test : tuple of ndarray
        The two halves ``(X, Y)``.
    """

    errors: dict
    results: dict
    flip: float
    plane_error: float
    hinge_error: float
    radius: float
    train: tuple = field(repr=False)
    test: tuple = field(repr=False)


def remedies_experiment(samples: int = 200, *, flip: float = 0.2, epochs: int = 300,
                        epsilon: float = 0.0, radius: float | None = None,
                        progress: bool = False) -> Remedies:
    """Train every method on one noisy half, measure its error on the other after each pass.

    The data is :func:`~gluon_perceptron.getfake_noisy` with ``2 * samples`` points in 2-D,
    split in halves. Methods: ``plain`` (constant step), ``pocket``, ``averaged``,
    ``decaying`` (:math:`\\eta_e = 1/e`), ``decaying + margin`` (the same with
    :math:`\\delta = 1`) and ``projected`` (ball of ``radius``; default half the plain run's
    largest :math:`\\|\\theta\\|`, since a larger ball would never be reached). Seed with
    ``mx.random.seed`` for a reproducible draw.
    """
    samples = _checks.positive_int(samples, "samples", minimum=2)
    epochs = _checks.positive_int(epochs, "epochs")
    data = getfake_noisy(2 * samples, 2, epsilon, flip)
    X = data.X.asnumpy().astype(np.float64)
    Y = data.Y.asnumpy().astype(np.float64)
    train_xy, test_xy = (X[:samples], Y[:samples]), (X[samples:], Y[samples:])
    runs = {
        "plain": lambda: train_traced(*train_xy, max_epochs=epochs, record=True),
        "pocket": lambda: train_pocket(*train_xy, max_epochs=epochs, record=True),
        "averaged": lambda: train_averaged(*train_xy, max_epochs=epochs, record=True),
        "decaying": lambda: train_traced(*train_xy, max_epochs=epochs, decay=1.0,
                                         record=True),
        "decaying + margin": lambda: train_traced(*train_xy, max_epochs=epochs, decay=1.0,
                                                  threshold=1.0, record=True),
    }
    results = {}
    for name in tqdm(list(runs), desc="remedies", disable=not progress):
        results[name] = runs[name]()
    if radius is None:
        radius = 0.5 * max(results["plain"].history["norm"])
    results["projected"] = train_projected(*train_xy, max_epochs=epochs, radius=radius,
                                           record=True)
    errors = {name: heldout_errors(r, *test_xy) for name, r in results.items()}
    w, b, _ = hinge_separator(*train_xy)
    plane = error_rate(data.wfake.asnumpy(), float(data.bfake.asscalar()), *test_xy)
    return Remedies(errors, results, float(flip), plane, error_rate(w, b, *test_xy),
                    float(radius), train_xy, test_xy)


# --- the main job's section ----------------------------------------------------------------

#: Passes used in the main job's part 1 (horizons: the first tenth, and all of them).
SECTION_EPOCHS = 300


def _nonseparable_runs(epochs: int) -> dict:
    """Part 1's three datasets and the plain rule's traced runs on them."""
    noisy = getfake_noisy(100, 2, 0.0, 0.2)
    gauss = gaussian_classes(100, 2, 2.0)
    data = {"20% label noise": (noisy.X, noisy.Y),
            "overlapping Gaussians": (gauss.X, gauss.Y),
            "XOR": xor_data()}
    traces = {name: train_traced(X, Y, max_epochs=epochs, record=True)
              for name, (X, Y) in data.items()}
    return {"data": data, "traces": traces}
