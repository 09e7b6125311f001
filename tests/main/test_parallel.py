"""The main job's sections run at once in helper processes (``--jobs N``): the same lines, the
same figures and manifest as one process; a helper's failure or death is named; helpers die
with the job."""

from __future__ import annotations

import itertools
import json
import os
import signal
import subprocess
import sys
import time

import pytest

from gluon_perceptron.main import job, parallel

#: Cheap sections of the package, each with figures (a whole job runs in test_cli.py).
CHEAP = ["step by step", "loss", "Expressivity", "Multiclass"]


def _job(out, *args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "gluon_perceptron", "--out", str(out),
                           "--no-progress", *args], capture_output=True, text=True,
                          timeout=600)


def _without_times(printed: str, out) -> list[str]:
    """The printed lines, without the seconds and the folder (which differ by run)."""
    return [line.replace(str(out), "OUT") for line in printed.splitlines()
            if "figure(s) in" not in line and not line.startswith("saved ")]


def test_helpers_print_and_save_what_one_process_does(tmp_path):
    one, three = _job(tmp_path / "one", "--jobs", "1", "--only", *CHEAP), \
        _job(tmp_path / "three", "--jobs", "3", "--only", *CHEAP)
    assert one.returncode == three.returncode == 0, three.stderr[-3000:]
    assert _without_times(three.stdout, tmp_path / "three") == \
        _without_times(one.stdout, tmp_path / "one")
    manifests = [json.loads((tmp_path / d / "index.json").read_text()) for d in ("one", "three")]
    assert manifests[0]["files"] == manifests[1]["files"] and len(manifests[0]["files"]) >= 9
    assert manifests[0]["ran"] == manifests[1]["ran"] and manifests[1]["complete"]
    for name, entry in manifests[1]["by_section"].items():
        assert entry["complete"] and entry["seconds"] > 0, name
    for png in manifests[0]["files"]:
        assert (tmp_path / "three" / png).stat().st_size > 5000


def test_the_job_takes_sections_from_the_front_and_helpers_from_the_back():
    claims = parallel.Claims.new()
    names = [f"s{i}" for i in range(13)]
    names[4] = None  # a section only the job can run
    first = parallel.claims_from_the_back(claims, names, parallel.HELPER)
    second = parallel.claims_from_the_back(claims, names, parallel.HELPER + 1)
    taken = {parallel.HELPER: [next(first)], parallel.HELPER + 1: [next(second)]}
    job_took = []
    for index in range(len(names)):  # the job and the two helpers, in turn
        if claims.take(index, parallel.JOB) != parallel.JOB:
            break
        job_took.append(index)
        for who, helper in ((parallel.HELPER, first), (parallel.HELPER + 1, second)):
            taken[who] += list(itertools.islice(helper, 1))
    rest = [list(first), list(second)]  # they stop where the job holds a section
    helpers_took = sorted(taken[parallel.HELPER] + taken[parallel.HELPER + 1] + sum(rest, []))
    assert job_took == list(range(len(job_took))) and 4 in job_took
    assert helpers_took == list(range(len(job_took), len(names)))
    assert len(job_took) == 5 and rest == [[], []]
    claims.reset()
    assert claims.take(12, parallel.JOB) == parallel.JOB  # a new run: every section free


def test_two_processes_never_take_the_same_section():
    """Each of two processes claims 2,000 sections as fast as it can, both at once."""
    claims = parallel.Claims.new()
    code = ("import sys\nfrom gluon_perceptron.main.parallel import Claims\n"
            "claims, who = Claims(int(sys.argv[1])), int(sys.argv[2])\n"
            "print(sum(claims.take(i, who) == who for i in range(2000)))")
    procs = [subprocess.Popen([sys.executable, "-c", code, str(claims.fd), str(who)],
                              pass_fds=(claims.fd,), stdout=subprocess.PIPE, text=True)
             for who in (parallel.HELPER, parallel.HELPER + 1)]
    counts = [int(p.communicate(timeout=120)[0]) for p in procs]
    held = os.pread(claims.fd, 2000, 0)
    assert sum(counts) == 2000 and len(held) == 2000
    assert [held.count(bytes([w])) for w in (parallel.HELPER, parallel.HELPER + 1)] == counts


def test_without_a_temporary_file_the_job_runs_every_section_itself(tmp_path, monkeypatch):
    from gluon_perceptron.main import cli

    def refuse():
        raise PermissionError(13, "Permission denied")  # what mkstemp raises there

    monkeypatch.setattr(parallel, "_CLAIMS", [])
    monkeypatch.setattr(parallel.Claims, "new", refuse)
    assert cli.main(["--out", str(tmp_path), "--no-progress", "--jobs", "3", "--only",
                     "loss", "Multiclass"]) == 0
    assert not parallel._WAITING and not parallel._CLAIMS
    ran = json.loads((tmp_path / "index.json").read_text())["ran"]
    assert ran == ["The perceptron loss", "Expressivity and the loss surface", "Multiclass"]


def test_only_the_packages_sections_go_to_a_helper():
    sections = dict(job._sections())
    assert all(parallel.portable(section) for section in sections.values())
    assert not parallel.portable(lambda opts: [])
    assert parallel.SECTIONS == tuple(sections)


