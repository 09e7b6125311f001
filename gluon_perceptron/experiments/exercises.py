"""Checkers for the exercises at the end of every notebook: ``gp.exercises.check_step(my_step)``.

Each checker runs a reader's function against the package's reference on many cases, ties
and edge cases included, and returns an :class:`ExerciseCheck` whose text is one sentence:
"passed" with the number of cases, or what differs on the smallest case that fails, shown
whole. Checkers call the reader's code and print nothing.

This module is the table of its public names; the checkers live in
:mod:`gluon_perceptron.experiments._exercise_checks` and load on first use (checking
arguments needs MXNet, which ``import gluon_perceptron`` does not load).
"""

from __future__ import annotations

import importlib
import sys
from typing import Any

#: The public names, each found in the private module that holds the checkers.
__all__ = sorted((
    "check_aggressive_sequence", "check_gate", "check_inequality_solver",
    "check_leave_one_out", "check_mixing", "check_one_vs_all", "check_pa_step",
    "check_padded_run", "check_vote",
    "check_projection_step", "check_random_guess", "check_recover_affine", "check_step",
    "check_subgradient",
), key=str.lower)

_IMPLEMENTATION = "gluon_perceptron.experiments._exercise_checks"


def __getattr__(name: str) -> Any:
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(_IMPLEMENTATION), name)
    setattr(sys.modules[__name__], name, value)
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
