"""``bash run.sh mutate``'s runner counts every failing pytest status as a kill (issue 32)."""

import configparser
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RUNNER = ROOT / "tools" / "mutmut_runner.py"
#: The pytest runs below need none of the installed plugins (hypothesis, xdist, timeout...):
#: without them each starts in 0.2 CPU-seconds instead of 1, and exits with the same statuses.
BARE = {**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}


#: One module per pytest status the runner maps (a syntax error is a collection error too,
#: status 2, as is the import error below: the runner sees the same status for both).
@pytest.mark.parametrize("body, status", [
    ("def test_ok():\n    assert True\n", 0),
    ("def test_fails():\n    assert False\n", 1),
    ("import no_such_module_i32e\n\ndef test_ok():\n    pass\n", 1),   # collection error: 2
    ("x = 1\n", 1),                                                   # nothing collected: 5
])
def test_the_runner_exits_1_for_every_failure(tmp_path, body, status):
    (tmp_path / "test_mutant.py").write_text(body)
    wrapped = subprocess.run([sys.executable, str(RUNNER), "-q", "-p", "no:cacheprovider",
                              "-p", "no:randomly", str(tmp_path)], cwd=tmp_path,
                             capture_output=True, env=BARE)
    assert wrapped.returncode == status


def test_pytest_itself_exits_2_on_a_collection_error(tmp_path):
    """Why the wrapper exists: mutmut 2.5 counts only status 1 as a kill."""
    (tmp_path / "test_mutant.py").write_text("import no_such_module_i32e\n")
    plain = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                            "-p", "no:randomly", str(tmp_path)], cwd=tmp_path,
                           capture_output=True, env=BARE)
    assert plain.returncode == 2


def test_setup_cfg_runs_the_wrapper_over_the_engines_tests():
    config = configparser.ConfigParser()
    config.read(ROOT / "setup.cfg")
    runner = config["mutmut"]["runner"]
    assert runner.startswith("python tools/mutmut_runner.py ")
    for tests in ("tests/core/rosenblatt/test_engine.py", "tests/core/fast/test_training_fast.py",
                  "tests/core/beyond/test_kernel_perceptron.py"):
        assert tests in runner


def test_contributing_documents_the_engine_runner_with_test_kernel():
    text = (ROOT / "CONTRIBUTING.md").read_text()
    engine = [line for line in text.splitlines() if "engine.py" in line and "--runner" in line]
    assert engine and all("tests/core/rosenblatt/test_engine.py" in line
                          and "mutmut_runner.py" in line for line in engine)
