"""gluon_perceptron: the Perceptron chapter of *Deep Learning - The Straight Dope* in MXNet.

The chapter's own names are kept: :func:`getfake`, :func:`plotdata`, :func:`plotscore` and
:func:`perceptron`; :func:`train` runs the rule to convergence with the fast exact engine.

The package has four layers, each importing only the ones above it in this list:

- :mod:`gluon_perceptron.core`: the algorithms (data, the chapter's code, the epoch kernel,
  losses, SGD, Gluon, geometry and bounds, multiclass, relaxation, datasets); no pyplot, no
  progress bars, no printing.
- :mod:`gluon_perceptron.experiments`: what the chapter, the notebooks and the main job measure,
  returned as dataclasses.
- :mod:`gluon_perceptron.plots`: every figure; ``ax=None`` in, what was drawn on out.
- :mod:`gluon_perceptron.main`: the command line and its sections, the only code that prints.

Every public name below is importable from the package itself. Names are loaded on first use
(PEP 562), so ``import gluon_perceptron`` stays light: matplotlib, SciPy's optimizers and MXNet
load only when something that needs them is used.
"""

from __future__ import annotations

import importlib

__version__ = "0.1.0"

#: Where each public name lives, module by module, layer by layer.
_MODULES: dict[str, tuple[str, ...]] = {
    "core.data": (
        "FakeData", "gaussian_classes", "GaussianClasses", "generating_margins", "getfake",
        "getfake_noisy", "NoisyData", "pad_constant", "sample_separable", "SamplingError",
        "xor_data",
    ),
    "core.rosenblatt": (
        "error_rate", "perceptron", "predict", "train",
    ),
    "core.results": (
        "TrainResult",
    ),
    "core.batched": (
        "train_batched",
    ),
    "core.variants": (
        "notes_sequence", "OnlineRun", "run_online", "train_aggressive", "train_averaged",
        "train_pocket", "train_projected", "train_traced", "update_path", "UpdatePath",
    ),
    "core.losses": (
        "analytic_subgradient", "average_loss", "hinge_loss", "KINK_FORMS", "kink_gradient",
        "perceptron_loss", "relu_perceptron_loss", "threshold_loss",
    ),
    "core.sgd": (
        "clip_gradient", "constant_rate", "inverse_sqrt_rate", "project_to_ball", "run_sgd",
        "sgd_step", "SGDResult", "train_autograd",
    ),
    "core.gluon_trainer": (
        "perceptron_net", "PerceptronLoss", "train_gluon",
    ),
    "core.geometry": (
        "signed_rows",
        "hinge_separator", "is_separable", "optimal_margin", "OptimalMargin", "radius",
        "risk_minimum", "separator", "shift_plane_to_origin",
    ),
    "core.bounds": (
        "amaldi_hauser_bound", "bias_bound", "chapter_bound", "constant_rate_optimum",
        "general_bound", "generating_plane_bound", "novikoff_bound", "sgd_bound",
    ),
    "core.expressivity": (
        "boolean_data", "BOOLEAN_PERCEPTRONS", "learn_boolean", "total_perceptron_loss",
        "truth_table", "two_point_data", "xor_cycle",
    ),
    "core.datasets": (
        "digits_split", "IDXError", "load_digits", "load_mnist", "mnist_split", "one_vs_rest",
        "read_idx", "Split", "train_test_split", "write_idx",
    ),
    "core.multiclass": (
        "ties", "votes",
        "binary_error_rates", "confusion_matrix", "MulticlassModel", "predict_multiclass",
        "train_one_vs_all", "train_one_vs_one",
    ),
    "core.relaxation": (
        "max_violation", "perceptron_system", "relaxation_method", "RelaxationResult",
        "wedge_system",
    ),
    "experiments.chapter": (
        "demo", "EPSILONS", "margin_experiment", "margin_experiment_faithful", "MarginExperiment",
    ),
    "experiments.sgd": (
        "compare_subgradients", "compare_trainers", "sgd_bound_experiment", "sgd_demo_data",
        "SGDBoundExperiment",
    ),
    "experiments.black_and_white": (
        "boundary_turns", "heldout_errors", "horizon_maxima", "step_errors", "tail_stats",
        "Remedies", "remedies_experiment",
    ),
    "experiments.convergence": (
        "bound_experiment", "proof_trace", "ProofTrace", "transformed_run",
    ),
    "experiments.optimality": (
        "adversary_run", "AdversaryRun", "generalization_experiment", "leave_one_out",
        "PerceptronLearner",
    ),
    "experiments.digits": (
        "mean_image_contrast",
        "baselines", "learning_curve", "LearningCurve",
    ),
    "experiments.relaxation": (
        "ETAS",
        "compare_rules",
    ),
    "plots.chapter": (
        "plot_losses", "plot_margin_experiment", "plot_update", "plotdata", "plotscore",
    ),
    "plots.sgd": (
        "plot_relu_trap", "plot_subgradient_check", "plot_trainers",
        "plot_sgd_bound_experiment",
    ),
    "plots.convergence": (
        "plot_bound_experiment", "plot_proof_trace",
    ),
    "plots.expressivity": (
        "plot_loss_surface",
    ),
    "plots.digits": (
        "plot_digit", "plot_digit_weights", "plot_learning_curve", "plot_weights",
    ),
    "plots.multiclass": (
        "plot_binary_error_rates",
        "plot_confusion_matrix",
    ),
    "plots.relaxation": (
        "plot_wedge_paths",
        "plot_rule_comparison",
    ),
    "experiments.expressivity": (
        "format_truth_table",
    ),
    "plots.black_and_white": (
        "plot_aggressive", "plot_boundaries", "plot_nonseparable", "plot_remedies",
        "plot_unguarded",
    ),
    "main.figures": (
        "save_figure",
    ),
}

_WHERE = {name: module for module, names in _MODULES.items() for name in names}

__all__ = sorted(_WHERE, key=str.lower)


def __getattr__(name: str):
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'gluon_perceptron' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
