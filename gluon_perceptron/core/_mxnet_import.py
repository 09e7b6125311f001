"""MXNet without the modules it imports for nothing we use.

At import time, MXNet 1.9.1 loads libraries that this package never reaches through it. Where
MXNet's import is in a ``try`` whose fallback (a plain class, ``None``) serves everything we
call, the import is refused (:data:`REFUSED`):

- ``mxnet/model.py`` imports ``sklearn.base``, only so that its deprecated ``FeedForward``
  class can subclass scikit-learn's ``BaseEstimator`` (scikit-learn brings SciPy's statistics
  and pandas with it: about 0.8 s);
- ``mxnet/contrib/quantization.py`` imports ``scipy.stats`` for the entropy calibration of INT8
  models, and ``mxnet/test_utils.py`` for its own statistical tests (about 0.3 s).

Where MXNet binds a module at import but uses it only inside functions, the module is deferred
(:data:`DEFERRED`): it is in ``sys.modules`` at once, a :class:`DeferredModule`, and its code
runs at the first attribute anyone asks of it, or when one of its submodules is imported. So
MXNet, and whoever imports it afterwards, get the whole module when they use it, as before:

- ``mxnet/ndarray/sparse.py`` and ``mxnet/ndarray/utils.py`` import ``scipy.sparse`` to convert
  SciPy's sparse matrices (with SciPy's graph and sparse linear algebra: about 0.2 s);
- ``mxnet/gluon/utils.py`` and ``mxnet/test_utils.py`` import ``requests`` to download files
  (with urllib3, the character-set detection and the e-mail parser: about 0.15 s);
- ``mxnet/test_utils.py`` imports ``numpy.testing`` for its assertions (with ``unittest``).

We would pay them in every process that imports MXNet: the main job and its helpers, each
distributed worker, each notebook kernel. :class:`LightMXNetImport` refuses or defers exactly
those imports while that MXNet module is loading; any other import of them, before or after,
is left alone, and where one was imported before MXNet, MXNet gets it as before.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys
import threading
import types
from typing import Any

#: MXNet module being loaded -> the packages refused to it (with their submodules).
REFUSED = {
    "mxnet.model": ("sklearn",),
    "mxnet.contrib.quantization": ("scipy.stats",),
    "mxnet.test_utils": ("scipy.stats",),
}
#: MXNet module being loaded -> the modules deferred for it (exactly these names).
DEFERRED = {
    "mxnet.ndarray.sparse": ("scipy.sparse",),
    "mxnet.ndarray.utils": ("scipy.sparse",),
    "mxnet.gluon.utils": ("requests",),
    "mxnet.test_utils": ("requests", "numpy.testing"),
}
#: Every name refused or deferred to some module (the finder looks no further for any other).
_ANY_LISTED = tuple(sorted({name for table in (REFUSED, DEFERRED)
                            for names in table.values() for name in names}))
#: What a module has before its code runs, set by the import system, which asks for them of a
#: module in ``sys.modules``: asking a :class:`DeferredModule` for one does not run its code.
_BEFORE_ITS_CODE = frozenset({"__name__", "__loader__", "__package__", "__spec__", "__path__",
                              "__file__", "__cached__"})
_LOADING = threading.RLock()


def _within(name: str, packages: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in packages)


def _loading() -> str | None:
    """The MXNet module of :data:`REFUSED` or :data:`DEFERRED` whose top-level code is on the
    call stack, or None."""
    frame: types.FrameType | None = sys._getframe(2)
    while frame is not None:
        name = frame.f_globals.get("__name__")
        if name in REFUSED or name in DEFERRED:
            return name
        frame = frame.f_back
    return None


class DeferredModule(types.ModuleType):
    """A module in ``sys.modules`` whose code has not run yet: it runs (:func:`load`) at the
    first attribute asked of it that it lacks, but those of :data:`_BEFORE_ITS_CODE`. (The
    standard library's ``importlib.util.LazyLoader`` runs it at any attribute, ``__spec__``
    included, which every later import of the module reads: MXNet's second import of
    ``requests`` would run it at once.)"""

    def __getattr__(self, name: str) -> Any:
        if name in _BEFORE_ITS_CODE:
            raise AttributeError(name)
        load(self)
        return getattr(self, name)

    def __dir__(self) -> list[str]:
        load(self)
        return dir(self)


class _DeferringLoader(importlib.abc.Loader):
    """Makes the module a :class:`DeferredModule` and leaves its code to :func:`load`, which
    runs it with ``found``, the loader the import system found for it."""

    def __init__(self, found: importlib.abc.Loader):
        self.found = found

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        return DeferredModule(spec.name)

    def exec_module(self, module: types.ModuleType) -> None:
        pass  # its code runs on first use


def load(module: types.ModuleType) -> None:
    """Run a :class:`DeferredModule`'s code, with the loader found for it; from then on it is a
    plain module (its ``__loader__`` and spec's ``loader`` that loader). Code that raises
    leaves the module out of ``sys.modules``, as a failed import does."""
    with _LOADING:
        spec = module.__spec__
        if spec is None or not isinstance(spec.loader, _DeferringLoader):
            return  # another thread ran it meanwhile
        found = spec.loader.found
        module.__class__ = types.ModuleType
        spec.loader = module.__loader__ = found
        try:
            found.exec_module(module)
        except BaseException:
            sys.modules.pop(spec.name, None)
            raise


class _Reinstating(importlib.abc.Loader):
    """Gives the import system ``module``, already loaded, for the module it set out to load
    (its ``exec_module`` puts ``module`` back in ``sys.modules``, which is what the import
    returns)."""

    def __init__(self, module: types.ModuleType):
        self.module = module

    def exec_module(self, module: types.ModuleType) -> None:
        sys.modules[self.module.__name__] = self.module


def _loaded_with(name: str) -> importlib.machinery.ModuleSpec | None:
    """After a deferred package's code ran for the import of its submodule ``name``: None (the
    other finders find ``name``), or, when that code imported ``name`` itself, a spec for the
    module it loaded. (Found in ``sys.modules`` by then, the module would be loaded again, a
    second object, from its own spec.)"""
    module = sys.modules.pop(name, None)
    return None if module is None else importlib.machinery.ModuleSpec(name, _Reinstating(module))


class LightMXNetImport(importlib.abc.MetaPathFinder):
    """A finder that refuses (:data:`REFUSED`) or defers (:data:`DEFERRED`) imports to the
    MXNet module making them, and runs a deferred module's code before one of its submodules
    is imported (so that submodule finds its package as it would without deferral)."""

    def find_spec(self, name, path=None, target=None):
        package = sys.modules.get(name.rpartition(".")[0])
        if type(package) is DeferredModule:
            load(package)
            return _loaded_with(name)
        if not _within(name, _ANY_LISTED):
            return None
        importer = _loading()
        if importer is None:
            return None
        if _within(name, REFUSED.get(importer, ())):
            raise ModuleNotFoundError(
                f"gluon_perceptron: {name} is not loaded for {importer}, which does not need it "
                "here", name=name)
        if name in DEFERRED.get(importer, ()):
            return self._deferred_spec(name, path, target)
        return None

    def _deferred_spec(self, name, path, target):
        """The spec the other finders give ``name``, with a loader that defers its code."""
        for finder in sys.meta_path:
            find = getattr(finder, "find_spec", None)
            if finder is self or find is None:
                continue
            spec = find(name, path, target)
            if spec is not None:
                if spec.loader is not None:
                    spec.loader = _DeferringLoader(spec.loader)
                return spec
        return None


def install() -> None:
    """Put the finder first on ``sys.meta_path`` (once), before MXNet is imported."""
    if "mxnet" in sys.modules:
        return
    if not any(isinstance(f, LightMXNetImport) for f in sys.meta_path):
        sys.meta_path.insert(0, LightMXNetImport())
