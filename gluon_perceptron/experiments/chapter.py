"""The chapter's experiments: the demo and the updates-against-margin experiment, faithful and
corrected.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
from mxnet import nd
from tqdm import tqdm

from ..core import _checks
from ..core.batched import train_batched
from ..core.bounds import chapter_bound, generating_plane_bound
from ..core.data import getfake, sample_separable
from ..core.rosenblatt import perceptron, train

#: The chapter's margins: ``np.arange(0.025, 0.45, 0.025)``, i.e. 0.025, 0.05, ..., 0.425.
EPSILONS = np.arange(0.025, 0.45, 0.025)


@dataclass
class Update:
    """One update of the demo: the example that caused it and the parameters after it."""

    index: int
    x: np.ndarray
    y: float
    w: np.ndarray
    b: float


def demo(X, Y, *, verbose: bool = True, w: nd.NDArray | None = None,
         b: nd.NDArray | None = None) -> tuple[nd.NDArray, nd.NDArray, list[Update]]:
    """One pass of the chapter's perceptron over ``(X, Y)``, printing each update.

    Parameters
    ----------
    X, Y : NDArray
        Usually ``getfake(50, 2, 0.3)``.
    verbose : bool
        Print the chapter's three lines per update.
    w, b : NDArray, optional
        Starting parameters, changed in place (default zeros).

    Returns
    -------
    w, b : NDArray
        The parameters after the pass.
    updates : list of Update
    """
    Xn, Yn = _checks.dataset(X, Y)
    w = nd.zeros(shape=(Xn.shape[1],)) if w is None else w
    b = nd.zeros(shape=(1,)) if b is None else b
    Xd = nd.array(Xn)
    updates = []
    for i in range(Xn.shape[0]):
        if perceptron(w, b, Xd[i], Yn[i]) == 1:
            updates.append(Update(i, Xn[i].copy(), float(Yn[i]), w.asnumpy().copy(),
                                  float(b.asscalar())))
            if verbose:
                print("Encountered an error and updated parameters")
                print(f"data   {Xn[i]}, label {Yn[i]}")
                print(f"weight {w.asnumpy()}, bias  {b.asscalar()}")
    return w, b, updates


def _epsilons(epsilons) -> np.ndarray:
    eps = (np.asarray(EPSILONS, dtype=float) if epsilons is None
           else _checks.to_numpy(epsilons, "epsilons").reshape(-1))
    if not np.issubdtype(eps.dtype, np.number) or np.issubdtype(eps.dtype, np.complexfloating):
        raise ValueError(f"epsilons must be a non-empty list of finite numbers >= 0, got {eps}")
    eps = eps.astype(float)
    if eps.size == 0 or not np.all(np.isfinite(eps)) or np.any(eps < 0):
        raise ValueError(f"epsilons must be a non-empty list of finite numbers >= 0, got {eps}")
    return eps


def margin_experiment_faithful(epsilons=None, *, trials: int = 10, samples: int = 1000,
                               w: nd.NDArray | None = None, b: nd.NDArray | None = None,
                               progress: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """The chapter's convergence experiment, exactly as written (including its slip).

    For each trial and each epsilon: ``X, Y = getfake(samples, 2, epsilon)`` and one pass of
    :func:`perceptron` over it, adding the updates to ``Err[i]``; ``w, b`` are never reset, so
    every dataset starts from the weights the previous one left. Returns the average over
    trials. Takes 1 to 2 minutes at the chapter's sizes (10 trials x 17 margins x 1000 points),
    almost all of it in the one-point-at-a-time sampler.

    Returns
    -------
    epsilons : ndarray
    updates : ndarray
        Mean updates of one warm-started pass, per epsilon.
    """
    eps = _epsilons(epsilons)
    trials = _checks.positive_int(trials, "trials")
    samples = _checks.positive_int(samples, "samples")
    w = nd.zeros(shape=(2,)) if w is None else w
    b = nd.zeros(shape=(1,)) if b is None else b
    err = np.zeros(eps.size)
    runs = [(j, i, e) for j in range(trials) for i, e in enumerate(eps)]
    for _, i, epsilon in tqdm(runs, desc="faithful experiment", disable=not progress):
        X, Y = getfake(samples, 2, float(epsilon))
        for k in range(samples):
            err[i] += perceptron(w, b, X[k], Y[k])
    return eps, err / trials


@dataclass
class MarginExperiment:
    """Results of :func:`margin_experiment`; arrays have shape ``(trials, len(epsilons))``."""

    epsilons: np.ndarray
    updates: np.ndarray
    epochs: np.ndarray
    converged: np.ndarray
    R: np.ndarray
    gamma: np.ndarray
    bfake: np.ndarray
    bound: np.ndarray
    chapter_bound: np.ndarray

    @property
    def chapter_assumptions(self) -> np.ndarray:
        """Where the chapter's :math:`b^{*2} \\le 1` holds for the generating plane."""
        return self.bfake**2 <= 1.0


