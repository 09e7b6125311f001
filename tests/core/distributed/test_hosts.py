"""Several hosts for real: network namespaces joined by a bridge, and Debian's OpenSSH server.

The module's fixture builds three network namespaces (a bridge and veth pairs, a /24 of the
benchmarking range 198.18.0.0/15 that no interface of this machine uses, no route out), and
deletes them, the bridge and every process left in them after the tests, passed or failed. The
scheduler and a server run in the first namespace, a worker in each of the others, started by
``python -m gluon_perceptron.distributed`` or ``train_distributed(hosts=...)`` through
``ip netns exec`` wrapped in a shell that, like sshd, does not pass the launcher's parent-death
signal on: only the heartbeat ends the nodes when the launcher is killed. Then the same through
ssh, for real: an sshd the test configures (its own host key, an authorized key it makes)
listens on the first namespace's address.

The traps (a host name for an address, an address of another host, a taken port, a failing
remote-start command, other versions, a node that never arrives or stops answering) run on
127.0.0.1 with a local remote-start command: they need no root.

Namespaces need root (as CI has); where they cannot be made, those tests skip and say why.
"""

import errno
import json
import os
import shlex
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import gluon_perceptron as gp
from gluon_perceptron.core.distributed import cluster_training, hostlist
from gluon_perceptron.core.distributed import hosts as hostmod
from gluon_perceptron.core.distributed.launcher import DistributedError, DistributedTimeout
from gluon_perceptron.core.distributed.mixing import shard_bounds
from gluon_perceptron.core.distributed.sharded_gluon import (
    train_gluon_distributed,
    train_gluon_sharded,
)

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "tools"))
from netns import NETNS, Net, free_subnet, ip  # noqa: E402  (tools/netns.py, shared with the bench)

#: A remote-start command on this machine: ``{host}`` only names the host in the environment.
LOCAL = ["env", "GLUON_PERCEPTRON_TEST_HOST={host}", "{argv}"]


def _data(kind: str, seed: int, n: int = 120, d: int = 5):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    if kind == "noisy":  # not separable: the rounds go on until max_epochs
        return X, np.where(X[:, 0] + 0.5 * rng.normal(size=n) > 0, 1.0, -1.0)
    u = rng.normal(size=d)
    Y = np.where(X @ u + 0.2 > 0, 1.0, -1.0)
    return X + 0.3 * Y[:, None] * u / np.linalg.norm(u), Y


def _shards(folder: Path, X, Y, W: int) -> list[tuple[str, str]]:
    pairs = []
    for i, (a, b) in enumerate(shard_bounds(len(X), W)):
        fx, fy = folder / f"x{i}.npy", folder / f"y{i}.npy"
        np.save(fx, X[a:b])
        np.save(fy, Y[a:b])
        pairs.append((str(fx), str(fy)))
    return pairs


def _same_run(d, m) -> None:
    assert d.w.tobytes() == m.w.tobytes() and np.float64(d.b) == np.float64(m.b)
    assert d.updates_per_epoch == m.updates_per_epoch and d.converged == m.converged
    assert d.shard_updates.tobytes() == m.shard_updates.tobytes()


# --------------------------------------------------------------------- without root: the traps

