"""Private servers the adapters start for themselves (ArcadeDB, FalkorDB, PostgreSQL): a free
port on 127.0.0.1, waiting until the server answers, and stopping it.

One place, so that every server started for a test or a run gets the same care: a server
that dies while starting is reported with its exit code and log, never waited on until the
deadline, and a server that ignores SIGTERM is killed."""

from __future__ import annotations

import socket
import subprocess
import time
from collections.abc import Callable

from ..errors import EngineError


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now (the kernel's choice)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def port_open(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


def wait_until_ready(
    name: str,
    ready: Callable[[], bool],
    seconds: float,
    *,
    process: subprocess.Popen[bytes] | None = None,
    log: Callable[[], str] = str,
    interval: float = 0.1,
) -> None:
    """Poll ``ready()`` until it holds; an ``EngineError`` (ENGINE_START) if ``process``
    exits first or ``seconds`` pass. ``log()`` says where to look (a path or the log's tail)."""
    deadline = time.monotonic() + seconds
    while True:
        if process is not None and process.poll() is not None:
            raise EngineError(
                f"{name} exited with code {process.returncode} while starting: {log()}",
                code="ENGINE_START",
            )
        if ready():
            return
        if time.monotonic() > deadline:
            raise EngineError(f"{name} did not start in {seconds:g} s", code="ENGINE_START")
        time.sleep(interval)


def terminate(process: subprocess.Popen[bytes], grace: float) -> None:
    """SIGTERM (the servers shut down cleanly on it), then SIGKILL after ``grace`` seconds."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(grace)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)