def margin_experiment(epsilons=None, *, trials: int = 10, samples: int = 1000,
                      dimensions: int = 2, max_epochs: int = 10_000, engine: str = "fast",
                      sampler: str = "batched", progress: bool = True) -> MarginExperiment:
    """The corrected convergence experiment: fresh weights, trained to convergence.

    For each trial and epsilon: draw a dataset with :func:`sample_separable`, train from
    ``w = 0, b = 0`` until a pass makes no update, and record the updates next to the bound
    :math:`(R^2 + 1)(1 + b^{*2}) / \\gamma^2` computed from that dataset's radius :math:`R`,
    its actual margin :math:`\\gamma \\ge \\epsilon` and generating plane
    (:math:`\\|w^*\\| = 1`), and next to the chapter's :math:`2 (R^2 + 1) / \\epsilon^2`,
    which assumes :math:`b^{*2} \\le 1`.
    """
    eps = _epsilons(epsilons)
    if np.any(eps <= 0):
        raise ValueError("epsilons must be > 0 for the bound (it divides by epsilon^2)")
    trials = _checks.positive_int(trials, "trials")
    shape = (trials, eps.size)
    out = {k: np.zeros(shape) for k in ("updates", "epochs", "R", "gamma", "bfake", "bound",
                                        "chapter_bound")}
    converged = np.zeros(shape, dtype=bool)
    runs = [(j, i) for j in range(trials) for i in range(eps.size)]
    fakes = [sample_separable(samples, dimensions, float(eps[i]), engine=sampler)
             for j, i in tqdm(runs, desc="corrected experiment", disable=not progress)]
    if engine == "fast":  # all runs as one computation, each identical to train on its own
        results = train_batched(np.stack([f.X.asnumpy() for f in fakes]),
                                np.stack([f.Y.asnumpy() for f in fakes]), max_epochs=max_epochs)
    else:
        results = [train(f.X, f.Y, max_epochs=max_epochs, engine=engine) for f in fakes]
    for (j, i), fake, result in zip(runs, fakes, results):
        info = generating_plane_bound(fake.X, fake.Y, fake.wfake, fake.bfake)
        out["updates"][j, i] = result.updates
        out["epochs"][j, i] = result.epochs
        converged[j, i] = result.converged
        out["R"][j, i] = info["R"]
        out["gamma"][j, i] = info["gamma"]
        out["bfake"][j, i] = info["b"]
        out["bound"][j, i] = info["bound"]
        out["chapter_bound"][j, i] = chapter_bound(info["R"], float(eps[i]))
    if not converged.all():
        warnings.warn(f"{np.sum(~converged)} runs stopped at max_epochs={max_epochs} before "
                      f"separating their data (see result.converged); raise max_epochs",
                      RuntimeWarning, stacklevel=2)
    return MarginExperiment(epsilons=eps, converged=converged, **out)
