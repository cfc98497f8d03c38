"""An engine hosted in a worker process that the parent can kill and replace.

Some engines cannot stop a running query (grafeo has no timeout or cancellation; the reference
evaluator cannot be interrupted inside one long C call), some allocate without bound, and some
crash the process on some inputs (Kuzu segfaults). So the engine lives in a child process (a
fresh interpreter,
``python -m gqlir.engines.worker``, never a ``fork``: a parent with a JVM or engine threads
cannot be forked safely, and multiprocessing's ``spawn`` would re-import the caller's main
script), talking over a socket pair. While a call runs, the parent watches the child: past the
call's deadline it kills it (``TimeoutError``), past the memory budget (resident memory, read
from ``/proc``) it kills it (EngineError ``MEMORY_EXCEEDED``), and a child that dies is
reported as EngineError ``ENGINE_CRASHED``. A new child is then started and brought back to the
state the old one had: the graph loads and every query that wrote and succeeded are replayed,
in order (queries that read nothing random or time-dependent replay exactly).

Messages are ``(method, args, kwargs)`` tuples; answers are ``("ok", value)`` or
``("error", data)`` with the error as plain data, rebuilt as the same gqlir error class.
"""

from __future__ import annotations

import importlib
import os
import socket
import subprocess
import sys
import time
from multiprocessing.connection import Connection
from typing import Any

from ..errors import EngineError, GqlirError, UnsupportedError

__all__ = ["ProcessHost"]

