"""Passive-aggressive (PA-I, PA-II) against scikit-learn's PassiveAggressiveClassifier on an
MNIST-shaped set (60,000 x 784; ``--quick``: 6,000), 2 epochs: seconds, the ratio to
scikit-learn (target: at most 1x, issue 31) and whether the weights agree bit for bit.

``python benchmarks/family.py [--quick]``; ``benchmarks/run_all.py`` runs it too.
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings

import numpy as np
from timing import best_time

import gluon_perceptron as gp

TARGET = 1.0  # ours / scikit-learn's time, at most


def mnist_shaped(n: int, d: int = 784, seed: int = 0):
    """Sparse pixels in [0, 1), a planted rule, 10% labels flipped (as run_all's)."""
    rng = np.random.default_rng(seed)
    X = rng.random((n, d))
    X *= rng.random((n, d)) < 0.19
    scores = X @ rng.standard_normal(d)
    Y = np.where(scores > np.median(scores), 1.0, -1.0)
    Y[rng.random(n) < 0.10] *= -1
    return X, Y


def pa_rows(n: int = 60_000, epochs: int = 2, repeat: int = 3) -> list[dict]:
    """One row per variant: scikit-learn's time, ours, the ratio, bit-for-bit agreement."""
    from sklearn.linear_model import PassiveAggressiveClassifier

    X, Y = mnist_shaped(n)
    rows = []
    for variant, loss in (("PA-I", "hinge"), ("PA-II", "squared_hinge")):
        fits = {}

        def theirs(loss=loss, fits=fits):
            clf = PassiveAggressiveClassifier(C=0.1, loss=loss, max_iter=epochs, shuffle=False,
                                              tol=None, fit_intercept=True, average=False)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                clf.fit(X, Y)
            fits["sklearn"] = (clf.coef_[0], clf.intercept_[0])

        def ours(variant=variant, fits=fits):
            r = gp.beyond.passive_aggressive(X, Y, variant=variant, C=0.1, max_epochs=epochs)
            fits["ours"] = (r.w, r.b)

        theirs()
        start = time.perf_counter()
        ours()  # warm-up: numba compiles or loads its cache here
        first = time.perf_counter() - start
        t_sk, t_ours = best_time(theirs, repeat), best_time(ours, repeat)
        same = (np.array_equal(fits["ours"][0], fits["sklearn"][0])
                and fits["ours"][1] == fits["sklearn"][1])
        rows.append({"benchmark": f"passive-aggressive {n}x784, {epochs} epochs",
                     "variant": variant, "sklearn_s": t_sk, "ours_s": t_ours,
                     "ratio": t_ours / t_sk, "identical": same, "first_call_s": first})
    return rows


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true")
    args = p.parse_args(argv)
    rows = pa_rows(6000 if args.quick else 60_000, repeat=2 if args.quick else 3)
    print(f"{'benchmark':40s} {'variant':7s} {'sklearn s':>9s} {'ours s':>8s} {'ratio':>6s} "
          f"{'target':>6s} identical")
    for r in rows:
        print(f"{r['benchmark']:40s} {r['variant']:7s} {r['sklearn_s']:9.3f} {r['ours_s']:8.3f} "
              f"{r['ratio']:6.2f} {'<=' + str(TARGET):>6s} {r['identical']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
