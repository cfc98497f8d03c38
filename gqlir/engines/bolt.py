"""Neo4j and TuGraph over Bolt with the official ``neo4j`` driver (any Bolt server: the tests
use ArcadeDB's, :class:`gqlir.engines.arcadedb.BoltServer`).

Connection settings come from arguments or the environment, never from code:
``GQLIR_BOLT_URI`` (or ``NEO4J_URI``), ``GQLIR_BOLT_USER``, ``GQLIR_BOLT_PASSWORD``,
``GQLIR_BOLT_DATABASE``.

* **dialect**: ``neo4j`` (``flavour="neo4j"``) or ``tugraph-cypher`` (``flavour="tugraph"``);
* **TuGraph's limits** are options: ``explicit_transactions=False`` (TuGraph's Bolt has none:
  every query runs in auto-commit) and ``streaming=False`` (its results come whole); its schema
  is created with its procedures (``db.createVertexLabel`` …) and edges are connected by the
  node types' primary keys;
* **read-only**: the session's access mode is READ (Neo4j refuses writes in it:
  ``Neo.ClientError.Statement.AccessMode``) and, with explicit transactions, the transaction is
  rolled back; the IR check refuses writes first, which is what protects servers that ignore
  the access mode (ArcadeDB does, measured);
* **timeout**: the transaction timeout goes with the query (Neo4j stops it server-side:
  ``Neo.ClientError.Transaction.TransactionTimedOut``), and the adapter also waits for the
  answer no longer than the timeout plus a grace period: then it closes the driver's
  connections and opens new ones, so the next query runs normally even on a server that
  ignores the transaction timeout (ArcadeDB does; its own ``arcadedb.command.timeout`` then
  stops the abandoned query on the server).
"""

from __future__ import annotations

import os
import threading
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
    timeout_error,
)
from .safety import ir_columns

__all__ = ["BoltEngine"]

_GRACE = 1.0  # seconds beyond the timeout the client waits for the server's own answer


class _Values:
    """neo4j driver values as canonical values."""

    def __init__(self) -> None:
        import neo4j.graph
        import neo4j.time

        self.graph = neo4j.graph
        self.time = neo4j.time
        self.temporal = {
            neo4j.time.Date: "date",
            neo4j.time.DateTime: "datetime",
            neo4j.time.Time: "time",
            neo4j.time.Duration: "duration",
        }

    def node(self, n: Any) -> NodeValue:
        props = {k: self.value(v) for k, v in n.items() if v is not None}
        return NodeValue(str(n.element_id), tuple(sorted(n.labels)), props)

    def edge(self, r: Any) -> EdgeValue:
        props = {k: self.value(v) for k, v in r.items() if v is not None}
        start = r.start_node.element_id if r.start_node is not None else ""
        end = r.end_node.element_id if r.end_node is not None else ""
        return EdgeValue(str(r.element_id), str(r.type), str(start), str(end), props)

    def value(self, v: Any) -> Any:
        g = self.graph
        if isinstance(v, g.Node):
            return self.node(v)
        if isinstance(v, g.Relationship):
            return self.edge(v)
        if isinstance(v, g.Path):
            return PathValue(
                tuple(self.node(n) for n in v.nodes), tuple(self.edge(r) for r in v.relationships)
            )
        if isinstance(v, self.time.Duration):
            nanos = v.seconds * 1_000_000_000 + v.nanoseconds
            return tm.Duration(v.months, v.days, nanos)
        if isinstance(v, self.time.DateTime):
            kind = "datetime" if v.tzinfo is not None else "localdatetime"
            return tm.parse_temporal(kind, v.iso_format() + _zone_suffix(v.tzinfo))
        if isinstance(v, self.time.Time):
            kind = "time" if v.tzinfo is not None else "localtime"
            return tm.parse_temporal(kind, v.iso_format())
        if isinstance(v, self.time.Date):
            return tm.parse_temporal("date", v.iso_format())
        if isinstance(v, list):
            return [self.value(x) for x in v]
        if isinstance(v, dict):
            return {str(k): self.value(x) for k, x in v.items()}
        return from_python(v)


