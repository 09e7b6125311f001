"""Saving figures for the main job.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt


def save_figure(fig, out_dir, name: str) -> Path:
    """Save ``fig`` as ``out_dir/name.png`` (creating the folder), close it, return the path."""
    if not callable(getattr(fig, "savefig", None)):
        raise TypeError(f"fig must be a matplotlib Figure (e.g. ax.figure), got "
                        f"{type(fig).__name__}")
    if not isinstance(name, str) or not name or "/" in name or "\\" in name:
        raise ValueError(f"name must be a non-empty file name without folders or extension, "
                         f"e.g. '05_margins', got {name!r}")
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise ValueError(f"out_dir {str(out)!r} is a file; pass a folder to save figures in")
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{name}.png"
    fig.savefig(path, dpi=90, bbox_inches="tight")
    plt.close(fig)
    return path