def test_hosts_are_parsed_and_placed_round_robin(tmp_path):
    hostfile = tmp_path / "hosts.txt"
    hostfile.write_text("# scheduler first\nns-a 198.18.0.2\n198.18.0.3  # a comment\n\n"
                        "ns-c 198.18.0.4\n")
    hosts = hostlist.read_hostfile(hostfile)
    assert [(h.name, h.address) for h in hosts] == [
        ("ns-a", "198.18.0.2"), ("198.18.0.3", "198.18.0.3"), ("ns-c", "198.18.0.4")]
    plan = [(role, h.name) for role, _, h in hostmod.place(hosts, servers=2, workers=3)]
    assert plan == [("scheduler", "ns-a"), ("server 0", "ns-a"), ("server 1", "198.18.0.3"),
                    ("worker 0", "ns-c"), ("worker 1", "ns-a"), ("worker 2", "198.18.0.3")]
    argv = ["env", "A=1 2", "python", "-m", "x"]
    ssh = hostmod.remote_command(hostlist.SSH, hosts[0], argv)
    assert ssh[:-1] == ["ssh", "-o", "BatchMode=yes", "-o", "ConnectTimeout=10", "ns-a"]
    assert shlex.split(ssh[-1]) == argv  # one shell command line, quoted
    assert hostmod.remote_command(NETNS, hosts[2], argv)[3] == "ns-c"
    assert hostmod.remote_command(NETNS, hosts[2], argv)[-5:] == argv
    env = hostmod.node_environment("worker", hosts[1], "198.18.0.2", 9000, 3, 2)
    assert env["DMLC_NODE_HOST"] == "198.18.0.3" and env["DMLC_PS_ROOT_URI"] == "198.18.0.2"
    assert {k for k in env if k.startswith("DMLC_")} == {
        "DMLC_ROLE", "DMLC_PS_ROOT_URI", "DMLC_PS_ROOT_PORT", "DMLC_NUM_SERVER",
        "DMLC_NUM_WORKER", "DMLC_NODE_HOST"}


def test_a_host_name_where_an_address_is_needed_is_refused_before_anything_starts(tmp_path):
    X, Y = _data("separable", 1)
    with pytest.raises(ValueError, match=r"'node1' is a host name where an address is needed.*"
                                         r"bind failed.*node1 ADDRESS"):
        gp.distributed.train_distributed(X, Y, hosts=["node1"], remote=LOCAL)
    (tmp_path / "hosts").write_text("198.18.0.2\nworker-2\n")
    with pytest.raises(ValueError, match=r"hosts', line 2: 'worker-2' is a host name"):
        hostlist.read_hostfile(tmp_path / "hosts")
    with pytest.raises(ValueError, match="never bind every interface"):
        gp.distributed.train_distributed(X, Y, hosts=["0.0.0.0"], remote=LOCAL)
    with pytest.raises(ValueError, match=r"needs '\{host\}' and exactly one of"):
        gp.distributed.train_distributed(X, Y, hosts=["127.0.0.1"], remote=["ssh", "{host}"])
    with pytest.raises(ValueError, match="port must be a TCP port"):
        gp.distributed.train_distributed(X, Y, hosts=["127.0.0.1"], port=70000)


def test_the_command_names_a_bad_host_file_in_one_line(tmp_path):
    (tmp_path / "hosts").write_text("198.18.0.2\nnode1\n")
    np.save(tmp_path / "x.npy", np.ones((2, 2)))
    np.save(tmp_path / "y.npy", np.array([1.0, -1.0]))
    done = subprocess.run([sys.executable, "-m", "gluon_perceptron.distributed", "--hosts",
                           str(tmp_path / "hosts"), "--shards", str(tmp_path / "x.npy"),
                           str(tmp_path / "y.npy")], capture_output=True, text=True, timeout=120)
    assert done.returncode == 1
    assert done.stderr.startswith("error: path ") and "line 2: 'node1' is a host name" in \
        done.stderr and "Traceback" not in done.stderr


def _fails(tmp_path, match, *, hosts=("127.0.0.1",), remote=LOCAL, error=DistributedError,
           **kwargs):
    X, Y = _data("separable", 2)
    with pytest.raises(error, match=match) as info:
        gp.distributed.train_distributed(X, Y, workers=2, max_epochs=5, hosts=list(hosts),
                                         remote=remote, log_dir=tmp_path / "logs",
                                         timeout=120.0, **{"round_timeout": 20.0, **kwargs})
    return info.value  # named, not the overall timeout's message (120 s)


