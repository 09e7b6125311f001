"""Beyond Rosenblatt: the kernel perceptron and the Forgetron, the second-order perceptron, the
smooth and rescaled perceptrons for the separation problem, and the perceptron's family:
passive-aggressive, voted and ALMA.

Public names load on first use.
"""

from .._lazy import export

__all__, __getattr__, __dir__ = export(__name__, {
    "kernel_perceptron": ("feature_margin", "train_kernel"),
    "budget": ("forgetron",),
    "second_order": ("train_second_order",),
    "separation": ("separation_problem",),
    "passive": ("passive_aggressive",),
    "voting": ("predict_voted", "train_voted", "train_voted_kernel"),
    "approximate_margin": ("alma",),
    "solvers": ("rescaled_perceptron", "smooth_perceptron"),
})
