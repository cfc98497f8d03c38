"""Running candidate queries: on the reference evaluator straight from the IR (no text round
trip, no write bookkeeping: every template reads), or on any engine through its own dialect.
Both answer with the engines' canonical :class:`~gqlir.engines.base.ResultTable`."""

from __future__ import annotations

from typing import Any, Protocol

from .. import ir
from ..errors import EngineError, GqlirError
from ..schema.model import SchemaGraph


class Executor(Protocol):
    name: str

    def run(self, query: ir.Query, timeout: float, row_cap: int) -> Any: ...

    def close(self) -> None: ...


class ReferenceExecutor:
    """The reference evaluator on a loaded :class:`~gqlir.engines.reference.ReferenceEngine`'s
    graph. ``ReferenceEngine.run`` snapshots the whole graph before and after each query to
    report side effects; for read-only templates that costs more than the query, so the
    evaluator is called directly with the engine's own deadline mechanism."""

    name = "reference"

    def __init__(self, engine: Any) -> None:
        self.engine = engine

    def run(self, query: ir.Statement, timeout: float, row_cap: int, dialect: str = "neo4j") -> Any:
        """The query's table, evaluated with ``dialect``'s meanings (its capabilities)."""
        from ..dialect import get_dialect
        from ..engines.base import ResultTable, take
        from ..engines.reference import canonical
        from ..engines.safety import ir_ordered
        from ..engines.timeouts import DeadlineExceeded, call_with_deadline
        from ..eval.check import check
        from ..eval.runtime import Runtime
        from ..eval.session import run_statement

        def work() -> Any:
            check(query)
            rt = Runtime(self.engine.graph, {}, get_dialect(dialect).capabilities)
            return run_statement(rt, query)

        try:
            columns, rows, _ = call_with_deadline(work, timeout)
        except DeadlineExceeded:
            raise EngineError(f"reference: stopped after {timeout:g} s", code="TIMEOUT") from None
        except GqlirError as exc:
            raise EngineError(f"reference: {exc.message}") from None
        except RecursionError:
            raise EngineError("reference: the query walks too deep") from None
        kept, truncated = take(rows, row_cap)
        table = ResultTable(
            list(columns),
            [tuple(canonical(r[c]) for c in columns) for r in kept],
            truncated=truncated,
        )
        table.ordered = ir_ordered(query)
        return table

    def run_text(self, text: str, dialect: str, timeout: float, row_cap: int) -> Any:
        """``text`` as gqlir's grammar for ``dialect`` reads it, evaluated with that dialect's
        meanings."""
        from ..api import parse

        try:
            query = parse(text, dialect)
        except GqlirError as exc:
            raise EngineError(f"reference: {exc.message}", engine_code=exc.code) from None
        return self.run(query, timeout, row_cap, dialect)

    def close(self) -> None:
        self.engine.close()


class EngineExecutor:
    """Any engine: the query is written in the engine's first dialect and run as text."""

    def __init__(self, engine: Any, schema: SchemaGraph) -> None:
        self.engine = engine
        self.schema = schema
        self.name = engine.name

    def run(self, query: ir.Query, timeout: float, row_cap: int) -> Any:
        from ..api import emit

        dialect = self.engine.dialects[0]
        text = emit(query, dialect, schema=self.schema)
        return self.engine.run(text, dialect=dialect, timeout=timeout, row_cap=row_cap)

    def close(self) -> None:
        self.engine.close()


def open_reference(schema: SchemaGraph, graph: str) -> ReferenceExecutor:
    """The reference evaluator with the graph loaded."""
    from ..engines.reference import ReferenceEngine

    engine = ReferenceEngine()
    engine.load(schema, graph)
    return ReferenceExecutor(engine)


def open_executor(name: str, schema: SchemaGraph, graph: str) -> Executor:
    """An engine by name (:func:`gqlir.engines.open_engine`) with the graph loaded."""
    from ..engines import open_engine

    engine = open_engine(name)
    try:
        engine.load(schema, graph)
    except BaseException:
        engine.close()
        raise
    if name == "reference":
        return ReferenceExecutor(engine)
    return EngineExecutor(engine, schema)
