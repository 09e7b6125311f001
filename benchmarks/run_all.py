"""All benchmarks in one run: ``bash run.sh bench`` (or ``python benchmarks/run_all.py``).

Prints one table and writes it as JSON to ``benchmarks/results/`` (git-ignored):

1. ``train`` (fast engine: compiled, and its pure-numpy fallback) against scikit-learn's
   ``Perceptron(shuffle=False, eta0=1, alpha=0, tol=None)`` and the chapter's faithful NDArray
   loop, on the digits (1,797 x 64, 5 epochs) and on a synthetic MNIST-shaped set
   (60,000 x 784 float32, 2 epochs, noisy labels so about a quarter of the examples update):
   time, ratio to scikit-learn, peak memory, and whether the weights agree bit for bit.
2. The updates-vs-margin experiment: the batched corrected experiment (170 runs) against the
   chapter's faithful experiment.
3. The autograd and Gluon paths per example against the faithful NDArray step (when the
   package has them).
4. The whole main job ``python -m gluon_perceptron`` against the faithful experiment (issue 21:
   at most 15 %), with its slowest sections from the ``index.json`` it writes.
5. Each notebook from kernel start to its last cell (``benchmarks/notebooks.py``; issue 27:
   at most 10 s), one row per notebook, its ratio to the 10 s target.
6. The share of input validation in ``train_pocket`` on 1000 x 20, 50 epochs (issue 10: at
   most 5 %), and the outer validation calls of one call of ``train_pocket`` and four
   experiments (issue 18: at most 10 each; ``benchmarks/validation_share.py``).
7. Passive-aggressive (PA-I, PA-II) against scikit-learn's ``PassiveAggressiveClassifier`` on
   an MNIST-shaped 60,000 x 784, 2 epochs (issue 31: at most 1x; ``benchmarks/family.py``).

At the end, issue 21's table: each workload now, its target and whether this run meets it,
every ratio measured against its reference in the same run (``bash run.sh test``'s time is not
measured here: time it on its own).

Times are the best of a few repeats after a warm-up call (so numba's one-off compilation or
cache load is reported separately, not counted). Peak memory is what ``tracemalloc`` sees
(Python and numpy allocations, including scikit-learn's float64 copy), measured in a separate
call; MXNet allocates outside Python, so its rows show ``n/a``.

Options: ``--quick`` shrinks every size (a smoke run of a few seconds, numbers not for
quoting); ``--faithful-fraction F`` runs the faithful experiment on that fraction of its 10
trials and extrapolates (default 1: the whole experiment, 1 to 2 minutes).
"""

from __future__ import annotations

import argparse
import datetime as dt
import importlib
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
import tracemalloc
import warnings
from dataclasses import asdict, dataclass
from pathlib import Path

os.environ.setdefault("MPLBACKEND", "Agg")

import mxnet as mx  # noqa: E402
import numpy as np  # noqa: E402

import gluon_perceptron as gp  # noqa: E402
from gluon_perceptron.experiments.chapter import EPSILONS  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
import family  # noqa: E402
import validation_share  # noqa: E402
from timing import REFERENCE_YARDSTICK_SECONDS, best_time, interleaved_best  # noqa: E402

import notebooks as notebook_runs  # noqa: E402

perceptron_module = importlib.import_module("gluon_perceptron.core.rosenblatt.engine")
RESULTS = Path(__file__).resolve().parent / "results"


@dataclass
class Row:
    """One line of the table."""

    benchmark: str
    method: str
    seconds: float
    examples: int | None = None  # examples visited (for per-example times)
    ratio: float | None = None  # seconds / the reference row's seconds
    reference: str = ""
    peak_mb: float | None = None
    agrees: str = ""  # how the weights compare with the reference weights
    note: str = ""

    @property
    def us_per_example(self) -> float | None:
        return None if not self.examples else 1e6 * self.seconds / self.examples


