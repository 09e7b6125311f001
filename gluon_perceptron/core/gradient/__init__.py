"""The perceptron as gradient descent: its losses, SGD with autograd, and Gluon.

Public names load on first use.
"""

from .._lazy import export

__all__, __getattr__, __dir__ = export(__name__, {
    "losses": (
        "hinge_loss", "perceptron_loss", "relu_perceptron_loss", "score", "threshold_loss",
    ),
    "subgradients": ("analytic_subgradient", "average_loss", "KINK_FORMS", "kink_gradient"),
    "steps": (
        "clip_gradient", "constant_rate", "inverse_sqrt_rate", "project_to_ball", "sgd_step",
    ),
    "sgd": ("run_sgd", "SGDResult"),
    "autograd": ("train_autograd",),
    "gluon": ("perceptron_net", "PerceptronLoss", "train_gluon"),
})