def _zone_suffix(tzinfo: Any) -> str:
    """``[Region/City]`` for a datetime in a named zone: the driver's ISO text keeps only the
    offset, and Cypher's value (and its text) keeps the zone. A zero offset comes back as UTC
    whether it was written Z or named; it is read as the offset."""
    name = getattr(tzinfo, "zone", None) or getattr(tzinfo, "key", None)
    if not isinstance(name, str) or name == "UTC":
        return ""
    return f"[{name}]"


class BoltEngine(BaseEngine):
    """A Neo4j-protocol server: Neo4j, TuGraph, or any Bolt server (ArcadeDB in the tests)."""

    name: ClassVar[str] = "bolt"
    dialects: ClassVar[tuple[str, ...]] = ("neo4j", "opencypher9")
    enforces_read_only: ClassVar[bool] = False

    def __init__(
        self,
        url: str | None = None,
        *,
        user: str | None = None,
        password: str | None = None,
        database: str | None = None,
        flavour: str = "neo4j",
        explicit_transactions: bool | None = None,
        streaming: bool | None = None,
        connection_timeout: float = 10.0,
    ) -> None:
        try:
            import neo4j
        except ImportError:
            raise EngineError(
                "Bolt servers need the neo4j driver: pip install 'gqlir[engines]'",
                code="ENGINE_MISSING",
            ) from None
        self._neo4j = neo4j
        env = os.environ
        uri = url or env.get("GQLIR_BOLT_URI") or env.get("NEO4J_URI")
        if not uri:
            raise EngineError(
                "bolt needs a server: --url bolt://host:7687 or GQLIR_BOLT_URI",
                code="ENGINE_CONFIG",
            )
        self.uri: str = uri
        user = user if user is not None else env.get("GQLIR_BOLT_USER", env.get("NEO4J_USER"))
        if password is None:
            password = env.get("GQLIR_BOLT_PASSWORD", env.get("NEO4J_PASSWORD"))
        self.auth = (user, password or "") if user else None
        self.database = database or env.get("GQLIR_BOLT_DATABASE") or None
        if flavour not in ("neo4j", "tugraph"):
            raise EngineError(
                f"unknown Bolt flavour {flavour!r}: neo4j or tugraph", code="ENGINE_CONFIG"
            )
        self.flavour = flavour
        tugraph = flavour == "tugraph"
        self.name = "tugraph" if tugraph else "neo4j"  # type: ignore[misc]
        self.dialects = ("tugraph-cypher",) if tugraph else ("neo4j", "opencypher9")  # type: ignore[misc]
        self.explicit_transactions = (
            (not tugraph) if explicit_transactions is None else (explicit_transactions)
        )
        self.streaming = (not tugraph) if streaming is None else streaming
        self.connection_timeout = connection_timeout
        self._values = _Values()
        self._driver = self._connect()

    def _connect(self) -> Any:
        driver = self._neo4j.GraphDatabase.driver(
            self.uri, auth=self.auth, connection_timeout=self.connection_timeout
        )
        try:
            driver.verify_connectivity()
        except Exception as exc:
            driver.close()
            raise self._error(exc) from None
        return driver

    def close(self) -> None:
        if not self.closed:
            self._driver.close()
        super().close()

    def _error(self, exc: BaseException) -> EngineError:
        code = getattr(exc, "code", None)
        message = getattr(exc, "message", None) or str(exc)
        if code and "TransactionTimedOut" in code:
            return engine_error(self.name, message, code, code="TIMEOUT")
        if code and ("AccessMode" in code or "ForbiddenOnReadOnlyDatabase" in code):
            return engine_error(self.name, message, code, code="READ_ONLY")
        return engine_error(self.name, message, code or type(exc).__name__)

    def _session(self, read_only: bool) -> Any:
        mode = self._neo4j.READ_ACCESS if read_only else self._neo4j.WRITE_ACCESS
        return self._driver.session(database=self.database, default_access_mode=mode)

    # -- loading -------------------------------------------------------------------------------

    def _load(self, schema: Any, directory: str) -> dict[str, int]:
        """Create the graph; for TuGraph first its schema, with its procedures."""
        from ..schema.formats import write
        from ..schema.formats._ddl import quote_ident
        from .loading import LOAD_KEY, load_cypher

        created: list[str] = []

        def execute(text: str, params: dict[str, Any]) -> None:
            with self._session(False) as s:
                s.run(text, params).consume()

        def index(label: str) -> None:
            name = f"gqlir_load_{len(created)}"
            execute(
                f"CREATE INDEX {quote_ident(name, '`')} IF NOT EXISTS FOR "
                f"(n:{quote_ident(label, '`')}) ON (n.{quote_ident(LOAD_KEY, '`')})",
                {},
            )
            created.append(name)

        try:
            if self.flavour == "tugraph":
                for stmt in write(schema, "tugraph:procedures", lossy=True).text.split(";\n"):
                    if stmt.strip():
                        execute(stmt.strip().rstrip(";"), {})
                return load_cypher(execute, schema, directory, keyed=True)
            counts = load_cypher(execute, schema, directory, index=index)
            for name in created:
                execute(f"DROP INDEX {quote_ident(name, '`')} IF EXISTS", {})
            return counts
        except self._neo4j.exceptions.Neo4jError as exc:
            raise self._error(exc) from None

    # -- running -------------------------------------------------------------------------------

    def _work(
        self,
        prepared: Prepared,
        parameters: dict[str, Any],
        timeout: float | None,
        row_cap: int | None,
        read_only: bool,
    ) -> ResultTable:
        query = self._neo4j.Query(prepared.text, timeout=timeout)
        with self._session(read_only) as session:
            if self.explicit_transactions:
                tx = session.begin_transaction(timeout=timeout)
                try:
                    result = tx.run(query.text, parameters)
                    table = self._read(result, prepared, row_cap)
                    if read_only:
                        tx.rollback()
                    else:
                        tx.commit()
                    return table
                finally:
                    if not tx.closed():
                        tx.close()
            result = session.run(query, parameters)
            return self._read(result, prepared, row_cap)

    def _read(self, result: Any, prepared: Prepared, row_cap: int | None) -> ResultTable:
        keys = result.keys()  # the column names, known before any record is read
        columns = [str(k) for k in keys]
        if self.streaming:
            records, truncated = take(iter(result), row_cap)
        else:
            records, truncated = take(list(result), row_cap)
        result.consume()
        if not columns:
            columns = ir_columns(prepared.statement) or []
        rows = [tuple(self._values.value(r[c]) for c in columns) for r in records]
        return ResultTable(columns, rows, truncated=truncated)

    def _execute(
        self,
        prepared: Prepared,
        parameters: dict[str, Any],
        timeout: float | None,
        row_cap: int | None,
        read_only: bool,
    ) -> ResultTable:
        box: dict[str, Any] = {}

        def target() -> None:
            try:
                box["table"] = self._work(prepared, parameters, timeout, row_cap, read_only)
            except BaseException as exc:  # handed to the caller
                box["error"] = exc

        if timeout is None:
            target()
        else:
            worker = threading.Thread(target=target, name="gqlir-bolt", daemon=True)
            worker.start()
            worker.join(timeout + _GRACE)
            if worker.is_alive():
                # The server kept the query past its timeout: drop the connections (this ends
                # the waiting thread) and start afresh for the next query.
                self._driver.close()
                worker.join(10)
                self._driver = self._connect()
                raise timeout_error(self.name, timeout, "client deadline")
        if "error" in box:
            exc = box["error"]
            if isinstance(exc, EngineError):
                raise exc
            if isinstance(
                exc, self._neo4j.exceptions.Neo4jError | self._neo4j.exceptions.DriverError
            ):
                raise self._error(exc) from None
            raise exc
        return box["table"]
