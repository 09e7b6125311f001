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

__version__ = "0.2.0"

#: Where each public name lives, module by module, layer by layer.
_MODULES: dict[str, tuple[str, ...]] = {
    "core.chapter.getfake": (
        "getfake", "PRINTED_TRACE", "SamplingError",
    ),
    "core.source": (
        "show_source",
    ),
    "core.data.synthetic": (
        "FakeData", "gaussian_classes", "GaussianClasses", "generating_margins", "getfake_noisy",
        "NoisyData", "pad_constant", "sample_separable", "xor_data",
    ),
    "core.rosenblatt.train": (
        "error_rate", "predict", "train",
    ),
    "core.chapter.step": (
        "perceptron",
    ),
    "core.rosenblatt.results": (
        "TrainResult",
    ),
    "core.rosenblatt.batched": (
        "train_batched",
    ),
    "core.rosenblatt.variants": (
        "notes_sequence", "OnlineRun", "run_online", "train_aggressive", "train_averaged",
        "train_pocket", "train_projected", "train_traced", "update_path", "UpdatePath",
    ),
    "core.gradient.losses": (
        "analytic_subgradient", "average_loss", "hinge_loss", "KINK_FORMS", "kink_gradient",
        "perceptron_loss", "relu_perceptron_loss", "threshold_loss",
    ),
    "core.gradient.sgd": (
        "clip_gradient", "constant_rate", "inverse_sqrt_rate", "project_to_ball", "run_sgd",
        "sgd_step", "SGDResult",
    ),
    "core.gradient.autograd": (
        "train_autograd",
    ),
    "core.gradient.gluon": (
        "perceptron_net", "PerceptronLoss", "train_gluon",
    ),
    "core.distributed.launcher": (
        "ClusterRun", "DistributedError", "DistributedTimeout", "launch_cluster",
    ),
    "core.distributed.mixing": (
        "DistributedResult", "shard_bounds", "train_mixed",
    ),
    "core.distributed.training": (
        "train_distributed",
    ),
    "core.distributed.gluon": (
        "GluonDistributedResult", "train_gluon_distributed", "train_gluon_sharded",
    ),
    "experiments.distributed": (
        "hard_separable", "mixing_bound_experiment", "MixingBoundExperiment", "mixing_speedup",
        "MixingSpeedup", "nonseparable_mixing", "NonseparableMixing",
    ),
    "plots.distributed": (
        "plot_mixing_bound", "plot_mixing_speedup", "plot_nonseparable_mixing",
    ),
    "core.theory.separability": (
        "signed_rows", "hinge_separator", "is_separable", "risk_minimum",
    ),
    "core.theory.margins": (
        "optimal_margin", "OptimalMargin", "radius", "separator", "shift_plane_to_origin",
    ),
    "core.theory.bounds": (
        "amaldi_hauser_bound", "bias_bound", "chapter_bound", "constant_rate_optimum",
        "ConstantRate", "general_bound", "generating_plane_bound", "GeneratingPlaneBound",
        "novikoff_bound", "sgd_bound",
    ),
    "core.theory.expressivity": (
        "boolean_data", "BOOLEAN_PERCEPTRONS", "learn_boolean", "total_perceptron_loss",
        "truth_table", "TruthTable", "two_point_data", "xor_cycle", "XorCycle",
    ),
    "core.data.real": (
        "digits_split", "load_digits", "load_mnist", "load_mnist_5k", "mnist_5k_split",
        "mnist_split", "one_vs_rest", "Split", "train_test_split",
    ),
    "core.data.idx": (
        "IDXError", "read_idx", "write_idx",
    ),
    "core.rosenblatt.multiclass": (
        "ties", "votes", "binary_error_rates", "BinaryErrorRates", "confusion_matrix",
        "MulticlassCost", "MulticlassModel", "predict_multiclass", "train_one_vs_all",
        "train_one_vs_one",
    ),
    "core.theory.relaxation": (
        "max_violation", "perceptron_system", "relaxation_method", "RelaxationResult",
        "wedge_system",
    ),
    "experiments.chapter": (
        "CHAPTER_SEED", "compare_samplers", "demo", "Demo", "demo_statistics", "DemoStatistics",
        "EPSILONS", "FaithfulExperiment", "margin_experiment", "margin_experiment_faithful",
        "MarginExperiment", "replay_printed_trace", "SamplerComparison", "SizeExperiment",
        "TraceReplay", "Update", "updates_by_size",
    ),
    "experiments.sgd": (
        "compare_subgradients", "compare_trainers", "relu_trap", "ReluTrap",
        "sgd_bound_experiment", "sgd_demo_data", "SGDBoundExperiment", "SubgradientCheck",
        "TrainerComparison",
    ),
    "experiments.black_and_white": (
        "boundary_turns", "heldout_errors", "horizon_maxima", "step_errors", "tail_stats",
        "Remedies", "remedies_experiment", "BrokenRules", "broken_rules_experiment",
        "nonseparable_experiment", "NonseparableRuns", "order_effect", "OrderEffect",
        "remedies_over_seeds", "RemediesOverSeeds", "TailStats",
    ),
    "experiments.convergence": (
        "bound_experiment", "BoundExperiment", "proof_trace", "ProofTrace", "transformed_run",
        "TransformedRun",
    ),
    "experiments.optimality": (
        "adversary_curve", "AdversaryCurve", "adversary_run", "AdversaryRun",
        "generalization_curve", "GeneralizationCurve", "generalization_experiment",
        "GeneralizationExperiment", "leave_one_out", "LeaveOneOut", "PerceptronLearner",
    ),
    "experiments.digits": (
        "mean_image_contrast", "baselines", "Baselines", "learning_curve", "LearningCurve",
        "learning_curves", "LearningCurves",
    ),
    "experiments.multiclass": (
        "multiclass_demo", "MulticlassDemo", "multiclass_over_splits", "MulticlassOverSplits",
        "SchemeResult",
    ),
    "experiments.relaxation": (
        "ETAS", "compare_rules", "digits_relaxation", "DigitRelaxation", "relaxation_over_splits",
        "RelaxationOverSplits", "RuleComparison", "wedge_demo", "WedgeDemo",
    ),
    "plots.chapter": (
        "plot_faithful_experiment", "plot_losses", "plot_margin_experiment", "plot_update",
        "plotdata", "plotscore",
    ),
    "plots.sgd": (
        "plot_relu_trap", "plot_subgradient_check", "plot_trainers", "plot_sgd_bound_experiment",
    ),
    "plots.convergence": (
        "plot_bound_experiment", "plot_proof_trace", "plot_transformed_runs",
    ),
    "plots.expressivity": (
        "plot_loss_surface",
    ),
    "plots.digits": (
        "plot_digit", "plot_digit_weights", "plot_learning_curve", "plot_learning_curves",
        "plot_weights",
    ),
    "plots.multiclass": (
        "plot_binary_error_rates", "plot_confusion_matrix",
    ),
    "plots.relaxation": (
        "plot_wedge_paths", "plot_rule_comparison",
    ),
    "experiments.expressivity": (
        "Expressivity", "expressivity_experiment", "format_truth_table",
    ),
    "plots.optimality": (
        "plot_adversary", "plot_generalization_curve", "plot_scaled_bound",
    ),
    "plots.black_and_white": (
        "plot_aggressive", "plot_boundaries", "plot_nonseparable", "plot_order_effect",
        "plot_remedies", "plot_remedies_over_seeds", "plot_unguarded",
    ),
    "main.figures": (
        "save_figure",
    ),
    "core.beyond.kernel_perceptron": (
        "feature_margin", "FeatureMargin", "KernelPerceptron", "train_kernel",
    ),
    "core.beyond.kernels": (
        "KernelFunction",
    ),
    "core.beyond.forgetron": (
        "forgetron", "forgetron_bound", "forgetron_radius", "ForgetronRun",
    ),
    "core.beyond.second_order": (
        "second_order_bound", "SecondOrderRun", "train_second_order",
    ),
    "core.beyond.separation": (
        "perceptron_separation", "perceptron_separation_bound", "phase_length", "rescaled_bound",
        "rescaled_perceptron", "separation_margin", "separation_problem", "SeparationProblem",
        "SeparationRun", "signed_unit_rows", "smooth_bound", "smooth_perceptron",
    ),
    "experiments.beyond": (
        "forgetron_experiment", "ForgetronExperiment", "kernel_bound_experiment",
        "KernelBoundExperiment", "kernel_demo", "KernelDemo", "second_order_experiment",
        "SecondOrderExperiment", "separation_experiment", "SeparationExperiment", "two_moons",
    ),
    "plots.beyond": (
        "plot_forgetron", "plot_kernel_boundary", "plot_separation",
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
