"""MXNet imported through the package skips the scikit-learn import of mxnet.model and the
scipy.stats imports of mxnet.contrib.quantization and mxnet.test_utils, and nothing else
(``gluon_perceptron/core/_mxnet_import.py``)."""

import functools
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


#: Last in every process: its exit then skips walking the libraries' objects in the final
#: garbage collections (0.4 CPU-s with MXNet and scikit-learn loaded); nothing is checked after.
_QUICK_EXIT = "\nimport gc\ngc.freeze()\n"


def _run(code: str) -> str:
    proc = subprocess.run([sys.executable, "-c", code + _QUICK_EXIT], capture_output=True,
                          text=True, cwd=ROOT, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout.strip()


@functools.cache
def _through_the_package() -> list[str]:
    """One process for the first two tests (MXNet's import is a CPU-second and a half): what
    MXNet imported through the package left out, then whether scikit-learn and scipy.stats
    still import."""
    return _run("import sys, gluon_perceptron, mxnet\n"
                "print('sklearn' in sys.modules, mxnet.model.BASE_ESTIMATOR is object)\n"
                "print('scipy.stats' in sys.modules, mxnet.contrib.quantization.stats is None,\n"
                "      mxnet.test_utils.ss is None)\n"
                "from sklearn.base import BaseEstimator\n"
                "from sklearn.datasets import load_digits\n"
                "print(load_digits().data.shape)\n"
                "from scipy import stats\n"
                "print(stats.norm.cdf(0.0))").splitlines()


def test_mxnet_through_the_package_loads_no_scikit_learn_and_sklearn_still_imports():
    out = _through_the_package()
    assert (out[0], out[2]) == ("False True", "(1797, 64)")


def test_mxnet_through_the_package_loads_no_scipy_stats_and_scipy_stats_still_imports():
    out = _through_the_package()
    assert (out[1], out[3]) == ("False True True", "0.5")


@functools.cache
def _imported_first() -> list[str]:
    """One process for the next two tests: SciPy's statistics and scikit-learn imported before
    the package (``sklearn.base`` imports ``scipy.stats`` itself), then what MXNet got. Each
    import is already in ``sys.modules`` when MXNet asks for it, so the finder is not consulted
    for either: one import order, checked for both packages."""
    return _run("import scipy.stats, sklearn.base, gluon_perceptron, mxnet\n"
                "print(mxnet.contrib.quantization.stats is scipy.stats,\n"
                "      mxnet.test_utils.ss is scipy.stats)\n"
                "print(mxnet.model.BASE_ESTIMATOR is sklearn.base.BaseEstimator)").splitlines()


def test_scipy_stats_imported_first_is_what_mxnet_gets():
    assert _imported_first()[0] == "True True"


def test_scikit_learn_imported_first_is_what_mxnet_gets():
    assert _imported_first()[1] == "True"


def test_without_the_package_mxnet_imports_scikit_learn_as_before():
    """The finder is what skips it (so the first test can fail)."""
    out = _run("import sys, mxnet\nprint('sklearn' in sys.modules, 'scipy.stats' in sys.modules)")
    assert out == "True True"
