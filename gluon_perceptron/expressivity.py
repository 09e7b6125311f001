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

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.axes import Axes

from . import _checks
from .data import xor_data
from .divergence import is_separable
from .perceptron import TrainResult, train
from .plotting import save_figure
from .theory import UpdatePath, update_path

#: Example 2.2's perceptrons, ``name -> (w, b)``.
BOOLEAN_PERCEPTRONS: dict[str, tuple[tuple[float, ...], float]] = {
    "AND": ((1.0, 1.0), -1.0),
    "OR": ((1.0, 1.0), 1.0),
    "NOT": ((-1.0,), 0.0),
}

#: The Boolean functions themselves, on +/-1 inputs, for checking and for training.
BOOLEAN_FUNCTIONS = {
    "AND": lambda x: 1.0 if all(v > 0 for v in x) else -1.0,
    "OR": lambda x: 1.0 if any(v > 0 for v in x) else -1.0,
    "NOT": lambda x: -x[0],
    "XOR": lambda x: 1.0 if sum(v > 0 for v in x) % 2 == 1 else -1.0,
}


def boolean_inputs(arity: int) -> np.ndarray:
    """All :math:`2^k` rows of +/-1 inputs, false before true: ``(-1,-1), (-1,+1), ...``."""
    arity = _checks.positive_int(arity, "arity")
    return np.array(list(itertools.product([-1.0, 1.0], repeat=arity)))


def boolean_data(name: str) -> tuple[np.ndarray, np.ndarray]:
    """The truth table of ``AND``, ``OR``, ``NOT`` or ``XOR`` as a dataset ``(X, Y)``."""
    _checks.choice(name, "name", set(BOOLEAN_FUNCTIONS))
    X = boolean_inputs(1 if name == "NOT" else 2)
    return X, np.array([BOOLEAN_FUNCTIONS[name](x) for x in X])


def truth_table(w, b: float) -> dict[str, np.ndarray]:
    """Evaluate :math:`\\mathrm{lin}(x) = w^\\top x + b` on every +/-1 input row.

    Returns
    -------
    dict
        ``inputs`` (:math:`2^d` rows), ``lin`` (the scores) and ``output`` (+1 where
        :math:`\\mathrm{lin} > 0`, -1 where :math:`< 0`, 0 where the perceptron says neither).
    """
    wn = _checks.to_numpy(w, "w").astype(np.float64).reshape(-1)
    if wn.size == 0 or not np.all(np.isfinite(wn)):
        raise ValueError(f"w must be a non-empty vector of finite numbers, got {wn}")
    b = _checks.finite_float(b, "b")
    X = boolean_inputs(wn.size)
    lin = X @ wn + b
    return {"inputs": X, "lin": lin, "output": np.sign(lin)}


def format_truth_table(name: str) -> str:
    """Example 2.2's perceptron for ``name`` and its table, as text."""
    _checks.choice(name, "name", set(BOOLEAN_PERCEPTRONS))
    w, b = BOOLEAN_PERCEPTRONS[name]
    table = truth_table(w, b)
    terms = " + ".join(f"{c:g}*x{i + 1}" for i, c in enumerate(w)) + (f" + {b:g}" if b else "")
    lines = [f"{name}: lin(x) = {terms}".replace("+ -", "- ")]
    for x, lin, out in zip(table["inputs"], table["lin"], table["output"]):
        lines.append(f"  x = {tuple(int(v) for v in x)!s:9s} lin = {lin:+g}  -> "
                     f"{'true' if out > 0 else 'false'}")
    return "\n".join(lines)


def learn_boolean(name: str, *, max_epochs: int = 100) -> TrainResult:
    """Train the chapter's perceptron (with bias) on a truth table; XOR never converges."""
    X, Y = boolean_data(name)
    return train(X, Y, max_epochs=max_epochs)


def xor_cycle(max_epochs: int = 50) -> tuple[UpdatePath, int]:
    """Run the perceptron on XOR and find the period of its weights, pass over pass.

    The parameters at the end of each pass are recorded; on XOR they never settle, and since
    the rule is deterministic they repeat as soon as one pass-end state recurs.

    Returns
    -------
    path : UpdatePath
        The run (``converged`` is False).
    period : int
        Passes between two equal pass-end states (0 if none repeated within ``max_epochs``).
    """
    X, Y = xor_data()
    ends = [np.zeros(3)]
    path = None
    for epochs in range(1, _checks.positive_int(max_epochs, "max_epochs") + 1):
        path = update_path(X, Y, max_epochs=epochs)
        ends.append(path.thetas[-1])
        for k in range(len(ends) - 1):
            if np.array_equal(ends[k], ends[-1]):
                return path, len(ends) - 1 - k
    return path, 0


# --- the loss surface of the two-point example ------------------------------------------------

