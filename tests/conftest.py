"""Shared test setup: headless matplotlib, seeded generators."""

import os
import signal

os.environ.setdefault("MPLBACKEND", "Agg")
os.environ.setdefault("OMP_NUM_THREADS", "1")

if os.environ["MPLBACKEND"].lower() != "agg":  # a backend of the user's: Agg all the same
    import matplotlib

    matplotlib.use("Agg")
# (else matplotlib reads MPLBACKEND where a test first imports it: pytest-xdist's controlling
# process, which reads this file too and runs no test, never imports it)

import importlib  # noqa: E402
import importlib.util  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any, cast  # noqa: E402

import pytest  # noqa: E402

# nbformat (tools/notebooks.py, which tests import) imports jsonschema, whose format checkers
# import rfc3987-syntax when it is installed (jupyter-events asks for it): that import builds a
# Lark parser for RFC 3987, about 1.8 CPU-s in every pytest-xdist worker, for the "iri" format,
# which no notebook schema and no test uses. Without it jsonschema leaves that format unchecked.
sys.modules.setdefault("rfc3987_syntax", cast(Any, None))

# MXNet and numba are imported by the tests' modules, not here: under pytest-xdist the controlling
# process reads this file too (before it starts the workers) and runs no test, and a pytest this
# suite starts in a subprocess (tests/project/test_loops.py) collects only a few modules.

# A run started with `&` from a non-interactive shell inherits SIGINT ignored, and so would every
# process the tests start (an ignored signal stays ignored across exec): the tests of Ctrl-C need
# it delivered, as it is in a terminal.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

#: Seeds reserved for the tests' checks of the notebooks' claims (issue 19, item 4): no notebook
#: and no main-job section may use a seed in this range, so a claim a notebook prints is checked
#: here on draws nobody printed. Import it (``from conftest import TEST_SEEDS``, the tests folder
#: is on ``sys.path``) or ask for the ``test_seeds`` fixture; take a prefix
#: (``TEST_SEEDS[:40]``) when a check needs fewer draws.
TEST_SEEDS = range(10_000, 11_000)


@pytest.fixture(scope="session")
def test_seeds() -> range:
    """The reserved seeds, :data:`TEST_SEEDS` (10,000 to 10,999)."""
    return TEST_SEEDS


@pytest.fixture
def seed():
    """Seed MXNet and numpy; returns a function to reseed with another value."""

    import mxnet as mx
    import numpy as np

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

    import numpy as np

    mx = sys.modules.get("mxnet")  # not imported yet: its first import is its fresh state
    if mx is not None:
        mx.random.seed(0)
    np.random.seed(0)
    random.seed(0)
    yield
    plt = sys.modules.get("matplotlib.pyplot")  # not imported: no figure can be open
    if plt is not None:
        plt.close("all")


@pytest.fixture(scope="session")
def split():
    """scikit-learn's digits, split with seed 0 (the digits and multiclass tests share it)."""
    from gluon_perceptron.core.data import real as datasets

    return datasets.digits_split(seed=0)


#: The fast engine's backends: "compiled" where the engine imports numba (installed, and not
#: kept out by ``GLUON_PERCEPTRON_FAST=numpy``), found without importing it (see above); the
#: ``backend`` fixture checks that the engine agrees.
BACKENDS = (["compiled", "numpy"] if os.environ.get("GLUON_PERCEPTRON_FAST", "") != "numpy"
            and importlib.util.find_spec("numba") is not None else ["numpy"])


@pytest.fixture(params=BACKENDS)
def backend(request, monkeypatch):
    """Run the test with the compiled fast engine (when numba is installed) and the numpy one."""
    #: The module (not the function of the same name the package exports).
    engine = importlib.import_module("gluon_perceptron.core.rosenblatt.engine")
    assert (engine.numba is not None) == ("compiled" in BACKENDS), "conftest's BACKENDS is stale"
    monkeypatch.setattr(engine, "FAST_BACKEND", request.param)
    return request.param


#: The tests that read only their own notebook's run from the book (test -> the parameter
#: naming the notebook): when they are the only ones selected, the book executes only those.
_NOTEBOOK_USERS = {"test_notebook_runs": "path",
                   "test_student_copy_runs_to_its_first_stub_and_the_solutions_pass": "source"}


