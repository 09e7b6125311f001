"""The chapter's two experiments: the printed demo, and updates against the margin.

* :func:`demo` is the chapter's first run: 50 points with margin 0.3, one pass of the
  perceptron from zero, printing every update the way the chapter does.
* :func:`margin_experiment_faithful` is the chapter's convergence experiment exactly as
  written: for 10 trials and each epsilon in 0.025 ... 0.425 it draws 1000 points and makes
  one pass, *without ever resetting* ``w, b`` (they carry over from the demo and from every
  earlier dataset) and without running to convergence. Its counts therefore measure a single
  pass of a warm-started perceptron, not what the theorem bounds.
* :func:`margin_experiment` is the corrected experiment: fresh ``w = 0, b = 0`` per dataset,
  trained until a pass makes no update, with the theorem's bound computed from each dataset's
  own radius, margin and generating plane.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.axes import Axes
from mxnet import nd
from tqdm import tqdm

from . import _checks, theory
from .batched import train_batched
from .data import getfake, sample_separable
from .perceptron import perceptron, train
from .plotting import plot_losses, plotdata, plotscore, save_figure

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


def plot_update(X, Y, update: Update, ax=None) -> Axes:
    """Score contours after ``update``, the data, and the offending point ringed in green."""
    _checks.instance(update, Update, "update", "one of the updates demo(X, Y) returns")
    ax = plotscore(update.w, update.b, ax=ax)
    plotdata(X, Y, ax=ax)
    ax.scatter([update.x[0]], [update.x[1]], s=160, facecolors="none", edgecolors="g",
               linewidths=2.5, label="update on this point")
    ax.set_title(f"after update on example {update.index}: "
                 f"w = [{update.w[0]:.2f}, {update.w[1]:.2f}], b = {update.b:g}", fontsize=9)
    return ax


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
        info = theory.generating_plane_bound(fake.X, fake.Y, fake.wfake, fake.bfake)
        out["updates"][j, i] = result.updates
        out["epochs"][j, i] = result.epochs
        converged[j, i] = result.converged
        out["R"][j, i] = info["R"]
        out["gamma"][j, i] = info["gamma"]
        out["bfake"][j, i] = info["b"]
        out["bound"][j, i] = info["bound"]
        out["chapter_bound"][j, i] = theory.chapter_bound(info["R"], float(eps[i]))
    if not converged.all():
        warnings.warn(f"{np.sum(~converged)} runs stopped at max_epochs={max_epochs} before "
                      f"separating their data (see result.converged); raise max_epochs",
                      RuntimeWarning, stacklevel=2)
    return MarginExperiment(epsilons=eps, converged=converged, **out)


def plot_margin_experiment(result: MarginExperiment, ax=None, *, faithful=None) -> Axes:
    """Updates against the margin: mean and spread, the bounds, and the faithful curve."""
    _checks.instance(result, MarginExperiment, "result", "the result of margin_experiment()")
    if ax is None:
        _, ax = plt.subplots(figsize=(7, 4.5))
    eps = result.epsilons
    mean = result.updates.mean(axis=0)
    ax.fill_between(eps, result.updates.min(axis=0), result.updates.max(axis=0), alpha=0.2,
                    label="corrected: min-max over trials")
    ax.plot(eps, mean, "o-", label="corrected: mean updates to convergence")
    ax.plot(eps, np.median(result.bound, axis=0), "--",
            label="bound (R^2+1)(1+b*^2)/gamma^2, median over trials")
    ax.plot(eps, np.median(result.chapter_bound, axis=0), ":",
            label="chapter's bound 2(R^2+1)/eps^2 (needs b*^2 <= 1)")
    if faithful is not None:
        ax.plot(faithful[0], faithful[1], "s-", color="gray",
                label="faithful: one warm-started pass, never reset")
    ax.set_yscale("log")
    ax.set_xlabel("margin epsilon")
    ax.set_ylabel("number of updates")
    ax.legend(fontsize=7)
    return ax


# --- the main job's sections -------------------------------------------------------------

def demo_section(opts) -> list:
    """The demo: ``getfake(50, 2, 0.3)``, one printed pass, a figure per update."""
    X, Y = getfake(50, 2, 0.3)
    w, b, updates = demo(X, Y)
    paths = []
    fig, ax = plt.subplots(figsize=(5, 5))
    plotdata(X, Y, ax=ax)
    ax.set_title("getfake(50, 2, 0.3)")
    paths.append(save_figure(fig, opts.out, "01_data"))
    for k, update in enumerate(updates, start=1):
        fig, ax = plt.subplots(figsize=(5, 5))
        plot_update(X, Y, update, ax=ax)
        paths.append(save_figure(fig, opts.out, f"02_update_{k:02d}"))
    print(f"one pass made {len(updates)} updates; final w = {w.asnumpy()}, "
          f"b = {b.asscalar()}")
    return paths


def experiment_section(opts) -> list:
    """Updates against the margin: corrected experiment (and the faithful one on request)."""
    faithful = None
    if opts.faithful_experiment:
        print("running the chapter's experiment exactly as written (1 to 2 minutes)...")
        # as in the chapter, it continues from the weights the demo left (same seed, same data)
        w, b, _ = demo(*getfake(50, 2, 0.3), verbose=False)
        faithful = margin_experiment_faithful(w=w, b=b, progress=opts.progress)
    else:
        print("(the chapter's own experiment, which never resets w, b and makes one pass, "
              "takes 1 to 2 minutes: add --faithful-experiment to run it too)")
    result = margin_experiment(progress=opts.progress)
    broken = ~result.chapter_assumptions
    print(f"{result.updates.size} runs, all converged: {bool(result.converged.all())}; "
          f"updates never above their bound: {bool(np.all(result.updates <= result.bound))}")
    print(f"{int(broken.sum())} of {broken.size} generating planes have b*^2 > 1, where the "
          f"chapter's 2(R^2+1)/eps^2 is not guaranteed; (R^2+1)(1+b*^2)/gamma^2 still holds")
    print(" epsilon  mean updates  max updates  median bound")
    for i, e in enumerate(result.epsilons):
        print(f"  {e:5.3f}  {result.updates[:, i].mean():12.1f}  "
              f"{result.updates[:, i].max():11.0f}  {np.median(result.bound[:, i]):12.0f}")
    fig, ax = plt.subplots(figsize=(7, 4.5))
    plot_margin_experiment(result, ax=ax, faithful=faithful)
    ax.set_title("updates against the margin (10 trials x 1000 points)")
    return [save_figure(fig, opts.out, "03_updates_vs_margin")]


def loss_section(opts) -> list:
    """The chapter's plot of max(0, f) and max(0, -f)."""
    fig, ax = plt.subplots(figsize=(6, 4))
    plot_losses(ax=ax)
    ax.set_title("the perceptron's hinge-like losses")
    return [save_figure(fig, opts.out, "04_losses")]
