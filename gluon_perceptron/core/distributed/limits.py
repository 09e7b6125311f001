"""The limits of a cluster on one host and the rules of the launcher's arguments: at most
:data:`MAX_PROCESSES_PER_CORE` servers and workers per core, a per-round deadline, and folders
and commands checked by name before any process starts."""

from __future__ import annotations

import os
from pathlib import Path

from .. import _checks
from .._validation import Rule, instance, items, optional, real, such_that
from .hostlist import HOSTS, PORT, REMOTE

#: A one-host cluster runs at most this many servers + workers per core: beyond, the processes
#: only wait for each other (and each worker holds a copy of MXNet, hundreds of MiB).
MAX_PROCESSES_PER_CORE = 4


#: The default per-round deadline of the trainers (seconds): a worker that reports no exchange
#: for this long while another is ahead is named in a :class:`DistributedTimeout`.
ROUND_TIMEOUT = 60.0


def max_processes() -> int:
    """The most servers + workers one host runs: :data:`MAX_PROCESSES_PER_CORE` x cores."""
    return MAX_PROCESSES_PER_CORE * (os.cpu_count() or 1)


def check_cluster_size(workers: int, servers: int, hosts: int = 1) -> None:
    """Refuse a cluster that puts more than :func:`max_processes` servers + workers on a host.

    Called before any process starts; ``workers`` and ``servers`` are positive integers, and
    ``hosts`` the length of the round-robin's list (the busiest host runs its ceiling share).
    """
    cap = max_processes()
    if -(-(workers + servers) // hosts) > cap:
        raise ValueError(f"workers={workers:,} + servers={servers:,} = {workers + servers:,} "
                         f"processes is more than this host runs: at most {cap} "
                         f"({MAX_PROCESSES_PER_CORE} x {os.cpu_count() or 1} cores, "
                         f"MAX_PROCESSES_PER_CORE); use fewer workers or servers, or run on "
                         f"several hosts (hosts=[...], or python -m gluon_perceptron.distributed "
                         f"--hosts HOSTFILE; see 'On several hosts' in docs/package.md)")


def path() -> Rule:
    """The rule of a folder argument (``log_dir``): a str or ``os.PathLike``."""
    return instance((str, os.PathLike), "a folder's path")


#: The rule of ``launch_cluster``'s ``cwd``: an existing folder.
EXISTING_FOLDER = such_that(path(), lambda value, args: str(value) and Path(value).is_dir(),
                            "{name} '{value}' is not an existing folder; give the folder the "
                            "workers start in")


def _servers(servers, name: str, args: dict) -> int:
    servers = _checks.positive_int(servers, name)
    check_cluster_size(args["workers"], servers, len(args.get("hosts") or ()) or 1)
    return servers


#: The rule of ``servers`` (after ``workers`` and, where there is one, ``hosts``): a count,
#: and the busiest host's share of ``workers + servers`` within its cap
#: (:func:`check_cluster_size`), checked before any process starts.
SERVERS = Rule(_servers, "count(), workers + servers <= max_processes() per host", ("workers",))


#: The rules of the arguments of a trainer that starts a cluster, declared after ``workers``:
#: the multi-host ones of :mod:`.hostlist` (``hosts``: None or a list of
#: ``"ADDRESS"``/``"NAME ADDRESS"``/``(name, address)``, addresses only; the remote-start
#: template ``remote``; the scheduler's ``port``), ``servers`` and the deadlines.
CLUSTER = dict(hosts=optional(HOSTS), servers=SERVERS, log_dir=optional(path()),
               round_timeout=real(positive=True), port=optional(PORT), remote=optional(REMOTE))


#: The rule of ``launch_cluster``'s ``worker_command``: a command line, as a list.
COMMAND = items((str, os.PathLike), "strings (a command line such as [sys.executable, '-m', "
                                    "'my.worker'])")


def prepare_log_dir(log_dir) -> Path:
    """The folder ``log_dir`` (a str or ``os.PathLike``, as the rule :func:`path` checked),
    made if needed; a ``ValueError`` naming it when it names a file or cannot be made."""
    log_dir = Path(log_dir)
    if log_dir.exists() and not log_dir.is_dir():
        raise ValueError(f"log_dir {str(log_dir)!r} is a file, not a folder")
    try:
        log_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ValueError(f"log_dir {str(log_dir)!r} cannot be made a folder "
                         f"({exc.strerror or type(exc).__name__}); give a folder you can "
                         f"write to") from exc
    return log_dir
