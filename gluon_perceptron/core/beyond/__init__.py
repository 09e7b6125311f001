"""Beyond Rosenblatt: the kernel perceptron and the Forgetron, the second-order perceptron, the
smooth and rescaled perceptrons for the separation problem, and the perceptron's family:
passive-aggressive, voted and ALMA.

Public names load on first use.
"""

from .._lazy import export

__all__, __getattr__, __dir__ = export(__name__, {
    "kernels": ("KernelFunction",),
    "kernel_perceptron": ("feature_margin", "FeatureMargin", "KernelPerceptron", "train_kernel"),
    "budget": ("forgetron", "forgetron_bound", "forgetron_radius", "ForgetronRun"),
    "second_order": ("second_order_bound", "SecondOrderRun", "train_second_order"),
    "separation": (
        "perceptron_separation_bound", "phase_length", "rescaled_bound", "separation_margin",
        "separation_problem", "SeparationProblem", "signed_unit_rows", "smooth_bound",
    ),
    "passive": ("pa_mistake_bound", "passive_aggressive"),
    "voting": ("KernelVotedPerceptron", "predict_voted", "train_voted", "train_voted_kernel",
               "voted_bound", "VotedPerceptron"),
    "approximate_margin": ("alma", "alma_bound", "normalized_rows"),
    "solvers": (
        "perceptron_separation", "rescaled_perceptron", "SeparationRun", "smooth_perceptron",
    ),
})
