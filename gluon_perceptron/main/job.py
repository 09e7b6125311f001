"""The main job: every section of the chapter run in order, each saving its figures as PNG.

A section is a function ``section(opts: Options) -> list[Path]`` living next to the code it
illustrates; :func:`_sections` lists them in the chapter's order. :func:`run` seeds the random
generators before each section, so a section's figures do not depend on which ran before it.

Each run leaves a manifest ``out/index.json`` that lists the PNG files of the folder section by
section (``by_section``: files, seconds, seed, version, finished or not), merging in the
sections this run did not run (``--only``). A run removes only figures an earlier manifest
listed under a section this run finished and that this run did not make again, and says so;
a run of every section also removes the rest of what earlier manifests listed and it did not
make. A file no manifest listed (a user's) is never deleted.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .runtime import cut_short, quiet_unraisable


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
    jobs : int
        Processes that run sections at once: this one and ``jobs - 1`` helper processes
        (:mod:`~gluon_perceptron.main.parallel`); the numbers printed are the same for any
        value. A helper shows no progress bars.
    """

    out: Path = Path("figures")
    seed: int = 0  # 0 .. SEED_MAX
    progress: bool = True
    faithful_experiment: bool = False
    jobs: int = 1

    def seed_all(self) -> None:
        """Seed MXNet, numpy and Python's ``random`` with :attr:`seed`."""
        import mxnet as mx  # here: loading this module stays light (the CLI checks first)

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
        family,
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
        ("The perceptron's family", family.family_section),
    ]


def smaller_than_the_book(section: Callable[[Options], list[Path]]) -> tuple[str, ...]:
    """What a section runs smaller than its notebook (its module's ``SMALLER_THAN_THE_BOOK``):
    the main job keeps to seconds, the notebooks measure over more draws."""
    module = sys.modules.get(getattr(section, "__module__", ""), None)
    return tuple(getattr(module, "SMALLER_THAN_THE_BOOK", ()))


def section_names() -> list[str]:
    """Names of the main job's sections, in the order they run."""
    return [name for name, _ in _sections()]


def _plain_png(name: object) -> bool:
    """A file name a manifest may list: a plain ``*.png`` name, no folder (nothing outside)."""
    return (isinstance(name, str) and name.endswith(".png") and name != ".png"
            and Path(name).name == name and "\\" not in name)


def _names(listed: object) -> list[str]:
    return list(dict.fromkeys(n for n in listed if _plain_png(n))) \
        if isinstance(listed, list) else []


def _earlier(out: Path) -> tuple[dict[str, dict], list[str]]:
    """What an earlier run's ``out/index.json`` lists: per section its entry (``files``,
    ``seconds``, ``seed``, ...), and the files it lists under no section (a manifest written
    before sections had entries). Only plain ``*.png`` names are kept; an unreadable
    manifest lists nothing."""
    try:
        data = json.loads((out / MANIFEST).read_text())
    except (OSError, ValueError):
        return {}, []
    if not isinstance(data, dict):
        return {}, []
    sections: dict[str, dict] = {}
    by_section = data.get("by_section")
    if isinstance(by_section, dict):
        for name, entry in by_section.items():
            if isinstance(name, str) and isinstance(entry, dict):
                sections[name] = {**entry, "files": _names(entry.get("files"))}
    attributed = {f for entry in sections.values() for f in entry["files"]}
    loose = [f for f in _names(data.get("files")) if f not in attributed]
    return sections, loose


def _write_manifest(out: Path, opts: Options, ran: list[str], sections: dict[str, dict],
                    loose: list[str], complete: bool) -> Path:
    from .. import __version__

    order = {name: k for k, name in enumerate(section_names())}
    names = sorted(sections, key=lambda n: (order.get(n, len(order)), n))
    files = [f for n in names for f in sections[n]["files"]] + loose
    manifest = {"seed": opts.seed, "version": __version__, "sections": names,
                "files": files, "complete": complete, "ran": ran,
                "by_section": {n: sections[n] for n in names}, "unattributed": loose}
    from .figures import FIGURE_MODE

    out.mkdir(parents=True, exist_ok=True)
    handle, tmp = tempfile.mkstemp(dir=out, prefix=".index.", suffix=".json.part")
    try:
        os.fchmod(handle, FIGURE_MODE)  # mkstemp makes it private; it lists the figures
        with os.fdopen(handle, "w") as stream:
            json.dump(manifest, stream, indent=1)
        os.replace(tmp, out / MANIFEST)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return out / MANIFEST


