"""gluon_perceptron: the Perceptron chapter of *Deep Learning - The Straight Dope* in MXNet.

``import gluon_perceptron as gp`` gives what a reader of the chapter (notebooks 01-04) calls:
the chapter's own names (:func:`getfake`, :func:`plotdata`, :func:`plotscore`,
:func:`perceptron`, :func:`demo`, :func:`show_source`), the data it draws, Rosenblatt's trainers
(:func:`train` runs the rule to convergence with the fast exact engine) and the perceptron as
gradient descent (its losses, :func:`sgd_step`, :func:`train_autograd`, :func:`train_gluon`).

Everything else lives in a named public subpackage, reached as an attribute and importable under
either name (``gp.theory.optimal_margin``, ``from gluon_perceptron.theory import optimal_margin``,
``from gluon_perceptron.core.theory import optimal_margin``):

- ``gp.chapter``: the chapter's own code (:mod:`gluon_perceptron.core.chapter`).
- ``gp.rosenblatt``: the trainers, their variants, batched and multiclass perceptrons
  (:mod:`gluon_perceptron.core.rosenblatt`).
- ``gp.gradient``: losses, SGD with autograd, Gluon (:mod:`gluon_perceptron.core.gradient`).
- ``gp.beyond``: kernel perceptron, Forgetron, second-order, smooth and rescaled perceptrons
  (:mod:`gluon_perceptron.core.beyond`).
- ``gp.theory``: separability, margins, bounds, relaxation, expressivity
  (:mod:`gluon_perceptron.core.theory`).
- ``gp.data``: synthetic and real data (:mod:`gluon_perceptron.core.data`).
- ``gp.distributed``: parameter mixing and Gluon on many processes
  (:mod:`gluon_perceptron.core.distributed`).
- ``gp.experiments``: what the chapter, the notebooks and the main job measure, as dataclasses.
- ``gp.plots``: every figure; ``ax=None`` in, what was drawn on out.
- ``gp.exercises``: the checkers of the notebooks' exercises (``gp.exercises.check_step``).

The package has four layers, each importing only the ones above it in this list:
:mod:`gluon_perceptron.core` (the algorithms; no pyplot, no progress bars, no printing),
:mod:`gluon_perceptron.experiments`, :mod:`gluon_perceptron.plots` and
:mod:`gluon_perceptron.main` (the command line, the only code that prints).

Names load on first use (PEP 562), so ``import gluon_perceptron`` stays light: matplotlib,
SciPy's optimizers and MXNet load only when something that needs them is used. The public names
are exactly those of these ``__all__`` lists (``tests/project/test_architecture.py`` counts
them); the flat names of 0.2 that moved into a subpackage were removed in 0.4 (the changelog lists
each
with its new place).
"""

from __future__ import annotations

import importlib
import sys
from typing import Any

from .core import _mxnet_import
from .core._lazy import export

_mxnet_import.install()  # MXNet loads faster: no scikit-learn, SciPy's sparse matrices on use

__version__ = "0.4.0"

#: The top level: where each of its names lives (module -> names). Each name is also public in
#: its subpackage, except ``show_source`` (``core/source.py``, in no subpackage).
_MODULES: dict[str, tuple[str, ...]] = {
    "core.chapter.sampler": ("getfake", "SamplingError"),
    "core.chapter.perceptron_step": ("perceptron",),
    "core.source": ("show_source",),
    "plots.chapter": ("plotdata", "plotscore"),
    "experiments.chapter": ("demo",),
    "core.data.synthetic": ("generating_margins", "sample_separable", "xor_data"),
    "core.rosenblatt.training": ("error_rate", "predict", "train"),
    "core.rosenblatt.results": ("TrainResult",),
    "core.rosenblatt.batched": ("train_batched",),
    "core.rosenblatt.variants": ("train_averaged", "train_pocket"),
    "core.gradient.losses": (
        "hinge_loss", "perceptron_loss", "relu_perceptron_loss", "threshold_loss",
    ),
    "core.gradient.subgradients": ("analytic_subgradient", "KINK_FORMS", "kink_gradient"),
    "core.gradient.sgd_update": ("sgd_step",),
    "core.gradient.sgd": ("run_sgd",),
    "core.gradient.autograd": ("train_autograd",),
    "core.gradient.gluon": ("perceptron_net", "PerceptronLoss", "train_gluon"),
}

#: The public subpackages: ``gp.<alias>`` and ``import gluon_perceptron.<alias>`` give the package.
_SUBPACKAGES: dict[str, str] = {
    "chapter": "core.chapter",
    "rosenblatt": "core.rosenblatt",
    "gradient": "core.gradient",
    "beyond": "core.beyond",
    "theory": "core.theory",
    "data": "core.data",
    "distributed": "core.distributed",
    "experiments": "experiments",
    "plots": "plots",
    "exercises": "experiments.exercises",
}

__all__, _getattr, _dir = export(__name__, _MODULES)

# The subpackages' __init__ modules hold only their tables (no algorithm is imported), so they
# are imported now, which makes `import gluon_perceptron.theory` work like `gp.theory`.
for _alias, _target in _SUBPACKAGES.items():
    sys.modules[f"{__name__}.{_alias}"] = importlib.import_module(f".{_target}", __name__)
del _alias, _target


def __getattr__(name: str) -> Any:
    if name in _SUBPACKAGES:
        return sys.modules[f"{__name__}.{name}"]
    return _getattr(name)


def __dir__() -> list[str]:
    return sorted(set(_dir()) | set(_SUBPACKAGES))
