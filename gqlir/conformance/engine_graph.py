"""What the TCK runner needs to know of each engine, and the engine's answers in TCK terms.

A profile says how to open the engine, how to empty its database between scenarios, how to
ask it whether a query compiles, whether its side effects can be measured, and which
scenarios it cannot be given. Results come back as the reference evaluator's
:class:`~gqlir.eval.result.Result` (nodes, relationships and paths as its records, ids as the
engine's), so the reference runner's comparison applies unchanged; side effects are the
difference of two snapshots of the graph read through the engine, counted as the TCK counts
them (:func:`gqlir.eval.result.side_effects`).
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..engines.base import EdgeValue, NodeValue, PathValue
from ..errors import EngineError

__all__ = ["ENGINE_PROFILES", "EngineProfile", "snapshot", "tck_table"]

_RESET = "MATCH (n) DETACH DELETE n"


@dataclass(frozen=True, slots=True)
class EngineProfile:
    name: str
    open: Callable[[str | None], Any]
    errors: str  # how the engine's errors are classified (shown with the report)
    reset: str | None = _RESET
    explain: str | None = None  # prefix that compiles a query without running it
    stops_queries: bool = True  # the engine honours a timeout in this process
    reports_side_effects: bool = True
    forget_schema: Callable[[Any], None] | None = None  # after the reset: drop what it kept
    labels: Callable[[tuple[str, ...]], tuple[str, ...]] = lambda labels: labels
    not_runnable: Callable[[Any], str | None] = lambda scenario: None
    # whether the engine compiles (engine text, parameters), where it is asked otherwise than
    # with an ``explain`` prefix
    compiles: Callable[[Any, str, dict[str, Any]], bool] | None = None


def _open(name: str, **options: Any) -> Any:
    from ..engines import open_engine

    return open_engine(name, **options)


def _open_grafeo(_: str | None) -> Any:
    """grafeo in this process: TCK queries are small, and a worker process would replay every
    reset and setup after a timeout."""
    from ..engines.grafeo import GrafeoCore

    return GrafeoCore()


def _open_neo4j(url: str | None) -> Any:
    import logging

    # the server's notes on TCK queries (unknown labels, deprecations) are not results
    logging.getLogger("neo4j.notifications").setLevel(logging.ERROR)
    return _open("neo4j", url=url or local_neo4j())


def local_neo4j() -> str:
    """The Bolt URL of the local Neo4j (``scripts/neo4j-local start``: started if it is not
    running)."""
    script = os.path.join(os.path.dirname(__file__), "..", "..", "scripts", "neo4j-local")
    done = subprocess.run(
        [sys.executable, script, "start"], capture_output=True, text=True, timeout=900
    )
    if done.returncode != 0:
        raise EngineError(f"neo4j-local start failed: {done.stderr[-500:]}", code="ENGINE_START")
    return done.stdout.strip().splitlines()[-1]


def _arcadedb_labels(labels: tuple[str, ...]) -> tuple[str, ...]:
    """ArcadeDB stores a node's labels as one type: ``A~B`` for two, ``~NO_LABEL~`` for none."""
    return tuple(x for label in labels for x in label.split("~") if x and x != "NO_LABEL")


def _arcadedb_drop_types(engine: Any) -> None:
    """ArcadeDB keeps a type for every label and relationship type ever used, and one name
    cannot be a vertex type and an edge type: without this, ``(:A)`` in one scenario makes
    ``[:A]`` fail in the next."""
    names = [r.get("name") for r in engine.db.query("sql", "SELECT name FROM schema:types")]
    for name in names:
        if "`" in name:  # ArcadeDB's SQL has no escape for a backtick in a quoted name
            raise EngineError(
                f"arcadedb: cannot drop the type {name!r} between scenarios", code="ENGINE"
            )
        engine.db.command("sql", f"DROP TYPE `{name}` UNSAFE")


def _kuzu_not_runnable(scenario: Any) -> str | None:
    """Kuzu needs a node or relationship table before anything is created, and a TCK setup
    creates whatever labels it likes: scenarios that create elements are not run."""
    from .. import api
    from ..engines.safety import ir_writes
    from ..errors import GqlirError

    if scenario.setup_queries:
        return "Kuzu is schema-first: the setup creates labels that have no table"
    try:
        writes = ir_writes(api.parse(scenario.query, "neo4j"))
    except GqlirError:
        return None
    if writes:
        return "Kuzu is schema-first: the query writes labels that have no table"
    return None


