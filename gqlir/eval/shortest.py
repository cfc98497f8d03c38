"""Shortest-path searches by breadth-first search, so that the oracle answers them on real-sized
graphs (thousands of edges) where enumerating every walk would not finish.

It serves ``ANY SHORTEST`` and ``ALL SHORTEST`` (Cypher's ``shortestPath`` and
``allShortestPaths``) over the pattern ``(a)-[q]-(b)`` with one quantified relationship whose
lower bound is at most 1, the form these searches take in practice. The results are those of
enumerating every path and keeping the shortest per pair of endpoints:

* Between two different endpoints a shortest walk repeats no node, so it is also a trail and
  an acyclic path: every path mode and Cypher's relationship uniqueness give the same answer,
  once the relationships the MATCH has already bound are left out.
* When both ends are one node, a shortest closed path of length ≥ 1 under TRAIL, SIMPLE or
  relationship uniqueness is a cycle: a first relationship ``e`` and then a shortest path back
  that does not use ``e``; a closed walk may take ``e`` back. ACYCLIC allows none.
* Conditions of the MATCH's WHERE that read only the endpoints (and cannot fail) are tried on
  each endpoint before the search: a search keeps paths per pair of endpoints, so a condition
  on the endpoints removes whole pairs and never changes which paths a pair keeps.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import TYPE_CHECKING

from .. import ir
from ..ir.analysis import cannot_fail
from .graph import Relationship
from .runtime import Row
from .values import truth

if TYPE_CHECKING:
    from .patterns import Matcher, _Context, _State

__all__ = ["applies", "shortest_paths"]

_SEARCHES = (ir.SearchKind.ANY_SHORTEST, ir.SearchKind.ALL_SHORTEST)

# node id -> the (relationship, previous node id) pairs that reach it on a shortest path
_Parents = dict[int, list[tuple[Relationship, int]]]


def applies(pp: ir.PathPattern, row: Row) -> bool:
    """Whether ``pp`` has the form this module answers (see the module docstring)."""
    if pp.search is None or pp.search.kind not in _SEARCHES:
        return False
    if pp.variable is not None and pp.variable in row:
        return False
    hop = _hop(pp)
    if hop is None:
        return False
    rel = hop[1]
    return (
        rel.quantifier is not None
        and rel.quantifier.lower <= 1
        and rel.cost is None
        and (rel.variable is None or rel.variable not in row)
    )


def _hop(pp: ir.PathPattern) -> tuple[ir.NodePattern, ir.RelPattern, ir.NodePattern] | None:
    """``pp``'s node, relationship and node when it is one such chain, else None."""
    path = pp.path
    if not isinstance(path, ir.PathChain) or len(path.elements) != 3:
        return None
    first, rel, last = path.elements
    if (
        isinstance(first, ir.NodePattern)
        and isinstance(rel, ir.RelPattern)
        and isinstance(last, ir.NodePattern)
    ):
        return first, rel, last
    return None


def shortest_paths(
    matcher: Matcher,
    pp: ir.PathPattern,
    start: _State,
    ctx: _Context,
    conjuncts: list[ir.Expr],
) -> Iterator[_State]:
    """The paths the search of ``pp`` keeps, for every way its first node binds."""
    hop = _hop(pp)
    assert hop is not None and pp.search is not None  # the caller checked applies()
    first, _, last = hop
    every = pp.search.kind is ir.SearchKind.ALL_SHORTEST
    start_names = {first.variable} if first.variable else set()
    end_names = start_names | ({last.variable} if last.variable else set())
    start_checks = _checks(conjuncts, start.row, start_names, set())
    end_checks = _checks(conjuncts, start.row, end_names, start_names)
    return _search(matcher, hop, start, ctx, every, start_checks, end_checks)


def _search(
    matcher: Matcher,
    elements: tuple[ir.NodePattern, ir.RelPattern, ir.NodePattern],
    start: _State,
    ctx: _Context,
    every: bool,
    start_checks: list[ir.Expr],
    end_checks: list[ir.Expr],
) -> Iterator[_State]:
    first, rel, last = elements
    q = rel.quantifier
    assert q is not None
    for s in matcher._node(first, start, ctx):
        if not _holds(matcher, start_checks, s.row):
            continue
        assert s.node is not None
        step = _stepper(matcher, rel, s, ctx)
        parents = _bfs(step, s.node.id, q.upper)
        for end_id in parents:
            if end_id == s.node.id:
                tails = _closed(step, s.node.id, q, every, ctx)
            else:
                tails = _unroll(parents, s.node.id, end_id, every)
            for rels in tails:
                for st in matcher._node(last, _extend(matcher, rel, s, ctx, rels), ctx):
                    if _holds(matcher, end_checks, st.row):
                        yield st


