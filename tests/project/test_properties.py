"""Generated bad input thrown at every public function: a clear error or a well-formed result.

For every public function (the union of ``gluon_perceptron.__all__`` and the ``__all__`` of its
public subpackages, :data:`PACKAGES`), every parameter whose kind is known from
its name (features ``X``, labels ``Y``, counts, real numbers, vectors, scalars, seeds, names,
flags, ``progress``, result objects; :data:`KIND_OF` where a name misleads) gets a hypothesis
strategy of bad values of that kind: wrong shapes and dtypes (strings, objects, int32, float32
NDArrays, ragged lists), labels 0 / 0.5 / 5 / NaN, NaN and inf, huge values (1e307), huge sizes
(10**10, 10**30), negative, zero and boolean counts. The other arguments get valid values:
:data:`VALID` for one function's parameter, else :data:`POOL` by name for required ones and
:data:`CHEAP` (small sizes) for optional ones. Each call must, within :data:`SECONDS` seconds
and :data:`MEMORY` bytes (``tracemalloc``), either return a result whose numbers are all
finite, or raise ``ValueError``/``TypeError`` whose message names the argument.

:func:`test_every_public_function_has_a_generator` fails when a public function has neither a
parameter of a known kind nor an entry in :data:`EXEMPT` (with the reason). Budget: the
``ci`` profile (default, in the test suite) tries every listed bad value of each case in a
fixed order, about 25 s for the 581 cases on two cores; ``--quick`` (the developer's loop)
loads the ``quick`` profile, the first 5 values of that order (about half of them);
``bash run.sh fuzz`` loads the ``fuzz`` profile (``HYPOTHESIS_PROFILE=fuzz``), which adds
generated values (arrays of random shapes, dtypes and magnitudes; integers and floats over
their range).
"""
from __future__ import annotations

import copy
import dataclasses
import functools
import gzip
import inspect
import math
import os
import re
import signal
import subprocess
import sys
import tempfile
import tracemalloc
import warnings
from collections.abc import Callable
from pathlib import Path

# pyplot and SciPy's optimizers are imported here, not inside a measured call: under
# tracemalloc their import takes seconds and counts against the call that first needs them
import matplotlib.pyplot as plt
import mxnet as mx
import numpy as np
import pytest
import scipy.optimize  # noqa: F401
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from mxnet import nd

import gluon_perceptron as gp
from gluon_perceptron.core._validation import unchecked
from gluon_perceptron.core.data.real import train_test_split
from gluon_perceptron.core.rosenblatt.multiclass import binary_error_rates

# "ci": every listed bad value of the parameter's kind, in a fixed order (hypothesis stops when
# the list is exhausted). "fuzz" (bash run.sh fuzz): the lists plus generated values (arrays of
# random shapes, dtypes and magnitudes, integers and floats over their whole range).
settings.register_profile("ci", max_examples=30, deadline=None, derandomize=True,
                          suppress_health_check=list(HealthCheck), database=None)
settings.register_profile("fuzz", max_examples=60, deadline=None,
                          suppress_health_check=list(HealthCheck))
# "quick" (`--quick`, the developer's loop; tests/conftest.py sets it): the first 5 values "ci"
# tries of each case (derandomized, the same order), about half of them; the whole suite: all.
settings.register_profile("quick", max_examples=5, deadline=None, derandomize=True,
                          suppress_health_check=list(HealthCheck), database=None)
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")
settings.load_profile(PROFILE)

#: Wall-clock budget of one call, and the most it may allocate (tracemalloc's peak).
SECONDS = 10
MEMORY = 512 * 2**20

RNG = np.random.default_rng(0)
_X = RNG.normal(size=(12, 2))
_Y = np.where(_X[:, 0] + 0.2 > 0, 1.0, -1.0)

#: Small valid values for optional parameters (sizes, repeats), used in place of defaults.
CHEAP = {
    "trials": 2, "draws": 2, "seeds": (0, 1), "max_epochs": 5, "samples": 20, "epochs": 3,
    "runs": 2, "steps": 5, "workers": (1, 2), "horizons": (5, 10), "epsilons": (0.2,),
    "gammas": (0.2,), "budgets": (5,), "dimensions": 2, "xor_epochs": 3, "short": 3, "long": 6,
    "max_iterations": 2000,
}

#: Valid values for the parameters that are not being corrupted, by name.
POOL = {
    "X": _X, "Y": _Y, "y": 1, "w": nd.array([1.0, 0.0]), "b": nd.zeros(1),
    "x": nd.array(_X[0]), "wfake": np.array([1.0, 0.0]), "bfake": 0.2, "u": np.array([1.0, 0, 0]),
    "samples": 10, "dimensions": 2, "epsilon": 0.1, "max_epochs": 5, "steps": 5, "R": 1.0,
    "gamma": 0.1, "radius": 1.0, "lipschitz": 1.0, "eta": 0.1, "eta0": 0.1, "n": 10, "m": 5,
    "name": "AND", "rho": 0.1, "budget": 5, "flip": 0.1, "separation": 1.0, "shards": 2,
    # signed rows y (x, 1): separable through the origin, by theta = (1, 0, 0.2)
    "A": _Y[:, None] * np.column_stack([_X, np.ones(len(_X))]), "c": np.ones(12),
    "w_norm": 1.0, "radius_a": 1.0, "last": 5, "gammas": (0.5, 0.3), "s": 0.1, "u_norm": 1.0,
    "max_norm": 1.0, "alpha": 0.5,
}

_C = np.digitize(_X[:, 0], [-0.5, 0.5])  # three classes 0, 1, 2 for the multiclass functions


@functools.cache
def _speedup():
    return gp.experiments.mixing_speedup(_X, _Y, workers=(2, 4), max_epochs=5)


@functools.cache
def _digits_split():
    X, y = gp.data.load_digits()
    return train_test_split(X[:200], y[:200], seed=0)


@functools.cache
def _model():
    return gp.rosenblatt.train_one_vs_all(_X, _C, max_epochs=5)


@functools.cache
def _model_ovo():
    return gp.rosenblatt.train_one_vs_one(_X, _C, max_epochs=5)


@functools.cache
def _broken():
    return gp.experiments.broken_rules_experiment(_X, _Y, steps=20, max_epochs=5)


