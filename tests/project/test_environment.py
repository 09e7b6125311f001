"""The environment is the tested pin set (issue 32, item 1).

``requirements-lock.txt`` (``bash run.sh lock``, from ``setup.cfg``) pins and hashes every
package the tests, the book, the notebooks and mutation testing use; ``bash run.sh`` installs
exactly it with pip's ``--require-hashes``. These tests fail with one line naming the package
when what is installed drifts from it (numpy and MXNet first: numpy 1.24 removed ``np.bool``,
which MXNet 1.9.1 uses, apache/mxnet#21165), and when ``setup.cfg`` asks for something the lock
does not pin (a new dependency without ``bash run.sh lock``).
"""

from __future__ import annotations

import configparser
import re
import subprocess
import sys
import sysconfig
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[2]
LOCK = ROOT / "requirements-lock.txt"
#: What may be installed without a pin: the project itself (editable) and the venv's own pip.
UNPINNED = {"gluon-perceptron", "pip"}
FIX = "reinstall the pin set: rm -r .venv && bash run.sh setup"


def read_lock(text: str) -> dict[str, str]:
    """``{name: version}`` of a pip-compile lock; raises ``ValueError`` naming a pin that has
    no ``--hash`` (pip's ``--require-hashes`` would refuse the whole file)."""
    pins: dict[str, str] = {}
    # a requirement and its continuation lines (`\\` at the end) are one entry
    for entry in re.sub(r"\\\n", " ", text).splitlines():
        entry = entry.split("#", 1)[0].strip()
        if not entry or entry.startswith("-"):
            continue
        match = re.match(r"([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;]+)", entry)
        if match is None:
            name = re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", entry)
            raise ValueError(f"requirements-lock.txt: {name[0] if name else entry} is not "
                             f"pinned with ==")
        if "--hash=sha256:" not in entry:
            raise ValueError(f"requirements-lock.txt: {match[1]} has no --hash")
        pins[canonicalize_name(match[1])] = match[2]
    return pins


def first_drift(installed: dict[str, str]) -> list[str]:
    """The lines for numpy and MXNet, when ``installed`` ({name: version}) has a numpy MXNet
    cannot import with or another MXNet than 1.9.1."""
    problems = []
    if "numpy" in installed and Version(installed["numpy"]) >= Version("1.24"):
        problems.append(f"numpy {installed['numpy']} is installed: MXNet 1.9.1 needs numpy "
                        f"< 1.24 (numpy 1.24 removed np.bool, apache/mxnet#21165); {FIX}")
    if installed.get("mxnet") != "1.9.1":
        have = (f"mxnet {installed['mxnet']} is installed" if "mxnet" in installed
                else "mxnet is not installed")
        problems.append(f"{have}: the package needs MXNet 1.9.1, its last release; {FIX}")
    return problems


def drift(pins: dict[str, str], installed: dict[str, str]) -> list[str]:
    """One line per package where ``installed`` ({name: version}) differs from the lock's
    ``pins``: numpy and MXNet first (when they drift, nothing else matters), then missing or
    other versions, then packages the lock does not know."""
    problems = first_drift(installed)
    named = {line.split()[0] for line in problems}
    for name, version in sorted(pins.items()):
        have = installed.get(name)
        if name in named:
            continue
        if have is None:
            problems.append(f"{name} is not installed, the lock pins {version}; {FIX}")
        elif have != version:
            problems.append(f"{name} {have} is installed, the lock pins {version}; {FIX}")
    for name, version in sorted(installed.items()):
        if name not in pins and name not in UNPINNED:
            problems.append(f"{name} {version} is installed but not in requirements-lock.txt: "
                            f"pip uninstall it, or add it to setup.cfg and run bash run.sh lock")
    return problems


def installed_here() -> dict[str, str]:
    """``{name: version}`` of every distribution installed in this interpreter's environment
    (its site-packages: not what a package vendors and puts on ``sys.path``, as setuptools
    does with its own importlib-metadata)."""
    where = sorted({sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]})
    return {canonicalize_name(d.metadata["Name"]): d.version
            for d in metadata.distributions(path=where)}


def asked_for(setup_cfg: Path) -> list[tuple[str, Requirement]]:
    """Every requirement of ``setup.cfg``: ``install_requires``, each extra but those its
    ``[lock]`` section leaves unlocked, and that section's constraints, with where each was
    asked for."""
    cfg = configparser.ConfigParser()
    cfg.read(setup_cfg)
    found = [("install_requires", line) for line in
             cfg.get("options", "install_requires", fallback="").splitlines()]
    unlocked = cfg.get("lock", "unlocked_extras", fallback="").split()
    if cfg.has_section("options.extras_require"):
        for extra, lines in cfg.items("options.extras_require"):
            if extra not in unlocked:
                found += [(f"the extra '{extra}'", line) for line in lines.splitlines()]
    found += [("[lock] constraints", line) for line in
              cfg.get("lock", "constraints", fallback="").splitlines()]
    return [(where, Requirement(line.split("#", 1)[0].strip()))
            for where, line in found if line.split("#", 1)[0].strip()]


