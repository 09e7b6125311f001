"""Black & White: the perceptron on data that is not separable, broken rules, and remedies.

The chapter warns that without separability "the perceptron algorithm will diverge" and that
nothing keeps the parameters bounded; the game *Black & White* is its cautionary tale. This
module measures what actually happens. Write :math:`\\theta = (w, b)` and, as in the notes'
padding (Remark 1.17), :math:`a_i = y_i (x_i, 1)`, so that :math:`y_i (w^\\top x_i + b) =
\\langle \\theta, a_i \\rangle` and the perceptron step is

.. math:: \\theta \\leftarrow \\theta + \\eta\\, a_i \\quad\\text{if}\\quad
          \\langle \\theta, a_i \\rangle \\le 0 .

1. **Plain rule, non-separable data** (:func:`train_traced`). A pass without an update would
   separate the data, so every pass updates: the rule never converges, the boundary keeps
   moving and the training error keeps changing. That is the sense in which the chapter's
   "diverge" is right. It is wrong in the other sense: the iterates stay bounded. By the
   perceptron boundedness theorem (Minsky-Papert 1969, Block-Levin 1970; quantitatively
   Amaldi-Hauser 2005, :func:`amaldi_hauser_bound`) :math:`\\|\\theta_t\\|` stays below a
   constant that depends only on the data and the step, however long the run.
2. **Broken rules** (:func:`run_online`, :func:`train_aggressive`). Updating on *every*
   example, right or wrong (the notes' "aggressive" perceptron, Remark 1.19), drops the
   mistake test that the boundedness and convergence proofs rely on: on the notes' separable
   sequence (:func:`notes_sequence`) it errs at every index :math:`2^k, k \\ge 5`, and on a
   finite set it adds :math:`\\eta \\sum_i a_i` per pass, so :math:`\\|\\theta\\|` grows linearly.
3. **Remedies** (:func:`train_pocket`, :func:`train_averaged`, :func:`train_traced` with a
   decaying step, :func:`train_projected`), compared on held-out data by
   :func:`remedies_experiment` against the best linear rule (:func:`hinge_separator` and the
   Bayes error of the noise).

The plain rule on whole passes is :func:`gluon_perceptron.train`; where every step matters
(the average over steps, the pocket's run lengths) it is replayed by
:func:`gluon_perceptron.theory.update_path`. The two new rules, a projection after each update
and an update on every example, share one per-example loop, :func:`_sweep`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from itertools import combinations, islice
from typing import NamedTuple

import matplotlib.pyplot as plt
import numpy as np
from scipy.optimize import linprog
from tqdm import tqdm

from . import _checks
from .data import gaussian_classes, getfake_noisy, xor_data
from .margins import signed_rows
from .perceptron import TrainResult, error_rate, train
from .plotting import plotdata, save_figure
from .theory import update_path

RULES = ("perceptron", "aggressive")


# --- the best linear rule -----------------------------------------------------------------

def _split(theta: np.ndarray) -> tuple[np.ndarray, float]:
    return theta[:-1].copy(), float(theta[-1])


def hinge_separator(X, Y, *, threshold: float = 1.0) -> tuple[np.ndarray, float, float]:
    """The linear rule minimising the mean hinge loss, by linear programming.

    Solves :math:`\\min_{\\theta, s} \\frac1n \\sum_i s_i` subject to
    :math:`\\langle \\theta, a_i \\rangle \\ge \\delta - s_i,\\; s_i \\ge 0`, i.e. minimises
    :math:`\\frac1n \\sum_i \\max(0, \\delta - y_i (w^\\top x_i + b))` exactly (a piecewise
    linear objective; scipy's HiGHS solver), with :math:`\\delta` = ``threshold``. This is
    the loss a perceptron with margin :math:`\\delta = 1` and a decaying step minimises, and a
    standard surrogate for the best linear separator (minimising the number of errors itself
    is NP-hard). The optimum is 0 exactly when the data is separable.

    Returns
    -------
    w : ndarray, shape (d,)
    b : float
    loss : float
        The minimal mean hinge loss.
    """
    A = signed_rows(X, Y)
    threshold = _checks.finite_float(threshold, "threshold", minimum=0.0)
    n, p = A.shape
    cost = np.concatenate([np.zeros(p), np.full(n, 1.0 / n)])
    constraints = -np.hstack([A, np.eye(n)])  # -(a_i . theta) - s_i <= -delta
    bounds = [(None, None)] * p + [(0, None)] * n
    solved = linprog(cost, A_ub=constraints, b_ub=np.full(n, -threshold), bounds=bounds,
                     method="highs")
    if solved.status != 0:  # pragma: no cover - the LP is always feasible and bounded below
        raise RuntimeError(f"linear program failed: {solved.message}")
    w, b = _split(solved.x[:p])
    return w, b, float(solved.fun)


def is_separable(X, Y) -> bool:
    """Whether some :math:`(w, b)` has :math:`y_i (w^\\top x_i + b) > 0` for every example.

    Decided by :func:`hinge_separator`: strict separability is the same as some
    :math:`\\theta` with :math:`\\langle \\theta, a_i \\rangle \\ge 1` for all :math:`i` (scale
    it up), i.e. a minimal hinge loss of 0.
    """
    return hinge_separator(X, Y)[2] <= 1e-9


# --- one pass of a perceptron-like rule, step by step --------------------------------------

def _sweep(A: np.ndarray, theta: np.ndarray, eta: float, *, guard: bool = True,
           radius: float | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One pass of the projected or the unguarded rule over the rows of ``A``, in place.

    For each :math:`a_i` in order: the margin :math:`m_i = \\langle \\theta, a_i \\rangle`;
    if :math:`m_i \\le 0` (or always, when ``guard`` is False) :math:`\\theta \\mathrel{+}=
    \\eta a_i`, then, if ``radius`` is given and :math:`\\|\\theta\\| > \\rho`,
    :math:`\\theta \\leftarrow \\rho\\, \\theta / \\|\\theta\\|` (the projection onto the ball).

    Returns
    -------
    thetas : ndarray, shape (n, p)
        :math:`\\theta` after each step.
    margins : ndarray, shape (n,)
        :math:`m_i`, before the step.
    updated : ndarray of bool, shape (n,)
    """
    n, p = A.shape
    thetas = np.empty((n, p))
    margins = np.empty(n)
    updated = np.zeros(n, dtype=bool)
    for i in range(n):
        margins[i] = A[i] @ theta
        if margins[i] <= 0.0 or not guard:
            theta += eta * A[i]
            updated[i] = True
            if radius is not None:
                norm = math.sqrt(theta @ theta)
                if norm > radius:
                    theta *= radius / norm
        thetas[i] = theta
    return thetas, margins, updated


def _plain_pass(X: np.ndarray, Y: np.ndarray, A: np.ndarray, theta: np.ndarray,
                eta: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One pass of the plain rule, step by step, from :func:`~gluon_perceptron.theory.update_path`.

    ``update_path`` replays the rule with step 1 and keeps :math:`\\theta` after each update;
    the rule is invariant to scale (from :math:`\\theta / \\eta` with step 1 it visits
    :math:`\\theta_t / \\eta`), so the path is scaled by :math:`\\eta` and spread over the
    steps between updates. Same return values as :func:`_sweep`; ``theta`` is updated in place.
    """
    n = A.shape[0]
    path = update_path(X, Y, max_epochs=1, w0=theta[:-1] / eta, b0=float(theta[-1] / eta))
    visited = eta * path.thetas                   # theta before the pass, then after each update
    steps = np.arange(n)
    before = np.searchsorted(path.examples, steps, side="left")   # updates made before step i
    after = np.searchsorted(path.examples, steps, side="right")   # ... and up to step i
    margins = np.einsum("ij,ij->i", A, visited[before])
    theta[:] = visited[-1]
    return visited[after], margins, after > before


def _passes(X, Y, max_epochs, learning_rate, *, guard=True, radius=None):
    """Yield ``(A, thetas, margins, updated)`` for each pass of a rule, from :math:`\\theta = 0`.

    The plain rule (``guard`` and no ``radius``) comes from :func:`_plain_pass`, the others
    from :func:`_sweep`. Stops after a pass without an update (when guarded: the data is then
    separated) or after ``max_epochs`` passes.
    """
    Xn, Yn = _checks.dataset(X, Y)
    Xn, Yn = Xn.astype(np.float64), Yn.astype(np.float64)
    A = signed_rows(Xn, Yn)
    max_epochs = _checks.positive_int(max_epochs, "max_epochs")
    learning_rate = _checks.finite_float(learning_rate, "learning_rate", strictly_positive=True)
    theta = np.zeros(A.shape[1])
    for _ in range(max_epochs):
        if guard and radius is None:
            thetas, margins, updated = _plain_pass(Xn, Yn, A, theta, learning_rate)
        else:
            thetas, margins, updated = _sweep(A, theta, learning_rate, guard=guard,
                                              radius=radius)
        yield A, thetas, margins, updated
        if guard and not updated.any():
            return


class _Recorder:
    """Collects the per-epoch traces every trainer here returns in ``TrainResult.history``."""

    def __init__(self, X, Y, record: bool):
        self.X, self.Y = _checks.dataset(X, Y)
        self.record = record
        self.updates: list[int] = []
        self.history: dict = {"error": [], "norm": []}
        if record:
            self.history["weights"] = []

    def epoch(self, updates: int, running: np.ndarray, w: np.ndarray, b: float) -> None:
        """Note one pass: its updates, the running (w, b), and the predictor returned."""
        self.updates.append(int(updates))
        self.history["norm"].append(float(np.linalg.norm(running)))
        self.history["error"].append(error_rate(w, b, self.X, self.Y))
        if self.record:
            self.history["weights"].append((np.array(w, dtype=np.float64), float(b)))

    def result(self, w: np.ndarray, b: float, converged: bool) -> TrainResult:
        return TrainResult(w=np.asarray(w, dtype=np.float64), b=float(b),
                           updates=sum(self.updates), updates_per_epoch=self.updates,
                           converged=bool(converged), history=self.history)


# --- part 1: the plain rule on non-separable data ------------------------------------------

def train_traced(X, Y, *, max_epochs: int, learning_rate: float = 1.0, threshold: float = 0.0,
                 decay: float = 0.0, record: bool = False) -> TrainResult:
    """The plain perceptron (:func:`~gluon_perceptron.train`), one pass at a time, traced.

    Pass :math:`e = 1, 2, \\dots` runs ``train`` for one epoch from the previous pass's
    :math:`(w, b)` with step :math:`\\eta_e = \\eta / e^{\\text{decay}}` (``decay = 0``: the
    constant step of the chapter). Stops after a pass without an update (``converged=True``)
    or after ``max_epochs`` passes (``converged=False``).

    A decaying step alone does not make the plain rule settle: the rule is invariant to the
    scale of :math:`\\theta` (multiplying the step and :math:`\\theta_0 = 0` by :math:`c`
    multiplies every iterate by :math:`c`), so :math:`\\|\\theta\\|` shrinks with the step and
    the boundary moves as much as before. With a margin ``threshold`` :math:`\\delta > 0` the
    rule is a subgradient method on :math:`\\sum_i \\max(0, \\delta - \\langle \\theta, a_i
    \\rangle)`, whose minimiser is not 0, and ``decay = 1`` makes it settle there
    (see :func:`hinge_separator`).

    Parameters
    ----------
    X, Y : array-like or NDArray
        Examples (n, d) and labels in {-1, +1}; computed in float64.
    max_epochs : int
        Bound on the passes.
    learning_rate : float
        :math:`\\eta > 0`.
    threshold : float
        Margin :math:`\\delta \\ge 0` below which an example triggers an update.
    decay : float
        Power of the step schedule, :math:`\\ge 0`.
    record : bool
        Also keep ``history["weights"]``, the :math:`(w, b)` after each pass.

    Returns
    -------
    TrainResult
        ``history["error"]`` (training error after each pass), ``history["norm"]``
        (:math:`\\|(w, b)\\|` after each pass), and ``history["weights"]`` if recorded.
    """
    Xn, Yn = _checks.dataset(X, Y)
    Xn = Xn.astype(np.float64)
    max_epochs = _checks.positive_int(max_epochs, "max_epochs")
    learning_rate = _checks.finite_float(learning_rate, "learning_rate", strictly_positive=True)
    decay = _checks.finite_float(decay, "decay", minimum=0.0)
    threshold = _checks.finite_float(threshold, "threshold", minimum=0.0)
    recorder = _Recorder(Xn, Yn, record)
    w, b = np.zeros(Xn.shape[1]), 0.0
    for epoch in range(1, max_epochs + 1):
        run = train(Xn, Yn, max_epochs=1, learning_rate=learning_rate / epoch**decay,
                    threshold=threshold, w0=w, b0=b)
        w, b = run.w, run.b
        recorder.epoch(run.updates, np.append(w, b), w, b)
        if run.updates == 0:
            break
    return recorder.result(w, b, recorder.updates[-1] == 0)


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


def amaldi_hauser_bound(X, Y, *, learning_rate: float = 1.0,
                        max_subsets: int = 500_000) -> float:
    """The boundedness theorem's ceiling on :math:`\\|\\theta_t\\|` (notes, Theorem 1.35).

    For :math:`\\theta_{t+1} = \\theta_t + \\eta_t a_{I_t}` with :math:`\\langle \\theta_t,
    a_{I_t} \\rangle \\le 0`, :math:`0 \\le \\eta_t \\le \\bar\\eta` and :math:`\\theta_0 = 0`,
    Amaldi and Hauser (2005) prove, for every :math:`t`,

    .. math:: \\|\\theta_t\\| \\le 2\\, \\bar\\eta \\max_i \\|a_i\\| \\left(
              (1 \\wedge \\min_i \\|a_i\\|)^{r} \\kappa(A)\\, 2^{3p/2} + 1 \\right),

    with :math:`r = \\operatorname{rank} A`, :math:`p = d + 1`, and :math:`\\kappa^{-2}(A)` the
    smallest :math:`\\det(B^\\top B)` over the sets :math:`B` of :math:`r` columns of full rank.
    Padding makes :math:`\\|a_i\\| \\ge 1`, so the middle power is 1. The bound holds on any data,
    separable or not, in any order; it is typically loose by orders of magnitude.

    Parameters
    ----------
    X, Y : array-like or NDArray
    learning_rate : float
        :math:`\\bar\\eta`, the largest step used.
    max_subsets : int
        Bound on the :math:`\\binom{n}{r}` determinants to compute.

    Returns
    -------
    float
    """
    A = signed_rows(X, Y)
    learning_rate = _checks.finite_float(learning_rate, "learning_rate", strictly_positive=True)
    max_subsets = _checks.positive_int(max_subsets, "max_subsets")
    n, p = A.shape
    r = int(np.linalg.matrix_rank(A))
    count = math.comb(n, r)
    if count > max_subsets:
        raise ValueError(f"the bound needs det(B^T B) for all C({n}, {r}) = {count} sets of "
                         f"{r} examples, more than max_subsets={max_subsets}; use fewer "
                         f"examples or raise max_subsets")
    sq = np.sum(A * A, axis=1)
    smallest = np.inf
    subsets = combinations(range(n), r)
    while True:
        chunk = np.array(list(islice(subsets, 100_000)), dtype=np.int64)
        if chunk.size == 0:
            break
        B = A[chunk]                                   # (m, r, p): rows are the chosen a_i
        dets = np.linalg.det(B @ B.transpose(0, 2, 1))  # det(B^T B) with the a_i as columns
        full = dets > 1e-10 * np.prod(sq[chunk], axis=1)  # Hadamard: det <= prod ||a_i||^2
        if full.any():
            smallest = min(smallest, float(dets[full].min()))
    kappa = 1.0 / math.sqrt(smallest)
    norms = np.sqrt(sq)
    shrink = min(1.0, float(norms.min())) ** r
    return 2.0 * learning_rate * float(norms.max()) * (shrink * kappa * 2.0 ** (1.5 * p) + 1.0)


# --- part 2: rules without the mistake test ------------------------------------------------

class OnlineRun(NamedTuple):
    """One pass over a stream of examples, step by step.

    Attributes
    ----------
    margins : ndarray, shape (T,)
        :math:`\\langle \\theta_{t-1}, a_t \\rangle` before step :math:`t`.
    mistakes : ndarray of bool, shape (T,)
        ``margins <= 0``: the prediction at step :math:`t` was wrong (or a tie).
    thetas : ndarray, shape (T, d + 1)
        :math:`\\theta_t = (w_t, b_t)` after step :math:`t`.
    norms : ndarray, shape (T,)
        :math:`\\|\\theta_t\\|`.
    """

    margins: np.ndarray
    mistakes: np.ndarray
    thetas: np.ndarray
    norms: np.ndarray


def notes_sequence(steps: int, x=None) -> tuple[np.ndarray, np.ndarray]:
    """The notes' separable sequence that fools the aggressive perceptron (Remark 1.19).

    All labels are :math:`y_t = 1` (so :math:`w = 0, b = 1` separates it with margin 1), and

    .. math:: x_t = -2x \\text{ if } \\log_2 t \\in \\mathbb{N} \\ (t = 1, 2, 4, 8, \\dots),
              \\qquad x_t = x \\text{ otherwise},

    for a fixed unit vector :math:`x`. Indices start at :math:`t = 1`.

    Parameters
    ----------
    steps : int
        Length :math:`T` of the sequence.
    x : array-like, shape (d,), optional
        Direction (normalised to unit length); default ``(1, 0)``.

    Returns
    -------
    X : ndarray, shape (steps, d)
    Y : ndarray, shape (steps,), all ones
    """
    steps = _checks.positive_int(steps, "steps")
    x = np.array([1.0, 0.0]) if x is None else _checks.vector(x, "x").astype(np.float64)
    norm = float(np.linalg.norm(x)) if np.all(np.isfinite(x)) else 0.0
    if x.size == 0 or norm == 0.0:
        raise ValueError(f"x must be a finite nonzero vector, got {x}")
    t = np.arange(1, steps + 1)
    power = (t & (t - 1)) == 0
    X = np.where(power[:, None], -2.0, 1.0) * (x / norm)
    return X, np.ones(steps)


def run_online(X, Y, *, rule: str = "perceptron", learning_rate: float = 1.0) -> OnlineRun:
    """One pass over a stream, in order, from :math:`\\theta_0 = 0`, recording every step.

    ``rule="perceptron"`` updates only on a mistake; ``rule="aggressive"`` updates on every
    example (the notes' Remark 1.19): :math:`\\theta_t = \\theta_{t-1} + \\eta a_t` always.
    """
    _checks.choice(rule, "rule", set(RULES))
    A, thetas, margins, _ = next(_passes(X, Y, 1, learning_rate,
                                         guard=rule == "perceptron"))
    return OnlineRun(margins, margins <= 0.0, thetas, np.linalg.norm(thetas, axis=1))


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


def train_aggressive(X, Y, *, max_epochs: int, learning_rate: float = 1.0,
                     record: bool = False) -> TrainResult:
    """The unguarded rule: a perceptron step on every example, right or wrong.

    Each pass adds :math:`\\eta \\sum_i a_i` to :math:`\\theta`, so after :math:`T` passes
    :math:`\\theta_T = T \\eta \\sum_i a_i` and :math:`\\|\\theta_T\\|` grows linearly unless
    :math:`\\sum_i a_i = 0` (as on XOR). The direction tends to :math:`\\sum_i y_i (x_i, 1)`,
    whatever the mistakes. It never converges: every example triggers an update, so the run
    always stops at ``max_epochs`` with ``converged=False``.

    Returns
    -------
    TrainResult
        As for :func:`train_traced`; ``updates_per_epoch`` is always ``n``.
    """
    recorder = _Recorder(X, Y, record)
    for _, thetas, _, updated in _passes(X, Y, max_epochs, learning_rate, guard=False):
        w, b = _split(thetas[-1])
        recorder.epoch(updated.sum(), thetas[-1], w, b)
    return recorder.result(w, b, False)


# --- part 3: remedies ----------------------------------------------------------------------

def train_projected(X, Y, *, max_epochs: int, radius: float, learning_rate: float = 1.0,
                    record: bool = False) -> TrainResult:
    """The perceptron with each update followed by a projection onto the ball of ``radius``.

    :math:`\\theta \\leftarrow \\Pi_\\rho(\\theta + \\eta a_i)` on a mistake, with
    :math:`\\Pi_\\rho(v) = v \\min(1, \\rho / \\|v\\|)`: the chapter's safeguard for SGD.
    Since the plain rule is already bounded, a ball larger than its largest
    :math:`\\|\\theta\\|` changes nothing; a smaller one makes each step larger *relative* to
    :math:`\\theta`.

    Returns
    -------
    TrainResult
        As for :func:`train_traced`; ``converged`` means a pass made no update.
    """
    radius = _checks.finite_float(radius, "radius", strictly_positive=True)
    recorder = _Recorder(X, Y, record)
    for _, thetas, _, updated in _passes(X, Y, max_epochs, learning_rate, radius=radius):
        w, b = _split(thetas[-1])
        recorder.epoch(updated.sum(), thetas[-1], w, b)
    return recorder.result(w, b, not updated.any())


def train_averaged(X, Y, *, max_epochs: int, learning_rate: float = 1.0,
                   record: bool = False) -> TrainResult:
    """The averaged perceptron (Freund and Schapire 1999).

    Runs the plain rule and returns the average of :math:`\\theta = (w, b)` over every step
    (every example visit) so far: after :math:`T` visits,
    :math:`\\bar\\theta_T = \\frac1T \\sum_{t=1}^T \\theta_t`. Late updates move the average by
    :math:`O(1/T)`, so the predictor settles even when :math:`\\theta_t` never does.

    Returns
    -------
    TrainResult
        ``w, b``: the average; ``updates``, ``updates_per_epoch``, ``converged`` and
        ``history["norm"]`` describe the underlying plain run; ``history["error"]`` and
        ``history["weights"]`` (with ``record=True``) the averaged predictor after each pass.
    """
    recorder = _Recorder(X, Y, record)
    total, visits = 0.0, 0
    for _, thetas, _, updated in _passes(X, Y, max_epochs, learning_rate):
        total = total + thetas.sum(axis=0)
        visits += thetas.shape[0]
        w, b = _split(total / visits)
        recorder.epoch(updated.sum(), thetas[-1], w, b)
    return recorder.result(w, b, not updated.any())


def train_pocket(X, Y, *, max_epochs: int, learning_rate: float = 1.0,
                 record: bool = False) -> TrainResult:
    """The pocket algorithm with ratchet (Gallant 1990).

    Runs the plain rule and keeps "in the pocket" the weights with the longest run of
    consecutive correct predictions seen so far, with a ratchet: weights whose run beats the
    pocket's replace it only if they also make fewer training errors. The pocket's training
    error therefore never increases.

    Returns
    -------
    TrainResult
        ``w, b``: the pocket; ``updates``, ``updates_per_epoch``, ``converged`` and
        ``history["norm"]`` describe the underlying plain run; ``history["error"]`` and
        ``history["weights"]`` (with ``record=True``) the pocket after each pass.
    """
    Xn, Yn = _checks.dataset(X, Y)
    recorder = _Recorder(Xn, Yn, record)
    pocket = np.zeros(Xn.shape[1] + 1)
    pocket_run, pocket_error = 0, 1.0  # theta = 0 ties on every example
    run, checked = 0, False  # run length of the current weights; ratchet already tried?
    for _, thetas, _, updated in _passes(Xn, Yn, max_epochs, learning_rate):
        for i in range(thetas.shape[0]):
            if updated[i]:
                run, checked = 0, False
                continue
            run += 1
            if run > pocket_run and not checked:
                w, b = _split(thetas[i])
                error = error_rate(w, b, Xn, Yn)
                checked = True
                if error < pocket_error:
                    pocket, pocket_run, pocket_error = thetas[i].copy(), run, error
        w, b = _split(pocket)
        recorder.epoch(updated.sum(), thetas[-1], w, b)
    return recorder.result(w, b, not updated.any())


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


# --- figures -------------------------------------------------------------------------------

def _draw_boundary(ax, w, b, extent: float, **style) -> None:
    """Draw the line :math:`w^\\top x + b = 0` inside the square ``[-extent, extent]^2``."""
    w = np.asarray(w, dtype=np.float64)
    if not np.any(w):
        return
    s = np.linspace(-extent, extent, 2)
    if abs(w[1]) >= abs(w[0]):
        ax.plot(s, -(w[0] * s + b) / w[1], **style)
    else:
        ax.plot(-(w[1] * s + b) / w[0], s, **style)


def plot_boundaries(X, Y, weights, ax=None, *, extent: float = 3.0):
    """The data and the decision boundaries of successive :math:`(w, b)` (light to dark)."""
    if ax is None:
        _, ax = plt.subplots(figsize=(5, 5))
    plotdata(X, Y, ax=ax)
    colors = plt.cm.Greens(np.linspace(0.35, 1.0, len(weights)))
    for (w, b), color in zip(weights, colors):
        _draw_boundary(ax, w, b, extent, color=color, lw=1.2)
    ax.set_xlim(-extent, extent)
    ax.set_ylim(-extent, extent)
    return ax


def plot_nonseparable(traces: dict, axes, *, bounds: dict | None = None,
                      steps: dict | None = None) -> None:
    """Three rows per dataset: cumulative updates, training error, :math:`\\|(w, b)\\|`.

    Parameters
    ----------
    traces : dict of str to TrainResult
        From :func:`train_traced`, one column each.
    axes : array of Axes, shape (3, len(traces))
    bounds : dict of str to float, optional
        :func:`amaldi_hauser_bound` per dataset, quoted in the norm panel.
    steps : dict of str to (ndarray, ndarray, int), optional
        Training error and :math:`\\|(w, b)\\|` after every step of the first passes (from
        :func:`run_online` on repeated passes and :func:`step_errors`), and the steps per pass;
        drawn instead of the per-pass traces for data whose snapshots after each pass hide
        the motion (XOR is back at 0 after every pass).
    """
    for col, (name, res) in enumerate(traces.items()):
        epochs = np.arange(1, res.epochs + 1)
        top, mid, low = axes[0, col], axes[1, col], axes[2, col]
        top.plot(epochs, np.cumsum(res.updates_per_epoch), color="k")
        top.set_title(name, fontsize=10)
        top.set_ylabel("cumulative updates")
        top.set_xlabel("epoch")
        norms = np.asarray(res.history["norm"])
        errs, t, where = np.asarray(res.history["error"]), epochs, "after each pass"
        if steps and name in steps:
            errs, norms, per_pass = steps[name]
            errs, norms = np.asarray(errs), np.asarray(norms)
            t = np.arange(1, errs.size + 1) / per_pass
            where = f"after each step, first {errs.size // per_pass} passes"
        mid.plot(t, errs, color="C1", lw=0.8, drawstyle="steps-post")
        mid.set_xlabel(f"epoch ({where})")
        mid.set_ylabel("training error")
        mid.set_ylim(-0.02, 1.02)
        low.plot(t, norms, color="C0", lw=0.8, label=where)
        low.plot(t, np.maximum.accumulate(norms), color="C3", lw=1.5, label="running max")
        if bounds and name in bounds:
            low.set_title(f"theorem's bound: {bounds[name]:.3g}", fontsize=8)
        low.set_xlabel("epoch")
        low.set_ylabel("||(w, b)||")
        low.set_ylim(bottom=0)
    axes[2, 0].legend(fontsize=7, loc="lower right")


def plot_aggressive(plain: OnlineRun, aggressive: OnlineRun, axes) -> None:
    """The notes' sequence: cumulative mistakes (left) and :math:`\\|\\theta_t\\|` (right)."""
    t = np.arange(1, plain.mistakes.size + 1)
    left, right = axes
    for run, label, color in ((plain, "perceptron (update on a mistake)", "C0"),
                              (aggressive, "aggressive (update always)", "C3")):
        left.step(t, np.cumsum(run.mistakes), where="post", color=color, label=label)
        right.plot(t, run.norms, color=color, label=label)
    powers = t[(t & (t - 1)) == 0]
    left.plot(powers, np.cumsum(aggressive.mistakes)[powers - 1], "o", ms=3, color="C3",
              label="t = 2^k")
    left.set_xscale("log", base=2)
    left.set_xlabel("t")
    left.set_ylabel("mistakes up to t")
    left.legend(fontsize=7)
    left.set_title("notes' separable sequence: mistakes", fontsize=10)
    right.set_xlabel("t")
    right.set_ylabel("||(w, b)|| after step t")
    right.set_title("the same runs: weight norm", fontsize=10)
    right.legend(fontsize=7)


def plot_unguarded(plain: TrainResult, unguarded: TrainResult, ax=None):
    """:math:`\\|(w, b)\\|` after each pass: the plain rule levels off, the unguarded one grows."""
    if ax is None:
        _, ax = plt.subplots(figsize=(5, 4))
    ax.plot(np.arange(1, unguarded.epochs + 1), unguarded.history["norm"], color="C3",
            label="update on every example")
    ax.plot(np.arange(1, plain.epochs + 1), plain.history["norm"], color="C0",
            label="perceptron (update on a mistake)")
    ax.set_xlabel("epoch")
    ax.set_ylabel("||(w, b)|| after each pass")
    ax.set_yscale("log")
    ax.legend(fontsize=7)
    return ax


#: Line styles of :func:`plot_remedies`, per method.
_REMEDY_STYLE = {"plain": ("0.6", 0.8), "pocket": ("C2", 1.5), "averaged": ("C0", 1.5),
                 "decaying": ("C4", 0.8), "decaying + margin": ("C1", 1.5),
                 "projected": ("C3", 1.0)}


def plot_remedies(remedies: Remedies, axes) -> None:
    """Held-out error after each pass: plain vs pocket and averaged (left), vs step rules (right).

    Dashed lines: the Bayes error (the flip fraction), the generating plane's held-out error
    and the held-out error of the hinge-loss LP (:func:`hinge_separator`).
    """
    groups = (("plain", "pocket", "averaged"),
              ("plain", "decaying", "decaying + margin", "projected"))
    for ax, names in zip(axes, groups):
        for name in names:
            errs = remedies.errors[name]
            color, lw = _REMEDY_STYLE[name]
            label = name if name != "projected" else f"projected (radius {remedies.radius:.2f})"
            ax.plot(np.arange(1, errs.size + 1), errs, color=color, lw=lw, label=label)
        ax.axhline(remedies.flip, color="k", ls="--", lw=0.8, label="Bayes error (flip rate)")
        ax.axhline(remedies.plane_error, color="k", ls=":", lw=0.8,
                   label="generating plane, held out")
        ax.axhline(remedies.hinge_error, color="C1", ls=":", lw=0.8,
                   label="hinge-loss LP, held out")
        ax.set_xlabel("epoch")
        ax.set_ylabel("held-out error")
        ax.set_ylim(0, 0.8)
        ax.legend(fontsize=7, loc="lower left", ncol=2)


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


def black_and_white_section(opts) -> list:
    """Non-separable data, broken rules and remedies: four figures and the measured numbers."""
    paths = []
    part1 = _nonseparable_runs(SECTION_EPOCHS)
    data, traces = part1["data"], part1["traces"]
    bounds = {name: amaldi_hauser_bound(*xy) for name, xy in data.items()}
    Xx, Yx = data["XOR"]
    xor_run = run_online(np.tile(Xx, (5, 1)), np.tile(Yx, 5))
    steps = {"XOR": (step_errors(xor_run, Xx, Yx), xor_run.norms, len(Yx))}
    fig, axes = plt.subplots(3, 3, figsize=(12, 9))
    plot_nonseparable(traces, axes, bounds=bounds, steps=steps)
    fig.suptitle("plain perceptron on non-separable data: never converges, stays bounded")
    fig.subplots_adjust(hspace=0.45, wspace=0.3, top=0.92)
    paths.append(save_figure(fig, opts.out, "05_nonseparable"))
    print(f"part 1: plain perceptron, {SECTION_EPOCHS} passes from w = 0, b = 0 (data "
          f"separable by a line? {[is_separable(*xy) for xy in data.values()]})")
    for name, res in traces.items():
        norms = np.asarray(res.history["norm"])
        first, rest = np.array_split(norms, [norms.size // 10])
        print(f"  {name:22s} updates/pass min {min(res.updates_per_epoch)}, mean "
              f"{res.updates / res.epochs:.1f}; max ||(w,b)|| first tenth {first.max():.2f}, "
              f"rest {rest.max():.2f}; theorem's bound {bounds[name]:.3g}")
    print(f"  (XOR is back at (w, b) = 0 after every pass; within a pass ||(w,b)|| reaches "
          f"{xor_run.norms.max():.2f})")

    fig, axes = plt.subplots(1, 3, figsize=(13, 4.4))
    for ax, name in zip(axes[:2], ("20% label noise", "overlapping Gaussians")):
        plot_boundaries(*data[name], traces[name].history["weights"][-8:], ax=ax)
        ax.set_title(f"{name}: boundaries after the last 8 passes", fontsize=9)
    xor_steps = [_split(th) for th in xor_run.thetas[:4]]
    plot_boundaries(Xx, Yx, xor_steps, ax=axes[2], extent=2.0)
    axes[2].set_title("XOR: boundaries after steps 1-4 (step 4: back to 0)", fontsize=9)
    paths.append(save_figure(fig, opts.out, "05_moving_boundary"))

    Xs, Ys = notes_sequence(2**12)
    plain, aggressive = run_online(Xs, Ys), run_online(Xs, Ys, rule="aggressive")
    noisy = data["20% label noise"]
    unguarded = train_aggressive(*noisy, max_epochs=SECTION_EPOCHS)
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.2))
    plot_aggressive(plain, aggressive, axes[:2])
    plot_unguarded(traces["20% label noise"], unguarded, axes[2])
    axes[2].set_title("20% label noise: weight norm", fontsize=10)
    fig.subplots_adjust(wspace=0.3)
    paths.append(save_figure(fig, opts.out, "05_broken_rules"))
    at = np.flatnonzero(aggressive.mistakes) + 1
    print(f"part 2: notes' sequence, T = {Xs.shape[0]}: perceptron {int(plain.mistakes.sum())} "
          f"mistakes; aggressive {int(aggressive.mistakes.sum())}, at t = {at.tolist()}; "
          f"||theta_T|| {plain.norms[-1]:.2f} vs {aggressive.norms[-1]:.0f}")
    plain_norm = traces["20% label noise"].history["norm"][-1]
    print(f"        unguarded rule on the noisy data: ||(w,b)|| after {SECTION_EPOCHS} passes "
          f"{unguarded.history['norm'][-1]:.0f} (plain: {plain_norm:.2f})")

    remedies = remedies_experiment(150, epochs=200, progress=opts.progress)
    fig, axes = plt.subplots(1, 2, figsize=(13, 4.6), sharey=True)
    plot_remedies(remedies, axes)
    fig.suptitle("20% label noise, 150 training / 150 held-out points")
    paths.append(save_figure(fig, opts.out, "05_remedies"))
    print(f"part 3: held-out error over the last 100 of 200 passes (Bayes {remedies.flip:.3f}, "
          f"generating plane {remedies.plane_error:.3f}, hinge LP {remedies.hinge_error:.3f})")
    for name, errs in remedies.errors.items():
        stats = tail_stats(errs, 100)
        print(f"  {name:18s} mean {stats.mean:.3f}  std {stats.std:.3f}  "
              f"range {stats.spread:.3f}")
    return paths
