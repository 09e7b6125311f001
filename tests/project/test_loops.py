"""The tests' two loops (issue 32, item 4): ``bash run.sh test --quick`` leaves out exactly the
slow groups, and ``bash run.sh bench`` reports the last time of each loop against its target."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: one module of each slow group, and one of the quick loop
MODULES = ["tests/main/test_cli.py", "tests/core/distributed/test_lifeline.py",
           "tests/notebooks/test_notebooks.py", "tests/main/test_parallel.py",
           "tests/project/test_environment.py"]


#: A plugin for the collecting run: what was collected before the test suite's own
#: ``pytest_collection_modifyitems`` (tests/conftest.py) ran, with each item's slow-group markers
#: (conftest adds them there), and what that hook kept.
PROBE = """
import json, os
import pytest

GROUPS = ("book", "distributed", "main_job", "namespaces", "claims")

@pytest.hookimpl(hookwrapper=True)
def pytest_collection_modifyitems(config, items):
    before = list(items)
    yield
    with open(os.environ["GP_COLLECTED"], "w") as out:
        json.dump({"before": {i.nodeid: [g for g in GROUPS if i.get_closest_marker(g)]
                              for i in before},
                   "kept": [i.nodeid for i in items]}, out)
"""


def collected(tmp_path, *args: str) -> dict:
    """One collecting run of :data:`MODULES` with ``args``: ``{"before": {nodeid: [its
    groups]}, "kept": [nodeid]}``. (One run, not one per selection: each run imports MXNet
    and the modules again, several CPU-seconds.)"""
    (tmp_path / "gp_collect_probe.py").write_text(PROBE)
    env = {**os.environ, "GP_COLLECTED": str(tmp_path / "collected.json"),
           "PYTHONPATH": os.pathsep.join(filter(None, [str(tmp_path),
                                                       os.environ.get("PYTHONPATH")]))}
    proc = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q",
                           "-p", "no:cacheprovider", "-p", "gp_collect_probe", *args, *MODULES],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode in (0, 5), proc.stdout[-2000:] + proc.stderr[-2000:]
    result = json.loads((tmp_path / "collected.json").read_text())
    printed = [line for line in proc.stdout.splitlines() if "::" in line]
    assert printed == result["kept"]  # what the run reports is what the hook kept
    return result


def test_quick_leaves_out_exactly_the_slow_groups(tmp_path):
    run = collected(tmp_path, "--quick")
    # without --quick the run keeps all but the claims group (only `-m claims` runs it)
    every = {t for t, groups in run["before"].items() if "claims" not in groups}
    slow = {t for t in every if run["before"][t]}  # what -m "book or distributed or ..." selects
    quick = run["kept"]
    assert {t.split("::")[0] for t in slow} == set(MODULES[:4])  # each group is there
    assert len(quick) == len(set(quick)) and set(quick) == every - slow
    assert {t.split("::")[0] for t in quick} == {"tests/main/test_cli.py",
                                                 "tests/notebooks/test_notebooks.py",
                                                 "tests/project/test_environment.py"}
    assert not any("main_job" in t for t in quick)


@pytest.fixture
def run_all(tmp_path, monkeypatch):
    spec = importlib.util.spec_from_file_location("run_all_under_test",
                                                  ROOT / "benchmarks" / "run_all.py")
    module = importlib.util.module_from_spec(spec)
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    monkeypatch.setitem(sys.modules, spec.name, module)  # dataclasses look their module up
    spec.loader.exec_module(module)
    monkeypatch.setattr(module, "RESULTS", tmp_path)
    return module


def test_the_bench_reports_both_loops(run_all, tmp_path):
    record = {"wall_seconds": 50, "children_cpu_before": "0m1.0s 0m0.0s",
              "children_cpu": "1m31.0s 0m10.0s", "exit_status": 0, "whole_suite": False,
              "quick": True, "cores": 2, "date": "2026-11-27T00:00:00Z"}
    (tmp_path / "last_quick_run.json").write_text(json.dumps(record))
    whole = {**record, "wall_seconds": 400, "whole_suite": True, "quick": False}
    (tmp_path / "last_test_run.json").write_text(json.dumps(whole))
    rows = [run_all._test_time_goal(*run) for run in run_all.TEST_RUNS]
    assert [r[1:4] for r in rows] == [("6 m 40 s", "tests <= 6 m 00 s", "NO"),
                                      ("0 m 50 s", "tests <= 1 m 00 s", "yes")]
    assert "1.7 CPU-minutes" in rows[1][4]  # 100 s of CPU: 91 + 10 - 1
    assert "yardstick" not in rows[1][4]  # not measured: nothing said of the host's speed
    slow_host = [2 * run_all.REFERENCE_YARDSTICK_SECONDS, 2 * run_all.REFERENCE_YARDSTICK_SECONDS]
    (tmp_path / "last_test_run.json").write_text(json.dumps({**whole,
                                                             "yardstick_seconds": slow_host}))
    row = run_all._test_time_goal(*run_all.TEST_RUNS[0])
    assert row[1:4] == ("6 m 40 s", "tests <= 6 m 00 s", "NO")  # judged on the time measured
    assert "about 3 m 20 s at the reference speed" in row[4]  # the host ran at half speed
    (tmp_path / "last_quick_run.json").write_text(json.dumps({**record, "exit_status": 1}))
    assert run_all._test_time_goal(*run_all.TEST_RUNS[1])[1] == "not measured"
