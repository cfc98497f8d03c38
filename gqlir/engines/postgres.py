"""PostgreSQL through ``pg8000``: a server given by URL (``postgresql://user:pass@host:port/db``
or ``GQLIR_POSTGRES_URL``), or :class:`LocalServer`, a throw-away cluster started from the
PostgreSQL binaries of the machine (``initdb`` / ``pg_ctl``) on 127.0.0.1 and a free port.

* **graph**: the tables of :mod:`gqlir.schema.relational` in their own PostgreSQL schema
  (``schema``, default ``gqlir``), put first on the search path;
* **read-only**: the run's transaction is ``READ ONLY``; PostgreSQL refuses writes (SQLSTATE
  25006) and the transaction is rolled back;
* **timeout**: ``SET LOCAL statement_timeout``: the server cancels the statement (SQLSTATE
  57014) and the connection stays usable;
* **parameters**: ``$name`` / ``:name`` placeholders are rewritten by sqlglot into the driver's
  positional form (structurally, never by text substitution).
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import subprocess
import tempfile
from typing import Any, ClassVar
from urllib.parse import unquote, urlparse

from ..errors import EngineError
from ._sql import SqlEngine
from .base import Prepared, ResultTable, engine_error, timeout_error
from .servers import free_port, wait_until_ready

__all__ = ["LocalServer", "PostgresEngine"]


def _sqlstate(exc: Exception) -> tuple[str | None, str]:
    arg = exc.args[0] if exc.args else None
    if isinstance(arg, dict):
        return arg.get("C"), str(arg.get("M", exc))
    return None, str(exc)


class PostgresEngine(SqlEngine):
    name: ClassVar[str] = "postgres"
    dialects: ClassVar[tuple[str, ...]] = ("sql:postgres",)
    flavour: ClassVar[str] = "postgres"
    enforces_read_only: ClassVar[bool] = True

    def __init__(self, url: str | None = None, *, schema: str = "gqlir", fresh: bool = False):
        """Connect to ``url`` (default: ``GQLIR_POSTGRES_URL``). ``fresh`` drops and recreates
        ``schema`` first (what ``gqlir run --graph`` does, so a graph loads into an empty one)."""
        try:
            import pg8000.dbapi
        except ImportError:
            raise EngineError(
                "PostgreSQL needs the pg8000 package: pip install 'gqlir[engines]'",
                code="ENGINE_MISSING",
            ) from None
        self._pg = pg8000.dbapi
        url = url or os.environ.get("GQLIR_POSTGRES_URL")
        if not url:
            raise EngineError(
                "postgres needs a server: --url postgresql://user:password@host:port/database "
                "or GQLIR_POSTGRES_URL",
                code="ENGINE_CONFIG",
            )
        u = urlparse(url)
        try:
            self.conn = pg8000.dbapi.connect(
                user=unquote(u.username or "postgres"),
                password=unquote(u.password) if u.password else None,
                host=u.hostname or "127.0.0.1",
                port=u.port or 5432,
                database=(u.path or "/postgres").lstrip("/") or "postgres",
            )
        except Exception as exc:
            code, message = _sqlstate(exc)
            raise engine_error(self.name, message, code or type(exc).__name__) from None
        self.schema = schema
        cur = self.conn.cursor()
        ident = _ident(schema)
        if fresh:
            cur.execute(f"DROP SCHEMA IF EXISTS {ident} CASCADE")
        cur.execute(f"CREATE SCHEMA IF NOT EXISTS {ident}")
        cur.execute(f"SET search_path TO {ident}, public")
        self.conn.commit()

    def connection(self) -> Any:
        return self.conn

    def table_names(self) -> set[str]:
        cur = self.conn.cursor()
        cur.execute(
            "SELECT table_schema, table_name FROM information_schema.tables "
            "WHERE table_schema = current_schema()"
        )
        rows = cur.fetchall()
        self.conn.rollback()
        return {str(t).lower() for _, t in rows} | {f"{s}.{t}".lower() for s, t in rows}

    def close(self) -> None:
        if not self.closed:
            with contextlib.suppress(Exception):
                self.conn.close()
        super().close()

    def error(self, exc: Exception) -> EngineError:
        code, message = _sqlstate(exc)
        kind = "READ_ONLY" if code == "25006" else "ENGINE"
        return engine_error(self.name, message, code or type(exc).__name__, code=kind)

    def _load(self, schema: Any, directory: str) -> dict[str, int]:
        try:
            return super()._load(schema, directory)
        except EngineError:
            self.conn.rollback()
            raise

    def _execute(
        self,
        prepared: Prepared,
        parameters: dict[str, Any],
        timeout: float | None,
        row_cap: int | None,
        read_only: bool,
    ) -> ResultTable:
        text, args = _positional(prepared.text, parameters)
        cur = self.conn.cursor()
        try:
            if read_only:
                cur.execute("SET TRANSACTION READ ONLY")
            if timeout is not None:
                cur.execute(f"SET LOCAL statement_timeout = {max(1, int(timeout * 1000))}")
            cur.execute(text, args) if args else cur.execute(text)
            table = self.table(cur, row_cap)
            if read_only:
                self.conn.rollback()
            else:
                self.conn.commit()
            return table
        except self._pg.Error as exc:
            self.conn.rollback()
            code, _ = _sqlstate(exc)
            if code == "57014":
                raise timeout_error(self.name, timeout or 0, code) from None
            raise self.error(exc) from None


def _ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _positional(text: str, parameters: dict[str, Any]) -> tuple[str, tuple[Any, ...]]:
    """``text`` with named placeholders replaced by pg8000's ``%s``, and the values in order."""
    if not parameters:
        return text, ()
    import sqlglot
    from sqlglot import exp

    tree = sqlglot.parse_one(text, read="postgres")
    values: list[Any] = []

    def swap(node: exp.Expression) -> exp.Expression:
        name = None
        if (isinstance(node, exp.Placeholder) and node.name) or isinstance(node, exp.Parameter):
            name = node.name
        if name is None:
            return node
        if name not in parameters:
            raise EngineError(f"postgres: parameter ${name} was not given", code="ENGINE_ARGUMENT")
        values.append(parameters[name])
        return exp.Placeholder()

    rewritten = tree.transform(swap)
    return rewritten.sql(dialect="postgres"), tuple(values)  # a placeholder renders as %s


