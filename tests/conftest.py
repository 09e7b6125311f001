"""Shared test setup: headless matplotlib, seeded generators."""

import os

os.environ.setdefault("MPLBACKEND", "Agg")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import matplotlib  # noqa: E402

matplotlib.use("Agg")

import importlib  # noqa: E402

import mxnet as mx  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402


@pytest.fixture
def seed():
    """Seed MXNet and numpy; returns a function to reseed with another value."""

    def reseed(value: int = 0) -> int:
        mx.random.seed(value)
        np.random.seed(value)
        return value

    reseed(0)
    return reseed


@pytest.fixture(autouse=True)
def _fresh_state():
    """Every test starts from the same random state (whatever ran before it on this worker,
    pytest-xdist decides the order) and leaves no figure open."""
    import random

    mx.random.seed(0)
    np.random.seed(0)
    random.seed(0)
    yield
    import matplotlib.pyplot as plt

    plt.close("all")


@pytest.fixture(scope="session")
def split():
    """scikit-learn's digits, split with seed 0 (the digits and multiclass tests share it)."""
    from gluon_perceptron.core import datasets

    return datasets.digits_split(seed=0)


#: The module (not the function of the same name the package exports).
perceptron_module = importlib.import_module("gluon_perceptron.core.kernel")
BACKENDS = ["compiled", "numpy"] if perceptron_module.numba is not None else ["numpy"]


@pytest.fixture(params=BACKENDS)
def backend(request, monkeypatch):
    """Run the test with the compiled fast engine (when numba is installed) and the numpy one."""
    monkeypatch.setattr(perceptron_module, "FAST_BACKEND", request.param)
    return request.param
