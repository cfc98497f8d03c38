"""The private-server helpers every server adapter uses (gqlir/engines/servers.py)."""

from __future__ import annotations

import socket
import subprocess
import sys

import pytest

from gqlir.engines.servers import free_port, port_open, terminate, wait_until_ready
from gqlir.errors import EngineError


def test_a_server_that_dies_while_starting_is_reported_with_its_code() -> None:
    process = subprocess.Popen([sys.executable, "-c", "raise SystemExit(3)"])
    with pytest.raises(EngineError, match=r"exited with code 3 while starting: see x\.log") as err:
        wait_until_ready("X", lambda: False, 60, process=process, log=lambda: "see x.log")
    assert err.value.code == "ENGINE_START"


def test_a_server_that_never_answers_fails_at_the_deadline() -> None:
    with pytest.raises(EngineError, match=r"did not start in 0\.3 s"):
        wait_until_ready("X", lambda: False, 0.3, interval=0.05)


def test_ready_when_the_port_answers() -> None:
    port = free_port()
    assert not port_open(port)
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", port))
        listener.listen()
        wait_until_ready("X", lambda: port_open(port), 5)


def test_terminate_kills_a_process_that_ignores_sigterm() -> None:
    script = "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); print(1, flush=True); time.sleep(60)"
    process = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE)
    assert process.stdout is not None and process.stdout.readline()  # the handler is set
    terminate(process, 0.5)
    assert process.returncode == -9
