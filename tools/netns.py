"""Network namespaces for the multi-host tests and benchmark: ``Net(tag).build()``, ``.remove()``.

Three namespaces (``<tag>a``, ``<tag>b``, ``<tag>c``) joined by a bridge ``<tag>br``, each with
one veth pair, an address of a /24 of the benchmarking range 198.18.0.0/15 that no address or
route of this machine uses, its loopback up, and no route out (only the /24's own link route).
The bridge holds the /24's first address (``gateway``), so this namespace reaches them (ssh).
:meth:`Net.remove` kills what runs in these namespaces (they are ours), deletes them and the
bridge. Needs root and iproute2; ``tc netem`` delays each namespace's outgoing packets.
"""

from __future__ import annotations

import heapq
import ipaddress
import os
import random
import select
import signal
import socket
import subprocess
import sys
import time

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

    hub: subprocess.Popen | None = None

    def delay(self, ms: float, mechanism: str = "netem") -> str:
        """Delay every packet leaving each namespace by ``ms`` (0: none): a round trip between
        two namespaces then takes ``2 * ms`` more. ``mechanism`` ``"netem"`` (tc netem on each
        namespace's eth0) falls back to ``"hub"`` where the kernel has no netem (a user-space
        hub, :func:`hub`, in place of the bridge); returns the one used."""
        self._stop_hub()
        for ns in self.names:
            subprocess.run(["ip", "netns", "exec", ns, "tc", "qdisc", "del", "dev", "eth0",
                            "root"], capture_output=True)
        if mechanism == "netem":
            try:
                for ns in self.names:
                    if ms:
                        subprocess.run(["ip", "netns", "exec", ns, "tc", "qdisc", "add", "dev",
                                        "eth0", "root", "netem", "delay", f"{ms}ms"],
                                       check=True, capture_output=True, text=True)
                return "netem"
            except subprocess.CalledProcessError as exc:
                if "unknown" not in exc.stderr:
                    raise
        ports = [f"{ns}h" for ns in self.names]
        for port in ports:
            ip("link", "set", port, "nomaster")
        for ns in self.names:  # whole frames with their checksums: the hub sends them as is
            subprocess.run(["ip", "netns", "exec", ns, sys.executable, __file__, "offloads-off",
                            "eth0"], check=True)
        for port in ports:
            offloads_off(port)
        from gluon_perceptron.core.distributed.lifeline import die_with_parent

        self.hub = subprocess.Popen([sys.executable, __file__, "hub", str(ms), *ports],
                                    preexec_fn=die_with_parent(os.getpid()))
        time.sleep(0.5)
        return "hub"

    def _stop_hub(self) -> None:
        if self.hub is not None:
            self.hub.kill()
            self.hub.wait()
            self.hub = None
            for ns in self.names:
                ip("link", "set", f"{ns}h", "master", self.bridge, check=False)

    def remove(self) -> None:
        """Kill what runs in our namespaces (ours only), delete them and the bridge."""
        self._stop_hub()
        for pids in self.pids().values():
            for pid in pids:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        for ns in self.names:
            ip("netns", "del", ns, check=False)
        ip("link", "del", self.bridge, check=False)


def offloads_off(iface: str) -> None:
    """Checksums computed and segments cut by the kernel, not left to the "hardware" (ethtool
    -K IFACE tx off sg off tso off gso off gro off, by its ioctl): a frame a raw socket reads
    is then one a raw socket may send."""
    import array
    import fcntl
    import struct

    for cmd in (0x17, 0x19, 0x1F, 0x24, 0x2C):  # ETHTOOL_S{TXCSUM,SG,TSO,GSO,GRO}
        value = array.array("I", [cmd, 0])
        request = struct.pack("16sP", iface.encode(), value.buffer_info()[0])
        with socket.socket() as s:
            try:
                fcntl.ioctl(s, 0x8946, request)  # SIOCETHTOOL
            except OSError:
                pass


def hub(ms: float, ports: list[str]) -> None:
    """A hub that delays: every frame received on one port goes out of the others ``ms``
    later (raw packet sockets; runs until killed). netem's job, where the kernel lacks it."""
    socks = []
    for port in ports:
        s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(0x0003))
        s.bind((port, 0))
        s.setblocking(False)
        socks.append(s)
    queue: list = []
    seq = 0
    while True:
        wait = max(0.0, queue[0][0] - time.monotonic()) if queue else 1.0
        ready, _, _ = select.select(socks, [], [], wait)
        now = time.monotonic()
        for s in ready:
            i = socks.index(s)
            while True:
                try:
                    frame, address = s.recvfrom(65536)
                except BlockingIOError:
                    break
                if address[2] == socket.PACKET_OUTGOING:
                    continue  # what this hub sent
                for j in range(len(socks)):
                    if j != i:
                        seq += 1
                        heapq.heappush(queue, (now + ms / 1e3, seq, j, frame))
        while queue and queue[0][0] <= time.monotonic():
            _, _, j, frame = heapq.heappop(queue)
            try:
                socks[j].send(frame)
            except OSError:
                pass


if __name__ == "__main__":
    if len(sys.argv) >= 4 and sys.argv[1] == "hub":
        hub(float(sys.argv[2]), sys.argv[3:])
    elif len(sys.argv) == 3 and sys.argv[1] == "offloads-off":
        offloads_off(sys.argv[2])
