"""Beyond Rosenblatt benchmarks: ``python benchmarks/beyond.py [--quick]``.

1. The kernel perceptron's fast engine (numpy over the Gram matrix, every score kept up to
   date) against the exact faithful reference (MXNet NDArray, one example at a time, f(x_j)
   recomputed from all alphas), per kernel: seconds, the ratio, microseconds per example
   visited, and whether both made the same updates in every pass (iterations, not only
   seconds). The linear kernel is also timed against ``train`` (the primal rule).
2. The separation problem: iterations and seconds of the perceptron, the smooth and the
   rescaled perceptron on one problem per margin.

Times are the best of a few repeats after a warm-up call. The table is printed and written as
JSON to ``benchmarks/results/beyond.json`` (git-ignored).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

import gluon_perceptron as gp
from gluon_perceptron.core.beyond.solvers import perceptron_separation
from gluon_perceptron.experiments.beyond import two_moons

RESULTS = Path(__file__).resolve().parent / "results"


def best(fn, repeat: int):
    """(best seconds, last result) of ``repeat`` calls after one warm-up call."""
    result = fn()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return min(times), result


def kernel_rows(samples: int, repeat: int) -> list[dict]:
    X, Y = two_moons(samples, noise=0.15, seed=0)
    rows = []
    for kernel in ("linear", "poly", "rbf"):
        kw = {"kernel": kernel, "max_epochs": 20, "degree": 3, "gamma": 1.0}
        fast_s, fast = best(lambda kw=kw: gp.beyond.train_kernel(X, Y, **kw), repeat)
        slow_s, slow = best(lambda kw=kw: gp.beyond.train_kernel(X, Y, engine="faithful", **kw), 1)
        visited = samples * fast.epochs
        rows.append({"benchmark": f"train_kernel {kernel}, n={samples}", "fast_s": fast_s,
                     "faithful_s": slow_s, "ratio": slow_s / fast_s,
                     "fast_us_per_example": 1e6 * fast_s / visited,
                     "faithful_us_per_example": 1e6 * slow_s / visited,
                     "epochs": fast.epochs, "updates": fast.updates,
                     "same_updates": fast.updates_per_epoch == slow.updates_per_epoch
                     and bool(np.array_equal(fast.alpha, slow.alpha))})
        if kernel == "linear":
            primal_s, primal = best(lambda: gp.train(X, Y, max_epochs=20), repeat)
            rows[-1]["train_s"] = primal_s
            rows[-1]["same_as_train"] = primal.updates_per_epoch == fast.updates_per_epoch
    return rows


def separation_rows(gammas, samples: int) -> list[dict]:
    rows = []
    for gamma in gammas:
        P = gp.beyond.separation_problem(samples, 2, gamma, seed=0)
        for solve in (perceptron_separation, gp.beyond.smooth_perceptron,
                      gp.beyond.rescaled_perceptron):
            seconds, run = best(lambda f=solve, A=P.A: f(A, max_iterations=300_000), 1)
            rows.append({"benchmark": f"separation rho={P.rho:.2g}", "method": run.method,
                         "iterations": run.iterations, "converged": run.converged,
                         "seconds": seconds})
    return rows


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes (a smoke run)")
    args = parser.parse_args(argv)
    samples, repeat = (60, 1) if args.quick else (300, 3)
    gammas = (0.1, 0.01) if args.quick else (0.1, 0.01, 0.003, 0.001)
    kernels = kernel_rows(samples, repeat)
    print(f"{'benchmark':32s} {'fast s':>9s} {'faithful s':>11s} {'ratio':>8s} "
          f"{'us/ex fast':>11s} {'us/ex faithful':>15s} {'epochs':>7s} {'updates':>8s} same")
    for r in kernels:
        print(f"{r['benchmark']:32s} {r['fast_s']:9.4f} {r['faithful_s']:11.3f} "
              f"{r['ratio']:8.0f} {r['fast_us_per_example']:11.2f} "
              f"{r['faithful_us_per_example']:15.1f} {r['epochs']:7d} {r['updates']:8d} "
              f"{r['same_updates']}")
        if "train_s" in r:
            print(f"{'  train (primal), same updates':32s} {r['train_s']:9.4f}  "
                  f"{r['same_as_train']}")
    separation = separation_rows(gammas, 100)
    print(f"\n{'benchmark':26s} {'method':11s} {'iterations':>10s} {'seconds':>9s} converged")
    for r in separation:
        print(f"{r['benchmark']:26s} {r['method']:11s} {r['iterations']:10d} "
              f"{r['seconds']:9.4f} {r['converged']}")
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "beyond.json").write_text(json.dumps({"kernel": kernels,
                                                     "separation": separation}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
