"""The reference evaluator (:mod:`gqlir.eval`) behind the engine interface: the oracle the
differential suite compares every engine with, and ``gqlir run --engine reference``.

* **dialects**: every Cypher and GQL dialect gqlir reads; the dialect's capabilities decide the
  meanings that differ between dialects (the evaluator never assumes one);
* **load**: property values are typed by the schema (dates, instants … as the evaluator's
  temporal values, decimals as floats), as a database would store them;
* **writes are atomic**: a query that writes runs on a copy of the graph that replaces the graph
  only when the query succeeds (the evaluator itself has no transactions);
* **read-only**: the IR check, then the query runs inside ``START TRANSACTION READ ONLY`` so the
  evaluator refuses any write it meets;
* **timeout**: the evaluation runs in a worker thread that receives an exception at the
  deadline (pure Python: delivered at the next bytecode).
"""

from __future__ import annotations

from typing import Any, ClassVar

from .. import ir
from ..errors import EngineError, EvaluationError, GqlirError
from ..eval import Graph, Node, Path, Relationship, evaluate
from .base import BaseEngine, EdgeValue, NodeValue, PathValue, Prepared, ResultTable, take
from .timeouts import DeadlineExceeded, call_with_deadline

__all__ = ["ReferenceEngine", "canonical"]


def canonical(v: Any) -> Any:
    """An evaluator value as a canonical engine value (temporal values already are)."""
    if isinstance(v, Node):
        props = {k: canonical(x) for k, x in v.properties.items()}
        return NodeValue(str(v.id), tuple(v.labels), props)
    if isinstance(v, Relationship):
        return EdgeValue(
            str(v.id),
            v.type,
            str(v.start),
            str(v.end),
            {k: canonical(x) for k, x in v.properties.items()},
        )
    if isinstance(v, Path):
        return PathValue(
            tuple(canonical(n) for n in v.nodes), tuple(canonical(r) for r in v.relationships)
        )
    if isinstance(v, list):
        return [canonical(x) for x in v]
    if isinstance(v, dict):
        return {k: canonical(x) for k, x in v.items()}
    return v


class ReferenceEngine(BaseEngine):
    """An in-memory graph and the reference evaluator."""

    name: ClassVar[str] = "reference"
    dialects: ClassVar[tuple[str, ...]] = (
        "neo4j",
        "opencypher9",
        "tugraph-cypher",
        "kuzu",
        "iso-gql",
        "spanner",
        "tugraph-gql",
    )
    enforces_read_only: ClassVar[bool] = True

    def __init__(self, graph: Graph | None = None) -> None:
        self.graph = graph if graph is not None else Graph()

    def _load(self, schema: Any, directory: str) -> dict[str, int]:
        """Add the graph in ``directory`` (typed by ``schema``, a SchemaGraph or None)."""
        from ..schema.graphdata import iter_edges, iter_nodes
        from .loading import reference_value

        ids: dict[Any, int] = {}
        counts: dict[str, int] = {}
        for _, node in iter_nodes(directory, schema):
            nt = schema.node(node.labels[0]) if schema is not None else None
            types = {p.name: p.type for p in nt.properties} if nt is not None else {}
            props = {k: reference_value(v, types.get(k)) for k, v in node.properties.items()}
            ids[node.id] = self.graph.create_node(node.labels, props).id
            counts[node.labels[0]] = counts.get(node.labels[0], 0) + 1
        for _, edge in iter_edges(directory, schema):
            et = schema.edge(edge.type) if schema is not None else None
            types = {p.name: p.type for p in et.properties} if et is not None else {}
            props = {k: reference_value(v, types.get(k)) for k, v in edge.properties.items()}
            try:
                self.graph.create_relationship(edge.type, ids[edge.source], ids[edge.target], props)
            except KeyError as exc:
                raise EngineError(
                    f"reference: edge {edge.type} refers to an unknown node {exc.args[0]!r}",
                    code="GRAPH_LOAD",
                ) from None
            counts[edge.type] = counts.get(edge.type, 0) + 1
        return counts

    def check_read_only(self, prepared: Prepared) -> None:
        """gqlir's parser is this engine's: a text it cannot read fails with the parse error,
        as the engine would."""
        if prepared.statement is None:
            from ..api import parse

            parse(prepared.text, prepared.dialect)
        super().check_read_only(prepared)

    def _execute(
        self,
        prepared: Prepared,
        parameters: dict[str, Any],
        timeout: float | None,
        row_cap: int | None,
        read_only: bool,
    ) -> ResultTable:
        statement = prepared.statement
        if statement is None:
            from ..api import parse

            statement = parse(prepared.text, prepared.dialect)
        writes = bool(prepared.writes)
        if read_only:
            statement = ir.Program((ir.StartTransaction(read_only=True), statement))
        graph = self.graph.copy() if writes and not read_only else self.graph

        def work() -> Any:
            return evaluate(statement, graph, parameters, dialect=prepared.dialect)

        try:
            result = call_with_deadline(work, timeout)
        except DeadlineExceeded:
            raise EngineError(
                f"reference: the query was stopped after the timeout of {timeout:g} s",
                code="TIMEOUT",
            ) from None
        except EvaluationError as exc:
            code = "READ_ONLY" if exc.category == "TransactionError" else "ENGINE"
            raise EngineError(
                f"reference: {exc.message}", code=code, engine_code=exc.category
            ) from None
        except GqlirError as exc:
            raise EngineError(f"reference: {exc.message}", engine_code=exc.code) from None
        except RecursionError:
            # the evaluator walks paths recursively: about 300 hops deep at most
            raise EngineError(
                "reference: the query nests or walks too deep for the evaluator",
                engine_code="RecursionError",
            ) from None
        if graph is not self.graph:
            self.graph = graph
        rows, truncated = take(result.rows, row_cap)
        return ResultTable(
            list(result.columns),
            [tuple(canonical(v) for v in row) for row in rows],
            truncated=truncated,
        )


def reference_graph(directory: str, schema: Any) -> Any:
    """The graph in ``directory`` as the reference evaluator's graph, values typed by ``schema``
    as a graph database holds them (dates and instants as temporal values, decimals as floats):
    the reference engine's loading."""
    engine = ReferenceEngine()
    engine.load(schema, directory)
    return engine.graph
