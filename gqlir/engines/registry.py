"""Engine names, how to open them, and the default embedded engine of each dialect.

Running a query needs no setup: :func:`default_engine` names an embedded engine for every
dialect (grafeo for Cypher, ISO GQL and SQL/PGQ, Kuzu for its own Cypher, SQLite for SQL), and
:func:`open_engine` opens any engine by name with its options (URLs and credentials are
options or environment variables, never built in).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from ..errors import EngineError

if TYPE_CHECKING:
    from .base import Engine

__all__ = ["EMBEDDED", "LOCAL", "SELF_BOUNDED", "default_engine", "engine_names", "open_engine"]

#: name -> (module, class, fixed options)
_ENGINES: dict[str, tuple[str, str, dict[str, Any]]] = {
    "reference": ("gqlir.engines.reference", "ReferenceEngine", {}),
    "grafeo": ("gqlir.engines.grafeo", "GrafeoEngine", {}),
    "arcadedb": ("gqlir.engines.arcadedb", "ArcadeDBEngine", {}),
    "kuzu": ("gqlir.engines.kuzu", "KuzuEngine", {}),
    "falkordb": ("gqlir.engines.falkordb", "FalkorDBEngine", {}),
    "sqlite": ("gqlir.engines.sqlite", "SQLiteEngine", {}),
    "duckdb": ("gqlir.engines.duckdb", "DuckDBEngine", {}),
    "postgres": ("gqlir.engines.postgres", "PostgresEngine", {}),
    "neo4j": ("gqlir.engines.bolt", "BoltEngine", {"flavour": "neo4j"}),
    "tugraph": ("gqlir.engines.bolt", "BoltEngine", {"flavour": "tugraph"}),
    "spanner": ("gqlir.engines.spanner", "SpannerEngine", {}),
}

#: engines that run in (or beside) this process and need no server
EMBEDDED = frozenset({"reference", "grafeo", "arcadedb", "kuzu", "sqlite", "duckdb", "falkordb"})

#: engines that gqlir starts as a server of their own, which bounds each query's time and memory
#: itself (a budget is the server's setting, not a worker process's)
SELF_BOUNDED = frozenset({"falkordb"})

#: engines whose client does the work on this machine: run in a worker process when a timeout
#: or memory budget must hold (a server's own settings bound the others)
LOCAL = (EMBEDDED - SELF_BOUNDED) | {"postgres"}

#: the class a worker process hosts where it is not the registered one (which is itself a
#: worker process)
_HOSTED = {"grafeo": "GrafeoCore"}

_DEFAULT_BY_DIALECT = {"kuzu": "kuzu"}
_DEFAULT_BY_FAMILY = {"cypher": "grafeo", "gql": "grafeo", "sql": "sqlite"}


def engine_names() -> list[str]:
    return sorted(_ENGINES)


def default_engine(dialect: str) -> str:
    """The embedded engine that runs ``dialect`` text with no setup (natively, or through a
    translation into one of its dialects)."""
    from ..dialect import get_dialect

    d = get_dialect(dialect)
    if d.name in _DEFAULT_BY_DIALECT:
        return _DEFAULT_BY_DIALECT[d.name]
    if d.name == "sqlpgq":
        return "grafeo"
    return _DEFAULT_BY_FAMILY[d.family]


def open_engine(
    name: str, *, isolated: bool = False, max_memory: int | None = None, **options: Any
) -> Engine:
    """A new engine by name; ``options`` go to its constructor (``url``, ``user``, ``password``,
    ``database``, ``path`` … as the adapter takes them). ``isolated`` (implied by
    ``max_memory``, a budget in bytes) runs it in a worker process
    (:class:`~gqlir.engines.isolated.IsolatedEngine`): timeouts then hold whatever the query
    does, memory is bounded, and a crash of the engine is an error, not the end of the
    caller. An engine in ``SELF_BOUNDED`` is a server process of its own already: its budget
    goes to the server's settings."""
    entry = _ENGINES.get(name.lower())
    if entry is None:
        raise EngineError(
            f"unknown engine {name!r}; known engines: {', '.join(engine_names())}",
            code="ENGINE_UNKNOWN",
        )
    module, cls_name, fixed = entry
    if name.lower() in SELF_BOUNDED and not isolated:
        if max_memory is not None:
            options = {**options, "max_memory": max_memory}
    elif isolated or max_memory is not None:
        from .isolated import IsolatedEngine

        hosted = _HOSTED.get(name.lower(), cls_name)
        return IsolatedEngine(module, hosted, {**fixed, **options}, max_memory=max_memory)
    cls = getattr(import_module(module), cls_name)
    return cls(**fixed, **options)
