"""ruff (configured in pyproject.toml) passes on the package, tests and benchmarks; mypy
(configured in pyproject.toml [tool.mypy]: default strictness) finds no error in the package and
the tests, which carry at most MAX_TYPE_IGNORES ``type: ignore`` comments."""

import io
import re
import shutil
import subprocess
import sys
import tokenize
import tomllib
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
    proc = subprocess.run([sys.executable, "-m", "mypy", *args], cwd=cwd, capture_output=True,
                          text=True)
    if "No module named mypy" in proc.stderr:
        pytest.fail("mypy is not installed: it is part of the test extra (bash run.sh setup)")
    return proc


#: A wrong annotation, planted beside the project's files in the same mypy run: the run must
#: exit 1 and name its line, so a run that checks nothing, or ignores errors, cannot pass.
PLANTED = "def double(x: int) -> int:\n    return 2 * x\n\n\nn: int = double('one')\n"


def test_mypy_is_clean(tmp_path):
    """mypy as pyproject.toml configures it, on every module of the package and the tests (its
    cache, .mypy_cache, makes a second run fast), finds no error. The same run also checks a
    planted file with a wrong annotation (the negative), which it must report, alone: one mypy
    process, not a second one that would read the standard library's stubs again."""
    files = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]["files"]
    planted = tmp_path / "planted_wrong.py"
    planted.write_text(PLANTED)
    proc = _mypy(*files, str(planted))
    errors = [line for line in proc.stdout.splitlines() if ": error:" in line]
    ours = [line for line in errors if "planted_wrong.py" not in line]
    assert not ours, (
        f"mypy finds {len(ours)} errors (fix them with annotations or narrowing; run "
        f"`.venv/bin/python -m mypy` to see them):\n" + "\n".join(ours) + proc.stderr)
    assert proc.returncode == 1 and len(errors) == 1 and (
        'planted_wrong.py:5: error: Argument 1 to "double" has incompatible type' in errors[0]), (
        "mypy missed the wrong annotation planted in its run:\n" + proc.stdout + proc.stderr)
    checked = re.search(r"Found 1 error in 1 file \(checked (\d+) source files\)", proc.stdout)
    modules = sum(len(list(folder.rglob("*.py"))) for folder in TYPED)
    assert checked and int(checked.group(1)) == modules + 1, (
        f"mypy checked {checked and checked.group(1)} files, the package and the tests have "
        f"{modules} (and one planted): [tool.mypy] files in pyproject.toml must name both"
        f"\n{proc.stdout}")


IGNORE = re.compile(r"type:\s*ignore")


def type_ignores(folder: Path) -> list[str]:
    """``path:line`` of every ``type: ignore`` comment in the ``.py`` files under ``folder``
    (comments only: the words in a string do not count)."""
    found = []
    for path in sorted(folder.rglob("*.py")):
        text = path.read_text()
        if not IGNORE.search(text):  # no such words anywhere: no such comment (and no tokenizing)
            continue
        tokens = tokenize.generate_tokens(io.StringIO(text).readline)
        found += [f"{path.relative_to(folder)}:{token.start[0]}" for token in tokens
                  if token.type == tokenize.COMMENT
                  and IGNORE.search(token.string)]
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
