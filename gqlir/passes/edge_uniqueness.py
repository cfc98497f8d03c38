"""Cypher's relationship uniqueness on a target with no match mode keywords.

Rule: a Cypher ``MATCH`` never binds one relationship twice (openCypher 9, 1.2.4 "Uniqueness":
relationship isomorphism; the IR's ``MatchMode.DIFFERENT_EDGES``). A GQL target that writes
match modes says ``DIFFERENT EDGES`` and needs no rewrite. Spanner Graph has no match mode
keywords and repeats edges unless told ("When uniqueness is desired in Spanner Graph, use TRAIL
mode", https://cloud.google.com/spanner/docs/graph/opencypher-reference; ``dialects/spanner.toml``
``match_modes = false``, ``default_match_mode = REPEATABLE_ELEMENTS``). So where uniqueness can
change the rows, the MATCH becomes one of the target's repeatable-elements MATCH with:

* ``TRAIL`` on its one path pattern with relationships (TRAIL is per path), or nothing for a
  shortest search over one quantified relationship (a shortest walk never repeats an edge);
* ``ALL_DIFFERENT(r1, r2, …)`` in its WHERE when its relationships are fixed-length ones spread
  over several path patterns (an unnamed one gets a fresh name, unless a later ``*`` projection
  would return it);
* a refusal otherwise (variable-length relationships in several path patterns, a MATCH written
  ``REPEATABLE ELEMENTS``, which such a target cannot ask for on its own terms).

Capabilities read: ``match_modes``, ``default_match_mode``, ``match_mode_implicit``,
``path_modes`` (TRAIL), ``element_predicates`` (ALL_DIFFERENT).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from ..dialect import Dialect
from ..errors import UnsupportedError
from ..ir import expr as e
from ..ir import pattern as p
from ..ir import predicates as pr
from ..ir import query as q
from ..ir.node import Node
from .fresh import FreshNames

__all__ = [
    "applies",
    "lower_edge_uniqueness",
    "needed",
    "relationships_may_repeat",
    "uniqueness_matters",
]

#: Path modes and searches under which one path never repeats an edge anyway (a shortest
#: walk is a trail: dropping a repeated edge would make it shorter).
_EDGE_UNIQUE_MODES = frozenset({p.PathMode.TRAIL, p.PathMode.SIMPLE, p.PathMode.ACYCLIC})
_EDGE_UNIQUE_SEARCHES = frozenset({p.SearchKind.ANY_SHORTEST, p.SearchKind.ALL_SHORTEST})


def applies(target: Dialect) -> bool:
    """Whether the target cannot say ``DIFFERENT EDGES`` in words."""
    return not target.capabilities.match_modes


def needed(summary: Any, target: Dialect, typed: bool = False) -> bool:
    """Whether a query (its pipeline ``summary``) holds a MATCH of relationships this pass may
    rewrite for ``target``: one whose mode is not the target's own, or any where the target
    does not leave its own mode unwritten."""
    if p.RelPattern not in summary.kinds:
        return False
    caps = target.capabilities
    if not caps.match_mode_implicit:
        return True
    return any(mode.name != caps.default_match_mode for mode in summary.match_modes)


def uniqueness_matters(step: q.Match) -> bool:
    """Whether edge uniqueness can change the rows of ``step``: two relationships, or one that
    repeats (unless the MATCH is one path whose mode or search keeps its edges distinct)."""
    if _kept_by_path(step):
        return False
    # (asked of every MATCH the GQL printer writes: the path structure first, and the whole
    # walk only where a part holds an expression that may hold patterns of its own)
    rels = 0
    stack: list[Node] = [pattern.path for pattern in step.patterns]
    while stack:
        part = stack.pop()
        cls = type(part)
        if cls is p.PathChain:
            stack.extend(part.elements)  # type: ignore[attr-defined]
        elif cls is p.NodePattern:
            if not (_plain(part.where) and _plain(part.properties)):  # type: ignore[attr-defined]
                return _walked(step)
        elif cls is p.RelPattern:
            if part.quantifier is not None:  # type: ignore[attr-defined]
                return True
            if not (_plain(part.where) and _plain(part.properties) and _plain(part.cost)):  # type: ignore[attr-defined]
                return _walked(step)
            rels += 1
        elif cls is p.ParenPath and part.where is None:  # type: ignore[attr-defined]
            if part.quantifier is not None:  # type: ignore[attr-defined]
                return True
            stack.append(part.path)  # type: ignore[attr-defined]
        elif cls is p.PathUnion:
            stack.extend(part.alternatives)  # type: ignore[attr-defined]
        else:
            return _walked(step)
    return rels > 1


def _kept_by_path(step: q.Match) -> bool:
    """Whether the MATCH is one path whose mode or search keeps its edges distinct."""
    if len(step.patterns) != 1:
        return False
    (only,) = step.patterns
    return only.mode in _EDGE_UNIQUE_MODES or (
        only.search is not None and only.search.kind in _EDGE_UNIQUE_SEARCHES
    )


def _walked(step: q.Match) -> bool:
    """:func:`uniqueness_matters` counting every relationship pattern in the MATCH, those in
    its parts' expressions too."""
    parts = (x for pattern in step.patterns for x in pattern.walk())
    return relationships_may_repeat(parts, any_group=False)