def test_an_address_of_another_host_is_named_by_the_node_that_cannot_bind_it(tmp_path):
    # a bind only: nothing is sent to that address
    err = _fails(tmp_path, r"scheduler on 198\.18\.255\.254: 198\.18\.255\.254 is not an "
                           r"address of this host.*give this host's own address",
                 hosts=["198.18.255.254"])
    assert err.role == "scheduler"


def test_a_taken_scheduler_port_is_named(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        _fails(tmp_path, rf"scheduler on 127\.0\.0\.1: the scheduler's port {port} is taken on "
                         rf"127\.0\.0\.1.*pass another port", port=port)


def test_a_failing_remote_start_command_is_named_with_its_output(tmp_path):
    unreachable = ["sh", "-c", "echo 'ssh: connect to host {host} port 22: No route to host' "
                               ">&2; exit 255", "{argv}"]
    _fails(tmp_path, r"(?s)scheduler on 127\.0\.0\.1: the remote-start command .* exited with "
                     r"code 255 before the node started; 255 is ssh's own error.*"
                     r"No route to host", remote=unreachable)
    _fails(tmp_path, r"the remote-start command 'no-such-starter-gp30' cannot run here",
           remote=["no-such-starter-gp30", "{host}", "{argv}"])


def test_a_node_that_never_arrives_is_named_within_the_round_deadline(tmp_path):
    silent = ["sh", "-c", "exec sleep 60", "{host}", "{argv}"]
    _fails(tmp_path, r"scheduler on 127\.0\.0\.1 did not start within 3 s",
           remote=silent, error=DistributedTimeout, round_timeout=3.0)


def test_other_versions_on_a_host_are_named(tmp_path):
    fake = tmp_path / "old-host"  # its working directory shadows MXNet's installed metadata
    (fake / "mxnet-1.5.0.dist-info").mkdir(parents=True)
    (fake / "mxnet-1.5.0.dist-info" / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: mxnet\nVersion: 1.5.0\n")
    remote = ["sh", "-c", 'cd "$0" && exec "$@"', f"{tmp_path}/{{host}}", "{argv}"]
    _fails(tmp_path, r"scheduler on old-host \(127\.0\.0\.1\) runs other versions than this "
                     r"launcher: mxnet 1\.5\.0 \(here 1\.9\.1\); install the same versions",
           hosts=[("old-host", "127.0.0.1")], remote=remote)


def test_a_node_ends_at_the_end_of_its_heartbeat():
    """The node's side alone: it says hello with the scheduler's port, which no one else can
    bind from then on, then ends when its standard input closes."""
    env = {**os.environ, "DMLC_ROLE": "scheduler", "DMLC_NODE_HOST": "127.0.0.1",
           "DMLC_PS_ROOT_URI": "127.0.0.1", "DMLC_PS_ROOT_PORT": "0", "DMLC_NUM_WORKER": "1",
           "DMLC_NUM_SERVER": "1"}
    proc = subprocess.Popen([sys.executable, "-m", hostmod.REMOTE_MODULE, "node"], env=env,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL)
    try:
        hello = proc.stdout.readline().decode()
        assert hello.startswith("GPHELLO ") and '"mxnet": "1.9.1"' in hello
        port = int(json.loads(hello.split(" ", 1)[1])["port"])
        with socket.socket() as other, pytest.raises(OSError) as taken:
            other.bind(("127.0.0.1", port))  # before the scheduler binds it: held for it
        assert taken.value.errno == errno.EADDRINUSE
        assert proc.stdout.read(1) == b"\x00"  # its own heartbeat
        time.sleep(0.5)
        assert proc.poll() is None
        proc.stdin.close()
        assert proc.wait(5) == 1
    finally:
        proc.kill()
        proc.wait()


def test_a_stopped_worker_is_named_with_its_host(tmp_path):
    X, Y = _data("noisy", 3)
    # round-robin: server 0 on s, worker 0 on w, worker 1 on s; ranks are the scheduler's
    with pytest.raises(DistributedTimeout, match=r"worker \d on [sw] \(127\.0\.0\.1\) "
                                                 r"\(pid \d+, 2 rounds\) did not report"):
        cluster_training._train_distributed([(X, Y, 30, "uniform")], workers=2,
                                    hosts=[hostlist.Host("s", "127.0.0.1"),
                                           hostlist.Host("w", "127.0.0.1")],
                                    remote=LOCAL, round_timeout=4.0, timeout=120.0,
                                    fault={"rank": 1, "round": 2, "how": "sigstop"})


# ------------------------------------------------------------------ network namespaces (root)

@pytest.fixture(scope="module")
def net():
    if os.geteuid() != 0 or shutil.which("ip") is None:
        pytest.skip("network namespaces need root and iproute2's `ip` (CI runs as root)")
    subnet = free_subnet()
    if subnet is None:
        pytest.skip("no free /24 of 198.18.0.0/15 on this machine")
    made = Net(f"gp{os.getpid() % 100000}", subnet)
    try:
        made.build()
    except subprocess.CalledProcessError as exc:
        made.remove()
        pytest.skip(f"network namespaces cannot be made here: {exc.stderr.strip()}")
    made.hosts = [hostlist.Host(name, address) for name, address in made.hosts]
    try:
        routes = ip("-n", made.names[0], "route").stdout
        assert "default" not in routes  # no route out
        yield made
    finally:
        made.remove()
    assert not any(ns in ip("netns", "list").stdout for ns in made.names)


def _hostfile(path: Path, hosts) -> Path:
    path.write_text("".join(f"{h.name} {h.address}\n" for h in hosts))
    return path


def test_mixing_across_namespaces_is_train_mixed_bit_for_bit(net, tmp_path):
    X, Y = _data("separable", 4)
    pairs = _shards(tmp_path, X, Y, 2)
    d = gp.distributed.train_distributed(shards=pairs, hosts=net.hosts, remote=NETNS,
                                         max_epochs=50, log_dir=tmp_path / "logs",
                                         round_timeout=30.0, timeout=180.0)
    _same_run(d, gp.distributed.train_mixed(X, Y, shards=2, max_epochs=50))
    logs = tmp_path / "logs"
    # the scheduler and the server in the first namespace, a worker in each of the others
    # (each namespace has only its own address: a node that binds it runs there)
    for role, host in [("scheduler", 0), ("server-0", 0), ("worker-0", 1), ("worker-1", 2)]:
        text = (logs / f"{role}.log").read_text()
        assert f"bound {net.hosts[host].address} on this host" in text, (role, text)
    assert {d.ranks[0], d.ranks[1]} == {0, 1}
    assert not any(net.pids().values())


def test_gluon_dist_sync_across_namespaces_is_single_process_sgd(net):
    X, Y = _data("separable", 5)
    X, Y = X.astype(np.float32), Y.astype(np.float32)
    d = train_gluon_distributed(X, Y, workers=2, batch_size=4, max_epochs=2, learning_rate=0.5,
                                hosts=net.hosts, remote=NETNS, round_timeout=30.0,
                                timeout=180.0)
    ref = train_gluon_sharded(X, Y, shards=2, batch_size=4, max_epochs=2, learning_rate=0.5)
    np.testing.assert_allclose(d.w, ref.w, rtol=1e-5, atol=1e-6)
    assert d.b == pytest.approx(ref.b, rel=1e-5, abs=1e-6)
    assert d.updates_per_epoch == ref.updates_per_epoch


def _command(hostfile: Path, pairs, remote, logs: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "gluon_perceptron.distributed", "--hosts", str(hostfile),
            *(a for pair in pairs for a in ("--shards", *pair)), "--remote", shlex.join(remote),
            "--log-dir", str(logs), "--round-timeout", "30", *extra]


def _kill_launcher_in_rounds(command: list[str], logs: Path, net: Net, names,
                             keep: frozenset = frozenset()) -> float:
    """Start the command, SIGKILL it once both workers run their rounds; return the seconds
    until no process but those of ``keep`` is left in the namespaces ``names``."""

    def left() -> list[int]:
        found = net.pids()
        return [pid for ns in names for pid in found[ns] if pid not in keep]

    launcher = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                start_new_session=True)
    try:
        end = time.monotonic() + 120
        while time.monotonic() < end and launcher.poll() is None:
            worker_logs = [logs / f"worker-{i}.log" for i in range(2)]
            if all(p.exists() and "rank" in p.read_text(errors="replace") for p in worker_logs):
                break
            time.sleep(0.2)
        assert launcher.poll() is None, "the launcher ended before its rounds"
        time.sleep(1.0)  # in the rounds
        before = net.pids()
        assert all(set(before[ns]) - keep for ns in names), before
        launcher.kill()  # SIGKILL: no finally block of it runs
        t = time.monotonic()
        while time.monotonic() - t < 10 and left():
            time.sleep(0.1)
        return time.monotonic() - t
    finally:
        launcher.kill()
        launcher.wait()


def test_sigkill_of_the_command_leaves_no_process_in_any_namespace(net, tmp_path):
    X, Y = _data("noisy", 6)
    pairs = _shards(tmp_path, X, Y, 2)
    logs = tmp_path / "logs"
    command = _command(_hostfile(tmp_path / "hosts", net.hosts), pairs, NETNS, logs,
                       "--max-epochs", "1000000")
    seconds = _kill_launcher_in_rounds(command, logs, net, net.names)
    assert not any(net.pids().values()), net.pids()
    assert seconds < 10


# ------------------------------------------------------------------------------- ssh (root)

@pytest.fixture(scope="module")
def sshd(net, tmp_path_factory):
    """Debian's OpenSSH server in the first namespace, on its address, with a host key and an
    authorized key made here; yields the ssh template that reaches it."""
    if shutil.which("sshd") is None and not Path("/usr/sbin/sshd").exists():
        pytest.fail("the ssh test needs Debian's openssh-server (bash run.sh test installs it "
                    "as root: apt-get install openssh-server)")
    folder = tmp_path_factory.mktemp("sshd")
    for name in ("host", "client"):
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f",
                        str(folder / name)], check=True)
    (folder / "authorized_keys").write_text((folder / "client.pub").read_text())
    host = net.hosts[0]
    (folder / "sshd_config").write_text(
        f"ListenAddress {host.address}\nPort 22\nHostKey {folder / 'host'}\n"
        f"AuthorizedKeysFile {folder / 'authorized_keys'}\nPidFile none\nUsePAM no\n"
        f"PermitRootLogin prohibit-password\nPasswordAuthentication no\n"
        f"KbdInteractiveAuthentication no\nStrictModes no\nLogLevel ERROR\n")
    (folder / "ssh_config").write_text(
        f"Host *\n  User root\n  IdentityFile {folder / 'client'}\n  IdentitiesOnly yes\n"
        f"  BatchMode yes\n  StrictHostKeyChecking no\n  UserKnownHostsFile /dev/null\n"
        f"  ConnectTimeout 5\n  LogLevel ERROR\n")
    Path("/run/sshd").mkdir(exist_ok=True)  # sshd's privilege separation folder
    server = subprocess.Popen(["ip", "netns", "exec", host.name, "/usr/sbin/sshd", "-D", "-e",
                               "-f", str(folder / "sshd_config")],
                              stderr=open(folder / "sshd.log", "wb"))
    try:
        end = time.monotonic() + 20
        while True:
            try:
                socket.create_connection((host.address, 22), timeout=1).close()
                break
            except OSError:
                assert server.poll() is None and time.monotonic() < end, \
                    (folder / "sshd.log").read_text()
                time.sleep(0.1)
        yield ["ssh", "-F", str(folder / "ssh_config"), "{host}", "{command}"], server.pid
    finally:
        server.kill()
        server.wait()
        shutil.rmtree(folder, ignore_errors=True)