@functools.cache
def _wedge():
    return gp.experiments.wedge_demo(short=5, long=10)


@functools.cache
def _transformed():
    wfake, bfake = np.array([1.0, 0.0]), 0.2
    return [gp.experiments.transformed_run(_X, _Y, wfake, bfake, scale=s, max_epochs=50)
            for s in (1.0, 2.0)]


def _attached(value):
    value.attach_grad()
    return value


class Fresh:
    """A value built anew for each call (a file in a fresh folder, a new array): ``build(d)``
    with ``d`` a new empty folder of the test's temporary directory; ``label`` is its repr."""

    def __init__(self, label: str, build):
        self.label, self.build = label, build

    def __repr__(self) -> str:
        return self.label


#: The fresh folder of the current case (under pytest's tmp_path), set by the test.
_TMP: list[Path] = []


def _new_folder() -> Path:
    return Path(tempfile.mkdtemp(dir=_TMP[-1] if _TMP else None))


def fresh(value):
    """A copy of ``value`` no earlier call can have changed, nor a later one see changed:
    arrays and NDArrays are copied, result objects deep-copied, :class:`Fresh` values built.
    (Three failures of the large budget once came from a shared ``w`` made non-finite by an
    earlier call.)"""
    if isinstance(value, Fresh):
        return value.build(_new_folder())
    if isinstance(value, nd.NDArray):
        copied = value.copy()
        if value.grad is not None:  # a copy has no gradient buffer: give it one as well
            copied.attach_grad()
        return copied
    if isinstance(value, np.ndarray):
        return value.copy()
    if isinstance(value, (str, bytes, int, float, complex, bool, type(None))) or callable(value):
        return value
    try:
        return copy.deepcopy(value)
    except Exception:  # noqa: BLE001 - an object that cannot be copied is passed as it is
        return value


def _tiny_idx(folder: Path, name: str, array: np.ndarray) -> Path:
    return gp.data.write_idx(folder / name, array)


def _mnist_folder(folder: Path) -> Path:
    """A tiny MNIST folder: 6 train and 4 test images of 28 x 28, digits 0..9."""
    rng = np.random.default_rng(0)
    for part, n in (("train", 6), ("test", 4)):
        images, labels = _MNIST_NAMES[part]
        _tiny_idx(folder, images, rng.integers(0, 256, size=(n, 28, 28)).astype(np.uint8))
        _tiny_idx(folder, labels, np.arange(n, dtype=np.uint8))
    return folder


_MNIST_NAMES = {"train": ("train-images-idx3-ubyte", "train-labels-idx1-ubyte"),
                "test": ("t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte")}


def _under_a_file(d: Path) -> Path:
    (d / "file").write_text("x")
    return d / "file" / "x.idx"


def _truncated_idx(d: Path) -> Path:
    path = _tiny_idx(d, "cut.idx", np.arange(24, dtype=np.uint8).reshape(2, 3, 4))
    path.write_bytes(path.read_bytes()[:-5])
    return path


def _not_gzip(d: Path) -> Path:
    (d / "bad.gz").write_bytes(b"this is not gzip")
    return d / "bad.gz"


def _truncated_gzip(d: Path) -> Path:
    (d / "cut.gz").write_bytes(gzip.compress(b"\x00\x00\x08\x01" + bytes(400))[:30])
    return d / "cut.gz"


def _empty_file(d: Path) -> Path:
    (d / "empty").write_bytes(b"")
    return d / "empty"


def _broken_mnist(d: Path) -> Path:
    """A MNIST folder whose train images are one row short of the labels."""
    _mnist_folder(d)
    images = d / _MNIST_NAMES["train"][0]
    gp.data.write_idx(images, gp.data.read_idx(images)[:-1])
    return d


def _tiny_cluster(function: str) -> dict:
    """Valid arguments for a process starter: 2 workers, 1 server, 8 rows, short deadlines,
    logs in a fresh folder."""
    X = np.array([[1.0, 0.5], [2.0, -1.0], [1.5, 0.2], [0.5, 1.0],
                  [-1.0, 0.5], [-2.0, -1.0], [-1.5, 0.2], [-0.5, -1.0]])
    Y = np.array([1.0, 1, 1, 1, -1, -1, -1, -1])
    common = {"workers": 2, "servers": 1, "timeout": 60.0, "round_timeout": 30.0,
              "log_dir": _new_folder()}
    if function == "launch_cluster":
        return {**common, "worker_command": [sys.executable, "-c", "pass"]}
    return {**common, "X": X, "Y": Y, "max_epochs": 3}


#: The functions that start processes: their arguments come from :func:`_tiny_cluster`, and
#: their bad values are the listed ones only (each accepted value starts a real cluster).
PROCESS_STARTERS = {"launch_cluster", "train_distributed", "train_gluon_distributed"}


