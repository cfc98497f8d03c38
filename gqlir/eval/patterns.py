"""Graph pattern matching: every way the patterns of one MATCH bind to the graph.

The matcher walks each path pattern element by element with backtracking, carrying the
bindings, the current node, the path so far and the relationships the MATCH has used:

* **match modes** — ``DIFFERENT_EDGES`` (Cypher's default) forbids one relationship to be bound
  twice anywhere in the MATCH, across all its comma-separated patterns and inside
  variable-length parts; ``REPEATABLE_ELEMENTS`` allows it.
* **path modes** — ``TRAIL`` (no repeated relationship), ``ACYCLIC`` (no repeated node),
  ``SIMPLE`` (no repeated node but a closed cycle), checked while a path grows so that
  unbounded quantifiers terminate.
* **quantifiers** — on a relationship (binding the list of relationships) and on parenthesised
  sub-paths (binding each inner variable to the list of its values, one per iteration).
* **searches** — ``ANY``, ``ANY SHORTEST``, ``ALL SHORTEST``, ``SHORTEST k``, ``SHORTEST k GROUPS``
  and the CHEAPEST forms select among the paths of one pattern, partitioned by endpoints.

Enumeration is exhaustive and exponential in the worst case: this is an oracle for small
graphs, not a query engine. Shortest-path searches of the usual form are answered by
breadth-first search instead (``shortest``), so the example graphs answer them. A walk with an unbounded quantifier and nothing that bounds it
(no trail/acyclic mode, no edge uniqueness, no selective search) has infinitely many matches
and is refused rather than truncated.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

from .. import ir
from ..errors import EvaluationError
from ..ir.analysis import cannot_fail
from ..ir.analysis import conjuncts as conjuncts_of
from . import shortest
from .expressions import label_match
from .graph import Node, Relationship
from .runtime import Row, Runtime, unsupported
from .values import Path, equals, equivalence_key, is_number, truth, type_name

__all__ = ["Matcher", "pattern_variables"]


@dataclass(frozen=True, slots=True)
class _State:
    row: Row
    node: Node | None
    nodes: tuple[Node, ...]
    rels: tuple[Relationship, ...]
    used: frozenset[int]
    cost: float = 0


@dataclass(frozen=True, slots=True)
class _Context:
    unique: bool  # DIFFERENT_EDGES across the MATCH
    trail: bool  # no repeated relationship within this path
    acyclic: bool  # no repeated node within this path (SIMPLE allows closing a cycle)
    simple: bool
    budget: int | None  # most relationships a path may have (searches over walks)
    # node variables the MATCH's WHERE equates with a value of the incoming row (x = a): the
    # only candidates they can take
    pinned: dict[str, Any] = field(default_factory=dict)


class Matcher:
    def __init__(self, rt: Runtime) -> None:
        self.rt = rt

    # -- entry -----------------------------------------------------------------------------------

    def match(
        self,
        patterns: tuple[ir.PathPattern, ...],
        mode: ir.MatchMode,
        row: Row,
        where: ir.Expr | None = None,
    ) -> Iterator[Row]:
        """Rows that extend ``row`` with one way of matching every pattern. Conditions of
        ``where`` that cannot fail are tried as soon as the patterns bind what they read, so
        that a pinned node does not wait for the product of the other patterns; the caller
        still applies all of ``where`` to the rows."""
        unique = mode is ir.MatchMode.DIFFERENT_EDGES
        early = _early_conditions(patterns, where)
        conjuncts = conjuncts_of(where)
        yield from self._patterns(patterns, 0, row, frozenset(), unique, early, conjuncts)

    def _patterns(
        self,
        patterns: tuple[ir.PathPattern, ...],
        i: int,
        row: Row,
        used: frozenset[int],
        unique: bool,
        early: dict[int, list[ir.Expr]],
        conjuncts: list[ir.Expr],
    ) -> Iterator[Row]:
        if i == len(patterns):
            yield row
            return
        checks = early.get(i, ())
        for st in self._path_pattern(patterns[i], row, used, unique, conjuncts):
            if all(truth(self.rt.eval(c, st.row), "WHERE") is True for c in checks):
                yield from self._patterns(
                    patterns, i + 1, st.row, st.used, unique, early, conjuncts
                )

    def _path_pattern(
        self,
        pp: ir.PathPattern,
        row: Row,
        used: frozenset[int],
        unique: bool,
        conjuncts: list[ir.Expr],
    ) -> Iterator[_State]:
        mode = pp.mode or ir.PathMode.WALK
        search = pp.search
        if search is not None and isinstance(search.k, ir.Expr):
            # a count given as a parameter (GoogleSQL's CHEAPEST @k)
            k = self.rt.eval(search.k, row)
            if isinstance(k, bool) or not isinstance(k, int) or k < 0:
                raise EvaluationError(
                    f"a path search count must be a non-negative integer, not {k!r}",
                    category="ArgumentError",
                )
            search = replace(search, k=k)
            pp = replace(pp, search=search)
        selective = search is not None and search.kind is not ir.SearchKind.ALL
        budget = None
        if selective and not unique and mode is ir.PathMode.WALK:
            budget = self._walk_budget(pp.path)
        ctx = _Context(
            unique,
            mode is ir.PathMode.TRAIL,
            mode is ir.PathMode.ACYCLIC,
            mode is ir.PathMode.SIMPLE,
            budget,
            _pinned(conjuncts, row),
        )
        if budget is None and not unique and mode is ir.PathMode.WALK:
            _refuse_unbounded(pp.path)
        start = _State(row, None, (), (), used)
        if shortest.applies(pp, row):
            kept = shortest.shortest_paths(self, pp, start, ctx, conjuncts)
            yield from (st for st in map(partial(self._finish_path, pp), kept) if st is not None)
            return
        results = (self._finish_path(pp, st) for st in self._path_expr(pp.path, start, ctx))
        found = (st for st in results if st is not None)
        if selective:
            assert search is not None
            yield from _select(search, list(found))
        else:
            yield from found

    def _finish_path(self, pp: ir.PathPattern, st: _State) -> _State | None:
        if pp.variable is None:
            return st
        path = Path(st.nodes, st.rels)
        bound = st.row.get(pp.variable, _MISSING)
        if bound is not _MISSING:
            return st if equals(bound, path) is True else None
        return replace(st, row={**st.row, pp.variable: path})

    def _walk_budget(self, path: ir.Node) -> int:
        """The longest walk a search over repeatable elements considers: the quantifiers' lower
        bounds, then one pass over every node per quantified element (a shortest walk never
        needs more than that to reach a node it can reach)."""
        quantifiers = list(path.find_all(ir.Quantifier))
        lower = sum(q.lower for q in quantifiers)
        return lower + (len(self.rt.graph.nodes) + 1) * (len(quantifiers) + 1)

    # -- path expressions ------------------------------------------------------------------------

    def _path_expr(self, path: ir.Node, st: _State, ctx: _Context) -> Iterator[_State]:
        if isinstance(path, ir.PathChain):
            yield from self._chain(path.elements, 0, st, ctx)
        elif isinstance(path, ir.PathUnion):
            yield from self._union(path, st, ctx)
        else:
            raise unsupported(f"the path expression {type(path).__name__}")

    def _union(self, path: ir.PathUnion, st: _State, ctx: _Context) -> Iterator[_State]:
        names = sorted(pattern_variables(path))
        seen: set[Any] = set()
        for alt in path.alternatives:
            missing = [n for n in names if n not in st.row and n not in pattern_variables(alt)]
            for out in self._chain(alt.elements, 0, st, ctx):
                if missing:
                    out = replace(out, row={**out.row, **dict.fromkeys(missing)})
                if not path.multiset:
                    key = (
                        tuple(n.id for n in out.nodes),
                        tuple(r.id for r in out.rels),
                        tuple(equivalence_key(out.row.get(n)) for n in names),
                    )
                    if key in seen:
                        continue
                    seen.add(key)
                yield out

    def _chain(
        self, elements: tuple[Any, ...], i: int, st: _State, ctx: _Context
    ) -> Iterator[_State]:
        if i == len(elements):
            yield st
            return
        el = elements[i]
        if isinstance(el, ir.NodePattern):
            steps = self._node(el, st, ctx)
        elif isinstance(el, ir.RelPattern):
            steps = (
                self._rel(el, st, ctx) if el.quantifier is None else self._var_length(el, st, ctx)
            )
        elif isinstance(el, ir.ParenPath):
            steps = self._paren(el, st, ctx)
        else:
            raise unsupported(f"the pattern element {type(el).__name__}")
        for nxt in steps:
            yield from self._chain(elements, i + 1, nxt, ctx)

    # -- nodes -----------------------------------------------------------------------------------

    def _node(self, el: ir.NodePattern, st: _State, ctx: _Context) -> Iterator[_State]:
        bound = st.row.get(el.variable, _MISSING) if el.variable else _MISSING
        if bound is not _MISSING and bound is not None and not isinstance(bound, Node):
            raise EvaluationError(
                f"variable {el.variable} is a {type_name(bound)}, not a node",
                category="SyntaxError",
                detail="VariableTypeConflict",
            )
        if st.node is not None:
            candidates = [st.node]
            if bound is not _MISSING and (bound is None or bound.id != st.node.id):
                return
        elif bound is not _MISSING:
            if bound is None or bound.deleted:
                return
            candidates = [bound]
        elif el.variable in ctx.pinned:
            pin = ctx.pinned[el.variable]
            candidates = [pin] if isinstance(pin, Node) and not pin.deleted else []
        else:
            candidates = list(self.rt.graph.all_nodes())
        props = self._property_map(el.properties, st.row)
        for node in candidates:
            if not self._element_ok(node, el.labels, props, el.where, el.variable, st.row):
                continue
            row = (
                st.row
                if el.variable is None or bound is not _MISSING
                else {**st.row, el.variable: node}
            )
            if st.node is None:
                if ctx.acyclic and node in st.nodes:
                    continue
                yield replace(st, row=row, node=node, nodes=st.nodes + (node,))
            else:
                yield replace(st, row=row)

    def _property_map(self, expr: ir.Expr | None, row: Row) -> dict[str, Any] | None:
        if expr is None:
            return None
        value = self.rt.eval(expr, row)
        if value is None:
            return None
        if not isinstance(value, dict):
            raise EvaluationError(
                f"a pattern's properties must be a map, not {type_name(value)}",
                category="TypeError",
                detail="InvalidArgumentType",
            )
        return value

    def _element_ok(
        self,
        element: Node | Relationship,
        labels: ir.LabelExpr | None,
        props: dict[str, Any] | None,
        where: ir.Expr | None,
        variable: str | None,
        row: Row,
    ) -> bool:
        if labels is not None:
            names = element.labels if isinstance(element, Node) else (element.type,)
            if not label_match(labels, names):
                return False
        if props:
            for key, want in props.items():
                if equals(element.properties.get(key), want) is not True:
                    return False
        if where is not None:
            inner = {**row, variable: element} if variable else row
            if truth(self.rt.eval(where, inner), "WHERE") is not True:
                return False
        return True

    # -- relationships ---------------------------------------------------------------------------

    def _expand(self, node: Node, direction: ir.Direction) -> Iterator[tuple[Relationship, Node]]:
        """Relationships from ``node`` in ``direction``, with the node at their other end.

        Every relationship of this graph model is directed, so GQL's ``~[]~`` (undirected
        edges only) matches none; ``-[]-`` and ``<-[]->`` take either direction."""
        graph = self.rt.graph
        if direction in (ir.Direction.OUT, ir.Direction.EITHER, ir.Direction.BOTH):
            for r in graph.outgoing(node.id):
                yield r, graph.nodes[r.end]
        if direction in (ir.Direction.IN, ir.Direction.EITHER, ir.Direction.BOTH):
            for r in graph.incoming(node.id):
                if direction is not ir.Direction.IN and r.start == r.end:
                    continue  # a self-loop is one match of an undirected pattern, not two
                yield r, graph.nodes[r.start]

    def _starts(self, st: _State, ctx: _Context) -> Iterator[_State]:
        """The current node, or every node when a pattern starts with a relationship."""
        if st.node is not None:
            yield st
            return
        for node in self.rt.graph.all_nodes():
            yield replace(st, node=node, nodes=st.nodes + (node,))

    def _rel(self, el: ir.RelPattern, st0: _State, ctx: _Context) -> Iterator[_State]:
        bound = st0.row.get(el.variable, _MISSING) if el.variable else _MISSING
        if bound is None:
            return
        if bound is not _MISSING and not isinstance(bound, Relationship):
            raise EvaluationError(
                f"variable {el.variable} is a {type_name(bound)}, not a relationship",
                category="SyntaxError",
                detail="VariableTypeConflict",
            )
        for st in self._starts(st0, ctx):
            props = self._property_map(el.properties, st.row)
            assert st.node is not None
            for rel, other in self._expand(st.node, el.direction):
                if bound is not _MISSING and rel.id != bound.id:
                    continue
                if not self._rel_allowed(rel, other, st, ctx):
                    continue
                if not self._element_ok(rel, el.types, props, el.where, el.variable, st.row):
                    continue
                row = (
                    st.row
                    if el.variable is None or bound is not _MISSING
                    else {**st.row, el.variable: rel}
                )
                yield _State(
                    row,
                    other,
                    st.nodes + (other,),
                    st.rels + (rel,),
                    st.used | {rel.id} if ctx.unique else st.used,
                    st.cost + self._cost(el, rel, st.row),
                )

    def _rel_allowed(self, rel: Relationship, other: Node, st: _State, ctx: _Context) -> bool:
        if ctx.unique and rel.id in st.used:
            return False
        if ctx.trail and rel in st.rels:
            return False
        if ctx.budget is not None and len(st.rels) >= ctx.budget:
            return False
        if ctx.acyclic and other in st.nodes:
            return False
        if ctx.simple:
            if len(st.nodes) > 1 and st.nodes[-1] is st.nodes[0]:
                return False  # the cycle is closed: a simple path ends here
            if other in st.nodes[1:]:
                return False
        return True

    def _cost(self, el: ir.RelPattern, rel: Relationship, row: Row) -> float:
        if el.cost is None:
            return 1
        inner = {**row, el.variable: rel} if el.variable else row
        value = self.rt.eval(el.cost, inner)
        if not is_number(value) or value < 0:
            raise EvaluationError(
                "an edge cost must be a non-negative number", category="ArgumentError"
            )
        return value

    def _var_length(self, el: ir.RelPattern, st0: _State, ctx: _Context) -> Iterator[_State]:
        q = el.quantifier
        assert q is not None
        bound = st0.row.get(el.variable, _MISSING) if el.variable else _MISSING
        if bound is None:
            return
        for st in self._starts(st0, ctx):
            props = self._property_map(el.properties, st.row)
            for end in self._walk(el, props, st, ctx, 0, q.lower, q.upper, ()):
                rels = end.rels[len(st.rels) :]
                if bound is not _MISSING:
                    if not isinstance(bound, list) or [
                        r.id for r in bound if isinstance(r, Relationship)
                    ] != [r.id for r in rels]:
                        continue
                    yield end
                elif el.variable:
                    yield replace(end, row={**end.row, el.variable: list(rels)})
                else:
                    yield end

    def _walk(
        self,
        el: ir.RelPattern,
        props: dict[str, Any] | None,
        st: _State,
        ctx: _Context,
        depth: int,
        lower: int,
        upper: int | None,
        local: tuple[Relationship, ...],
    ) -> Iterator[_State]:
        if depth >= lower:
            yield st
        if upper is not None and depth >= upper:
            return
        assert st.node is not None
        for rel, other in self._expand(st.node, el.direction):
            if rel in local and ctx.unique:
                continue
            if not self._rel_allowed(rel, other, st, ctx):
                continue
            if not self._element_ok(rel, el.types, props, el.where, el.variable, st.row):
                continue
            nxt = _State(
                st.row,
                other,
                st.nodes + (other,),
                st.rels + (rel,),
                st.used | {rel.id} if ctx.unique else st.used,
                st.cost + self._cost(el, rel, st.row),
            )
            yield from self._walk(el, props, nxt, ctx, depth + 1, lower, upper, local + (rel,))

    # -- parenthesised sub-paths -----------------------------------------------------------------

    def _paren(self, el: ir.ParenPath, st: _State, ctx: _Context) -> Iterator[_State]:
        q = el.quantifier or ir.Quantifier(1, 1)
        inner_names = sorted(pattern_variables(el.path))
        inner_ctx = ctx
        if el.mode is not None and el.mode is not ir.PathMode.WALK:
            inner_ctx = replace(
                ctx,
                trail=ctx.trail or el.mode is ir.PathMode.TRAIL,
                acyclic=ctx.acyclic or el.mode is ir.PathMode.ACYCLIC,
                simple=ctx.simple or el.mode is ir.PathMode.SIMPLE,
            )
        start_node_index = max(len(st.nodes) - 1, 0)
        start_rel_index = len(st.rels)
        outer = st.row
        local = [n for n in inner_names if n not in outer]
        for end, groups in self._iterations(el, st, inner_ctx, local, q, 0, []):
            row = dict(outer)
            if el.quantifier is None:
                row.update(groups[0] if groups else {})
            else:
                for name in local:
                    row[name] = [g.get(name) for g in groups]
            if el.variable:
                row[el.variable] = Path(end.nodes[start_node_index:], end.rels[start_rel_index:])
            yield replace(end, row=row)

    def _iterations(
        self,
        el: ir.ParenPath,
        st: _State,
        ctx: _Context,
        names: list[str],  # the iteration-local variables
        q: ir.Quantifier,
        count: int,
        groups: list[dict[str, Any]],
    ) -> Iterator[tuple[_State, list[dict[str, Any]]]]:
        if count >= q.lower:
            yield st, groups
        if q.upper is not None and count >= q.upper:
            return
        scoped = {k: v for k, v in st.row.items() if k not in names}
        for nxt in self._path_expr(el.path, replace(st, row=scoped), ctx):
            if el.where is not None and truth(self.rt.eval(el.where, nxt.row), "WHERE") is not True:
                continue
            if len(nxt.rels) == len(st.rels) and count >= q.lower:
                continue  # an iteration that matched no relationship cannot make progress
            bindings = {n: nxt.row.get(n) for n in names}
            yield from self._iterations(el, nxt, ctx, names, q, count + 1, groups + [bindings])


class _Missing:
    __slots__ = ()


_MISSING: Any = _Missing()


def _early_conditions(
    patterns: tuple[ir.PathPattern, ...], where: ir.Expr | None
) -> dict[int, list[ir.Expr]]:
    """The conjuncts of ``where`` to try after pattern ``i``: those that read only node and
    single-edge variables the patterns up to ``i`` bind, and cannot fail. Only worth it
    between comma-separated patterns."""
    if where is None or len(patterns) < 2:
        return {}
    conjuncts = conjuncts_of(where)
    bound: set[str] = set()
    out: dict[int, list[ir.Expr]] = {}
    for i, pp in enumerate(patterns[:-1]):
        for n in pp.path.walk():
            if isinstance(n, ir.NodePattern) and n.variable:
                bound.add(n.variable)
            if isinstance(n, ir.RelPattern) and n.variable and n.quantifier is None:
                bound.add(n.variable)
            if isinstance(n, ir.ParenPath):
                break  # variables inside a quantified sub-path are lists
        for c in conjuncts:
            names = {v.name for v in c.find_all(ir.Variable)}
            if names and names <= bound and cannot_fail(c, bound):
                out.setdefault(i, []).append(c)
        conjuncts = [c for c in conjuncts if c not in out.get(i, ())]
    return out


def _pinned(conjuncts: list[ir.Expr], row: Row) -> dict[str, Any]:
    """``{x: row[a]}`` for each conjunct ``x = a`` (either way round) where ``a`` is in the row
    and ``x`` is not: a node ``x`` can only be that value (equal nodes are one node; a null or
    a non-node matches none), so the others need not be tried. The WHERE still runs whole."""
    out: dict[str, Any] = {}
    for c in conjuncts:
        if not (isinstance(c, ir.Comparison) and c.op is ir.CompOp.EQ):
            continue
        left, right = c.left, c.right
        if not (isinstance(left, ir.Variable) and isinstance(right, ir.Variable)):
            continue
        for free, known in ((left.name, right.name), (right.name, left.name)):
            if known in row and free not in row:
                out[free] = row[known]
    return out


def pattern_variables(path: ir.Node) -> set[str]:
    """The element, path and sub-path variables a pattern declares."""
    names: set[str] = set()
    for n in path.walk():
        if (
            isinstance(n, (ir.NodePattern, ir.RelPattern, ir.ParenPath, ir.PathPattern))
            and n.variable
        ):
            names.add(n.variable)
    return names


def _refuse_unbounded(path: ir.Node) -> None:
    for q in path.find_all(ir.Quantifier):
        if q.upper is None:
            raise EvaluationError(
                "an unbounded quantifier over repeatable elements needs a selective search or a "
                "TRAIL/ACYCLIC/SIMPLE path mode (it has infinitely many matches)",
                category="SyntaxError",
                detail="UnboundedWalk",
            )


def _select(search: ir.Search, found: list[_State]) -> Iterator[_State]:
    """The paths a search prefix keeps, per partition of (first node, last node)."""
    partitions: dict[tuple[int, int], list[_State]] = {}
    for st in found:
        key = (st.nodes[0].id, st.nodes[-1].id) if st.nodes else (-1, -1)
        partitions.setdefault(key, []).append(st)
    kind = search.kind
    k = search.k if isinstance(search.k, int) and search.k else 1  # (a parameter is resolved)
    cheapest = kind in (ir.SearchKind.ANY_CHEAPEST, ir.SearchKind.CHEAPEST_K)
    for paths in partitions.values():
        paths.sort(key=(lambda s: s.cost) if cheapest else (lambda s: len(s.rels)))
        if kind is ir.SearchKind.ANY:
            yield from paths[:k]
        elif kind in (ir.SearchKind.ANY_SHORTEST, ir.SearchKind.ANY_CHEAPEST):
            yield from paths[:1]
        elif kind in (ir.SearchKind.SHORTEST_K, ir.SearchKind.CHEAPEST_K):
            yield from paths[:k]
        elif kind is ir.SearchKind.ALL_SHORTEST:
            best = len(paths[0].rels)
            yield from (p for p in paths if len(p.rels) == best)
        elif kind is ir.SearchKind.SHORTEST_K_GROUPS:
            lengths = sorted({len(p.rels) for p in paths})[:k]
            yield from (p for p in paths if len(p.rels) in lengths)
        else:
            yield from paths
