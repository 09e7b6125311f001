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
SciPy's optimizers and MXNet load only when something that needs them is used. The flat names
of 0.2 that moved into a subpackage still work until 0.4, with a ``DeprecationWarning`` naming
the new place.
"""

from __future__ import annotations

import importlib
import sys
import warnings

from .core import _mxnet_import
from .core._lazy import export

_mxnet_import.install()  # MXNet loads 1.3 s faster (no scikit-learn for its FeedForward class)

__version__ = "0.3.0"

#: The top level: where each of its names lives (module -> names). Each name is also public in
#: its subpackage, except ``show_source`` (``core/source.py``, in no subpackage).
_MODULES: dict[str, tuple[str, ...]] = {
    "core.chapter.sampler": ("getfake", "SamplingError"),
    "core.chapter.step": ("perceptron",),
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
    "core.gradient.subgradients": (
        "analytic_subgradient", "average_loss", "KINK_FORMS", "kink_gradient",
    ),
    "core.gradient.steps": ("constant_rate", "inverse_sqrt_rate", "sgd_step"),
    "core.gradient.sgd": ("run_sgd", "SGDResult"),
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

#: The flat names of 0.2 that are no longer at the top level: ``gp.<name>`` still returns the
#: object until 0.4, with a DeprecationWarning naming its new place (found in the subpackages'
#: ``__all__``, or in :data:`_MOVED_ELSEWHERE`).
_DEPRECATED_IN_0_3: tuple[str, ...] = (
    # gp.chapter
    "PRINTED_TRACE",
    # gp.rosenblatt
    "binary_error_rates", "BinaryErrorRates", "confusion_matrix", "MulticlassCost",
    "MulticlassModel", "notes_sequence", "OnlineRun", "predict_multiclass", "run_online", "ties",
    "train_aggressive", "train_one_vs_all", "train_one_vs_one", "train_projected", "train_traced",
    "update_path", "UpdatePath", "votes",
    # gp.gradient
    "clip_gradient", "project_to_ball",
    # gp.beyond
    "feature_margin", "FeatureMargin", "forgetron", "forgetron_bound", "forgetron_radius",
    "ForgetronRun", "KernelFunction", "KernelPerceptron", "perceptron_separation",
    "perceptron_separation_bound", "phase_length", "rescaled_bound", "rescaled_perceptron",
    "second_order_bound", "SecondOrderRun", "separation_margin", "separation_problem",
    "SeparationProblem", "SeparationRun", "signed_unit_rows", "smooth_bound", "smooth_perceptron",
    "train_kernel", "train_second_order",
    # gp.theory
    "amaldi_hauser_bound", "bias_bound", "boolean_data", "BOOLEAN_PERCEPTRONS", "chapter_bound",
    "constant_rate_optimum", "ConstantRate", "general_bound", "generating_plane_bound",
    "GeneratingPlaneBound", "hinge_separator", "is_separable", "learn_boolean", "max_violation",
    "novikoff_bound", "optimal_margin", "OptimalMargin", "perceptron_system", "radius",
    "relaxation_method", "RelaxationResult", "risk_minimum", "separator", "sgd_bound",
    "shift_plane_to_origin", "signed_rows", "total_perceptron_loss", "truth_table", "TruthTable",
    "two_point_data", "wedge_system", "xor_cycle", "XorCycle",
    # gp.data
    "digits_split", "FakeData", "gaussian_classes", "GaussianClasses", "getfake_noisy",
    "IDXError", "load_digits", "load_mnist", "load_mnist_5k", "mnist_5k_split", "mnist_split",
    "NoisyData", "one_vs_rest", "pad_constant", "read_idx", "Split", "train_test_split",
    "write_idx",
    # gp.distributed
    "ClusterRun", "DistributedError", "DistributedResult", "DistributedTimeout",
    "GluonDistributedResult", "launch_cluster", "shard_bounds", "train_distributed",
    "train_gluon_distributed", "train_gluon_sharded", "train_mixed",
    # gp.experiments
    "adversary_curve", "AdversaryCurve", "adversary_run", "AdversaryRun", "baselines",
    "Baselines", "bound_experiment", "BoundExperiment", "boundary_turns",
    "broken_rules_experiment", "BrokenRules", "CHAPTER_SEED", "compare_rules", "compare_samplers",
    "compare_subgradients", "compare_trainers", "Demo", "demo_statistics", "DemoStatistics",
    "digits_relaxation", "DigitRelaxation", "EPSILONS", "ETAS", "Expressivity",
    "expressivity_experiment", "FaithfulExperiment", "forgetron_experiment",
    "ForgetronExperiment", "format_truth_table", "generalization_curve", "GeneralizationCurve",
    "generalization_experiment", "GeneralizationExperiment", "hard_separable", "heldout_errors",
    "horizon_maxima", "kernel_bound_experiment", "KernelBoundExperiment", "kernel_demo",
    "KernelDemo", "learning_curve", "LearningCurve", "learning_curves", "LearningCurves",
    "leave_one_out", "LeaveOneOut", "margin_experiment", "margin_experiment_faithful",
    "MarginExperiment", "mean_image_contrast", "mixing_bound_experiment", "MixingBoundExperiment",
    "mixing_speedup", "MixingSpeedup", "multiclass_demo", "MulticlassDemo",
    "multiclass_over_splits", "MulticlassOverSplits", "nonseparable_experiment",
    "nonseparable_mixing", "NonseparableMixing", "NonseparableRuns", "order_effect",
    "OrderEffect", "PerceptronLearner", "proof_trace", "ProofTrace", "relaxation_over_splits",
    "RelaxationOverSplits", "relu_trap", "ReluTrap", "Remedies", "remedies_experiment",
    "remedies_over_seeds", "RemediesOverSeeds", "replay_printed_trace", "RuleComparison",
    "SamplerComparison", "SchemeResult", "second_order_experiment", "SecondOrderExperiment",
    "separation_experiment", "SeparationExperiment", "sgd_bound_experiment", "sgd_demo_data",
    "SGDBoundExperiment", "SizeExperiment", "step_errors", "SubgradientCheck", "tail_stats",
    "TailStats", "TraceReplay", "TrainerComparison", "transformed_run", "TransformedRun",
    "two_moons", "Update", "updates_by_size", "wedge_demo", "WedgeDemo",
    # gp.plots
    "plot_adversary", "plot_aggressive", "plot_binary_error_rates", "plot_bound_experiment",
    "plot_boundaries", "plot_confusion_matrix", "plot_digit", "plot_digit_weights",
    "plot_faithful_experiment", "plot_forgetron", "plot_generalization_curve",
    "plot_kernel_boundary", "plot_learning_curve", "plot_learning_curves", "plot_loss_surface",
    "plot_losses", "plot_margin_experiment", "plot_mixing_bound", "plot_mixing_speedup",
    "plot_nonseparable", "plot_nonseparable_mixing", "plot_order_effect", "plot_proof_trace",
    "plot_relu_trap", "plot_remedies", "plot_remedies_over_seeds", "plot_rule_comparison",
    "plot_scaled_bound", "plot_separation", "plot_sgd_bound_experiment",
    "plot_subgradient_check", "plot_trainers", "plot_transformed_runs", "plot_unguarded",
    "plot_update", "plot_weights", "plot_wedge_paths",
    # the main job's, not a library name
    "save_figure",
)

#: Deprecated flat names whose new home is no public subpackage: name -> (module, new place).
_MOVED_ELSEWHERE: dict[str, tuple[str, str]] = {
    "save_figure": ("main.figures", "gluon_perceptron.main.figures.save_figure"),
}

__all__, _getattr, _dir = export(__name__, _MODULES)

# The subpackages' __init__ modules hold only their tables (no algorithm is imported), so they
# are imported now, which makes `import gluon_perceptron.theory` work like `gp.theory`.
for _alias, _target in _SUBPACKAGES.items():
    sys.modules[f"{__name__}.{_alias}"] = importlib.import_module(f".{_target}", __name__)
del _alias, _target


def _new_place(name: str) -> tuple[str, str]:
    """``(module, "gp.<subpackage>.<name>")`` of a deprecated flat name."""
    if name in _MOVED_ELSEWHERE:
        module, place = _MOVED_ELSEWHERE[name]
        return f"{__name__}.{module}", place
    for alias in _SUBPACKAGES:
        package = sys.modules[f"{__name__}.{alias}"]
        if name in package.__all__:
            return package.__name__, f"gp.{alias}.{name}"
    raise AttributeError(f"module {__name__!r} has no attribute {name!r} (deprecated, but no "
                         f"public subpackage exports it any more)")


def __getattr__(name: str) -> object:
    if name in _SUBPACKAGES:
        return sys.modules[f"{__name__}.{name}"]
    if name in _DEPRECATED_IN_0_3:
        module, place = _new_place(name)
        warnings.warn(f"gp.{name} moved to {place}; the old name goes in 0.4",
                      DeprecationWarning, stacklevel=2)
        return getattr(importlib.import_module(module), name)
    return _getattr(name)


def __dir__() -> list[str]:
    return sorted(set(_dir()) | set(_SUBPACKAGES))
