"""The main job: every section of the chapter run in order, each saving its figures as PNG.

A section is a function ``section(opts: Options) -> list[Path]`` living next to the code it
illustrates; :data:`SECTIONS` lists them in the chapter's order. :func:`run` seeds the random
generators before each section, so a section's figures do not depend on which ran before it.
"""

from __future__ import annotations

import random
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
    seed: int = 0
    progress: bool = True
    faithful_experiment: bool = False

    def seed_all(self) -> None:
        """Seed MXNet, numpy and Python's ``random`` with :attr:`seed`."""
        mx.random.seed(self.seed)
        np.random.seed(self.seed)
        random.seed(self.seed)


def _sections() -> list[tuple[str, Callable[[Options], list[Path]]]]:
    from .sections import (
        black_and_white,
        chapter,
        convergence,
        digits,
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
    ]


def section_names() -> list[str]:
    """Names of the main job's sections, in the order they run."""
    return [name for name, _ in _sections()]


def run(opts: Options, only: list[str] | None = None) -> list[Path]:
    """Run the sections (all, or those whose name contains one of ``only``); return the PNGs."""
    paths: list[Path] = []
    for name, section in _sections():
        if only and not any(word.lower() in name.lower() for word in only):
            continue
        print(f"\n== {name} ==", flush=True)
        start = time.perf_counter()
        opts.seed_all()
        made = section(opts)
        paths.extend(made)
        print(f"   {len(made)} figure(s) in {time.perf_counter() - start:.1f} s", flush=True)
    return paths
