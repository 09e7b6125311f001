"""The main job: every section of the chapter run in order, each saving its figures as PNG.

A section is a function ``section(opts: Options) -> list[Path]`` living next to the code it
illustrates; :func:`_sections` lists them in the chapter's order. :func:`run` seeds the random
generators before each section, so a section's figures do not depend on which ran before it.

Each run leaves a manifest ``out/index.json`` (seed, version, sections, files, complete) that
lists exactly the PNG files it wrote, and removes the figures an earlier run listed in its
manifest that this run did not make (nothing else is ever deleted), so the folder describes
one run, even when that run was interrupted.
"""

from __future__ import annotations

import json
import os
import random
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import mxnet as mx
import numpy as np


@dataclass
class Options:
    """Settings shared by every section of the main job.

    Attributes
    ----------
    out : Path
        Folder for the PNG files.
    seed : int
        Seed for MXNet's, numpy's and Python's generators, set before every section.
    progress : bool
        Show progress bars on long loops.
    faithful_experiment : bool
        Also run the chapter's convergence experiment exactly as written (1 to 2 minutes).
    """

    out: Path = Path("figures")
    seed: int = 0  # 0 .. SEED_MAX
    progress: bool = True
    faithful_experiment: bool = False

    def seed_all(self) -> None:
        """Seed MXNet, numpy and Python's ``random`` with :attr:`seed`."""
        mx.random.seed(self.seed)
        np.random.seed(self.seed)
        random.seed(self.seed)


#: The largest seed every generator accepts (numpy's legacy seeding takes 0 .. 2**32 - 1).
SEED_MAX = 2**32 - 1
#: The manifest each run writes in its output folder.
MANIFEST = "index.json"


def _sections() -> list[tuple[str, Callable[[Options], list[Path]]]]:
    from .sections import (
        beyond,
        black_and_white,
        chapter,
        convergence,
        digits,
        distributed,
        expressivity,
        multiclass,
        optimality,
        relaxation,
        sgd,
    )

    return [
        ("The perceptron, step by step", chapter.demo_section),
        ("Updates against the margin", chapter.experiment_section),
        ("The perceptron loss", chapter.loss_section),
        ("The perceptron as SGD", sgd.sgd_section),
        ("Black & White", black_and_white.black_and_white_section),
        ("Convergence bounds", convergence.convergence_section),
        ("Optimality and generalization", optimality.optimality_section),
        ("Expressivity and the loss surface", expressivity.expressivity_section),
        ("Digits: 0 or not 0", digits.digits_section),
        ("Multiclass", multiclass.multiclass_section),
        ("The relaxation method", relaxation.relaxation_section),
        ("The perceptron on many machines", distributed.distributed_section),
        ("Beyond Rosenblatt", beyond.beyond_section),
    ]


def section_names() -> list[str]:
    """Names of the main job's sections, in the order they run."""
    return [name for name, _ in _sections()]


def _earlier_files(out: Path) -> list[Path]:
    """The PNG files an earlier run listed in ``out/index.json`` (plain names only)."""
    try:
        listed = json.loads((out / MANIFEST).read_text()).get("files", [])
    except (OSError, ValueError, AttributeError):
        return []
    if not isinstance(listed, list):
        return []
    return [out / name for name in listed
            if isinstance(name, str) and name.endswith(".png") and Path(name).name == name
            and name not in (".png",)]


def _write_manifest(out: Path, opts: Options, sections: list[str], paths: list[Path],
                    complete: bool) -> Path:
    from .. import __version__

    manifest = {"seed": opts.seed, "version": __version__, "sections": sections,
                "files": [p.name for p in paths], "complete": complete}
    out.mkdir(parents=True, exist_ok=True)
    handle, tmp = tempfile.mkstemp(dir=out, prefix=".index.", suffix=".json.part")
    try:
        with os.fdopen(handle, "w") as stream:
            json.dump(manifest, stream, indent=1)
        os.replace(tmp, out / MANIFEST)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return out / MANIFEST


def _remove_stale(earlier: list[Path], made: list[Path]) -> None:
    keep = {p.name for p in made}
    for path in earlier:
        if path.name not in keep and path.is_file() and not path.is_symlink():
            path.unlink(missing_ok=True)


def run(opts: Options, only: list[str] | None = None) -> list[Path]:
    """Run the sections (all, or those whose name contains one of ``only``); return the PNGs.

    Writes ``opts.out/index.json`` listing the figures written, also when interrupted
    (``KeyboardInterrupt``) or stopped by an error, and removes the figures of an earlier
    run's manifest that this run did not make.
    """
    from .figures import recording

    out = Path(opts.out)
    earlier = _earlier_files(out)
    sections: list[str] = []
    complete = False
    with recording() as paths:
        try:
            for name, section in _sections():
                if only and not any(word.lower() in name.lower() for word in only):
                    continue
                sections.append(name)
                print(f"\n== {name} ==", flush=True)
                start = time.perf_counter()
                before = len(paths)
                opts.seed_all()
                section(opts)
                print(f"   {len(paths) - before} figure(s) in "
                      f"{time.perf_counter() - start:.1f} s", flush=True)
            complete = True
        finally:
            made = list(dict.fromkeys(paths))
            _remove_stale(earlier, made)
            if made or earlier or complete:
                _write_manifest(out, opts, sections, made, complete)
    return made
