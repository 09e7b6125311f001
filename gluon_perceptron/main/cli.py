"""Command line: ``python -m gluon_perceptron`` (or ``gluon-perceptron``) runs the main job."""

from __future__ import annotations

import argparse
import atexit
import contextlib
import os
import sys
import time
from pathlib import Path
from typing import NoReturn

from .runtime import cut_short, quiet_unraisable


def _folder(text: str) -> Path:
    """``--out``'s value: a folder's path; an empty one is refused (``Path("")`` is the
    current folder, where the job would write its figures and manifest)."""
    if not text.strip():
        raise argparse.ArgumentTypeError(
            "needs a folder, e.g. --out figures; an empty path would write into the current "
            "folder (say --out . for that)")
    return Path(text)


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="gluon-perceptron",
        description="Run the whole Perceptron chapter: print the demo's trace, run the "
                    "experiments (with progress bars) and save every figure as PNG.")
    p.add_argument("--out", type=_folder, default=Path("figures"),
                   help="folder for the PNG figures (default: figures/)")
    p.add_argument("--seed", type=int, default=0,
                   help="random seed, 0 .. 4294967295 (default: 0)")
    p.add_argument("--faithful-experiment", action="store_true",
                   help="also run the chapter's convergence experiment exactly as written "
                        "(one-point-at-a-time sampler, never resets w, b): 1 to 2 minutes more")
    p.add_argument("--jobs", type=int, default=None, metavar="N",
                   help="run sections in N processes at once (default: the cores, at most "
                        "4); 1 runs every section in this process. The numbers are the same; "
                        "sections run by a helper process show no progress bar")
    p.add_argument("--no-progress", action="store_true", help="hide progress bars")
    p.add_argument("--only", nargs="+", metavar="WORD",
                   help="run only the sections whose name contains one of these words")
    p.add_argument("--list", action="store_true", help="list the sections and exit")
    return p


def main(argv: list[str] | None = None) -> int:
    """Entry point of the main job; returns the process exit code.

    Ctrl-C stops the job with one line, ``interrupted; N figures written to DIR``, and exit
    code 130 (no traceback); the figures on disk are whole and listed in ``DIR/index.json``.
    """
    args = _parser().parse_args(argv)
    written: list[Path] = []
    try:
        return _main(args, written)
    except KeyboardInterrupt:
        sys.unraisablehook = quiet_unraisable(sys.unraisablehook, cut_short)
        print(f"\ninterrupted; {len(set(written))} figures written to {args.out.expanduser()}",
              file=sys.stderr)
        return 130


def run() -> NoReturn:
    """The process ``python -m gluon_perceptron`` (or ``gluon-perceptron``): :func:`main`, then
    the end of the process, without the interpreter's teardown.

    When :func:`main` returns, everything is written and printed; with MXNet loaded, what is
    left (its engine's threads, its C++ destructors, the modules' teardown) takes half a second,
    a twentieth of the job. The exit handlers run and the streams are flushed, as on a normal
    exit; an exception from :func:`main` ends the process the normal way.
    """
    code = main()
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # a closed pipe: nothing to flush to
            stream.flush()
    os._exit(code)


#: The most processes ``--jobs`` may ask for (the job has a dozen sections).
JOBS_MAX = 16
#: Without ``--jobs``: one process per core, at most this many.
JOBS_DEFAULT_MAX = 4


def _jobs(args: argparse.Namespace) -> int:
    """The processes to run sections in: ``--jobs``, or one per core up to 4."""
    from .parallel import available_cores

    return args.jobs or min(JOBS_DEFAULT_MAX, available_cores())


def _main(args: argparse.Namespace, written: list[Path]) -> int:
    from . import parallel
    from .runtime import job_environment

    with job_environment():
        # the helpers load MXNet and the sections while this process does; ended if unused
        parallel.start_helpers(_helpers_wanted(args))
        try:
            return _job(args, written)
        finally:
            parallel.end_waiting_helpers()


def _helpers_wanted(args: argparse.Namespace) -> int:
    """How many helper processes the job will want, judged before anything heavy is loaded
    (0 where the options are wrong, ``--out`` included: the job will refuse them)."""
    from .job import MANIFEST, SEED_MAX
    from .parallel import SECTIONS, helpers_for

    jobs = _jobs(args)
    if args.list or not 0 <= args.seed <= SEED_MAX or not 1 <= jobs <= JOBS_MAX:
        return 0
    words = args.only or []
    if any(not any(w.lower() in name.lower() for name in SECTIONS) for w in words):
        return 0
    names = [name for name in SECTIONS
             if not words or any(w.lower() in name.lower() for w in words)]
    helpers = helpers_for(jobs, len(names))
    if helpers and _out_problem(args.out.expanduser(), MANIFEST):
        return 0
    return helpers


def _job(args: argparse.Namespace, written: list[Path]) -> int:
    import matplotlib

    matplotlib.use("Agg")
    from . import job

    if args.list:
        print("\n".join(job.section_names()))
        return 0
    if not 0 <= args.seed <= job.SEED_MAX:
        print(f"error: --seed must be in 0 .. {job.SEED_MAX} (what numpy's and MXNet's "
              f"generators accept), got {args.seed}", file=sys.stderr)
        return 2
    if args.only:
        names = job.section_names()
        unknown = [w for w in args.only if not any(w.lower() in n.lower() for n in names)]
        if unknown:
            print(f"error: --only {unknown} matches no section; sections are: "
                  + "; ".join(names), file=sys.stderr)
            return 2
    if args.jobs is not None and not 1 <= args.jobs <= JOBS_MAX:
        print(f"error: --jobs must be in 1 .. {JOBS_MAX} (processes running sections at "
              f"once; 1 runs them all in this process), got {args.jobs}", file=sys.stderr)
        return 2
    out = args.out.expanduser()
    problem = _out_problem(out, job.MANIFEST)
    if problem:
        print(f"error: --out {out} {problem}", file=sys.stderr)
        return 2
    opts = job.Options(out=out, seed=args.seed, progress=not args.no_progress,
                       faithful_experiment=args.faithful_experiment,
                       jobs=_jobs(args))
    from .figures import FigureError, recording

    start = time.perf_counter()
    with recording() as paths_so_far:
        try:
            paths = job.run(opts, only=args.only)
        except FigureError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        finally:
            written.extend(paths_so_far)
    print(f"\nsaved {len(paths)} figures in {out.resolve()} "
          f"({time.perf_counter() - start:.1f} s), listed in {out / job.MANIFEST}:")
    for path in paths:
        print(f"  {path}")
    return 0


def _out_problem(out: Path, manifest: str) -> str | None:
    """What keeps the job from writing its figures and manifest into ``out`` (creating it),
    as the end of a one-line sentence whose subject is ``--out OUT``; None if nothing does."""
    from .figures import folder_problem

    if out.exists() and not out.is_dir():
        return "exists and is not a folder; pick another path"
    problem = folder_problem(out)
    if problem:
        return problem
    if (out / manifest).is_dir():
        return (f"holds a folder named {manifest}, where the job writes its list of figures: "
                f"move or rename that folder, or pick another path")
    return None


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