def two_point_data() -> tuple[np.ndarray, np.ndarray]:
    """The book's example: :math:`x^{(1)} = (1, 1), y^{(1)} = -1` and :math:`x^{(2)} = (2, 1),
    y^{(2)} = +1`."""
    return np.array([[1.0, 1.0], [2.0, 1.0]]), np.array([-1.0, 1.0])


def total_perceptron_loss(W, X, Y) -> np.ndarray:
    """Total loss :math:`\\sum_i \\max(0, -y_i\\, w^\\top x_i)` at each row of ``W``.

    Parameters
    ----------
    W : array-like, shape (..., d)
        Weight vectors (any leading shape, e.g. a grid).
    X, Y : array-like
        The data, no bias (pad a constant feature for one).
    """
    Xn, Yn = _checks.dataset(X, Y)
    Wn = np.asarray(_checks.to_numpy(W, "W"), dtype=np.float64)
    if Wn.shape[-1] != Xn.shape[1]:
        raise ValueError(f"W's last axis must have {Xn.shape[1]} entries, got {Wn.shape}")
    if not np.all(np.isfinite(Wn)):
        raise ValueError("W must be finite; drop or replace its NaN/inf entries")
    return np.maximum(0.0, -(Wn @ Xn.T) * Yn).sum(axis=-1)


def plot_loss_surface(X=None, Y=None, *, path: UpdatePath | None = None, extent: float = 4.0,
                      ax=None) -> Axes:
    """The zero-loss region shaded, level sets 1, 2, ..., and the perceptron's path on top.

    Defaults to :func:`two_point_data` and its homogeneous run from :math:`w = 0`.
    """
    if (X is None) != (Y is None):
        raise ValueError("pass both X and Y, or neither (for the default two-point data); "
                         f"got only {'Y' if X is None else 'X'}")
    if X is None:
        X, Y = two_point_data()
    Xn, Yn = _checks.dataset(X, Y)
    extent = _checks.finite_float(extent, "extent", strictly_positive=True)
    if path is not None:
        _checks.instance(path, UpdatePath, "path", "the result of update_path(X, Y, ...)")
    if Xn.shape[1] != 2:
        raise ValueError(f"the loss surface is drawn over 2 weights; X has {Xn.shape[1]}")
    if path is None:
        path = update_path(Xn, Yn, max_epochs=100, bias=False)
    if ax is None:
        _, ax = plt.subplots(figsize=(5.5, 5))
    grid = np.linspace(-extent, extent, 401)
    W = np.stack(np.meshgrid(grid, grid), axis=-1)
    L = total_perceptron_loss(W, Xn, Yn)
    ax.contourf(grid, grid, (L == 0).astype(float), levels=[0.5, 1.5], colors=["#cfe8cf"])
    levels = np.arange(1, int(L.max()) + 1)
    cs = ax.contour(grid, grid, L, levels=levels, colors="gray", linewidths=0.7)
    ax.clabel(cs, levels[:6], inline=True, fontsize=7)
    ax.plot(path.thetas[:, 0], path.thetas[:, 1], "o-", color="C3", ms=4,
            label=f"perceptron from w = 0 ({path.updates} updates)")
    ax.plot(*path.thetas[-1], "*", color="k", ms=12, label="final w")
    ax.set_xlabel("w1")
    ax.set_ylabel("w2")
    ax.set_aspect("equal")
    ax.legend(fontsize=8, loc="lower left")
    return ax


def expressivity_section(opts) -> list:
    """AND/OR/NOT tables, XOR's endless cycle, the two-point loss surface with the path."""
    for name in BOOLEAN_PERCEPTRONS:
        print(format_truth_table(name))
    X, Y = xor_data()
    run = learn_boolean("XOR", max_epochs=1000)
    _, period = xor_cycle()
    print(f"XOR: linearly separable (linprog)? {is_separable(X, Y)}; perceptron after "
          f"{run.epochs} passes: converged={run.converged}, {run.updates} updates, its "
          f"weights repeat every {period} pass(es)")
    learned = {name: learn_boolean(name).converged for name in ("AND", "OR", "NOT")}
    print(f"trained from zero, the perceptron learns AND/OR/NOT: {learned}")
    path = update_path(*two_point_data(), max_epochs=100, bias=False)
    fig, ax = plt.subplots(figsize=(5.5, 5))
    plot_loss_surface(path=path, ax=ax)
    ax.set_title("loss of (1,1)/-1 and (2,1)/+1: zero region shaded,\n"
                 "levels 1, 2, ...; the perceptron's path", fontsize=9)
    print(f"two-point example: {path.updates} updates, final w = {path.w.tolist()}, "
          f"loss there = {total_perceptron_loss(path.w, *two_point_data()):g}")
    return [save_figure(fig, opts.out, "08_loss_surface")]
