"""ruff (configured in pyproject.toml) passes on the package, tests and benchmarks; mypy
(configured in pyproject.toml [tool.mypy]: default strictness) finds no error in the package and
the tests, which carry at most MAX_TYPE_IGNORES ``type: ignore`` comments."""

import io
import re
import shutil
import subprocess
import sys
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: What mypy checks (pyproject.toml [tool.mypy] files).
TYPED = (ROOT / "gluon_perceptron", ROOT / "tests")

#: The most ``# type: ignore`` comments the package and the tests may carry (issue #28).
MAX_TYPE_IGNORES = 10


def test_ruff_is_clean():
    if shutil.which("ruff") is None and subprocess.run(
            [sys.executable, "-m", "ruff", "--version"], capture_output=True).returncode:
        pytest.fail("ruff is not installed: it is part of the test extra")
    folders = [f for f in ("gluon_perceptron", "tests", "benchmarks", "tools", "notebooks")
               if (ROOT / f).is_dir()]
    proc = subprocess.run([sys.executable, "-m", "ruff", "check", *folders], cwd=ROOT,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def _mypy(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    if subprocess.run([sys.executable, "-m", "mypy", "--version"],
                      capture_output=True).returncode:
        pytest.fail("mypy is not installed: it is part of the test extra (bash run.sh setup)")
    return subprocess.run([sys.executable, "-m", "mypy", *args], cwd=cwd, capture_output=True,
                          text=True)


def test_mypy_is_clean():
    """mypy as pyproject.toml configures it, on every module of the package and the tests (its
    cache, .mypy_cache, makes a second run fast)."""
    proc = _mypy()
    errors = [line for line in proc.stdout.splitlines() if ": error:" in line]
    assert proc.returncode == 0 and not errors, (
        f"mypy finds {len(errors)} errors (fix them with annotations or narrowing; run "
        f"`.venv/bin/python -m mypy` to see them):\n" + proc.stdout + proc.stderr)
    checked = re.search(r"no issues found in (\d+) source files", proc.stdout)
    modules = sum(len(list(folder.rglob("*.py"))) for folder in TYPED)
    assert checked and int(checked.group(1)) == modules, (
        f"mypy checked {checked and checked.group(1)} files, the package and the tests have "
        f"{modules}: [tool.mypy] files in pyproject.toml must name both\n{proc.stdout}")


def test_mypy_reports_an_error(tmp_path):
    """The negative of the test above: with the project's configuration, mypy exits 1 and
    names the line of a wrong annotation."""
    bad = tmp_path / "wrong.py"
    bad.write_text("def double(x: int) -> int:\n    return 2 * x\n\n\nn: int = double('one')\n")
    proc = _mypy("--config-file", str(ROOT / "pyproject.toml"), "--cache-dir",
                 str(tmp_path / "cache"), str(bad), cwd=tmp_path)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert 'wrong.py:5: error: Argument 1 to "double" has incompatible type' in proc.stdout, \
        proc.stdout


def type_ignores(folder: Path) -> list[str]:
    """``path:line`` of every ``type: ignore`` comment in the ``.py`` files under ``folder``
    (comments only: the words in a string do not count)."""
    found = []
    for path in sorted(folder.rglob("*.py")):
        tokens = tokenize.generate_tokens(io.StringIO(path.read_text()).readline)
        found += [f"{path.relative_to(folder)}:{token.start[0]}" for token in tokens
                  if token.type == tokenize.COMMENT
                  and re.search(r"type:\s*ignore", token.string)]
    return found


def test_type_ignores_are_few():
    found = [f"{folder.name}/{where}" for folder in TYPED for where in type_ignores(folder)]
    assert len(found) <= MAX_TYPE_IGNORES, (
        f"{len(found)} `type: ignore` comments in the package and the tests, at most "
        f"{MAX_TYPE_IGNORES}: {found}")


def test_type_ignores_are_counted(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "a.py").write_text(
        "x: int = 'a'  # type: ignore\n"
        "y: int = 'b'  # type:ignore[assignment]  # why\n"
        "z = '# type: ignore'  # a string, not a comment\n"
        "# mypy: a note, type: ignore[misc] in a comment of its own\n")
    assert type_ignores(tmp_path) == ["sub/a.py:1", "sub/a.py:2", "sub/a.py:4"]
