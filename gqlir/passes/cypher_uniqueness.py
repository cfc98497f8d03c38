"""Relationship uniqueness in the Cypher dialects that say it otherwise (pass ``cypher-uniqueness``).

The IR's MATCH carries its edge uniqueness (a match mode, DIFFERENT EDGES for Cypher's own
"relationship isomorphism"; openCypher 9, "Uniqueness"). Neo4j 5 writes the mode or leaves the
default implicit; the other Cypher dialects need one of three spellings, chosen by capability:

* **TRAIL as the match's mode.** A MATCH of one ``TRAIL`` path is that path under DIFFERENT
  EDGES (every edge of the MATCH is on the path), which a dialect without path modes
  (``path_modes``) writes without one. Under ANY / ALL SHORTEST the shortest walks are trails
  anyway; under SHORTEST k they need not be, so the mode stays (and is refused).
* **A test in the WHERE.** Where the MATCH lets edges repeat and no mode can be written
  (``default_match_mode`` REPEATABLE_ELEMENTS without ``match_modes``: Kuzu), uniqueness is
  ``WHERE is_trail(p)`` (the dialect's ``trail_function``) on a MATCH of one path, else
  ``elementId(r1) <> elementId(r2)`` for every pair, possible when every relationship is one
  edge. Anonymous paths and relationships get fresh names, so not where a ``*`` projection
  would return them. A WHERE that may fail on the rows uniqueness drops is guarded by CASE.
* **TRAIL in the quantifier.** A MATCH whose one relationship is variable-length is that
  path's TRAIL, which Kuzu writes inside the quantifier (``quantifier_path_modes``,
  ``-[* TRAIL 1..3]->``) and FalkorDB's variable-length relationships are already
  (``quantified_edge_trail``); an ANY or ALL SHORTEST search needs no mode.

What is still not expressible (a mode the dialect cannot write) is refused by the printer.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..dialect import Dialect
from ..ir import expr as e
from ..ir import pattern as p
from ..ir import query as q
from ..ir.analysis import cannot_fail
from ..ir.node import Node
from .edge_uniqueness import relationships_may_repeat
from .fresh import FreshNames
from .scoped import ScopedRewrite

__all__ = ["applies", "edges_may_repeat", "lower_cypher_uniqueness", "needed"]

#: Path searches whose results are the same under WALK and TRAIL (a shortest walk never
#: repeats an edge: dropping the repetition would make it shorter), and the ones among them
#: a quantifier can say (``-[* SHORTEST 1..3]->``).
_TRAIL_FREE_SEARCHES = frozenset(
    {p.SearchKind.ALL, p.SearchKind.ANY_SHORTEST, p.SearchKind.ALL_SHORTEST}
)
_QUANTIFIER_SEARCHES = frozenset({p.SearchKind.ANY_SHORTEST, p.SearchKind.ALL_SHORTEST})


def applies(target: Dialect) -> bool:
    caps = target.capabilities
    return not (caps.match_modes and "TRAIL" in caps.path_modes)


def needed(summary: Any, target: Dialect, typed: bool = False) -> bool:
    """Whether a query (its pipeline ``summary``) holds a MATCH this pass may rewrite for
    ``target``: a TRAIL path where the dialect has no path modes; a MATCH of relationships
    where the default lets edges repeat and no mode can be written; a variable-length
    relationship where a quantifier or the search carries the trail."""
    kinds, caps = summary.kinds, target.capabilities
    if p.RelPattern not in kinds:
        return False
    if p.PathMode.TRAIL in summary.path_modes and "TRAIL" not in caps.path_modes:
        return True
    if caps.match_modes:
        return False
    if caps.default_match_mode == p.MatchMode.REPEATABLE_ELEMENTS.name:
        return True
    return p.Quantifier in kinds and (
        p.Search in kinds or caps.quantified_edge_trail or "TRAIL" in caps.quantifier_path_modes
    )


def lower_cypher_uniqueness(node: Node, target: Dialect) -> Node:
    """Every MATCH of ``node`` with its uniqueness in the dialect's spelling."""
    return _Uniqueness(target, node).run(node)


def edges_may_repeat(step: q.Match) -> bool:
    """Whether edge uniqueness can change the result of ``step`` whatever its paths' modes and
    searches: it needs two relationships, or one that repeats (the GQL family's
    :func:`gqlir.passes.edge_uniqueness.uniqueness_matters` also counts what a path mode or a
    search keeps distinct)."""
    return _may_repeat([x for pattern in step.patterns for x in pattern.walk()])


def _may_repeat(parts: list[Node]) -> bool:
    """:func:`edges_may_repeat` of a MATCH whose patterns' nodes are ``parts``."""
    return relationships_may_repeat(parts, any_group=True)


