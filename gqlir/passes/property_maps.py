"""Property maps of more keys than the target's MATCH takes, written as equalities in its WHERE.

Rule: an element's property map ``(n {a: 1, b: 2})`` means ``n.a = 1 AND n.b = 2`` (openCypher 9,
property maps in patterns are equality predicates; a null value matches nothing either way).
TuGraph-DB's GQL planner takes one key per map and one predicate per element
(``dialects/tugraph-gql.toml`` ``max_property_map_keys``), so the first keys stay in the map and
the others become conjuncts of the MATCH's WHERE, which keeps the rows. An unnamed element gets a
fresh name, unless a ``*`` projection would return it; an element under a quantifier (its map
holds for every repetition) is refused.

Capability read: ``max_property_map_keys``.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cached_property
from typing import Any, cast

from ..dialect import Dialect
from ..errors import UnsupportedError
from ..ir import expr as e
from ..ir import pattern as p
from ..ir import query as q
from ..ir.node import Node
from .fresh import FreshNames

__all__ = ["applies", "lower_property_maps"]


def applies(target: Dialect) -> bool:
    """Whether the target limits the keys of a property map in MATCH."""
    return target.capabilities.max_property_map_keys > 0


def lower_property_maps(root: Node, target: Dialect) -> Node:
    """``root`` with each MATCH's oversized property maps cut to the target's limit, the rest
    moved to the MATCH's WHERE (or refused)."""
    if not applies(target):
        return root
    limit = target.capabilities.max_property_map_keys
    elements, literal = (p.NodePattern, p.RelPattern), e.MapLiteral
    if not any(
        type(x) in elements
        and type(x.properties) is literal  # type: ignore[attr-defined]
        and len(x.properties.entries) > limit  # type: ignore[attr-defined]
        for x in root.walk()
    ):
        return root  # (no map over the limit: nothing to cut)
    return _Lowering(root, target).run()


class _Lowering:
    def __init__(self, root: Node, target: Dialect) -> None:
        self.root = root
        self.target = target
        self.limit = target.capabilities.max_property_map_keys
        self.names = FreshNames(root, "_m")

    @cached_property
    def star(self) -> bool:
        """Whether a ``*`` projection would return a fresh element name as a column."""
        return any(x.star for x in self.root.find_all(q.Projection))

    def run(self) -> Node:
        if isinstance(self.root, q.Match):
            return self.match(self.root)
        return self.root.transform(lambda n: self.match(n) if isinstance(n, q.Match) else n)

    def fresh(self, at: Node) -> str:
        if self.star:
            raise self.refuse(at, "name the element, or return named columns instead of *")
        return self.names()

    def refuse(self, at: Node, rewrite: str) -> UnsupportedError:
        return UnsupportedError(
            f"property map of more than {self.limit} key(s)",
            self.target.name,
            None,
            rewrite=rewrite,
            offset=at.pos,
        )

    def match(self, step: q.Match) -> q.Match:
        moved: list[e.Expr] = []
        patterns = tuple(self.pattern(x, moved) for x in step.patterns)
        if not moved:
            return step
        where = step.where
        for cond in moved:
            where = cond if where is None else e.And(where, cond)
        return replace(step, patterns=patterns, where=where)

    def pattern(self, pattern: p.PathPattern, moved: list[e.Expr]) -> p.PathPattern:
        path = self.path(pattern.path, moved, quantified=False)
        return pattern if path is pattern.path else replace(pattern, path=cast(Any, path))

    def path(self, path: Node, moved: list[e.Expr], *, quantified: bool) -> Node:
        if isinstance(path, p.PathUnion):
            alts = tuple(self.path(a, moved, quantified=quantified) for a in path.alternatives)
            return replace(path, alternatives=cast(Any, alts))
        if isinstance(path, p.ParenPath):
            inner = self.path(path.path, moved, quantified=quantified or bool(path.quantifier))
            return replace(path, path=cast(Any, inner))
        assert isinstance(path, p.PathChain)
        elements = tuple(self.element(x, moved, quantified=quantified) for x in path.elements)
        return replace(path, elements=cast(Any, elements))

    def element(self, element: Node, moved: list[e.Expr], *, quantified: bool) -> Node:
        if isinstance(element, p.ParenPath):
            return self.path(element, moved, quantified=quantified)
        if not isinstance(element, (p.NodePattern, p.RelPattern)):
            return element
        props = element.properties
        if not isinstance(props, e.MapLiteral) or len(props.entries) <= self.limit:
            return element
        if quantified or (isinstance(element, p.RelPattern) and element.quantifier):
            raise self.refuse(element, "write the conditions in a WHERE on each repetition")
        name = element.variable or self.fresh(element)
        keep, rest = props.entries[: self.limit], props.entries[self.limit :]
        for key, value in rest:
            moved.append(e.Comparison(e.CompOp.EQ, e.Property(e.Variable(name), key), value))
        return replace(element, variable=name, properties=replace(props, entries=keep))