def peak_mb(fn) -> float:
    """Peak memory traced by ``tracemalloc`` during one call of ``fn``, in MB."""
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1] / 1e6
    finally:
        tracemalloc.stop()


def machine() -> dict:
    """What the numbers were measured on."""
    model = platform.processor()
    try:
        for line in subprocess.run(["lscpu"], capture_output=True, text=True).stdout.splitlines():
            if line.startswith("Model name:"):
                model = line.split(":", 1)[1].strip()
    except OSError:
        pass
    versions = {}
    for name in ("numpy", "mxnet", "numba", "sklearn"):
        try:
            versions[name] = importlib.import_module(name).__version__
        except ImportError:
            versions[name] = "not installed"
    return {"cpu": model, "cores": os.cpu_count(), "python": platform.python_version(),
            "fast_backend": perceptron_module.FAST_BACKEND, **versions}


# --- 1. train vs scikit-learn vs the faithful loop -----------------------------------------

def sklearn_fit(X, Y, epochs: int):
    """scikit-learn's Perceptron with the perceptron's own settings; returns (w, b)."""
    from sklearn.linear_model import Perceptron

    clf = Perceptron(shuffle=False, eta0=1.0, alpha=0.0, tol=None, max_iter=epochs,
                     fit_intercept=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # ConvergenceWarning: tol=None runs every pass
        clf.fit(X, Y)
    return clf.coef_[0], float(clf.intercept_[0])


def with_backend(backend: str, fn):
    """Call ``fn`` with the fast engine forced to ``backend``."""
    saved = perceptron_module.FAST_BACKEND
    perceptron_module.FAST_BACKEND = backend
    try:
        return fn()
    finally:
        perceptron_module.FAST_BACKEND = saved


def same(a, b) -> str:
    """'identical' if the weights and biases agree bit for bit, else the largest difference."""
    (wa, ba), (wb, bb) = a, b
    if np.array_equal(wa, wb) and ba == bb:
        return "identical"
    return f"DIFFER (max |dw| = {np.max(np.abs(np.asarray(wa, float) - wb)):.3g})"


def digits_data():
    from sklearn.datasets import load_digits

    digits = load_digits()
    return digits.data.astype(np.float64), np.where(digits.target == 0, 1.0, -1.0)


def mnist_shaped(n: int, d: int = 784, seed: int = 0):
    """MNIST-shaped synthetic data: sparse pixels in [0, 1), a planted rule, 10% labels flipped."""
    rng = np.random.default_rng(seed)
    X = rng.random((n, d), dtype=np.float32)
    X *= rng.random((n, d), dtype=np.float32) < 0.19  # MNIST has ~19% non-zero pixels
    scores = X @ rng.standard_normal(d).astype(np.float32)
    Y = np.where(scores > np.median(scores), 1.0, -1.0)
    Y[rng.random(n) < 0.10] *= -1
    return X, Y


def bench_train(name: str, X32, Y, epochs: int, repeat: int, faithful_rows: int) -> list[Row]:
    """train (compiled, numpy) vs scikit-learn vs the faithful loop on one dataset.

    Weights are compared bit for bit: float64 runs with scikit-learn (which computes in
    float64), float32 runs of the two backends with each other, and the faithful loop with the
    fast engine on the examples it ran on.
    """
    X64 = X32.astype(np.float64)
    n = X32.shape[0]
    fits = {}  # method key -> (w, b)

    def sk():
        fits["sklearn"] = sklearn_fit(X64, Y, epochs)

    sk()
    t_sk = best_time(sk, repeat)
    rows = [Row(name, "scikit-learn Perceptron (float64)", t_sk, n * epochs, 1.0, "sklearn",
                peak_mb(sk), "reference")]
    backends = ["compiled", "numpy"] if perceptron_module.numba is not None else ["numpy"]
    compare = {}  # row index -> key of the weights it is compared with
    for backend in backends:
        for X in (X32, X64):
            key = (backend, X.dtype.name)

            def run(X=X, key=key, backend=backend):
                r = with_backend(backend, lambda: gp.train(X, Y, max_epochs=epochs))
                fits[key] = (r.w, r.b)
                return r

            start = time.perf_counter()
            result = run()  # warm-up: numba compiles or loads its cache here
            first = time.perf_counter() - start
            t = best_time(run, repeat)
            note = f"{result.updates} updates in {result.epochs} epochs"
            if backend == "compiled":
                note += f"; first call {first:.2f} s (compile or cache load)"
            compare[len(rows)] = "sklearn" if X is X64 else (
                ("numpy" if backend == "compiled" else "compiled"), "float32")
            rows.append(Row(name, f"train fast, {backend} ({X.dtype.name})", t,
                            n * result.epochs, t / t_sk, "sklearn", peak_mb(run), "", note))
    for index, other in compare.items():
        if other in fits:
            label = other if isinstance(other, str) else f"{other[0]} float32"
            rows[index].agrees = f"vs {label}: " + same(fits[key_of(rows[index])], fits[other])
    rows.append(bench_faithful(name, X32, Y, epochs, faithful_rows, t_sk))
    return rows


def key_of(row: Row) -> tuple[str, str]:
    """('compiled' or 'numpy', dtype name) from a 'train fast, BACKEND (DTYPE)' row."""
    backend, dtype = row.method.removeprefix("train fast, ").rstrip(")").split(" (")
    return backend, dtype


def bench_faithful(name: str, X32, Y, epochs: int, rows: int, t_sk: float) -> Row:
    """The chapter's NDArray loop on the first ``rows`` examples, extrapolated per example."""
    Xs, Ys = X32[:rows], Y[:rows]
    start = time.perf_counter()
    slow = gp.train(Xs, Ys, max_epochs=epochs, engine="faithful")
    t_slow = time.perf_counter() - start
    fast = gp.train(Xs, Ys, max_epochs=epochs)
    whole = t_slow / (rows * slow.epochs) * X32.shape[0] * epochs
    note = "" if rows == X32.shape[0] else (
        f"measured on the first {rows} examples ({t_slow:.1f} s), extrapolated per example; ")
    return Row(name, "train faithful NDArray loop (float32)", whole, X32.shape[0] * epochs,
               whole / t_sk, "sklearn", None,
               "vs fast on the same examples: " + same((fast.w, fast.b), (slow.w, slow.b)),
               note + "peak memory n/a (MXNet allocates outside Python)")


# --- 2. the updates-vs-margin experiment ---------------------------------------------------

def bench_experiment(fraction: float, repeat: int) -> tuple[list[Row], float]:
    """Batched corrected experiment vs the chapter's faithful one; returns rows and the
    (measured or extrapolated) seconds of the whole faithful experiment."""
    mx.random.seed(0)
    gp.experiments.margin_experiment(progress=False)  # warm-up
    t_batched = best_time(lambda: gp.experiments.margin_experiment(progress=False), repeat)
    trials = max(1, round(10 * fraction))
    mx.random.seed(0)
    start = time.perf_counter()
    gp.experiments.margin_experiment_faithful(trials=trials, progress=False)
    t_faithful = (time.perf_counter() - start) * 10 / trials
    note = ("" if trials == 10 else
            f"faithful measured on {trials} of its 10 trials, extrapolated linearly; ")
    rows = [
        Row("updates vs margin", "margin_experiment_faithful (chapter, as written)",
            t_faithful, 10 * len(EPSILONS) * 1000, 1.0, "faithful", None, "",
            note + "170 datasets x 1000 points, one warm-started pass each"),
        Row("updates vs margin", "margin_experiment (batched, 170 runs to convergence)",
            t_batched, None, t_batched / t_faithful, "faithful", None, "",
            f"{t_faithful / t_batched:.0f}x faster (target >= 50x); sampling included, and "
            f"it trains to convergence where the faithful one makes a single pass"),
    ]
    return rows, t_faithful


# --- 3. autograd and Gluon per example ---------------------------------------------------

def bench_sgd_paths(repeat: int, n: int) -> list[Row]:
    """Per-example cost of the autograd and Gluon trainers vs the faithful NDArray step.

    One call takes about a tenth of a second, so a single timing of the reference swings the
    ratio by half. The three are timed in turn, ``max(repeat, 7)`` rounds, and each keeps its
    best: the reference gets the same chances as the paths it is compared with.
    """
    mx.random.seed(1)
    fake = gp.sample_separable(n, 2, 0.1)
    X, Y = fake.X.asnumpy(), fake.Y.asnumpy()
    epochs = 3
    ref = gp.train(X, Y, max_epochs=epochs, engine="faithful")
    calls = {"reference": lambda: gp.train(X, Y, max_epochs=epochs, engine="faithful")}
    targets, results = {}, {}
    paths = [("gluon_perceptron.core.gradient.autograd", "train_autograd", 1.5),
             ("gluon_perceptron.core.gradient.gluon", "train_gluon", 2.0)]
    for module_name, fn_name, target in paths:
        try:
            fn = getattr(importlib.import_module(module_name), fn_name)
        except (ImportError, AttributeError):
            print(f"skipping {module_name}.{fn_name}: not in the package yet")
            continue
        name = f"{module_name}.{fn_name}"
        results[name] = fn(X, Y, max_epochs=epochs)  # warm-up (and hybridization, if any)
        calls[name] = lambda fn=fn: fn(X, Y, max_epochs=epochs)
        targets[name] = target
    best = interleaved_best(calls, max(repeat, 7))
    per_ref = best["reference"] / (n * ref.epochs)
    rows = [Row("autograd/Gluon per example", "faithful NDArray step (train engine='faithful')",
                best["reference"], n * ref.epochs, 1.0, "NDArray step", None, "reference",
                f"{n} points of getfake-style data, {ref.epochs} epochs; "
                f"best of {max(repeat, 7)} rounds, timed in turn with the paths below")]
    for module_name, fn_name, _ in paths:
        name = f"{module_name}.{fn_name}"
        if name not in calls:
            rows.append(Row("autograd/Gluon per example", name, float("nan"), None, None,
                            "NDArray step", None, "", "skipped: not in the package yet"))
            continue
        result, t, target = results[name], best[name], targets[name]
        visited = n * result.epochs
        ratio = (t / visited) / per_ref
        note = f"ratio is per example (target <= {target})"
        if ratio > target:
            note += "; where the time goes: " + profile_top(calls[name])
        rows.append(Row("autograd/Gluon per example", name, t, visited,
                        ratio, "NDArray step", None,
                        "vs train: " + same((result.w, result.b), (ref.w, ref.b)), note))
    return rows


def profile_top(fn, top: int = 4) -> str:
    """The functions with the most own time in one call of ``fn`` (cProfile), as shares."""
    import cProfile
    import pstats

    profiler = cProfile.Profile()
    profiler.runcall(fn)
    stats = pstats.Stats(profiler).stats
    total = sum(v[2] for v in stats.values()) or 1.0
    worst = sorted(stats.items(), key=lambda kv: -kv[1][2])[:top]
    return ", ".join(f"{Path(f).name}:{line}({name}) {v[2] / total:.0%}"
                     for (f, line, name), v in worst)


# --- 4. the main job --------------------------------------------------------------------------

#: Issue 21's goal for the main job: at most this share of the faithful experiment's time.
MAIN_JOB_TARGET = 0.15


def _run_main_job(*args: str) -> tuple[float, float, dict, subprocess.CompletedProcess]:
    """One ``python -m gluon_perceptron`` in a fresh process, as a learner runs it: its wall
    seconds, its CPU seconds (every process it started included), its sections' seconds."""
    import resource

    def cpu() -> float:
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        return usage.ru_utime + usage.ru_stime

    with tempfile.TemporaryDirectory() as out:
        before, start = cpu(), time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "gluon_perceptron", "--out", out,
                               "--no-progress", *args], capture_output=True, text=True)
        wall, used = time.perf_counter() - start, cpu() - before
        try:
            sections = json.loads((Path(out) / "index.json").read_text())["by_section"]
            seconds = {name: entry["seconds"] for name, entry in sections.items()}
        except (OSError, ValueError, KeyError, TypeError):
            seconds = {}
    return wall, used, seconds, done


