"""Where the time of ``train_autograd`` and ``train_gluon`` goes, per example, next to the
chapter's NDArray step: ``python benchmarks/gradient_profile.py [--n 300] [--epochs 3]``.

The data is the benchmark's (``benchmarks/run_all.py``, section 3: ``sample_separable(n, 2,
0.1)`` after ``mx.random.seed(1)``, 3 epochs). For each trainer it prints the wall time per
example visited and its ratio to the chapter's step (best of a few interleaved repeats), then
one profiled run: the host syncs per example (``asnumpy``, which ``asscalar`` calls), the
backward passes and the steps per example, and the functions that take the most time.

What it shows: on a step that updates, autograd and Gluon cost a recorded forward, a backward
pass and (Gluon) ``Trainer.step``, several times the chapter's step; both trainers take that
step only where the loss is not flat (margin at most the threshold), after the chapter's own
margin test, so on data the perceptron mostly classifies their cost per example is the test's.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from pathlib import Path

import mxnet as mx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import gluon_perceptron as gp  # noqa: E402
from gluon_perceptron.core.gradient.autograd import train_autograd  # noqa: E402
from gluon_perceptron.core.gradient.gluon import train_gluon  # noqa: E402


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--n", type=int, default=300, help="examples (default 300, as run_all)")
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--top", type=int, default=8, help="functions listed per profile")
    args = p.parse_args(argv)
    mx.random.seed(1)
    fake = gp.sample_separable(args.n, 2, 0.1)
    X, Y = fake.X.asnumpy(), fake.Y.asnumpy()
    runs = {"chapter's NDArray step": lambda: gp.train(X, Y, max_epochs=args.epochs,
                                                       engine="faithful"),
            "train_autograd": lambda: train_autograd(X, Y, max_epochs=args.epochs),
            "train_gluon": lambda: train_gluon(X, Y, max_epochs=args.epochs)}
    results = {name: run() for name, run in runs.items()}  # warm-up
    times: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(args.repeat):  # interleaved: a change of load hits every trainer alike
        for name, run in runs.items():
            start = time.perf_counter()
            run()
            times[name].append(time.perf_counter() - start)
    visited = {name: args.n * r.epochs for name, r in results.items()}
    per = {name: min(t) / visited[name] for name, t in times.items()}
    ref = per["chapter's NDArray step"]
    updates = results["chapter's NDArray step"].updates
    print(f"{args.n} examples, {results['train_autograd'].epochs} epochs, {updates} updates "
          f"({updates / visited['train_autograd']:.1%} of the examples visited)\n")
    for name in runs:
        print(f"{name:24s} {1e6 * per[name]:8.1f} us per example   ratio {per[name] / ref:5.2f}")
    for name, run in runs.items():
        profile = cProfile.Profile()
        profile.enable()
        run()
        profile.disable()
        stats = pstats.Stats(profile)
        calls = {func[2]: cc for func, (cc, *_rest) in stats.stats.items()}
        n = visited[name]
        print(f"\n== {name} (profiled once): per example {calls.get('asnumpy', 0) / n:.2f} "
              f"host syncs, {calls.get('backward', 0) / n:.2f} backward passes, "
              f"{calls.get('step', 0) / n:.2f} Trainer.step")
        stats.sort_stats("tottime").print_stats(args.top)
    return 0


if __name__ == "__main__":
    sys.exit(main())
