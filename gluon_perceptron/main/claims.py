"""``bash run.sh claims`` (``python -m gluon_perceptron.main.claims``): every frequency the
notebooks state, measured again on a fresh range of seeds.

For each study of :mod:`gluon_perceptron.experiments.claims` it makes 40 draws (seeds nobody
printed: by default a range starting at a random seed, which it prints so the run can be
repeated with ``--start``), then prints each claim: the event, on how many draws it held, the
counts the notebook's words allow, and the words. The exit code is 1 when a frequency does not
support its words.
"""

from __future__ import annotations

import argparse
import functools
import sys

import numpy as np


def _parser() -> argparse.ArgumentParser:
    from ..experiments.claims import DRAWS, STUDIES
    p = argparse.ArgumentParser(
        prog="run.sh claims",
        description="Measure every frequency the notebooks state on a fresh range of seeds "
                    "and print each claim with its frequency and the words it supports "
                    f"(studies: {', '.join(STUDIES)}; all of them take tens of minutes, "
                    "generalization, relaxation and separation the most).")
    p.add_argument("--start", type=int, default=None,
                   help="the first seed (default: a random one from 100,000 to 2**31, "
                        "printed; the tests use 10,000 on, the notebooks fewer)")
    p.add_argument("--draws", type=int, default=DRAWS,
                   help=f"draws per study (default and minimum: {DRAWS})")
    p.add_argument("--only", nargs="+", metavar="STUDY", choices=sorted(STUDIES),
                   help="run only these studies")
    p.add_argument("--no-progress", action="store_true", help="hide progress bars")
    return p


def main(argv: list[str] | None = None) -> int:
    """Run the studies and print their claims; 0 when every claim is supported, else 1."""
    from tqdm import tqdm

    from ..experiments.claims import DRAWS, STUDIES, check_claims, seeds_for
    args = _parser().parse_args(argv)
    if args.draws < DRAWS:
        print(f"run.sh claims: --draws must be at least {DRAWS}, the draws a frequency in the "
              f"notebooks is stated over; got {args.draws}", file=sys.stderr)
        return 2
    start = (int(np.random.default_rng().integers(100_000, 2**31)) if args.start is None
             else args.start)
    last = 2**32 - 1 - max(s.stride for s in STUDIES.values()) * args.draws  # seeds are uint32
    if not 0 <= start <= last:
        print(f"run.sh claims: --start must be a seed from 0 to {last}, "
              f"got {start}", file=sys.stderr)
        return 2
    progress = functools.partial(tqdm, disable=args.no_progress, leave=False, file=sys.stderr)
    print(f"seeds from {start} on (repeat with --start {start}), {args.draws} draws per study")
    supported = total = 0
    for name in args.only or STUDIES:
        study = STUDIES[name]
        seeds = seeds_for(name, start, args.draws)
        print(f"\nnotebook {study.notebook}, {name}: {study.draw}; seeds {seeds[0]} to "
              f"{seeds[-1] + study.stride - 1}", flush=True)
        try:
            checks = check_claims(name, seeds, progress=progress)
        except ImportError as exc:
            print(f"  skipped: {exc}", flush=True)
            continue
        for check in checks.values():
            print(f"  {check}", flush=True)
            supported += check.supported
            total += 1
    print(f"\n{supported} of {total} claims supported on these draws")
    return 0 if supported == total else 1


if __name__ == "__main__":
    sys.exit(main())