#: Valid values for one function's parameter where the name-wide POOL value does not fit it
#: (factories: called for each call, cached where building is slow).
VALID: dict[tuple[str, str], Callable[[], object]] = {
    ("baselines", "Y_train"): lambda: _Y, ("baselines", "Y_test"): lambda: _Y,
    ("predict_multiclass", "model"): _model,
    ("train_one_vs_all", "y"): lambda: _C, ("train_one_vs_one", "y"): lambda: _C,
    ("one_vs_rest", "y"): lambda: _C, ("one_vs_rest", "positive"): lambda: 1,
    # X, Y default to None (shards= may name files instead): give the in-memory data
    ("train_mixed", "X"): lambda: _X, ("train_mixed", "Y"): lambda: _Y,
    ("mixing_round", "theta"): lambda: np.zeros(_X.shape[1] + 1),
    ("mixing_round", "shards"): lambda: [(_X[:10], _Y[:10]), (_X[10:], _Y[10:])],
    ("plot_confusion_matrix", "M"): lambda: np.eye(3, dtype=int),
    ("plot_confusion_matrix", "classes"): lambda: [0, 1, 2],
    ("plot_binary_error_rates", "model"): _model,
    ("plot_binary_error_rates", "rates"): lambda: binary_error_rates(_model(), _X, _C),
    ("plot_unguarded", "plain"): lambda: gp.rosenblatt.train_traced(_X, _Y, max_epochs=5),
    ("plot_unguarded", "unguarded"): lambda: _broken().unguarded,
    ("plot_trainers", "results"): lambda: {"train": gp.train(_X, _Y, max_epochs=5)},
    ("plot_nonseparable", "traces"):
        lambda: {"data": gp.rosenblatt.train_traced(_X, -_Y, max_epochs=5, record=True)},
    ("kink_gradient", "form"): lambda: next(iter(gp.KINK_FORMS)),
    ("learning_curve", "split"): _digits_split, ("learning_curve", "digit"): lambda: 0,
    ("mean_image_contrast", "split"): _digits_split, ("mean_image_contrast", "digit"): lambda: 0,
    ("multiclass_demo", "split"): _digits_split,
    ("plot_digit_weights", "split"): _digits_split,
    ("plot_digit_weights", "curves"):
        lambda: [gp.experiments.learning_curve(_digits_split(), 0, epochs=2)],
    ("plot_learning_curves", "digit"): lambda: 0,
    ("order_effect", "remedies"): lambda: gp.experiments.remedies_experiment(20, epochs=5),
    # one margin, not the chapter's 17 (its default): each bad w or b costs 40 NDArray steps
    # under tracemalloc, not 680 (over 10 s on a loaded machine)
    ("margin_experiment_faithful", "epsilons"): lambda: (0.2,),
    # and 1 trial of 10 points: its epsilons=None (the 17 default margins) took 2.2 CPU-s,
    # a fifth of this file's quick run, at CHEAP's 2 trials of 20
    ("margin_experiment_faithful", "trials"): lambda: 1,
    ("margin_experiment_faithful", "samples"): lambda: 10,
    ("plot_aggressive", "plain"): lambda: _broken().plain,
    ("plot_aggressive", "aggressive"): lambda: _broken().aggressive,
    ("plot_boundaries", "weights"): lambda: [(np.array([1.0, 0.0]), 0.2)],
    ("plot_update", "update"): lambda: gp.demo(nd.array(_X), nd.array(_Y)).updates[0],
    ("plotscore", "d"): lambda: nd.zeros(1),
    # the figures whose own arguments (ax, title, resolution, keys, ...) are fuzzed: a small
    # result of each, and an 8x8 image where a figure draws one
    ("plot_subgradient_check", "check"): lambda: gp.experiments.compare_subgradients(20),
    ("plot_generalization_curve", "curve"):
        lambda: gp.experiments.generalization_curve((10, 20), 3, test_points=20),
    ("plot_learning_curves", "curves"): lambda: gp.experiments.learning_curves(
        seeds=range(2), digits=(0,), epochs=2),
    ("plot_order_effect", "effect"): lambda: gp.experiments.order_effect(
        gp.experiments.remedies_experiment(20, epochs=5), last=5),
    ("plot_separation", "result"): lambda: gp.experiments.separation_experiment(
        gammas=(0.3, 0.1), draws=2, samples=20, max_iterations=2000),
    ("plot_kernel_boundary", "run"): lambda: gp.beyond.train_kernel(_X, _Y, max_epochs=5),
    ("plot_digit", "x"): lambda: np.linspace(0.0, 1.0, 64),
    ("plot_weights", "w"): lambda: np.linspace(-1.0, 1.0, 64),
    ("plot_transformed_runs", "scales"): lambda: (1.0, 2.0),
    ("plot_transformed_runs", "scaled"): _transformed,
    ("plot_transformed_runs", "shifts"): lambda: (1.0, 2.0),
    ("plot_transformed_runs", "shifted"): _transformed,
    ("plot_wedge_paths", "results"): lambda: _wedge().paths,
    ("plot_wedge_paths", "A"): lambda: _wedge().A, ("plot_wedge_paths", "c"): lambda: _wedge().c,
    ("total_perceptron_loss", "W"): lambda: RNG.normal(size=(5, 2)),
    ("relaxation_method", "A"): lambda: POOL["A"].T, ("compare_rules", "A"): lambda: POOL["A"].T,
    ("relaxation_method", "c"): lambda: np.zeros(12), ("compare_rules", "c"): lambda: np.zeros(12),
    ("proof_trace", "u"): lambda: np.array([1.0, 0.0, 0.2]),
    ("sgd_step", "w"): lambda: _attached(nd.zeros(2)),
    ("sgd_step", "b"): lambda: _attached(nd.zeros(1)),
    ("train_batched", "Y"): lambda: _Y[None, :],
    ("remedies_over_seeds", "last"): lambda: 2,
    # the Forgetron's bound is infinite (the theorem does not apply) below a budget of 83
    ("forgetron_experiment", "budgets"): lambda: (100,),
    ("bias_bound", "b"): lambda: 0.5,
    # the step in MXNet's NumPy interface takes mxnet.numpy arrays
    ("perceptron_np", "w"): lambda: mx.np.array([1.0, 0.0]),
    ("perceptron_np", "b"): lambda: mx.np.zeros(1),
    ("perceptron_np", "x"): lambda: mx.np.array(_X[0], dtype="float32"),
    # readers and writers: files in a fresh folder of pytest's tmp_path
    ("write_idx", "path"): lambda: _new_folder() / "a.idx",
    ("write_idx", "array"): lambda: np.arange(6, dtype=np.uint8).reshape(2, 3),
    ("read_idx", "path"): lambda: _tiny_idx(_new_folder(), "a.idx", np.eye(3)),
    ("load_mnist", "folder"): lambda: _mnist_folder(_new_folder()),
    ("mnist_split", "folder"): lambda: _mnist_folder(_new_folder()),
    ("show_source", "obj"): lambda: gp.perceptron,
    ("predict_voted", "model"): lambda: gp.beyond.train_voted(_X, _Y, max_epochs=2),
    ("mixing_latency", "speedup"): lambda: _speedup(),
    ("mixing_latency", "exchange_seconds"): lambda: 0.002,
    ("plot_mixing_latency", "model"):
        lambda: gp.experiments.mixing_latency(_speedup(), exchange_seconds=0.002),
}

COUNTS = {"samples", "dimensions", "max_epochs", "steps", "trials", "n", "m", "budget",
          "shards", "draws", "runs", "seeds", "epochs", "max_iter", "max_attempts", "workers",
          "horizon", "last", "xor_epochs", "short", "long", "servers", "batch_size",
          "batch_axis", "repeats", "tests", "max_iterations", "degree", "test_points",
          "max_subsets", "rounds", "resolution", "max_gram_bytes", "cases", "passes", "phase",
          "digit", "positive"}
