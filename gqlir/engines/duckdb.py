"""DuckDB in process, its database in a file (a temporary one unless ``path`` is given).

* **read-only**: DuckDB fixes its access mode when a database is opened, so a read-only run
  reopens the file with ``read_only=True`` (a few milliseconds; measured) and DuckDB refuses
  every write ("attached in read-only mode"); the next writing run reopens it read-write;
* **timeout**: ``interrupt()`` from a timer thread (InterruptException); the connection stays
  usable;
* **values**: dates, instants (TIMESTAMPTZ, in the session's time zone), decimals and lists
  come back typed.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from typing import Any, ClassVar

from ..errors import EngineError
from ._sql import SqlEngine
from .base import Prepared, ResultTable, engine_error, timeout_error
from .timeouts import interrupt_after

__all__ = ["DuckDBEngine"]


class DuckDBEngine(SqlEngine):
    name: ClassVar[str] = "duckdb"
    dialects: ClassVar[tuple[str, ...]] = ("sql:duckdb",)
    flavour: ClassVar[str] = "duckdb"
    enforces_read_only: ClassVar[bool] = True

    def __init__(self, path: str | None = None) -> None:
        try:
            import duckdb
        except ImportError:
            raise EngineError(
                "DuckDB needs the duckdb package: pip install 'gqlir[engines]'",
                code="ENGINE_MISSING",
            ) from None
        self._duckdb = duckdb
        self._tmp = None
        if path is None:
            self._tmp = tempfile.mkdtemp(prefix="gqlir-duckdb-")
            path = os.path.join(self._tmp, "graph.duckdb")
        self.path = path
        self.read_only_mode = False
        self.conn = duckdb.connect(path)
        self.conn.execute("SET TimeZone = 'UTC'")

    def _mode(self, read_only: bool) -> None:
        if read_only == self.read_only_mode:
            return
        self.conn.close()
        self.conn = self._duckdb.connect(self.path, read_only=read_only)
        self.conn.execute("SET TimeZone = 'UTC'")
        self.read_only_mode = read_only

    def connection(self) -> Any:
        self._mode(False)
        return self.conn

    def table_names(self) -> set[str]:
        rows = self.conn.execute(
            "SELECT table_schema, table_name FROM information_schema.tables "
            "WHERE table_catalog = current_database()"
        ).fetchall()
        return {str(t).lower() for _, t in rows} | {f"{s}.{t}".lower() for s, t in rows}

    def close(self) -> None:
        if not self.closed:
            self.conn.close()
            if self._tmp is not None:
                shutil.rmtree(self._tmp, ignore_errors=True)
        super().close()

    def error(self, exc: Exception) -> EngineError:
        code = type(exc).__name__
        message = str(exc)
        kind = "READ_ONLY" if "read-only mode" in message else "ENGINE"
        return engine_error(self.name, message, code, code=kind)

    def _execute(
        self,
        prepared: Prepared,
        parameters: dict[str, Any],
        timeout: float | None,
        row_cap: int | None,
        read_only: bool,
    ) -> ResultTable:
        self._mode(read_only)
        conn = self.conn
        with interrupt_after(timeout, conn.interrupt) as deadline:
            try:
                conn.execute("BEGIN TRANSACTION")
                cur = conn.execute(prepared.text, parameters or None)
                table = self.table(cur, row_cap)
                conn.execute("ROLLBACK" if read_only else "COMMIT")
                return table
            except self._duckdb.Error as exc:
                # the statement's failure may already have ended the transaction
                with contextlib.suppress(self._duckdb.Error):
                    conn.execute("ROLLBACK")
                if deadline.fired or isinstance(exc, self._duckdb.InterruptException):
                    raise timeout_error(self.name, timeout or 0, type(exc).__name__) from None
                raise self.error(exc) from None
