"""The perceptron on many machines, timed: ``python benchmarks/distributed.py [--quick]``.

1. Passes and wall time to separate a hard separable set (``hard_separable``: 20,000 x 785,
   margin 0.1, float32) with ``train`` and with iterative parameter mixing for W = 1, 2, 4,
   uniform and weighted: in one process (``train_mixed``; its "parallel" time is the slowest
   shard's passes, what W machines would need if exchanges were free) and on the parameter
   server (``train_distributed`` on 127.0.0.1, both mixings as two jobs of one cluster per W:
   "seconds" is the rounds, the slowest worker's passes plus its exchanges; start-up and the
   whole call are listed beside). Ratios are to ``train``.
2. The time of one exchange (push + pull of the W x (d + 3) rows) against d, for W = 2 and 4,
   beside the time of one local pass over 1,000 examples of that d.

Every cluster runs on this machine, so W workers share its cores: on a 2-core machine W = 4
cannot be faster than W = 2. Prints a table; writes ``benchmarks/results/distributed.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from pathlib import Path

import numpy as np

import gluon_perceptron as gp
from gluon_perceptron.core.distributed.mixing import _local_pass
from gluon_perceptron.core.distributed.training import _train_distributed

RESULTS = Path(__file__).resolve().parent / "results"


def passes_table(n: int, d: int, max_epochs: int) -> list[dict]:
    X, Y = gp.experiments.hard_separable(n, d, 0.1, seed=0)
    gp.train(X[:100], Y[:100], max_epochs=2)  # warm-up: numba's cache load
    start = time.perf_counter()
    ref = gp.train(X, Y, max_epochs=max_epochs)
    t_train = time.perf_counter() - start
    rows = [{"method": "train", "workers": 1, "passes": ref.epochs, "updates": ref.updates,
             "converged": ref.converged, "seconds": t_train}]
    for W in (1, 2, 4):
        for mixing in ("uniform", "weighted"):
            m = gp.distributed.train_mixed(X, Y, shards=W, max_epochs=max_epochs, mixing=mixing)
            rows.append({"method": f"train_mixed {mixing}", "workers": W, "passes": m.epochs,
                         "updates": m.updates, "converged": m.converged,
                         "seconds": float(m.pass_seconds.sum()),
                         "parallel_seconds": float(m.pass_seconds.sum(axis=0).max())})
    for W in (1, 2, 4):
        start = time.perf_counter()
        runs = _train_distributed([(X, Y, max_epochs, "uniform"), (X, Y, max_epochs, "weighted")],
                                  workers=W, timeout=3600)
        whole = time.perf_counter() - start
        for r in runs:
            passes = float(r.pass_seconds.sum(axis=0).max())
            exchanges = float(np.nansum(r.exchange_seconds, axis=0).max())
            rows.append({"method": f"cluster {r.mixing}", "workers": W, "passes": r.epochs,
                         "updates": r.updates, "converged": r.converged,
                         # the rounds: the slowest worker's passes plus its exchanges
                         "seconds": passes + exchanges, "pass_seconds": passes,
                         "exchange_seconds": exchanges, "startup_seconds": r.startup_seconds,
                         "call_seconds_both_jobs": whole})
    for row in rows:
        row["passes_ratio"] = row["passes"] / ref.epochs
        row["seconds_ratio"] = row["seconds"] / t_train
    return rows


def exchange_table(dims, rounds: int) -> list[dict]:
    rng = np.random.default_rng(0)
    rows = []
    for W in (2, 4):
        jobs = []
        for d in dims:
            # pairs (x, +1), (x, -1) in every shard: a mistake every round, no early stop
            X = np.repeat(rng.normal(size=(2 * W, d)).astype(np.float32), 2, axis=0)
            Y = np.tile(np.float32([1.0, -1.0]), 2 * W)
            jobs.append((X, Y, rounds, "uniform"))
        for d, r in zip(dims, _train_distributed(jobs, workers=W, timeout=3600)):
            Xp = rng.normal(size=(1000, d)).astype(np.float32)
            Yp = np.where(rng.random(1000) < 0.5, 1.0, -1.0).astype(np.float32)
            theta = np.zeros(d + 1, dtype=np.float32)
            _local_pass(Xp, Yp, theta, 1.0)
            local = min(_local_pass(Xp, Yp, theta, 1.0)[1] for _ in range(5))
            exchange = float(np.nanmedian(r.exchange_seconds))
            rows.append({"workers": W, "d": d, "exchange_ms": 1e3 * exchange,
                         "pass_1000_ms": 1e3 * local, "exchange_over_pass": exchange / local})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes (a smoke run)")
    args = parser.parse_args()
    n, d, dims = (2000, 100, (10, 1000)) if args.quick else (20_000, 785,
                                                             (10, 100, 1000, 10_000, 100_000))
    passes = passes_table(n, d, 3000)
    print(f"{'method':26s} {'W':>2s} {'passes':>7s} {'ratio':>6s} {'updates':>8s} "
          f"{'seconds':>8s} {'ratio':>6s}  details")
    for r in passes:
        extra = ", ".join(f"{k} {v:.2f}" for k, v in r.items() if k.endswith("seconds")
                          and k != "seconds")
        print(f"{r['method']:26s} {r['workers']:2d} {r['passes']:7d} {r['passes_ratio']:6.2f} "
              f"{r['updates']:8d} {r['seconds']:8.2f} {r['seconds_ratio']:6.2f}  {extra}")
    exchanges = exchange_table(dims, 30)
    print(f"\n{'W':>2s} {'d':>7s} {'exchange ms':>12s} {'pass of 1000 ms':>16s} {'ratio':>7s}")
    for r in exchanges:
        print(f"{r['workers']:2d} {r['d']:7d} {r['exchange_ms']:12.3f} {r['pass_1000_ms']:16.3f} "
              f"{r['exchange_over_pass']:7.2f}")
    RESULTS.mkdir(exist_ok=True)
    out = RESULTS / ("distributed-quick.json" if args.quick else "distributed.json")
    out.write_text(json.dumps({"machine": platform.platform(), "cpus": os.cpu_count(),
                               "load": os.getloadavg(), "passes": passes,
                               "exchanges": exchanges}, indent=1))
    print(f"\nwritten {out}")


if __name__ == "__main__":
    main()
