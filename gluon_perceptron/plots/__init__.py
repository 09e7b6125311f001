"""Figures: every plot function takes ``ax=None`` (or ``axes=None`` for a grid), creates what it
needs, and returns what it drew on.

One module per part of the chapter; every public name is also reachable as
``gp.plots.<name>`` and loads on first use (pyplot with it).
"""

from ..core._lazy import export

__all__, __getattr__, __dir__ = export(__name__, {
    "chapter": (
        "plot_faithful_experiment", "plot_losses", "plot_margin_experiment", "plot_update",
        "plotdata", "plotscore",
    ),
    "sgd": (
        "plot_relu_trap", "plot_sgd_bound_experiment", "plot_subgradient_check", "plot_trainers",
    ),
    "black_and_white": (
        "plot_aggressive", "plot_boundaries", "plot_nonseparable", "plot_order_effect",
        "plot_remedies", "plot_remedies_over_seeds", "plot_unguarded",
    ),
    "convergence": ("plot_bound_experiment", "plot_proof_trace", "plot_transformed_runs"),
    "optimality": ("plot_generalization_curve", "plot_scaled_bound"),
    "expressivity": ("plot_loss_surface",),
    "digits": (
        "plot_digit", "plot_digit_weights", "plot_learning_curve", "plot_learning_curves",
        "plot_weights",
    ),
    "multiclass": ("plot_binary_error_rates", "plot_confusion_matrix"),
    "relaxation": ("plot_rule_comparison", "plot_wedge_paths"),
    "distributed": (
        "plot_mixing_bound", "plot_mixing_latency", "plot_mixing_speedup",
        "plot_nonseparable_mixing",
    ),
    "beyond": ("plot_forgetron", "plot_kernel_boundary", "plot_separation"),
    "family": ("plot_alma_margins", "plot_heldout_predictors", "plot_pa_bounds"),
})
