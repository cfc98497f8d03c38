"""SQLite (the standard library's ``sqlite3``), in memory or in a file.

* **read-only**: ``PRAGMA query_only`` for the run (SQLite refuses every write with
  SQLITE_READONLY), inside a transaction that is rolled back;
* **timeout**: a progress handler that aborts the statement after the deadline
  (SQLITE_INTERRUPT); the connection stays usable;
* **values**: SQLite has no date, list or boolean types: dates and instants come back as the ISO
  text the loader stored, lists as JSON text, booleans as 0/1 (docs/engines.md, quirks).
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Mapping
from typing import Any, ClassVar

from ..errors import EngineError
from ..probes import Difference
from ._sql import SqlEngine
from .base import Prepared, ResultTable, engine_error, timeout_error

__all__ = ["SQLiteEngine"]


def _unnamed(word: str) -> Difference:
    return Difference(
        False,
        f'SQLite (3.40) names a subquery column written AS "{word}" column1, so the outer '
        f'"u"."{word}" is "no such column" (SELECT * FROM (SELECT 1 AS "{word}") shows '
        "column1): a variable of that name fails on SQLite instead of answering",
    )


#: where SQLite departs from SQL, as the probes show (gqlir.probes)
DIFFERENCES = {f"reserved word {w}": _unnamed(w.lower()) for w in ("TRUE", "FALSE")} | {
    f"read: function {canonical} = {name}": Difference(
        False,
        f"SQLite has no {name} aggregate (https://www.sqlite.org/lang_aggfunc.html), and sqlglot "
        "writes the standard name unchanged: SQL text calling it does not run on SQLite",
    )
    for canonical, name in (
        ("collect", "ARRAY_AGG"),
        ("stdev", "STDDEV_SAMP"),
        ("stdevp", "STDDEV_POP"),
        ("percentilecont", "PERCENTILE_CONT"),
        ("percentiledisc", "PERCENTILE_DISC"),
    )
}


class SQLiteEngine(SqlEngine):
    name: ClassVar[str] = "sqlite"
    dialects: ClassVar[tuple[str, ...]] = ("sql:sqlite",)
    flavour: ClassVar[str] = "sqlite"
    enforces_read_only: ClassVar[bool] = True
    fact_differences: ClassVar[Mapping[str, Mapping[str, Any]]] = {"sql:sqlite": DIFFERENCES}

    def __init__(self, path: str = ":memory:") -> None:
        self.conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self.conn.execute("PRAGMA foreign_keys = ON")

    def connection(self) -> Any:
        return _Loading(self.conn)

    def _load(self, schema: Any, directory: str) -> dict[str, int]:
        try:
            return super()._load(schema, directory)
        finally:
            if self.conn.in_transaction:  # a load that failed half-way leaves nothing behind
                self.conn.execute("ROLLBACK")

    def close(self) -> None:
        if not self.closed:
            self.conn.close()
        super().close()

    def table_names(self) -> set[str]:
        rows = self.conn.execute(
            "SELECT name FROM sqlite_schema WHERE type IN ('table', 'view')"
        ).fetchall()
        return {str(r[0]).lower() for r in rows} | {f"main.{str(r[0]).lower()}" for r in rows}

    def error(self, exc: Exception) -> EngineError:
        code = getattr(exc, "sqlite_errorname", None) or type(exc).__name__
        kind = "READ_ONLY" if code == "SQLITE_READONLY" else "ENGINE"
        return engine_error(self.name, str(exc), code, code=kind)

    def _execute(
        self,
        prepared: Prepared,
        parameters: dict[str, Any],
        timeout: float | None,
        row_cap: int | None,
        read_only: bool,
    ) -> ResultTable:
        conn = self.conn
        fired = False
        if timeout is not None:
            deadline = time.monotonic() + timeout

            def progress() -> int:
                nonlocal fired
                if time.monotonic() > deadline:
                    fired = True
                    return 1
                return 0

            conn.set_progress_handler(progress, 2000)
        conn.execute("BEGIN")
        try:
            if read_only:
                conn.execute("PRAGMA query_only = ON")
            cur = conn.execute(prepared.text, parameters)
            table = self.table(cur, row_cap)
            conn.execute("ROLLBACK" if read_only else "COMMIT")
            return table
        except sqlite3.Error as exc:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            if fired:
                raise timeout_error(self.name, timeout or 0, "SQLITE_INTERRUPT") from None
            raise self.error(exc) from None
        finally:
            if read_only:
                conn.execute("PRAGMA query_only = OFF")
            if timeout is not None:
                conn.set_progress_handler(None, 0)


class _Loading:
    """The connection as :func:`gqlir.schema.loaders.load_sql` uses it (cursor and commit)
    while the adapter runs in autocommit mode and manages its own transactions."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        conn.execute("BEGIN")

    def cursor(self) -> sqlite3.Cursor:
        return self.conn.cursor()

    def commit(self) -> None:
        self.conn.execute("COMMIT")
