"""The figure drawer: a child process that turns pickled figures into PNG files.

The main job run in one process (``--jobs 1``, or a single section) computes on one core
while this process, started once by
:func:`~gluon_perceptron.main.figures.saving_in_background`, draws on the other (drawing is
about a third of the job); with helper processes, each process draws its own figures.

It reads jobs from standard input, each an 8-byte little-endian length and a pickle of
``(figure, file name, savefig keyword arguments)``, draws the figure into that file and
answers one line per job on standard output, in order: ``ok``, or ``error`` and what went
wrong. It ends at the end of its input. It ignores Ctrl-C (the job decides what happens to
figures already handed over) and is started so that it dies with the job
(``prctl(PR_SET_PDEATHSIG)``), even when the job is killed with SIGKILL.
"""

from __future__ import annotations

import os
import pickle
import signal
import struct
import sys

HEADER = struct.Struct("<Q")


def main() -> int:
    """Draw every figure read from standard input; 0 at the end of the input."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    os.environ["MPLBACKEND"] = "Agg"
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    source, answers = sys.stdin.buffer, sys.stdout.buffer
    while True:
        head = source.read(HEADER.size)
        if len(head) < HEADER.size:
            return 0
        payload = source.read(HEADER.unpack(head)[0])
        try:
            fig, file, kwargs = pickle.loads(payload)
            fig.savefig(file, **kwargs)
            plt.close(fig)
            answer = "ok"
        except Exception as exc:  # reported to the job, which draws the figure itself
            answer = f"error {type(exc).__name__}: {exc}".replace("\n", " ")
        answers.write(answer.encode() + b"\n")
        answers.flush()


if __name__ == "__main__":
    sys.exit(main())