FLOATS = {"slope", "z", "lo", "hi", "test_fraction", "extent", "step", "epsilon", "gamma",
          "learning_rate", "radius", "threshold", "R", "lipschitz", "eta",
          "eta0", "rho", "flip", "separation", "w_norm", "radius_a", "s", "u_norm", "max_norm",
          "tol", "noise", "margin", "timeout", "round_timeout", "poll", "C", "alpha", "B",
          "exchange_seconds", "max_round_trip", "trips_per_round", "scale", "decay", "a", "clip",
          "coef0", "value", "shift", "pinned"}
VECTORS = {"w", "wfake", "u", "x", "w0", "c", "weights", "norms", "horizons", "classes",
           "scales", "shifts", "epsilons", "gammas", "learning_rates", "pass_seconds", "etas",
           "record_at", "digits"}
#: Sequences of counts that are work asked for (training sizes, budgets): like a count, a large
#: valid one may rightly take long, so the fuzz generates only invalid entries.
COUNT_LISTS = {"sizes", "budgets"}
SCALARS = {"b", "bfake", "b0", "d"}
FEATURES = {"X", "A", "M", "W"}
LABELS = {"Y", "y", "Y_train", "Y_test", "y_true", "y_pred"}
NAMES = {"name", "form", "engine", "order", "kernel", "mixing", "kvstore", "part", "variant",
         "method", "reduction", "rules", "source", "sampler", "dtype", "rule", "keys", "mixings",
         "loss"}
FLAGS = {"unit_interval", "bias", "shuffle", "compress", "python_servers", "docstring",
         "check_inputs", "record", "averaged", "cluster", "errorbars", "bounds"}
PATHS = {"path", "folder", "log_dir", "cwd"}
COMMANDS = {"worker_command"}
HOSTS = {"hosts"}
REMOTES = {"remote"}
PORTS = {"port"}
ARRAYS = {"array", "mask"}
CALLBACKS = {"on_started"}
PROGRESS = {"progress"}
SEEDS = {"seed"}
OBJECTS = {"result", "model", "split", "curve", "run", "trace", "rec", "remedies", "check",
           "trap", "exp", "effect", "speedup", "update", "table", "curves", "traces", "plain",
           "aggressive", "unguarded", "results", "fig", "ax", "axes", "ctx", "title", "learner",
           "configs", "flipped", "plane", "scaled", "shifted", "rates", "base", "faithful"}

#: Public functions without a generated case, and why (the functions of no argument have the
#: case NO_ARGUMENTS: called, they must return finite numbers no call can change).
EXEMPT = {
    # the exercise checkers call the reader's function on their own cases: their argument is any
    # callable (a non-callable is a TypeError, tested in test_exercises); check_gate takes no
    # function and is fuzzed like any other
    **{name: "an exercise checker: calls the reader's function; bad input is in test_exercises"
       for name in gp.exercises.__all__ if name.startswith("check_") and name != "check_gate"},
}

#: The bad values of each kind, as lists (the strategies sample from them).
BAD_COUNTS = [0, -1, True, False, 10**10, 2.5, "3", None, 10**30, np.int64(-5), float("nan")]
BAD_FLOATS = [float("nan"), float("inf"), -float("inf"), -1.0, 1e308, -1e308, True, "a", None,
              [1.0, 2.0]]
BAD_VECTORS = [np.array([np.nan, 1.0]), np.ones(7), "ab", None, np.ones((2, 2, 2)), np.zeros(0),
               np.array([np.inf, 0.0]), np.array(["a", "b"]), np.array([1e307, 1e307]),
               nd.array([1.0, 0.0], dtype="float64")]
BAD_COUNT_LISTS = [[0], [-1], [2.5], "ab", None, [], [10**30], np.array([np.nan]), [[3]]]
BAD_SCALARS = [float("nan"), float("inf"), np.array([1.0, 2.0]), "a", None, []]
BAD_OBJECTS: list = [None, "abc", 3, np.zeros(3), {}]
BAD_NAMES = [None, 3, "nope", "", ["AND"]]
BAD_FLAGS = ["no", 0.5, None, "yes", 2]
BAD_SEEDS = [-1, True, "3", 2.5, float("nan"), -(2**70), 2**70]
BAD_PROGRESS = ["no", 0.5, 3, [1]]
#: Files and folders: built in a fresh folder for each call (pytest's tmp_path; the call runs
#: with that folder as its working directory, so "" names it and nothing lands in the project).
BAD_PATHS = [None, 3, b"bytes", ["a"], "",
             Fresh("<missing>", lambda d: d / "missing" / "x"),
             Fresh("<a folder>", lambda d: d),
             Fresh("<under a regular file>", _under_a_file),
             Fresh("</proc/x>", lambda d: Path("/proc/gluon-perceptron-missing/x")),
             Fresh("<an empty file>", _empty_file),
             Fresh("<a truncated IDX file>", _truncated_idx),
             Fresh("<not gzip>", _not_gzip),
             Fresh("<a truncated gzip>", _truncated_gzip),
             Fresh("<MNIST one image short>", _broken_mnist)]
BAD_COMMANDS = [None, "", [], "python", [3], [None], [[sys.executable]], (sys.executable, 2)]
BAD_ARRAYS = [None, np.array(["a", "b"]), np.array([1 + 2j]), np.array([None], dtype=object),
              [[1], [1, 2]], np.zeros(3, dtype=np.float16), np.zeros(3, dtype=np.int64),
              np.array([np.nan, 1.0]), np.array(3.0)]
BAD_CALLBACKS = [3, "f", [print]]
#: Several hosts (``train_distributed(hosts=...)``): a host name where an address is needed, a
#: wildcard address, no list; a template without {host} or {command}; no TCP port.
BAD_HOSTS = [3, "", [], "198.18.0.2", ["node1"], [""], [("a",)], [3], ["0.0.0.0"], ["a b c"]]
BAD_REMOTES = [3, "", [], "ssh {host} {command}", ["ssh", "{host}"], ["ssh", "{command}"],
               ["x", "{host}", "{argv}", "{argv}"], [3]]
