"""Stopping runaway queries without killing the process.

Each engine gets the strongest mechanism it offers (measured; docs/engines.md):

* its own timeout, checked inside the engine: Kuzu ``set_query_timeout``, ArcadeDB's
  ``arcadedb.command.timeout``, PostgreSQL ``statement_timeout``, the Bolt transaction timeout
  (Neo4j), a gRPC deadline (Spanner);
* an interrupt called from a timer thread: DuckDB ``interrupt()``, SQLite's progress handler;
* for pure-Python work (the reference evaluator): an exception raised asynchronously in the
  thread that runs it (:func:`call_with_deadline`), which the interpreter delivers between
  bytecodes;
* for an engine with none of these (grafeo): a worker process that is killed and restarted
  (:mod:`gqlir.engines.worker`).
"""

from __future__ import annotations

import ctypes
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

T = TypeVar("T")

__all__ = ["Deadline", "DeadlineExceeded", "call_with_deadline", "interrupt_after"]


class DeadlineExceeded(BaseException):
    """Raised asynchronously in a thread whose deadline passed. A BaseException, so that the
    ``except Exception`` handlers of the code it interrupts do not swallow it."""


class Deadline:
    """Set by :func:`interrupt_after` when the timer fired (so the caller can tell an interrupt
    it asked for from an engine error)."""

    def __init__(self) -> None:
        self.fired = False


@contextmanager
def interrupt_after(seconds: float | None, interrupt: Callable[[], Any]) -> Iterator[Deadline]:
    """Call ``interrupt`` from a timer thread if the block is still running after ``seconds``."""
    deadline = Deadline()
    if seconds is None:
        yield deadline
        return

    def fire() -> None:
        deadline.fired = True
        interrupt()

    timer = threading.Timer(seconds, fire)
    timer.daemon = True
    timer.start()
    try:
        yield deadline
    finally:
        timer.cancel()


def _raise_in(thread: threading.Thread) -> None:
    ident = thread.ident
    if ident is None:
        return
    ctypes.pythonapi.PyThreadState_SetAsyncExc(
        ctypes.c_ulong(ident), ctypes.py_object(DeadlineExceeded)
    )


def _clear_pending() -> None:
    """Drop an exception raised in this thread that has not been delivered yet."""
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(threading.get_ident()), None)


_hook_lock = threading.Lock()
_hook_users = 0
_saved_hook: Any = None


def _ignore_deadlines(unraisable: Any) -> None:
    """The unraisable hook while a deadline may fire. The asynchronous exception can arrive
    while the worker runs a gc or weakref callback, where Python cannot raise it and reports it
    as ignored; that is expected (it is raised again 50 ms later), so only other reports pass
    on to the previous hook."""
    if isinstance(unraisable.exc_value, DeadlineExceeded):
        return
    (_saved_hook or sys.__unraisablehook__)(unraisable)


@contextmanager
def _quiet_deadlines() -> Iterator[None]:
    """Install :func:`_ignore_deadlines` for the block (shared by concurrent deadlines)."""
    global _hook_users, _saved_hook
    with _hook_lock:
        if _hook_users == 0:
            _saved_hook = sys.unraisablehook
            sys.unraisablehook = _ignore_deadlines
        _hook_users += 1
    try:
        yield
    finally:
        with _hook_lock:
            _hook_users -= 1
            if _hook_users == 0:
                if sys.unraisablehook is _ignore_deadlines:
                    sys.unraisablehook = _saved_hook
                _saved_hook = None


def call_with_deadline[T](fn: Callable[[], T], seconds: float | None) -> T:
    """``fn()`` in a worker thread; if it runs longer than ``seconds``, DeadlineExceeded is
    raised inside it (delivered at its next bytecode) and then here. For pure-Python work only:
    a thread blocked in C code receives the exception when it returns to Python."""
    if seconds is None:
        return fn()
    box: dict[str, Any] = {}
    # The exception may only be raised while fn runs: one raised as the worker finishes would
    # arrive after it (in its teardown, or a gc callback there) and be printed as ignored.
    lock = threading.Lock()
    running = [True]

    def target() -> None:
        try:
            try:
                box["value"] = fn()
            finally:
                with lock:
                    running[0] = False
                    _clear_pending()
        except BaseException as exc:  # handed to the caller, whatever it is
            box["error"] = exc

    worker = threading.Thread(target=target, name="gqlir-deadline", daemon=True)
    with _quiet_deadlines():
        worker.start()
        worker.join(seconds)
        while worker.is_alive():
            with lock:
                if running[0]:
                    _raise_in(worker)
            worker.join(0.05)
    if "error" in box:
        raise box["error"]
    return box["value"]
