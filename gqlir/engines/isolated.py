"""Any engine in a worker process, so that a timeout, a memory budget and a crash cannot take
the caller down with the query.

An engine's own timeout (Kuzu's, DuckDB's interrupt, the reference evaluator's asynchronous
exception …) stops most queries and keeps the engine warm; it cannot stop a query stuck in one
long native call, nor bound memory, nor survive a segfault. :class:`IsolatedEngine` runs the
whole ``run`` (translation included) in a :class:`~gqlir.engines.worker.ProcessHost`: the
engine's own timeout first, then the host kills the worker a grace period later; the host also
kills it over the memory budget, and reports a worker that died. Each of these is an
EngineError with a stable code (``TIMEOUT``, ``MEMORY_EXCEEDED``, ``ENGINE_CRASHED``) and the
next query runs on a fresh worker with the graph loaded again.
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib import import_module
from typing import Any

from .base import BaseEngine, ResultTable, check_arguments, timeout_error
from .worker import ProcessHost

__all__ = ["IsolatedEngine"]


def grace(timeout: float) -> float:
    """How long the host waits past a query's timeout for the engine's own stop (and the
    answer's trip back) before it kills the worker."""
    return 1.0 + timeout / 4


class IsolatedEngine:
    """The engine ``module.cls_name(**kwargs)`` in a worker process (the Engine interface).
    ``max_memory``: the worker's resident memory budget in bytes (None: unbounded)."""

    def __init__(
        self,
        module: str,
        cls_name: str,
        kwargs: dict[str, Any] | None = None,
        *,
        max_memory: int | None = None,
    ) -> None:
        cls = getattr(import_module(module), cls_name)
        self.name: str = cls.name
        self.dialects: tuple[str, ...] = cls.dialects
        self.enforces_read_only: bool = cls.enforces_read_only
        # an engine that cannot stop a query itself gets no timeout: the kill is its timeout
        self._own_timeout: bool = cls.stops_queries
        # the hosted engine's recorded departures from its dialects (gqlir.probes)
        self.fact_differences: Mapping[str, Mapping[str, Any]] = cls.fact_differences
        self.schema: Any = None
        self.closed = False
        self.host = ProcessHost(module, cls_name, kwargs, max_memory=max_memory, label=cls.name)

    __enter__ = BaseEngine.__enter__
    __exit__ = BaseEngine.__exit__
    native_dialect = BaseEngine.native_dialect
    load = BaseEngine.load
    _check_open = BaseEngine._check_open

    def _load(self, schema: Any, directory: str) -> dict[str, int]:
        return self.host.call("load", schema, directory, record=True)

    def run(
        self,
        query: str,
        *,
        dialect: str | None = None,
        parameters: Mapping[str, Any] | None = None,
        timeout: float | None = None,
        row_cap: int | None = None,
        read_only: bool = False,
    ) -> ResultTable:
        """As :meth:`BaseEngine.run`, in the worker. A query that may write (outside read-only
        runs, where gqlir cannot show it does not) is kept for replay."""
        self._check_open()
        check_arguments(timeout, row_cap)
        kw = dict(
            dialect=dialect,
            parameters=dict(parameters or {}),
            timeout=timeout if self._own_timeout else None,
            row_cap=row_cap,
            read_only=read_only,
        )
        limit = None if timeout is None else timeout + grace(timeout)
        try:
            record = not read_only and self._may_write(query, dialect)
            return self.host.call("run", query, deadline=limit, record=record, **kw)
        except TimeoutError:
            raise timeout_error(self.name, timeout or 0, "worker killed") from None

    def _may_write(self, query: str, dialect: str | None) -> bool:
        from .safety import analyse

        return analyse(query, dialect or self.dialects[0])[2] != ()

    def close(self) -> None:
        if not self.closed:
            self.host.close()
        self.closed = True
