"""Cypher's implicit grouping as a GQL target's explicit ``GROUP BY``.

Rule: a Cypher projection that aggregates groups by its non-aggregate items (openCypher 9,
"Aggregating functions": "the non-aggregating expressions are the grouping keys"; the IR's
``Projection.group_by`` None). A GQL target that does not group implicitly
(``implicit_grouping = false``) is given the keys:

* ``group_by = "expressions"`` (TuGraph GQL: GqlParser.g4 ``groupingElement : expression``): the
  key expressions, or, where an integer key is a column ordinal (``group_by_ordinals``), every
  key as its column's ordinal (an integer literal key would otherwise be read as one);
* ``group_by = "variables"`` (ISO GQL: GQL.g4 ``groupingElement : bindingVariableReference``): a
  key that is not a variable is bound first with ``LET`` under its column name
  (``LET city = a.city RETURN city, count(*) AS c GROUP BY city``), valid whether the GROUP BY
  names are read as incoming variables or as result columns; an aggregating item that also
  reads a key's expression outside its aggregates reads the key's variable instead (a grouped
  RETURN may read its grouping variables), and one that reads another incoming variable there
  is refused.

An explicit GROUP BY (read from GQL) keeps its keys; where the target groups by variables only,
a key that is not one is refused in place ("GROUP BY expression", with the rewrite "bind the
expression with LET and group by the variable"): :func:`explicit_keys`.

And: an aggregate read by a list walk (``head(collect(x))``, ``collect(x)[0]``, ``1 IN
collect(x)``) is computed in a first projection and read in a second, because GQL writes a walk
over a list as a subquery, in which the aggregate would run over the subquery's own rows.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from ..analysis.aggregates import aggregates, outer_aggregates
from ..ir import expr as e
from ..ir import query as q
from ..ir.analysis import SUBQUERIES, free_variables
from ..ir.node import Node
from .projection_sorting import swap_exprs, variables

if TYPE_CHECKING:
    from .gql_projections import Columns, GqlProjections

__all__ = ["aggregate_first", "explicit_keys", "implicit_group_by", "iso_grouping"]

#: Expressions GQL writes as a walk over a list in a subquery.
_LIST_WALKS = (e.Index, e.Slice, e.ListComprehension, e.ListPredicate, e.In)


def iso_grouping(
    walk: GqlProjections, step: q.Projection, cols: Columns, aggregating: bool
) -> bool:
    """Whether the projection's implicit keys will be bound with LET (grouping by variables)."""
    return (
        aggregating
        and step.group_by is None
        and not walk.caps.implicit_grouping
        and walk.caps.group_by == "variables"
        and any(not aggregates(x) for x, _ in cols)
    )


def explicit_keys(steps: list[q.Step], mode: str) -> list[q.Step]:
    """``steps`` with a GROUP BY key that is not a variable refused, where the target groups by
    variables (``mode``, capability ``group_by``): the GROUP BY is that refusal alone."""
    if mode != "variables":
        return steps
    out = steps
    for i, step in enumerate(steps):
        keys = getattr(step, "group_by", None) if type(step) is q.Projection else None
        key = next((k for k in keys or () if type(k) is not e.Variable), None)
        if key is None:
            continue
        refused = e.Untranslatable(
            key,
            "GROUP BY expression",
            rewrite="bind the expression with LET and group by the variable",
            pos=key.pos,
        )
        if out is steps:
            out = list(steps)
        out[i] = replace(step, group_by=(refused,))  # type: ignore[call-arg]
    return out


