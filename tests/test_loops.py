"""The tests' two loops (issue 32, item 4): ``bash run.sh test --quick`` leaves out exactly the
slow groups, and ``bash run.sh bench`` reports the last time of each loop against its target."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: one module of each slow group, and one of the quick loop
MODULES = ["tests/test_cli.py", "tests/test_distributed_lifeline.py", "tests/test_notebooks.py",
           "tests/test_main_parallel.py", "tests/test_environment.py"]


def collected(*args: str) -> list[str]:
    proc = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q",
                           "-p", "no:cacheprovider", *args, *MODULES],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode in (0, 5), proc.stdout[-2000:] + proc.stderr[-2000:]
    return [line for line in proc.stdout.splitlines() if "::" in line]


def test_quick_leaves_out_exactly_the_slow_groups():
    every = collected()
    quick = collected("--quick")
    slow = collected("-m", "book or distributed or main_job or namespaces")
    assert {t.split("::")[0] for t in slow} == set(MODULES[:4])  # each group is there
    assert set(quick) == set(every) - set(slow)
    assert {t.split("::")[0] for t in quick} == {"tests/test_cli.py", "tests/test_notebooks.py",
                                                 "tests/test_environment.py"}
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
    (tmp_path / "last_quick_run.json").write_text(json.dumps({**record, "exit_status": 1}))
    assert run_all._test_time_goal(*run_all.TEST_RUNS[1])[1] == "not measured"
