"""Expressivity: truth tables of the boolean perceptrons.
"""

from __future__ import annotations

from ..core import _checks
from ..core.expressivity import BOOLEAN_PERCEPTRONS, truth_table


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
