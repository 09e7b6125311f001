"""The theory, computed: separability and margins (linear and quadratic programs), the mistake
bounds, the relaxation method, and what a perceptron can express.

Public names load on first use (SciPy's optimizers only with the functions that need them).
"""

from .._lazy import export

__all__, __getattr__, __dir__ = export(__name__, {
    "separability": ("hinge_separator", "is_separable", "signed_rows"),
    "margins": ("optimal_margin", "radius", "separator", "shift_plane_to_origin"),
    "bounds": (
        "amaldi_hauser_bound", "bias_bound", "chapter_bound", "generating_plane_bound",
        "novikoff_bound",
    ),
    "relaxation": ("perceptron_system", "relaxation_method"),
    "expressivity": (
        "boolean_data", "BOOLEAN_PERCEPTRONS", "learn_boolean", "total_perceptron_loss",
        "two_point_data", "xor_cycle",
    ),
})
