"""Generated bad input thrown at every public function: a clear error or a well-formed result.

For every function in ``gluon_perceptron.__all__``, every parameter whose kind is known from
its name (features ``X``, labels ``Y``, counts, real numbers, vectors, scalars, objects) gets
a hypothesis strategy of bad values of that kind: wrong shapes and dtypes (strings, objects,
int32, float32 NDArrays), labels 0 / 0.5 / 5 / NaN, NaN and inf, huge values (1e307), huge
sizes (10**10), negative, zero and boolean counts. The other arguments keep valid values from
:data:`POOL`. Each call must, within :data:`SECONDS` seconds and :data:`MEMORY` bytes
(``tracemalloc``), either return a result whose numbers are all finite, or raise
``ValueError``/``TypeError`` whose message names the argument.

:func:`test_every_public_function_has_a_generator` fails when a public function has neither a
parameter of a known kind nor an entry in :data:`EXEMPT` (with the reason). Budget: the
``ci`` profile (default) runs a few examples per case, derandomized; ``bash run.sh fuzz``
loads the ``fuzz`` profile (``HYPOTHESIS_PROFILE=fuzz``), with many more.
"""

from __future__ import annotations

import dataclasses
import inspect
import math
import os
import signal
import tracemalloc

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mxnet import nd

import gluon_perceptron as gp

settings.register_profile("ci", max_examples=6, deadline=None, derandomize=True,
                          suppress_health_check=list(HealthCheck), database=None)
settings.register_profile("fuzz", max_examples=200, deadline=None,
                          suppress_health_check=list(HealthCheck))
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

#: Wall-clock budget of one call, and the most it may allocate (tracemalloc's peak).
SECONDS = 10
MEMORY = 512 * 2**20

RNG = np.random.default_rng(0)
_X = RNG.normal(size=(12, 2))
_Y = np.where(_X[:, 0] + 0.2 > 0, 1.0, -1.0)

#: Valid values for the parameters that are not being corrupted, by name.
POOL = {
    "X": _X, "Y": _Y, "y": 1, "w": nd.array([1.0, 0.0]), "b": nd.zeros(1),
    "x": nd.array(_X[0]), "wfake": np.array([1.0, 0.0]), "bfake": 0.2, "u": np.array([1.0, 0, 0]),
    "samples": 10, "dimensions": 2, "epsilon": 0.1, "max_epochs": 5, "steps": 5, "R": 1.0,
    "gamma": 0.1, "radius": 1.0, "lipschitz": 1.0, "eta": 0.1, "eta0": 0.1, "n": 10, "m": 5,
    "name": "AND", "rho": 0.1, "budget": 5, "flip": 0.1, "separation": 1.0, "shards": 2,
    "A": np.vstack([_Y[:, None] * _X, -_Y[:, None] * _X])[:12], "c": np.ones(12),
    "w_norm": 1.0, "radius_a": 1.0, "s": 0.1, "u_norm": 1.0, "max_norm": 1.0,
}

COUNTS = {"samples", "dimensions", "max_epochs", "steps", "trials", "n", "m", "budget",
          "shards", "draws", "runs", "seeds", "epochs", "max_iter", "max_attempts", "workers",
          "horizon", "last", "xor_epochs", "short", "long"}
FLOATS = {"slope", "z", "lo", "hi", "test_fraction", "extent", "step", "epsilon", "gamma",
          "learning_rate", "radius", "threshold", "R", "lipschitz", "eta",
          "eta0", "rho", "flip", "separation", "w_norm", "radius_a", "s", "u_norm", "max_norm",
          "tol", "noise", "margin"}
VECTORS = {"w", "wfake", "u", "x", "w0", "c", "weights", "norms", "horizons", "classes",
           "scales", "shifts", "epsilons", "gammas", "learning_rates"}
