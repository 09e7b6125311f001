"""The host list of a multi-host cluster: host files, hosts, the remote-start template's rules.

A host is ``"ADDRESS"`` or ``"NAME ADDRESS"`` (one line of a host file, ``#`` comments), or a
``(name, address)`` pair: ``NAME`` is what the remote-start command's ``{host}`` becomes,
``ADDRESS`` the IP address its nodes bind. Addresses only: ps-lite binds exactly what it is
given and resolves no names. This module imports only the standard library and the argument
rules; :mod:`.hosts` starts the cluster.
"""

from __future__ import annotations

import ipaddress
import os
from dataclasses import dataclass
from pathlib import Path

from .._validation import instance, items, such_that, unchecked, validate_params

#: The default remote-start command.
SSH = ("ssh", "-o", "BatchMode=yes", "-o", "ConnectTimeout=10", "{host}", "{command}")


@dataclass(frozen=True)
class Host:
    """One line of a host file: ``name`` for the remote-start command, ``address`` the address
    its nodes bind and the other hosts reach them at."""

    name: str
    address: str

    def __str__(self) -> str:
        return self.address if self.name == self.address else f"{self.name} ({self.address})"


def parse_host(entry, where: str = "hosts") -> Host:
    """``"ADDRESS"``, ``"NAME ADDRESS"`` or ``(name, address)`` as a :class:`Host`.

    The address must be an IP address: ps-lite binds exactly what it is given and resolves no
    name (a name as the scheduler's address ends in "bind failed", MXNet issues #12062, #9430).
    """
    if isinstance(entry, Host):
        return entry
    parts = entry.split() if isinstance(entry, str) else list(entry) if isinstance(
        entry, (tuple, list)) and all(isinstance(p, str) for p in entry) else []
    if len(parts) not in (1, 2) or not all(parts):
        raise ValueError(f"{where}: {entry!r:.80} is not 'ADDRESS', 'NAME ADDRESS' or (name, "
                         f"address), one host per entry")
    name, address = parts[0], parts[-1]
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        raise ValueError(f"{where}: {address!r} is a host name where an address is needed: "
                         f"ps-lite binds exactly the address it is given and resolves no names "
                         f"(the scheduler fails with 'bind failed'); write '{address} ADDRESS' "
                         f"with the address the other hosts reach it at") from None
    if ip.is_unspecified or ip.is_multicast:
        raise ValueError(f"{where}: {address} is not one host's address; give the host's own "
                         f"address on the private network (ps-lite has no authentication: "
                         f"never bind every interface)")
    return Host(name, str(ip))


@validate_params(path=instance((str, os.PathLike), "a host file's path"))
def read_hostfile(path) -> list[Host]:
    """The hosts of a host file: one ``ADDRESS`` or ``NAME ADDRESS`` per line, ``#`` comments.

    ``NAME`` is what the remote-start command's ``{host}`` becomes (an ssh host name, a
    namespace), ``ADDRESS`` the IP address the host's nodes bind (``DMLC_NODE_HOST``) and the
    others reach it at; ``ADDRESS`` alone is both. The scheduler runs on the first host; a host
    may appear more than once, and its nodes then take more of the round-robin's turns.

    Returns
    -------
    list of Host
        For ``train_distributed(..., hosts=...)``.

    Raises
    ------
    ValueError
        The file cannot be read, names no host, or a line is no host (a host name where an
        address is needed, say), named by its line.
    """
    path = Path(path)
    try:
        text = path.read_text()
    except (OSError, UnicodeDecodeError) as exc:
        why = getattr(exc, "strerror", None) or type(exc).__name__
        raise ValueError(f"path {str(path)!r} cannot be read as a host file ({why}); give a "
                         f"text file with one 'ADDRESS' or 'NAME ADDRESS' per line") from exc
    hosts = [parse_host(line.split("#")[0].strip(), f"path {str(path)!r}, line {i}")
             for i, line in enumerate(text.splitlines(), 1) if line.split("#")[0].strip()]
    if not hosts:
        raise ValueError(f"path {str(path)!r}: the host file names no host; write one "
                         f"'ADDRESS' or 'NAME ADDRESS' per line")
    return hosts


#: The rule of a ``hosts=`` argument (``optional``: None runs on this host): a non-empty list of
#: hosts, each parsed (:func:`parse_host`).
HOSTS = items(object, "hosts ('ADDRESS' or 'NAME ADDRESS' each; read a host file with "
                      "read_hostfile)", parse_host)


#: The default template :data:`SSH` as an error message shows it (braces doubled for format).
_SSH_SHOWN = repr(list(SSH)).replace("{", "{{").replace("}", "}}")

#: The rule of a ``remote=`` template (``optional``: None is ssh): strings with ``{host}`` and
#: one of ``{command}`` (inside an argument) or ``{argv}`` (an argument of its own).
REMOTE = such_that(
    items(str, f"strings such as {list(SSH)}"), lambda value, args: "{host}" in " ".join(value)
    and sum(part.count("{command}") for part in value) + value.count("{argv}") == 1,
    "{name} {value} needs '{{host}}' and exactly one of '{{command}}' (the node's command, "
    "quoted for a shell) or an argument '{{argv}}', e.g. " + _SSH_SHOWN)

#: The rule of ``port=`` (``optional``: None lets the scheduler pick a free port): a TCP port.
PORT = such_that(unchecked, lambda port, args: type(port) is int and 1 <= port <= 65535,
                 "{name} must be a TCP port 1 .. 65535 (or None: the scheduler picks a free one), "
                 "got {value!r:.40}")
