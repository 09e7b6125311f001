"""The main job's last edges (issue 32): a figure that cannot be replaced, the manifest's mode,
and an empty ``--out``."""

import os
import stat

import pytest

from gluon_perceptron.main import cli, figures


def _refuse_replacing(monkeypatch, name):
    """``os.replace`` onto ``name`` fails as on an immutable file (``chattr +i``: EPERM)."""
    replace = os.replace

    def refusing(src, dst, *args, **kwargs):
        if os.path.basename(os.fspath(dst)) == name:
            raise PermissionError(1, "Operation not permitted", os.fspath(src), None,
                                  os.fspath(dst))
        return replace(src, dst, *args, **kwargs)
    monkeypatch.setattr(figures.os, "replace", refusing)


@pytest.mark.main_job
def test_a_figure_that_cannot_be_replaced_is_a_clear_error(tmp_path, monkeypatch, capsys):
    (tmp_path / "04_losses.png").write_bytes(b"an older figure")
    _refuse_replacing(monkeypatch, "04_losses.png")
    # was: a PermissionError traceback, exit status 1
    assert cli.main(["--out", str(tmp_path), "--only", "The perceptron loss", "--no-progress",
                     "--jobs", "1"]) == 2
    err = capsys.readouterr().err
    assert "04_losses.png cannot be replaced (Operation not permitted)" in err
    assert "Traceback" not in err
    assert (tmp_path / "04_losses.png").read_bytes() == b"an older figure"
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".part")]


def test_save_figure_names_the_file_it_cannot_replace(tmp_path, monkeypatch):
    import matplotlib.pyplot as plt

    (tmp_path / "01_data.png").write_bytes(b"old")
    _refuse_replacing(monkeypatch, "01_data.png")
    with pytest.raises(figures.FigureError, match=r"01_data\.png cannot be replaced"):
        figures.save_figure(plt.figure(), tmp_path, "01_data")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["01_data.png"]


@pytest.mark.main_job
def test_the_manifest_has_the_figures_mode(tmp_path):
    old = os.umask(0o022)
    try:
        assert cli.main(["--out", str(tmp_path), "--only", "The perceptron loss",
                         "--no-progress", "--jobs", "1"]) == 0
    finally:
        os.umask(old)
    modes = {p.name: stat.S_IMODE(p.stat().st_mode) for p in tmp_path.iterdir()}
    # was: index.json 0600 (mkstemp's mode) beside figures 0644
    assert modes == {"04_losses.png": 0o644, "index.json": 0o644}


def test_an_empty_out_is_refused(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    # was: Path('') is '.', so the job wrote into the current folder
    with pytest.raises(SystemExit) as exit_:
        cli.main(["--out", "", "--only", "The perceptron loss", "--no-progress"])
    assert exit_.value.code == 2
    assert "--out" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []
