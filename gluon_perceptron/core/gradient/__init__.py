"""The perceptron as gradient descent: its losses, SGD with autograd, and Gluon.

Public names load on first use.
"""

from .._lazy import export

__all__, __getattr__, __dir__ = export(__name__, {
    "losses": ("hinge_loss", "perceptron_loss", "relu_perceptron_loss", "threshold_loss"),
    "subgradients": ("analytic_subgradient", "KINK_FORMS", "kink_gradient"),
    "sgd_update": ("sgd_step",),
    "sgd": ("run_sgd",),
    "autograd": ("train_autograd",),
    "gluon": ("perceptron_net", "PerceptronLoss", "train_gluon"),
})