# -- a local server for tests and one-off runs --------------------------------------------------


def _pg_bin() -> str | None:
    found = shutil.which("pg_ctl")
    if found:
        return os.path.dirname(found)
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), reverse=True)
    return os.path.dirname(candidates[0]) if candidates else None


class LocalServer:
    """A PostgreSQL cluster in a temporary folder, started with the machine's ``initdb`` and
    ``pg_ctl`` on 127.0.0.1 and a free port (as the ``postgres`` user when run as root, since
    PostgreSQL refuses to run as root), trust authentication; :meth:`stop` removes it all."""

    def __init__(self, startup_timeout: float = 60.0) -> None:
        bindir = _pg_bin()
        if bindir is None:
            raise EngineError(
                "PostgreSQL binaries (initdb, pg_ctl) are not installed", code="ENGINE_MISSING"
            )
        self.bindir = bindir
        self.user: str | None = None
        self.root = tempfile.mkdtemp(prefix="gqlir-pg-")
        if os.geteuid() == 0:
            self.user = "postgres"
            shutil.chown(self.root, "postgres")
        self.data = os.path.join(self.root, "data")
        self.port = free_port()
        run: dict[str, Any] = dict(check=True, capture_output=True, user=self.user, timeout=120)
        try:
            subprocess.run(
                [os.path.join(bindir, "initdb"), "-A", "trust", "-U", "postgres", "-D", self.data],
                **run,
            )
            subprocess.run(
                [
                    os.path.join(bindir, "pg_ctl"),
                    "-D",
                    self.data,
                    "-l",
                    os.path.join(self.root, "server.log"),
                    "-w",
                    "-o",
                    f"-p {self.port} -h 127.0.0.1 -k {self.root}",
                    "start",
                ],
                **run,
            )
        except (subprocess.CalledProcessError, OSError) as exc:
            shutil.rmtree(self.root, ignore_errors=True)
            detail = getattr(exc, "stderr", b"") or b""
            raise EngineError(
                f"could not start PostgreSQL: {exc} {detail.decode(errors='replace')}",
                code="ENGINE_START",
            ) from None
        self._wait(startup_timeout)

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _wait(self, seconds: float) -> None:
        import pg8000.dbapi

        def ready() -> bool:
            try:
                pg8000.dbapi.connect(
                    user="postgres", host="127.0.0.1", port=self.port, database="postgres"
                ).close()
                return True
            except Exception:
                return False

        try:
            wait_until_ready("PostgreSQL", ready, seconds, interval=0.2)
        except EngineError:
            self.stop()
            raise

    def stop(self) -> None:
        subprocess.run(
            [os.path.join(self.bindir, "pg_ctl"), "-D", self.data, "-m", "immediate", "stop"],
            capture_output=True,
            user=self.user,
            timeout=60,
        )
        shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> LocalServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