def bench_main_job(t_faithful: float) -> list[Row]:
    """The main job as a learner runs it (sections in parallel processes, ``--jobs`` left to
    its default), and with ``--jobs 1`` (one process): wall and CPU seconds, the sections'
    seconds (the three slowest in the note), and the least wall time the CPU work allows on
    this machine's cores (CPU seconds / cores)."""
    from gluon_perceptron.main.parallel import available_cores

    cores = available_cores()
    rows = []
    for method, args, runs in (("python -m gluon_perceptron (all sections)", (), 2),
                               ("python -m gluon_perceptron --jobs 1", ("--jobs", "1"), 1)):
        # the best of ``runs`` runs, as every other row keeps its best repeat
        wall, used, seconds, done = min((_run_main_job(*args) for _ in range(runs)),
                                        key=lambda run: run[0])
        slowest = sorted(seconds.items(), key=lambda kv: -(kv[1] or 0))[:3]
        note = ((f"best of {runs} runs; " if runs > 1 else "")
                + f"{wall / t_faithful:.1%} of the faithful experiment (target <= "
                f"{MAIN_JOB_TARGET:.0%}); {used:.1f} s of CPU in all its processes, so at "
                f"least {used / cores:.1f} s ({used / cores / t_faithful:.1%}) on {cores} "
                f"cores; slowest sections: "
                + ", ".join(f"{name} {sec:.1f} s" for name, sec in slowest))
        if done.returncode != 0:
            note = f"FAILED (exit {done.returncode}): {done.stderr.strip().splitlines()[-1:]}"
        rows.append(Row("main job", method, wall, None, wall / t_faithful,
                        "faithful experiment", None, "", note))
    return rows