def _falkordb_compiles(engine: Any, text: str, params: dict[str, Any]) -> bool:
    """``GRAPH.EXPLAIN`` plans the query without running it."""
    return engine.explain(text, params)


ENGINE_PROFILES: dict[str, EngineProfile] = {
    "neo4j": EngineProfile(
        "neo4j",
        _open_neo4j,
        "compile time when EXPLAIN of the query fails too, else runtime, with the status "
        "code's type",
        explain="EXPLAIN ",
    ),
    "arcadedb": EngineProfile(
        "arcadedb",
        lambda _: _open("arcadedb"),
        "CommandParsingException compile time, CommandSemanticException unclassified, "
        "others runtime",
        forget_schema=_arcadedb_drop_types,
        labels=_arcadedb_labels,
    ),
    "grafeo": EngineProfile(
        "grafeo",
        _open_grafeo,
        "GRAFEO-Q001/Q002 compile time, other codes runtime",
        stops_queries=False,
    ),
    # Kuzu in a worker process: some TCK queries crash it (SIGSEGV), which must fail only them
    "kuzu": EngineProfile(
        "kuzu",
        lambda _: _open("kuzu", isolated=True),
        "Parser/Binder exception compile time, Runtime exception runtime",
        reset=None,
        reports_side_effects=False,
        not_runnable=_kuzu_not_runnable,
    ),
    # FalkorDB on a private server; between scenarios the graph key is deleted (GRAPH.DELETE),
    # which also forgets its indexes and constraints
    "falkordb": EngineProfile(
        "falkordb",
        lambda url: _open("falkordb", url=url) if url else _open("falkordb"),
        "compile time when GRAPH.EXPLAIN of the query fails too, else runtime",
        reset=None,
        forget_schema=lambda engine: engine.clear(),
        compiles=_falkordb_compiles,
    ),
}


# -- answers in TCK terms ------------------------------------------------------------------------


def tck_value(v: Any, profile: EngineProfile) -> Any:
    """An engine's canonical value as the evaluator's (what the TCK comparison reads)."""
    from decimal import Decimal

    from ..eval.graph import Node, Relationship
    from ..eval.values import Path

    if isinstance(v, NodeValue):
        labels = profile.labels(v.labels)
        return Node(v.id, dict.fromkeys(labels), tck_value(dict(v.properties), profile))  # type: ignore[arg-type]
    if isinstance(v, EdgeValue):
        props = tck_value(dict(v.properties), profile)
        return Relationship(v.id, v.type, v.source, v.target, props)  # type: ignore[arg-type]
    if isinstance(v, PathValue):
        return Path(
            tuple(tck_value(n, profile) for n in v.nodes),
            tuple(tck_value(e, profile) for e in v.edges),
        )
    if isinstance(v, Decimal):
        return int(v) if v == v.to_integral_value() else float(v)
    if isinstance(v, (list, tuple)):
        return [tck_value(x, profile) for x in v]
    if isinstance(v, dict):
        return {str(k): tck_value(x, profile) for k, x in v.items()}
    return v


def tck_table(table: Any, profile: EngineProfile) -> Any:
    """A ResultTable as an evaluator Result."""
    from ..eval.result import Result

    rows = [tuple(tck_value(v, profile) for v in row) for row in table.rows]
    return Result(list(table.columns), rows, table.ordered)


def snapshot(read: Callable[[str], Any], profile: EngineProfile) -> Any:
    """The graph's state (element ids, labels in use, property triples) read through the
    engine."""
    from ..engines.base import canonical_key
    from ..eval.graph import GraphState

    nodes = read("MATCH (n) RETURN n").rows
    rels = read("MATCH ()-[r]->() RETURN r").rows
    props = {("n", n.id, k, canonical_key(v)) for (n,) in nodes for k, v in n.properties.items()}
    props |= {("r", r.id, k, canonical_key(v)) for (r,) in rels for k, v in r.properties.items()}
    return GraphState(
        frozenset(n.id for (n,) in nodes),
        frozenset(r.id for (r,) in rels),
        frozenset(label for (n,) in nodes for label in profile.labels(n.labels)),
        frozenset(props),
    )
