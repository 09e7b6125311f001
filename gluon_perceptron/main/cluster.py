"""``python -m gluon_perceptron.distributed``: parameter mixing on several hosts, one command.

::

    python -m gluon_perceptron.distributed --hosts hosts.txt \\
        --shards /data/x0.npy /data/y0.npy --shards /data/x1.npy /data/y1.npy --max-epochs 100

starts the scheduler on the host file's first host, the servers then the workers round-robin
over its hosts (one worker per shard), through ssh (or ``--remote``), waits for the rounds,
prints the result and stops every process on every host (see
:func:`gluon_perceptron.core.distributed.cluster_training.train_distributed` with ``hosts=``).
"""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path

import numpy as np


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m gluon_perceptron.distributed",
        description="Iterative parameter mixing on MXNet's parameter server over several "
                    "hosts: one worker per shard, started through ssh (or --remote).")
    p.add_argument("--hosts", required=True, type=Path, metavar="HOSTFILE",
                   help="one host per line: ADDRESS, or NAME ADDRESS (NAME for ssh, ADDRESS "
                        "the address the node binds on the private network); the scheduler "
                        "runs on the first")
    p.add_argument("--shards", required=True, nargs=2, action="append",
                   metavar=("FEATURES", "LABELS"),
                   help="one worker's shard: a features and a labels file (.npy or IDX), by "
                        "their paths on the hosts; repeat once per worker")
    p.add_argument("--servers", type=int, default=1, help="parameter servers (default 1)")
    p.add_argument("--max-epochs", type=int, default=None,
                   help="bound on the rounds (default: until no mistake, separable data only)")
    p.add_argument("--mixing", choices=("uniform", "weighted"), default="uniform")
    p.add_argument("--learning-rate", type=float, default=1.0)
    p.add_argument("--remote", type=shlex.split, default=None, metavar="TEMPLATE",
                   help="the remote-start command, with {host} and {command} (a shell "
                        "command line) or {argv}; default: 'ssh -o BatchMode=yes -o "
                        "ConnectTimeout=10 {host} {command}'")
    p.add_argument("--port", type=int, default=None,
                   help="the scheduler's port (default: a free one it picks)")
    p.add_argument("--timeout", type=float, default=600.0, help="seconds for the whole run")
    p.add_argument("--round-timeout", type=float, default=60.0,
                   help="seconds a node may go without a round or a heartbeat (default 60)")
    p.add_argument("--log-dir", type=Path, default=None, help="keep one log per node there")
    p.add_argument("--out", type=Path, default=None,
                   help="save the weights there (.npz with w and b)")
    return p


def main(argv: list[str] | None = None) -> int:
    """Run the command; returns the exit code (1 with one line naming the problem)."""
    from gluon_perceptron.core.distributed.cluster_training import train_distributed
    from gluon_perceptron.core.distributed.hostlist import read_hostfile
    from gluon_perceptron.core.distributed.launcher import DistributedError

    args = _parser().parse_args(argv)
    try:
        hosts = read_hostfile(args.hosts)
        result = train_distributed(
            shards=[tuple(pair) for pair in args.shards], servers=args.servers,
            max_epochs=args.max_epochs, mixing=args.mixing, learning_rate=args.learning_rate,
            timeout=args.timeout, round_timeout=args.round_timeout, log_dir=args.log_dir,
            hosts=hosts, remote=args.remote, port=args.port)
    except (DistributedError, ValueError, TypeError, FileNotFoundError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted; every node was stopped", file=sys.stderr)
        return 130
    print(f"{len(args.shards)} workers on {len({h.address for h in hosts})} hosts: "
          f"{result.epochs} rounds, converged={result.converged}, "
          f"start-up {result.startup_seconds:.2f} s, wall {result.wall_seconds:.2f} s")
    print(f"w = {np.array2string(result.w, precision=6)}, b = {result.b:.6g}")
    if args.out is not None:
        np.savez(args.out, w=result.w, b=result.b)
        print(f"saved {args.out}")
    return 0


def run() -> None:
    """The process ``python -m gluon_perceptron.distributed``."""
    sys.exit(main())
