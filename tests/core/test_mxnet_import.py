"""MXNet imported through the package skips the scikit-learn import of mxnet.model and the
scipy.stats imports of mxnet.contrib.quantization and mxnet.test_utils, defers scipy.sparse,
requests and numpy.testing to their first use, and nothing else
(``gluon_perceptron/core/_mxnet_import.py``)."""

import functools
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


#: Last in every process: its exit then skips walking the libraries' objects in the final
#: garbage collections (0.4 CPU-s with MXNet and scikit-learn loaded); nothing is checked after.
_QUICK_EXIT = "\nimport gc\ngc.freeze()\n"


def _run(code: str, cwd: Path = ROOT) -> str:
    proc = subprocess.run([sys.executable, "-c", code + _QUICK_EXIT], capture_output=True,
                          text=True, cwd=cwd, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout.strip()


@functools.cache
def _through_the_package() -> list[str]:
    """One process for the first four tests (MXNet's import is more than a CPU-second): what
    MXNet imported through the package left out and deferred; then MXNet converting a SciPy
    sparse matrix, a later import of each deferred module (scipy.sparse's own code imports its
    submodule csgraph, which the import asks for), and whether scikit-learn and scipy.stats
    still import."""
    return _run(textwrap.dedent("""\
        import sys, gluon_perceptron, mxnet
        print('sklearn' in sys.modules, mxnet.model.BASE_ESTIMATOR is object)
        print('scipy.stats' in sys.modules, mxnet.contrib.quantization.stats is None,
              mxnet.test_utils.ss is None)
        deferred = ("scipy.sparse", "requests", "numpy.testing")
        print(*(type(sys.modules[name]).__name__ for name in deferred))
        import scipy.sparse
        csr = mxnet.nd.sparse.array(scipy.sparse.csr_matrix([[0.0, 1.0], [2.0, 0.0]]))
        print(csr.stype, csr.asnumpy().tolist())
        csgraph = sys.modules["scipy.sparse.csgraph"]
        import scipy.sparse.csgraph
        from scipy.sparse.csgraph import connected_components
        print(scipy.sparse.csgraph is csgraph, connected_components is csgraph.connected_components)
        import requests, numpy.testing
        print(requests.__version__ > "2", callable(numpy.testing.assert_allclose))
        print(*(type(sys.modules[name]).__name__ for name in deferred),
              *(type(sys.modules[name].__loader__).__name__ for name in deferred))
        from sklearn.base import BaseEstimator
        from sklearn.datasets import load_digits
        print(load_digits().data.shape)
        from scipy import stats
        print(stats.norm.cdf(0.0))
        """)).splitlines()


def test_mxnet_through_the_package_loads_no_scikit_learn_and_sklearn_still_imports():
    out = _through_the_package()
    assert (out[0], out[7]) == ("False True", "(1797, 64)")


def test_mxnet_through_the_package_loads_no_scipy_stats_and_scipy_stats_still_imports():
    out = _through_the_package()
    assert (out[1], out[8]) == ("False True True", "0.5")


def test_mxnet_through_the_package_defers_scipy_sparse_requests_and_numpy_testing():
    assert _through_the_package()[2] == "DeferredModule DeferredModule DeferredModule"


def test_a_deferred_module_is_the_whole_module_at_its_first_use():
    """MXNet converts SciPy's matrix; scipy.sparse.csgraph, which scipy.sparse imports itself,
    is one module (not loaded a second time for the import that asked for it); each deferred
    module ends a plain module with the loader the import system found for it."""
    assert _through_the_package()[3:7] == [
        "csr [[0.0, 1.0], [2.0, 0.0]]", "True True", "True True",
        "module module module SourceFileLoader SourceFileLoader SourceFileLoader"]


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


def test_a_submodule_of_a_deferred_package_runs_once(tmp_path):
    """A package deferred for a module (here ``importer``, listed as MXNet's modules are) whose
    own code imports its submodule ``sub``: importing ``pkg.sub`` runs the package, then
    ``sub`` once, and gives the module the package holds. (Without ``_loaded_with`` the import
    ran ``sub`` a second time.)"""
    package = tmp_path / "pkg"
    package.mkdir()
    record = "import builtins\nbuiltins.RUNS = getattr(builtins, 'RUNS', []) + [__name__]\n"
    (package / "__init__.py").write_text(record + "from . import sub\n")
    (package / "sub.py").write_text(record)
    (tmp_path / "importer.py").write_text("import pkg\n")
    out = _run(textwrap.dedent(f"""\
        import builtins, sys
        sys.path[:0] = [{str(tmp_path)!r}, {str(ROOT)!r}]
        from gluon_perceptron.core import _mxnet_import
        _mxnet_import.DEFERRED["importer"] = ("pkg",)
        _mxnet_import._ANY_LISTED += ("pkg",)
        import importer
        print(type(sys.modules["pkg"]).__name__, getattr(builtins, "RUNS", []))
        import pkg.sub
        print(builtins.RUNS, pkg.sub is sys.modules["pkg.sub"], type(pkg).__name__)
        """), cwd=tmp_path).splitlines()
    assert out == ["DeferredModule []", "['pkg', 'pkg.sub'] True module"]


def test_a_deferred_module_whose_code_raises_is_not_imported(tmp_path):
    """The error reaches whoever first uses the module, and the module leaves ``sys.modules``,
    as after a failed import: the next import runs its code again (and raises again)."""
    (tmp_path / "broken.py").write_text("raise RuntimeError('broken on purpose')\n")
    (tmp_path / "importer.py").write_text("import broken\n")
    out = _run(textwrap.dedent(f"""\
        import sys
        sys.path[:0] = [{str(tmp_path)!r}, {str(ROOT)!r}]
        from gluon_perceptron.core import _mxnet_import
        _mxnet_import.DEFERRED["importer"] = ("broken",)
        _mxnet_import._ANY_LISTED += ("broken",)
        import importer
        try:
            importer.broken.anything
        except RuntimeError as error:
            print(error, "broken" in sys.modules)
        try:
            import broken
        except RuntimeError as error:
            print(error, "broken" in sys.modules)
        """), cwd=tmp_path).splitlines()
    assert out == ["broken on purpose False", "broken on purpose False"]


def test_without_the_package_mxnet_imports_scikit_learn_as_before():
    """The finder is what skips and defers them (so the tests above can fail)."""
    out = _run("import sys, mxnet\nprint('sklearn' in sys.modules, 'scipy.stats' in sys.modules,"
               "\n      *(type(sys.modules[name]).__name__ for name in"
               "\n        ('scipy.sparse', 'requests', 'numpy.testing')))")
    assert out == "True True module module module"
