"""ArcadeDB in process (``arcadedb-embedded``: the Java engine in this process through JPype,
with its bundled JRE), and ArcadeDB's Bolt server as a separate process, the Neo4j-protocol
target the tests use for :mod:`gqlir.engines.bolt`.

In process:

* **dialect**: ArcadeDB's own openCypher implementation (``neo4j`` and ``opencypher9`` text
  runs as is);
* **timeout**: the database's ``arcadedb.command.timeout``, set per query; ArcadeDB checks it
  while it pulls rows and raises ``TimeoutException`` (measured: an unbounded path count on a
  dense graph stops at the timeout and the next query runs normally). A Java thread interrupt
  does not stop a running Cypher query;
* **read-only**: ``Database.query`` accepts only idempotent statements
  (``QueryNotIdempotentException`` otherwise), and the query runs in a transaction that is
  rolled back; the IR check refuses writes before that.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from typing import Any, ClassVar

from ..errors import EngineError
from ..eval import temporal as tm
from ..resources import cache_dir
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
from .servers import free_port, port_open, terminate, wait_until_ready

__all__ = ["ArcadeDBEngine", "BoltServer", "arcadedb_home"]

_TEMPORAL_CLASSES = {
    "CypherDate": "date",
    "CypherLocalDateTime": "localdatetime",
    "CypherDateTime": "datetime",
    "CypherLocalTime": "localtime",
    "CypherTime": "time",
    "CypherDuration": "duration",
    "LocalDate": "date",
    "LocalDateTime": "localdatetime",
    "ZonedDateTime": "datetime",
    "OffsetDateTime": "datetime",
    "LocalTime": "localtime",
    "OffsetTime": "time",
}


def arcadedb_home() -> str:
    """The folder of the installed ``arcadedb_embedded`` package (bundled JRE and jars)."""
    try:
        import arcadedb_embedded
    except ImportError:
        raise EngineError(
            "ArcadeDB needs the arcadedb-embedded package: pip install 'gqlir[engines]'",
            code="ENGINE_MISSING",
        ) from None
    return os.path.dirname(arcadedb_embedded.__file__)


_LOGGING = """\
handlers=java.util.logging.ConsoleHandler
.level=WARNING
java.util.logging.ConsoleHandler.level=WARNING
com.arcadedb.query.polyglot.level=SEVERE
"""


def _start_jvm() -> None:
    """Start ArcadeDB's JVM so that it leaves nothing in the user's folder or terminal: its
    logging goes to the console at WARNING only (ArcadeDB's own configuration would open
    ``./log``), crash files to gqlir's cache, and what the JVM prints while it starts (the
    incubator-module notice) is dropped."""
    import jpype

    if jpype.isJVMStarted():
        return
    from arcadedb_embedded import jvm

    folder = cache_dir() / "arcadedb"
    folder.mkdir(parents=True, exist_ok=True)
    config = folder / "logging.properties"
    if not config.exists() or config.read_text() != _LOGGING:
        config.write_text(_LOGGING)
    os.environ.setdefault("ARCADEDB_JVM_ERROR_FILE", str(folder / "hs_err_pid%p.log"))
    extra = shlex.quote(f"-Djava.util.logging.config.file={config}")
    os.environ["ARCADEDB_JVM_ARGS"] = f"{os.environ.get('ARCADEDB_JVM_ARGS', '')} {extra}".strip()
    with _stderr_dropped():
        jvm.start_jvm()


@contextlib.contextmanager
def _stderr_dropped() -> Iterator[None]:
    """File descriptor 2 goes to /dev/null meanwhile (the JVM writes there, not to sys.stderr)."""
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with open(os.devnull, "wb") as null:
            os.dup2(null.fileno(), 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


class _Converter:
    """Java values of an ArcadeDB result as canonical values."""

    def __init__(self) -> None:
        import jpype

        self.jpype = jpype
        self.vertex = jpype.JClass("com.arcadedb.graph.Vertex")
        self.edge = jpype.JClass("com.arcadedb.graph.Edge")
        self.path = jpype.JClass("com.arcadedb.query.opencypher.traversal.TraversalPath")
        self.map = jpype.JClass("java.util.Map")
        self.collection = jpype.JClass("java.util.Collection")
        self.number = jpype.JClass("java.lang.Number")
        self.big_decimal = jpype.JClass("java.math.BigDecimal")
        self.identifiable = jpype.JClass("com.arcadedb.database.Identifiable")
        self.boolean = jpype.JClass("java.lang.Boolean")

    def element_props(self, record: Any) -> dict[str, Any]:
        out = {}
        for name in record.getPropertyNames():
            key = str(name)
            value = self.value(record.get(name))
            if value is not None:
                out[key] = value
        return out

    def node(self, v: Any) -> NodeValue:
        if not isinstance(v, self.vertex):
            v = v.asVertex()
        type_name = str(v.getTypeName())
        return NodeValue(str(v.getIdentity()), (type_name,), self.element_props(v))

    def value(self, v: Any) -> Any:
        if isinstance(v, self.boolean):  # a boxed Java boolean is a Python int, not a bool
            return bool(v)
        if v is None or isinstance(v, (bool, int, float, str)):
            if isinstance(v, str):
                return str(v)
            if isinstance(v, bool):
                return bool(v)
            if isinstance(v, int):
                return int(v)
            if isinstance(v, float):
                return float(v)
            return v
        if isinstance(v, self.path):
            return PathValue(
                tuple(self.node(n) for n in v.getVertices()),
                tuple(self.value(e) for e in v.getEdges()),
            )
        if isinstance(v, self.vertex):
            return self.node(v)
        if isinstance(v, self.edge):
            return EdgeValue(
                str(v.getIdentity()),
                str(v.getTypeName()),
                str(v.getOut()),
                str(v.getIn()),
                self.element_props(v),
            )
        if isinstance(v, self.big_decimal):
            import decimal

            return decimal.Decimal(str(v.toPlainString()))
        if isinstance(v, self.number):
            text = str(v)
            return float(text) if any(c in text for c in ".eEIN") else int(text)
        if isinstance(v, self.map):
            return {str(e.getKey()): self.value(e.getValue()) for e in v.entrySet()}
        if isinstance(v, self.collection):
            return [self.value(x) for x in v]
        cls = str(v.getClass().getSimpleName()) if hasattr(v, "getClass") else ""
        kind = _TEMPORAL_CLASSES.get(cls)
        if kind is not None:
            return tm.parse_temporal(kind, str(v))
        if isinstance(v, self.identifiable):
            return self.value(v.getRecord())
        if hasattr(v, "__len__") and not hasattr(v, "getClass"):
            return [self.value(x) for x in v]
        return from_python(str(v))


class ArcadeDBEngine(BaseEngine):
    """ArcadeDB in this process; a fresh database in a temporary folder unless ``path`` is
    given (``create=False`` opens an existing one)."""

    name: ClassVar[str] = "arcadedb"
    dialects: ClassVar[tuple[str, ...]] = ("neo4j", "opencypher9")
    enforces_read_only: ClassVar[bool] = True

    def __init__(self, path: str | None = None, *, create: bool = True) -> None:
        arcadedb_home()
        _start_jvm()
        import arcadedb_embedded as arcadedb
        import jpype

        self._tmp = None
        if path is None:
            self._tmp = tempfile.mkdtemp(prefix="gqlir-arcadedb-")
            path = os.path.join(self._tmp, "graph")
        try:
            self.db = arcadedb.create_database(path) if create else arcadedb.open_database(path)
        except Exception as exc:
            self._cleanup()
            raise engine_error(self.name, str(exc), _java_code(exc)) from None
        _quiet(jpype)
        self._config = self.db._java_db.getConfiguration()
        self._timeout_key = jpype.JClass("com.arcadedb.GlobalConfiguration").COMMAND_TIMEOUT
        self._convert = _Converter()

    def _cleanup(self) -> None:
        if self._tmp is not None:
            shutil.rmtree(self._tmp, ignore_errors=True)
            self._tmp = None

    def close(self) -> None:
        if not self.closed:
            try:
                self.db.close()
            finally:
                self._cleanup()
        super().close()

    def _load(self, schema: Any, directory: str) -> dict[str, int]:
        from .loading import LOAD_KEY, load_cypher

        def execute(text: str, params: dict[str, Any]) -> None:
            with self.db.transaction():
                self.db.command("opencypher", text, params)

        def index(label: str) -> None:
            # A lookup index on the temporary key: edges find their nodes without a scan.
            with self.db.transaction():
                self.db.command(
                    "sql",
                    f"CREATE PROPERTY {_sql_name(label)}.{_sql_name(LOAD_KEY)} IF NOT EXISTS "
                    "STRING",
                )
            self.db.command(
                "sql",
                f"CREATE INDEX IF NOT EXISTS ON {_sql_name(label)} ({_sql_name(LOAD_KEY)}) "
                "NOTUNIQUE",
            )

        try:
            counts = load_cypher(execute, schema, directory, index=index)
            for nt in schema.node_types:
                if counts.get(nt.label):
                    self.db.command("sql", f"DROP INDEX `{nt.label}[{LOAD_KEY}]`")
                    with self.db.transaction():
                        self.db.command("sql", f"DROP PROPERTY `{nt.label}`.`{LOAD_KEY}` FORCE")
        except EngineError:
            raise
        except Exception as exc:
            raise engine_error(self.name, _message(exc), _java_code(exc)) from None
        return counts

    def _execute(
        self,
        prepared: Prepared,
        parameters: dict[str, Any],
        timeout: float | None,
        row_cap: int | None,
        read_only: bool,
    ) -> ResultTable:
        self._config.setValue(self._timeout_key, int(timeout * 1000) if timeout else 0)
        db = self.db
        db.begin()
        committed = False
        try:
            run = db.query if read_only else db.command
            rs = (
                run("opencypher", prepared.text, parameters)
                if parameters
                else run("opencypher", prepared.text)
            )
            columns: list[str] | None = None
            rows: list[tuple[Any, ...]] = []
            truncated = False
            if rs is not None:
                records, truncated = take(iter(rs), row_cap)
                for r in records:
                    if columns is None:
                        columns = [str(c) for c in r.property_names]
                    jr = r._java_result
                    rows.append(tuple(self._convert.value(jr.getProperty(c)) for c in columns))
            if read_only:
                db.rollback()
            else:
                db.commit()
            committed = True
        except Exception as exc:
            code = _java_code(exc)
            if code == "TimeoutException":
                raise timeout_error(self.name, timeout or 0, code) from None
            if code == "QueryNotIdempotentException":
                raise engine_error(self.name, _message(exc), code, code="READ_ONLY") from None
            raise engine_error(self.name, _message(exc), code) from None
        finally:
            if not committed and db.is_transaction_active():
                db.rollback()
            self._config.setValue(self._timeout_key, 0)
        if columns is None:
            columns = ir_columns(prepared.statement) or []
        return ResultTable(columns, rows, truncated=truncated)


def _quiet(jpype: Any) -> None:
    """ArcadeDB logs every index build at INFO on stderr; warnings and errors are enough."""
    logging = jpype.JPackage("java").util.logging
    logging.Logger.getLogger("").setLevel(logging.Level.WARNING)
    for handler in logging.Logger.getLogger("").getHandlers():
        handler.setLevel(logging.Level.WARNING)
    logging.Logger.getLogger("com.arcadedb").setLevel(logging.Level.WARNING)


def _java_code(exc: BaseException) -> str | None:
    """The simple name of the Java exception behind ``exc`` (ArcadeDB's error code)."""
    seen = 0
    cur: BaseException | None = exc
    while cur is not None and seen < 8:
        if hasattr(cur, "getClass"):
            return str(cur.getClass().getSimpleName())
        if "." in str(cur) and "Exception" in str(cur):
            text = str(cur)
            for token in text.replace(":", " ").split():
                if token.startswith("com.arcadedb.") and token.endswith(("Exception", "Error")):
                    return token.rsplit(".", 1)[1]
        cur = cur.__cause__ or cur.__context__
        seen += 1
    return None


def _message(exc: BaseException) -> str:
    text = str(exc)
    for prefix in ("Query failed: ", "Command failed: ", "Reading the result set failed: "):
        if text.startswith(prefix):
            text = text[len(prefix) :]
    head, sep, tail = text.partition(": ")
    if sep and head.startswith("com.arcadedb.") and " " not in head:
        return tail
    return text


# -- the Bolt server ---------------------------------------------------------------------------


class BoltServer:
    """ArcadeDB's server with its Bolt plugin, as a ``java`` process of the bundled JRE on
    127.0.0.1 and free ports, with its root folder in a temporary directory; one database,
    ``database``. ``command_timeout`` (seconds) is the server's own cap on every command:
    ArcadeDB does not honour the Bolt transaction timeout, so this is what stops a runaway
    query on the server after a client gave up on it."""

    def __init__(
        self,
        *,
        password: str = "gqlir-test",
        database: str = "graph",
        command_timeout: float = 10.0,
        heap: str = "1g",
        startup_timeout: float = 60.0,
    ) -> None:
        home = arcadedb_home()
        self.password = password
        self.user = "root"
        self.database = database
        self.root = tempfile.mkdtemp(prefix="gqlir-arcadedb-server-")
        self.port = free_port()
        http_port = free_port()
        java = os.path.join(home, "jre", "bin", "java")
        args = [
            java,
            f"-Xmx{heap}",
            "-cp",
            os.path.join(home, "jars", "*"),
            f"-Darcadedb.server.rootPath={self.root}",
            f"-Darcadedb.server.rootPassword={password}",
            f"-Darcadedb.server.defaultDatabases={database}[root]",
            "-Darcadedb.server.httpIncomingHost=127.0.0.1",
            f"-Darcadedb.server.httpIncomingPort={http_port}",
            "-Darcadedb.bolt.host=127.0.0.1",
            f"-Darcadedb.bolt.port={self.port}",
            f"-Darcadedb.command.timeout={int(command_timeout * 1000)}",
            "-Darcadedb.server.plugins=Bolt:com.arcadedb.bolt.BoltProtocolPlugin",
            "com.arcadedb.server.ArcadeDBServer",
        ]
        self._log = open(os.path.join(self.root, "server-output.txt"), "wb")  # noqa: SIM115
        self.process = subprocess.Popen(args, stdout=self._log, stderr=subprocess.STDOUT)
        try:
            self._wait(startup_timeout)
        except BaseException:
            self.stop()
            raise

    @property
    def uri(self) -> str:
        return f"bolt://127.0.0.1:{self.port}"

    def _wait(self, seconds: float) -> None:
        wait_until_ready(
            "ArcadeDB's server",
            lambda: port_open(self.port) and self._database_ready(),
            seconds,
            process=self.process,
            log=lambda: f"see {self._log.name}",
            interval=0.2,
        )

    def _database_ready(self) -> bool:
        """The Bolt port opens before the default database exists: ask for it."""
        try:
            import neo4j
        except ImportError:
            return True
        try:
            with neo4j.GraphDatabase.driver(self.uri, auth=(self.user, self.password)) as d:
                d.execute_query("RETURN 1 AS x", database_=self.database)
            return True
        except Exception:
            return False

    def stop(self) -> None:
        """Terminate the server (SIGTERM: it shuts down cleanly), then remove its folder."""
        terminate(self.process, 30)
        self._log.close()
        shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> BoltServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _sql_name(name: str) -> str:
    """A name in ArcadeDB's SQL: between backticks, which a backslash escapes inside (a doubled
    backtick is a syntax error there), so no label can change the statement."""
    return "`" + name.replace("\\", "\\\\").replace("`", "\\`") + "`"