def _remove(out: Path, names: list[str]) -> list[Path]:
    """Delete the listed figures that are regular files (never a symlink or a folder)."""
    removed = []
    for name in names:
        path = out / name
        if path.is_file() and not path.is_symlink():
            path.unlink(missing_ok=True)
            removed.append(path)
    return removed


def _present(out: Path, names: list[str]) -> list[str]:
    return [n for n in names if os.path.lexists(out / n)]


def _merge(earlier: dict[str, dict], loose: list[str], new: dict[str, dict],
           full: bool) -> tuple[dict[str, dict], list[str], list[str]]:
    """The folder's sections after this run, its unattributed files, and the stale files.

    A section this run finished replaces its earlier entry: the files the earlier entry
    listed that this run did not make are stale. A section this run started but did not
    finish keeps its earlier files beside the new ones (nothing replaced them). A section this
    run did not run keeps its entry. After a finished run of every section, every file an
    earlier run listed that this run did not make is stale (renamed sections, old manifests).
    """
    made = {f for entry in new.values() for f in entry["files"]}
    stale: list[str] = []
    sections: dict[str, dict] = {}
    for name, entry in earlier.items():
        old = [f for f in entry["files"] if f not in made]
        if full or (name in new and new[name]["complete"]):
            stale += old
        elif name in new:
            new[name]["files"] += old
        else:
            sections[name] = {**entry, "files": old}
    kept_loose = [f for f in loose if f not in made]
    if full:
        stale += kept_loose
        kept_loose = []
    sections.update(new)
    return sections, kept_loose, list(dict.fromkeys(stale))


class _Interrupt:
    """Ctrl-C that is not lost. Python prints and drops an exception raised inside a weakref
    callback or a ``__del__``, so a ``KeyboardInterrupt`` delivered there would vanish and the
    job would run to the end; the handler also sets a flag, which the next section boundary
    turns into the ``KeyboardInterrupt`` again."""

    seen = False

    @classmethod
    def handler(cls, signum, frame) -> None:
        cls.seen = True
        raise KeyboardInterrupt

    @classmethod
    @contextlib.contextmanager
    def installed(cls) -> Iterator[None]:
        """The handler, where Python's own is in place (not where SIGINT is ignored, nor off the
        main thread), and a hook that keeps a dropped interrupt from printing a traceback; the
        previous ones afterwards."""
        cls.seen = False
        own = (threading.current_thread() is threading.main_thread()
               and signal.getsignal(signal.SIGINT) is signal.default_int_handler)
        if not own:
            yield
            return
        previous = sys.unraisablehook
        signal.signal(signal.SIGINT, cls.handler)
        sys.unraisablehook = quiet_unraisable(  # the interrupt: ours, flagged already
            previous, lambda u: issubclass(u.exc_type, KeyboardInterrupt) or cut_short(u))
        try:
            yield
        finally:
            sys.unraisablehook = previous
            signal.signal(signal.SIGINT, signal.default_int_handler)

    @classmethod
    def check(cls) -> None:
        if cls.seen:
            raise KeyboardInterrupt


