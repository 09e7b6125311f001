"""The perceptron on many machines, on MXNet's own parameter server (KVStore ``dist_sync``).

- :mod:`.launcher`: start a scheduler, servers and workers as child processes on 127.0.0.1,
  watch them, stop them by their PIDs (its children never import MXNet on their own).
- :mod:`.limits`: how many processes one host runs, the per-round deadline, and the rules of
  the launcher's arguments, checked before anything starts.
- :mod:`.lifeline`: what makes every child die with its parent, and the task folder's janitor.
- :mod:`.shards`: shard files (``.npy``, memory-mapped, IDX), read by their headers only.
- :mod:`.node`: the scheduler and server processes (MXNet's C library, loaded without Python's
  MXNet package, so a server starts in a fraction of a second).
- :mod:`.worker`: the worker entry point, ``python -m gluon_perceptron.core.distributed.worker``.
- :mod:`.mixing`: iterative parameter mixing (McDonald, Hall & Mann, 2010): one round
  (:func:`~.mixing.mixing_round`) and one loop of rounds, run in one process
  (:func:`train_mixed`) and by every worker of :func:`train_distributed`.
- :mod:`.sharded_gluon`: Gluon SGD on ``dist_sync`` and its single-process twin.
- :mod:`.hostlist`: host files and hosts (addresses only), the remote-start template's rules.
- :mod:`.hosts`: one cluster over several hosts (``train_distributed(..., hosts=...)``,
  ``python -m gluon_perceptron.distributed --hosts HOSTFILE``): placement, the remote-start
  template (ssh by default), the watch; :mod:`.remote` is what runs on each host first (the
  traps, the versions, the heartbeat).

Importing this package imports neither MXNet nor the launcher's children: public names load on
first use.
"""

from .._lazy import export

__all__, __getattr__, __dir__ = export(__name__, {
    "launcher": ("DistributedError", "DistributedTimeout", "launch_cluster"),
    "mixing": ("mixing_round", "shard_bounds", "train_mixed"),
    "cluster_training": ("train_distributed",),
    "hostlist": ("read_hostfile",),
    "sharded_gluon": ("train_gluon_distributed", "train_gluon_sharded"),
})
