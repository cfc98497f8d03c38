"""grafeo: an embedded graph database that runs ISO GQL, Cypher and SQL/PGQ (``GRAPH_TABLE``).

* **dialects**: ``iso-gql`` (``execute``), ``neo4j`` / ``opencypher9`` (``execute_cypher``),
  ``sqlpgq`` (``execute_sql``);
* **load**: through its Cypher (:func:`gqlir.engines.loading.load_cypher`), because its bulk
  API drops the offset of zoned datetimes while ``datetime()`` in a query keeps it;
* **read-only**: grafeo has no read-only mode for a database in memory, so a read-only run is
  refused unless gqlir's IR check shows it writes nothing, and it runs in a transaction that is
  rolled back;
* **timeout**: grafeo cannot stop a running query (no timeout, no cancellation), so
  :class:`GrafeoEngine` keeps the database in a worker process and kills it at the deadline
  (:mod:`gqlir.engines.isolated`: a new worker is started and the loads and writes replayed).
  :class:`GrafeoCore` is the same adapter in this process, without timeouts.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from ..errors import EngineError
from ..eval import temporal as tm
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
)
from .grafeo_facts import DIFFERENCES
from .isolated import IsolatedEngine

__all__ = ["GrafeoCore", "GrafeoEngine"]

_DURATION_KEYS = frozenset({"months", "days", "nanos"})


def _props(d: Mapping[str, Any]) -> dict[str, Any]:
    return {k: _value(x) for k, x in d.items() if not k.startswith("_") and x is not None}


def _node(d: Mapping[str, Any]) -> NodeValue:
    return NodeValue(str(d["_id"]), tuple(str(x) for x in d["_labels"]), _props(d))


def _edge(d: Mapping[str, Any]) -> EdgeValue:
    return EdgeValue(
        str(d["_id"]), str(d["_type"]), str(d["_source"]), str(d["_target"]), _props(d)
    )


def _value(v: Any) -> Any:
    """grafeo's Python values as canonical ones. Elements, paths and durations come back as
    dicts, recognised by their keys (a map value with exactly those keys would be read as one:
    docs/engines.md, quirks)."""
    if isinstance(v, Mapping):
        keys = set(v)
        if "_id" in keys and "_labels" in keys:
            return _node(v)
        if {"_id", "_type", "_source", "_target"} <= keys:
            return _edge(v)
        if keys == {"nodes", "edges"} and all(
            isinstance(n, Mapping) and "_labels" in n for n in v["nodes"]
        ):
            return PathValue(
                tuple(_node(n) for n in v["nodes"]), tuple(_edge(e) for e in v["edges"])
            )
        if keys == _DURATION_KEYS and all(isinstance(v[k], int) for k in keys):
            return tm.Duration(v["months"], v["days"], v["nanos"])
        return {str(k): _value(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_value(x) for x in v]
    return from_python(v)


class GrafeoCore(BaseEngine):
    """grafeo in this process (no timeouts: use :class:`GrafeoEngine`)."""

    name: ClassVar[str] = "grafeo"
    dialects: ClassVar[tuple[str, ...]] = ("iso-gql", "neo4j", "opencypher9", "sqlpgq")
    enforces_read_only: ClassVar[bool] = False
    stops_queries: ClassVar[bool] = False
    fact_differences: ClassVar[Mapping[str, Mapping[str, Any]]] = DIFFERENCES

    def __init__(self, path: str | None = None) -> None:
        try:
            import grafeo
        except ImportError:
            raise EngineError(
                "grafeo needs the grafeo package (Python >= 3.12): pip install 'gqlir[engines]'",
                code="ENGINE_MISSING",
            ) from None
        self._grafeo = grafeo
        self.db = grafeo.GrafeoDB(path) if path else grafeo.GrafeoDB()

    def close(self) -> None:
        if not self.closed:
            self.db.close()
        super().close()

    def _load(self, schema: Any, directory: str) -> dict[str, int]:
        from .loading import LOAD_KEY, load_cypher

        indexed: list[str] = []

        def index(_: str) -> None:
            if not indexed:
                self.db.create_property_index(LOAD_KEY)
                indexed.append(LOAD_KEY)

        try:
            counts = load_cypher(
                lambda q, p: self.db.execute_cypher(q, p), schema, directory, index=index
            )
            if indexed:
                self.db.drop_property_index(LOAD_KEY)
            return counts
        except self._grafeo.GrafeoError as exc:
            raise engine_error(self.name, str(exc), getattr(exc, "error_code", None)) from None

    def execute_text(
        self,
        text: str,
        dialect: str,
        parameters: dict[str, Any],
        row_cap: int | None,
        read_only: bool,
    ) -> ResultTable:
        """Run engine text (already checked and translated) in a transaction."""
        from ..dialect import get_dialect

        family = get_dialect(dialect)
        tx = self.db.begin_transaction()
        try:
            if family.name == "iso-gql":
                result = tx.execute(text, parameters or None)
            elif family.family == "sql":
                result = tx.execute_sql(text, parameters or None)
            else:
                result = tx.execute_cypher(text, parameters or None)
            columns = [str(c) for c in result.columns]
            rows, truncated = take(iter(result), row_cap)
            if read_only:
                tx.rollback()
            else:
                tx.commit()
        except self._grafeo.GrafeoError as exc:
            if tx.is_active:
                tx.rollback()
            message = str(exc)
            code = getattr(exc, "error_code", None)
            kind = "READ_ONLY" if "read-only" in message else "ENGINE"
            raise engine_error(self.name, message, code, code=kind) from None
        table_rows = [tuple(_value(r.get(c)) for c in columns) for r in rows]
        return ResultTable(columns, table_rows, truncated=truncated)

    def _execute(
        self,
        prepared: Prepared,
        parameters: dict[str, Any],
        timeout: float | None,
        row_cap: int | None,
        read_only: bool,
    ) -> ResultTable:
        if timeout is not None:
            raise EngineError(
                "grafeo cannot stop a query in this process: use GrafeoEngine (a worker "
                "process) for timeouts",
                code="ENGINE_ARGUMENT",
            )
        return self.execute_text(prepared.text, prepared.dialect, parameters, row_cap, read_only)


class GrafeoEngine(IsolatedEngine):
    """grafeo in a worker process, so that a timeout can stop any query."""

    def __init__(self, path: str | None = None, *, max_memory: int | None = None) -> None:
        super().__init__(__name__, "GrafeoCore", {"path": path}, max_memory=max_memory)
