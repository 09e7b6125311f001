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
fixed order, about 25 s for the 581 cases on two cores; ``bash run.sh fuzz`` loads the
``fuzz`` profile (``HYPOTHESIS_PROFILE=fuzz``), which adds generated values (arrays of random
shapes, dtypes and magnitudes; integers and floats over their range).
"""
from __future__ import annotations

import dataclasses
import functools
import inspect
import math
import os
import signal
import tracemalloc

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

# "ci": every listed bad value of the parameter's kind, in a fixed order (hypothesis stops when
# the list is exhausted). "fuzz" (bash run.sh fuzz): the lists plus generated values (arrays of
# random shapes, dtypes and magnitudes, integers and floats over their whole range).
settings.register_profile("ci", max_examples=30, deadline=None, derandomize=True,
                          suppress_health_check=list(HealthCheck), database=None)
settings.register_profile("fuzz", max_examples=60, deadline=None,
                          suppress_health_check=list(HealthCheck))
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
    "max_norm": 1.0,
}

_C = np.digitize(_X[:, 0], [-0.5, 0.5])  # three classes 0, 1, 2 for the multiclass functions


@functools.cache
def _digits_split():
    X, y = gp.data.load_digits()
    return gp.data.train_test_split(X[:200], y[:200], seed=0)


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


#: Valid values for one function's parameter where the name-wide POOL value does not fit it
#: (factories: called for each call, cached where building is slow).
VALID = {
    ("baselines", "Y_train"): lambda: _Y, ("baselines", "Y_test"): lambda: _Y,
    ("binary_error_rates", "model"): _model, ("binary_error_rates", "y"): lambda: _C,
    ("predict_multiclass", "model"): _model,
    ("ties", "model"): _model, ("votes", "model"): _model_ovo,
    ("train_one_vs_all", "y"): lambda: _C, ("train_one_vs_one", "y"): lambda: _C,
    ("train_test_split", "y"): lambda: _C, ("one_vs_rest", "y"): lambda: _C,
    ("one_vs_rest", "positive"): lambda: 1,
    # X, Y default to None (shards= may name files instead): give the in-memory data
    ("train_mixed", "X"): lambda: _X, ("train_mixed", "Y"): lambda: _Y,
    ("confusion_matrix", "y_true"): lambda: _C, ("confusion_matrix", "y_pred"): lambda: _C,
    ("confusion_matrix", "classes"): lambda: [0, 1, 2],
    ("plot_confusion_matrix", "M"): lambda: np.eye(3, dtype=int),
    ("plot_confusion_matrix", "classes"): lambda: [0, 1, 2],
    ("plot_binary_error_rates", "model"): _model,
    ("plot_binary_error_rates", "rates"):
        lambda: gp.rosenblatt.binary_error_rates(_model(), _X, _C),
    ("clip_gradient", "grad_w"): lambda: nd.array([3.0, 4.0]),
    ("clip_gradient", "grad_b"): lambda: nd.array([0.0]),
    ("heldout_errors", "result"):
        lambda: gp.rosenblatt.train_traced(_X, _Y, max_epochs=5, record=True),
    ("plot_unguarded", "plain"): lambda: gp.rosenblatt.train_traced(_X, _Y, max_epochs=5),
    ("plot_unguarded", "unguarded"): lambda: _broken().unguarded,
    ("plot_trainers", "results"): lambda: {"train": gp.train(_X, _Y, max_epochs=5)},
    ("plot_nonseparable", "traces"):
        lambda: {"data": gp.rosenblatt.train_traced(_X, -_Y, max_epochs=5, record=True)},
    ("horizon_maxima", "norms"): lambda: np.abs(RNG.normal(size=30)),
    ("horizon_maxima", "horizons"): lambda: (5, 10),
    ("tail_stats", "trace"): lambda: np.linspace(0.0, 1.0, 30),
    ("kink_gradient", "form"): lambda: next(iter(gp.KINK_FORMS)),
    ("learning_curve", "split"): _digits_split, ("learning_curve", "digit"): lambda: 0,
    ("mean_image_contrast", "split"): _digits_split, ("mean_image_contrast", "digit"): lambda: 0,
    ("multiclass_demo", "split"): _digits_split,
    ("plot_digit_weights", "split"): _digits_split,
    ("plot_digit_weights", "curves"):
        lambda: [gp.experiments.learning_curve(_digits_split(), 0, epochs=2)],
    ("plot_learning_curves", "digit"): lambda: 0,
    ("order_effect", "remedies"): lambda: gp.experiments.remedies_experiment(20, epochs=5),
    ("plot_aggressive", "plain"): lambda: _broken().plain,
    ("plot_aggressive", "aggressive"): lambda: _broken().aggressive,
    ("step_errors", "run"): lambda: _broken().plain,
    ("plot_boundaries", "weights"): lambda: [(np.array([1.0, 0.0]), 0.2)],
    ("plot_update", "update"): lambda: gp.demo(nd.array(_X), nd.array(_Y)).updates[0],
    ("plotscore", "d"): lambda: nd.zeros(1),
    ("plot_transformed_runs", "scales"): lambda: (1.0, 2.0),
    ("plot_transformed_runs", "scaled"): _transformed,
    ("plot_transformed_runs", "shifts"): lambda: (1.0, 2.0),
    ("plot_transformed_runs", "shifted"): _transformed,
    ("plot_wedge_paths", "results"): lambda: _wedge().paths,
    ("plot_wedge_paths", "A"): lambda: _wedge().A, ("plot_wedge_paths", "c"): lambda: _wedge().c,
    ("second_order_bound", "run"): lambda: gp.beyond.train_second_order(_X, _Y),
    ("second_order_bound", "u"): lambda: np.array([1.0, 0.0, 0.2]),
    ("sgd_bound", "learning_rates"): lambda: np.full(10, 0.1),
    ("total_perceptron_loss", "W"): lambda: RNG.normal(size=(5, 2)),
    ("relaxation_method", "A"): lambda: POOL["A"].T, ("max_violation", "A"): lambda: POOL["A"].T,
    ("compare_rules", "A"): lambda: POOL["A"].T,
    ("relaxation_method", "c"): lambda: np.zeros(12), ("max_violation", "c"): lambda: np.zeros(12),
    ("max_violation", "w"): lambda: np.array([1.0, 0.0, 0.2]),
    ("compare_rules", "c"): lambda: np.zeros(12),
    ("proof_trace", "u"): lambda: np.array([1.0, 0.0, 0.2]),
    ("sgd_step", "w"): lambda: _attached(nd.zeros(2)),
    ("sgd_step", "b"): lambda: _attached(nd.zeros(1)),
    ("train_batched", "Y"): lambda: _Y[None, :],
    ("remedies_over_seeds", "last"): lambda: 2,
    # the Forgetron's bound is infinite (the theorem does not apply) below a budget of 83
    ("forgetron_experiment", "budgets"): lambda: (100,), ("forgetron_bound", "budget"): lambda: 100,
    ("bias_bound", "b"): lambda: 0.5, ("truth_table", "b"): lambda: -0.5,
    # the step in MXNet's NumPy interface takes mxnet.numpy arrays
    ("perceptron_np", "w"): lambda: mx.np.array([1.0, 0.0]),
    ("perceptron_np", "b"): lambda: mx.np.zeros(1),
    ("perceptron_np", "x"): lambda: mx.np.array(_X[0], dtype="float32"),
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
FLAGS = {"scale", "bias", "shuffle"}
PROGRESS = {"progress"}
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
    "write_idx": "writes files; its bad arguments are in test_datasets",
    "read_idx": "reads files; bad files and paths are in test_datasets",
    "load_mnist": "reads a folder; bad folders are in test_datasets",
    "mnist_split": "reads a folder; bad folders are in test_datasets",
    "replay_printed_trace": "takes no arguments",
    "two_point_data": "takes no arguments",
    "xor_data": "takes no arguments",
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
BAD_SCALARS = [float("nan"), float("inf"), np.array([1.0, 2.0]), "a", None, []]
BAD_OBJECTS = [None, "abc", 3, np.zeros(3), {}]
BAD_NAMES = [None, 3, "nope", "", ["AND"]]
BAD_FLAGS = ["no", 0.5, None, "yes", 2]
BAD_SEEDS = [-1, True, "3", 2.5, float("nan"), -(2**70), 2**70]
BAD_PROGRESS = ["no", 0.5, 3, [1]]


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
         (FLOATS, BAD_FLOATS), (VECTORS, BAD_VECTORS), (SCALARS, BAD_SCALARS),
         (OBJECTS, BAD_OBJECTS), (NAMES, BAD_NAMES), (SEEDS, BAD_SEEDS), (FLAGS, BAD_FLAGS),
         (PROGRESS, BAD_PROGRESS))


#: Parameters whose name says one kind but which hold another: (function, parameter) -> kind.
KIND_OF = {("plot_nonseparable", "steps"): OBJECTS, ("plot_nonseparable", "bounds"): OBJECTS}


def bad_values(name: str, function: str | None = None) -> list | None:
    """The bad values for a parameter called ``name`` (of ``function``), or None if its kind is
    unknown."""
    kind = KIND_OF.get((function, name))
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
             id(BAD_FLOATS): _ANY_FLOAT | _ANY_INT, id(BAD_SCALARS): _ANY_FLOAT | _ANY_ARRAY,
             id(BAD_SEEDS): st.integers(max_value=-1) | st.integers(min_value=2**32),
             id(BAD_NAMES): st.text(max_size=12),
             id(BAD_FLAGS): _ANY_INT | st.text(max_size=4)}


def _kind(name: str, function: str | None = None):
    values = bad_values(name, function)
    if values is None:
        return None
    listed = st.sampled_from(values)
    extra = GENERATED.get(id(values)) if PROFILE == "fuzz" else None
    return listed if extra is None else listed | extra


#: Every public package: the top level and its subpackages (``gp.theory``, ``gp.plots``, ...).
PACKAGES = (gp, *(getattr(gp, alias) for alias in gp._SUBPACKAGES))


def _functions():
    """Every public function, from the union of the packages' ``__all__``, by name (a name is
    one function wherever it is public: the tables below are keyed by it)."""
    out = {}
    for package in PACKAGES:
        for name in package.__all__:
            value = getattr(package, name)
            if inspect.isfunction(value):
                assert out.setdefault(name, value) is value, f"{name} names two functions"
    # one fixed order, by name: the first calls of a trainer compile its engine (numba), which
    # must not fall inside the time budget of a case that runs before every other trainer
    return dict(sorted(out.items(), key=lambda item: item[0].lower()))


FUNCTIONS = _functions()


def _cases():
    cases = []
    for name, function in FUNCTIONS.items():
        if name in EXEMPT:
            continue
        for param in inspect.signature(function).parameters.values():
            if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
                continue
            if _kind(param.name, name) is not None:
                cases.append((name, param.name))
    return cases


CASES = _cases()

#: Cases known to fail, with the reason: (function, argument) -> reason. Strict: a fixed case
#: turns to XPASS, which fails, so its entry must then go. Empty: every case passes.
KNOWN: dict[tuple[str, str], str] = {}


def test_every_public_function_has_a_generator():
    """A new public function needs a parameter of a known kind, or an EXEMPT entry."""
    covered = {name for name, _ in CASES}
    missing = sorted(set(FUNCTIONS) - covered - set(EXEMPT))
    assert not missing, (f"public functions without a bad-input generator: {missing}; name "
                         f"their parameters' kinds in tests/test_properties.py or exempt them")
    assert set(EXEMPT) <= set(FUNCTIONS), "EXEMPT lists names that are no longer public"


class _Timeout(Exception):
    pass


class _TooMuchMemory(Exception):
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
        if peak > MEMORY:
            raise _TooMuchMemory(f"allocated {peak / 2**20:.0f} MiB (limit {MEMORY / 2**20:.0f})")


def _params(case):
    name, arg = case
    marks = []
    if case in KNOWN:
        marks.append(pytest.mark.xfail(strict=True, reason=KNOWN[case]))
    return pytest.param(name, arg, marks=marks, id=f"{name}-{arg}")


def valid_arguments(function, argument: str) -> dict:
    """Valid values for every parameter of ``function`` but ``argument``: POOL's for the
    required ones, CHEAP's (small sizes) for the optional ones it names, so that a bad value
    the function wrongly accepts costs a small run, not a full experiment."""
    kwargs = {}
    for param in inspect.signature(function).parameters.values():
        if param.name == argument or param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            continue
        if (function.__name__, param.name) in VALID:
            kwargs[param.name] = VALID[function.__name__, param.name]()
        elif param.default is inspect.Parameter.empty:
            if param.name not in POOL:
                pytest.skip(f"no valid value in POOL for {param.name!r}")
            kwargs[param.name] = POOL[param.name]
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


def failure(function_name: str, argument: str, bad) -> str | None:
    """Why calling ``function_name`` with ``argument=bad`` breaks the contract, or None."""
    function = FUNCTIONS[function_name]
    kwargs = valid_arguments(function, argument)
    kwargs[argument] = bad
    call = f"{function_name}({argument}={bad!r:.60})"
    try:
        result = _call(function, kwargs)
    except (ValueError, TypeError) as exc:
        message = str(exc)
        if argument in message or (argument in LABELS and "Y" in message) or \
                (argument in FEATURES and "X" in message):
            return None
        return f"{call} raised {exc!r:.300} without naming it"
    except _Timeout:
        return f"{call} ran over {SECONDS} s"
    except _TooMuchMemory as exc:
        return f"{call} {exc}"
    except Exception as exc:  # noqa: BLE001 - any other exception is the failure reported
        return f"{call} raised {type(exc).__name__}: {str(exc)[:300]}"
    finally:
        plt.close("all")
    if not _finite(result):
        return f"{call} returned non-finite numbers: {result!r:.300}"
    return None


@pytest.mark.parametrize("function_name, argument", [_params(c) for c in CASES])
@given(data=st.data())
def test_bad_input_gives_a_named_error_or_a_finite_result(function_name, argument, data):
    bad = data.draw(_kind(argument, function_name), label=argument)
    problem = failure(function_name, argument, bad)
    assert problem is None, problem