SCALARS = {"b", "bfake", "b0"}
FEATURES = {"X", "A", "M"}
LABELS = {"Y", "y", "Y_train", "Y_test", "y_true", "y_pred"}
NAMES = {"name", "form", "engine", "order", "kernel"}
FLAGS = {"scale", "bias", "progress", "shuffle"}
SEEDS = {"seed"}
OBJECTS = {"result", "model", "split", "curve", "run", "trace", "rec", "remedies", "check",
           "trap", "exp", "effect", "speedup", "update", "table", "curves", "traces", "plain",
           "aggressive", "unguarded", "results", "fig"}

#: Public functions without a generated case, and why.
EXEMPT = {
    "launch_cluster": "starts worker processes; its arguments are checked in test_distributed",
    "train_distributed": "starts a scheduler, servers and workers; bad input is refused before "
                         "any process starts, tested in test_distributed",
    "train_gluon_distributed": "starts a scheduler, servers and workers; bad input is tested in "
                               "test_distributed",
    "show_source": "prints a function's source; takes any object",
    "save_figure": "writes files; its bad arguments are in test_bad_input and test_cli",
    "write_idx": "writes files; its bad arguments are in test_datasets",
    "read_idx": "reads files; bad files and paths are in test_datasets",
    "load_mnist": "reads a folder; bad folders are in test_datasets",
    "mnist_split": "reads a folder; bad folders are in test_datasets",
    "replay_printed_trace": "takes no arguments",
    "two_point_data": "takes no arguments",
    "xor_data": "takes no arguments",
}

_BAD_COUNT = st.sampled_from([0, -1, True, False, 10**10, 2.5, "3", None, 10**30,
                              np.int64(-5), float("nan")])
_BAD_FLOAT = st.sampled_from([float("nan"), float("inf"), -float("inf"), -1.0, 1e308, -1e308,
                              True, "a", None, [1.0, 2.0]])
_BAD_VECTOR = st.sampled_from([np.array([np.nan, 1.0]), np.ones(7), "ab", None, np.ones((2, 2, 2)),
                               np.zeros(0), np.array([np.inf, 0.0]), np.array(["a", "b"]),
                               np.array([1e307, 1e307]), nd.array([1.0, 0.0], dtype="float64")])
_BAD_SCALAR = st.sampled_from([float("nan"), float("inf"), np.array([1.0, 2.0]), "a", None, []])
_BAD_OBJECT = st.sampled_from([None, "abc", 3, np.zeros(3), {}])
_BAD_NAME = st.sampled_from([None, 3, "nope", "", ["AND"]])
_BAD_FLAG = st.sampled_from(["no", 0.5, None, "yes", 2])
_BAD_SEED = st.sampled_from([-1, True, "3", 2.5, float("nan"), -(2**70)])


@st.composite
def _bad_features(draw):
    n = draw(st.integers(1, 6))
    base = RNG.normal(size=(n, 2))
    kind = draw(st.sampled_from(["1d", "3d", "empty", "strings", "objects", "nan", "inf", "huge",
                                 "int32", "float32 nd", "bool", "none", "ragged", "wide"]))
    return {"1d": base[:, 0], "3d": base[None], "empty": np.zeros((0, 2)),
            "strings": np.full((n, 2), "a"), "objects": np.array(base, dtype=object),
            "nan": np.where(base > 0, np.nan, base), "inf": np.full((n, 2), np.inf),
            "huge": base * 1e307, "int32": (base * 3).astype(np.int32),
            "float32 nd": nd.array(base, dtype="float32"), "bool": base > 0, "none": None,
            "ragged": [[1.0], [1.0, 2.0]], "wide": np.ones((2, 10**5))}[kind]


@st.composite
def _bad_labels(draw):
    kind = draw(st.sampled_from(["zeros", "half", "five", "nan", "short", "strings", "2d",
                                 "none", "empty"]))
    n = _X.shape[0]
    return {"zeros": np.zeros(n), "half": np.full(n, 0.5), "five": np.full(n, 5.0),
            "nan": np.full(n, np.nan), "short": _Y[:3], "strings": np.full(n, "a"),
            "2d": np.ones((n, 2)), "none": None, "empty": np.zeros(0)}[kind]


