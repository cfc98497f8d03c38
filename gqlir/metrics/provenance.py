"""CypherBench's provenance-subgraph Jaccard similarity (PSJS), computed from the Graph-IR.

The provenance subgraph of a query is the set of graph elements its MATCH part binds. PSJS
compares the gold query's with the prediction's: |T ∩ P| / |T ∪ P|. CypherBench builds the
provenance query with regular expressions over Cypher text; here it is built from the IR, so it
works for every dialect gqlir reads and runs on every engine:

1. the query is split into its UNION branches (also those inside a leading ``CALL { … }``);
2. each branch keeps its leading reading part: MATCH / OPTIONAL MATCH steps and filters, and
   projections that only pass variables on (``WITH n, m`` / GQL ``RETURN n NEXT``), which are
   dropped so that every matched variable stays in scope; anything else ends the part;
3. anonymous node patterns (and relationship patterns, when edges count) get variables; a
   pattern with a quantified part gets a path variable, so the nodes inside variable-length
   paths count too (CypherBench misses them);
4. the branch returns its node variables (relationship variables, paths) as values, and the
   element ids the engine reports make up the set; edges are prefixed so they never collide
   with nodes.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import replace
from typing import Any

from .. import ir
from .sets import jaccard

__all__ = [
    "provenance_ids",
    "provenance_queries",
    "provenance_query_texts",
    "psjs",
]

_NODE_PREFIX = "_prov_n"
_EDGE_PREFIX = "_prov_e"
_PATH_PREFIX = "_prov_p"


def _branches(query: ir.Statement) -> list[ir.LinearQuery]:
    if isinstance(query, ir.SetOperation):
        return _branches(query.left) + _branches(query.right)
    if isinstance(query, ir.ConditionalQuery):
        out = [b for br in query.branches for b in _branches(br.query)]
        return out + (_branches(query.otherwise) if query.otherwise is not None else [])
    if isinstance(query, ir.LinearQuery):
        steps = [s for s in query.steps if not isinstance(s, ir.UseGraph)]
        if steps and isinstance(steps[0], ir.CallSubquery) and not steps[0].imports:
            return _branches(steps[0].query)
        return [query]
    return []


def _passes_variables_on(step: ir.Projection) -> bool:
    """A projection that keeps variables as they are (``WITH n, m``), without aggregation,
    paging or renaming: dropping it leaves the matched rows' elements unchanged."""
    if step.skip is not None or step.limit is not None or step.group_by:
        return False
    return all(
        isinstance(item.expr, ir.Variable) and item.alias in (None, item.expr.name)
        for item in step.items
    )


def _match_part(steps: Iterable[ir.Step]) -> list[ir.Step]:
    kept: list[ir.Step] = []
    for step in steps:
        if isinstance(step, (ir.Match, ir.Filter, ir.UseGraph)):
            kept.append(step)
        elif isinstance(step, ir.Projection) and _passes_variables_on(step):
            if step.where is not None:
                kept.append(ir.Filter(step.where))
        else:
            break
    return kept


class _Namer:
    """Gives anonymous elements fresh variables and records what the branch must return."""

    def __init__(self, edges: bool) -> None:
        self.edges = edges
        self.count = 0
        self.returned: dict[str, None] = {}  # ordered set of variable names

    def fresh(self, prefix: str) -> str:
        self.count += 1
        return f"{prefix}{self.count}"

    def node(self, node: ir.NodePattern) -> ir.NodePattern:
        name = node.variable
        if name is None:
            name = self.fresh(_NODE_PREFIX)
            node = replace(node, variable=name)
        self.returned[name] = None
        return node

    def rel(self, rel: ir.RelPattern) -> ir.RelPattern:
        if not self.edges:
            return rel
        name = rel.variable
        if name is None:
            name = self.fresh(_EDGE_PREFIX)
            rel = replace(rel, variable=name)
        self.returned[name] = None
        return rel

    def chain(self, chain: ir.PathChain) -> ir.PathChain:
        out: list[Any] = []
        for el in chain.elements:
            if isinstance(el, ir.NodePattern):
                out.append(self.node(el))
            elif isinstance(el, ir.RelPattern):
                out.append(self.rel(el))
            else:
                out.append(replace(el, path=self.path(el.path)))
        return replace(chain, elements=tuple(out))

    def path(self, path: ir.PathChain | ir.PathUnion) -> ir.PathChain | ir.PathUnion:
        if isinstance(path, ir.PathUnion):
            return replace(path, alternatives=tuple(self.chain(c) for c in path.alternatives))
        return self.chain(path)

    def pattern(self, pattern: ir.PathPattern) -> ir.PathPattern:
        named = replace(pattern, path=self.path(pattern.path))
        if _has_quantified_part(pattern):
            variable = pattern.variable or self.fresh(_PATH_PREFIX)
            named = replace(named, variable=variable)
            self.returned[variable] = None
        return named