# --- 5. validation share ----------------------------------------------------------------------

def bench_validation(repeat: int) -> list[Row]:
    """Time inside validation over the whole ``train_pocket`` call (1000 x 20, 50 epochs), then
    the outer validation calls of one call of each public function measured (issue 18)."""
    share = validation_share.measure(repeat=repeat)
    return [Row("validation share", "train_pocket 1000x20, 50 epochs", share.seconds, None,
                share.ratio, "the whole call", None, "",
                f"validation share {share.ratio:.3%} (target <= {validation_share.TARGET:.0%}): "
                f"{share.validation_seconds * 1e3:.3f} ms in {share.checks} checks "
                f"({share.dataset_checks} of the dataset)")] + [
        Row("validation calls", row.label, row.seconds, None, None, "", None, "",
            validation_share.describe(row))
        for row in validation_share.calls_per_public_call()]


# --- the table ------------------------------------------------------------------------------

def fmt(value, spec: str, missing: str = "") -> str:
    return missing if value is None or value != value else format(value, spec)


def print_table(rows: list[Row], info: dict) -> None:
    print(f"\nmachine: {info['cpu']}, {info['cores']} cores; Python {info['python']}, numpy "
          f"{info['numpy']}, mxnet {info['mxnet']}, numba {info['numba']}, scikit-learn "
          f"{info['sklearn']}")
    head = f"{'benchmark':<30} {'method':<52} {'seconds':>9} {'us/ex':>8} {'ratio':>7} " \
           f"{'peak MB':>8}  agreement / notes"
    print(head)
    print("-" * len(head))
    for r in rows:
        extra = "; ".join(x for x in (r.agrees, r.note) if x)
        print(f"{r.benchmark:<30} {r.method:<52} {fmt(r.seconds, '9.4f', 'skipped'):>9} "
              f"{fmt(r.us_per_example, '8.3f'):>8} {fmt(r.ratio, '7.3f'):>7} "
              f"{fmt(r.peak_mb, '8.1f', 'n/a'):>8}  {extra}")
    print("ratio: seconds over the reference of its block (scikit-learn for train; the "
          "faithful experiment for the experiment and the main job; per example for "
          "autograd/Gluon)")