BAD_PORTS = [0, -1, 65536, True, "22", 2.5]


def _bad_features_list(n: int = 4) -> list:
    base = RNG.normal(size=(n, 2))
    return [base[:, 0], base[None], np.zeros((0, 2)), np.full((n, 2), "a"),
            np.array(base, dtype=object), np.where(base > 0, np.nan, base),
            np.full((n, 2), np.inf), base * 1e307, (base * 3).astype(np.int32),
            nd.array(base, dtype="float32"), base > 0, None, [[1.0], [1.0, 2.0]],
            np.ones((2, 10**5))]


def _bad_labels_list() -> list:
    n = _X.shape[0]
    return [np.zeros(n), np.full(n, 0.5), np.full(n, 5.0), np.full(n, np.nan), _Y[:3],
            np.full(n, "a"), np.ones((n, 2)), None, np.zeros(0)]


BAD_FEATURES = _bad_features_list()
BAD_LABELS = _bad_labels_list()

#: Kind of a parameter (by its name) -> its bad values.
KINDS = ((FEATURES, BAD_FEATURES), (LABELS, BAD_LABELS), (COUNTS, BAD_COUNTS),
         (FLOATS, BAD_FLOATS), (VECTORS, BAD_VECTORS), (COUNT_LISTS, BAD_COUNT_LISTS),
         (SCALARS, BAD_SCALARS),
         (OBJECTS, BAD_OBJECTS), (NAMES, BAD_NAMES), (SEEDS, BAD_SEEDS), (FLAGS, BAD_FLAGS),
         (PROGRESS, BAD_PROGRESS), (PATHS, BAD_PATHS), (COMMANDS, BAD_COMMANDS),
         (ARRAYS, BAD_ARRAYS), (CALLBACKS, BAD_CALLBACKS), (HOSTS, BAD_HOSTS),
         (REMOTES, BAD_REMOTES), (PORTS, BAD_PORTS))


#: Parameters whose name says one kind but which hold another: (function, parameter) -> kind.
KIND_OF = {("plot_nonseparable", "steps"): OBJECTS, ("plot_nonseparable", "bounds"): OBJECTS,
           ("plot_boundaries", "weights"): OBJECTS, ("plot_loss_surface", "path"): OBJECTS,
           ("boundary_turns", "weights"): OBJECTS,
           ("show_source", "obj"): OBJECTS, ("PerceptronLoss", "weight"): FLOATS,
           ("mixing_round", "theta"): VECTORS, ("mixing_round", "shards"): OBJECTS,
           ("mixing_round", "exchange"): CALLBACKS, ("run_sgd", "loss"): CALLBACKS,
           ("sgd_step", "loss"): CALLBACKS, ("train_autograd", "loss"): CALLBACKS}


def bad_values(name: str, function: str | None = None) -> list | None:
    """The bad values for a parameter called ``name`` (of ``function``), or None if its kind is
    unknown."""
    kind = KIND_OF.get((function or "", name))
    if kind is not None:
        return dict((id(names), values) for names, values in KINDS)[id(kind)]
    for names, values in KINDS:
        if name in names:
            return values
    return None


#: Generated values added to each kind's list under the fuzz profile.
_ANY_ARRAY = hnp.arrays(
    dtype=st.sampled_from([np.float64, np.float32, np.int32, np.int64, np.bool_]),
    shape=hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=6),
    elements=None)
_ANY_FLOAT = st.floats(allow_nan=True, allow_infinity=True)
_ANY_INT = st.integers(min_value=-(2**80), max_value=2**80)
# counts: none that is valid (a valid count is work asked for, and may rightly take long):
# zero and negative ones, ones far beyond any limit, and non-integers
_ANY_COUNT = (st.integers(max_value=0) | st.integers(10**10, 2**80)
              | st.floats().filter(lambda v: not float(v).is_integer()))
GENERATED = {id(BAD_FEATURES): _ANY_ARRAY, id(BAD_LABELS): _ANY_ARRAY,
             id(BAD_VECTORS): _ANY_ARRAY, id(BAD_COUNTS): _ANY_COUNT | _ANY_FLOAT,
             id(BAD_COUNT_LISTS): st.lists(_ANY_COUNT, min_size=1, max_size=4),
             id(BAD_FLOATS): _ANY_FLOAT | _ANY_INT, id(BAD_SCALARS): _ANY_FLOAT | _ANY_ARRAY,
             id(BAD_SEEDS): st.integers(max_value=-1) | st.integers(min_value=2**32),
             id(BAD_NAMES): st.text(max_size=12),
             id(BAD_FLAGS): _ANY_INT | st.text(max_size=4)}


def _kind(name: str, function: str | None = None):
    values = bad_values(name, function)
    if values is None:
        return None
    listed = st.sampled_from(values)
    # a process starter gets the listed values only: each value it accepts starts a cluster
    extra = GENERATED.get(id(values)) if PROFILE == "fuzz" and \
        function not in PROCESS_STARTERS else None
    return listed if extra is None else listed | extra


#: Every public package: the top level and its subpackages (``gp.theory``, ``gp.plots``, ...).
PACKAGES = (gp, *(getattr(gp, alias) for alias in gp._SUBPACKAGES))


def _public_names() -> dict:
    """Every public name, the union of the packages' ``__all__``: name -> object."""
    out: dict[str, object] = {}
    for package in PACKAGES:
        for name in package.__all__:
            value = getattr(package, name)
            assert out.setdefault(name, value) is value, f"{name} names two objects"
    return out


PUBLIC = _public_names()


def _is_record(value) -> bool:
    """A result type (a dataclass the package fills in) or an exception class: built by the
    package, never from a user's input, so no bad input to throw at it."""
    return isinstance(value, type) and (dataclasses.is_dataclass(value)
                                        or issubclass(value, BaseException))


def _functions():
    """Every public function, and every public class a user builds (``PerceptronLoss``), from
    the union of the packages' ``__all__``, by name (a name is one function wherever it is
    public: the tables below are keyed by it)."""
    out = {}
    for name, value in PUBLIC.items():
        if inspect.isfunction(value) or (isinstance(value, type) and not _is_record(value)
                                          and not inspect.isabstract(value)):
            out[name] = value
    # one fixed order, by name: the first calls of a trainer compile its engine (numba), which
    # must not fall inside the time budget of a case that runs before every other trainer
    return dict(sorted(out.items(), key=lambda item: item[0].lower()))