def test_a_section_that_raises_in_a_helper_is_reported_with_its_error(tmp_path):
    parallel._claims().reset()
    helper = parallel.Helper(job.Options(out=tmp_path), ["no such section"], lambda *a: None)
    try:
        report = helper.wait("no such section")
    finally:
        helper.stop()
    assert report.status == "failed" and isinstance(report.error, KeyError)
    assert "Traceback" in report.traceback and "no such section" in report.traceback
    with pytest.raises(KeyError) as raised:
        job._take(report, {})
    assert "raised in a helper process" in "".join(raised.value.__notes__)


def test_a_helper_that_dies_is_named_with_the_fix(tmp_path):
    parallel._claims().reset()
    helper = parallel.Helper(job.Options(out=tmp_path), ["Black & White"], lambda *a: None)
    helper.process.kill()
    report = helper.wait("Black & White")
    helper.stop()
    assert report.status == "lost" and f"pid {helper.process.pid}" in report.traceback
    with pytest.raises(RuntimeError, match="did not finish in its helper process.*--jobs 1"):
        job._take(report, {})


def test_jobs_out_of_range_is_refused(capsys):
    from gluon_perceptron.main import cli

    for jobs in ("0", "-1", "17"):
        assert cli.main(["--jobs", jobs, "--only", "loss"]) == 2
        assert "--jobs must be in 1 .. 16" in capsys.readouterr().err


def _children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as stream:
            return [int(p) for p in stream.read().split()]
    except OSError:
        return []


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stream:
            return stream.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_helpers_die_with_the_job_even_on_sigkill(tmp_path):
    proc = subprocess.Popen([sys.executable, "-m", "gluon_perceptron", "--out", str(tmp_path),
                             "--no-progress", "--jobs", "3"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    deadline, helpers = time.monotonic() + 120, []
    while time.monotonic() < deadline and len(helpers) < 2:
        helpers = [p for p in _children(proc.pid)
                   if "gluon_perceptron.main.helper" in _cmdline(p)]
        time.sleep(0.05)
    assert len(helpers) == 2
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and any(map(_alive, helpers)):
        time.sleep(0.05)
    assert not any(map(_alive, helpers))


def _cmdline(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as stream:
            return stream.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def test_helpers_started_ahead_and_not_needed_are_ended(tmp_path):
    from gluon_perceptron.main import cli

    assert cli.main(["--out", str(tmp_path), "--no-progress", "--jobs", "3", "--only",
                     "The perceptron loss"]) == 0
    assert not parallel._WAITING
    assert not [p for p in _children(os.getpid())
                if "gluon_perceptron.main.helper" in _cmdline(p) and _alive(p)]


def test_a_stop_dropped_in_a_weakref_callback_prints_nothing_and_still_stops():
    """SIGTERM landing in a weakref callback: Python drops the exception (and would print a
    traceback on the job's stderr); the helper's hook keeps it quiet, the flag stays set."""
    import gc
    import weakref

    from gluon_perceptron.main import helper

    class Thing:
        pass

    passed_on = []
    previous = sys.unraisablehook
    sys.unraisablehook = helper._quiet_when_dropped(passed_on.append)
    try:
        helper._Stopped.seen = False
        thing = Thing()
        ref = weakref.ref(thing, lambda _: helper._stop(signal.SIGTERM, None))
        del thing
        gc.collect()
        assert ref() is None and helper._Stopped.seen and passed_on == []
        other = Thing()
        ref = weakref.ref(other, lambda _: 1 / 0)
        del other
        gc.collect()
        # anything else still reaches the previous hook
        assert [u.exc_type for u in passed_on] == [ZeroDivisionError]
    finally:
        sys.unraisablehook = previous
        helper._Stopped.seen = False


def test_ctrl_c_as_the_job_reads_a_helpers_figure_still_records_it(tmp_path):
    """Ctrl-C at the moment a helper's figure appears (when a user presses it, and when the
    Ctrl-C test of test_cli sends it): the job is reading the helper's message about it. The
    figure is recorded before the interrupt arrives, and the next message is read whole (before,
    the figure was on disk but missing from the count, and the next read began inside it)."""
    import io
    import pickle
    import types

    from gluon_perceptron.main.drawer import HEADER

    names = ("01_a.png", "02_b.png")
    stream = b"".join(HEADER.pack(len(p)) + p for p in (
        pickle.dumps(("figure", "A section", str(tmp_path / name))) for name in names))
    pressed = []

    class CtrlCAfterThePayload(io.BufferedReader):
        def read(self, size=-1):
            data = super().read(size)
            if size != HEADER.size and not pressed:
                pressed.append(1)
                signal.raise_signal(signal.SIGINT)
            return data

    recorded = []
    helper = object.__new__(parallel.Helper)
    helper.on_figure = lambda section, path: recorded.append(path.name)
    helper.reports, helper.ended, helper.idle = {}, False, False
    helper.process = types.SimpleNamespace(stdout=CtrlCAfterThePayload(io.BytesIO(stream)))
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    with pytest.raises(KeyboardInterrupt):
        helper._read()
    assert pressed and recorded == ["01_a.png"]
    assert helper._read() and recorded == list(names)
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