def _find(rows: list[Row], benchmark: str, method: str) -> Row | None:
    """The first row of ``benchmark`` whose method contains ``method``."""
    return next((r for r in rows if r.benchmark.startswith(benchmark) and method in r.method),
                None)


def goals(rows: list[Row]) -> list[tuple[str, str, str, str, str]]:
    """Issue 21's table, from this run's rows: (workload, now, target, met, note)."""
    out = []

    def add(workload, row, target, limit, note="", higher=False, fmt_now=None):
        if row is None or row.ratio is None or row.ratio != row.ratio:
            out.append((workload, "n/a", target, "n/a", "not measured in this run"))
            return
        value = 1 / row.ratio if higher else row.ratio
        met = value >= limit if higher else value <= limit
        now = fmt_now(row) if fmt_now else f"{value:.2f}x"
        out.append((workload, now, target, "yes" if met else "NO", note))

    big = [r for r in rows if r.benchmark.startswith("synthetic")]
    name = big[0].benchmark if big else "synthetic"
    f32 = _find(rows, name, "compiled (float32)")
    f64 = _find(rows, name, "compiled (float64)")
    add(f"train {name.removeprefix('synthetic ')} vs scikit-learn, f32", f32, "<= 0.5x (hold)",
        0.5)
    add("  ... f64 (reported, no goal)", f64, "-", float("inf"))
    exp = _find(rows, "updates vs margin", "batched")
    add("updates-vs-margin vs the chapter's", exp, ">= 50x faster (hold)", 50, higher=True,
        fmt_now=lambda r: f"{1 / r.ratio:.0f}x faster")
    auto = _find(rows, "autograd/Gluon", "train_autograd")
    glu = _find(rows, "autograd/Gluon", "train_gluon")
    other = "; the trainers are issue 21 item 2 (another change), measured here only"
    add("autograd per example vs the NDArray step", auto, "<= 1.5x", 1.5,
        (auto.note if auto else "") + other)
    add("Gluon per example vs the NDArray step", glu, "<= 2x", 2.0,
        (glu.note if glu else "") + other)
    job = _find(rows, "main job", "")
    faithful = _find(rows, "updates vs margin", "faithful")
    add("main job vs the faithful experiment", job, f"<= {MAIN_JOB_TARGET}x", MAIN_JOB_TARGET,
        (f"{job.seconds:.1f} s vs {faithful.seconds:.1f} s; " if job and faithful else "")
        + (job.note if job else ""), fmt_now=lambda r: f"{r.ratio:.3f}x")
    one = _find(rows, "main job", "--jobs 1")
    add("  ... --jobs 1, one process (reported, no goal)", one, "-", float("inf"),
        one.note if one else "", fmt_now=lambda r: f"{r.ratio:.3f}x")
    share = _find(rows, "validation share", "")
    if share is not None:
        out.append(("validation share, train_pocket", f"{share.ratio:.2%}",
                    f"<= {validation_share.TARGET:.0%}",
                    "yes" if share.ratio <= validation_share.TARGET else "NO", ""))
    for r in rows:
        if r.benchmark == "validation calls":
            calls = int(r.note.split()[0])
            out.append((f"validation calls, {r.method}", str(calls),
                        f"<= {validation_share.CALLS_TARGET}",
                        "yes" if calls <= validation_share.CALLS_TARGET else "NO", ""))
    for r in rows:
        if r.benchmark.startswith("passive-aggressive"):
            add(f"{r.method} vs scikit-learn (issue 31)", r, f"<= {family.TARGET:g}x",
                family.TARGET, r.agrees)
    out += [_test_time_goal(*run) for run in TEST_RUNS]
    return out