# How often the parent looks at a busy child's memory (seconds).
_WATCH_INTERVAL = 0.02
_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def resident_bytes(pid: int) -> int | None:
    """The resident memory of process ``pid``, or None where ``/proc`` does not tell it."""
    try:
        with open(f"/proc/{pid}/statm", encoding="ascii") as fh:
            return int(fh.read().split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        return None


def _error_data(exc: BaseException) -> dict[str, Any]:
    if isinstance(exc, UnsupportedError):
        return {
            "class": "UnsupportedError",
            "construct": exc.construct,
            "dialect": exc.dialect,
            "message": exc.message,
            "text": exc.text,
            "offset": exc.offset,
        }
    if isinstance(exc, GqlirError):
        return {
            "class": type(exc).__name__,
            "message": exc.message,
            "code": exc.code,
            "engine_code": getattr(exc, "engine_code", None),
            "text": exc.text,
            "offset": exc.offset,
        }
    return {"class": "EngineError", "message": f"{type(exc).__name__}: {exc}", "code": "ENGINE"}


def _rebuild(data: dict[str, Any]) -> GqlirError:
    from .. import errors

    if data["class"] == "UnsupportedError":
        exc = UnsupportedError(
            data["construct"], data["dialect"], text=data["text"], offset=data["offset"]
        )
        exc.message = data["message"]
        exc.args = (data["message"],)
        return exc
    cls = getattr(errors, data["class"], EngineError)
    if cls is EngineError:
        return EngineError(
            data["message"],
            code=data.get("code"),
            engine_code=data.get("engine_code"),
            text=data.get("text"),
            offset=data.get("offset"),
        )
    return cls(
        data["message"], code=data.get("code"), text=data.get("text"), offset=data.get("offset")
    )


def _serve(conn: Any, module: str, cls_name: str, kwargs: dict[str, Any]) -> None:
    """The child: build the engine, then answer calls until told to stop."""
    try:
        engine = getattr(importlib.import_module(module), cls_name)(**kwargs)
    except BaseException as exc:
        conn.send(("error", _error_data(exc)))
        return
    conn.send(("ok", None))
    while True:
        try:
            method, args, kw = conn.recv()
        except EOFError:
            return
        if method == "stop":
            engine.close()
            conn.send(("ok", None))
            return
        try:
            conn.send(("ok", getattr(engine, method)(*args, **kw)))
        except BaseException as exc:
            conn.send(("error", _error_data(exc)))


class ProcessHost:
    """One engine in a child process; :meth:`call` with a deadline and a memory budget
    (``max_memory`` bytes of resident memory, None: unbounded), restart with replay."""

    def __init__(
        self,
        module: str,
        cls_name: str,
        kwargs: dict[str, Any] | None = None,
        *,
        max_memory: int | None = None,
        label: str | None = None,
    ) -> None:
        self.module, self.cls_name, self.kwargs = module, cls_name, dict(kwargs or {})
        self.max_memory = max_memory
        self.label = label or cls_name  # the name errors give the engine
        self.replay: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = []
        self._start()

    def _start(self) -> None:
        ours, theirs = socket.socketpair()
        # the directory that holds the gqlir package (this file is gqlir/engines/worker.py)
        root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join([root, *filter(None, [env.get("PYTHONPATH")])])
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gqlir.engines.worker", str(theirs.fileno())],
            pass_fds=(theirs.fileno(),),
            env=env,
            stdin=subprocess.DEVNULL,
        )
        theirs.close()
        self._socket = ours
        self.conn = Connection(os.dup(ours.fileno()))
        self.conn.send((self.module, self.cls_name, self.kwargs))
        self._answer(None)

    def _answer(self, timeout: float | None) -> Any:
        """The child's answer to the call in flight; the child is killed when ``timeout``
        passes (TimeoutError) or its memory goes over budget (``MEMORY_EXCEEDED``)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while not self.conn.poll(_WATCH_INTERVAL):
            if deadline is not None and time.monotonic() > deadline:
                self._kill()
                raise TimeoutError
            used = resident_bytes(self.process.pid) if self.max_memory else None
            if used is not None and self.max_memory and used > self.max_memory:
                self._kill()
                raise EngineError(
                    f"{self.label}: the query was stopped when its worker process went over "
                    f"the memory budget of {self.max_memory // 2**20} MiB",
                    code="MEMORY_EXCEEDED",
                    engine_code="worker killed",
                )
            if self.process.poll() is not None and not self.conn.poll(0):
                break
        try:
            status, value = self.conn.recv()
        except (EOFError, OSError):
            self._kill()
            raise EngineError(
                f"{self.label}: the engine crashed (its worker process ended with "
                f"{_exit_text(self.process.returncode)}); a new worker replaces it",
                code="ENGINE_CRASHED",
                engine_code=str(self.process.returncode),
            ) from None
        if status == "error":
            raise _rebuild(value)
        return value

    def _kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(10)
        if not self.conn.closed:
            self._close_pipe()

    def _close_pipe(self) -> None:
        self.conn.close()
        self._socket.close()

    def restart(self) -> None:
        """A fresh child in the state of the old one (loads and writes replayed)."""
        self._kill()
        self._start()
        for method, args, kw in self.replay:
            self.conn.send((method, args, kw))
            self._answer(None)

    def call(
        self,
        method: str,
        *args: Any,
        deadline: float | None = None,
        record: bool = False,
        **kw: Any,
    ) -> Any:
        """``engine.method(*args, **kw)`` in the child. Past ``deadline`` seconds the child is
        killed and TimeoutError raised; over the memory budget or dead, EngineError
        ``MEMORY_EXCEEDED`` or ``ENGINE_CRASHED``. The next call starts a new child first.
        ``record`` keeps the call for replay when it succeeds (loads, writes)."""
        if self.conn.closed or self.process.poll() is not None:
            self.restart()
        self.conn.send((method, args, kw))
        value = self._answer(deadline)
        if record:
            self.replay.append((method, args, kw))
        return value

    def close(self) -> None:
        if self.process.poll() is None:
            try:
                self.conn.send(("stop", (), {}))
                self._answer(10)
                self.process.wait(10)
            except (TimeoutError, OSError, EngineError, subprocess.TimeoutExpired):
                pass
        self._kill()


def _exit_text(code: int | None) -> str:
    if code is not None and code < 0:
        import signal

        try:
            return f"signal {signal.Signals(-code).name}"
        except ValueError:
            return f"signal {-code}"
    return f"exit code {code}"


def main(argv: list[str]) -> None:
    """The child's entry point: ``python -m gqlir.engines.worker FD``."""
    conn = Connection(int(argv[0]))
    module, cls_name, kwargs = conn.recv()
    _serve(conn, module, cls_name, kwargs)


if __name__ == "__main__":
    main(sys.argv[1:])
