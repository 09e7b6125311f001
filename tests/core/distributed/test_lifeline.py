"""A cluster dies with the process that launched it, by any signal; stalled workers are named.

The clusters here run in a child Python process (the "launcher") that the test kills. Every
process the launcher starts inherits its environment, which carries a marker unique to the
test, so the test finds every descendant by reading ``/proc/*/environ`` (a descendant that was
re-parented to init is no longer a child of anyone the test knows). Leftovers are killed by
their PIDs in ``finally``.
"""

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import numpy as np
import pytest
from procfs import alive

import gluon_perceptron as gp
from gluon_perceptron.core.distributed import cluster_training, launcher, lifeline, limits
from gluon_perceptron.core.distributed.launcher import DistributedTimeout
from gluon_perceptron.core.distributed.sharded_gluon import train_gluon_distributed

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="reads /proc to find the processes")

ROOT = Path(__file__).resolve().parents[3]


def _marked(marker: str) -> list[int]:
    """PIDs of the live processes whose environment holds ``marker``."""
    found = []
    needle = marker.encode()
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as f:
                env = f.read()
        except OSError:
            continue
        if needle in env and alive(int(entry)):
            found.append(int(entry))
    return found


def _kill_all(pids) -> None:
    for pid in pids:
        if alive(pid):
            try:
                os.kill(pid, signal.SIGCONT)
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


def _noisy(n: int = 90):
    rng = np.random.default_rng(3)
    X = rng.normal(size=(n, 3))
    Y = np.where(X[:, 0] + 0.3 * rng.normal(size=n) > 0, 1.0, -1.0)
    return X, Y


LAUNCHER = r"""
import json, os, signal, sys
import numpy as np
signal.signal(signal.SIGINT, signal.default_int_handler)  # `&` jobs inherit SIGINT ignored
from gluon_perceptron.core.distributed import cluster_training
pids_file, log_dir = sys.argv[1], sys.argv[2]
rng = np.random.default_rng(3)
X = rng.normal(size=(90, 3))
Y = np.where(X[:, 0] + 0.3 * rng.normal(size=90) > 0, 1.0, -1.0)

def started(pids):
    with open(pids_file + ".tmp", "w") as f:
        json.dump(pids, f)
    os.replace(pids_file + ".tmp", pids_file)

# 10**9 rounds: the cluster runs until the test kills this process
cluster_training._train_distributed([(X, Y, 10**9, "uniform")], workers=2, timeout=300,
                            on_started=started, log_dir=log_dir)
"""


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM, signal.SIGINT],
                         ids=["SIGKILL", "SIGTERM", "SIGINT"])
