"""An adapter hosted in a worker process, for engines that cannot stop a running query.

grafeo's ``execute`` takes no timeout and has no cancellation; a thread left running would burn
a core and hold the database. So the engine lives in a child process (a fresh interpreter,
``python -m gqlir.engines.worker``, never a ``fork``: a parent with a JVM or engine threads
cannot be forked safely, and multiprocessing's ``spawn`` would re-import the caller's main
script), talking over a socket pair; a query past its deadline
is ended by killing the child. A new child is started at once and brought back to the state the
old one had: the graph loads and every query that wrote and succeeded are replayed, in order
(queries that read nothing random or time-dependent replay exactly).

Messages are ``(method, args, kwargs)`` tuples; answers are ``("ok", value)`` or
``("error", data)`` with the error as plain data, rebuilt as the same gqlir error class.
"""

from __future__ import annotations

import importlib
import os
import socket
import subprocess
import sys
from multiprocessing.connection import Connection
from typing import Any

from ..errors import EngineError, GqlirError, UnsupportedError

__all__ = ["ProcessHost"]

# Time the parent waits beyond a query's timeout before it decides the child is stuck (the
# answer has to be pickled and sent back).
_GRACE = 0.5


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
    """One engine in a child process; :meth:`call` with a timeout, restart with replay."""

    def __init__(self, module: str, cls_name: str, kwargs: dict[str, Any] | None = None) -> None:
        self.module, self.cls_name, self.kwargs = module, cls_name, dict(kwargs or {})
        self.replay: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = []
        self._start()

    def _start(self) -> None:
        import gqlir

        ours, theirs = socket.socketpair()
        root = os.path.dirname(os.path.dirname(os.path.abspath(gqlir.__file__)))
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
        if timeout is not None and not self.conn.poll(timeout):
            raise TimeoutError
        try:
            status, value = self.conn.recv()
        except EOFError:
            raise EngineError(
                f"the {self.cls_name} worker process died (exit code {self.process.poll()})",
                code="ENGINE_CRASHED",
            ) from None
        if status == "error":
            raise _rebuild(value)
        return value

    def _kill(self) -> None:
        self.process.kill()
        self.process.wait(10)
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
        timeout: float | None = None,
        record: bool = False,
        **kw: Any,
    ) -> Any:
        """``engine.method(*args, **kw)`` in the child. Past ``timeout`` seconds the child is
        killed and restarted, and TimeoutError raised. ``record`` keeps the call for replay
        when it succeeds (loads, writes)."""
        if self.process.poll() is not None:
            self.restart()
        self.conn.send((method, args, kw))
        try:
            value = self._answer(None if timeout is None else timeout + _GRACE)
        except TimeoutError:
            self.restart()
            raise
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
        if self.process.poll() is None:
            self._kill()
        else:
            self._close_pipe()


def main(argv: list[str]) -> None:
    """The child's entry point: ``python -m gqlir.engines.worker FD``."""
    conn = Connection(int(argv[0]))
    module, cls_name, kwargs = conn.recv()
    _serve(conn, module, cls_name, kwargs)


if __name__ == "__main__":
    main(sys.argv[1:])