def _kind(name: str):
    for names, strategy in ((FEATURES, _bad_features()), (LABELS, _bad_labels()),
                            (COUNTS, _BAD_COUNT), (FLOATS, _BAD_FLOAT),
                            (VECTORS, _BAD_VECTOR), (SCALARS, _BAD_SCALAR),
                            (OBJECTS, _BAD_OBJECT), (NAMES, _BAD_NAME), (SEEDS, _BAD_SEED),
                            (FLAGS, _BAD_FLAG)):
        if name in names:
            return strategy
    return None


def _functions():
    out = {}
    for name in gp.__all__:
        value = getattr(gp, name)
        if inspect.isfunction(value):
            out[name] = value
    return out


FUNCTIONS = _functions()


def _cases():
    cases = []
    for name, function in FUNCTIONS.items():
        if name in EXEMPT:
            continue
        for param in inspect.signature(function).parameters.values():
            if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
                continue
            if _kind(param.name) is not None:
                cases.append((name, param.name))
    return cases


CASES = _cases()

#: Cases that fail in files this suite's author does not own: (function, argument) -> reason
#: "<file that owns it>: <what>" (found with the ci profile; strict: a fix turns it to XPASS,
#: which fails, so the entry must then be removed).
KNOWN: dict[tuple[str, str], str] = {
    ("forgetron_radius", "budget"):
        "experiments/beyond.py: budget=10**30 gives numpy's 'no callable log method' TypeError",
    ("amaldi_hauser_bound", "learning_rate"):
        "core/bounds.py: bad learning_rate: not refused, or refused without naming it",
    ("average_loss", "b"):
        "core/losses.py: bad b: not refused, or refused without naming it",
    ("average_loss", "w"):
        "core/losses.py: bad w: not refused, or refused without naming it",
    ("bias_bound", "w_norm"):
        "core/bounds.py: bad w_norm: not refused, or refused without naming it",
    ("boolean_data", "name"):
        "core/expressivity.py: bad name: not refused, or refused without naming it",
    ("bound_experiment", "epsilons"):
        "experiments/convergence.py: bad epsilons: not refused, or refused without naming it",
    ("bound_experiment", "max_epochs"):
        "experiments/convergence.py: bad max_epochs: not refused, or refused without naming it",
    ("bound_experiment", "progress"):
        "experiments/convergence.py: bad progress: not refused, or refused without naming it",
    ("bound_experiment", "trials"):
        "experiments/convergence.py: bad trials: not refused, or refused without naming it",
    ("boundary_turns", "weights"):
        "experiments/black_and_white.py: bad weights: not refused, or refused without naming it",
    ("broken_rules_experiment", "max_epochs"):
        "experiments/black_and_white.py: bad max_epochs: not refused, or refused without naming it",
    ("compare_rules", "seed"):
        "experiments/relaxation.py: bad seed: not refused, or refused without naming it",
    ("compare_samplers", "progress"):
        "experiments/chapter.py: bad progress: not refused, or refused without naming it",
    ("compare_samplers", "seeds"):
        "experiments/chapter.py: bad seeds: not refused, or refused without naming it",
    ("compare_subgradients", "dimensions"):
        "experiments/sgd.py: bad dimensions: not refused, or refused without naming it",
    ("compare_subgradients", "seed"):
        "experiments/sgd.py: bad seed: not refused, or refused without naming it",
    ("demo_statistics", "progress"):
        "experiments/chapter.py: bad progress: not refused, or refused without naming it",
    ("demo_statistics", "seeds"):
        "experiments/chapter.py: bad seeds: not refused, or refused without naming it",
    ("expressivity_experiment", "xor_epochs"):
        "experiments/expressivity.py: bad xor_epochs: not refused, or refused without naming it",
    ("feature_margin", "kernel"):
        "core/dual.py: bad kernel: not refused, or refused without naming it",
    ("forgetron", "kernel"):
        "core/dual.py: bad kernel: not refused, or refused without naming it",
    ("forgetron_bound", "budget"):
        "core/dual.py: bad budget: not refused, or refused without naming it",
    ("forgetron_bound", "gamma"):
        "core/dual.py: bad gamma: not refused, or refused without naming it",
    ("forgetron_bound", "kernel"):
        "core/dual.py: bad kernel: not refused, or refused without naming it",
    ("forgetron_experiment", "gamma"):
        "experiments/beyond.py: bad gamma: not refused, or refused without naming it",
    ("forgetron_experiment", "noise"):
        "experiments/beyond.py: bad noise: not refused, or refused without naming it",
    ("forgetron_experiment", "progress"):
        "experiments/beyond.py: bad progress: not refused, or refused without naming it",
    ("forgetron_experiment", "samples"):
        "experiments/beyond.py: bad samples: not refused, or refused without naming it",
    ("forgetron_experiment", "seed"):
        "experiments/beyond.py: bad seed: not refused, or refused without naming it",
    ("format_truth_table", "name"):
        "experiments/expressivity.py: bad name: not refused, or refused without naming it",
    ("gaussian_classes", "separation"):
        "core/data.py: bad separation: not refused, or refused without naming it",
    ("general_bound", "threshold"):
        "core/bounds.py: bad threshold: not refused, or refused without naming it",
    ("general_bound", "u_norm"):
        "core/bounds.py: bad u_norm: not refused, or refused without naming it",
    ("generalization_curve", "draws"):
        "experiments/optimality.py: bad draws: not refused, or refused without naming it",
    ("generalization_curve", "progress"):
        "experiments/optimality.py: bad progress: not refused, or refused without naming it",
    ("generalization_experiment", "progress"):
        "experiments/optimality.py: bad progress: not refused, or refused without naming it",
    ("getfake_noisy", "engine"):
        "core/data.py: bad engine: not refused, or refused without naming it",
    ("hard_separable", "margin"):
        "experiments/distributed.py: bad margin: not refused, or refused without naming it",
    ("hard_separable", "samples"):
        "experiments/distributed.py: bad samples: not refused, or refused without naming it",
    ("hard_separable", "seed"):
        "experiments/distributed.py: bad seed: not refused, or refused without naming it",
    ("heldout_errors", "result"):
        "experiments/black_and_white.py: bad result: not refused, or refused without naming it",
    ("hinge_loss", "x"):
        "core/losses.py: ValueError: could not convert string to float: 'ab'",
    ("kernel_bound_experiment", "draws"):
        "experiments/beyond.py: bad draws: not refused, or refused without naming it",
    ("kernel_bound_experiment", "kernel"):
        "experiments/beyond.py: bad kernel: not refused, or refused without naming it",
    ("kernel_bound_experiment", "max_epochs"):
        "experiments/beyond.py: bad max_epochs: not refused, or refused without naming it",
    ("kernel_bound_experiment", "progress"):
        "experiments/beyond.py: bad progress: not refused, or refused without naming it",
    ("kernel_bound_experiment", "seed"):
        "experiments/beyond.py: bad seed: not refused, or refused without naming it",
    ("kernel_demo", "max_epochs"):
        "experiments/beyond.py: bad max_epochs: not refused, or refused without naming it",
    ("kernel_demo", "samples"):
        "experiments/beyond.py: bad samples: not refused, or refused without naming it",
    ("kernel_demo", "seed"):
        "experiments/beyond.py: bad seed: not refused, or refused without naming it",
    ("kink_gradient", "form"):
        "core/losses.py: bad form: not refused, or refused without naming it",
    ("learn_boolean", "max_epochs"):
        "core/expressivity.py: bad max_epochs: not refused, or refused without naming it",
    ("learn_boolean", "name"):
        "core/expressivity.py: bad name: not refused, or refused without naming it",
    ("learning_curves", "epochs"):
        "experiments/digits.py: bad epochs: not refused, or refused without naming it",
    ("learning_curves", "progress"):
        "experiments/digits.py: bad progress: not refused, or refused without naming it",
    ("learning_curves", "seeds"):
        "experiments/digits.py: bad seeds: not refused, or refused without naming it",
    ("margin_experiment", "engine"):
        "experiments/chapter.py: bad engine: not refused, or refused without naming it",
    ("margin_experiment", "progress"):
        "experiments/chapter.py: bad progress: not refused, or refused without naming it",
    ("margin_experiment", "trials"):
        "experiments/chapter.py: bad trials: not refused, or refused without naming it",
    ("margin_experiment_faithful", "b"):
        "experiments/chapter.py: bad b: not refused, or refused without naming it",
    ("margin_experiment_faithful", "epsilons"):
        "experiments/chapter.py: bad epsilons: not refused, or refused without naming it",
    ("margin_experiment_faithful", "progress"):
        "experiments/chapter.py: bad progress: not refused, or refused without naming it",
    ("margin_experiment_faithful", "trials"):
        "experiments/chapter.py: bad trials: not refused, or refused without naming it",
    ("max_violation", "c"):
        "core/relaxation.py: bad c: not refused, or refused without naming it",
    ("mixing_bound_experiment", "progress"):
        "experiments/distributed.py: bad progress: not refused, or refused without naming it",
    ("mixing_bound_experiment", "seed"):
        "experiments/distributed.py: bad seed: not refused, or refused without naming it",
    ("mixing_bound_experiment", "trials"):
        "experiments/distributed.py: bad trials: not refused, or refused without naming it",
    ("mixing_bound_experiment", "workers"):
        "experiments/distributed.py: bad workers: not refused, or refused without naming it",
    ("mixing_speedup", "max_epochs"):
        "experiments/distributed.py: bad max_epochs: not refused, or refused without naming it",
    ("mixing_speedup", "progress"):
        "experiments/distributed.py: bad progress: not refused, or refused without naming it",
    ("mixing_speedup", "workers"):
        "experiments/distributed.py: bad workers: not refused, or refused without naming it",
    ("multiclass_over_splits", "progress"):
        "experiments/multiclass.py: bad progress: not refused, or refused without naming it",
    ("multiclass_over_splits", "seeds"):
        "experiments/multiclass.py: bad seeds: not refused, or refused without naming it",
    ("nonseparable_mixing", "progress"):
        "experiments/distributed.py: bad progress: not refused, or refused without naming it",
    ("nonseparable_mixing", "workers"):
        "experiments/distributed.py: bad workers: not refused, or refused without naming it",
    ("notes_sequence", "steps"):
        "core/variants.py: bad steps: not refused, or refused without naming it",
    ("novikoff_bound", "R"):
        "core/bounds.py: bad R: not refused, or refused without naming it",
    ("perceptron_separation", "A"):
        "core/separation.py: bad A: not refused, or refused without naming it",
    ("perceptron_separation_bound", "rho"):
        "core/separation.py: bad rho: not refused, or refused without naming it",
    ("plot_boundaries", "weights"):
        "plots/black_and_white.py: bad weights: not refused, or refused without naming it",
    ("plot_digit", "x"):
        "plots/digits.py: TypeError: Image data of dtype <U2 cannot be converted to float",
    ("plot_loss_surface", "extent"):
        "plots/expressivity.py: bad extent: not refused, or refused without naming it",
    ("plot_losses", "hi"):
        "plots/chapter.py: bad hi: not refused, or refused without naming it",
    ("plot_nonseparable", "traces"):
        "plots/black_and_white.py: bad traces: not refused, or refused without naming it",
    ("plot_trainers", "results"):
        "plots/sgd.py: bad results: not refused, or refused without naming it",
    ("plot_weights", "w"):
        "plots/digits.py: bad w: not refused, or refused without naming it",
    ("project_to_ball", "w"):
        "core/sgd.py: bad w: not refused, or refused without naming it",
    ("proof_trace", "b0"):
        "experiments/convergence.py: bad b0: not refused, or refused without naming it",
    ("proof_trace", "max_epochs"):
        "experiments/convergence.py: bad max_epochs: not refused, or refused without naming it",
    ("proof_trace", "threshold"):
        "experiments/convergence.py: bad threshold: not refused, or refused without naming it",
    ("proof_trace", "w0"):
        "experiments/convergence.py: bad w0: not refused, or refused without naming it",
    ("relaxation_method", "eta"):
        "core/relaxation.py: bad eta: not refused, or refused without naming it",
    ("relaxation_method", "seed"):
        "core/relaxation.py: bad seed: not refused, or refused without naming it",
    ("relaxation_method", "tol"):
        "core/relaxation.py: bad tol: not refused, or refused without naming it",
    ("relaxation_method", "w0"):
        "core/relaxation.py: bad w0: not refused, or refused without naming it",
    ("relaxation_over_splits", "epochs"):
        "experiments/relaxation.py: bad epochs: not refused, or refused without naming it",
    ("relaxation_over_splits", "progress"):
        "experiments/relaxation.py: bad progress: not refused, or refused without naming it",
    ("relaxation_over_splits", "seeds"):
        "experiments/relaxation.py: bad seeds: not refused, or refused without naming it",
    ("relu_perceptron_loss", "x"):
        "core/losses.py: bad x: not refused, or refused without naming it",
    ("relu_trap", "steps"):
        "experiments/sgd.py: bad steps: not refused, or refused without naming it",
    ("remedies_experiment", "epochs"):
        "experiments/black_and_white.py: bad epochs: not refused, or refused without naming it",
    ("remedies_experiment", "progress"):
        "experiments/black_and_white.py: bad progress: not refused, or refused without naming it",
    ("remedies_experiment", "radius"):
        "experiments/black_and_white.py: bad radius: not refused, or refused without naming it",
    ("remedies_over_seeds", "epochs"):
        "experiments/black_and_white.py: bad epochs: not refused, or refused without naming it",
    ("remedies_over_seeds", "progress"):
        "experiments/black_and_white.py: bad progress: not refused, or refused without naming it",
    ("remedies_over_seeds", "seeds"):
        "experiments/black_and_white.py: bad seeds: not refused, or refused without naming it",
    ("remedies_over_seeds", "shuffle"):
        "experiments/black_and_white.py: bad shuffle: not refused, or refused without naming it",
    ("rescaled_perceptron", "A"):
        "core/separation.py: bad A: not refused, or refused without naming it",
    ("run_sgd", "learning_rate"):
        "core/sgd.py: bad learning_rate: not refused, or refused without naming it",
    ("run_sgd", "order"):
        "core/sgd.py: TypeError: unhashable type: 'list'",
    ("run_sgd", "runs"):
        "core/sgd.py: numpy.core._exceptions._ArrayMemoryError: Unable to allocate 373. GiB for an",
    ("run_sgd", "steps"):
        "core/sgd.py: run_sgd(steps=10000000000) ran over 10 s",
    ("sample_separable", "engine"):
        "core/data.py: bad engine: not refused, or refused without naming it",
    ("second_order_experiment", "draws"):
        "experiments/beyond.py: bad draws: not refused, or refused without naming it",
    ("second_order_experiment", "progress"):
        "experiments/beyond.py: bad progress: not refused, or refused without naming it",
    ("separation_experiment", "draws"):
        "experiments/beyond.py: bad draws: not refused, or refused without naming it",
    ("separation_experiment", "gammas"):
        "experiments/beyond.py: bad gammas: not refused, or refused without naming it",
    ("separation_experiment", "progress"):
        "experiments/beyond.py: bad progress: not refused, or refused without naming it",
    ("separation_experiment", "seed"):
        "experiments/beyond.py: bad seed: not refused, or refused without naming it",
    ("separation_margin", "A"):
        "core/separation.py: bad A: not refused, or refused without naming it",
    ("sgd_bound_experiment", "horizons"):
        "experiments/sgd.py: bad horizons: not refused, or refused without naming it",
    ("sgd_bound_experiment", "progress"):
        "experiments/sgd.py: bad progress: not refused, or refused without naming it",
    ("sgd_bound_experiment", "seeds"):
        "experiments/sgd.py: bad seeds: not refused, or refused without naming it",
    ("sgd_bound_experiment", "threshold"):
        "experiments/sgd.py: bad threshold: not refused, or refused without naming it",
    ("sgd_demo_data", "samples"):
        "experiments/sgd.py: bad samples: not refused, or refused without naming it",
    ("sgd_demo_data", "seed"):
        "experiments/sgd.py: bad seed: not refused, or refused without naming it",
    ("sgd_step", "radius"):
        "core/sgd.py: bad radius: not refused, or refused without naming it",
    ("sgd_step", "x"):
        "core/sgd.py: ValueError: call w.attach_grad() and b.attach_grad() before sgd_step: autogr",
    ("sgd_step", "y"):
        "core/sgd.py: ValueError: call w.attach_grad() and b.attach_grad() before sgd_step: autogr",
    ("shard_bounds", "shards"):
        "core/distributed/mixing.py: bad shards: not refused, or refused without naming it",
    ("step_errors", "run"):
        "experiments/black_and_white.py: bad run: not refused, or refused without naming it",
    ("threshold_loss", "x"):
        "core/losses.py: bad x: not refused, or refused without naming it",
    ("ties", "model"):
        "core/multiclass.py: AttributeError: 'NoneType' object has no attribute 'scheme'",
    ("train", "engine"):
        "core/rosenblatt.py: TypeError: unhashable type: 'list'",
    ("train_aggressive", "max_epochs"):
        "core/variants.py: bad max_epochs: not refused, or refused without naming it",
    ("train_batched", "engine"):
        "core/batched.py: bad engine: not refused, or refused without naming it",
    ("train_batched", "learning_rate"):
        "core/batched.py: bad learning_rate: not refused, or refused without naming it",
    ("train_batched", "max_epochs"):
        "core/batched.py: bad max_epochs: not refused, or refused without naming it",
    ("train_distributed", "max_epochs"):
        "core/distributed/training.py: bad max_epochs: not refused, or refused without naming it",
    ("train_gluon_distributed", "max_epochs"):
        "core/distributed/gluon.py: bad max_epochs: not refused, or refused without naming it",
    ("train_gluon_sharded", "max_epochs"):
        "core/distributed/gluon.py: bad max_epochs: not refused, or refused without naming it",
    ("train_gluon_sharded", "shards"):
        "core/distributed/gluon.py: bad shards: not refused, or refused without naming it",
    ("train_kernel", "engine"):
        "core/dual.py: bad engine: not refused, or refused without naming it",
    ("train_kernel", "kernel"):
        "core/dual.py: bad kernel: not refused, or refused without naming it",
    ("train_mixed", "max_epochs"):
        "core/distributed/mixing.py: bad max_epochs: not refused, or refused without naming it",
    ("train_one_vs_all", "engine"):
        "core/multiclass.py: bad engine: not refused, or refused without naming it",
    ("train_one_vs_all", "max_epochs"):
        "core/multiclass.py: bad max_epochs: not refused, or refused without naming it",
    ("train_one_vs_one", "engine"):
        "core/multiclass.py: bad engine: not refused, or refused without naming it",
    ("train_one_vs_one", "max_epochs"):
        "core/multiclass.py: bad max_epochs: not refused, or refused without naming it",
    ("train_test_split", "seed"):
        "core/datasets.py: bad seed: not refused, or refused without naming it",
    ("train_test_split", "test_fraction"):
        "core/datasets.py: bad test_fraction: not refused, or refused without naming it",
    ("truth_table", "w"):
        "core/expressivity.py: numpy.core._exceptions._ArrayMemoryError: Unable to allocate 74.5 G",
    ("two_moons", "samples"):
        "experiments/beyond.py: bad samples: not refused, or refused without naming it",
    ("two_moons", "seed"):
        "experiments/beyond.py: bad seed: not refused, or refused without naming it",
    ("updates_by_size", "progress"):
        "experiments/chapter.py: bad progress: not refused, or refused without naming it",
    ("votes", "model"):
        "core/multiclass.py: AttributeError: 'NoneType' object has no attribute 'scheme'",
    ("wedge_demo", "long"):
        "experiments/relaxation.py: bad long: not refused, or refused without naming it",
    ("wedge_demo", "short"):
        "experiments/relaxation.py: bad short: not refused, or refused without naming it",
    ("xor_cycle", "max_epochs"):
        "core/expressivity.py: bad max_epochs: not refused, or refused without naming it",
}