def run(opts: Options, only: list[str] | None = None) -> list[Path]:
    """Run the sections (all, or those whose name contains one of ``only``); return the PNGs.

    With ``opts.jobs > 1``, helper processes run some of the sections at the same time
    (:mod:`~gluon_perceptron.main.parallel`); every section is still printed in order, with
    the same numbers.

    Writes ``opts.out/index.json``, also when interrupted (``KeyboardInterrupt``) or stopped by
    an error: per section (``by_section``) the files it made, its seconds, seed and version,
    and whether it finished; the entries of the sections this run did not run are kept from
    the earlier manifest. Removes, and prints, the figures the earlier manifest listed under a
    section this run finished that this run did not make (after a whole run: every figure
    it listed that this run did not make). A file no manifest listed is never removed.
    """
    from .figures import saving_in_background
    from .parallel import Helpers

    out = Path(opts.out)
    earlier, loose = _earlier(out)
    chosen = [(name, section) for name, section in _sections()
              if not only or any(word.lower() in name.lower() for word in only)]
    new: dict[str, dict] = {}
    saved: dict[str, list[Path]] = {name: [] for name, _ in chosen}  # figures on disk
    asked: dict[str, int] = {}  # per section, the figures it saved (drawn or handed over)
    complete = False
    with _Interrupt.installed():
        helpers = Helpers(opts, chosen, saved)
        try:
            # alone, the job hands its figures to a drawer process and computes on (the block
            # ends when all are on disk); beside helpers, every process draws its own: the cores
            # are busy, and a third process would only add its start and the pickling (1.5 s)
            background = contextlib.nullcontext() if helpers.wanted else saving_in_background()
            with background:
                helpers.start()
                for index, (name, section) in enumerate(chosen):
                    entry = new[name] = _start_section(opts, name, section)
                    helper = helpers.claim(index)
                    if helper is not None:
                        asked[name] = _take(helper.wait(name), entry)
                    else:
                        asked[name] = _run_here(opts, section, entry, saved[name])
                    _Interrupt.check()
                    entry["complete"] = True
                    print(f"   {asked[name]} figure(s) in {entry['seconds']:.1f} s",
                          flush=True)
            complete = True
        finally:
            by_name = dict(chosen)
            for report in helpers.stop():  # finished by a helper, never reached here
                if report.name not in new:
                    new[report.name] = _entry(opts, by_name[report.name], report.seconds, True)
                    asked[report.name] = report.figures
            for name, files in saved.items():
                if files and name not in new:  # begun by a helper, never finished
                    new[name] = _entry(opts, by_name[name], None, False)
            ran = [name for name, _ in chosen if name in new]
            for name in ran:
                new[name]["files"] = list(dict.fromkeys(p.name for p in saved[name]))
                if len(saved[name]) < asked.get(name, 0):  # a figure handed over never drawn
                    new[name]["complete"] = False
            made = list(dict.fromkeys(p for name in ran for p in saved[name]))
            full = complete and len(ran) == len(section_names())
            sections, loose, stale = _merge(earlier, loose, new, full)
            removed = _remove(out, stale)
            # what an earlier run listed and is gone since (deleted by hand) is listed no more
            for entry in sections.values():
                entry["files"] = _present(out, entry["files"])
            loose = _present(out, loose)
            if made or earlier or loose or complete:
                _write_manifest(out, opts, ran, sections, loose, complete)
            _report(out, removed, sections, loose, ran)
    return made


def _entry(opts: Options, section, seconds: float | None, complete: bool) -> dict:
    """A section's entry in the manifest (its ``files`` are filled in at the end)."""
    from .. import __version__

    return {"files": [], "seconds": None if seconds is None else round(seconds, 3),
            "seed": opts.seed, "version": __version__, "complete": complete,
            "smaller_than_the_book": list(smaller_than_the_book(section))}


def _start_section(opts: Options, name: str, section) -> dict:
    """Print the section's title and what it runs smaller than the book; its entry."""
    print(f"\n== {name} ==", flush=True)
    for line in smaller_than_the_book(section):
        print(f"   (smaller than the book: {line})", flush=True)
    return _entry(opts, section, None, False)


def _run_here(opts: Options, section, entry: dict, saved: list[Path]) -> int:
    """Run one section in this process, seeded; the figures it saved (drawn or handed over)."""
    from .figures import calls, recording

    start, before = time.perf_counter(), calls()
    with recording(saved):
        try:
            opts.seed_all()
            section(opts)
        finally:
            entry["seconds"] = round(time.perf_counter() - start, 3)
    return calls() - before


def _take(report, entry: dict) -> int:
    """Print what a helper's section printed; raise what it raised. The figures it saved."""
    sys.stdout.write(report.printed)
    sys.stdout.flush()
    if report.seconds is not None:
        entry["seconds"] = round(report.seconds, 3)
    if report.status == "done":
        return report.figures
    if report.status == "failed" and report.error is not None:
        report.error.add_note(f"(raised in a helper process of the job)\n{report.traceback}")
        raise report.error
    raise RuntimeError(f"section {report.name!r} did not finish in its helper process: "
                       f"{report.traceback.strip() or report.status}; --jobs 1 runs every "
                       f"section in this process")


def _report(out: Path, removed: list[Path], sections: dict[str, dict], loose: list[str],
            ran: list[str]) -> None:
    """Say what this run removed, and what it kept of sections it did not run."""
    if removed:
        print(f"\nremoved {len(removed)} figure(s) that an earlier run listed in "
              f"{out / MANIFEST} and this run did not make again:", flush=True)
        for path in removed:
            print(f"  removed {path}", flush=True)
    others = [n for n in sections if n not in ran]
    kept = sum(len(sections[n]["files"]) for n in others) + len(loose)
    if kept:
        whose = ([f"{len(others)} section(s) this run did not run"] if others else []) \
            + ([f"{len(loose)} listed under no section"] if loose else [])
        print(f"\nkept {kept} figure(s) of earlier runs ({', '.join(whose)}), still listed "
              f"in {out / MANIFEST}", flush=True)