def bench_family(quick: bool) -> list[Row]:
    """Passive-aggressive vs scikit-learn's PassiveAggressiveClassifier (benchmarks/family.py)."""
    n = 6000 if quick else 60_000
    return [Row(r["benchmark"], r["variant"], r["ours_s"], n * 2, r["ratio"], "sklearn",
                agrees="identical" if r["identical"] else "DIFFER",
                note=f"scikit-learn {r['sklearn_s']:.3f} s; first call {r['first_call_s']:.2f} s")
            for r in family.pa_rows(n, repeat=2 if quick else 3)]


def _cpu_seconds(text: str) -> float:
    """Seconds from bash's ``times`` line of the children, ``"10m59.3s 1m19.4s"``."""
    total = 0.0
    for part in text.split():
        minutes, _, seconds = part.rstrip("s").partition("m")
        total += 60 * float(minutes) + float(seconds)
    return total


#: The tests' two loops and their targets (issue 32): the whole suite, and ``--quick``
#: (everything but the book, the clusters, the main job and the network namespaces).
TEST_RUNS = (("last_test_run.json", "`bash run.sh test` (pytest part), 2 cores", 360,
              "whole_suite"),
             ("last_quick_run.json", "`bash run.sh test --quick`, 2 cores", 60, "quick"))