FUNCTIONS = _functions()


def _parameters(function) -> list:
    return [p for p in inspect.signature(function).parameters.values()
            if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]


#: The figures: they take the package's result objects (kind OBJECTS) without rules (issue
#: 28: checked where the user's input entered), so those parameters get no bad values; what a
#: user passes a figure directly (data, numbers, names) does.
PLOTS = set(gp.plots.__all__)


def _trusted_result(function: str, param: str) -> bool:
    """A result object (kind OBJECTS) that ``function`` declares no rule for: the package's
    own results are not re-checked (issue 28), so no bad values are thrown at it."""
    rules = getattr(FUNCTIONS[function], "__rules__", None)
    return bad_values(param, function) is BAD_OBJECTS and (
        rules is None or rules.get(param) is unchecked)


def _cases():
    cases = []
    for name, function in FUNCTIONS.items():
        if name in EXEMPT:
            continue
        for param in _parameters(function):
            if _kind(param.name, name) is not None and not _trusted_result(name, param.name):
                cases.append((name, param.name))
    return cases


CASES = _cases()

#: The functions (figures, mostly) whose every parameter of a known kind is a result object
#: they take unchecked: no case to run.
RESULT_PLOTS = sorted(
    name for name in FUNCTIONS if name not in EXEMPT
    and any(_trusted_result(name, p.name) for p in _parameters(FUNCTIONS[name]))
    and all(_kind(p.name, name) is None or _trusted_result(name, p.name)
            for p in _parameters(FUNCTIONS[name])))

#: The functions of no argument: each is called, and must return finite numbers that are its
#: own (changing them changes nothing a later call returns).
NO_ARGUMENTS = sorted(name for name, f in FUNCTIONS.items()
                      if name not in EXEMPT and not _parameters(f))

#: The public names that are neither functions nor classes a user builds: the result types and
#: exceptions (:func:`_is_record`) and the constants (:func:`test_public_constants_are_read_only`).
OTHERS = sorted(set(PUBLIC) - set(FUNCTIONS))

#: Cases known to fail, with the reason: (function, argument) -> reason. Strict: a fixed case
#: turns to XPASS, which fails, so its entry must then go. Empty: every case passes.
KNOWN: dict[tuple[str, str], str] = {}

#: Cases that fail only on values the fuzz profile generates (so they cannot be strict: a run
#: may not draw the value), found by ``bash run.sh fuzz`` (issue 20) and not fixed yet:
#: (function, argument) -> the failing value and what goes wrong. Marked xfail (non-strict)
#: under the fuzz profile only; the ci profile runs them as plain cases.
FUZZ_KNOWN: dict[tuple[str, str], str] = {
    ("generalization_curve", "epsilon"): "epsilon=0 takes about 10 s, the time budget, on a "
                                         "loaded 2-core machine (flaky: passes on the retry)",
    ("sgd_bound_experiment", "horizons"): "a valid horizon of a thousand steps or more (drawn "
                                          "by the fuzz profile) runs about 1 s, but over 10 s "
                                          "under the test's tracemalloc",
}


def test_every_parameter_has_a_kind():
    """Every parameter of every fuzzed function gets bad values of its kind (or is a result
    object the function takes trusted). Until 28 November 2026, sixty names had no kind and
    were never fuzzed (decay, degree, coef0, max_iterations, ax, title, ...), and
    ``train_traced(decay=2**63)`` hung."""
    missing = sorted(f"{name}({p.name})" for name, function in FUNCTIONS.items()
                     if name not in EXEMPT for p in _parameters(function)
                     if _kind(p.name, name) is None and not _trusted_result(name, p.name))
    assert not missing, (f"parameters without a kind (add each name to a kind's set, or to "
                         f"KIND_OF for one function): {missing}")


def test_every_public_function_has_a_generator():
    """A new public function needs a parameter of a known kind, or an EXEMPT entry."""
    covered = {name for name, _ in CASES} | set(NO_ARGUMENTS) | set(RESULT_PLOTS)
    missing = sorted(set(FUNCTIONS) - covered - set(EXEMPT))
    assert not missing, (f"public functions without a bad-input generator: {missing}; name "
                         f"their parameters' kinds in tests/project/test_properties.py or "
                         f"exempt them")
    assert set(EXEMPT) <= set(FUNCTIONS), "EXEMPT lists names that are no longer public"
    # the only exempt names are the exercise checkers, which call the reader's own code
    assert all(name.startswith("check_") for name in EXEMPT), sorted(EXEMPT)


def test_every_public_name_is_covered():
    """Every name of every ``__all__`` is fuzzed (a function or a class a user builds), or is a
    result type, an exception or a constant (checked read-only below); nothing else."""
    assert set(PUBLIC) == set(FUNCTIONS) | set(OTHERS)
    for name in OTHERS:
        value = PUBLIC[name]
        assert _is_record(value) or inspect.isabstract(value) or not callable(value), name
    assert {"launch_cluster", "train_distributed", "train_gluon_distributed", "read_idx",
            "write_idx", "load_mnist", "mnist_split"} <= {name for name, _ in CASES}


def _arrays_of(value, depth=0):
    """The numpy arrays reachable in ``value`` (tuples, lists, dicts, dataclasses)."""
    if isinstance(value, np.ndarray):
        yield value
    elif depth >= 3:
        return
    elif isinstance(value, (tuple, list)):
        for v in value:
            yield from _arrays_of(v, depth + 1)
    elif isinstance(value, dict):
        for v in value.values():
            yield from _arrays_of(v, depth + 1)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield from _arrays_of(getattr(value, f.name), depth + 1)


@pytest.mark.parametrize("name", [n for n in OTHERS if not callable(PUBLIC[n])])
def test_public_constants_are_read_only(name):
    """A constant (``EPSILONS``, ``PRINTED_TRACE``, ...) cannot be changed through a result
    that hands it out: its arrays are read-only."""
    for array in _arrays_of(PUBLIC[name]):
        assert not array.flags.writeable, f"{name} holds a writable array"