def test_every_public_function_has_a_generator():
    """A new public function needs a parameter of a known kind, or an EXEMPT entry."""
    covered = {name for name, _ in CASES}
    missing = sorted(set(FUNCTIONS) - covered - set(EXEMPT))
    assert not missing, (f"public functions without a bad-input generator: {missing}; name "
                         f"their parameters' kinds in tests/test_properties.py or exempt them")
    assert set(EXEMPT) <= set(FUNCTIONS), "EXEMPT lists names that are no longer public"


class _Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise _Timeout


def _finite(value, depth=0) -> bool:
    """Every number reachable in ``value`` is finite (arrays, dataclasses, tuples, dicts)."""
    if depth > 4:
        return True
    if isinstance(value, nd.NDArray):
        value = value.asnumpy()
    if isinstance(value, np.ndarray):
        return (not np.issubdtype(value.dtype, np.floating)) or bool(np.all(np.isfinite(value)))
    if isinstance(value, (float, np.floating)):
        return math.isfinite(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return all(_finite(getattr(value, f.name), depth + 1)
                   for f in dataclasses.fields(value))
    if isinstance(value, (list, tuple)):
        return all(_finite(v, depth + 1) for v in value[:50])
    if isinstance(value, dict):
        return all(_finite(v, depth + 1) for v in list(value.values())[:50])
    return True


def _call(function, kwargs):
    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(SECONDS)
    tracemalloc.start()
    try:
        return function(**kwargs)
    finally:
        signal.alarm(0)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        assert peak <= MEMORY, f"allocated {peak / 2**20:.0f} MiB (limit {MEMORY / 2**20:.0f})"


#: Known cases whose failure depends on timing (the 10 s budget on a busy machine): not strict.
FLAKY = {("remedies_experiment", "radius")}


def _params(case):
    name, arg = case
    marks = []
    if case in KNOWN:
        marks.append(pytest.mark.xfail(strict=case not in FLAKY, reason=KNOWN[case]))
    return pytest.param(name, arg, marks=marks, id=f"{name}-{arg}")


#: The generated cases run under ``bash run.sh fuzz`` (``HYPOTHESIS_PROFILE=fuzz``) only: on
#: today's package they still find failures in many public functions (the issue on bad input
#: lists them), and they take far longer than the suite's budget.
FUZZ = os.environ.get("HYPOTHESIS_PROFILE") == "fuzz"


@pytest.mark.parametrize("function_name, argument",
                         [_params(c) for c in CASES] if FUZZ else [])
@given(data=st.data())
def test_bad_input_gives_a_named_error_or_a_finite_result(function_name, argument, data):
    import matplotlib.pyplot as plt

    function = FUNCTIONS[function_name]
    signature = inspect.signature(function)
    kwargs = {}
    for param in signature.parameters.values():
        if param.name == argument or param.default is not inspect.Parameter.empty:
            continue
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            continue
        if param.name not in POOL:
            pytest.skip(f"no valid value in POOL for {param.name!r}")
        kwargs[param.name] = POOL[param.name]
    positional = [p.name for p in signature.parameters.values()
                  if p.kind == p.POSITIONAL_ONLY]
    assert not positional, "positional-only parameters are not generated yet"
    bad = data.draw(_kind(argument), label=argument)
    kwargs[argument] = bad
    try:
        result = _call(function, kwargs)
    except (ValueError, TypeError) as exc:
        message = str(exc)
        assert argument in message or (argument in LABELS and "Y" in message) or \
            (argument in FEATURES and "X" in message), \
            f"{function_name}({argument}={bad!r:.60}) raised {exc!r:.300} without naming it"
        return
    except _Timeout:
        pytest.fail(f"{function_name}({argument}={bad!r:.60}) ran over {SECONDS} s")
    except Exception as exc:  # noqa: BLE001 - any other exception is the failure reported
        pytest.fail(f"{function_name}({argument}={bad!r:.60}) raised {type(exc).__name__}: "
                    f"{str(exc)[:300]}")
    finally:
        plt.close("all")
    assert _finite(result), f"{function_name}({argument}={bad!r:.60}) returned non-finite " \
                            f"numbers: {result!r:.300}"
