"""Figures of optimality and generalization: the adversary, and leave-one-out against N.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
from matplotlib.axes import Axes

from ..core._validation import flag, names, unchecked, validate_params
from ..experiments.optimality import AdversaryCurve, GeneralizationCurve

#: What :func:`plot_generalization_curve` draws, in order: key, label, style.
_CURVES = (("bound", "E[R_a^2/gamma_2^2]/(N+1)", "s--"),
           ("updates", "mistakes of the full run /(N+1)", "^:"),
           ("support", "|I|/(N+1) (examples updated on)", "v:"),
           ("loo", "leave-one-out error", "o-"),
           ("test", "error on fresh points", "x-"))

def plot_adversary(curve: AdversaryCurve, ax=None) -> Axes:
    """Theorem 1.34: forced mistakes against :math:`1/\\gamma^2`, with
    :math:`\\min(1/\\gamma^2, d)`."""
    if ax is None:
        _, ax = plt.subplots(figsize=(5.5, 4))
    x = 1 / curve.gammas**2
    ax.plot(x, curve.limit, "k--", label="min(1/gamma^2, d)")
    ax.plot(x, curve.forced, "o", label="mistakes the adversary forced on the perceptron")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("1 / gamma^2")
    ax.set_ylabel("mistakes")
    ax.set_title(f"Theorem 1.34 (d = {curve.dimensions})", fontsize=10)
    ax.legend(fontsize=10)
    return ax


@validate_params(curve=unchecked, keys=names(*(key for key, _, _ in _CURVES)), errorbars=flag())
def plot_generalization_curve(curve: GeneralizationCurve, ax=None, *,
                              keys=("bound", "updates", "support", "loo", "test"),
                              errorbars: bool = False) -> Axes:
    """Theorem 2.6: mean rates against the training size :math:`N`, on log-log axes.

    Every :math:`N` gets a labelled tick. With ``errorbars`` each mean carries its standard
    error over the draws.
    """
    if ax is None:
        _, ax = plt.subplots(figsize=(6.5, 4.2))
    for key, label, style in _CURVES:
        if key not in keys:
            continue
        means = curve.means(key)
        if errorbars:
            ax.errorbar(curve.sizes, means, yerr=curve.sems(key), fmt=style, capsize=3,
                        label=label)
        else:
            ax.plot(curve.sizes, means, style, label=label)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xticks(curve.sizes, [str(n) for n in curve.sizes])
    ax.minorticks_off()
    ax.set_xlabel("training points N")
    ax.set_ylabel(f"rate (mean over {curve.runs[0].draws} draws)")
    ax.set_title("Theorem 2.6: leave-one-out error below E[R^2/gamma^2]/(N+1)", fontsize=10)
    ax.legend(fontsize=10, loc="lower left")
    return ax


def plot_scaled_bound(curve: GeneralizationCurve, ax=None) -> Axes:
    """:math:`(N+1)` times each mean rate: flat for a rate that falls exactly like
    :math:`1/N`, rising for one that falls more slowly. Error bars: standard errors."""
    if ax is None:
        _, ax = plt.subplots(figsize=(6.5, 4.2))
    scale = curve.sizes + 1
    for key, label, style in (_CURVES[0], _CURVES[3]):
        ax.errorbar(curve.sizes, curve.scaled(key), yerr=scale * curve.sems(key), fmt=style,
                    capsize=3, label=f"(N+1) x {label}")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xticks(curve.sizes, [str(n) for n in curve.sizes])
    ax.minorticks_off()
    ax.set_xlabel("training points N")
    ax.set_ylabel("(N + 1) x mean")
    ax.legend(fontsize=10)
    return ax