def _test_time_goal(record: str = "last_test_run.json", workload: str = TEST_RUNS[0][1],
                    target_seconds: float = 360, kind: str = "whole_suite",
                    ) -> tuple[str, str, str, str, str]:
    """The row of one of the tests' loops: not run here, but read from what ``bash run.sh
    test`` (or ``test --quick``) recorded in ``results/<record>`` when it last ran."""
    target = f"tests <= {target_seconds // 60:.0f} m {target_seconds % 60:02.0f} s"
    command = "bash run.sh test" + (" --quick" if kind == "quick" else "")
    try:
        last = json.loads((RESULTS / record).read_text())
        wall = float(last["wall_seconds"])
        cpu = _cpu_seconds(last["children_cpu"]) - _cpu_seconds(last["children_cpu_before"])
    except (OSError, ValueError, KeyError, TypeError):
        return (workload, "not measured", target, "n/a",
                f"run `{command}` once: it records its time for this table")
    if not last.get(kind) or last.get("exit_status") != 0:
        return (workload, "not measured", target, "n/a",
                f"the last `{command}` was not a passing run")
    cores = last.get("cores") or 2
    return (workload, _minutes(wall), target, "yes" if wall <= target_seconds else "NO",
            f"last run {last.get('date', '?')}: {cpu / 60:.1f} CPU-minutes of work, so "
            f"at least {cpu / cores / 60:.1f} min on {cores} cores however it is scheduled"
            + _at_reference_speed(wall, last.get("yardstick_seconds")))


def _minutes(seconds: float) -> str:
    return f"{seconds // 60:.0f} m {seconds % 60:02.0f} s"


def _at_reference_speed(wall: float, yardstick: object) -> str:
    """What the run's yardstick (``timing.yardstick``, before and after the tests) says of the
    host: the run's time on the reference machines, or nothing when it was not measured."""
    if not (isinstance(yardstick, list) and len(yardstick) == 2
            and all(isinstance(y, (int, float)) and y > 0 for y in yardstick)):
        return ""
    speed = sum(yardstick) / 2
    return (f"; the host's yardstick {yardstick[0]:.3f} s before and {yardstick[1]:.3f} s "
            f"after (reference {REFERENCE_YARDSTICK_SECONDS:.3f} s): about "
            f"{_minutes(wall * REFERENCE_YARDSTICK_SECONDS / speed)} at the reference speed")


