"""What the SQL adapters (SQLite, DuckDB, PostgreSQL) share: the graph in the table layout of
:mod:`gqlir.schema.relational` (loaded by :func:`gqlir.schema.loaders.load_sql`), SQL text of
another sqlglot flavour transpiled by sqlglot, and rows read through DB-API cursors.

Graph queries in other dialects are translated through the IR by the SQL emitter; until gqlir
has one, the emitter dispatch refuses them with an UnsupportedError, which is what ``run``
raises then.
"""

from __future__ import annotations

import abc
from typing import Any, ClassVar

from ..errors import EngineError
from .base import BaseEngine, Prepared, ResultTable, from_python, take

__all__ = ["SqlEngine"]


class SqlEngine(BaseEngine):
    flavour: ClassVar[str] = ""  # sqlglot dialect name

    def prepare(
        self, query: str, dialect: str | None = None, *, read_only: bool = False
    ) -> Prepared:
        """SQL of another flavour is transpiled by sqlglot; everything else as in BaseEngine."""
        from ..dialect import get_dialect
        from . import safety

        if dialect is not None:
            d = get_dialect(dialect)
            source = getattr(d, "sql_dialect", None)
            if d.family == "sql" and d.grammar == "sql" and source and source != self.flavour:
                import sqlglot
                from sqlglot.errors import SqlglotError

                try:
                    texts = sqlglot.transpile(query, read=source, write=self.flavour)
                except SqlglotError as exc:
                    raise EngineError(
                        f"{self.name}: cannot read the {d.name} text: {exc}",
                        code="ENGINE_TRANSLATE",
                    ) from None
                text = ";\n".join(texts)
                _, ordered, writes = safety.analyse(text, self.dialects[0])
                return Prepared(text, self.dialects[0], None, ordered, writes, d.name, True)
        return super().prepare(query, dialect, read_only=read_only)

    def _load(self, schema: Any, directory: str) -> dict[str, int]:
        from ..schema.loaders import load_sql

        try:
            return load_sql(self.connection(), schema, directory, self.flavour)
        except EngineError:
            raise
        except Exception as exc:
            raise self.error(exc) from None

    def check_read_only(self, prepared: Prepared) -> None:
        """The allow-list, with the tables and views of the database as what SQL may read."""
        from . import safety

        safety.check_read_only(prepared, self.name, self.table_names)

    # -- to be provided -----------------------------------------------------------------------

    @abc.abstractmethod
    def table_names(self) -> set[str]:
        """The tables and views of the database a query may read, in lower case (plain and,
        where the engine has schemas, schema-qualified)."""

    @abc.abstractmethod
    def connection(self) -> Any:
        """The open DB-API connection of this engine."""

    @abc.abstractmethod
    def error(self, exc: Exception) -> EngineError:
        """The driver's exception as an EngineError with this engine's name and code."""

    # -- shared reading ------------------------------------------------------------------------

    @staticmethod
    def fetch(cursor: Any, row_cap: int | None) -> tuple[list[str], list[tuple[Any, ...]], bool]:
        if cursor.description is None:
            return [], [], False
        columns = [str(d[0]) for d in cursor.description]

        def stream() -> Any:
            while True:
                chunk = cursor.fetchmany(256)
                if not chunk:
                    return
                yield from chunk

        rows, truncated = take(stream(), row_cap)
        return columns, [tuple(from_python(v) for v in row) for row in rows], truncated

    def table(self, cursor: Any, row_cap: int | None) -> ResultTable:
        columns, rows, truncated = self.fetch(cursor, row_cap)
        return ResultTable(columns, rows, truncated=truncated)