@pytest.fixture(scope="session")
def book(request, tmp_path_factory):
    """The book (``docs/build.py``), built once for the whole test run: every notebook executed
    once, for the notebook tests and the browser test alike. Under pytest-xdist the first worker
    to ask builds it under a file lock; the others wait for it and reuse it.

    Returns a namespace: ``out`` (the build folder), ``status`` (the build's exit status, 1 when
    a notebook failed), ``log`` (what the build printed) and ``builder`` (the ``docs/build.py``
    module, which reads a build back). ``GLUON_PERCEPTRON_BOOK=DIR`` uses a build already made
    with ``python docs/build.py --out DIR`` instead of building one. When the only tests
    selected that need the book are some notebooks' ``test_notebook_runs`` or student copies
    (``-k 05``), only those notebooks are executed, without the API pages.
    """
    import importlib.util
    import json
    import subprocess
    import sys
    import types
    from pathlib import Path

    from filelock import FileLock

    script = Path(__file__).resolve().parent.parent / "docs" / "build.py"
    spec = importlib.util.spec_from_file_location("gluon_perceptron_book_build", script)
    builder = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = builder
    spec.loader.exec_module(builder)
    reuse = os.environ.get("GLUON_PERCEPTRON_BOOK")
    if reuse:
        return types.SimpleNamespace(out=Path(reuse).resolve(), status=None,
                                     log=f"reused the build in {reuse}", builder=builder)
    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent  # one folder for every worker of this run
    out, done = shared / "book", shared / "book.status.json"
    command = [sys.executable, str(script), "--out", str(out)]
    users = [item for item in request.session.items if "book" in item.fixturenames]
    if all(item.originalname in _NOTEBOOK_USERS for item in users):
        selected = sorted({item.callspec.params[_NOTEBOOK_USERS[item.originalname]].name[:2]
                           for item in users})
        if len(selected) < len(list(builder.NOTEBOOKS.glob("*.ipynb"))):
            command += ["--no-api", "--only", *selected]
    with FileLock(str(shared / "book.lock")):
        if not done.exists():
            proc = subprocess.run(command, capture_output=True, text=True)
            done.write_text(json.dumps({"status": proc.returncode,
                                        "log": proc.stdout + proc.stderr}))
        result = json.loads(done.read_text())
    return types.SimpleNamespace(out=out, status=result["status"], log=result["log"],
                                 builder=builder)


# --- the slow groups, marked ---------------------------------------------------------------

#: The public functions that start a cluster (their property-suite cases start one each).
_CLUSTER_STARTERS = ("launch_cluster", "train_distributed", "train_gluon_distributed")

#: The slow groups, which ``--quick`` (``bash run.sh test --quick``) leaves out.
SLOW_GROUPS = ("book", "distributed", "main_job", "namespaces")


def pytest_addoption(parser):
    parser.addoption(
        "--quick", action="store_true",
        help="leave out the slow groups (the book, clusters, the main job, network "
             "namespaces): the developer's loop, about a minute on two cores")


def pytest_configure(config):
    """``--quick`` also loads the hypothesis profile ``quick`` (tests/project/test_properties.py:
    the first values of each bad-input list, not all), unless ``HYPOTHESIS_PROFILE`` names one."""
    if config.getoption("quick"):
        os.environ.setdefault("HYPOTHESIS_PROFILE", "quick")


#: Modules (their path in tests/) whose every test belongs to one slow group: the book's own
#: build and kernels, the main job run on its helper processes.
_MODULE_GROUPS = {"book/test_book.py": "book", "main/test_parallel.py": "main_job",
                  "book/test_jupyterlab.py": "book"}
#: Folders of tests/ whose every test belongs to one slow group: the clusters of core/distributed.
_FOLDER_GROUPS = {"core/distributed": "distributed"}
_TESTS = Path(__file__).resolve().parent
#: Book-group modules that do not read the book (JupyterLab on the notebook sources, the build's
#: children): run last, so that under pytest-xdist's worksteal (``bash run.sh test``) the
#: worker that starts the book's build (tests/book/test_book.py, first) does not find them
#: queued behind it; the other worker runs them, or the first to run out of tests.
_RUN_LAST = ("book/test_jupyterlab.py", "book/test_book_build_children.py")
#: The module whose first test builds the book (it stays first: the build starts at once).
_BUILDS_THE_BOOK = "book/test_book.py"


