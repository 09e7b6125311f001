"""Variants of the perceptron rule that need every step: traced, pocket, averaged, projected,
aggressive, and the update path.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from . import _checks
from .geometry import _split, signed_rows
from .kernel import _numpy_epoch
from .rosenblatt import TrainResult, error_rate, train

RULES = ("perceptron", "aggressive")


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
    """One pass of the plain rule, step by step, from :func:`~gluon_perceptron.update_path`.

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
