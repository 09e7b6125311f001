"""Conventions every experiment keeps: checks declared once at the edge, progress taken."""

import importlib
import inspect
import pkgutil

import numpy as np
import pytest

import gluon_perceptron as gp
import gluon_perceptron.experiments as experiments
from gluon_perceptron.experiments.optimality import adversary_curve


def _public_functions():
    for info in pkgutil.iter_modules(experiments.__path__):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{experiments.__name__}.{info.name}")
        for name, function in vars(module).items():
            if (inspect.isfunction(function) and not name.startswith("_")
                    and function.__module__ == module.__name__):
                yield f"{info.name}.{name}", function


PUBLIC = dict(_public_functions())

#: Public experiments that take only the package's own results, which are not checked again
#: (issue 28): they declare no rules.
TAKES_RESULTS = {"black_and_white.boundary_turns": "TrainResult.history['weights']"}


def test_there_are_experiments_to_check():
    assert len(PUBLIC) > 40


#: The experiments a user calls: those of ``gp.experiments.__all__``.
USER_FACING = sorted(name for name in PUBLIC if name.split(".")[-1] in gp.experiments.__all__)


@pytest.mark.parametrize("name", sorted(set(USER_FACING) - set(TAKES_RESULTS)))
def test_every_public_experiment_declares_its_checks(name):
    """Issue 18, item 1: each experiment a user calls (``gp.experiments.__all__``) declares a
    rule per parameter (validate_params), so its body holds no checks and the package calls it
    checks nothing twice. Issue 28: checks only where a user's input enters, so a helper only
    the package calls (outside ``__all__``) declares none."""
    function = PUBLIC[name]
    assert hasattr(function, "__rules__"), f"{name} has no validate_params rules"
    assert set(function.__rules__) == set(inspect.signature(function).parameters)


def test_experiments_taking_only_results_declare_no_rules():
    """Issue 28: the package's own results are not checked again."""
    for name in TAKES_RESULTS:
        assert name in USER_FACING and not hasattr(PUBLIC[name], "__rules__"), name


class _Spy:
    """A tqdm-like progress wrapper that records what it was given."""

    def __init__(self):
        self.calls = []

    def __call__(self, items, **labels):
        items = list(items)
        self.calls.append((len(items), labels))
        return items


@pytest.mark.parametrize("run", [
    lambda p: gp.experiments.nonseparable_experiment(5, samples=10, seed=0, progress=p),
    lambda p: adversary_curve([0.5, 0.3], 4, progress=p),
    lambda p: gp.experiments.leave_one_out(*gp.xor_data(), max_epochs=5, progress=p),
    lambda p: gp.experiments.compare_subgradients(6, progress=p),
    lambda p: gp.experiments.kernel_demo(samples=10, max_epochs=5, progress=p),
], ids=["nonseparable_experiment", "adversary_curve", "leave_one_out", "compare_subgradients",
        "kernel_demo"])
def test_experiments_that_gained_progress_report_through_it(run):
    spy = _Spy()
    run(spy)
    assert spy.calls and all(n > 0 and "desc" in labels for n, labels in spy.calls)


def test_nested_calls_are_not_checked_again():
    """One outer check per experiment call: the counts the issue asks for rest on this."""
    from gluon_perceptron.core import _validation

    calls = []
    check = _validation._check_call

    def counted(function, *args, **kwargs):
        calls.append(function.__name__)
        return check(function, *args, **kwargs)

    _validation._check_call = counted
    try:
        gp.experiments.remedies_experiment(30, epochs=5, seed=3)
    finally:
        _validation._check_call = check
    assert calls == ["remedies_experiment"]


def test_two_moons_noise_is_bounded_where_a_user_passes_it():
    """``two_moons`` is a helper the experiments call, unchecked: the experiments that hand it
    a user's ``noise`` keep it at most ``MAX_NOISE``, where the kernels' squared distances
    between its points are still finite."""
    from gluon_perceptron.experiments import beyond

    X, _ = beyond.two_moons(2000, noise=beyond.MAX_NOISE, seed=0)
    assert np.isfinite(4.0 * np.max(np.einsum("ij,ij->i", X, X)))
    for run in (lambda: gp.experiments.forgetron_experiment(samples=10, noise=1e151),
                lambda: gp.experiments.kernel_bound_experiment(draws=1, samples=5, noise=1e151)):
        with pytest.raises(ValueError, match=r"noise must be at most 1e150"):
            run()
