"""gluon_perceptron: the Perceptron chapter of *Deep Learning - The Straight Dope* in MXNet.

The chapter's own names are kept: :func:`getfake`, :func:`plotdata`, :func:`plotscore` and
:func:`perceptron`; :func:`train` runs the rule to convergence with a fast exact engine.
"""

from .chapter import (
    EPSILONS,
    MarginExperiment,
    demo,
    margin_experiment,
    margin_experiment_faithful,
    plot_margin_experiment,
    plot_update,
)
from .data import (
    FakeData,
    SamplingError,
    generating_margins,
    getfake,
    pad_constant,
    sample_separable,
    xor_data,
)
from .perceptron import TrainResult, error_rate, perceptron, predict, train
from .plotting import plot_losses, plotdata, plotscore, save_figure
from .theory import bias_bound, chapter_bound, generating_plane_bound, novikoff_bound, radius

__version__ = "0.1.0"

__all__ = [
    "EPSILONS",
    "FakeData",
    "MarginExperiment",
    "SamplingError",
    "TrainResult",
    "bias_bound",
    "chapter_bound",
    "demo",
    "error_rate",
    "generating_margins",
    "generating_plane_bound",
    "getfake",
    "margin_experiment",
    "margin_experiment_faithful",
    "novikoff_bound",
    "pad_constant",
    "perceptron",
    "plot_losses",
    "plot_margin_experiment",
    "plot_update",
    "plotdata",
    "plotscore",
    "predict",
    "radius",
    "sample_separable",
    "save_figure",
    "train",
    "xor_data",
]
