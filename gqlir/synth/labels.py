"""Labels of an instantiated query, read from its IR: difficulty and CypherBench categories
(:mod:`gqlir.metrics.difficulty`), the operators it uses, its hop count, and a canonical form
under which two instantiations are the same question."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from .. import ir
from ..metrics.difficulty import classify


def operators(query: ir.Node) -> list[str]:
    """The operators and constructs a query uses, by name."""
    found: set[str] = set()
    for n in query.walk():
        if isinstance(n, (ir.Comparison, ir.StringMatch)):
            found.add(n.op.value)
        elif isinstance(n, ir.Aggregate):
            found.add(f"{n.name}{' DISTINCT' if n.distinct else ''}")
        elif isinstance(n, ir.CountStar):
            found.add("count(*)")
        elif isinstance(n, ir.Arithmetic):
            found.add(n.op.value)
        elif isinstance(n, ir.IsNull):
            found.add("IS NOT NULL" if n.negated else "IS NULL")
        elif isinstance(n, ir.Not):
            found.add("NOT")
        elif isinstance(n, ir.Or):
            found.add("OR")
        elif isinstance(n, ir.Exists):
            found.add("EXISTS")
        elif isinstance(n, ir.CountSubquery):
            found.add("COUNT {}")
        elif isinstance(n, ir.Case):
            found.add("CASE")
        elif isinstance(n, ir.SetOperation):
            found.add(n.op.value + (" ALL" if n.all else ""))
        elif isinstance(n, ir.Match) and n.optional:
            found.add("OPTIONAL MATCH")
        elif isinstance(n, ir.CallSubquery):
            found.add("CALL {}")
        elif isinstance(n, ir.Search):
            found.add("SHORTEST")
        elif isinstance(n, (ir.Quantifier, ir.ParenPath)):
            found.add("quantifier")
        elif isinstance(n, ir.Projection):
            if n.order_by:
                found.add("ORDER BY")
            if n.limit is not None:
                found.add("LIMIT")
            if n.distinct:
                found.add("DISTINCT")
    return sorted(found)


def hop_count(query: ir.Node) -> int:
    """The most relationships one path pattern walks (a quantified one counts its upper
    bound)."""
    most = 0
    for pattern in query.find_all(ir.PathPattern):
        hops = 0
        for n in pattern.walk():
            if isinstance(n, ir.RelPattern):
                q = n.quantifier
                hops += 1 if q is None else (q.upper or q.lower)
            elif isinstance(n, ir.ParenPath) and n.quantifier is not None:
                hops += (n.quantifier.upper or n.quantifier.lower) - 1
        most = max(most, hops)
    return most


def canonical_form(query: ir.Node) -> str:
    """The IR of ``query`` with its variables renamed in order of appearance, as text: equal
    for queries that differ only in variable names."""
    names: dict[str, str] = {}

    def name(old: str | None) -> str | None:
        if old is None:
            return None
        if old not in names:
            names[old] = f"v{len(names)}"
        return names[old]

    for n in query.walk():
        if isinstance(n, (ir.NodePattern, ir.RelPattern, ir.PathPattern)):
            name(n.variable)

    def rename(n: ir.Node) -> ir.Node:
        if isinstance(n, (ir.NodePattern, ir.RelPattern, ir.PathPattern)) and n.variable:
            return replace(n, variable=names.get(n.variable, n.variable))
        if isinstance(n, ir.Variable) and n.name in names:
            return ir.Variable(names[n.name])
        return n

    return repr(query.transform(rename))


def labels(query: ir.Query) -> dict[str, Any]:
    c = classify(query)
    return {
        "difficulty": c.level,
        "difficulty_reasons": list(c.reasons),
        "match_category": c.match_category,
        "return_category": c.return_category,
        "operators": operators(query),
        "hops": hop_count(query),
    }
