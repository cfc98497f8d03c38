"""Cypher's ``type(r)`` where the MATCH that binds ``r`` names its possible types, for a target
without ``type()``.

ISO GQL has no function giving an edge's label (GQL.g4 20.9-20.29; dialects/iso-gql.toml), nor
do TuGraph's GQL and Spanner (dialects/tugraph-gql.toml, spanner.toml ``unsupported_functions``);
all three test a label with ``IS LABELED`` (GQL.g4 ``labeledPredicate``; Spanner Graph
graph-predicates.md, IS LABELED). A relationship matched by ``-[r:T1|T2]->`` has exactly one
type (Neo4j Cypher manual, "type() returns the STRING representation of the relationship type"),
one of those named, so ``type(r)`` is ``CASE WHEN r:T1 THEN 'T1' WHEN r:T2 THEN 'T2' END``:
null for a null ``r`` (an OPTIONAL MATCH that did not match), as ``type(null)``. ``r`` is
followed through the steps of its linear query (kept by ``WITH r`` or ``WITH *``); a name some
inner scope binds again, a variable-length relationship (a list) and a type expression other
than a list of alternatives stay refused.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from ..dialect import Dialect
from ..ir import expr as e
from ..ir import pattern as p
from ..ir import query as q
from ..ir.analysis import OPAQUE, names_in
from ..ir.node import Node

__all__ = ["applies", "lower_relationship_types"]

#: steps after which the variables in scope are the ones before (and a MATCH's own)
_KEEPING = (q.Match, q.Filter, q.SetClause, q.Remove, q.Delete)


def applies(target: Dialect) -> bool:
    """A target without ``type()``."""
    return "type" in target.capabilities.unsupported_functions


def lower_relationship_types(root: Node, target: Dialect) -> Node:
    """``root`` with each ``type(r)`` of a relationship whose types are known as a CASE."""
    if not applies(target):
        return root
    unknown = _rebound(root)

    def linear(node: Node) -> Node:
        if not isinstance(node, q.LinearQuery):
            return node
        known: dict[str, tuple[str, ...]] = {}
        steps: list[q.Step] = []
        for step in node.steps:
            if isinstance(step, q.Match):
                known = {**_declared(step), **known}  # the first declaration is a superset
            hidden = set(unknown)
            if isinstance(step, q.Projection):  # its ORDER BY may read an alias of that name
                hidden |= {
                    i.alias
                    for i in step.items
                    if i.alias is not None and i.expr != e.Variable(i.alias)
                }
            here = {k: v for k, v in known.items() if k not in hidden}
            steps.append(step.transform(_rewriter(here)))  # type: ignore[arg-type]
            known = _after(step, known)
        new = tuple(steps)
        if all(a is b for a, b in zip(new, node.steps, strict=True)):
            return node
        return replace(node, steps=new)

    return root.transform(linear)


def _rewriter(known: dict[str, tuple[str, ...]]) -> Callable[[Node], Node]:
    return lambda node: _rewrite(node, known)


def _rewrite(node: Node, known: dict[str, tuple[str, ...]]) -> Node:
    if not isinstance(node, e.FunctionCall) or node.name != "type" or len(node.args) != 1:
        return node
    (arg,) = node.args
    if not isinstance(arg, e.Variable) or arg.name not in known:
        return node
    whens = tuple(
        e.CaseWhen(e.HasLabels(arg, p.Label(t), pos=node.pos), e.String(t)) for t in known[arg.name]
    )
    return e.Case(None, whens, None, pos=node.pos)


def _declared(step: q.Match) -> dict[str, tuple[str, ...]]:
    """Relationship variables of ``step`` with the types their pattern allows."""
    found: dict[str, tuple[str, ...]] = {}
    for pattern in step.patterns:
        for x in pattern.walk():
            if not isinstance(x, p.RelPattern) or x.variable is None or x.quantifier is not None:
                continue
            types = _alternatives(x.types)
            if types and x.variable not in found:
                found[x.variable] = types
    return found


def _alternatives(types: p.LabelExpr | None) -> tuple[str, ...]:
    """``T1|T2|…`` as its names; anything else (none, &, !, %) as nothing."""
    if isinstance(types, p.Label):
        return (types.name,)
    if isinstance(types, p.LabelOr):
        left, right = _alternatives(types.left), _alternatives(types.right)
        return (*left, *(t for t in right if t not in left)) if left and right else ()
    return ()


def _after(step: q.Step, known: dict[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
    if isinstance(step, _KEEPING):
        return known
    if isinstance(step, q.Projection):
        out = dict(known) if step.star else {}
        for item in step.items:
            if isinstance(item.expr, e.Variable) and item.expr.name in known:
                out[item.alias or item.expr.name] = known[item.expr.name]
            elif item.alias is not None:
                out.pop(item.alias, None)
        return out
    if isinstance(step, q.Unwind):
        out = dict(known)
        out.pop(step.variable, None)
        if step.index is not None:
            out.pop(step.index, None)
        return out
    return {}


def _rebound(root: Node) -> set[str]:
    """Names an inner scope binds (a comprehension's, a predicate's, reduce()'s, or any name
    inside a subquery or pattern comprehension)."""
    found: set[str] = set()
    for node in root.walk():
        if isinstance(node, (e.ListComprehension, e.ListPredicate)):
            found.add(node.variable)
        elif isinstance(node, e.Reduce):
            found |= {node.variable, node.accumulator}
        elif isinstance(node, OPAQUE):
            found |= names_in(node)
    return found
