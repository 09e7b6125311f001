"""MXNet without the scikit-learn it imports for nothing we use.

MXNet 1.9.1's ``mxnet/model.py`` imports ``sklearn.base`` at import time, only so that its
deprecated ``FeedForward`` class can subclass scikit-learn's ``BaseEstimator``; when that import
fails it uses a plain class instead. With scikit-learn installed, that one line costs about
1.3 s (scikit-learn brings SciPy and pandas with it) in every process that imports MXNet: the
main job, each distributed worker, each notebook kernel. :class:`SkipScikitLearnInMXNetModel`
makes exactly that import fail; any other import of scikit-learn, before or after, is left
alone, and where scikit-learn was imported first MXNet gets the real class as before.
"""

from __future__ import annotations

import importlib.abc
import sys


class SkipScikitLearnInMXNetModel(importlib.abc.MetaPathFinder):
    """A finder that refuses ``sklearn`` only to ``mxnet.model``'s own import statement."""

    def find_spec(self, name, path=None, target=None):
        if name != "sklearn" and not name.startswith("sklearn."):
            return None
        frame = sys._getframe(1)
        while frame is not None:
            if frame.f_globals.get("__name__") == "mxnet.model":
                raise ModuleNotFoundError(
                    "gluon_perceptron: scikit-learn is not loaded for mxnet.model's deprecated "
                    "FeedForward class", name=name)
            frame = frame.f_back
        return None


def install() -> None:
    """Put the finder first on ``sys.meta_path`` (once), before MXNet is imported."""
    if "mxnet" in sys.modules:
        return
    if not any(isinstance(f, SkipScikitLearnInMXNetModel) for f in sys.meta_path):
        sys.meta_path.insert(0, SkipScikitLearnInMXNetModel())