@pytest.mark.parametrize("name", NO_ARGUMENTS)
def test_functions_of_no_argument_return_fresh_finite_results(name):
    """``f()`` returns finite numbers, and arrays of its own: writing into one result changes
    nothing the next call returns."""
    function = FUNCTIONS[name]
    first = _call(function, {})
    assert _finite(first), f"{name}() returned non-finite numbers: {first!r:.300}"
    expected = [a.copy() for a in _arrays_of(function())]
    for array in _arrays_of(first):
        if array.flags.writeable and array.dtype.kind in "biuf":
            array[...] = ~array if array.dtype.kind == "b" else array + 1
    again = list(_arrays_of(function()))
    assert len(again) == len(expected)
    for a, b in zip(again, expected):
        np.testing.assert_array_equal(a, b, err_msg=f"{name}() shares arrays between calls")


class _Timeout(Exception):
    pass


class _TooMuchMemory(Exception):
    pass


def _alarm(signum, frame):
    raise _Timeout


#: Result fields whose docstrings say they hold NaN by design: (class, field) -> when. NaN is
#: allowed there (inf is not); every other number a result holds must be finite.
NAN_BY_DESIGN = {("LatencyModel", "break_even"): "where mixing never pays",
                 ("LearningCurves", "averaged_test_accuracy"): "where it was not run",
                 ("BinaryErrorRates", "no_positive"): "for one-vs-one"}
#: Result fields whose docstrings say they hold +inf by design, the vacuous bound where a
#: theorem does not apply: (class, field) -> when.
INF_BY_DESIGN = {("ForgetronExperiment", "bound"): "budgets below 83 (forgetron_bound)"}


def _by_design(value, field: tuple[str, str]):
    """``value`` with the non-finite numbers its field holds by design made 0."""
    nan, inf = field in NAN_BY_DESIGN, field in INF_BY_DESIGN
    if not (nan or inf):
        return value
    return np.nan_to_num(value, nan=0.0 if nan else np.nan, posinf=0.0 if inf else np.inf,
                         neginf=-np.inf)


def _finite(value, depth=0) -> bool:
    """Every number reachable in ``value`` is finite (arrays, dataclasses, tuples, dicts), but
    for the NaN of :data:`NAN_BY_DESIGN` and the +inf of :data:`INF_BY_DESIGN`."""
    if depth > 4:
        return True
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        cls = type(value).__name__
        return all(_finite(_by_design(getattr(value, f.name), (cls, f.name)), depth + 1)
                   for f in dataclasses.fields(value))
    if isinstance(value, nd.NDArray):
        value = value.asnumpy()
    if isinstance(value, np.ndarray):
        return (not np.issubdtype(value.dtype, np.floating)) or bool(np.all(np.isfinite(value)))
    if isinstance(value, (float, np.floating)):
        return math.isfinite(value)
    if isinstance(value, (list, tuple)):
        return all(_finite(v, depth + 1) for v in value[:50])
    if isinstance(value, dict):
        return all(_finite(v, depth + 1) for v in list(value.values())[:50])
    return True


def _call(function, kwargs, seconds: int = SECONDS):
    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(seconds)
    tracemalloc.start()
    try:
        return function(**kwargs)
    finally:
        signal.alarm(0)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        if peak > MEMORY:
            raise _TooMuchMemory(f"allocated {peak / 2**20:.0f} MiB (limit {MEMORY / 2**20:.0f})")


def _params(case):
    name, arg = case
    marks = []
    if case in KNOWN:
        marks.append(pytest.mark.xfail(strict=True, reason=KNOWN[case]))
    if case in FUZZ_KNOWN and PROFILE == "fuzz":
        marks.append(pytest.mark.xfail(strict=False, reason=FUZZ_KNOWN[case]))
    return pytest.param(name, arg, marks=marks, id=f"{name}-{arg}")


def valid_arguments(function, argument: str) -> dict:
    """Valid values for every parameter of ``function`` but ``argument``: POOL's for the
    required ones, CHEAP's (small sizes) for the optional ones it names, so that a bad value
    the function wrongly accepts costs a small run, not a full experiment."""
    kwargs = {}
    name = function.__name__
    cluster = _tiny_cluster(name) if name in PROCESS_STARTERS else {}
    for param in _parameters(function):
        if param.name == argument:
            continue
        if param.name in cluster:
            kwargs[param.name] = cluster[param.name]
        elif (name, param.name) in VALID:
            kwargs[param.name] = fresh(VALID[name, param.name]())
        elif param.default is inspect.Parameter.empty:
            assert param.name in POOL, f"no valid value in POOL for {param.name!r} of {name}"
            kwargs[param.name] = fresh(POOL[param.name])
        elif param.name in CHEAP and isinstance(param.default, (int, tuple, list, range)):
            kwargs[param.name] = _like(param.default, CHEAP[param.name])
    return kwargs


def _like(default, cheap):
    """``cheap`` in the shape of ``default``: a count where it is a count, a tuple where a
    sequence."""
    if isinstance(default, (tuple, list, range)) and not isinstance(cheap, tuple):
        return (cheap,)
    if isinstance(default, int) and isinstance(cheap, tuple):
        return len(cheap)
    return cheap


#: Processes started by the calls of this test process (every ``subprocess.Popen``).
STARTED: list = []


class _CountedPopen(subprocess.Popen):
    def __init__(self, *args, **kwargs):
        STARTED.append(args[0] if args else kwargs.get("args"))
        super().__init__(*args, **kwargs)


def _names_the_file(exc: Exception, path, argument: str) -> bool:
    """Whether ``exc`` (a bad file's error) names the file or folder ``path`` it is about."""
    if argument not in PATHS or not isinstance(path, (str, os.PathLike)):
        return False
    return any(repr(str(p))[1:-1] in str(exc) for p in (Path(path), Path(path).absolute()))


def _says(message: str, name: str) -> bool:
    """Whether ``message`` names ``name`` as a word: "scale" is not in "rescale X", nor "X" in
    "MXNet"."""
    return re.search(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])", message) is not None


#: numpy's words for arithmetic that left float64 unannounced (a body that expects it, and
#: refuses or uses the result, says so with ``np.errstate``).
NUMPY_ARITHMETIC = re.compile(r"(overflow|invalid value|divide by zero) encountered")


