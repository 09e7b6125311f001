"""MXNet without the modules it imports for nothing we use.

At import time, MXNet 1.9.1 loads two libraries that this package never reaches through it:

- ``mxnet/model.py`` imports ``sklearn.base``, only so that its deprecated ``FeedForward``
  class can subclass scikit-learn's ``BaseEstimator`` (scikit-learn brings SciPy's statistics
  and pandas with it: about 0.8 s);
- ``mxnet/contrib/quantization.py`` imports ``scipy.stats`` for the entropy calibration of INT8
  models, and ``mxnet/test_utils.py`` for its own statistical tests (about 0.3 s).

Each import is in a ``try`` whose fallback (a plain class, ``None``) serves everything we call.
We would pay them in every process that imports MXNet: the main job and its helpers, each
distributed worker, each notebook kernel. :class:`LightMXNetImport` refuses exactly those
imports while that MXNet module is loading; any other import of them, before or after, is left
alone, and where one was imported before MXNet, MXNet gets it as before.
"""

from __future__ import annotations

import importlib.abc
import sys
import types

#: MXNet module being loaded -> the packages refused to it (with their submodules).
REFUSED = {
    "mxnet.model": ("sklearn",),
    "mxnet.contrib.quantization": ("scipy.stats",),
    "mxnet.test_utils": ("scipy.stats",),
}
#: Every package refused to some module (the finder looks no further for any other name).
_ANY_REFUSED = tuple(sorted({package for packages in REFUSED.values() for package in packages}))


def _within(name: str, packages: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in packages)


def _loading() -> str | None:
    """The module of :data:`REFUSED` whose top-level code is on the call stack, or None."""
    frame: types.FrameType | None = sys._getframe(2)
    while frame is not None:
        name = frame.f_globals.get("__name__")
        if name in REFUSED:
            return name
        frame = frame.f_back
    return None


class LightMXNetImport(importlib.abc.MetaPathFinder):
    """A finder that refuses the imports of :data:`REFUSED` to the MXNet module making them."""

    def find_spec(self, name, path=None, target=None):
        if not _within(name, _ANY_REFUSED):
            return None
        importer = _loading()
        if importer is not None and _within(name, REFUSED[importer]):
            raise ModuleNotFoundError(
                f"gluon_perceptron: {name} is not loaded for {importer}, which does not need it "
                "here", name=name)
        return None


def install() -> None:
    """Put the finder first on ``sys.meta_path`` (once), before MXNet is imported."""
    if "mxnet" in sys.modules:
        return
    if not any(isinstance(f, LightMXNetImport) for f in sys.meta_path):
        sys.meta_path.insert(0, LightMXNetImport())
