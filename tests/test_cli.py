"""The main job: runs headless, writes its PNGs, rejects bad options clearly."""

import subprocess
import sys

import pytest

from gluon_perceptron.main import cli


def test_main_job_writes_every_figure(tmp_path):
    out = tmp_path / "figs"
    proc = subprocess.run([sys.executable, "-m", "gluon_perceptron", "--out", str(out),
                           "--no-progress"], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    pngs = sorted(out.glob("*.png"))
    assert len(pngs) >= 10
    for png in pngs:
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert png.stat().st_size > 5000
        assert str(png) in proc.stdout  # the job says where each figure went
    assert "Encountered an error and updated parameters" in proc.stdout
    assert "--faithful-experiment" in proc.stdout


def test_list_sections(capsys):
    assert cli.main(["--list"]) == 0
    assert "Updates against the margin" in capsys.readouterr().out


def test_only_runs_matching_sections(tmp_path):
    assert cli.main(["--out", str(tmp_path), "--only", "The perceptron loss", "--no-progress"]) == 0
    assert [p.name for p in tmp_path.glob("*.png")] == ["04_losses.png"]


def test_bad_options(tmp_path, capsys):
    assert cli.main(["--only", "nosuchsection"]) == 2
    assert "matches no section" in capsys.readouterr().err
    f = tmp_path / "file"
    f.write_text("x")
    assert cli.main(["--out", str(f)]) == 2
    assert "not a folder" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli.main(["--seed", "abc"])
