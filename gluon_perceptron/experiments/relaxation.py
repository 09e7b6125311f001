"""The relaxation method: index rules and step sizes compared.
"""

from __future__ import annotations

import numpy as np

from ..core.relaxation import RULES, RelaxationResult, relaxation_method

# --- experiments and figures ---------------------------------------------------------------

#: Relaxation parameters compared by default: under-relaxed, projection, over-relaxed, reflection.
ETAS = (0.5, 1.0, 1.5, 2.0)


def compare_rules(A, c, *, etas=ETAS, rules=RULES, max_iterations: int = 100_000,
                  seed: int = 0) -> dict[tuple[str, float], RelaxationResult]:
    """Run :func:`relaxation_method` for every index rule and relaxation parameter.

    Returns
    -------
    dict
        ``(rule, eta) -> RelaxationResult``; compare their ``iterations`` (to feasibility, or
        ``max_iterations`` when ``converged`` is False).
    """
    for name, values in (("etas", etas), ("rules", rules)):
        if isinstance(values, str) or np.ndim(values) != 1 or len(values) == 0:
            raise ValueError(f"{name} must be a non-empty sequence (e.g. a tuple with one "
                             f"value), got {values!r}")
    return {(rule, float(eta)): relaxation_method(A, c, eta=eta, rule=rule,
                                           max_iterations=max_iterations, seed=seed)
            for rule in rules for eta in etas}
