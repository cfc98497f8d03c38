"""Graph elements in the top-level result of a target that cannot return them (Spanner).

Rule: Spanner Graph does not output a node, an edge or a path at the top level ("directly
outputting the graph element n is not supported", graph-sql-queries.md; ``dialects/spanner.toml``
``return_graph_elements = false``). Such a column is refused, or, on request
(``spanner_elements="to_json"``), returned as JSON with the dialect's
``element_json_function`` (``SAFE_TO_JSON``, "must return graph elements in JSON format",
https://cloud.google.com/spanner/docs/graph/work-with-visualizations), which changes the
value's form and so is never chosen silently. Around it:

* JSON is not groupable, a node or an edge is, a path or an array is not ("Groupable data
  types", https://cloud.google.com/spanner/docs/reference/standard-sql/data-types): a node or
  edge that is a DISTINCT or grouping key is grouped first and made JSON in a second RETURN; a
  path or a list is refused;
* a sort key that reads such a column (``RETURN n ORDER BY n.name``) is bound with ``LET``
  before the RETURN (read after it, ``n`` would be the JSON); a key that is an element, or
  aggregates, is refused (graph elements are not orderable, "Orderable data types", same page).

The policy is the printer's option (``spanner_elements``), given to this pass through the
pipeline's ``options``; a JSON column is a :data:`JSON_MARK` call, a refused one an
:class:`~gqlir.ir.Untranslatable` the printer raises where it writes the column.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from ..analysis.aggregates import aggregates
from ..analysis.types import VType
from ..ir import expr as e
from ..ir import marks
from ..ir import query as q
from ..ir.analysis import OPAQUE
from ..ir.node import Node
from .projection_sorting import variables

if TYPE_CHECKING:
    from .gql_projections import Columns, GqlProjections

__all__ = ["JSON_MARK", "holds_element", "lower"]

#: The function name of an element returned as JSON (the printer writes the dialect's
#: ``element_json_function``).
JSON_MARK = marks.TO_JSON


def lower(
    walk: GqlProjections, step: q.Projection, cols: Columns, aggregating: bool, *, top: bool
) -> tuple[list[q.Step] | None, Columns]:
    """The steps of a final top-level projection whose elements need two statements, or None
    and its columns with elements as JSON (or refused)."""
    wrapped = [(_returnable(walk, x, a, step), a) for x, a in cols]
    changed = {  # (the columns made JSON; a refused one is raised where it is written)
        a for (x, a), (y, _) in zip(cols, wrapped) if y is not x and type(y) is e.FunctionCall
    }
    if changed and _groups_elements(walk, step, cols, changed, aggregating):
        first, second = _json_after_grouping(walk, step, cols)
        out = walk.projection_steps(first, final=False, top=top)
        return out + walk.projection_steps(second, final=True, top=top), cols
    if any(changed & variables(item.expr) for item in step.order_by):
        return _sort_before_json(walk, step, cols, changed, top=top), cols
    return None, wrapped


def holds_element(t: VType) -> bool:
    """Whether a value of type ``t`` is or holds a graph element."""
    if t.kind in ("node", "edge", "path"):
        return True
    return t.kind == "list" and t.element is not None and holds_element(t.element)


def _returnable(walk: GqlProjections, value: e.Expr, alias: str, step: q.Projection) -> e.Expr:
    """A top-level result column for a dialect that cannot return graph elements: the value,
    its JSON, or its refusal (raised where the printer writes the column)."""
    if not holds_element(walk.type_of(value)):
        return value
    if walk.element_policy == "to_json" and walk.caps.element_json_function:
        return e.FunctionCall(JSON_MARK, (value,), pos=value.pos)
    return e.Untranslatable(
        value,
        "graph element in result",
        f"column {alias!r} holds a graph element, which {walk.dialect.name} cannot "
        "return at the top level",
        "return its properties (n.name AS name), or pass "
        "spanner_elements='to_json' to return it as JSON",
        pos=value.pos if value.pos is not None else step.pos,
    )


def _groups_elements(
    walk: GqlProjections,
    step: q.Projection,
    cols: Columns,
    changed: set[str],
    aggregating: bool,
) -> bool:
    """Whether a column returned as JSON is also a DISTINCT or grouping key."""
    if not (step.distinct or step.group_by is not None or aggregating):
        return False
    keys = [
        (x, a)
        for x, a in cols
        if a in changed and (step.distinct or step.group_by is not None or not aggregates(x))
    ]
    for x, a in keys:
        if walk.type_of(x).kind not in ("node", "edge"):
            raise walk.unsupported(
                "grouping by a path or a list",
                x if x.pos is not None else step,
                message=f"column {a!r} is a DISTINCT or grouping key that {walk.dialect.name} "
                "cannot group (paths and arrays are not groupable)",
            )
    return bool(keys)


def _json_after_grouping(
    walk: GqlProjections, step: q.Projection, cols: Columns
) -> tuple[q.Projection, q.Projection]:
    """The projection with its elements as they are, then ``RETURN`` of its columns, where
    they become JSON; ordering and paging move to the second when they read only columns."""
    aliases = {a for _, a in cols}
    movable = all(variables(s.expr) <= aliases and not aggregates(s.expr) for s in step.order_by)
    if not movable:
        raise walk.unsupported(
            "ORDER BY with graph elements as JSON",
            step,
            rewrite="order by the returned columns",
        )
    first = replace(step, order_by=(), skip=None, limit=None)
    second = q.Projection(
        tuple(q.ReturnItem(e.Variable(a), a) for _, a in cols),
        order_by=step.order_by,
        skip=step.skip,
        limit=step.limit,
        pos=step.pos,
    )
    return first, second


def _sort_before_json(
    walk: GqlProjections, step: q.Projection, cols: Columns, changed: set[str], *, top: bool
) -> list[q.Step]:
    """``LET k = n.name RETURN SAFE_TO_JSON(n) AS n ORDER BY k`` for ``RETURN n ORDER BY
    n.name``."""
    originals = {a: x for x, a in cols if a in changed}

    def unaliased(node: Node) -> Node:
        if isinstance(node, e.Variable) and node.name in originals:
            return originals[node.name]
        return node

    bindings: list[q.Binding] = []
    order: list[q.SortItem] = []
    for item in step.order_by:
        if not changed & variables(item.expr):
            order.append(item)
            continue
        key = item.expr.transform(unaliased)
        assert isinstance(key, e.Expr)
        if (
            aggregates(key)
            or any(isinstance(n, (*OPAQUE, e.ListComprehension)) for n in key.walk())
            or holds_element(walk.type_of(key))
        ):
            raise walk.unsupported(
                "ORDER BY a graph element",
                item,
                rewrite="order by one of its properties",
            )
        name = walk.fresh()
        bindings.append(q.Binding(name, key, pos=item.pos))
        order.append(replace(item, expr=e.Variable(name)))
    out = walk.let(tuple(bindings), step.pos)
    # the columns listed: a * would return the sort keys too
    items = tuple(q.ReturnItem(x, a) for x, a in cols)
    new = replace(step, items=items, star=False, order_by=tuple(order))
    return out + walk.projection_steps(new, final=True, top=top)
