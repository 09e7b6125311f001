"""The figures folder loses nothing it does not replace (issue 20), and says what it removes;
a bad ``--out`` is one line, before any section runs; ``docs/build.py`` says the book was
built only when it was.

Most tests run the real CLI on stand-in sections (``job._sections`` replaced by a few that
each save small figures at once), so a whole run takes a fraction of a second; one runs the
real ``The perceptron loss`` section into a folder faked to hold a whole run's figures.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

from gluon_perceptron.main import cli, job, parallel  # noqa: E402
from gluon_perceptron.main.figures import FigureError, save_figure  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
PNG = b"\x89PNG\r\n\x1a\n fake"


def _pngs(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.glob("*.png"))


def _manifest(folder: Path) -> dict:
    return json.loads((folder / "index.json").read_text())


def _fake_full_run(folder: Path, per_section: int = 3) -> dict[str, list[str]]:
    """Small PNGs and an index.json as a whole run of the real sections leaves them (the loss
    section's list holds 04_losses.png, which it makes again, and 04_old_loss.png, which it
    no longer makes)."""
    files = {}
    for k, name in enumerate(job.section_names(), start=1):
        files[name] = (["04_losses.png", "04_old_loss.png"] if name == "The perceptron loss"
                       else [f"{k:02d}_fig_{i}.png" for i in range(per_section)])
        for f in files[name]:
            (folder / f).write_bytes(PNG)
    by_section = {name: {"files": fs, "seconds": 1.5, "seed": 7, "version": "0.1",
                         "complete": True} for name, fs in files.items()}
    (folder / "index.json").write_text(json.dumps(
        {"seed": 7, "files": [f for fs in files.values() for f in fs], "complete": True,
         "sections": list(files), "by_section": by_section}))
    return files


@pytest.mark.main_job
def test_only_keeps_the_other_sections_and_says_what_it_removed(tmp_path, capsys):
    files = _fake_full_run(tmp_path)
    (tmp_path / "mine.png").write_bytes(PNG)  # a user's file, listed nowhere
    others = sorted(f for name, fs in files.items() for f in fs
                    if name != "The perceptron loss")
    assert len(others) == 3 * (len(files) - 1)
    assert cli.main(["--out", str(tmp_path), "--only", "The perceptron loss",
                     "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert _pngs(tmp_path) == sorted(others + ["04_losses.png", "mine.png"])
    assert "removed 1 figure(s)" in out and f"removed {tmp_path / '04_old_loss.png'}" in out
    assert f"kept {len(others)} figure(s) of earlier runs ({len(files) - 1} section(s)" in out
    manifest = _manifest(tmp_path)
    assert sorted(manifest["files"]) == sorted(others + ["04_losses.png"])
    assert manifest["sections"] == job.section_names()  # chapter order, all kept
    assert manifest["ran"] == ["The perceptron loss"]
    loss = manifest["by_section"]["The perceptron loss"]
    assert loss["files"] == ["04_losses.png"] and loss["seed"] == 0 and loss["complete"]
    assert isinstance(loss["seconds"], float) and loss["seconds"] >= 0
    for name, fs in files.items():
        if name != "The perceptron loss":
            assert manifest["by_section"][name] == {"files": fs, "seconds": 1.5, "seed": 7,
                                                    "version": "0.1", "complete": True}


# --- stand-in sections: whole runs, interrupted runs -----------------------------------------

def _section(names: list[str], interrupt_after: int | None = None):
    def section(opts):
        paths = []
        for k, name in enumerate(names):
            if interrupt_after is not None and k == interrupt_after:
                raise KeyboardInterrupt
            fig = plt.figure(figsize=(1, 1))
            paths.append(save_figure(fig, opts.out, name))
        return paths
    return section


@pytest.fixture
def sections(monkeypatch):
    """Replace the job's sections by three quick ones; returns a function that sets them."""
    def use(a=("a1", "a2"), b=("b1",), c=("c1", "c2"), interrupt=None):
        chosen = [("Section A", _section(list(a))),
                  ("Section B", _section(list(b), interrupt_after=interrupt)),
                  ("Section C", _section(list(c)))]
        monkeypatch.setattr(job, "_sections", lambda: chosen)
    # stand-ins run in this process (a helper could not find them): none started ahead
    monkeypatch.setattr(parallel, "start_helpers", lambda count: None)
    use()
    return use


