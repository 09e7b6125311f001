"""Mistake bounds of the perceptron convergence theorem, computed from data.

Write :math:`\\theta_t = (w_t, b_t)` after :math:`t` updates and let :math:`u = (w^*, b^*)`
separate the data with margin :math:`\\gamma`, i.e. :math:`y_i (w^{*\\top} x_i + b^*) \\ge
\\gamma` for all :math:`i`, and :math:`\\|x_i\\| \\le R`. Each update adds at least
:math:`\\gamma` to :math:`u^\\top \\theta_t` and at most :math:`R^2 + 1` to
:math:`\\|\\theta_t\\|^2`, so by Cauchy-Schwarz

.. math:: t \\gamma \\le u^\\top \\theta_t \\le \\|u\\| \\sqrt{t (R^2 + 1)}
          \\quad\\Longrightarrow\\quad t \\le \\frac{(R^2 + 1) \\|u\\|^2}{\\gamma^2}.

The chapter states this with :math:`\\|w^*\\| \\le 1, b^{*2} \\le 1`, hence
:math:`\\|u\\|^2 \\le 2` and :math:`t \\le 2 (R^2 + 1) / \\epsilon^2`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import _checks
from .data import generating_margins


def radius(X) -> float:
    """:math:`R = \\max_i \\|x_i\\|`, the radius of the data."""
    Xn = _checks.features(X).astype(np.float64)
    return float(np.sqrt(np.max(np.sum(Xn * Xn, axis=1))))


def chapter_bound(R: float, epsilon: float) -> float:
    """The chapter's bound :math:`2 (R^2 + 1) / \\epsilon^2` (needs :math:`\\|w^*\\| \\le 1,
    b^{*2} \\le 1`)."""
    R = _checks.finite_float(R, "R", minimum=0.0)
    epsilon = _checks.finite_float(epsilon, "epsilon", strictly_positive=True)
    return 2.0 * (R * R + 1.0) / epsilon**2


def bias_bound(R: float, gamma: float, w_norm: float, b: float) -> float:
    """Bound with bias for any separator: :math:`(R^2 + 1)(\\|w^*\\|^2 + b^{*2}) / \\gamma^2`.

    Holds for every :math:`(w^*, b^*)` with :math:`y_i (w^{*\\top} x_i + b^*) \\ge \\gamma > 0`;
    with the chapter's assumptions it is at most :func:`chapter_bound`.
    """
    R = _checks.finite_float(R, "R", minimum=0.0)
    gamma = _checks.finite_float(gamma, "gamma", strictly_positive=True)
    w_norm = _checks.finite_float(w_norm, "w_norm", minimum=0.0)
    b = _checks.finite_float(b, "b")
    if w_norm == 0 and b == 0:
        raise ValueError("w_norm and b are both 0: (w*, b*) = 0 separates nothing; pass the "
                         "norm and bias of a plane with margin gamma")
    return (R * R + 1.0) * (w_norm**2 + b * b) / gamma**2


def novikoff_bound(R: float, gamma: float) -> float:
    """Novikoff's bound without bias, :math:`R^2 / \\gamma^2` for a unit separator."""
    R = _checks.finite_float(R, "R", minimum=0.0)
    gamma = _checks.finite_float(gamma, "gamma", strictly_positive=True)
    return R * R / gamma**2


def generating_plane_bound(X, Y, wfake, bfake) -> dict:
    """The bias bound for a dataset, using its generating plane as the separator.

    Returns
    -------
    dict
        ``R``, ``gamma`` (the smallest margin :math:`y_i(w^{*\\top} x_i + b^*)` actually
        reached, never below the sampler's ``epsilon``), ``b`` (:math:`b^*`), ``bound`` (from
        :func:`bias_bound`) and ``chapter_assumptions`` (whether :math:`b^{*2} \\le 1`, so that
        :func:`chapter_bound` applies).
    """
    margins = generating_margins(X, Y, wfake, bfake)
    gamma = float(margins.min())
    if gamma <= 0:
        raise ValueError("the given plane does not separate the data (a margin is <= 0)")
    w = _checks.to_numpy(wfake, "wfake").astype(np.float64).reshape(-1)
    b = float(np.asarray(_checks.to_numpy(bfake, "bfake")).reshape(-1)[0])
    R = radius(X)
    return {"R": R, "gamma": gamma, "b": b,
            "bound": bias_bound(R, gamma, float(np.linalg.norm(w)), b),
            "chapter_assumptions": b * b <= 1.0}


# --- the general bound (1.4): any start, any threshold --------------------------------------

def general_bound(radius_a: float, s: float, u_norm: float, *, w0_norm: float = 0.0,
                  threshold: float = 0.0) -> float:
    """The lecture notes' bound (1.4) for a start :math:`\\theta_0` and a threshold :math:`\\delta`.

    With signed rows :math:`a_i` (:math:`\\|a_i\\| \\le R_a`) and a separator :math:`u` with
    :math:`a_i^\\top u \\ge s > 0`, the two halves of the proof give
    :math:`u^\\top \\theta_t \\ge -\\|u\\|\\|\\theta_0\\| + t s` and
    :math:`\\|\\theta_t\\|^2 \\le \\|\\theta_0\\|^2 + t (2 \\delta + R_a^2)`; Cauchy-Schwarz
    then yields

    .. math:: t \\le \\frac{(2\\delta + R_a^2)\\|u\\|^2 + 2 s \\|u\\| \\|\\theta_0\\|}{s^2}.

    With bias, :math:`R_a^2 = R^2 + 1` and :math:`u = (w^*, b^*)`; with
    :math:`\\theta_0 = 0, \\delta = 0` this is :func:`bias_bound`. It assumes the learning
    rate 1 (a rate :math:`\\eta` is the same run with :math:`\\theta_0/\\eta, \\delta/\\eta`).
    """
    radius_a = _checks.finite_float(radius_a, "radius_a", minimum=0.0)
    s = _checks.finite_float(s, "s", strictly_positive=True)
    u_norm = _checks.finite_float(u_norm, "u_norm", strictly_positive=True)
    w0_norm = _checks.finite_float(w0_norm, "w0_norm", minimum=0.0)
    threshold = _checks.finite_float(threshold, "threshold", minimum=0.0)
    return ((2 * threshold + radius_a**2) * u_norm**2 + 2 * s * u_norm * w0_norm) / s**2


def separator(wfake, bfake=None) -> np.ndarray:
    """The generating plane as one vector :math:`u = (w^*, b^*)` (or :math:`w^*` if no bias)."""
    w = _checks.vector(wfake, "wfake").astype(np.float64)
    if not np.any(w):
        raise ValueError("wfake is the zero vector, which defines no plane; pass the plane's "
                         "normal (e.g. FakeData.wfake)")
    if bfake is None:
        return w
    return np.append(w, _checks.scalar(bfake, "bfake"))


def shift_plane_to_origin(X, wfake, bfake) -> np.ndarray:
    """Translate the data so its generating plane passes through the origin.

    :math:`x' = x + b^* w^* / \\|w^*\\|^2` gives :math:`w^{*\\top} x' = w^{*\\top} x + b^*`: the
    margins are unchanged and :math:`w^*` alone separates :math:`x'`, so homogeneous
    (no-bias) theory applies. The radius grows to at most :math:`R + |b^*| / \\|w^*\\|`.
    """
    Xn = _checks.features(X).astype(np.float64)
    if bfake is None:
        raise ValueError("bfake is required (use 0.0 for a plane through the origin)")
    u = separator(_checks.vector(wfake, "wfake", size=Xn.shape[1]), bfake)
    w, b = u[:-1], u[-1]
    return Xn + b * w / (w @ w)


# --- the proof, live: replay the rule update by update ---------------------------------------

@dataclass
class UpdatePath:
    """Every parameter vector one run visits, from :func:`update_path`.

    Attributes
    ----------
    thetas : ndarray, shape (updates + 1, p)
        :math:`\\theta_0, \\theta_1, \\dots`: ``(w, b)`` with bias (``p = d + 1``), ``w`` without.
    examples : ndarray of int, shape (updates,)
        The example each update was made on.
    converged : bool
        True if the last pass made no update; False if ``max_epochs`` was reached first.
    epochs : int
    bias : bool
    """

    thetas: np.ndarray
    examples: np.ndarray
    converged: bool
    epochs: int
    bias: bool

    @property
    def updates(self) -> int:
        """Number of updates made."""
        return len(self.examples)

    @property
    def w(self) -> np.ndarray:
        """Final weights."""
        return self.thetas[-1, :-1] if self.bias else self.thetas[-1]

    @property
    def b(self) -> float:
        """Final bias (0 without bias)."""
        return float(self.thetas[-1, -1]) if self.bias else 0.0


def update_path(X, Y, *, max_epochs: int, bias: bool = True, w0=None, b0: float = 0.0,
                threshold: float = 0.0) -> UpdatePath:
    """Replay Rosenblatt's rule in data order and keep the parameters after every update.

    The same rule as :func:`~gluon_perceptron.train` with learning rate 1 (update when
    :math:`y_i (w^\\top x_i + b) \\le \\delta`: :math:`w \\mathrel{+}= y_i x_i`,
    :math:`b \\mathrel{+}= y_i`), plus ``bias=False`` for the homogeneous perceptron of
    Novikoff's theorem, which has no :math:`b`. It runs ``train``'s numpy engine
    (``perceptron._numpy_epoch``), which scans ahead for the next example at or below the
    threshold, and notes the parameters after every update.
    """
    from .perceptron import _numpy_epoch

    Xn, Yn = _checks.dataset(X, Y)
    d = Xn.shape[1]
    max_epochs = _checks.positive_int(max_epochs, "max_epochs")
    threshold = _checks.finite_float(threshold, "threshold", minimum=0.0)
    b0 = _checks.finite_float(b0, "b0")
    if not bias and b0 != 0.0:
        raise ValueError("b0 must be 0 when bias=False (the homogeneous perceptron has no b)")
    w = np.zeros(d, dtype=Xn.dtype) if w0 is None else _checks.vector(
        w0, "w0", size=d).astype(Xn.dtype)
    b = np.array([b0], dtype=Xn.dtype)

    def state() -> np.ndarray:
        return np.append(w, b) if bias else w.copy()

    thetas = [state()]
    examples: list[int] = []

    def keep(k: int) -> None:
        thetas.append(state())
        examples.append(k)

    for epoch in range(1, max_epochs + 1):
        if _numpy_epoch(Xn, Yn, w, b, 1.0, threshold, bias=bias, on_update=keep) == 0:
            return UpdatePath(np.array(thetas, dtype=np.float64), np.array(examples, dtype=int),
                              True, epoch, bias)
    return UpdatePath(np.array(thetas, dtype=np.float64), np.array(examples, dtype=int),
                      False, max_epochs, bias)


@dataclass
class ProofTrace:
    """Both halves of the convergence proof, measured along one run (:func:`proof_trace`).

    Attributes
    ----------
    path : UpdatePath
    progress : ndarray, shape (updates + 1,)
        :math:`u^\\top \\theta_t` (Part 1: grows by at least ``s`` per update).
    lower : ndarray
        Its lower bound :math:`u^\\top \\theta_0 + t s`.
    norm2 : ndarray
        :math:`\\|\\theta_t\\|^2` (Part 2: grows by at most :math:`2\\delta + R_a^2` per update).
    upper : ndarray
        Its upper bound :math:`\\|\\theta_0\\|^2 + t (2\\delta + R_a^2)`.
    s : float
        The separator's smallest margin :math:`\\min_i a_i^\\top u`.
    radius_a : float
        :math:`R_a = \\max_i \\|a_i\\|`.
    u_norm : float
    bound : float
        :func:`general_bound` for this run: the ``t`` where the two halves meet.
    """

    path: UpdatePath
    progress: np.ndarray
    lower: np.ndarray
    norm2: np.ndarray
    upper: np.ndarray
    s: float
    radius_a: float
    u_norm: float
    bound: float


def proof_trace(X, Y, u, *, max_epochs: int = 10_000, bias: bool = True, w0=None,
                b0: float = 0.0, threshold: float = 0.0) -> ProofTrace:
    """Run the perceptron and record the two quantities the convergence proof squeezes.

    Parameters
    ----------
    X, Y : array-like
        The data.
    u : array-like, shape (d + 1,) with bias, (d,) without
        A separator :math:`u = (w^*, b^*)` (any norm), e.g. :func:`separator` of the generating
        plane or :attr:`OptimalMargin.theta`.
    max_epochs, bias, w0, b0, threshold
        As in :func:`update_path`.

    Raises
    ------
    ValueError
        If ``u`` does not separate the data (the proof needs :math:`a_i^\\top u > 0`).
    """
    from .margins import signed_rows

    A = signed_rows(X, Y, bias=bias)
    un = _checks.to_numpy(u, "u").astype(np.float64).reshape(-1)
    if un.shape[0] != A.shape[1]:
        raise ValueError(f"u must have {A.shape[1]} entries ({'(w*, b*)' if bias else 'w*'}), "
                         f"got {un.shape[0]}")
    s = float(np.min(A @ un))
    if s <= 0:
        raise ValueError(f"u does not separate the data: its smallest margin is {s:.3g} <= 0")
    path = update_path(X, Y, max_epochs=max_epochs, bias=bias, w0=w0, b0=b0,
                       threshold=threshold)
    t = np.arange(path.thetas.shape[0])
    theta0 = path.thetas[0]
    radius_a = float(np.sqrt(np.max(np.sum(A * A, axis=1))))
    u_norm = float(np.linalg.norm(un))
    return ProofTrace(
        path=path, progress=path.thetas @ un, lower=theta0 @ un + t * s,
        norm2=np.sum(path.thetas**2, axis=1),
        upper=theta0 @ theta0 + t * (2 * threshold + radius_a**2), s=s, radius_a=radius_a,
        u_norm=u_norm, bound=general_bound(radius_a, s, u_norm,
                                           w0_norm=float(np.linalg.norm(theta0)),
                                           threshold=threshold))


# --- the bounds against measured counts on many datasets -------------------------------------

#: Keys of the per-dataset records returned by :func:`bound_experiment`.
BOUND_FIELDS = ("dimensions", "samples", "epsilon", "R", "gamma", "b", "updates", "converged",
                "bias_bound", "chapter_bound", "optimal_bound", "homogeneous_updates",
                "homogeneous_converged", "novikoff_bound")


def bound_experiment(dimensions=(2, 5, 10, 20), samples=(100, 1000), epsilons=(0.1, 0.3),
                     *, trials: int = 3, max_epochs: int = 10_000,
                     progress: bool = False) -> dict[str, np.ndarray]:
    """Measured updates next to every mistake bound, over a grid of getfake datasets.

    For each ``(d, n, epsilon)`` and trial, draws :func:`~gluon_perceptron.sample_separable`
    and records:

    * with bias (the chapter's perceptron, :func:`~gluon_perceptron.train` from zero):
      ``updates``; ``bias_bound`` :math:`(R^2+1)(1+b^{*2})/\\gamma^2` from the generating
      plane; the chapter's ``chapter_bound`` :math:`2(R^2+1)/\\epsilon^2` (valid when
      :math:`b^{*2} \\le 1`); ``optimal_bound`` :math:`(R^2+1)/\\gamma_2^2` from
      :func:`~gluon_perceptron.margins.optimal_margin`;
    * without bias, on the same data moved so the plane passes through the origin
      (:func:`shift_plane_to_origin`): ``homogeneous_updates`` of :func:`update_path` with
      ``bias=False`` and Novikoff's ``novikoff_bound`` :math:`R'^2/\\gamma^2`.

    Every bound depends on the data only through a radius and a margin, never on ``d`` or
    ``n`` directly. Returns a dict of equal-length arrays, keys :data:`BOUND_FIELDS`.
    """
    from tqdm import tqdm

    from .data import sample_separable
    from .margins import optimal_margin
    from .perceptron import train

    trials = _checks.positive_int(trials, "trials")
    for name, values in (("dimensions", dimensions), ("samples", samples),
                         ("epsilons", epsilons)):
        if np.ndim(values) != 1:
            raise ValueError(f"{name} must be a sequence of values, e.g. {name}=(0.1,) for one, "
                             f"got {values!r}")
    grid = [(int(d), int(n), float(e)) for d in dimensions for n in samples for e in epsilons
            for _ in range(trials)]
    if not grid:
        raise ValueError("dimensions, samples and epsilons must each hold at least one value")
    rows = []
    for d, n, eps in tqdm(grid, desc="bound experiment", disable=not progress):
        fake = sample_separable(n, d, eps)
        info = generating_plane_bound(fake.X, fake.Y, fake.wfake, fake.bfake)
        run = train(fake.X, fake.Y, max_epochs=max_epochs)
        Xh = shift_plane_to_origin(fake.X, fake.wfake, fake.bfake)
        hom = update_path(Xh, fake.Y, max_epochs=max_epochs, bias=False)
        rows.append((d, n, eps, info["R"], info["gamma"], info["b"], run.updates,
                     run.converged, info["bound"], chapter_bound(info["R"], eps),
                     optimal_margin(fake.X, fake.Y).bound, hom.updates, hom.converged,
                     novikoff_bound(radius(Xh), info["gamma"])))
    return {k: np.array(v) for k, v in zip(BOUND_FIELDS, zip(*rows))}


# --- data normalization (Exercise 1.29) -------------------------------------------------------

def transformed_run(X, Y, wfake, bfake, *, scale: float = 1.0, shift=None,
                    max_epochs: int = 100_000) -> dict:
    """Train on :math:`x' = \\lambda x + \\bar x` and recompute the bounds for it.

    The generating plane moves with the data: with unit :math:`w^*`,
    :math:`w^{*\\top} x' + (\\lambda b^* - w^{*\\top}\\bar x) = \\lambda (w^{*\\top} x + b^*)`,
    so the data stays separable, the margin becomes :math:`\\lambda\\gamma` and the bias
    :math:`\\lambda b^* - w^{*\\top} \\bar x`.

    Returns
    -------
    dict
        ``R``, ``gamma``, ``b`` (of the moved plane), ``bias_bound`` (generating plane),
        ``optimal_bound`` (:math:`(R'^2+1)/\\gamma_2^2`), ``updates`` and ``converged`` (with
        bias, :func:`~gluon_perceptron.train`) and ``homogeneous_updates`` (no bias,
        :func:`update_path`; without bias and from zero a scaling changes nothing).
    """
    from .margins import optimal_margin
    from .perceptron import train

    Xn, Yn = _checks.dataset(X, Y)
    scale = _checks.finite_float(scale, "scale", strictly_positive=True)
    shift_v = np.zeros(Xn.shape[1]) if shift is None else _checks.vector(
        shift, "shift", size=Xn.shape[1]).astype(np.float64)
    if bfake is None:
        raise ValueError("bfake is required (use 0.0 for a plane through the origin)")
    u = separator(_checks.vector(wfake, "wfake", size=Xn.shape[1]), bfake)
    w = u[:-1] / np.linalg.norm(u[:-1])
    b = u[-1] / np.linalg.norm(u[:-1])
    Xt = scale * Xn.astype(np.float64) + shift_v
    bt = scale * b - w @ shift_v
    info = generating_plane_bound(Xt, Yn, w, np.array([bt]))
    run = train(Xt, Yn, max_epochs=max_epochs)
    hom = update_path(Xt, Yn, max_epochs=max_epochs, bias=False) if abs(bt) < 1e-12 else None
    return {"R": info["R"], "gamma": info["gamma"], "b": bt, "bias_bound": info["bound"],
            "optimal_bound": optimal_margin(Xt, Yn).bound, "updates": run.updates,
            "converged": run.converged,
            "homogeneous_updates": None if hom is None else hom.updates}


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

        from .perceptron import perceptron

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
    from .perceptron import train

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
    from tqdm import tqdm

    from .data import sample_separable
    from .margins import optimal_margin
    from .perceptron import error_rate, train

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


# --- figures and the main job's sections -----------------------------------------------------

def plot_proof_trace(trace: ProofTrace, axes=None) -> np.ndarray:
    """The two halves of the proof along one run, and the squeeze that ends it.

    Left: :math:`u^\\top\\theta_t` above its lower bound :math:`u^\\top\\theta_0 + ts`
    (Part 1). Right, on log-log axes: :math:`\\|\\theta_t\\|^2` below Part 2's
    :math:`\\|\\theta_0\\|^2 + t(2\\delta + R_a^2)` (slope 1) and above what Part 1 implies by
    Cauchy-Schwarz, :math:`((u^\\top\\theta_0 + ts)_+/\\|u\\|)^2` (slope 2). The two lines
    cross at ``trace.bound``: no run can get past it.
    """
    import matplotlib.pyplot as plt

    _checks.instance(trace, ProofTrace, "trace", "the result of proof_trace(X, Y, u)")
    if axes is None:
        _, axes = plt.subplots(1, 2, figsize=(11, 4))
    t = np.arange(trace.progress.size)
    ax = axes[0]
    ax.plot(t, trace.progress, "o-", ms=3, label="u . theta_t (measured)")
    ax.plot(t, trace.lower, "--", label="lower bound u . theta_0 + t s (Part 1)")
    ax.set_xlabel("update t")
    ax.set_ylabel("progress along u")
    ax.legend(fontsize=8)
    ax = axes[1]
    horizon = np.geomspace(1, trace.bound * 2, 200)
    theta0_sq = trace.upper[0]
    upper = theta0_sq + horizon * (trace.upper[1] - theta0_sq if t.size > 1
                                   else trace.radius_a**2)
    lower = np.maximum(trace.lower[0] + horizon * trace.s, 0) ** 2 / trace.u_norm**2
    ax.plot(t[1:], trace.norm2[1:], "o-", ms=3, color="k", label="||theta_t||^2 (measured)")
    ax.plot(horizon, upper, "--", color="C3", label="upper bound (Part 2), slope 1")
    ax.plot(horizon, lower, "--", color="C2", label="lower bound from Part 1, slope 2")
    ax.axvline(trace.bound, color="gray", lw=0.8)
    ax.annotate(f"lines cross: t = {trace.bound:.0f}", (trace.bound, upper[-1] / 30),
                ha="right", fontsize=8)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_ylim(bottom=max(lower[lower > 0].min(), 1e-3) if np.any(lower > 0) else None)
    ax.set_xlabel("update t")
    ax.set_ylabel("squared norm")
    ax.legend(fontsize=8, loc="upper left")
    return axes


def plot_bound_experiment(rec: dict, axes=None) -> np.ndarray:
    """Left: every bound against the measured count (all points above the diagonal).
    Right: medians against the dimension, per number of points (flat bounds)."""
    import matplotlib.pyplot as plt

    missing = [k for k in BOUND_FIELDS if k not in rec] if isinstance(rec, dict) else BOUND_FIELDS
    if missing:
        raise ValueError(f"rec must be the dict returned by bound_experiment(); it lacks "
                         f"{list(missing)[:4]}")
    if axes is None:
        _, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    ax = axes[0]
    pairs = [("updates", "bias_bound", "with bias: (R^2+1)(1+b*^2)/gamma^2"),
             ("updates", "optimal_bound", "with bias: (R^2+1)/gamma_2^2 (optimal)"),
             ("homogeneous_updates", "novikoff_bound", "no bias: Novikoff R^2/gamma^2")]
    for (count, bound, label), marker in zip(pairs, "os^"):
        ax.scatter(np.maximum(rec[count], 0.8), rec[bound], s=14, marker=marker, label=label)
    lim = [0.8, max(rec["bias_bound"].max(), rec["novikoff_bound"].max()) * 1.5]
    ax.plot(lim, lim, "k-", lw=0.8, label="bound = measured")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("measured updates to convergence")
    ax.set_ylabel("mistake bound")
    ax.legend(fontsize=7)
    ax = axes[1]
    dims = np.unique(rec["dimensions"])
    for k, n in enumerate(np.unique(rec["samples"])):
        sel = rec["samples"] == n
        med = [np.median(rec["updates"][sel & (rec["dimensions"] == d)]) for d in dims]
        bnd = [np.median(rec["optimal_bound"][sel & (rec["dimensions"] == d)]) for d in dims]
        ax.plot(dims, med, "o-", color=f"C{k}", label=f"measured, n = {n}")
        ax.plot(dims, bnd, "s--", color=f"C{k}", label=f"optimal bound, n = {n}")
    ax.plot(dims, [np.median(rec["chapter_bound"])] * len(dims), "k:",
            label="2(R^2+1)/eps^2 (median)")
    ax.set_yscale("log")
    ax.set_xlabel("dimension d")
    ax.set_ylabel("updates (median over datasets)")
    ax.legend(fontsize=7)
    return axes


def convergence_section(opts) -> list:
    """Bounds against measured counts; the proof, live; the normalization exercise."""
    import matplotlib.pyplot as plt

    from .data import sample_separable
    from .margins import optimal_margin
    from .plotting import save_figure

    rec = bound_experiment(samples=(100, 300), trials=1, progress=opts.progress)
    ok = rec["b"] ** 2 <= 1
    print(f"{rec['updates'].size} getfake datasets (d in {sorted(set(rec['dimensions']))}, "
          f"n in {sorted(set(rec['samples']))}, eps in {sorted(set(rec['epsilon']))}), "
          f"all converged: {bool(rec['converged'].all() and rec['homogeneous_converged'].all())}")
    for name, count, bound, sel in [
            ("(R^2+1)(1+b*^2)/gamma^2", "updates", "bias_bound", slice(None)),
            ("(R^2+1)/gamma_2^2 (optimal)", "updates", "optimal_bound", slice(None)),
            ("2(R^2+1)/eps^2 where b*^2 <= 1", "updates", "chapter_bound", ok),
            ("Novikoff R^2/gamma^2, no bias", "homogeneous_updates", "novikoff_bound",
             slice(None))]:
        ratio = rec[count][sel] / rec[bound][sel]
        print(f"  {name:34s} never exceeded: {bool(np.all(ratio <= 1))}; "
              f"largest measured/bound = {ratio.max():.3f}")
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    plot_bound_experiment(rec, axes)
    axes[0].set_title("every bound holds, often by a factor 10-100", fontsize=10)
    axes[1].set_title("counts stay below bounds that do not grow with d or n", fontsize=10)
    paths = [save_figure(fig, opts.out, "06_bounds_vs_measured")]

    fake = sample_separable(200, 2, 0.05)
    trace = proof_trace(fake.X, fake.Y, optimal_margin(fake.X, fake.Y).theta)
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    plot_proof_trace(trace, axes)
    fig.suptitle(f"the proof, live, with the optimal separator u: {trace.path.updates} updates, "
                 f"bound {trace.bound:.0f}",
                 fontsize=10)
    paths.append(save_figure(fig, opts.out, "06_proof_live"))
    print(f"proof, live: {trace.path.updates} updates; Part 1 and Part 2 hold at every update: "
          f"{bool(np.all(trace.progress >= trace.lower - 1e-9))}, "
          f"{bool(np.all(trace.norm2 <= trace.upper + 1e-9))}")

    scales = [0.1, 1.0, 10.0]
    runs = [transformed_run(fake.X, fake.Y, fake.wfake, fake.bfake, scale=lam)
            for lam in scales]
    print("normalization x -> lambda x (Exercise 1.29), with bias, same dataset:")
    print("  lambda   updates   optimal bound")
    for lam, r in zip(scales, runs):
        print(f"  {lam:6.1f}  {r['updates']:8d}  {r['optimal_bound']:14.0f}")
    return paths


def optimality_section(opts) -> list:
    """Theorem 1.34's adversary against the perceptron; the leave-one-out bound."""
    import matplotlib.pyplot as plt

    from .plotting import save_figure

    gammas = np.array([0.5, 0.3, 0.2, 0.15, 0.1, 0.07, 0.05])
    dims = 100
    forced = [adversary_run(float(g), dims).mistakes for g in gammas]
    limit = np.minimum(np.floor(1 / gammas**2 * (1 + 1e-12)), dims)
    print(f"adversary (d = {dims}): forced mistakes {forced}, min(1/gamma^2, d) = "
          f"{limit.astype(int).tolist()}")
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    ax = axes[0]
    ax.plot(1 / gammas**2, limit, "k--", label="min(1/gamma^2, d)")
    ax.plot(1 / gammas**2, forced, "o", label="mistakes the adversary forced on the perceptron")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("1 / gamma^2")
    ax.set_ylabel("mistakes")
    ax.set_title(f"Theorem 1.34 (d = {dims})", fontsize=10)
    ax.legend(fontsize=8)

    sizes = [25, 50, 100, 200]
    stats = [generalization_experiment(n, 20, epsilon=0.5, progress=opts.progress)
             for n in sizes]
    ax = axes[1]
    for key, label, style in [("bound", "E[R_a^2/gamma_2^2]/(N+1)", "s--"),
                              ("updates", "mistakes of the full run /(N+1)", "^:"),
                              ("support", "|I|/(N+1) (examples updated on)", "v:"),
                              ("loo", "leave-one-out error", "o-"),
                              ("test", "error on fresh points", "x-")]:
        ax.plot(sizes, [np.mean(s[key]) for s in stats], style, label=label)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xticks(sizes, [str(n) for n in sizes])
    ax.minorticks_off()
    ax.set_xlabel("training points N")
    ax.set_ylabel("rate (mean over 20 draws)")
    ax.set_title("Theorem 2.6: leave-one-out error below E[R^2/gamma^2]/(N+1)", fontsize=10)
    ax.legend(fontsize=7, loc="lower left")
    print(" N    leave-one-out  fresh-test   bound")
    for n, s in zip(sizes, stats):
        print(f" {n:3d}  {s['loo'].mean():13.4f}  {s['test'].mean():10.4f}  "
              f"{s['bound'].mean():6.3f}")
    return [save_figure(fig, opts.out, "07_optimality_generalization")]