def _has_quantified_part(pattern: ir.PathPattern) -> bool:
    for node in pattern.walk():
        if isinstance(node, ir.RelPattern) and node.quantifier is not None:
            return True
        if isinstance(node, ir.ParenPath):
            return True
    return False


def provenance_queries(query: ir.Statement, *, edges: bool = False) -> list[ir.LinearQuery]:
    """The provenance queries of ``query`` (one per UNION branch that has a MATCH), as IR; a
    statement that is no query (``CREATE INDEX``) has none."""
    out = []
    for branch in _branches(query):
        part = _match_part(branch.steps)
        if not any(isinstance(s, ir.Match) for s in part):
            continue
        namer = _Namer(edges)
        steps: list[ir.Step] = []
        for step in part:
            if isinstance(step, ir.Match):
                step = replace(step, patterns=tuple(namer.pattern(p) for p in step.patterns))
            steps.append(step)
        items = tuple(ir.ReturnItem(ir.Variable(v), v) for v in namer.returned)
        steps.append(ir.Projection(items=items, distinct=True))
        out.append(ir.LinearQuery(tuple(steps)))
    return out


def provenance_query_texts(text: str, dialect: str, *, edges: bool = False) -> list[str]:
    """The provenance queries of ``text`` as text of the same ``dialect`` (raises the
    ``ParseError`` of an unreadable query)."""
    from ..api import emit, parse

    return [emit(q, dialect) for q in provenance_queries(parse(text, dialect), edges=edges)]


def _element_ids(value: Any) -> Iterator[str]:
    from ..engines.base import EdgeValue, NodeValue, PathValue

    if isinstance(value, NodeValue):
        yield f"n:{value.id}"
    elif isinstance(value, EdgeValue):
        yield f"e:{value.id}"
    elif isinstance(value, PathValue):
        for n in value.nodes:
            yield f"n:{n.id}"
        for e in value.edges:
            yield f"e:{e.id}"
    elif isinstance(value, (list, tuple)):
        for x in value:
            yield from _element_ids(x)


def provenance_ids(
    engine: Any,
    text: str,
    dialect: str | None = None,
    *,
    edges: bool = False,
    timeout: float | None = None,
    row_cap: int | None = None,
) -> set[str]:
    """The provenance set of ``text`` on ``engine`` (an opened engine with the graph loaded):
    ``n:<id>`` for nodes and, with ``edges``, ``e:<id>`` for relationships. Runs read-only."""
    source = dialect or engine.dialects[0]
    ids: set[str] = set()
    for q in provenance_query_texts(text, source, edges=edges):
        table = engine.run(q, dialect=source, timeout=timeout, row_cap=row_cap, read_only=True)
        for row in table.rows:
            for value in row:
                for element in _element_ids(value):
                    if edges or element.startswith("n:"):
                        ids.add(element)
    return ids


def psjs(gold_ids: set[str], pred_ids: set[str], *, both_empty: float = 0.0) -> float:
    """PSJS of two provenance sets: |T ∩ P| / |T ∪ P|; ``both_empty`` (CypherBench: 0.0) when
    neither query matches anything."""
    return jaccard(pred_ids, gold_ids, both_empty=both_empty)