def test_ssh_for_real_and_sigkill_leaves_only_the_sshd(net, sshd, tmp_path):
    remote, sshd_pid = sshd
    ssh_host = [hostlist.Host(net.hosts[0].address, net.hosts[0].address)]
    X, Y = _data("separable", 7)
    pairs = _shards(tmp_path, X, Y, 2)
    out = tmp_path / "w.npz"
    hostfile = _hostfile(tmp_path / "hosts", ssh_host)
    done = subprocess.run(_command(hostfile, pairs, remote, tmp_path / "logs", "--max-epochs",
                                   "50", "--out", str(out)), capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    ref = gp.distributed.train_mixed(X, Y, shards=2, max_epochs=50)
    with np.load(out) as saved:
        assert saved["w"].tobytes() == ref.w.tobytes() and float(saved["b"]) == ref.b
    assert "2 workers on 1 hosts" in done.stdout

    X, Y = _data("noisy", 8)
    pairs = _shards(tmp_path, X, Y, 2)
    logs = tmp_path / "killed"
    seconds = _kill_launcher_in_rounds(
        _command(hostfile, pairs, remote, logs, "--max-epochs", "1000000"), logs, net,
        [net.names[0]], frozenset({sshd_pid}))
    left = [p for p in net.pids()[net.names[0]] if p != sshd_pid]
    assert not left and seconds < 10, left


def test_an_unreachable_host_through_ssh_is_named(net, sshd, tmp_path):
    remote, _ = sshd
    nobody = str(net.subnet.network_address + 250)  # on our bridge; no namespace has it
    X, Y = _data("separable", 9)
    with pytest.raises(DistributedError, match=rf"(?s)scheduler on {nobody}: the remote-start "
                                               rf"command .* exited with code 255 .*ssh's own "
                                               rf"error.*{nobody}"):
        gp.distributed.train_distributed(X, Y, hosts=[nobody], remote=remote, max_epochs=5,
                                         round_timeout=30.0, timeout=60.0)


# ------------------------------------------------------------- the model of what latency costs

def test_latency_model_breaks_even_where_it_says():
    X, Y = gp.experiments.hard_separable(600, 20, 0.1, seed=0)
    speed = gp.experiments.mixing_speedup(X, Y, workers=(2, 4), max_epochs=500)
    model = gp.experiments.mixing_latency(speed, exchange_seconds=0.002, workers=2,
                                          pass_seconds=(0.01, 1.0), max_round_trip=1.0)
    p1, r = model.passes_one, model.rounds
    assert (p1, r) == (speed.passes[0], speed.passes[speed.method.index("uniform W=2")])
    for P, gain, tau in zip(model.pass_seconds, model.speedup, model.break_even):
        assert np.all(np.diff(gain) < 0)  # every round trip costs
        assert np.isclose(gain[0], p1 * P / (r * (P / 2 + 0.002)))
        if np.isfinite(tau):  # at the break-even round trip, as fast as one machine
            at = p1 * P / (r * (P / 2 + 0.002 + 2.0 * tau))
            assert np.isclose(at, 1.0)
        else:
            assert gain[0] <= 1.0
    never = gp.experiments.mixing_latency(speed, exchange_seconds=60.0, workers=2)
    assert np.all(np.isnan(never.break_even)) and np.all(never.speedup < 1)
    with pytest.raises(ValueError, match="workers=8: the speed-up experiment has no"):
        gp.experiments.mixing_latency(speed, exchange_seconds=0.002, workers=8)
    ax = gp.plots.plot_mixing_latency(model)
    assert len(ax.lines) >= 3
