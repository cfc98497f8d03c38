"""Kuzu in process: its own Cypher dialect (``kuzu``), schema first.

* **load**: node and rel tables from the SchemaGraph, then the data
  (:func:`gqlir.schema.loaders.load_kuzu`);
* **read-only**: ``BEGIN TRANSACTION READ ONLY`` ("Can not execute a write query inside a
  read-only transaction"), then ROLLBACK;
* **timeout**: ``Connection.set_query_timeout``: Kuzu interrupts the query ("Interrupted.")
  and the connection stays usable;
* **values**: nodes carry every column of their table (absent properties as null, dropped
  here), lists are 1-based in the dialect (the translation takes care of it), recursive
  relationships come back as paths;
* **UNION guard**: Kuzu 0.11 mishandles a UNION whose branches do not repeat the same
  expressions in the same columns: it kills the process (SIGSEGV) when a later branch returns
  one expression in two columns, and gives the first branch's repeat to the later branches
  otherwise; such a query is refused with engine code ``KUZU_UNION_REPEAT``.
"""

from __future__ import annotations

import contextlib
import shutil
import tempfile
from collections.abc import Mapping
from typing import Any, ClassVar

from ..errors import EngineError
from .base import (
    BaseEngine,
    EdgeValue,
    NodeValue,
    PathValue,
    Prepared,
    ResultTable,
    engine_error,
    from_python,
    take,
    timeout_error,
)

__all__ = ["KuzuEngine"]


def _id(v: Any) -> str:
    if isinstance(v, Mapping):
        return f"{v.get('table')}:{v.get('offset')}"
    return str(v)


def _props(d: Mapping[str, Any]) -> dict[str, Any]:
    return {k: _value(x) for k, x in d.items() if not k.startswith("_") and x is not None}


def _value(v: Any) -> Any:
    if isinstance(v, Mapping):
        if "_nodes" in v and "_rels" in v:
            return PathValue(
                tuple(_value(n) for n in v["_nodes"]), tuple(_value(r) for r in v["_rels"])
            )
        if "_src" in v and "_dst" in v and "_label" in v:
            return EdgeValue(
                _id(v.get("_id")), str(v["_label"]), _id(v["_src"]), _id(v["_dst"]), _props(v)
            )
        if "_id" in v and "_label" in v:
            return NodeValue(_id(v["_id"]), (str(v["_label"]),), _props(v))
        return {str(k): _value(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_value(x) for x in v]
    return from_python(v)


def _repeated_columns(query: Any) -> set[tuple[int, int]]:
    """The column pairs (i, j) of a linear query's final projection holding the same
    expression."""
    from .. import ir

    steps = getattr(query, "steps", ())
    last = steps[-1] if steps else None
    if not isinstance(last, ir.Projection):
        return set()
    exprs = [item.expr for item in last.items]
    return {
        (i, j) for i in range(len(exprs)) for j in range(i + 1, len(exprs)) if exprs[i] == exprs[j]
    }


def breaks_kuzu_union(statement: Any) -> bool:
    """Whether Kuzu 0.11 would crash or answer wrongly: UNION branches that repeat an
    expression in two columns where another branch does not."""
    from .. import ir

    branches: list[Any] = []

    def walk(q: Any) -> None:
        if isinstance(q, ir.SetOperation):
            walk(q.left)
            walk(q.right)
        else:
            branches.append(q)

    if isinstance(statement, ir.Program):
        statement = next((s for s in statement.statements if isinstance(s, ir.Query)), None)
    walk(statement)
    if len(branches) < 2:
        return False
    first = _repeated_columns(branches[0])
    return any(_repeated_columns(b) != first for b in branches[1:])


def _code(exc: Exception) -> str:
    head = str(exc).split(":", 1)[0].strip()
    return head if head.lower().endswith("exception") else type(exc).__name__


class KuzuEngine(BaseEngine):
    name: ClassVar[str] = "kuzu"
    dialects: ClassVar[tuple[str, ...]] = ("kuzu",)
    enforces_read_only: ClassVar[bool] = True

    def __init__(self, path: str | None = None) -> None:
        try:
            import kuzu
        except ImportError:
            raise EngineError(
                "Kuzu needs the kuzu package: pip install 'gqlir[engines]'",
                code="ENGINE_MISSING",
            ) from None
        self._tmp = None
        if path is None:
            self._tmp = tempfile.mkdtemp(prefix="gqlir-kuzu-")
            path = f"{self._tmp}/graph.kuzu"
        self.db = kuzu.Database(path)
        self.conn = kuzu.Connection(self.db)

    def close(self) -> None:
        if not self.closed:
            self.conn.close()
            self.db.close()
            if self._tmp is not None:
                shutil.rmtree(self._tmp, ignore_errors=True)
        super().close()

    def _load(self, schema: Any, directory: str) -> dict[str, int]:
        from ..schema.loaders import load_kuzu

        try:
            return load_kuzu(self.conn, schema, directory)
        except RuntimeError as exc:
            raise engine_error(self.name, str(exc), _code(exc)) from None

    def _execute(
        self,
        prepared: Prepared,
        parameters: dict[str, Any],
        timeout: float | None,
        row_cap: int | None,
        read_only: bool,
    ) -> ResultTable:
        if prepared.statement is not None and breaks_kuzu_union(prepared.statement):
            raise engine_error(
                self.name,
                "refused: Kuzu 0.11 crashes or answers wrongly on a UNION whose branches repeat "
                "an expression in different columns (docs/engines.md, quirks)",
                "KUZU_UNION_REPEAT",
            )
        conn = self.conn
        conn.set_query_timeout(int(timeout * 1000) if timeout else 0)
        began = False
        try:
            conn.execute("BEGIN TRANSACTION READ ONLY" if read_only else "BEGIN TRANSACTION")
            began = True
            result = (
                conn.execute(prepared.text, parameters)
                if parameters
                else conn.execute(prepared.text)
            )
            if isinstance(result, list):  # several statements: the last one answers
                result = result[-1]
            columns = [str(c) for c in result.get_column_names()]

            def stream() -> Any:
                while result.has_next():
                    yield result.get_next()

            rows, truncated = take(stream(), row_cap)
            conn.execute("ROLLBACK" if read_only else "COMMIT")
            began = False
            return ResultTable(
                columns, [tuple(_value(v) for v in row) for row in rows], truncated=truncated
            )
        except RuntimeError as exc:
            message = str(exc)
            if began:  # the failure may already have ended the transaction
                with contextlib.suppress(RuntimeError):
                    conn.execute("ROLLBACK")
            if message.strip().rstrip(".") == "Interrupted":
                raise timeout_error(self.name, timeout or 0, "Interrupted") from None
            code = "READ_ONLY" if "read-only transaction" in message else "ENGINE"
            raise engine_error(self.name, message, _code(exc), code=code) from None
        finally:
            conn.set_query_timeout(0)