def relationships_may_repeat(parts: Iterable[Node], *, any_group: bool) -> bool:
    """Whether ``parts`` (the nodes of a MATCH's patterns) hold two relationships, or one that
    repeats: a quantified one, or one in a quantified parenthesised path (in any parenthesised
    path with ``any_group``)."""
    rels = 0
    for inner in parts:
        if isinstance(inner, p.ParenPath) and (any_group or inner.quantifier is not None):
            return True
        if isinstance(inner, p.RelPattern):
            if inner.quantifier is not None:
                return True
            rels += 1
    return rels > 1


#: Expressions that hold no pattern: a pattern part's map or test made only of them is passed
#: over by :func:`uniqueness_matters`.
_LEAF_VALUES = frozenset(
    {type(None), e.Null, e.Boolean, e.Integer, e.Float, e.String, e.Parameter, e.Variable}
)


def _plain(value: Any) -> bool:
    cls = type(value)
    if cls in _LEAF_VALUES:
        return True
    if cls is e.Property:
        return type(value.subject) in _LEAF_VALUES
    if cls is e.MapLiteral:
        return all(_plain(v) for _, v in value.entries)
    return False


def lower_edge_uniqueness(root: Node, target: Dialect) -> Node:
    """``root`` with every MATCH whose edge uniqueness the target would not keep written with
    TRAIL or ALL_DIFFERENT under the target's own match mode (or refused)."""
    if not applies(target):
        return root
    lowering = _Lowering(root, target)
    if isinstance(root, q.Match):
        return lowering.match(root, may_bind_extra=False)
    return root.transform(lowering.visit)


class _Lowering:
    def __init__(self, root: Node, target: Dialect) -> None:
        self.root = root
        self.target = target
        self.caps = target.capabilities
        self.fresh = FreshNames(root)

    def visit(self, node: Node) -> Node:
        if not isinstance(node, q.LinearQuery) or not any(
            isinstance(s, q.Match) for s in node.steps
        ):
            return node
        steps = list(node.steps)
        star = False  # whether the first projection after the step keeps every variable
        for i in range(len(steps) - 1, -1, -1):
            step = steps[i]
            if isinstance(step, q.Match):
                steps[i] = self.match(step, may_bind_extra=not star)
            elif isinstance(step, q.Projection):
                star = step.star
        if all(a is b for a, b in zip(steps, node.steps)):
            return node
        return replace(node, steps=tuple(steps))

    def refuse(self, construct: str, at: Node, *, rewrite: str | None = None) -> UnsupportedError:
        return UnsupportedError(construct, self.target.name, None, rewrite=rewrite, offset=at.pos)

    def match(self, step: q.Match, *, may_bind_extra: bool) -> q.Match:
        caps = self.caps
        if step.mode.name == caps.default_match_mode and (
            caps.match_mode_implicit or not uniqueness_matters(step)
        ):
            return step
        if not uniqueness_matters(step):
            return step
        if step.mode is p.MatchMode.REPEATABLE_ELEMENTS:
            raise self.refuse(
                "REPEATABLE ELEMENTS",
                step,
                rewrite="write each relationship pattern in its own MATCH",
            )
        own = p.MatchMode[caps.default_match_mode]
        patterns = step.patterns
        with_rels = [i for i, x in enumerate(patterns) if any(x.path.find_all(p.RelPattern))]
        if len(with_rels) == 1:
            i = with_rels[0]
            trail = self.trail(patterns[i], step)
            return replace(step, patterns=patterns[:i] + (trail,) + patterns[i + 1 :], mode=own)
        refusal = self.refuse(
            "edge uniqueness across path patterns",
            step,
            rewrite="name every relationship and keep variable-length ones in a single path "
            "pattern, or join the path patterns into one path",
        )
        for pattern in patterns:
            for inner in pattern.walk():
                if isinstance(inner, p.ParenPath) or (
                    isinstance(inner, p.RelPattern) and inner.quantifier is not None
                ):
                    raise refusal
        if "ALL_DIFFERENT" not in caps.element_predicates:
            raise refusal
        names: list[e.Expr] = []

        def name(node: Node) -> Node:
            if not isinstance(node, p.RelPattern):
                return node
            if node.variable is None:
                if not may_bind_extra:
                    raise refusal
                node = replace(node, variable=self.fresh())
            assert node.variable is not None  # (named above)
            names.append(e.Variable(node.variable))
            return node

        named = tuple(x.transform(name) for x in patterns)
        different = pr.AllDifferent(tuple(names))
        where = different if step.where is None else e.And(different, step.where)
        return replace(step, patterns=named, mode=own, where=where)  # type: ignore[arg-type]

    def trail(self, pattern: p.PathPattern, step: q.Match) -> p.PathPattern:
        """``pattern`` with no edge repeated: TRAIL, or nothing for a shortest search over one
        quantified relationship (a shortest walk never repeats an edge)."""
        if "TRAIL" not in self.caps.path_modes:
            raise self.refuse("edge uniqueness", step)
        if pattern.mode is not None:
            if pattern.mode in _EDGE_UNIQUE_MODES:
                return pattern
            raise UnsupportedError(
                "edge uniqueness",
                self.target.name,
                f"a {pattern.mode.value} path pattern cannot also keep its edges different",
                offset=pattern.pos,
            )
        if pattern.search is not None and pattern.search.kind in _EDGE_UNIQUE_SEARCHES:
            chain = pattern.path
            if (
                isinstance(chain, p.PathChain)
                and len(chain.elements) == 3
                and isinstance(chain.elements[1], p.RelPattern)
                and chain.elements[1].where is None
            ):
                return pattern
        return replace(pattern, mode=p.PathMode.TRAIL)
