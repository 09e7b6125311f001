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


#: Most inputs :func:`truth_table` enumerates (:math:`2^d` rows).
MAX_TABLE_INPUTS = 20


def _table_weights(w, name: str, args: dict) -> np.ndarray:
    wn = _checks.vector(w, name).astype(np.float64)
    if wn.size > MAX_TABLE_INPUTS:
        raise ValueError(f"w has {wn.size} entries: its table would have 2**{wn.size} rows; "
                         f"truth_table enumerates at most {MAX_TABLE_INPUTS} inputs")
    return wn


def _table_bias(b, name: str, args: dict) -> float:
    """``b``, a number; with ``w``, the largest score :math:`\\sum_i |w_i| + |b|` (reached on
    the row :math:`x = \\operatorname{sign}(b)\\operatorname{sign}(w)`) must be a float64."""
    b, wn = _checks.scalar(b, name), args["w"]
    with np.errstate(over="ignore"):
        reach = np.abs(wn).sum() + abs(b)
    if not np.isfinite(reach):
        raise ValueError(f"truth_table overflowed: w (largest entry {np.max(np.abs(wn)):.3g}) "
                         f"and b={b:.3g} give scores w.x + b beyond float64; rescale w and b "
                         f"(the table only depends on their signs' pattern, not their scale)")
    return b


@validate_params(w=Rule(_table_weights, f"vector(), at most {MAX_TABLE_INPUTS} entries"),
                 b=Rule(_table_bias, "scalar(), w.x + b fits float64", ("w",)))
def truth_table(w, b: float) -> TruthTable:
    """Evaluate :math:`\\mathrm{lin}(x) = w^\\top x + b` on every +/-1 input row.

    ``w`` is one vector of at most :data:`MAX_TABLE_INPUTS` weights, ``b`` a number or a
    one-element array (an NDArray bias as ``train_autograd`` keeps it).

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
    Wn = _checks.to_numpy(W, name)
    if not np.issubdtype(Wn.dtype, np.number) or np.issubdtype(Wn.dtype, np.complexfloating):
        raise ValueError(f"W must hold real numbers (weight vectors), got dtype {Wn.dtype}")
    Wn = Wn.astype(np.float64)
    d = args["X"].shape[1]
    if Wn.shape[-1:] != (d,):
        raise ValueError(f"W's last axis must have {d} entries, got {Wn.shape}")
    if not np.all(np.isfinite(Wn)):
        raise ValueError("W must be finite; drop or replace its NaN/inf entries")
    return Wn


@validate_params(W=Rule(_weight_grid, "finite float64, last axis one per feature of X", ("X",)))
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