@pytest.mark.main_job
def test_each_section_records_its_files_and_seconds(tmp_path, sections, capsys):
    assert cli.main(["--out", str(tmp_path), "--no-progress", "--seed", "4"]) == 0
    manifest = _manifest(tmp_path)
    assert manifest["files"] == ["a1.png", "a2.png", "b1.png", "c1.png", "c2.png"]
    assert manifest["sections"] == manifest["ran"] == ["Section A", "Section B", "Section C"]
    for name, fs in [("Section A", ["a1.png", "a2.png"]), ("Section B", ["b1.png"]),
                     ("Section C", ["c1.png", "c2.png"])]:
        entry = manifest["by_section"][name]
        assert entry["files"] == fs and entry["seed"] == 4 and entry["complete"] is True
        assert isinstance(entry["seconds"], float) and entry["seconds"] >= 0
    assert "removed" not in capsys.readouterr().out


@pytest.mark.main_job
def test_a_whole_run_removes_every_stale_listed_figure(tmp_path, sections, capsys):
    assert cli.main(["--out", str(tmp_path), "--no-progress"]) == 0
    (tmp_path / "mine.png").write_bytes(PNG)
    sections(a=("a1",), c=("c1", "c3"))  # a2 and c2 are no longer made
    assert cli.main(["--out", str(tmp_path), "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert _pngs(tmp_path) == ["a1.png", "b1.png", "c1.png", "c3.png", "mine.png"]
    assert "removed 2 figure(s)" in out
    assert f"removed {tmp_path / 'a2.png'}" in out and f"removed {tmp_path / 'c2.png'}" in out
    assert _manifest(tmp_path)["files"] == ["a1.png", "b1.png", "c1.png", "c3.png"]


@pytest.mark.main_job
def test_a_whole_run_removes_what_an_old_manifest_listed_under_no_section(tmp_path, sections,
                                                                           capsys):
    (tmp_path / "old.png").write_bytes(PNG)
    (tmp_path / "index.json").write_text(json.dumps({"files": ["old.png", "a1.png"]}))
    assert cli.main(["--out", str(tmp_path), "--only", "Section B", "--no-progress"]) == 0
    assert "old.png" in _pngs(tmp_path)  # an --only run cannot know whose it was: kept
    manifest = _manifest(tmp_path)
    assert manifest["unattributed"] == ["old.png"]  # a1.png is gone: no longer listed
    assert "old.png" in manifest["files"]
    assert "listed under no section" in capsys.readouterr().out
    assert cli.main(["--out", str(tmp_path), "--no-progress"]) == 0
    assert _pngs(tmp_path) == ["a1.png", "a2.png", "b1.png", "c1.png", "c2.png"]
    assert f"removed {tmp_path / 'old.png'}" in capsys.readouterr().out
    assert _manifest(tmp_path)["unattributed"] == []


@pytest.mark.main_job
def test_only_removes_nothing_of_the_sections_it_did_not_run(tmp_path, sections, capsys):
    assert cli.main(["--out", str(tmp_path), "--no-progress", "--seed", "1"]) == 0
    sections(a=("a9",), b=("b9",), c=("c9",))
    assert cli.main(["--out", str(tmp_path), "--only", "Section B", "--no-progress",
                     "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert _pngs(tmp_path) == ["a1.png", "a2.png", "b9.png", "c1.png", "c2.png"]
    assert f"removed {tmp_path / 'b1.png'}" in out and "removed 1 figure(s)" in out
    manifest = _manifest(tmp_path)
    assert manifest["files"] == ["a1.png", "a2.png", "b9.png", "c1.png", "c2.png"]
    assert manifest["by_section"]["Section A"]["seed"] == 1
    assert manifest["by_section"]["Section B"]["seed"] == 2


@pytest.mark.main_job
def test_an_interrupted_run_removes_nothing_it_did_not_replace(tmp_path, sections, capsys):
    """Ctrl-C in the middle of section B of a whole run: A is replaced (its stale figure
    removed), B keeps its earlier figure beside the new one, C (never reached) keeps all."""
    assert cli.main(["--out", str(tmp_path), "--no-progress"]) == 0
    sections(a=("a1",), b=("b2", "b3"), c=("c9",), interrupt=1)
    assert cli.main(["--out", str(tmp_path), "--no-progress"]) == 130
    captured = capsys.readouterr()
    assert _pngs(tmp_path) == ["a1.png", "b1.png", "b2.png", "c1.png", "c2.png"]
    assert f"removed {tmp_path / 'a2.png'}" in captured.out
    manifest = _manifest(tmp_path)
    assert manifest["complete"] is False
    assert manifest["by_section"]["Section B"]["complete"] is False
    assert sorted(manifest["by_section"]["Section B"]["files"]) == ["b1.png", "b2.png"]
    assert manifest["by_section"]["Section C"]["files"] == ["c1.png", "c2.png"]
    assert captured.err.strip().splitlines()[-1].startswith("interrupted; 2 figures written")


@pytest.mark.main_job
def test_a_symlink_or_folder_listed_by_a_manifest_is_never_removed(tmp_path, sections):
    target = tmp_path.parent / f"{tmp_path.name}_target.png"
    target.write_bytes(PNG)
    (tmp_path / "link.png").symlink_to(target)
    (tmp_path / "dir.png").mkdir()
    (tmp_path / "index.json").write_text(json.dumps(
        {"files": ["link.png", "dir.png"],
         "by_section": {"Section A": {"files": ["link.png", "dir.png"]}}}))
    assert cli.main(["--out", str(tmp_path), "--no-progress"]) == 0
    assert (tmp_path / "link.png").is_symlink() and target.exists()
    assert (tmp_path / "dir.png").is_dir()


# --- a bad --out ------------------------------------------------------------------------------

def _one_line_error(capsys, argv) -> str:
    code = cli.main(argv)
    captured = capsys.readouterr()
    assert code == 2, captured
    assert "==" not in captured.out  # no section ran
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: --out "), captured.err
    return lines[0]


def test_out_under_a_file_is_one_line(tmp_path, capsys):
    (tmp_path / "file").write_text("x")
    line = _one_line_error(capsys, ["--out", str(tmp_path / "file" / "sub"), "--only", "loss"])
    assert "which is a file, not a folder" in line


@pytest.mark.skipif(not Path("/proc/self").exists(), reason="no /proc on this system")
def test_out_in_proc_is_one_line(capsys):
    line = _one_line_error(capsys, ["--out", "/proc/gluon_perceptron_figures", "--only",
                                    "loss"])
    assert "cannot be created" in line


def test_out_in_a_read_only_folder_is_one_line(tmp_path, capsys):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        if os.access(folder, os.W_OK):
            pytest.skip("this user (root?) can write into a 0o500 folder")
        line = _one_line_error(capsys, ["--out", str(folder / "sub"), "--only", "loss"])
        assert "cannot be created" in line
    finally:
        folder.chmod(0o700)


def test_out_holding_a_folder_named_index_json_is_one_line(tmp_path, capsys):
    (tmp_path / "index.json").mkdir()
    assert "folder named index.json" in _one_line_error(capsys, ["--out", str(tmp_path),
                                                                 "--only", "loss"])


@pytest.mark.main_job
def test_bad_out_prints_no_traceback(tmp_path):
    """The real command line, as a user runs it."""
    (tmp_path / "file").write_text("x")
    proc = subprocess.run([sys.executable, "-m", "gluon_perceptron", "--out",
                           str(tmp_path / "file" / "sub"), "--only", "loss", "--no-progress"],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == [
        f"error: --out {tmp_path / 'file' / 'sub'} is under {str(tmp_path / 'file')!r}, "
        "which is a file, not a folder: pass a folder you can write to (--out DIR)"]
    assert "==" not in proc.stdout


# --- save_figure's out_dir ----------------------------------------------------------------------

def test_save_figure_under_a_file_names_out_dir(tmp_path):
    (tmp_path / "file").write_text("x")
    with pytest.raises(FigureError, match=r"out_dir .*which is a file, not a folder"):
        save_figure(plt.figure(), tmp_path / "file" / "sub", "a")
    with pytest.raises(FigureError, match=r"out_dir .* is a file; pass a folder"):
        save_figure(plt.figure(), tmp_path / "file", "a")


@pytest.mark.skipif(not Path("/proc/self").exists(), reason="no /proc on this system")
def test_save_figure_in_proc_names_out_dir():
    with pytest.raises(FigureError, match=r"out_dir '/proc/x' cannot be created .*--out DIR"):
        save_figure(plt.figure(), "/proc/x", "a")


# --- docs/build.py's last line --------------------------------------------------------------

def _builder():
    """docs/build.py as a module (registered in sys.modules, as its dataclasses need)."""
    name = "gluon_perceptron_book_build_outcome"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, ROOT / "docs" / "build.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


def test_build_says_built_only_on_success(tmp_path):
    builder = _builder()
    assert builder.outcome(tmp_path, [], [], 12.0) == (
        f"Built in 12 s. The book: {tmp_path / 'html' / 'index.html'}")
    line = builder.outcome(tmp_path, ["notebooks/02_raises: error: ZeroDivisionError: x",
                                      "notebooks/03_warns: printed on stderr: look out"],
                           ["notebooks/02_raises", "notebooks/03_warns"], 30.0)
    assert "Built" not in line and "The book:" not in line
    assert line.startswith("The book was not built: 2 notebook(s) failed "
                           "(notebooks/02_raises, notebooks/03_warns)")
    assert str(tmp_path / "execution.json") in line and str(tmp_path / "problems.txt") in line
    other = builder.outcome(tmp_path, ["loads from another host: index.html: //cdn"], [], 3.0)
    assert other.startswith("The book was not built: 1 problem(s)") and "Built" not in other


def test_build_main_prints_no_success_line_on_failure(tmp_path, monkeypatch, capsys):
    """``main`` with Sphinx replaced by a build whose notebook failed (no real build)."""
    builder = _builder()

    def fake_build(out, *args, **kwargs):
        (out / "html").mkdir(parents=True)
        (out / "html" / "index.html").write_text("<html></html>")
        (out / "jupyter_execute" / "notebooks").mkdir(parents=True)
        (out / "execution.json").write_text(json.dumps(
            {"notebooks/02_raises": {"succeeded": False, "runtime": 1.0,
                                     "traceback": "Traceback...\nZeroDivisionError: x"}}))
        return 0

    monkeypatch.setattr(builder, "build", fake_build)
    assert builder.main(["--out", str(tmp_path)]) == 1
    captured = capsys.readouterr()
    assert "The book:" not in captured.out + captured.err
    assert "The book was not built: 1 notebook(s) failed (notebooks/02_raises)" in captured.err


# --- figures drawn by the drawer process while the job computes on ---------------------------


def _figure(title="a figure"):
    fig, ax = plt.subplots(figsize=(3, 2))
    ax.plot([0, 1, 2], [0, 1, 4], label="y = x^2")
    ax.set_title(title)
    ax.legend()
    return fig


@pytest.mark.main_job
def test_the_drawer_draws_the_same_png_as_this_process(tmp_path):
    from gluon_perceptron.main.figures import recording, saving_in_background

    here = save_figure(_figure(), tmp_path / "here", "f")
    with recording() as paths, saving_in_background():
        there = save_figure(_figure(), tmp_path / "there", "f")
        second = save_figure(_figure("another"), tmp_path / "there", "g")
    assert paths == [there, second]  # on disk and recorded, in the order of the calls
    assert there.read_bytes() == here.read_bytes()
    assert not list((tmp_path / "there").glob(".*.part"))


@pytest.mark.main_job
def test_a_figure_that_does_not_pickle_is_drawn_here(tmp_path):
    from gluon_perceptron.main.figures import saving_in_background

    fig = _figure()
    fig.axes[0].xaxis.set_major_formatter(lambda x, pos: f"{x:.1f}!")  # a lambda: no pickle
    with saving_in_background():
        path = save_figure(fig, tmp_path, "lambda")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


DRAWER_HOLDER = """
import sys, time
import matplotlib
matplotlib.use("Agg")
from gluon_perceptron.main import figures
with figures.saving_in_background():
    print(figures._BACKGROUND[-1].process.pid, flush=True)
    time.sleep(120)
"""


@pytest.mark.main_job
def test_the_drawer_dies_with_the_job_even_on_sigkill(tmp_path):
    import signal
    import time

    job = subprocess.Popen([sys.executable, "-c", DRAWER_HOLDER], stdout=subprocess.PIPE,
                           text=True, cwd=Path(__file__).resolve().parents[2])
    try:
        drawer = int(job.stdout.readline())
        os.kill(drawer, 0)  # alive while the job is
        job.kill()
        job.wait(timeout=30)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                os.kill(drawer, 0)
            except ProcessLookupError:
                break
            with open(f"/proc/{drawer}/stat") as stat:  # a zombie is dead, not yet reaped
                if stat.read().split(") ")[1].startswith("Z"):
                    break
            time.sleep(0.1)
        else:
            os.kill(drawer, signal.SIGKILL)
            pytest.fail(f"the drawer (pid {drawer}) outlived the job it drew for")
    finally:
        if job.poll() is None:
            job.kill()
            job.wait()
