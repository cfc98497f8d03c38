"""Cypher's ORDER BY of a projection as a GQL target's sort keys.

Rule: a Cypher sort key reads the projection's columns by name and, when the projection neither
aggregates nor is DISTINCT, the incoming variables it drops (openCypher 9, "ORDER BY"; the IR's
``Projection.order_by``). In GQL a sort key of a RETURN names its result columns or repeats an
expression (GQL.g4 ``orderByClause``, ``sortSpecification : sortKey …`` with ``sortKey :
aggregatingValueExpression``), and a column feeds the next statement as a binding variable
(``bindingVariable : REGULAR_IDENTIFIER``), so:

* a key that repeats a returned expression is written as that column's name;
* a key that names a final column whose name cannot be a variable (``count(*)``) repeats the
  column's value instead, where computing it again gives the same answer (aggregates in a
  grouping RETURN, a steady expression without subqueries in a plain one);
* a key that reads a variable the same RETURN renames reads a copy bound by ``LET`` first: some
  engines resolve sort keys against the result columns and lose the renamed variable (grafeo
  0.6: "Variable not found for ORDER BY");
* otherwise, where a sort key or a grouping key must name a column whose name is not a
  variable, or a key reads a value a DISTINCT or aggregating projection drops, the columns are
  computed under fresh names and renamed, with the ordering and paging, by a second RETURN after
  ``NEXT`` (two stages); a key reading a dropped value is carried by the first stage as a hidden
  column, and refused where the projection is DISTINCT or aggregates (the hidden column would
  change its rows);
* a key whose values may be of different types is refused: Cypher's ORDER BY orders values
  of different types by a fixed order of the types ("Equality, ordering, and comparison of
  value types", https://neo4j.com/docs/cypher-manual/current/values-and-types/ordering-equality-comparison/),
  where GQL compares only values of comparable types (a sort key of mixed types raises); the
  refusal stays in the key (:class:`~gqlir.ir.Untranslatable`) and is raised where it is
  written.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ..analysis.aggregates import aggregates
from ..ir import expr as e
from ..ir import query as q
from ..ir.analysis import OPAQUE, free_variables
from ..ir.node import Node
from .exprs import repeatable
from .substitute import rename

if TYPE_CHECKING:
    from .gql_projections import Columns, GqlProjections

__all__ = [
    "needs_two_stages",
    "shadowing",
    "sort_by_values",
    "sort_key",
    "swap_exprs",
    "two_stages",
    "unrenamed_sort_keys",
    "variables",
]


def _expr(node: Node) -> e.Expr:
    assert isinstance(node, e.Expr)
    return node


def variables(node: Node) -> set[str]:
    """The names of the variables ``node`` holds (bound inside it or not)."""
    return {v.name for v in node.find_all(e.Variable)}


def sort_by_values(
    walk: GqlProjections, step: q.Projection, cols: Columns, aggregating: bool
) -> q.Projection:
    """Sort keys that name a final column whose name cannot be a variable repeat its value."""
    shadowed = shadowing(cols)
    values = {
        a: x
        for x, a in cols
        if not walk.usable_variable(a)
        and repeatable(x)
        and (aggregates(x) if aggregating else True)
        and not free_variables(x) & shadowed
    }
    if not values:
        return step

    def value(node: Node) -> Node:
        if isinstance(node, e.Variable) and node.name in values:
            return values[node.name]
        return node

    order = tuple(replace(s, expr=_expr(s.expr.transform(value))) for s in step.order_by)
    return replace(step, order_by=order)


def sort_key(
    walk: GqlProjections, key: e.Expr, cols: Columns, *, usable_only: bool = True
) -> e.Expr:
    """``key`` with every part that repeats a column's expression replaced by that column
    (only columns whose name can be referenced, unless ``usable_only`` is false). A key's
    variable that names a column reads the column, so a column whose expression reads such
    a name is another value in the key (``RETURN b AS a, a AS b ORDER BY a`` sorts by the
    first column) and is never swapped in."""
    shadowed = shadowing(cols)
    by_expr = {
        x: a
        for x, a in cols
        if not (isinstance(x, e.Variable) and x.name == a)
        and (walk.usable_variable(a) or not usable_only)
        and not free_variables(x) & shadowed
    }
    return swap_exprs(key, by_expr)


def unrenamed_sort_keys(
    walk: GqlProjections, keys: list[q.SortItem], cols: Columns
) -> tuple[list[q.SortItem], tuple[q.Binding, ...]]:
    """Sort keys that read a variable the same RETURN renames (``RETURN v AS `n m` ORDER BY
    v``) read a copy bound by LET before it instead."""
    renamed = {x.name for x, a in cols if isinstance(x, e.Variable) and x.name != a}
    renamed -= {a for _, a in cols}
    hit = renamed & set().union(*(variables(k.expr) for k in keys))
    if not hit:
        return keys, ()
    copies = {v: walk.fresh() for v in sorted(hit)}

    def copy(node: Node) -> Node:
        if isinstance(node, e.Variable) and node.name in copies:
            return e.Variable(copies[node.name], pos=node.pos)
        return node

    bindings = tuple(q.Binding(c, e.Variable(v)) for v, c in copies.items())
    return [replace(k, expr=_expr(k.expr.transform(copy))) for k in keys], bindings


def orderable(walk: GqlProjections, keys: tuple[q.SortItem, ...]) -> tuple[q.SortItem, ...]:
    """``keys`` (in the scope they are read in) with a key of mixed types refused."""
    out: list[q.SortItem] | None = None
    for i, key in enumerate(keys):
        if walk.type_of(key.expr).kind != "mixed":
            continue
        if out is None:
            out = list(keys)
        refused = e.Untranslatable(
            key.expr,
            "ordering values of different types",
            "Cypher orders values of different types by a fixed type order; GQL cannot "
            "compare them",
            pos=key.pos,
        )
        out[i] = replace(key, expr=refused)
    return keys if out is None else tuple(out)


def needs_two_stages(
    walk: GqlProjections, step: q.Projection, cols: Columns, *, aggregating: bool
) -> bool:
    """Whether the columns must be computed under other names and renamed after NEXT: a
    grouping key or a sort key has to name a column whose name is not a variable."""
    from .projection_grouping import iso_grouping

    if iso_grouping(walk, step, cols, aggregating):
        for x, alias in cols:
            if aggregates(x) or (isinstance(x, e.Variable) and x.name == alias):
                continue
            if not walk.usable_variable(alias) or alias in walk.scope:
                return True
    if not step.order_by:
        return False
    restricted = step.distinct or aggregating
    outputs = {a for _, a in cols}
    for item in step.order_by:
        free = variables(sort_key(walk, item.expr, cols))
        if any(v in outputs and not walk.usable_variable(v) for v in free):
            return True
        if restricted and not free <= outputs:
            return True
    return False


def two_stages(walk: GqlProjections, step: q.Projection, cols: Columns) -> list[q.Step]:
    """The columns under fresh names, then renamed (with the ordering and paging) in a second
    RETURN after NEXT."""
    fresh = [(x, _stage_name(walk, x, a)) for x, a in cols]
    outputs = {a: f for (_, a), (_, f) in zip(cols, fresh)}
    hidden: Columns = []
    order: list[q.SortItem] = []
    for item in step.order_by:
        key = sort_key(walk, item.expr, cols, usable_only=False)
        if not variables(key) <= set(outputs):
            if step.distinct or any(aggregates(x) for x, _ in cols):
                raise walk.unsupported(
                    "ORDER BY on a value the projection drops",
                    item,
                    rewrite="return the sort key as a column",
                )
            key = _hidden_sort_key(walk, key, cols, outputs, hidden)
        else:
            key = rename(key, outputs)
        order.append(replace(item, expr=key))
    first = q.Projection(
        tuple(q.ReturnItem(x, f) for x, f in fresh + hidden),
        distinct=step.distinct,
        group_by=step.group_by,
        pos=step.pos,
    )
    renames: Columns = [(e.Variable(f), a) for (_, f), (_, a) in zip(fresh, cols)]
    second = q.Projection(
        tuple(q.ReturnItem(x, a) for x, a in renames),
        order_by=tuple(order),
        skip=step.skip,
        limit=step.limit,
        pos=step.pos,
    )
    out = walk.single_stage(first, fresh + hidden, aggregating=any(aggregates(x) for x, _ in fresh))
    return out + walk.single_stage(second, renames, aggregating=False, rewrite_keys=False)


def _hidden_sort_key(
    walk: GqlProjections,
    key: e.Expr,
    cols: Columns,
    outputs: dict[str, str],
    hidden: Columns,
) -> e.Expr:
    """A sort key that reads a value the projection drops, for the second of two stages:
    computed in the first stage as a hidden column, unless it also reads a column whose
    name shadows an incoming variable (``RETURN y AS x ORDER BY x * 10 - a.x``); then the
    first stage carries the incoming variables it reads, and the key reads the columns and
    those in the second."""
    if not free_variables(key) & shadowing(cols):
        name = walk.fresh()
        hidden.append((key, name))
        return e.Variable(name, pos=key.pos)
    carried = {}
    for v in sorted(free_variables(key) - set(outputs)):
        if v in walk.scope:
            carried[v] = walk.fresh()
            hidden.append((e.Variable(v), carried[v]))
    return rename(key, {**outputs, **carried})


def _stage_name(walk: GqlProjections, value: e.Expr, alias: str) -> str:
    """The name a column gets in the first of two stages: its own where it can be a
    variable (and, for a grouping key bound with LET, is not bound already)."""
    if walk.regular(alias) and (
        aggregates(value)
        or alias not in walk.scope
        or (isinstance(value, e.Variable) and value.name == alias)
    ):
        return alias
    return walk.fresh()


def shadowing(cols: Columns) -> set[str]:
    """Column names that stand for another value than the incoming variable of that name:
    where a sort key reads one of them, it reads the column."""
    return {a for x, a in cols if not (isinstance(x, e.Variable) and x.name == a)}


def swap_exprs(node: e.Expr, names: dict[e.Expr, str]) -> e.Expr:
    """``node`` with every subexpression equal to a key of ``names`` (outside aggregates and
    subqueries) replaced by that variable. Under a comprehension, a key that reads the
    comprehension's own variable is another value there and stays."""
    if not names:
        return node
    if node in names:
        return e.Variable(names[node], pos=node.pos)
    if isinstance(node, (e.Aggregate, e.CountStar, *OPAQUE)):
        return node
    bound = _bound_names(node)
    changes: dict[str, Any] = {}
    for attr, child in node.field_values():
        inner = names
        if bound and attr not in ("source", "init"):
            inner = {x: a for x, a in names.items() if not free_variables(x) & bound}
        if isinstance(child, e.Expr):
            new = swap_exprs(child, inner)
            if new is not child:
                changes[attr] = new
        elif isinstance(child, tuple) and child and all(isinstance(c, Node) for c in child):
            # (expressions, or a CASE's WHEN clauses)
            items = tuple(swap_exprs(c, inner) for c in child)
            if any(a is not b for a, b in zip(items, child)):
                changes[attr] = items
        elif isinstance(child, tuple) and child and all(isinstance(c, tuple) for c in child):
            entries = tuple((k, swap_exprs(v, inner)) for k, v in child)
            if any(a[1] is not b[1] for a, b in zip(entries, child)):
                changes[attr] = entries
    return replace(node, **changes) if changes else node


def _bound_names(node: e.Expr) -> set[str]:
    """The variables a comprehension, list predicate or reduce() binds for its body."""
    if isinstance(node, (e.ListComprehension, e.ListPredicate)):
        return {node.variable}
    if isinstance(node, e.Reduce):
        return {node.variable, node.accumulator}
    return set()
