"""Time and memory of the separability and hinge LPs on MNIST-sized data (not a test).

Run one size per process so the peak resident memory belongs to it::

    /usr/bin/time -v .venv/bin/python benchmarks/separability.py 40000 2
    /usr/bin/time -v .venv/bin/python benchmarks/separability.py 60000 50

Prints the time of ``is_separable`` on separable data (a margin of 0.01 around a random
plane) and on the same data with 1 % of the labels flipped, and of ``hinge_separator`` with
``--hinge``. Before the sparse constraint matrices, 40,000 points built a dense 40,000 x 40,000
matrix (12 GiB).
"""

from __future__ import annotations

import argparse
import resource
import time

import numpy as np

import gluon_perceptron as gp


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", type=int)
    parser.add_argument("d", type=int)
    parser.add_argument("--hinge", action="store_true", help="also time hinge_separator")
    args = parser.parse_args()
    gp.theory.is_separable(np.eye(2), np.array([1.0, -1.0]))  # imports (MXNet, SciPy) not timed
    rng = np.random.default_rng(0)
    w = rng.normal(size=args.d)
    w /= np.linalg.norm(w)
    X = rng.normal(size=(args.n, args.d))
    f = X @ w + 0.1
    X[np.abs(f) < 0.01] += 0.02 * np.sign(f[np.abs(f) < 0.01])[:, None] * w
    Y = np.sign(X @ w + 0.1)
    noisy = Y.copy()
    noisy[rng.choice(args.n, args.n // 100, replace=False)] *= -1
    runs = [("is_separable (separable)", lambda: gp.theory.is_separable(X, Y)),
            ("is_separable (1% flipped)", lambda: gp.theory.is_separable(X, noisy)),
            ("is_separable (X * 1e-10)", lambda: gp.theory.is_separable(X * 1e-10, Y))]
    if args.hinge:
        runs.append(("hinge_separator (1% flipped)",
                     lambda: gp.theory.hinge_separator(X, noisy)[2]))
    for name, call in runs:
        start = time.perf_counter()
        answer = call()
        print(f"{args.n} x {args.d}  {name:30s} -> {answer!s:22.22s} "
              f"{time.perf_counter() - start:7.2f} s", flush=True)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak resident memory of the process: {peak:.0f} MiB")


if __name__ == "__main__":
    main()