def test_the_cluster_dies_with_its_launcher(sig, tmp_path):
    """Kill the launcher while its 2 workers exchange rounds: within 10 s no process it
    started is alive and its task folder is gone (SIGKILL and SIGTERM leave it no chance to
    clean up; SIGINT is the Ctrl-C it handles itself)."""
    marker = f"GP_LIFELINE_TEST={uuid.uuid4().hex}"
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    logs = tmp_path / "logs"
    pids_file = tmp_path / "pids.json"
    env = dict(os.environ, GP_LIFELINE_TEST=marker.split("=")[1], TMPDIR=str(tmp),
               PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    child = subprocess.Popen([sys.executable, "-c", LAUNCHER, str(pids_file), str(logs)],
                             env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    pids: dict = {}
    try:
        deadline = time.monotonic() + 120
        # wait until both workers are connected and exchanging rounds
        while time.monotonic() < deadline and child.poll() is None:
            if pids_file.exists() and all(
                    "rank" in (logs / f"worker-{i}.log").read_text(errors="replace")
                    for i in (0, 1) if (logs / f"worker-{i}.log").exists()) and len(
                    list(logs.glob("worker-*.log"))) == 2:
                break
            time.sleep(0.1)
        assert child.poll() is None, child.stderr.read().decode(errors="replace")
        pids = json.loads(pids_file.read_text())
        assert len(pids) == 4 and all(alive(pid) for pid in pids.values())
        assert len(list(tmp.glob(lifeline.TASK_PREFIX + "*"))) == 1
        time.sleep(0.5)
        os.kill(child.pid, sig)
        child.wait(30)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and (
                _marked(marker) or any(alive(pid) for pid in pids.values())
                or list(tmp.glob(lifeline.TASK_PREFIX + "*"))):
            time.sleep(0.1)
        assert not _marked(marker), f"alive after the launcher died: {_marked(marker)}"
        assert not [role for role, pid in pids.items() if alive(pid)]
        assert not list(tmp.iterdir()), "the task folder was left behind"
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
        _kill_all(set(pids.values()) | set(_marked(marker)))


WATCHED = r"""
import os, subprocess, sys, time
env = dict(os.environ, GLUON_PERCEPTRON_PARENT=str(os.getpid()))
code = ("from gluon_perceptron.core.distributed import lifeline; lifeline.watch_parent(0.05); "
        "import time; time.sleep(120)")
p = subprocess.Popen([sys.executable, "-c", code], env=env)  # no preexec_fn: no PDEATHSIG
print(p.pid, flush=True)
time.sleep(120)
"""


def test_the_watchdog_alone_ends_a_node_whose_launcher_died():
    """The second line without the first: a process that only runs ``watch_parent`` (no
    parent-death signal) ends within 10 s of its launcher's SIGKILL."""
    env = dict(os.environ,
               PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    parent = subprocess.Popen([sys.executable, "-c", WATCHED], env=env, stdout=subprocess.PIPE)
    grandchild = None
    try:
        grandchild = int(parent.stdout.readline())
        time.sleep(1.0)
        assert alive(grandchild)
        parent.kill()
        parent.wait()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and alive(grandchild):
            time.sleep(0.05)
        assert not alive(grandchild)
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()
        if grandchild is not None:
            _kill_all([grandchild])


def test_reclaim_deletes_only_task_folders_of_dead_owners(tmp_path):
    dead = subprocess.Popen(["true"])
    dead.wait()
    gone = lifeline.make_task_folder(tmp_path)
    (gone / "data-0.npz").write_bytes(b"data")
    (gone / lifeline.OWNER_FILE).write_text(json.dumps({"pid": dead.pid, "started": "0"}))
    reused = lifeline.make_task_folder(tmp_path)  # a live PID, but another start time
    (reused / lifeline.OWNER_FILE).write_text(json.dumps({"pid": os.getpid(), "started": "1"}))
    mine = lifeline.make_task_folder(tmp_path)  # this process is alive: kept
    unmarked = tmp_path / f"{lifeline.TASK_PREFIX}{dead.pid}-user"  # the user's: no marker
    unmarked.mkdir()
    (unmarked / "notes.txt").write_text("keep me")
    a_file = tmp_path / f"{lifeline.TASK_PREFIX}{dead.pid}-file"
    a_file.write_text("keep me")
    other = tmp_path / "not-ours"  # a marker without the prefix
    other.mkdir()
    (other / lifeline.OWNER_FILE).write_text(json.dumps({"pid": dead.pid, "started": "0"}))
    link = tmp_path / f"{lifeline.TASK_PREFIX}{dead.pid}-link"
    link.symlink_to(other, target_is_directory=True)
    released = lifeline.make_task_folder(tmp_path)  # logs kept for the user after a failure
    (released / lifeline.OWNER_FILE).write_text(json.dumps({"pid": dead.pid, "started": "0"}))
    lifeline.release_task_folder(released)

    removed = lifeline.reclaim_task_folders(tmp_path)
    assert sorted(removed) == sorted([gone, reused])
    assert not gone.exists() and not reused.exists()
    assert mine.is_dir() and (mine / lifeline.OWNER_FILE).exists()
    assert (unmarked / "notes.txt").read_text() == "keep me" and a_file.read_text() == "keep me"
    assert (other / lifeline.OWNER_FILE).exists() and link.is_symlink() and released.is_dir()
    assert lifeline.reclaim_task_folders(tmp_path / "missing") == []


class _Started(Exception):
    pass


def test_too_many_processes_are_refused_before_any_starts(monkeypatch):
    def popen(*args, **kwargs):
        raise _Started(args)

    monkeypatch.setattr(launcher.subprocess, "Popen", popen)
    cap = limits.max_processes()
    assert cap == limits.MAX_PROCESSES_PER_CORE * os.cpu_count()
    limits.check_cluster_size(cap - 1, 1)
    with pytest.raises(ValueError, match="several hosts"):
        limits.check_cluster_size(cap, 1)
    X, Y = _noisy(20_000)
    with pytest.raises(ValueError, match=r"workers=20,000 \+ servers=1 .*MAX_PROCESSES_PER_CORE"):
        gp.distributed.train_distributed(X, Y, workers=len(X), max_epochs=3)
    with pytest.raises(ValueError, match="servers=1,000,000"):
        gp.distributed.train_distributed(X, Y, workers=2, servers=10**6, max_epochs=3)
    with pytest.raises(ValueError, match="servers=1,000,000"):
        train_gluon_distributed(X, Y, workers=2, servers=10**6, max_epochs=1)
    with pytest.raises(ValueError, match="several hosts"):
        launcher.launch_cluster(["true"], workers=cap, servers=1, timeout=10,
                                log_dir="/nonexistent")
    with pytest.raises(ValueError, match="round_timeout"):
        gp.distributed.train_distributed(X, Y, workers=2, max_epochs=3, round_timeout=0)


def test_a_stopped_worker_is_named_by_the_round_deadline(tmp_path):
    """Rank 1 SIGSTOPs itself at round 2; with round_timeout=2 s the launcher names it (and
    only it) long before the overall timeout, and stops every process."""
    X, Y = _noisy()
    pids: dict = {}
    try:
        with pytest.raises(DistributedTimeout) as info:
            cluster_training._train_distributed(
                [(X, Y, 10**9, "uniform")], workers=2, timeout=120, round_timeout=2.0,
                fault={"rank": 1, "round": 2, "how": "sigstop"}, log_dir=tmp_path,
                on_started=pids.update)
        err = info.value
        assert err.role.startswith("worker") and err.roles == (err.role,)
        assert f"{err.role} (pid {pids[err.role]}" in str(err)
        assert "did not report round" in str(err) and "round_timeout=2 s" in str(err)
        assert "rank 1 of 2" in (tmp_path / f"{err.role.replace(' ', '-')}.log").read_text()
        assert not any(alive(pid) for pid in pids.values())
    finally:
        _kill_all(pids.values())
