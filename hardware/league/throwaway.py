"""A throw-away PostgreSQL server for tests and benchmarks: initdb and pg_ctl in a temporary
folder, listening on 127.0.0.1 only, trust authentication (nothing outside this machine can
reach it), stopped and deleted at the end.

PostgreSQL refuses to run as root: as root the server runs as `nobody` (through `runuser`),
its folder handed to that user.
"""
from __future__ import annotations

import contextlib
import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

USER = "league"


class NoPostgres(RuntimeError):
    """PostgreSQL cannot be started here; the message says why (tests skip with it)."""


def bin_dir() -> Path:
    """The newest installed PostgreSQL's programs (Debian: /usr/lib/postgresql/N/bin), else PATH."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    if initdb is None:
        raise NoPostgres("PostgreSQL is not installed (no initdb): apt-get install postgresql")
    return Path(initdb).parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Throwaway:
    """`with Throwaway() as pg: pg.url("league")` -- a fresh server and a URL to a new database."""

    def __init__(self, durable: bool = False) -> None:
        self.durable = durable  # fsync on, as a real server (benchmarks); tests need no durability
        self.bin = bin_dir()
        self.port = free_port()
        self.root = Path(tempfile.mkdtemp(prefix="zonkcam-pg-"))
        self.data = self.root / "data"
        self.as_root = os.geteuid() == 0
        self.started = False

    def _run(self, *argv: str, timeout: float = 60) -> subprocess.CompletedProcess:
        cmd = [str(self.bin / argv[0]), *argv[1:]]
        if self.as_root:
            cmd = ["runuser", "-u", "nobody", "--", *cmd]
        try:
            return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=True)
        except (OSError, subprocess.SubprocessError) as exc:
            detail = getattr(exc, "stderr", "") or str(exc)
            raise NoPostgres(f"{argv[0]} failed: {detail.strip()[-300:]}") from None

    def _options(self) -> str:
        # fsync off unless durable: a throw-away server (a real league keeps PostgreSQL's defaults)
        fast = "" if self.durable else " -c fsync=off -c full_page_writes=off"
        return (f"-c listen_addresses=127.0.0.1 -c port={self.port} -c unix_socket_directories={self.root}"
                f" -c max_connections=200{fast}")

    def start(self) -> Throwaway:
        if self.as_root:
            os.chmod(self.root, 0o755)
            shutil.chown(self.root, "nobody")
        self._run("initdb", "-D", str(self.data), "-U", USER, "--auth=trust", "-E", "UTF8",
                  "--no-sync", "-A", "trust")
        options = self._options()
        self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l", str(self.root / "log"), "-w", "start")
        self.started = True
        return self

    def stop(self, mode: str = "fast") -> None:
        """Stop the server, keeping its data (`start_again` brings it back on the same port)."""
        if self.started:
            self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")
            self.started = False

    def start_again(self) -> None:
        options = self._options()
        deadline = time.monotonic() + 30
        while True:  # the port may linger a moment after a stop
            try:
                self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l", str(self.root / "log"),
                          "-w", "start")
                break
            except NoPostgres:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.5)
        self.started = True

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str) -> str:
        self._run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", USER, name)
        return self.url(name)

    def close(self) -> None:
        with contextlib.suppress(NoPostgres):
            self.stop("immediate")
        shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> Throwaway:
        return self.start()

    def __exit__(self, *_: object) -> None:
        self.close()
