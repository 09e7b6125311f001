"""Expressivity: the Boolean perceptrons' truth tables, XOR's cycle, the two-point loss surface.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core._validation import one_of, validate_params
from ..core.data.synthetic import xor_data
from ..core.rosenblatt.traced import UpdatePath, update_path
from ..core.rosenblatt.training import TrainResult
from ..core.theory.expressivity import (
    BOOLEAN_PERCEPTRONS,
    XorCycle,
    learn_boolean,
    total_perceptron_loss,
    truth_table,
    two_point_data,
    xor_cycle,
)
from ..core.theory.separability import is_separable


@validate_params(name=one_of(*BOOLEAN_PERCEPTRONS))
def format_truth_table(name: str) -> str:
    """Example 2.2's perceptron for ``name`` and its table, as text."""
    w, b = BOOLEAN_PERCEPTRONS[name]
    table = truth_table(w, b)
    terms = " + ".join(f"{c:g}*x{i + 1}" for i, c in enumerate(w)) + (f" + {b:g}" if b else "")
    lines = [f"{name}: lin(x) = {terms}".replace("+ -", "- ")]
    for x, lin, out in zip(table.inputs, table.lin, table.output):
        lines.append(f"  x = {tuple(int(v) for v in x)!s:9s} lin = {lin:+g}  -> "
                     f"{'true' if out > 0 else 'false'}")
    return "\n".join(lines)


@dataclass
class Expressivity:
    """What one perceptron can and cannot compute, measured (:func:`expressivity_experiment`).

    Attributes
    ----------
    tables : dict of str to str
        :func:`format_truth_table` of AND, OR and NOT.
    learned : dict of str to TrainResult
        The perceptron trained from zero on each truth table (AND, OR, NOT, XOR).
    xor_separable : bool
        :func:`is_separable` on XOR (False).
    xor_cycle : XorCycle
        XOR's run and the period of its pass-end weights.
    path : UpdatePath
        The homogeneous perceptron on :func:`two_point_data` from :math:`w = 0`.
    final_loss : float
        :func:`total_perceptron_loss` at the end of ``path``.
    """

    tables: dict
    learned: dict = field(repr=False)
    xor_separable: bool
    xor_cycle: XorCycle = field(repr=False)
    path: UpdatePath = field(repr=False)
    final_loss: float


def expressivity_experiment(*, xor_epochs: int = 1000) -> Expressivity:
    """Run everything the expressivity section shows (deterministic).

    AND, OR and NOT get the default ``max_epochs`` of :func:`learn_boolean`; XOR gets
    ``xor_epochs`` passes and never converges.
    """
    learned: dict[str, TrainResult] = {name: learn_boolean(name) for name in ("AND", "OR", "NOT")}
    learned["XOR"] = learn_boolean("XOR", max_epochs=xor_epochs)
    X, Y = two_point_data()
    path = update_path(X, Y, max_epochs=100, bias=False)
    return Expressivity(
        tables={name: format_truth_table(name) for name in BOOLEAN_PERCEPTRONS},
        learned=learned, xor_separable=is_separable(*xor_data()), xor_cycle=xor_cycle(),
        path=path, final_loss=float(total_perceptron_loss(path.w, X, Y)))

