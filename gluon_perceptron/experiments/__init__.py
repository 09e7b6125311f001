"""Experiments: what the chapter, the notebooks and the main job measure, returned as
dataclasses. Nothing here prints or draws.

One module per part of the chapter; every public name is also reachable as
``gp.experiments.<name>`` and loads on first use. The dataclasses the experiments return are
not public names: read their fields (each function's docstring says what it returns).
"""

from ..core._lazy import export

__all__, __getattr__, __dir__ = export(__name__, {
    "chapter": (
        "compare_samplers", "demo", "demo_statistics", "margin_experiment",
        "margin_experiment_faithful", "replay_printed_trace", "updates_by_size",
    ),
    "sgd": (
        "compare_subgradients", "compare_trainers", "relu_trap", "sgd_bound_experiment",
        "sgd_demo_data",
    ),
    "black_and_white": (
        "boundary_turns", "broken_rules_experiment", "nonseparable_experiment",
        "norm_growth_over_seeds", "order_effect", "remedies_experiment", "remedies_over_seeds",
    ),
    "convergence": ("bound_experiment", "dimension_growth", "proof_trace", "transformed_run"),
    "optimality": (
        "adversary_run", "generalization_curve", "generalization_experiment", "leave_one_out",
    ),
    "expressivity": ("format_truth_table",),
    "digits": ("baselines", "learning_curve", "learning_curves", "mean_image_contrast"),
    "multiclass": ("multiclass_demo", "multiclass_over_splits"),
    "relaxation": ("compare_rules", "digits_relaxation", "relaxation_over_splits", "wedge_demo"),
    "distributed": (
        "hard_separable", "mixing_bound_experiment", "mixing_latency", "mixing_speedup",
        "nonseparable_mixing",
    ),
    "beyond": (
        "forgetron_experiment", "kernel_bound_experiment", "kernel_demo",
        "second_order_experiment", "separation_experiment",
    ),
    "family": (
        "alma_margin_experiment", "heldout_predictors_experiment", "pa_bounds_experiment",
        "voted_bound_experiment",
    ),
})