def uncovered(requirements: list[tuple[str, Requirement]], pins: dict[str, str]) -> list[str]:
    """One line per requirement of ``setup.cfg`` that the lock's pins do not satisfy."""
    lines = []
    for where, req in requirements:
        if req.marker is not None and not req.marker.evaluate():
            continue
        pinned = pins.get(canonicalize_name(req.name))
        if pinned is None or not req.specifier.contains(pinned, prereleases=True):
            have = "does not pin it" if pinned is None else f"pins {pinned}"
            lines.append(f"setup.cfg asks for {req} ({where}); requirements-lock.txt {have}: "
                         f"run bash run.sh lock")
    return lines


# --- the checks on this environment ---------------------------------------------------------

def test_numpy_and_mxnet_are_the_ones_mxnet_needs():
    problems = first_drift(installed_here())
    assert not problems, problems[0]


def test_the_environment_is_the_lock():
    problems = drift(read_lock(LOCK.read_text()), installed_here())
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        pytest.fail(problems[0] + more, pytrace=False)


def test_the_lock_pins_everything_setup_cfg_asks_for():
    problems = uncovered(asked_for(ROOT / "setup.cfg"), read_lock(LOCK.read_text()))
    if problems:
        pytest.fail(problems[0], pytrace=False)


def test_the_lock_pins_the_build_of_the_project():
    # the offline install builds the project with the locked setuptools (--no-build-isolation)
    pins = read_lock(LOCK.read_text())
    assert {"setuptools", "wheel"} <= pins.keys()


def test_pip_check_is_clean():
    proc = subprocess.run([sys.executable, "-m", "pip", "check"], capture_output=True,
                          text=True)
    assert proc.returncode == 0, proc.stdout.splitlines()[0] if proc.stdout else proc.stderr


# --- the checks can fail --------------------------------------------------------------------

PINS = {"numpy": "1.23.5", "mxnet": "1.9.1", "scipy": "1.15.3"}


def test_drift_names_numpy_first():
    problems = drift(PINS, {**PINS, "scipy": "1.16.0", "numpy": "1.24.0", "extra": "1"})
    assert problems[0].startswith("numpy 1.24.0 is installed:") and "#21165" in problems[0]
    assert len(problems) == 3 and "\n" not in "".join(problems)
    assert problems[1].startswith("scipy 1.16.0 is installed, the lock pins 1.15.3")
    assert problems[2].startswith("extra 1 is installed but not in")


def test_drift_names_mxnet_before_the_rest():
    problems = drift(PINS, {"numpy": "1.23.5", "mxnet": "2.0.0", "scipy": "1.15.3"})
    assert problems == [f"mxnet 2.0.0 is installed: the package needs MXNet 1.9.1, its last "
                        f"release; {FIX}"]
    assert drift(PINS, {"numpy": "1.23.5", "scipy": "1.15.3"})[0].startswith("mxnet is not")


def test_drift_names_a_missing_a_moved_and_an_unlocked_package():
    assert drift(PINS, dict(PINS)) == []
    assert drift(PINS, {"numpy": "1.23.5", "mxnet": "1.9.1"}) == [
        f"scipy is not installed, the lock pins 1.15.3; {FIX}"]
    assert drift(PINS, {**PINS, "scipy": "1.9.0"})[0].startswith("scipy 1.9.0 is installed")
    assert drift(PINS, {**PINS, "river": "0.21"})[0].startswith("river 0.21 is installed but")
    assert drift(PINS, {**PINS, "pip": "23.2.1", "gluon-perceptron": "0.3.0"}) == []


def test_read_lock_refuses_a_pin_without_a_hash():
    good = "numpy==1.23.5 \\\n    --hash=sha256:ab \\\n    --hash=sha256:cd\n    # via x\n"
    assert read_lock(good) == {"numpy": "1.23.5"}
    with pytest.raises(ValueError, match="scipy has no --hash"):
        read_lock(good + "scipy==1.15.3\n")
    with pytest.raises(ValueError, match="scipy is not pinned"):
        read_lock(good + "scipy>=1.9 \\\n    --hash=sha256:ef\n")


def test_uncovered_names_what_setup_cfg_asks_and_the_lock_lacks(tmp_path):
    cfg = tmp_path / "setup.cfg"
    cfg.write_text("[options]\ninstall_requires =\n    numpy >= 1.23, < 1.24\n"
                   "[options.extras_require]\nriver =\n    river >= 0.21\n"
                   "test =\n    scipy >= 2  # a comment\n    pywin32 ; sys_platform == 'win32'\n"
                   "gpu =\n    mxnet-cu117\n"
                   "[lock]\nunlocked_extras = gpu\nconstraints =\n    numpy < 1.23.5\n")
    problems = uncovered(asked_for(cfg), PINS)
    assert problems == [
        "setup.cfg asks for river>=0.21 (the extra 'river'); requirements-lock.txt does not "
        "pin it: run bash run.sh lock",
        "setup.cfg asks for scipy>=2 (the extra 'test'); requirements-lock.txt pins 1.15.3: "
        "run bash run.sh lock",
        "setup.cfg asks for numpy<1.23.5 ([lock] constraints); requirements-lock.txt pins "
        "1.23.5: run bash run.sh lock"]
