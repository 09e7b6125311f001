"""ruff (configured in pyproject.toml) passes on the package, tests and benchmarks."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_ruff_is_clean():
    if shutil.which("ruff") is None and subprocess.run(
            [sys.executable, "-m", "ruff", "--version"], capture_output=True).returncode:
        pytest.fail("ruff is not installed: it is part of the test extra")
    folders = [f for f in ("gluon_perceptron", "tests", "benchmarks", "tools", "notebooks")
               if (ROOT / f).is_dir()]
    proc = subprocess.run([sys.executable, "-m", "ruff", "check", *folders], cwd=ROOT,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
