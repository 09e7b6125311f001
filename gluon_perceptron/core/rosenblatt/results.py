"""What the trainers return, built in one place, and the two mixins that keep old call styles
working for results that used to be tuples (:class:`Unpackable`) or dicts (:class:`ItemAccess`).

:class:`TrainResult` is the result of every trainer that makes perceptron passes; every one of
them builds it with :func:`train_result`, so "converged" means the same everywhere: the last
pass made no update. Its fields name the family's common fields (``w``, ``b``,
``updates_per_epoch``, ``converged``, ``epochs``); other results that hold the same things use
the same names (:class:`~.traced.UpdatePath`, :class:`~.traced.OnlineRun`'s ``w`` and ``b``).

No result of the Rosenblatt trainers mixes them in any more; results elsewhere in the package
(experiments, data, theory) still do, and go with them once nothing unpacks or indexes those.
"""

from __future__ import annotations

from dataclasses import Field, dataclass, field, fields
from typing import Any, ClassVar

import numpy as np


class Unpackable:
    """Mixin for result dataclasses that replaced a tuple: ``a, b = result``, ``result[0]`` and
    ``result[:2]`` still work."""

    def __iter__(self):
        return iter(getattr(self, f.name) for f in fields(self))

    def __getitem__(self, index: int | slice):
        return tuple(self)[index]

    def __len__(self) -> int:
        return sum(1 for _ in self)


class ItemAccess:
    """Mixin for result dataclasses that replaced a dict: ``result["R"]`` still reads the field
    ``result.R`` (kept for old calls; use the attribute)."""

    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]  # set by @dataclass on the result

    def keys(self) -> list[str]:
        """The field names (the old dict's keys)."""
        return [f.name for f in fields(self)]

    def __getitem__(self, key: str):
        if key not in self.keys():
            raise KeyError(f"{key!r}: {type(self).__name__} has the fields {self.keys()}")
        return getattr(self, key)

    def __contains__(self, key) -> bool:
        return key in self.keys()


@dataclass
class TrainResult:
    """What a training run learned and how it got there.

    Attributes
    ----------
    w : ndarray, shape (d,)
        Final weights.
    b : float
        Final bias.
    updates : int
        Total number of updates (mistakes, counting ties).
    updates_per_epoch : list of int
        Updates made in each pass over the data.
    converged : bool
        True only if the last pass made no update, i.e. the data is separated by ``(w, b)``
        (with margin above ``threshold``). False when the run stopped at ``max_epochs``.
    history : dict
        Extra traces some trainers record (for example ``"error"`` or ``"norm"`` per epoch).
    """

    w: np.ndarray
    b: float
    updates: int
    updates_per_epoch: list[int]
    converged: bool
    history: dict = field(default_factory=dict)

    @property
    def epochs(self) -> int:
        """Number of passes made."""
        return len(self.updates_per_epoch)


def train_result(w, b, updates_per_epoch, history: dict | None = None) -> TrainResult:
    """The one place a :class:`TrainResult` is assembled from a run's weights and passes."""
    per_epoch = [int(u) for u in updates_per_epoch]
    return TrainResult(w=np.asarray(w), b=float(b), updates=sum(per_epoch),
                       updates_per_epoch=per_epoch,
                       converged=bool(per_epoch) and per_epoch[-1] == 0,
                       history=history if history is not None else {})
