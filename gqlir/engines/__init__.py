"""Real engines behind one interface: load a SchemaGraph and a graph, run a query in the
engine's dialect (or translated into it through the IR) with parameters, a timeout, a row cap
and a read-only guarantee, and get a canonical :class:`ResultTable` back.

    from gqlir.engines import open_engine
    from gqlir.schema import load_schema

    with open_engine("kuzu") as kuzu:
        kuzu.load(load_schema("schemas/movies/schema.json"), "schemas/movies/graph")
        table = kuzu.run("MATCH (m:Movie) RETURN m.title AS t ORDER BY t LIMIT 3",
                         dialect="neo4j", timeout=5, read_only=True)

Adapters (one module each): :mod:`.reference`, :mod:`.grafeo`, :mod:`.arcadedb`, :mod:`.kuzu`,
:mod:`.falkordb`, :mod:`.sqlite`, :mod:`.duckdb`, :mod:`.postgres`, :mod:`.bolt` (Neo4j, TuGraph),
:mod:`.spanner`. Shared parts: :mod:`.base` (interface, values, result table), :mod:`.safety`
(read-only), :mod:`.timeouts`, :mod:`.worker`, :mod:`.loading`, :mod:`.registry`.
docs/engines.md lists what each engine supports and every quirk found.
"""

from __future__ import annotations

from .base import (
    BaseEngine,
    EdgeValue,
    Engine,
    NodeValue,
    PathValue,
    ResultTable,
    canonical_key,
)
from .registry import EMBEDDED, default_engine, engine_names, open_engine

__all__ = [
    "EMBEDDED",
    "BaseEngine",
    "EdgeValue",
    "Engine",
    "NodeValue",
    "PathValue",
    "ResultTable",
    "canonical_key",
    "default_engine",
    "engine_names",
    "open_engine",
]
