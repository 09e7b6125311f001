"""The theory, computed: separability and margins (linear and quadratic programs), the mistake
bounds, the relaxation method, and what a perceptron can express.

Public names load on first use (SciPy's optimizers only with the functions that need them).
"""

from .._lazy import export

__all__, __getattr__, __dir__ = export(__name__, {
    "separability": ("hinge_separator", "is_separable", "risk_minimum", "signed_rows"),
    "margins": ("optimal_margin", "OptimalMargin", "radius", "separator", "shift_plane_to_origin"),
    "bounds": (
        "amaldi_hauser_bound", "bias_bound", "chapter_bound", "constant_rate_optimum",
        "ConstantRate", "general_bound", "generating_plane_bound", "GeneratingPlaneBound",
        "novikoff_bound", "sgd_bound",
    ),
    "relaxation": (
        "max_violation", "perceptron_system", "relaxation_method", "RelaxationResult",
        "wedge_system",
    ),
    "expressivity": (
        "boolean_data", "BOOLEAN_PERCEPTRONS", "learn_boolean", "total_perceptron_loss",
        "truth_table", "TruthTable", "two_point_data", "xor_cycle", "XorCycle",
    ),
})
