"""Browser-test plumbing: a server in a real subprocess on a free port, and headless Chromium.

Chromium comes from Debian (`apt-get install chromium`, done by .ci/run); Playwright drives it
at /usr/bin/chromium and never downloads a browser of its own.
"""
from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def until(check, timeout: float = 120, every: float = 0.3):
    """`check()`'s first truthy value, asked every `every` s; AssertionError after `timeout`.
    (Playwright's wait_for_function takes a synchronous predicate only: one that fetches
    returns a Promise, truthy at once, and the wait is no wait.)"""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if found := check():
            return found
        time.sleep(every)
    raise AssertionError(f"not within {timeout} s")


def wait_for(url: str, process: subprocess.Popen, timeout: float = 60) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            out = process.stdout.read() if process.stdout else ""
            raise RuntimeError(f"server exited with {process.returncode}: {out}")
        with contextlib.suppress(OSError), urllib.request.urlopen(url + "/api/state", timeout=2) as r:
            return json.loads(r.read())
        time.sleep(0.2)
    raise TimeoutError(f"{url} did not answer within {timeout} s")


@contextlib.contextmanager
def server(argv: list[str], port: int, env: dict | None = None) -> Iterator[tuple[str, subprocess.Popen]]:
    process = subprocess.Popen(
        [sys.executable, *argv], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        env={**os.environ, **(env or {})},
    )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_for(url, process)
        yield url, process
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
