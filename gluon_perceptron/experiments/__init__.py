"""Experiments: what the chapter, the notebooks and the main job measure, returned as
dataclasses. Nothing here prints or draws.

One module per part of the chapter; every public name is also reachable as
``gp.experiments.<name>`` and loads on first use.
"""

from ..core._lazy import export

__all__, __getattr__, __dir__ = export(__name__, {
    "chapter": (
        "CHAPTER_SEED", "compare_samplers", "demo", "Demo", "demo_statistics", "DemoStatistics",
        "EPSILONS", "FaithfulExperiment", "margin_experiment", "margin_experiment_faithful",
        "MarginExperiment", "replay_printed_trace", "SamplerComparison", "SizeExperiment",
        "TraceReplay", "Update", "updates_by_size",
    ),
    "sgd": (
        "compare_subgradients", "compare_trainers", "relu_trap", "ReluTrap",
        "sgd_bound_experiment", "sgd_demo_data", "SGDBoundExperiment", "SubgradientCheck",
        "TrainerComparison",
    ),
    "black_and_white": (
        "boundary_turns", "broken_rules_experiment", "BrokenRules", "heldout_errors",
        "horizon_maxima", "nonseparable_experiment", "NonseparableRuns", "norm_growth_over_seeds",
        "NormGrowth", "order_effect", "OrderEffect", "Remedies", "remedies_experiment",
        "remedies_over_seeds", "RemediesOverSeeds", "step_errors", "tail_stats", "TailStats",
    ),
    "convergence": (
        "bound_experiment", "BoundExperiment", "dimension_growth", "DimensionGrowth",
        "proof_trace", "ProofTrace", "transformed_run", "TransformedRun",
    ),
    "optimality": (
        "adversary_curve", "AdversaryCurve", "adversary_run", "AdversaryRun",
        "generalization_curve", "GeneralizationCurve", "generalization_experiment",
        "GeneralizationExperiment", "leave_one_out", "LeaveOneOut", "PerceptronLearner",
    ),
    "expressivity": ("Expressivity", "expressivity_experiment", "format_truth_table"),
    "digits": (
        "baselines", "Baselines", "learning_curve", "LearningCurve", "learning_curves",
        "LearningCurves", "mean_image_contrast",
    ),
    "multiclass": (
        "multiclass_demo", "MulticlassDemo", "multiclass_over_splits", "MulticlassOverSplits",
        "SchemeResult",
    ),
    "relaxation": (
        "compare_rules", "digits_relaxation", "DigitRelaxation", "ETAS",
        "relaxation_over_splits", "RelaxationOverSplits", "RuleComparison", "wedge_demo",
        "WedgeDemo",
    ),
    "distributed": (
        "hard_separable", "mixing_bound_experiment", "MixingBoundExperiment", "mixing_speedup",
        "MixingSpeedup", "nonseparable_mixing", "NonseparableMixing",
    ),
    "beyond": (
        "forgetron_experiment", "ForgetronExperiment", "kernel_bound_experiment",
        "KernelBoundExperiment", "kernel_demo", "KernelDemo", "second_order_experiment",
        "SecondOrderExperiment", "separation_experiment", "SeparationExperiment", "two_moons",
    ),
    "family": (
        "alma_margin_experiment", "AlmaMargins", "heldout_predictors_experiment",
        "HeldoutPredictors", "pa_bounds_experiment", "PABounds", "voted_bound_experiment",
        "VotedBound",
    ),
})