# -- the search ------------------------------------------------------------------------------

_Step = Callable[[int], Iterator[tuple[Relationship, int]]]


def _stepper(matcher: Matcher, rel: ir.RelPattern, s: _State, ctx: _Context) -> _Step:
    """The relationships a path may take from a node, and the nodes they lead to: the pattern's
    direction, types, properties and WHERE, without the relationships the MATCH has used."""
    props = matcher._property_map(rel.properties, s.row)
    graph = matcher.rt.graph

    def step(node_id: int) -> Iterator[tuple[Relationship, int]]:
        for r, other in matcher._expand(graph.nodes[node_id], rel.direction):
            if ctx.unique and r.id in s.used:
                continue
            if matcher._element_ok(r, rel.types, props, rel.where, rel.variable, s.row):
                yield r, other.id

    return step


def _bfs(step: _Step, source: int, upper: int | None) -> _Parents:
    """Every node reachable from ``source`` within ``upper`` steps (in the order found), with the
    relationships that reach it on a shortest path; ``source`` itself has none."""
    parents: _Parents = {source: []}
    depth = {source: 0}
    queue = deque([source])
    while queue:
        u = queue.popleft()
        if upper is not None and depth[u] >= upper:
            continue
        for r, v in step(u):
            if v not in depth:
                depth[v] = depth[u] + 1
                parents[v] = [(r, u)]
                queue.append(v)
            elif depth[v] == depth[u] + 1 and v != source:
                parents[v].append((r, u))
    return parents


def _unroll(
    parents: _Parents, source: int, target: int, every: bool
) -> Iterator[tuple[Relationship, ...]]:
    """The shortest paths from ``source`` to ``target`` (one, or all) as relationship lists."""
    if target == source:
        yield ()
        return
    for r, u in parents[target] if every else parents[target][:1]:
        for head in _unroll(parents, source, u, every):
            yield (*head, r)


def _closed(
    step: _Step, source: int, q: ir.Quantifier, every: bool, ctx: _Context
) -> Iterator[tuple[Relationship, ...]]:
    """Shortest paths from ``source`` back to itself: none steps when the quantifier allows
    it, else a first relationship and a shortest way back (without it, unless walks may
    repeat it)."""
    if q.lower == 0:
        yield ()
        return
    if ctx.acyclic:
        return
    repeat = not (ctx.unique or ctx.trail or ctx.simple)
    limit = None if q.upper is None else q.upper - 1
    found: list[tuple[int, Relationship, _Parents, int]] = []
    for r, v in step(source):
        back = _bfs(step if repeat else _without(step, r), v, limit)
        if source in back:
            found.append((1 + _length(back, v, source), r, back, v))
    if not found:
        return
    best = min(f[0] for f in found)
    for length, r, back, v in found if every else [min(found, key=lambda f: f[0])]:
        if length == best:
            for tail in _unroll(back, v, source, every):
                yield (r, *tail)


def _without(step: _Step, excluded: Relationship) -> _Step:
    """``step`` that never takes ``excluded``."""
    return lambda node_id: ((r, v) for r, v in step(node_id) if r is not excluded)


def _length(parents: _Parents, source: int, target: int) -> int:
    n = 0
    while target != source:
        target = parents[target][0][1]
        n += 1
    return n


def _extend(
    matcher: Matcher, rel: ir.RelPattern, s: _State, ctx: _Context, rels: tuple[Relationship, ...]
) -> _State:
    """The state after walking ``rels`` from ``s``: its end node current, the list bound to the
    relationship variable."""
    graph = matcher.rt.graph
    nodes = list(s.nodes)
    current = s.node
    assert current is not None
    for r in rels:
        current = graph.nodes[r.end if r.start == current.id else r.start]
        nodes.append(current)
    row = {**s.row, rel.variable: list(rels)} if rel.variable else s.row
    used = s.used | {r.id for r in rels} if ctx.unique else s.used
    return replace(
        s, row=row, node=current, nodes=tuple(nodes), rels=s.rels + rels, used=used, cost=len(rels)
    )


# -- endpoint conditions ---------------------------------------------------------------------


def _checks(conjuncts: list[ir.Expr], row: Row, names: set[str], done: set[str]) -> list[ir.Expr]:
    """The conjuncts that read only ``names`` and the incoming row, cannot fail, and were not
    already tried with ``done``."""
    out = []
    for c in conjuncts:
        read = {v.name for v in c.find_all(ir.Variable)}
        if not read or not read <= names | set(row):
            continue
        if done and read <= done | set(row):
            continue
        if read & names and cannot_fail(c, names):
            out.append(c)
    return out


def _holds(matcher: Matcher, checks: list[ir.Expr], row: Row) -> bool:
    return all(truth(matcher.rt.eval(c, row), "WHERE") is True for c in checks)
