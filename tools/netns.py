"""Network namespaces for the multi-host tests and benchmark: ``Net(tag).build()``, ``.remove()``.

Three namespaces (``<tag>a``, ``<tag>b``, ``<tag>c``) joined by a bridge ``<tag>br``, each with
one veth pair, an address of a /24 of the benchmarking range 198.18.0.0/15 that no address or
route of this machine uses, its loopback up, and no route out (only the /24's own link route).
The bridge holds the /24's first address (``gateway``), so this namespace reaches them (ssh).
:meth:`Net.remove` kills what runs in these namespaces (they are ours), deletes them and the
bridge. Needs root and iproute2; ``tc netem`` delays each namespace's outgoing packets.
"""

from __future__ import annotations

import ipaddress
import os
import random
import signal
import subprocess

#: Into a namespace, through a shell that keeps the node's standard input but, like sshd, does
#: not hand the launcher's parent-death signal on (the node is the shell's child, not the
#: launcher's): when the launcher dies, only the heartbeat ends the node.
NETNS = ["ip", "netns", "exec", "{host}", "sh", "-c", 'exec 3<&0; "$@" <&3 3<&- & wait $!',
         "sh", "{argv}"]


def ip(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    """Run ``ip ARGS``; raise ``CalledProcessError`` (with its stderr) when ``check``."""
    return subprocess.run(["ip", *args], capture_output=True, text=True, check=check)


def free_subnet() -> ipaddress.IPv4Network | None:
    """A /24 of 198.18.0.0/15 that no address or route of this machine touches (or None)."""
    used = ip("-4", "addr").stdout + ip("-4", "route").stdout
    nets = list(ipaddress.ip_network("198.18.0.0/15").subnets(new_prefix=24))
    for net in random.Random(os.getpid()).sample(nets, 64):
        if f"{'.'.join(str(net.network_address).split('.')[:3])}." not in used:
            return net
    return None


class Net:
    """Three namespaces on a bridge: ``hosts`` are ``(name, address)`` pairs."""

    def __init__(self, tag: str, subnet: ipaddress.IPv4Network):
        self.tag, self.subnet = tag, subnet
        self.bridge = f"{tag}br"
        self.names = [f"{tag}{c}" for c in "abc"]
        base = subnet.network_address
        self.gateway = str(base + 1)
        self.hosts = [(name, str(base + 2 + i)) for i, name in enumerate(self.names)]

    def pids(self) -> dict[str, list[int]]:
        """Namespace -> the PIDs running in it."""
        return {ns: [int(p) for p in ip("netns", "pids", ns, check=False).stdout.split()]
                for ns in self.names}

    def build(self) -> None:
        ip("link", "add", self.bridge, "type", "bridge")
        ip("addr", "add", f"{self.gateway}/24", "dev", self.bridge)
        ip("link", "set", self.bridge, "up")
        for ns, (_, address) in zip(self.names, self.hosts):
            ip("netns", "add", ns)
            ip("link", "add", f"{ns}h", "type", "veth", "peer", "name", "eth0", "netns", ns)
            ip("link", "set", f"{ns}h", "master", self.bridge, "up")
            ip("-n", ns, "addr", "add", f"{address}/24", "dev", "eth0")
            ip("-n", ns, "link", "set", "eth0", "up")
            ip("-n", ns, "link", "set", "lo", "up")

    def delay(self, ms: float) -> None:
        """Delay every packet leaving each namespace by ``ms`` (tc netem; 0 removes it): a
        round trip between two namespaces then takes ``2 * ms`` more."""
        for ns in self.names:
            subprocess.run(["ip", "netns", "exec", ns, "tc", "qdisc", "del", "dev", "eth0",
                            "root"], capture_output=True)
            if ms:
                subprocess.run(["ip", "netns", "exec", ns, "tc", "qdisc", "add", "dev", "eth0",
                                "root", "netem", "delay", f"{ms}ms"], check=True,
                               capture_output=True)

    def remove(self) -> None:
        """Kill what runs in our namespaces (ours only), delete them and the bridge."""
        for pids in self.pids().values():
            for pid in pids:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        for ns in self.names:
            ip("netns", "del", ns, check=False)
        ip("link", "del", self.bridge, check=False)