class _Uniqueness(ScopedRewrite):
    """The walk, top-down in writing order (so fresh names are given as the query reads)."""

    def __init__(self, target: Dialect, root: Node) -> None:
        super().__init__(target)
        self.root = root
        self.edges = FreshNames(root, "_r")
        self.paths = FreshNames(root, "_p")
        self._star: bool | None = None

    def step(self, step: q.Step) -> q.Step:
        if isinstance(step, q.Match) and step.patterns:
            parts = [x for pattern in step.patterns for x in pattern.walk()]  # (walked once)
            new = self._trail_as_mode(step)
            new = self._quantifier_trail(self._edges_differ(new, parts), parts)
            out = super().step(new)
            return step if out is new and new is step else out
        return super().step(step)

    def _trail_as_mode(self, step: q.Match) -> q.Match:
        (pattern, *rest) = step.patterns
        if rest or pattern.mode is not p.PathMode.TRAIL or "TRAIL" in self.caps.path_modes:
            return step
        search = pattern.search
        if search is not None and search.kind not in _TRAIL_FREE_SEARCHES:
            return step
        return replace(
            step, patterns=(replace(pattern, mode=None),), mode=p.MatchMode.DIFFERENT_EDGES
        )

    def _edges_differ(self, step: q.Match, parts: list[Node]) -> q.Match:
        """(``parts``: the nodes of the MATCH's patterns.)"""
        caps = self.caps
        if (
            step.mode is not p.MatchMode.DIFFERENT_EDGES
            or caps.default_match_mode != p.MatchMode.REPEATABLE_ELEMENTS.name
            or caps.match_modes
            or not _may_repeat(parts)
        ):
            return step
        if any(isinstance(x, p.ParenPath) or getattr(x, "quantifier", None) for x in parts):
            return step
        if self._star is None:
            self._star = any(isinstance(x, q.Projection) and x.star for x in self.root.walk())
        if self._star:
            return step
        patterns, test = self._named(step.patterns)
        if step.where is not None:
            elements = {
                x.variable
                for pattern in patterns
                for x in pattern.walk()
                if isinstance(x, (p.NodePattern, p.RelPattern)) and x.variable
            }
            if cannot_fail(step.where, elements):
                test = e.And(test, step.where)
            else:
                # The rows uniqueness drops must never reach a condition that may fail on
                # them: CASE, unlike AND, evaluates its result only where the test holds.
                test = e.Case(None, (e.CaseWhen(test, step.where),), e.Boolean(False))
        return replace(step, patterns=patterns, where=test, mode=p.MatchMode.REPEATABLE_ELEMENTS)

    def _named(
        self, patterns: tuple[p.PathPattern, ...]
    ) -> tuple[tuple[p.PathPattern, ...], e.Expr]:
        """The patterns, named where needed, and a test that their edges differ: the
        dialect's trail function on the one path (linear in its length), else ``id(r1) <>
        id(r2)`` for every pair of relationships."""
        trail = self.caps.trail_function
        if trail and len(patterns) == 1:
            (pattern,) = patterns
            if pattern.variable is None:
                pattern = replace(pattern, variable=self.paths())
            return (pattern,), e.FunctionCall(trail, (e.Variable(pattern.variable),))  # type: ignore[arg-type]
        names: list[str] = []

        def name_edge(node: Node) -> Node:
            if not isinstance(node, p.RelPattern):
                return node
            if node.variable is None:
                node = replace(node, variable=self.edges())
            names.append(node.variable)  # type: ignore[arg-type]
            return node

        named = tuple(pattern.transform(name_edge) for pattern in patterns)
        ids = [e.FunctionCall("elementid", (e.Variable(n),)) for n in names]
        test: e.Expr | None = None
        for i, a in enumerate(ids):
            for b in ids[i + 1 :]:
                differ = e.Comparison(e.CompOp.NE, a, b)
                test = differ if test is None else e.And(test, differ)
        assert test is not None  # (uniqueness matters: two relationships at least)
        return named, test  # type: ignore[return-value]

    def _quantifier_trail(self, step: q.Match, parts: list[Node]) -> q.Match:
        """(``parts``: the nodes of the MATCH's patterns, as read.)"""
        caps = self.caps
        if step.mode is not p.MatchMode.DIFFERENT_EDGES or caps.match_modes:
            return step
        if any(isinstance(x, p.ParenPath) for x in parts):
            return step
        rels = [x for x in parts if isinstance(x, p.RelPattern)]
        if len(rels) != 1 or rels[0].quantifier is None:
            return step
        (pattern,) = [x for x in step.patterns if rels[0] in x.path.walk()]
        search = pattern.search
        if search is not None and search.kind in _QUANTIFIER_SEARCHES:
            return replace(step, mode=p.MatchMode.REPEATABLE_ELEMENTS)
        if search is None and caps.quantified_edge_trail:
            return replace(step, mode=p.MatchMode.REPEATABLE_ELEMENTS)
        if search is not None or "TRAIL" not in caps.quantifier_path_modes:
            return step
        patterns = tuple(
            replace(x, mode=p.PathMode.TRAIL) if x is pattern else x for x in step.patterns
        )
        return replace(step, patterns=patterns, mode=p.MatchMode.REPEATABLE_ELEMENTS)
