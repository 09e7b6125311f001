"""A helper process of the main job: it runs some of the job's sections while the job runs
others, and reports back what the job would have printed and saved.

Started by :func:`~gluon_perceptron.main.parallel.start_helpers` (``--jobs N``) before the
job loads MXNet, it loads the job's modules at the same time as the job, then reads its plan
from standard input (a pickle of the job's :class:`~gluon_perceptron.main.job.Options`, the
run's section names, the descriptor of the run's
:class:`~gluon_perceptron.main.parallel.Claims` and its own mark there; nothing: it ends).
It claims sections from the back and runs each, seeded as the job seeds it, so its numbers
are the ones the job would print. It answers on standard output with messages, each an 8-byte
little-endian length and a pickle:

- ``("figure", section, path)`` as soon as a figure is renamed into place;
- ``("done", section, printed, seconds, figures)`` when a section ends;
- ``("failed", section, printed, seconds, figures, exception, traceback)`` when one raises
  (the helper stops there, as the job would);
- ``("idle", None)`` when no section is left for it (it then ends);
- ``("stopped", section)`` when the job stopped it (SIGTERM) in the middle of ``section``.

It ignores Ctrl-C (the job decides), ends on SIGTERM at the next Python instruction outside
the rename of a figure, and dies with the job (``PR_SET_PDEATHSIG``) even on SIGKILL.
"""

from __future__ import annotations

import contextlib
import io
import os
import pickle
import signal
import sys
import time
import traceback

from .drawer import HEADER
from .runtime import cut_short, quiet_unraisable


class _Stopped(BaseException):
    """SIGTERM from the job: stop where we are."""

    seen = False  # also set, in case the exception lands where Python drops it (__del__)


class _Channel:
    """The messages to the job, on a copy of standard output (fd 1 itself now points to
    standard error, so nothing else written there can garble a message)."""

    def __init__(self):
        self.stream = os.fdopen(os.dup(1), "wb")
        os.dup2(2, 1)

    def send(self, *message) -> None:
        """Write one message whole: SIGTERM waits until it is written."""
        payload = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
        old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})
        try:
            self.stream.write(HEADER.pack(len(payload)) + payload)
            self.stream.flush()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, old)


class _Reported(list):
    """A section's figures: each one is reported to the job as it is recorded."""

    def __init__(self, channel: _Channel, section: str):
        super().__init__()
        self.channel, self.section = channel, section

    def append(self, path) -> None:
        super().append(path)
        self.channel.send("figure", self.section, str(path))


def _picklable(exc: BaseException) -> BaseException | None:
    """``exc`` if it survives a pickle round trip (the job raises it again), else None."""
    try:
        return pickle.loads(pickle.dumps(exc))
    except Exception:  # noqa: BLE001 - any exception that does not travel
        return None


def _stop(signum, frame) -> None:
    _Stopped.seen = True
    raise _Stopped


def _quiet_when_dropped(previous):
    """An ``unraisablehook`` that prints nothing for a :class:`_Stopped` Python dropped (raised
    in a weakref callback or a ``__del__``: the flag it set stops the run at the next section,
    as the job's own Ctrl-C handling does) nor for an MXNet object it cut short."""
    return quiet_unraisable(previous, lambda u: issubclass(u.exc_type, _Stopped) or cut_short(u))


def run(opts, names: list, claims, who: int, channel: _Channel) -> None:
    """Run the sections of ``names`` this helper claims (from the back, as
    :func:`~gluon_perceptron.main.parallel.claims_from_the_back` says), reporting each to
    ``channel``; report ``idle`` when none is left for it."""
    from .figures import calls, recording
    from .job import _sections
    from .parallel import claims_from_the_back

    sections = dict(_sections())
    for index in claims_from_the_back(claims, names, who):
        name = names[index]
        if _Stopped.seen:
            raise _Stopped
        printed = io.StringIO()
        start, before = time.perf_counter(), calls()
        try:
            with recording(_Reported(channel, name)), contextlib.redirect_stdout(printed):
                opts.seed_all()
                sections[name](opts)
        except _Stopped:
            channel.send("stopped", name)
            return
        except BaseException as exc:  # noqa: BLE001 - the job decides what to do with it
            channel.send("failed", name, printed.getvalue(), time.perf_counter() - start,
                         calls() - before, _picklable(exc), traceback.format_exc())
            return
        channel.send("done", name, printed.getvalue(), time.perf_counter() - start,
                     calls() - before)
    channel.send("idle", None)


def main() -> int:
    """Read the plan from standard input and run it; 0 when every section was reported.

    The process then ends at once (``os._exit``): everything it made is on disk and reported,
    and the job waits for its end, which an interpreter holding MXNet takes half a second to
    reach the usual way."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _stop)
    sys.unraisablehook = _quiet_when_dropped(sys.unraisablehook)
    channel = _Channel()
    try:
        os.environ["MPLBACKEND"] = "Agg"
        import matplotlib

        matplotlib.use("Agg")
        from .job import _sections

        _sections()  # every section's modules loaded while the job loads its own
        plan = sys.stdin.buffer.read()
        if not plan:  # started early and not needed after all
            return 0
        from .parallel import Claims

        opts, names, claims_fd, who = pickle.loads(plan)
        run(opts, names, Claims(claims_fd), who, channel)
    except _Stopped:
        channel.send("stopped", None)
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})
    sys.stderr.flush()
    os._exit(0)


if __name__ == "__main__":
    sys.exit(main())
