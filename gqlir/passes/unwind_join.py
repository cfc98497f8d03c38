"""An UNWIND before the graph pattern, written as a join of the unwound rows with the pattern's.

Rule: ``UNWIND l AS x MATCH (m {k: x}) …`` gives, for each element ``x`` of ``l`` in turn, the
rows of the pattern whose ``m.k = x`` (openCypher 9, UNWIND: one row per element, duplicates
kept; an empty list gives no row). The same multiset of rows is the pattern matched once,
crossed with the unwound elements and filtered by the comparison:
``MATCH (m) UNWIND l AS x WITH * WHERE m.k = x``. A null element keeps no row either way
(``m.k = null`` is never true). A target whose graph pattern must come first (SQL/PGQ: the
GRAPH_TABLE's MATCH reads no row of the SQL around it, ISO/IEC 9075-16 7.1 <graph table>; so a
query that goes on after its pattern reads the GRAPH_TABLE as a derived table) writes that
form: the GRAPH_TABLE's COLUMNS carry the compared property, and the comparison becomes the
join's condition over the unwound rows (``UNNEST``, a ``VALUES``-like derived table).

What moves: each property map entry, element WHERE conjunct and MATCH WHERE conjunct that reads
an unwound variable. The move keeps the rows only where the predicate filters rows of a fixed
pattern, so it is refused (by name) where it would not:

* the comparison sits under a quantifier (it holds for every repetition) or in a path pattern
  with a search prefix (it chooses which paths are shortest), or the MATCH with the WHERE that
  reads it has such a path pattern;
* the MATCH is OPTIONAL (an element with no match keeps a row of nulls, a join would drop it);
* an unwound variable is used as a pattern element, or an UNWIND's list reads a variable the
  pattern binds (both errors in Cypher; reordering would give them a meaning).

The order of the rows changes (the list's order is not kept by SQL either; the SQL printer
refuses a collect() that would depend on it). Capability read: ``graph_pattern_first``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, cast

from ..dialect import Dialect
from ..errors import UnsupportedError
from ..ir import expr as e
from ..ir import pattern as p
from ..ir import query as q
from ..ir.analysis import conjuncts, free_variables
from ..ir.node import Node
from .branches import each_linear_query
from .fresh import FreshNames

__all__ = ["applies", "lower_unwind_joins"]


def applies(target: Dialect) -> bool:
    """Whether the target's graph pattern must come first in a query."""
    return target.capabilities.graph_pattern_first


def lower_unwind_joins(root: Node, target: Dialect) -> Node:
    """``root`` with the UNWIND steps that open a query moved after the MATCH that follows
    them, and the MATCH's comparisons with the unwound values after them as a filter (or
    refused, see the module docstring)."""
    if not applies(target):
        return root
    return each_linear_query(root, lambda linear: _Lowering(linear, target).run())


def _conjoin(parts: list[e.Expr]) -> e.Expr | None:
    out: e.Expr | None = None
    for x in parts:
        out = x if out is None else e.And(out, x)
    return out


