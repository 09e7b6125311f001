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
3. Shards from files: the calling process's peak memory for in-memory input (the user's
   ``X, Y``, loaded from the same files) and for ``shards=`` input, as n grows (W = 2, one
   round; the Python/numpy allocations traced by ``tracemalloc``, and the peak resident set
   after resetting it through ``/proc/self/clear_refs`` where Linux allows).
4. W = 1 against W = 2 on shard files of a set whose local passes dominate the exchanges
   (n = 400,000 x 100, float32, not separable, 50 rounds): the rounds' time
   (the slowest worker's passes plus its exchanges), start-up and the whole call beside.

5. What the network costs (needs root: skipped with the reason otherwise): W = 2 across three
   network namespaces (``tools/netns.py``: the scheduler and the server in one, a worker in
   each of the others, started by ``train_distributed(hosts=...)`` through ``ip netns exec``),
   every packet leaving a namespace delayed by ``tc netem`` 0, 1 and 10 ms (a round trip
   between two namespaces: 0, 2, 20 ms more): the start-up, the median exchange and the median
   local pass per round, beside the local passes of W = 1 and W = 2 in one process that the
   rounds must beat, and the round trips an exchange costs, fitted (the model of notebook 12:
   mixing pays when rounds x (exchange + k x round trip) is less than the pass time saved).

Every cluster runs on this machine, so W workers share its cores: on a 2-core machine W = 4
cannot be faster than W = 2. Prints a table; writes ``benchmarks/results/distributed.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import tempfile
import time
import tracemalloc
from pathlib import Path

import numpy as np

import gluon_perceptron as gp
from gluon_perceptron.core.distributed.cluster_training import _train_distributed

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
            gp.distributed.mixing_round(theta, [(Xp, Yp)])  # the row ends with the pass's seconds
            local = min(gp.distributed.mixing_round(theta, [(Xp, Yp)])[0][0, -1]
                        for _ in range(5))
            exchange = float(np.nanmedian(r.exchange_seconds))
            rows.append({"workers": W, "d": d, "exchange_ms": 1e3 * exchange,
                         "pass_1000_ms": 1e3 * local, "exchange_over_pass": exchange / local})
    return rows


def _write_shards(folder: Path, X: np.ndarray, Y: np.ndarray, W: int) -> list:
    """The blocks of ``shard_bounds(n, W)`` as ``.npy`` pairs."""
    pairs = []
    for i, (a, b) in enumerate(gp.distributed.shard_bounds(X.shape[0], W)):
        fx, fy = folder / f"x{W}-{i}.npy", folder / f"y{W}-{i}.npy"
        np.save(fx, X[a:b])
        np.save(fy, Y[a:b])
        pairs.append((fx, fy))
    return pairs


def _reset_peak_rss() -> int | None:
    """Reset this process's peak resident set (Linux: ``/proc/self/clear_refs``); return the
    resident set now in bytes, or None where that is not possible."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return _status("VmRSS")
    except OSError:
        return None


def _status(field: str) -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    raise KeyError(field)


def memory_table(ns, d: int) -> list[dict]:
    """Peak memory of the calling process: in-memory ``X, Y`` against ``shards=`` files."""
    rows = []
    rng = np.random.default_rng(0)
    for n in ns:
        with tempfile.TemporaryDirectory(prefix="gp-bench-shards-") as tmp:
            X = rng.normal(size=(n, d))
            Y = np.where(X[:, 0] > 0, 1.0, -1.0)
            pairs = _write_shards(Path(tmp), X, Y, 2)
            np.save(Path(tmp) / "X.npy", X)
            np.save(Path(tmp) / "Y.npy", Y)
            del X, Y
            for source in ("in memory", "shards"):
                base = _reset_peak_rss()
                tracemalloc.start()
                start = time.perf_counter()
                if source == "in memory":  # the user holds the rows, then calls
                    Xm, Ym = np.load(Path(tmp) / "X.npy"), np.load(Path(tmp) / "Y.npy")
                    gp.distributed.train_distributed(Xm, Ym, workers=2, max_epochs=1,
                                                     timeout=3600)
                    del Xm, Ym
                else:
                    gp.distributed.train_distributed(shards=pairs, max_epochs=1, timeout=3600)
                seconds = time.perf_counter() - start
                traced = tracemalloc.get_traced_memory()[1]
                tracemalloc.stop()
                rss = None if base is None else _status("VmHWM") - base
                rows.append({"n": n, "d": d, "data_mb": n * (d + 1) * 8 / 2**20,
                             "input": source, "traced_peak_mb": traced / 2**20,
                             "rss_peak_growth_mb": None if rss is None else rss / 2**20,
                             "call_seconds": seconds})
    return rows


def scaling_table(n: int, d: int, rounds: int) -> list[dict]:
    """W = 1 and 2 on shard files of a non-separable set: a fixed number of rounds."""
    rng = np.random.default_rng(1)
    X = rng.normal(size=(n, d)).astype(np.float32)
    Y = np.where(X[:, 0] + 0.5 * rng.normal(size=n) > 0, 1.0, -1.0).astype(np.float32)
    rows = []
    with tempfile.TemporaryDirectory(prefix="gp-bench-shards-") as tmp:
        shards = {W: _write_shards(Path(tmp), X, Y, W) for W in (1, 2)}
        del X, Y
        for W in (1, 2):
            start = time.perf_counter()
            r = gp.distributed.train_distributed(shards=shards[W], max_epochs=rounds,
                                                 timeout=3600, round_timeout=600)
            whole = time.perf_counter() - start
            passes = float(r.pass_seconds.sum(axis=0).max())
            exchanges = float(np.nansum(r.exchange_seconds, axis=0).max())
            rows.append({"workers": W, "n": n, "d": d, "rounds": r.epochs,
                         "rounds_seconds": passes + exchanges, "pass_seconds": passes,
                         "exchange_seconds": exchanges, "startup_seconds": r.startup_seconds,
                         "call_seconds": whole, "updates": r.updates})
    base = rows[0]["rounds_seconds"]
    for row in rows:
        row["speedup"] = base / row["rounds_seconds"]
    return rows


def latency_table(n: int, d: int, rounds: int, delays=(0, 1, 10)) -> list[dict]:
    """W = 2 across network namespaces with each namespace's packets delayed by ``delays`` ms."""
    import signal
    import subprocess
    import sys

    from gluon_perceptron.core.distributed.hostlist import Host

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
    from netns import NETNS, Net, free_subnet

    if os.geteuid() != 0:
        return [{"skipped": "network namespaces need root"}]
    subnet = free_subnet()
    if subnet is None:
        return [{"skipped": "no free /24 of 198.18.0.0/15"}]
    rng = np.random.default_rng(2)
    X = rng.normal(size=(n, d)).astype(np.float32)
    Y = np.where(X[:, 0] + 0.5 * rng.normal(size=n) > 0, 1.0, -1.0).astype(np.float32)
    local = {W: gp.distributed.train_mixed(X, Y, shards=W, max_epochs=rounds) for W in (1, 2)}
    pass_1 = float(np.median(local[1].pass_seconds.max(axis=1)))
    pass_2 = float(np.median(local[2].pass_seconds.max(axis=1)))
    net = Net(f"gpb{os.getpid() % 10000}", subnet)
    rows = []
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # `kill` still removes the net
    try:
        net.build()
        hosts = [Host(name, address) for name, address in net.hosts]
        with tempfile.TemporaryDirectory(prefix="gp-bench-latency-") as tmp:
            shards = _write_shards(Path(tmp), X, Y, 2)
            for delay in delays:
                mechanism = net.delay(delay)
                start = time.perf_counter()
                r = gp.distributed.train_distributed(shards=shards, max_epochs=rounds,
                                                     hosts=hosts, remote=NETNS, timeout=3600,
                                                     round_timeout=600)
                whole = time.perf_counter() - start
                exchange = np.nanmax(r.exchange_seconds, axis=1)  # the slower worker's
                rows.append({"delay_ms": delay, "round_trip_ms": 2 * delay, "n": n, "d": d,
                             "mechanism": mechanism,
                             "rounds": r.epochs, "startup_seconds": r.startup_seconds,
                             "call_seconds": whole,
                             "exchange_ms": 1e3 * float(np.median(exchange)),
                             "pass_ms": 1e3 * float(np.median(r.pass_seconds.max(axis=1))),
                             "local_pass_w1_ms": 1e3 * pass_1, "local_pass_w2_ms": 1e3 * pass_2,
                             "saved_per_round_ms": 1e3 * (pass_1 - pass_2)})
    except subprocess.CalledProcessError as exc:
        return [{"skipped": f"network namespaces cannot be made here: {exc.stderr}"}]
    finally:
        net.remove()
    base = rows[0]["exchange_ms"]
    for row in rows:  # how many round trips an exchange costs: (exchange - at 0 ms) / RTT
        rtt = row["round_trip_ms"]
        row["round_trips_per_exchange"] = (row["exchange_ms"] - base) / rtt if rtt else None
    return rows


def _print_latency(rows: list[dict]) -> None:
    if rows and "skipped" in rows[0]:
        print(f"\nlatency across namespaces: skipped ({rows[0]['skipped']})")
        return
    print(f"\n{'delay ms':>8s} {'RTT ms':>6s} {'start-up s':>10s} {'exchange ms':>11s} "
          f"{'RTTs/exch':>9s} {'pass ms':>8s} {'W=1 pass ms':>11s} {'W=2 pass ms':>11s} "
          f"{'call s':>7s}")
    for r in rows:
        k = "" if r["round_trips_per_exchange"] is None else f"{r['round_trips_per_exchange']:.2f}"
        print(f"{r['delay_ms']:8g} {r['round_trip_ms']:6g} {r['startup_seconds']:10.2f} "
              f"{r['exchange_ms']:11.2f} {k:>9s} {r['pass_ms']:8.2f} "
              f"{r['local_pass_w1_ms']:11.2f} {r['local_pass_w2_ms']:11.2f} "
              f"{r['call_seconds']:7.2f}")
    print(f"(delays by {rows[-1]['mechanism']}; mixing pays per round when the exchange "
          f"costs less than the pass time saved, W=1 pass - W=2 pass)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes (a smoke run)")
    parser.add_argument("--shards-only", action="store_true",
                        help="only tables 3 and 4 (shards from files)")
    parser.add_argument("--latency-only", action="store_true",
                        help="only table 5 (across network namespaces, as root)")
    args = parser.parse_args()
    latency_size = (4000, 100, 20) if args.quick else (100_000, 100, 30)
    if args.latency_only:
        latency = latency_table(*latency_size)
        _print_latency(latency)
        RESULTS.mkdir(exist_ok=True)
        out = RESULTS / ("distributed-latency" + ("-quick" if args.quick else "") + ".json")
        out.write_text(json.dumps({"machine": platform.platform(), "cpus": os.cpu_count(),
                                   "load": os.getloadavg(), "latency": latency}, indent=1))
        print(f"\nwritten {out}")
        return
    n, d, dims = (2000, 100, (10, 1000)) if args.quick else (20_000, 785,
                                                             (10, 100, 1000, 10_000, 100_000))
    passes = [] if args.shards_only else passes_table(n, d, 3000)
    exchanges = [] if args.shards_only else exchange_table(dims, 30)
    if passes:
        print(f"{'method':26s} {'W':>2s} {'passes':>7s} {'ratio':>6s} {'updates':>8s} "
              f"{'seconds':>8s} {'ratio':>6s}  details")
    for r in passes:
        extra = ", ".join(f"{k} {v:.2f}" for k, v in r.items() if k.endswith("seconds")
                          and k != "seconds")
        print(f"{r['method']:26s} {r['workers']:2d} {r['passes']:7d} {r['passes_ratio']:6.2f} "
              f"{r['updates']:8d} {r['seconds']:8.2f} {r['seconds_ratio']:6.2f}  {extra}")
    if exchanges:
        print(f"\n{'W':>2s} {'d':>7s} {'exchange ms':>12s} {'pass of 1000 ms':>16s} "
              f"{'ratio':>7s}")
    for r in exchanges:
        print(f"{r['workers']:2d} {r['d']:7d} {r['exchange_ms']:12.3f} {r['pass_1000_ms']:16.3f} "
              f"{r['exchange_over_pass']:7.2f}")
    memory = memory_table((20_000, 40_000) if args.quick else (100_000, 200_000, 400_000), 100)
    print(f"\n{'n':>8s} {'data MB':>8s} {'input':>10s} {'traced peak MB':>15s} "
          f"{'RSS growth MB':>14s} {'call s':>7s}")
    for r in memory:
        rss = "n/a" if r["rss_peak_growth_mb"] is None else f"{r['rss_peak_growth_mb']:.1f}"
        print(f"{r['n']:8d} {r['data_mb']:8.1f} {r['input']:>10s} {r['traced_peak_mb']:15.1f} "
              f"{rss:>14s} {r['call_seconds']:7.2f}")
    scaling = scaling_table(*((40_000, 100, 10) if args.quick else (400_000, 100, 50)))
    print(f"\n{'W':>2s} {'rounds':>6s} {'rounds s':>9s} {'passes s':>9s} {'exchanges s':>12s} "
          f"{'speed-up':>8s} {'start-up s':>10s} {'call s':>7s}")
    for r in scaling:
        print(f"{r['workers']:2d} {r['rounds']:6d} {r['rounds_seconds']:9.2f} "
              f"{r['pass_seconds']:9.2f} {r['exchange_seconds']:12.3f} {r['speedup']:8.2f} "
              f"{r['startup_seconds']:10.2f} {r['call_seconds']:7.2f}")
    print(f"(on {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}: the two workers of "
          f"W = 2 share the cores with the servers, the scheduler and anything else running)")
    latency = latency_table(*latency_size)
    _print_latency(latency)
    RESULTS.mkdir(exist_ok=True)
    out = RESULTS / (("distributed-quick" if args.quick else "distributed")
                     + ("-shards" if args.shards_only else "") + ".json")
    out.write_text(json.dumps({"machine": platform.platform(), "cpus": os.cpu_count(),
                               "load": os.getloadavg(), "passes": passes,
                               "exchanges": exchanges, "shard_memory": memory,
                               "shard_scaling": scaling, "latency": latency}, indent=1))
    print(f"\nwritten {out}")


if __name__ == "__main__":
    main()
