"""The perceptron as gradient descent: its losses, SGD with autograd, and Gluon.

Public names load on first use.
"""

from .._lazy import export

__all__, __getattr__, __dir__ = export(__name__, {
    "losses": (
        "analytic_subgradient", "average_loss", "hinge_loss", "KINK_FORMS", "kink_gradient",
        "perceptron_loss", "relu_perceptron_loss", "threshold_loss",
    ),
    "sgd": (
        "clip_gradient", "constant_rate", "inverse_sqrt_rate", "project_to_ball", "run_sgd",
        "sgd_step", "SGDResult",
    ),
    "autograd": ("train_autograd",),
    "gluon": ("perceptron_net", "PerceptronLoss", "train_gluon"),
})
