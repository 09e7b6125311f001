"""What one perceptron can and cannot compute, and the loss surface it descends.

With true as +1 and false as -1, a perceptron :math:`\\mathrm{lin}(x) = w^\\top x + b` computes
a Boolean function when :math:`\\mathrm{lin}(x) > 0` exactly on the true rows (Example 2.2 of
the book chapter): AND is :math:`x_1 + x_2 - 1`, OR is :math:`x_1 + x_2 + 1`, NOT is
:math:`-x_1`. XOR has no such perceptron (Minsky and Papert): adding its four conditions
pairwise gives :math:`2b < 0` from the two false rows and :math:`2b > 0` from the two true
ones. On XOR the perceptron therefore never stops updating; it cycles through a finite set of
weights.

The chapter's loss per example is :math:`\\max(0, -y\\, w^\\top x)` (no bias, by padding);
for two points its sum is a piecewise-linear surface over the plane of weights, zero on a
cone of separators, and the perceptron's updates are subgradient steps on it.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from .. import _checks
from .. import _validation as rule
from .._convert import as_features, as_labels, as_numpy, as_scalar, as_values
from .._validation import Rule, validate_params
from ..data.synthetic import xor_data
from ..fast.training_fast import fast_pass
from ..rosenblatt.results import Unpackable
from ..rosenblatt.traced import UpdatePath, update_path
from ..rosenblatt.training import TrainResult, train

#: Example 2.2's perceptrons, ``name -> (w, b)``.
BOOLEAN_PERCEPTRONS: dict[str, tuple[tuple[float, ...], float]] = {
    "AND": ((1.0, 1.0), -1.0),
    "OR": ((1.0, 1.0), 1.0),
    "NOT": ((-1.0,), 0.0),
}


#: The Boolean functions themselves, on +/-1 inputs, for checking and for training (XOR's
#: table is :func:`~gluon_perceptron.xor_data`, the one copy of it in the package).
BOOLEAN_FUNCTIONS = {
    "AND": lambda x: 1.0 if all(v > 0 for v in x) else -1.0,
    "OR": lambda x: 1.0 if any(v > 0 for v in x) else -1.0,
    "NOT": lambda x: -x[0],
}


#: Names :func:`boolean_data` knows.
BOOLEAN_NAMES = ("AND", "OR", "NOT", "XOR")


def boolean_inputs(arity: int) -> np.ndarray:
    """All :math:`2^k` rows of +/-1 inputs, false before true: ``(-1,-1), (-1,+1), ...``."""
    return np.array(list(itertools.product([-1.0, 1.0], repeat=arity)))


@validate_params(name=rule.one_of(*BOOLEAN_NAMES))
def boolean_data(name: str) -> tuple[np.ndarray, np.ndarray]:
    """The truth table of ``AND``, ``OR``, ``NOT`` or ``XOR`` as a dataset ``(X, Y)``."""
    if name == "XOR":
        return xor_data()
    X = boolean_inputs(1 if name == "NOT" else 2)
    return X, np.array([BOOLEAN_FUNCTIONS[name](x) for x in X])


@dataclass
class TruthTable:
    """A perceptron evaluated on every +/-1 input row (:func:`truth_table`).

    Attributes
    ----------
    inputs : ndarray, shape (2**d, d)
    lin : ndarray, shape (2**d,)
        The scores :math:`\\mathrm{lin}(x) = w^\\top x + b`.
    output : ndarray, shape (2**d,)
        +1 where :math:`\\mathrm{lin} > 0`, -1 where :math:`< 0`, 0 where the perceptron says
        neither.
    """

    inputs: np.ndarray
    lin: np.ndarray
    output: np.ndarray


def truth_table(w, b: float) -> TruthTable:
    """Evaluate :math:`\\mathrm{lin}(x) = w^\\top x + b` on every +/-1 input row.

    For the package (:func:`~gluon_perceptron.experiments.format_truth_table` passes Example
    2.2's perceptrons; its :math:`2^d` rows are for a few inputs): ``w`` one vector, ``b`` a
    number or a one-element array, taken as given.

    Returns
    -------
    TruthTable
        ``inputs``, ``lin``, ``output``.
    """
    w, b = as_values(w), as_scalar(b)
    X = boolean_inputs(len(w))
    lin = X @ w + b
    return TruthTable(inputs=X, lin=lin, output=np.sign(lin))


@validate_params(name=rule.one_of(*BOOLEAN_NAMES))
def learn_boolean(name: str, *, max_epochs: int = 100) -> TrainResult:
    """Train the chapter's perceptron (with bias) on a truth table; XOR never converges."""
    X, Y = boolean_data(name)
    return train(X, Y, max_epochs=max_epochs)


@dataclass
class XorCycle(Unpackable):
    """The perceptron's run on XOR and the period of its pass-end weights (:func:`xor_cycle`).

    Unpacks as ``path, period`` (the tuple it replaced).

    Attributes
    ----------
    path : UpdatePath
        The run up to the first repeated pass-end state (``converged`` is False).
    period : int
        Passes between two equal pass-end states; 0 if none repeated within the passes allowed
        (see :attr:`found`).
    """

    path: UpdatePath
    period: int

    @property
    def found(self) -> bool:
        """Whether a repeat was found within ``max_epochs`` (False: the bound was hit)."""
        return self.period > 0


@validate_params()
def xor_cycle(max_epochs: int = 50) -> XorCycle:
    """Run the perceptron on XOR and find the period of its weights, pass over pass.

    The parameters at the end of each pass are recorded; on XOR they never settle, and since
    the rule is deterministic they repeat as soon as one pass-end state recurs, and the run
    stops there. At most ``max_epochs`` passes are made; if no state recurs by then,
    ``period`` is 0 and :attr:`XorCycle.found` is False.
    """
    X, Y = xor_data()
    w, b = np.zeros(X.shape[1]), np.zeros(1)
    # pass-end (w, b) -> the pass it ended (0: the start); "+ 0.0" makes -0.0 equal to 0.0
    seen = {(np.append(w, b) + 0.0).tobytes(): 0}
    for last in range(1, max_epochs + 1):
        fast_pass(X, Y, w, b)  # train's pass: raises if the weights overflow
        key = (np.append(w, b) + 0.0).tobytes()
        if key in seen:
            return XorCycle(update_path(X, Y, max_epochs=last), last - seen[key])
        seen[key] = last
    return XorCycle(update_path(X, Y, max_epochs=max_epochs), 0)


def two_point_data() -> tuple[np.ndarray, np.ndarray]:
    """The book's example: :math:`x^{(1)} = (1, 1), y^{(1)} = -1` and :math:`x^{(2)} = (2, 1),
    y^{(2)} = +1`."""
    return np.array([[1.0, 1.0], [2.0, 1.0]]), np.array([-1.0, 1.0])


def _weight_grid(W, name: str, args: dict) -> np.ndarray:
    Wn, d = _checks.to_numpy(W, name), args["X"].shape[1]
    if not _checks._real(Wn) or Wn.shape[-1:] != (d,) or not np.all(np.isfinite(Wn)):
        raise ValueError(f"W must hold real numbers, W's last axis must have {d} entries (one per "
                         f"feature of X) and W must be finite; got dtype {Wn.dtype}, shape "
                         f"{Wn.shape}")
    return Wn


@validate_params(W=Rule(_weight_grid, "finite reals, last axis one per feature of X", ("X",)))
def total_perceptron_loss(W, X, Y) -> np.ndarray:
    """Total loss :math:`\\sum_i \\max(0, -y_i\\, w^\\top x_i)` at each row of ``W``.

    Parameters
    ----------
    W : array-like, shape (..., d)
        Weight vectors (any leading shape, e.g. a grid).
    X, Y : array-like
        The data, no bias (pad a constant feature for one).

    Returns
    -------
    ndarray, shape W.shape[:-1]
    """
    X = as_features(X)
    W, Y = as_numpy(W).astype(np.float64), as_labels(Y, like=X)
    with np.errstate(over="ignore", invalid="ignore"):
        L = np.maximum(0.0, -(W @ X.T) * Y).sum(axis=-1)
    if not np.all(np.isfinite(L)):
        raise ValueError("total_perceptron_loss overflowed: W and X give scores w.x beyond "
                         "float64; rescale W or X")
    return L
