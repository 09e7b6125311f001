"""Main-job section: Optimality and generalization."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from ...experiments.optimality import adversary_run, generalization_experiment
from ..figures import save_figure


def optimality_section(opts) -> list:
    """Theorem 1.34's adversary against the perceptron; the leave-one-out bound."""


    gammas = np.array([0.5, 0.3, 0.2, 0.15, 0.1, 0.07, 0.05])
    dims = 100
    forced = [adversary_run(float(g), dims).mistakes for g in gammas]
    limit = np.minimum(np.floor(1 / gammas**2 * (1 + 1e-12)), dims)
    print(f"adversary (d = {dims}): forced mistakes {forced}, min(1/gamma^2, d) = "
          f"{limit.astype(int).tolist()}")
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    ax = axes[0]
    ax.plot(1 / gammas**2, limit, "k--", label="min(1/gamma^2, d)")
    ax.plot(1 / gammas**2, forced, "o", label="mistakes the adversary forced on the perceptron")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("1 / gamma^2")
    ax.set_ylabel("mistakes")
    ax.set_title(f"Theorem 1.34 (d = {dims})", fontsize=10)
    ax.legend(fontsize=8)

    sizes = [25, 50, 100, 200]
    stats = [generalization_experiment(n, 20, epsilon=0.5, progress=opts.progress)
             for n in sizes]
    ax = axes[1]
    for key, label, style in [("bound", "E[R_a^2/gamma_2^2]/(N+1)", "s--"),
                              ("updates", "mistakes of the full run /(N+1)", "^:"),
                              ("support", "|I|/(N+1) (examples updated on)", "v:"),
                              ("loo", "leave-one-out error", "o-"),
                              ("test", "error on fresh points", "x-")]:
        ax.plot(sizes, [np.mean(s[key]) for s in stats], style, label=label)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xticks(sizes, [str(n) for n in sizes])
    ax.minorticks_off()
    ax.set_xlabel("training points N")
    ax.set_ylabel("rate (mean over 20 draws)")
    ax.set_title("Theorem 2.6: leave-one-out error below E[R^2/gamma^2]/(N+1)", fontsize=10)
    ax.legend(fontsize=7, loc="lower left")
    print(" N    leave-one-out  fresh-test   bound")
    for n, s in zip(sizes, stats):
        print(f" {n:3d}  {s['loo'].mean():13.4f}  {s['test'].mean():10.4f}  "
              f"{s['bound'].mean():6.3f}")
    return [save_figure(fig, opts.out, "07_optimality_generalization")]