def _place(item) -> int:
    """Where a test goes in the run: 0 (the collected order), 1 (it reads the book but does not
    build it: the notebooks' runs, the student copies), 2 (:data:`_RUN_LAST`). Under worksteal
    the worker that does not build the book reaches the readers after its other tests, when
    the build is done, rather than waiting idle for it (up to a minute: one core lost)."""
    where = Path(item.path).resolve().relative_to(_TESTS).as_posix()
    if where in _RUN_LAST:
        return 2
    return int(where != _BUILDS_THE_BOOK and "book" in getattr(item, "fixturenames", ()))


def _group(item) -> str | None:
    """The slow group a test belongs to, if any: ``book`` (it needs the book, builds one, or
    runs notebooks in JupyterLab or as student copies; or it is marked so),
    ``distributed`` (marked so, or named so), ``main_job`` (marked so, named so, or in a module
    of the main job's runs) or ``namespaces`` (a test marked so, or in a module named after
    network namespaces).

    Which tests are the main job's (mark them ``@pytest.mark.main_job``): a test that runs the
    job as a user does, ``python -m gluon_perceptron`` or the ``gluon-perceptron`` process
    entry (``cli.run``) in a process of its own; one that runs ``cli.main``/``job.run`` past
    its checks, so that sections run (the real ones or stand-ins) and the job writes figures
    and its ``index.json``; and one that starts the job's helper processes (the drawer of
    ``main.figures.saving_in_background``, the helpers of ``main.parallel``). What stays in
    the quick loop: the command line's refusals before any section runs (``--seed``,
    ``--only``, ``--out``), ``--list``, and single functions (``save_figure``, the interrupt
    handler, one section's figure called directly, the book's last line)."""
    module = item.path.name
    where = Path(item.path).resolve().relative_to(_TESTS).as_posix()  # book/test_book.py
    if ("book" in getattr(item, "fixturenames", ()) or _MODULE_GROUPS.get(where) == "book"
            or item.get_closest_marker("book")):  # (test_book_build_children.py: marked so)
        return "book"
    if getattr(item, "originalname", "") == (
            "test_student_copy_runs_to_its_first_stub_and_the_solutions_pass"):
        return "book"  # it reads the book's runs of the notebooks (and has its own kernel)
    if (item.get_closest_marker("main_job") or "main_job" in item.name
            or _MODULE_GROUPS.get(where) == "main_job"):
        return "main_job"
    if item.get_closest_marker("namespaces") or "namespace" in module or "netns" in module:
        return "namespaces"
    if _FOLDER_GROUPS.get(where.rpartition("/")[0]) == "distributed" \
            or item.get_closest_marker("distributed") or (
            module == "test_properties.py"
            and any(f"[{name}-" in item.name or f"[{name}]" in item.name
                    for name in _CLUSTER_STARTERS)):
        return "distributed"
    return None


def pytest_collection_modifyitems(config, items):
    """Mark the slow groups (``-m "not book"`` etc. skips them), and with ``--quick`` leave
    them out. The run keeps the collected order (the book's build first), but for the tests
    that only read the book, then the modules of :data:`_RUN_LAST`, which go last
    (:func:`_place`). (The build's kernels talk over Unix sockets: a cluster running beside it
    can no longer take a port a kernel picked, as it once did.)"""
    items.sort(key=_place)
    quick, slow = [], []
    for item in items:
        group = _group(item)
        if group is not None:
            item.add_marker(group)
        (slow if group is not None else quick).append(item)
    if config.getoption("quick") and slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = quick
    # the claims group (the notebooks' frequencies at full size, tens of CPU-minutes) runs only
    # when -m names it: `bash run.sh test -m claims`
    if "claims" not in (config.getoption("markexpr") or ""):
        slow = [item for item in items if item.get_closest_marker("claims")]
        if slow:
            config.hook.pytest_deselected(items=slow)
            items[:] = [item for item in items if not item.get_closest_marker("claims")]


def pytest_collection_finish(session):
    """Every test module is imported by now, and with them MXNet, SciPy, scikit-learn, numba and
    matplotlib: hundreds of thousands of objects that live as long as the test process.
    ``gc.freeze()`` puts them out of the cyclic garbage collector's way, so that its full passes
    (during the run, in pytest's check for unraisable exceptions at its end, and at the
    interpreter's exit) walk only what the tests made: about 1.3 CPU-s less for each pytest-xdist
    worker. (The garbage made so far is collected first; an object made before this point and
    dropped later in a reference cycle is left to the process's end.)"""
    import gc

    gc.collect()
    gc.freeze()
