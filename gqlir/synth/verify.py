"""Every synthesized text run on its own dialect's engine, and the record of what it answered.

The gold answer comes from the run's engine (the reference evaluator by default, on the IR).
Each text an item carries is then run as it is (never translated) on the engine that speaks
its dialect here (:data:`ROUTES`), in a worker process where the engine is embedded
(:mod:`gqlir.engines.isolated`), and its answer is compared with the gold
(:mod:`.agreement`). Per item and dialect the item records one of

* ``{"status": "confirmed", "engine": E}``;
* ``{"status": "disagrees", "engine": E, "difference": …}``;
* ``{"status": "engine error", "engine": E, "code": …, "message": …}`` (a timeout included);
* ``{"status": "refused", "reason": …}``: gqlir does not write the query in the dialect;
* ``{"status": "no engine", "reason": …}``: nothing runs the dialect here.

An engine starts (and loads the graph) at the first text that needs it, so a dialect that is
not requested costs nothing.
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass, field
from typing import Any

from ..errors import EngineError, GqlirError
from ..schema.model import SchemaGraph
from .agreement import difference
from .errors import SynthError

__all__ = ["ROUTES", "Route", "Verifier", "parse_routes", "plan"]

#: the checker of Spanner texts: ZetaSQL's analyser against the schema's catalog, then the
#: reference evaluator reading the text with Spanner's meanings (no Spanner Graph runs outside
#: Google Cloud; the emulator has no graph support)
SPANNER_CHECK = "zetasql+reference"

#: dialect -> the engine that runs its texts here by default. A new engine plugs in with one
#: line (its registry name from :mod:`gqlir.engines.registry`).
ROUTES: dict[str, str] = {
    "neo4j": "grafeo",  # Neo4j itself with --verify-engine neo4j=bolt://… or neo4j=local
    "opencypher9": "grafeo",
    "iso-gql": "grafeo",
    "kuzu": "kuzu",
    "sql": "duckdb",  # the standard SQL text as DuckDB reads it, untranslated
    "sql:sqlite": "sqlite",
    "sql:duckdb": "duckdb",
    "spanner": SPANNER_CHECK,
    "falkordb": "falkordb",  # its own server (gqlir/engines/falkordb.py), started at first use
}

#: dialects nothing here runs, and why
NO_ENGINE: dict[str, str] = {
    "sqlpgq": "no SQL/PGQ engine here: DuckDB's duckpgq extension is downloaded from "
    "community-extensions.duckdb.org, which this machine does not reach, and grafeo's SQL/PGQ "
    "reader refuses the standard's IS label expressions gqlir writes",
    "tugraph-gql": "no TuGraph engine here (TuGraph runs as a server; none is configured)",
    "tugraph-cypher": "no TuGraph engine here (TuGraph runs as a server; none is configured)",
}

#: engines whose answers lack types the gold has (read as the gold's types: .agreement)
UNTYPED = frozenset({"sqlite", "falkordb"})

#: engines that run in this process's worker processes (the others are servers or in-process
#: checks)
_ISOLATED = frozenset({"kuzu", "sqlite", "duckdb", "arcadedb"})

#: engines that run texts without the read-only guard, where it refuses texts gqlir itself
#: writes (Kuzu's ``is_trail()``, the relationship uniqueness the Kuzu writer adds, is not on
#: gqlir's list of functions known to only read) or costs more than the query (DuckDB's guard reads
#: the catalogue for every query: 80 ms a query guarded, 36 ms unguarded, measured on the
#: finance graph). Their database is this run's own copy, and every template query is checked
#: to write nothing first (:meth:`Verifier.check`). Elsewhere, a server's database above all,
#: the guard stays.
_UNGUARDED = frozenset({"kuzu", "duckdb"})

#: the Bolt servers a URL can name, by the dialect it is given for
_SERVER_OF = {"neo4j": "neo4j", "opencypher9": "neo4j"}


@dataclass(frozen=True)
class Route:
    """How one dialect's texts are checked: ``engine`` (a registry name, :data:`SPANNER_CHECK`
    or ``""`` for none, with ``reason``) and its options (``url``; ``local`` starts
    scripts/neo4j-local). ``asked``: the user named it, so an engine that does not start is an
    error, not a note."""

    engine: str
    reason: str = ""
    url: str | None = None
    local: bool = False
    asked: bool = False

    def key(self) -> tuple[str, str | None, bool]:
        return (self.engine, self.url, self.local)

    def describe(self) -> str:
        if not self.engine:
            return "none"
        where = " (scripts/neo4j-local)" if self.local else (" at a given URL" if self.url else "")
        return self.engine + where


def parse_routes(specs: list[str]) -> dict[str, Route]:
    """``--verify-engine`` values: ``DIALECT=ENGINE``, ``DIALECT=ENGINE@URL``,
    ``DIALECT=URL`` (the dialect's server: Neo4j for neo4j and opencypher9),
    ``DIALECT=local`` (a Neo4j started by scripts/neo4j-local) or ``DIALECT=none``."""
    from ..dialect import get_dialect
    from ..engines import engine_names

    routes: dict[str, Route] = {}
    for spec in specs:
        dialect, sep, value = spec.partition("=")
        if not sep or not dialect or not value:
            raise SynthError(f"--verify-engine {spec!r}: expected DIALECT=ENGINE (or =URL)")
        try:
            dialect = get_dialect(dialect).name
        except GqlirError as exc:
            raise SynthError(f"--verify-engine {spec!r}: {exc.message}") from None
        engine, url, local = value, None, False
        if "://" in value:
            named = "@" in value.split("://")[0]
            engine, url = value.split("@", 1) if named else (_SERVER_OF.get(dialect, ""), value)
            if not engine:
                raise SynthError(f"--verify-engine {spec!r}: name the engine: {dialect}=ENGINE@URL")
        elif value == "local":
            if _SERVER_OF.get(dialect) != "neo4j":
                raise SynthError(f"--verify-engine {spec!r}: 'local' starts a Neo4j (neo4j only)")
            engine, local = "neo4j", True
        if engine == "none":
            routes[dialect] = Route("", reason=f"not asked (--verify-engine {dialect}=none)")
            continue
        if engine != SPANNER_CHECK and engine not in engine_names():
            raise SynthError(
                f"--verify-engine {spec!r}: unknown engine {engine!r}; known engines: "
                f"{', '.join([*engine_names(), SPANNER_CHECK])}"
            )
        routes[dialect] = Route(engine, url=url, local=local, asked=True)
    return routes


def plan(dialects: list[str], routes: dict[str, Route], enabled: bool = True) -> dict[str, Route]:
    """The route of every requested dialect: the user's, else the default, else none."""
    out: dict[str, Route] = {}
    for dialect in dialects:
        if not enabled:
            out[dialect] = Route("", reason="verification off (--no-verify)")
        elif dialect in routes:
            out[dialect] = routes[dialect]
        elif dialect in ROUTES:
            out[dialect] = Route(ROUTES[dialect])
        else:
            out[dialect] = Route("", reason=NO_ENGINE.get(dialect, f"no {dialect} engine here"))
    return out


def _neo4j_local(command: str) -> subprocess.CompletedProcess[str]:
    """``scripts/neo4j-local COMMAND`` of the clone gqlir runs from."""
    import gqlir

    script = os.path.join(
        os.path.dirname(os.path.dirname(os.path.abspath(gqlir.__file__))), "scripts", "neo4j-local"
    )
    if not os.path.exists(script):
        raise SynthError("neo4j=local needs a clone of gqlir (scripts/neo4j-local): give a URL")
    return subprocess.run(
        [sys.executable, script, command], capture_output=True, text=True, timeout=900
    )


def _start_neo4j_local() -> tuple[str, bool]:
    """The Bolt URL of the Neo4j scripts/neo4j-local runs, and whether it was started here
    (then it is stopped at the end; one already running is left running)."""
    running = _neo4j_local("status")
    if running.returncode == 0 and running.stdout.strip():
        return running.stdout.strip().splitlines()[-1], False
    done = _neo4j_local("start")
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        raise SynthError(f"scripts/neo4j-local start failed: {done.stderr.strip()[-500:]}")
    return lines[-1], True


class _Engine:
    """One engine of the run, loaded with the schema's graph; or why it is not there."""

    def __init__(self, route: Route, schema: SchemaGraph, graph: str, reference: Any) -> None:
        self.route, self.schema = route, schema
        self.name = route.engine
        self.engine: Any = None
        self.missing = ""
        self.loaded_into_server = False
        self.started_local = False
        try:
            if route.engine == SPANNER_CHECK:
                self._open_spanner_check(reference)
            else:
                self._open(graph)
        except GqlirError as exc:
            if route.asked:
                raise SynthError(
                    f"the {route.engine} engine did not start: {exc.message}"
                ) from None
            self.missing = f"{route.engine} did not start: {exc.message}"

    def _open_spanner_check(self, reference: Any) -> None:
        from ..checks.zetasql import shared_checker

        shared_checker()  # a missing zetasql package is a GqlirError naming its extra
        self.engine = reference()

    def _open(self, graph: str) -> None:
        from ..engines import open_engine

        options: dict[str, Any] = {}
        if self.route.local:
            options["url"], self.started_local = _start_neo4j_local()
        elif self.route.url:
            options["url"] = self.route.url
        isolated = self.route.engine in _ISOLATED
        try:
            engine = open_engine(self.route.engine, isolated=isolated, **options)
        except BaseException:
            self._stop_local()
            raise
        try:
            if options:
                self._require_empty(engine)
            engine.load(self.schema, graph)
            self.loaded_into_server = bool(options)
        except BaseException:
            engine.close()
            self._stop_local()
            raise
        self.engine = engine

    def _stop_local(self) -> None:
        if self.started_local:
            self.started_local = False
            _neo4j_local("stop")

    @staticmethod
    def _require_empty(engine: Any) -> None:
        """A server's database must be empty: its own data would change every answer, and
        gqlir never deletes what it did not load."""
        table = engine.run("MATCH (n) RETURN count(n) AS n", dialect="neo4j", timeout=30)
        if table.rows and table.rows[0][0]:
            raise SynthError(
                f"the {engine.name} database holds {table.rows[0][0]} nodes: synth loads the "
                "graph there and needs an empty database"
            )

    def runs(self, dialect: str) -> str | None:
        """The dialect the engine runs ``dialect``'s text as, untranslated; None if it cannot."""
        if self.route.engine == SPANNER_CHECK:
            return dialect if dialect == "spanner" else None
        if dialect in self.engine.dialects:
            return dialect
        own = self.engine.dialects[0]
        if dialect == "sql" and own.startswith("sql:"):
            return own  # the standard SQL text, as the engine's own SQL
        return None

    def run(self, text: str, dialect: str, timeout: float, row_cap: int) -> Any:
        if self.route.engine == SPANNER_CHECK:
            from ..checks.zetasql import shared_checker

            verdict = shared_checker().check(text, self.schema)
            if not verdict.accepted:
                raise EngineError(f"ZetaSQL: {verdict}", code="ZETASQL_REJECTED")
            return self.engine.run_text(text, dialect, timeout, row_cap)
        return self.engine.run(
            text,
            dialect=dialect,
            timeout=timeout,
            row_cap=row_cap,
            read_only=self.route.engine not in _UNGUARDED,
        )

    def close(self) -> None:
        if self.engine is None or self.route.engine == SPANNER_CHECK:
            return
        try:
            if self.loaded_into_server:  # the database was empty: all of it is ours
                self.engine.run("MATCH (n) DETACH DELETE n", dialect="neo4j", timeout=300)
        finally:
            self.engine.close()
            self._stop_local()


def _message(exc: GqlirError) -> str:
    text = " ".join(exc.message.split())
    return text if len(text) <= 300 else text[:297] + "..."


@dataclass
class Verifier:
    """The engines of one schema's run (opened at first use) and the check of an item."""

    routes: dict[str, Route]
    schema: SchemaGraph
    graph: str
    timeout: float
    row_cap: int
    reference: Any  # () -> a ReferenceExecutor on this graph (the Spanner check's evaluator)
    engines: dict[tuple[str, str | None, bool], _Engine] = field(default_factory=dict)
    pool: Any = None

    def _engine(self, route: Route) -> _Engine:
        found = self.engines.get(route.key())
        if found is None:
            found = self.engines[route.key()] = _Engine(
                route, self.schema, self.graph, self.reference
            )
        return found

    def check(
        self, texts: dict[str, str], refused: dict[str, str], gold: Any, query: Any
    ) -> dict[str, dict[str, Any]]:
        """The record of every requested dialect for one item (see the module docstring)."""
        from ..engines.safety import ir_writes

        out: dict[str, dict[str, Any]] = {}
        for dialect, why in refused.items():
            out[dialect] = {"status": "refused", "reason": why}
        writes = ir_writes(query)
        groups: dict[tuple[str, str | None, bool], list[tuple[Route, str, str]]] = {}
        for dialect, text in texts.items():
            route = self.routes.get(dialect) or Route("", reason=f"no {dialect} engine here")
            if not route.engine:
                out[dialect] = {"status": "no engine", "reason": route.reason}
            elif writes:  # never the case for templates; the unguarded engines rely on it
                out[dialect] = {"status": "no engine", "reason": "the query writes"}
            else:
                groups.setdefault(route.key(), []).append((route, dialect, text))
        # each engine's texts in turn, the engines side by side: the embedded ones run in
        # worker processes, so the waits overlap with each other and with this process's work
        for key in groups:
            if key not in self.engines:  # started here, one after the other (start-up is slow)
                self._engine(groups[key][0][0])
        futures = []
        for key, jobs in groups.items():
            if key[0] == SPANNER_CHECK:
                continue
            futures.append(self._pool().submit(self._check_group, jobs, gold))
        spanner = groups.get((SPANNER_CHECK, None, False))
        if spanner:  # in this process, while the workers run
            out.update(self._check_group(spanner, gold))
        for future in futures:
            out.update(future.result())
        return dict(sorted(out.items()))

    def _pool(self) -> Any:
        if self.pool is None:
            from concurrent.futures import ThreadPoolExecutor

            self.pool = ThreadPoolExecutor(max_workers=8, thread_name_prefix="gqlir-verify")
        return self.pool

    def _check_group(
        self, jobs: list[tuple[Route, str, str]], gold: Any
    ) -> dict[str, dict[str, Any]]:
        """One engine's texts of an item. A Cypher text the engine already ran for another
        Cypher dialect (the neo4j and opencypher9 texts are often the same) is not run again:
        the engine runs both the same way, and each text was read back by its own dialect's
        grammar when it was written."""
        from ..dialect import get_dialect

        out: dict[str, dict[str, Any]] = {}
        ran: dict[str, dict[str, Any]] = {}
        for route, dialect, text in jobs:
            cypher = get_dialect(dialect).family == "cypher"
            if cypher and text in ran:
                out[dialect] = dict(ran[text])
                continue
            out[dialect] = self._check_one(route, dialect, text, gold)
            if cypher:
                ran[text] = out[dialect]
        return out

    def _check_one(self, route: Route, dialect: str, text: str, gold: Any) -> dict[str, Any]:
        engine = self._engine(route)
        if engine.missing:
            return {"status": "no engine", "reason": engine.missing}
        run_as = engine.runs(dialect)
        if run_as is None:
            return {
                "status": "no engine",
                "reason": f"{route.engine} does not run {dialect} text as it is",
            }
        try:
            got = engine.run(text, run_as, self.timeout, self.row_cap)
        except GqlirError as exc:
            return {
                "status": "engine error",
                "engine": route.engine,
                "code": exc.code,
                "message": _message(exc),
            }
        why = difference(gold, got, untyped=route.engine in UNTYPED)
        if why is not None:
            return {"status": "disagrees", "engine": route.engine, "difference": why}
        return {"status": "confirmed", "engine": route.engine}

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown()
            self.pool = None
        engines, self.engines = list(self.engines.values()), {}
        for engine in engines:
            engine.close()