def failure(function_name: str, argument: str, bad) -> str | None:
    """:func:`call_failure`, or the first warning of numpy's arithmetic (:data:`NUMPY_ARITHMETIC`)
    the call let through to the reader, with where it came from."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        problem = call_failure(function_name, argument, bad)
    leaked = [w for w in caught if issubclass(w.category, RuntimeWarning)
              and NUMPY_ARITHMETIC.search(str(w.message))]
    if problem is None and leaked:
        first = leaked[0]
        return (f"{function_name}({argument}={bad!r:.60}) let numpy warn "
                f"{str(first.message)!r} ({first.filename}:{first.lineno})")
    return problem


def call_failure(function_name: str, argument: str, bad) -> str | None:
    """Why calling ``function_name`` with ``argument=bad`` breaks the contract, or None.

    ``bad`` is used as given (a :class:`Fresh` one is built first); the other arguments are
    fresh (:func:`valid_arguments`). A process starter must refuse a bad value before it starts
    any process (``subprocess.Popen`` is counted), unless the refusal is of what the run
    produced (the weights overflowed)."""
    function = FUNCTIONS[function_name]
    kwargs = valid_arguments(function, argument)
    call = f"{function_name}({argument}={bad!r:.60})"
    kwargs[argument] = fresh(bad)
    started = len(STARTED)
    seconds = 120 if function_name in PROCESS_STARTERS else SECONDS
    try:
        result = _call(function, kwargs, seconds)
    except (ValueError, TypeError) as exc:
        message = str(exc)
        if len(STARTED) > started and "overflow" not in message:
            return (f"{call} started {len(STARTED) - started} processes before refusing it: "
                    f"{exc!r:.300}")
        if _says(message, argument) or (argument in LABELS and _says(message, "Y")) or \
                (argument in FEATURES and _says(message, "X")) or \
                _names_the_file(exc, kwargs[argument], argument):
            return None
        return f"{call} raised {exc!r:.300} without naming it"
    except FileNotFoundError as exc:
        # a reader's documented error for a file or folder that is not there, naming it
        if _names_the_file(exc, kwargs[argument], argument):
            return None
        return f"{call} raised {exc!r:.300}"
    except _Timeout:
        return f"{call} ran over {seconds} s"
    except _TooMuchMemory as exc:
        return f"{call} {exc}"
    except Exception as exc:  # noqa: BLE001 - any other exception is the failure reported
        # a valid value that needs more than the small budget CHEAP gave (e.g. a run that does
        # not converge within max_epochs=5), refused with an error saying to raise that budget
        if any(f"raise {name}" in str(exc) for name in kwargs
               if name in CHEAP and name != argument):
            return None
        return f"{call} raised {type(exc).__name__}: {str(exc)[:300]}"
    finally:
        plt.close("all")
    if not _finite(result):
        return f"{call} returned non-finite numbers: {result!r:.300}"
    return None


@pytest.fixture(scope="module")
def _workspaces(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("workspaces")


@pytest.fixture
def workspace(_workspaces, monkeypatch):
    """Each call's files go under a new empty folder of pytest's temporary directory, which is
    also the working directory (a relative path such as "" names it); every process a call
    starts is counted. (``tempfile.mkdtemp``, not ``tmp_path``: pytest finds a numbered name for
    each ``tmp_path`` by listing the folders it made before, hundreds here.)"""
    folder = Path(tempfile.mkdtemp(dir=_workspaces))
    monkeypatch.chdir(folder)
    monkeypatch.setattr(subprocess, "Popen", _CountedPopen)
    _TMP.append(folder)
    yield folder
    _TMP.remove(folder)


@pytest.fixture(autouse=True)
def _one_settings_layer(request):
    """Hypothesis's pytest plugin wraps a parametrized test's settings in one more layer at each
    call (``Settings(parent=...)``, to suppress a health check), on the one function all the
    cases share; under ``derandomize`` the database is None, which no layer caches, so each
    call walks every layer the earlier calls left: time quadratic in the cases (6.170). Each
    call starts from the test's own settings again; what a call runs with is unchanged."""
    function = getattr(request.function, "__func__", request.function)
    own = getattr(function, "_hypothesis_internal_use_settings", None)
    yield
    if own is not None:
        function._hypothesis_internal_use_settings = own


@pytest.fixture(scope="module", autouse=True)
def compiled_twins():
    """Compile numba's twins before any call runs under the alarm: numba compiles on a twin's
    first call, and a compile that the alarm cuts leaves numba's registries broken for the rest
    of the process (every later compile raises "generator raised StopIteration")."""
    X = np.array([[1.0, 2.0], [-1.0, -1.5], [2.0, 0.5], [-2.0, 1.0]])
    Y = np.array([1.0, -1.0, 1.0, -1.0])
    for dtype in (np.float64, np.float32):
        Xd, Yd = X.astype(dtype), Y.astype(dtype)
        gp.train(Xd, Yd, max_epochs=2)
        for variant in ("PA", "PA-I", "PA-II"):
            gp.beyond.passive_aggressive(Xd, Yd, variant=variant, max_epochs=2)
        gp.beyond.train_voted(Xd, Yd, max_epochs=2)
        gp.beyond.train_voted_kernel(Xd, Yd, max_epochs=2)
        gp.beyond.alma(Xd, Yd, alpha=0.9, max_epochs=2)


@pytest.mark.parametrize("function_name, argument", [_params(c) for c in CASES])
@given(data=st.data())
def test_bad_input_gives_a_named_error_or_a_finite_result(function_name, argument, data,
                                                           workspace):
    bad = data.draw(_kind(argument, function_name), label=argument)
    problem = failure(function_name, argument, bad)
    assert problem is None, problem


@pytest.mark.parametrize("function_name", sorted(PROCESS_STARTERS))
def test_process_starters_run_the_tiny_cluster(function_name, workspace):
    """The valid arguments the process starters' cases build on: a real cluster (2 workers,
    1 server) that finishes, with finite numbers and its logs in the fresh folder."""
    function = FUNCTIONS[function_name]
    kwargs = valid_arguments(function, "")
    started = len(STARTED)
    result = _call(function, kwargs, 120)
    assert _finite(result)
    assert len(STARTED) - started >= 4  # the scheduler, a server, two workers
    assert (kwargs["log_dir"] / "scheduler.log").exists()