def implicit_group_by(
    walk: GqlProjections, step: q.Projection, cols: Columns
) -> tuple[Columns, tuple[q.Binding, ...], tuple[e.Expr, ...] | None]:
    """The columns, the LET bindings before the RETURN, and the explicit GROUP BY keys (None:
    no key, the whole input is one group)."""
    mode = walk.caps.group_by
    keys = [(x, a) for x, a in cols if not aggregates(x)]
    if not keys:
        return cols, (), None
    if mode == "expressions":
        if walk.caps.group_by_ordinals:
            ordinals = tuple(
                e.Integer(next(i for i, (y, _) in enumerate(cols, 1) if y is x)) for x, _ in keys
            )
            return cols, (), ordinals
        return cols, (), tuple(x for x, _ in keys)
    if mode != "variables":
        raise walk.unsupported(
            "implicit grouping", step, rewrite="return only aggregates, or group in a subquery"
        )
    lets: list[q.Binding] = []
    out: Columns = []
    names: list[str] = []
    key_vars: dict[e.Expr, str] = {}
    for x, alias in cols:
        if aggregates(x):
            out.append((x, alias))
            continue
        if not (isinstance(x, e.Variable) and x.name == alias):
            lets.append(q.Binding(alias, x))
            key_vars[x] = alias
            x = e.Variable(alias, pos=x.pos)
        out.append((x, alias))
        names.append(alias)
    # An aggregating item may use a key's expression outside its aggregates: the key's
    # variable stands for it (GQL lets a grouped RETURN read its grouping variables).
    out = [(swap_exprs(x, key_vars) if aggregates(x) else x, a) for x, a in out]
    for x, _ in out:
        if aggregates(x) and not _free_outside_aggregates(x) <= set(names):
            raise walk.unsupported(
                "aggregate combined with a grouping key",
                x,
                rewrite="compute the aggregate in its own column, then combine it with the "
                "key in a later projection",
            )
    return out, tuple(lets), tuple(e.Variable(n) for n in names)


def aggregate_first(
    walk: GqlProjections, step: q.Projection, cols: Columns
) -> tuple[q.Projection, q.Projection] | None:
    """A projection whose aggregate is read by a list walk as two: the first groups and
    aggregates, the second reads the aggregated lists. Only when the reading items read
    nothing but aggregates, and ORDER BY only result columns."""
    if step.star or step.group_by is not None or not walk.caps.value_subquery:
        return None
    if not any(_walks_an_aggregate(x) for x, _ in cols):
        return None
    aliases = {a for _, a in cols}
    if any(not variables(s.expr) <= aliases or aggregates(s.expr) for s in step.order_by):
        return None  # (a sort key that aggregates belongs to the grouping statement)
    hoistable: dict[int, e.Expr] = {}  # id -> the aggregate, outside subqueries
    for x, _ in cols:
        if _walks_an_aggregate(x):
            hoistable.update((id(a), a) for a in outer_aggregates(x))
    names: dict[Node, str] = {}

    def hoist(node: Node) -> Node:
        if id(node) not in hoistable:
            return node
        if node not in names:
            names[node] = walk.fresh()
        return e.Variable(names[node])

    reads = []
    for x, alias in cols:
        if _walks_an_aggregate(x):
            read = x.transform(hoist)
            assert isinstance(read, e.Expr)
            if not free_variables(read) <= set(names.values()):
                return None
            reads.append(q.ReturnItem(read, alias))
    keys: list[q.ReturnItem] = []
    out: list[q.ReturnItem] = []
    for x, alias in cols:
        if _walks_an_aggregate(x):
            out.append(reads.pop(0))
            continue
        carried = alias if walk.usable_variable(alias) else walk.fresh()
        keys.append(q.ReturnItem(x, carried))
        out.append(q.ReturnItem(e.Variable(carried), alias))
    hoisted = tuple(q.ReturnItem(x, name) for x, name in names.items() if isinstance(x, e.Expr))
    first = q.Projection((*keys, *hoisted), pos=step.pos)
    return first, replace(step, items=tuple(out))


def _walks_an_aggregate(node: Node, walked: bool = False) -> bool:
    """Whether an aggregate of ``node`` (outside its subqueries) is the list of a walk."""
    if walked and isinstance(node, (e.Aggregate, e.CountStar)):
        return True
    if isinstance(node, SUBQUERIES):
        return False
    walks = isinstance(node, _LIST_WALKS) or (
        isinstance(node, e.FunctionCall) and node.name in ("head", "last")
    )
    return any(_walks_an_aggregate(child, walked or walks) for child in node.children())


def _free_outside_aggregates(node: Node) -> set[str]:
    """Variables ``node`` reads outside any aggregate call."""
    out: set[str] = set()
    stack = [node]
    while stack:
        inner = stack.pop()
        if isinstance(inner, (e.Aggregate, e.CountStar, *SUBQUERIES)):
            continue
        if isinstance(inner, e.Variable):
            out.add(inner.name)
        stack.extend(inner.children())
    return out
