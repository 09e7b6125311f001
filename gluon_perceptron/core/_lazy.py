"""Lazy public names for a package (PEP 562): one table, names loaded on first use.

Every public package of gluon_perceptron (the top level and each subpackage) declares its public
names as one table, module -> names, and hands it to :func:`export`::

    __all__, __getattr__, __dir__ = export(__name__, {
        "margins": ("optimal_margin", "radius"),
        "bounds": ("novikoff_bound",),
    })

``import`` of the package then imports none of those modules; ``package.optimal_margin`` (or
``from package import optimal_margin``) imports ``package.margins`` once and caches the name.
Moving a name to another module is a one-line change of its table.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any


def export(package: str, modules: Mapping[str, tuple[str, ...]]
           ) -> tuple[list[str], Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__all__``, ``__getattr__`` and ``__dir__`` of ``package`` for the table ``modules``.

    Parameters
    ----------
    package : str
        The package's ``__name__``.
    modules : mapping of str to tuple of str
        Module (relative to ``package``, dotted for a deeper one) -> the public names it holds.

    Returns
    -------
    tuple
        ``(__all__, __getattr__, __dir__)``, to be bound at the package's top level.
    """
    where: dict[str, str] = {}
    for module, names in modules.items():
        for name in names:
            if name in where:
                raise ValueError(f"{package}: {name!r} is listed under both {where[name]!r} "
                                 f"and {module!r}")
            where[name] = module
    all_names = sorted(where, key=str.lower)

    def __getattr__(name: str) -> Any:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f".{module}", package), name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted(set(vars(sys.modules[package])) | set(all_names))

    return all_names, __getattr__, __dir__