class _Lowering:
    def __init__(self, root: q.LinearQuery, target: Dialect) -> None:
        self.root = root
        self.target = target
        self.fresh = FreshNames(root, "_j")

    def refuse(self, construct: str, at: Node, message: str, rewrite: str | None = None) -> Any:
        return UnsupportedError(
            construct, self.target.name, message, rewrite=rewrite, offset=at.pos
        )

    def run(self) -> q.LinearQuery:
        steps = list(self.root.steps)
        start = 1 if steps and isinstance(steps[0], q.UseGraph) else 0
        end = start
        while end < len(steps) and isinstance(steps[end], q.Unwind):
            end += 1
        unwinds = cast(list[q.Unwind], steps[start:end])
        if not unwinds or end >= len(steps) or not isinstance(steps[end], q.Match):
            return self.root
        unwound = {u.variable for u in unwinds} | {u.index for u in unwinds if u.index}
        first = cast(q.Match, steps[end])
        if first.optional:
            raise self.refuse(
                "UNWIND before OPTIONAL MATCH",
                first,
                "the graph pattern comes first in this target, and an element of the list that "
                "matches nothing keeps a row of nulls under OPTIONAL MATCH, which a join of the "
                "unwound rows with the pattern's rows drops",
            )
        stop = end
        while stop < len(steps) and isinstance(steps[stop], q.Match) and not steps[stop].optional:  # type: ignore[attr-defined]
            stop += 1
        matches = cast(list[q.Match], steps[end:stop])
        read_by_lists = set().union(*(free_variables(u.source) for u in unwinds))
        for m in matches:
            clash = (unwound | read_by_lists) & _pattern_names(m)
            if clash:
                name = sorted(clash)[0]
                if name in unwound:
                    raise self.refuse(
                        "UNWIND variable bound again by the pattern",
                        m,
                        f"{name} is bound by the UNWIND before the MATCH and by the MATCH's "
                        "pattern; the graph pattern comes first in this target",
                    )
                raise self.refuse(
                    "UNWIND of a list that reads a pattern variable",
                    m,
                    f"an UNWIND's list reads {name} before the MATCH binds it; the graph "
                    "pattern comes first in this target, where it would read the match",
                )
        moved: list[e.Expr] = []
        lowered = [self.match(m, unwound, moved) for m in matches]
        tail: list[q.Step] = [*unwinds]
        condition = _conjoin(moved)
        if condition is not None:
            tail.append(q.Filter(condition))
        new = [*steps[:start], *lowered, *tail, *steps[stop:]]
        return replace(self.root, steps=tuple(new))

    def match(self, step: q.Match, unwound: set[str], moved: list[e.Expr]) -> q.Match:
        searched = any(_searches(pp) for pp in step.patterns)
        patterns = tuple(self.pattern(pp, unwound, moved) for pp in step.patterns)
        keep = []
        for c in conjuncts(step.where):
            if free_variables(c).isdisjoint(unwound):
                keep.append(c)
            elif searched:
                raise self._searched(step)
            else:
                moved.append(c)
        return replace(step, patterns=patterns, where=_conjoin(keep))

    def _searched(self, at: Node) -> UnsupportedError:
        return self.refuse(
            "UNWIND variable read by a path search",
            at,
            "a path search chooses its paths among those its conditions keep, so a condition "
            "on the unwound value cannot wait until after the graph pattern",
        )

    def pattern(self, pp: p.PathPattern, unwound: set[str], moved: list[e.Expr]) -> p.PathPattern:
        searched = _searches(pp)
        path = self.path(pp.path, unwound, moved, searched=searched)
        return pp if path is pp.path else replace(pp, path=cast(Any, path))

    def path(self, path: Node, unwound: set[str], moved: list[e.Expr], *, searched: bool) -> Node:
        if isinstance(path, p.PathUnion):
            if not free_variables(path).isdisjoint(unwound):
                raise self.refuse(
                    "UNWIND variable read inside a path union",
                    path,
                    "a condition of one alternative holds only where that alternative matches",
                )
            return path
        if isinstance(path, p.ParenPath):
            if not free_variables(path).isdisjoint(unwound):
                raise self.refuse(
                    "UNWIND variable read inside a parenthesised path",
                    path,
                    "a condition of a parenthesised (or quantified) path holds for each of its "
                    "repetitions, not once per row",
                )
            return path
        assert isinstance(path, p.PathChain)
        elements = tuple(self.element(x, unwound, moved, searched=searched) for x in path.elements)
        if all(a is b for a, b in zip(elements, path.elements)):
            return path
        return replace(path, elements=cast(Any, elements))

    def element(
        self,
        element: Node,
        unwound: set[str],
        moved: list[e.Expr],
        *,
        searched: bool,
    ) -> Node:
        if isinstance(element, p.ParenPath):
            return self.path(element, unwound, moved, searched=searched)
        if not isinstance(element, (p.NodePattern, p.RelPattern)):
            return element
        if free_variables(element).isdisjoint(unwound):
            return element
        if isinstance(element, p.RelPattern) and element.quantifier is not None:
            raise self.refuse(
                "UNWIND variable read by a quantified edge",
                element,
                "a condition of a quantified edge holds for each edge of the path, not once "
                "per row",
            )
        if (
            isinstance(element, p.RelPattern)
            and element.cost is not None
            and not free_variables(element.cost).isdisjoint(unwound)
        ):
            raise self._searched(element)
        if searched:
            raise self._searched(element)
        props = element.properties
        if props is not None and not isinstance(props, e.MapLiteral):
            raise self.refuse(
                "UNWIND variable read as a property map",
                element,
                "a map read from a value matches each of its keys; its keys are not known here",
            )
        name = element.variable or self.fresh()
        keep_entries = []
        for key, value in props.entries if props is not None else ():
            if free_variables(value).isdisjoint(unwound):
                keep_entries.append((key, value))
            else:
                moved.append(e.Comparison(e.CompOp.EQ, e.Property(e.Variable(name), key), value))
        keep_where: list[e.Expr] = []
        for c in conjuncts(element.where):
            (keep_where if free_variables(c).isdisjoint(unwound) else moved).append(c)
        new_props = None
        if props is not None and keep_entries:
            new_props = replace(props, entries=tuple(keep_entries))
        return replace(element, variable=name, properties=new_props, where=_conjoin(keep_where))


def _searches(pp: p.PathPattern) -> bool:
    return pp.search is not None and pp.search.kind is not p.SearchKind.ALL


def _pattern_names(step: q.Match) -> set[str]:
    """The variables a MATCH's patterns bind (elements and paths)."""
    out: set[str] = set()
    for pp in step.patterns:
        if pp.variable:
            out.add(pp.variable)
        for x in pp.walk():
            if isinstance(x, (p.NodePattern, p.RelPattern, p.ParenPath)) and x.variable:
                out.add(x.variable)
    return out