def print_goals(rows: list[Row]) -> None:
    """Issue 21's table: each workload now, its target, whether this run meets it."""
    table = goals(rows)
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    print("\nissue 21's goals, measured in this run (each ratio against its reference in the "
          "same run)" + (f"; load average now {load[0]:.1f} on {os.cpu_count()} cores"
                         if load else ""))
    head = f"{'workload':<46} {'now':>16} {'target':>22} {'met':>4}  notes"
    print(head)
    print("-" * len(head))
    for workload, now, target, met, note in table:
        print(f"{workload:<46} {now:>16} {target:>22} {met:>4}  {note}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="small sizes: a smoke run")
    p.add_argument("--faithful-fraction", type=float, default=1.0,
                   help="run this fraction of the faithful experiment's 10 trials (default 1)")
    args = p.parse_args(argv)
    if not 0 < args.faithful_fraction <= 1:
        p.error("--faithful-fraction must be in (0, 1]")
    quick = args.quick
    repeat = 2 if quick else 5
    info = machine()
    print(f"benchmarks on {info['cpu']} ({info['cores']} cores), fast engine: "
          f"{info['fast_backend']}", flush=True)
    rows: list[Row] = []
    Xd, Yd = digits_data()
    print("digits ...", flush=True)
    rows += bench_train("digits 1797x64, 5 epochs", Xd.astype(np.float32), Yd, 5, repeat,
                        faithful_rows=300 if quick else Xd.shape[0])
    n = 6000 if quick else 60_000
    print(f"MNIST-shaped {n}x784 ...", flush=True)
    Xm, Ym = mnist_shaped(n)
    rows += bench_train(f"synthetic {n}x784, 2 epochs", Xm, Ym, 2, 2 if quick else 3,
                        faithful_rows=500 if quick else 3000)
    del Xm
    print("updates vs margin ...", flush=True)
    exp_rows, t_faithful = bench_experiment(0.1 if quick else args.faithful_fraction,
                                            repeat)
    rows += exp_rows
    print("autograd / Gluon ...", flush=True)
    rows += bench_sgd_paths(repeat, 100 if quick else 300)
    print("main job ...", flush=True)
    rows += bench_main_job(t_faithful)
    print("validation share ...", flush=True)
    rows += bench_validation(2 if quick else 5)
    print("passive-aggressive vs scikit-learn ...", flush=True)
    rows += bench_family(quick)
    print("notebooks, kernel start to last cell ...", flush=True)
    for name, seconds, cpu, error in notebook_runs.run():
        meets = seconds <= notebook_runs.TARGET_SECONDS
        rows.append(Row(f"notebook {name[:2]}", name, seconds,
                        ratio=seconds / notebook_runs.TARGET_SECONDS,
                        reference=f"target {notebook_runs.TARGET_SECONDS:g} s",
                        note=error or f"{'meets' if meets else 'over'} 10 s; kernel CPU "
                                      f"{cpu:.1f} s"))
    print_table(rows, info)
    print_goals(rows)
    RESULTS.mkdir(parents=True, exist_ok=True)
    stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    payload = {"when": stamp, "quick": quick, "machine": info,
               "rows": [asdict(r) | {"us_per_example": r.us_per_example} for r in rows],
               "goals": [dict(zip(("workload", "now", "target", "met", "note"), g))
                         for g in goals(rows)]}
    for path in (RESULTS / f"bench-{stamp}.json", RESULTS / "latest.json"):
        path.write_text(json.dumps(payload, indent=2, default=float))
    print(f"\nwrote {RESULTS / f'bench-{stamp}.json'} (and latest.json)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
