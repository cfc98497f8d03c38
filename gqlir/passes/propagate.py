"""Constant propagation: a variable a projection binds to a constant is that constant wherever
the pipeline reads it afterwards.

``WITH date('1984-11-11') AS d RETURN date(d)`` holds the same date in ``d`` on every row, so
``date(d)`` is ``date(DATE '1984-11-11')``, which folding turns into a value the target can
write. This is part of the folding fallback of translation (``api.translate``): it runs only
where the target refused the query as written, and the projection keeps its column.

Only read steps are rewritten, and nothing is substituted inside a subquery, a pattern or map
projection, or under a list construction that binds the same name: where scoping is not plain,
the variable is left as it is.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .. import ir
from ..ir.analysis import OPAQUE, column_name, names_in
from ..ir.node import child_fields, rebuilt
from .fold import is_constant_value

#: Steps whose expressions only read the scope (a write's subject must stay a variable).
_READS = (ir.Match, ir.Unwind, ir.Let, ir.Filter, ir.Projection)

Env = Mapping[str, ir.Expr]


def propagate_constants(query: ir.Statement, fold: Callable[[Any], Any]) -> ir.Statement:
    """``query`` (already folded by ``fold``, which folds a whole tree) with the constant-bound
    variables of its pipelines replaced by their values; each rewritten step is folded again so
    that the values of later projections are known."""
    if isinstance(query, ir.LinearQuery):
        return _pipeline(query, fold)
    if isinstance(query, ir.SetOperation):
        left = propagate_constants(query.left, fold)
        right = propagate_constants(query.right, fold)
        if left is query.left and right is query.right:
            return query
        return rebuilt(query, left=left, right=right)
    return query


def _pipeline(query: ir.LinearQuery, fold: Callable[[Any], Any]) -> ir.LinearQuery:
    env: dict[str, ir.Expr] = {}
    steps: list[ir.Step] = []
    changed = False
    for step in query.steps:
        new = step
        if env and isinstance(step, _READS):
            new = _step(step, env)
            if new is not step:
                new = fold(new)
                changed = True
        env = _bindings_after(new, env)
        steps.append(new)
    return rebuilt(query, steps=tuple(steps)) if changed else query


def _step(step: ir.Step, env: Env) -> ir.Step:
    if not isinstance(step, ir.Projection):
        return _substitute(step, env)
    # ORDER BY and WHERE see the projection's own columns first.
    defined = {column_name(item) for item in step.items}
    after = {k: v for k, v in env.items() if k not in defined}
    items = tuple(_item(item, env) for item in step.items)
    order_by = tuple(_substitute(s, after) for s in step.order_by)
    where = _substitute(step.where, after) if step.where is not None else None
    if _same(items, step.items) and _same(order_by, step.order_by) and where is step.where:
        return step
    return rebuilt(step, items=items, order_by=order_by, where=where)


def _same(new: tuple[Any, ...], old: tuple[Any, ...]) -> bool:
    return all(a is b for a, b in zip(new, old, strict=True))


def _item(item: ir.ReturnItem, env: Env) -> ir.ReturnItem:
    expr = _substitute(item.expr, env)
    if expr is item.expr:
        return item
    # The column keeps the name it had (an unaliased variable is named after itself).
    return rebuilt(item, expr=expr, alias=column_name(item))


def _bindings_after(step: ir.Step, env: Env) -> dict[str, ir.Expr]:
    """The constant variables in scope after ``step`` (whose expressions are folded)."""
    if isinstance(step, ir.Projection):
        out = dict(env) if step.star else {}
        for item in step.items:
            name = column_name(item)
            if name is not None:
                out.pop(name, None)
                if is_constant_value(item.expr):
                    out[name] = item.expr
        return out
    if isinstance(step, ir.Let):
        out = dict(env)
        for binding in step.bindings:
            out.pop(binding.variable, None)
            if is_constant_value(binding.value):
                out[binding.variable] = binding.value
        return out
    if isinstance(step, ir.Filter) or not env:
        return dict(env)
    # Any other step may bind a name it mentions: forget those (conservative).
    mentioned = names_in(step)
    return {k: v for k, v in env.items() if k not in mentioned}


def _substitute(node: Any, env: Env) -> Any:
    if not env or not isinstance(node, ir.Node):
        return node
    if isinstance(node, ir.Variable):
        value = env.get(node.name)
        return node if value is None else value.with_pos(node.pos)
    if isinstance(node, OPAQUE):
        return node
    if isinstance(node, (ir.ListComprehension, ir.ListPredicate)):
        env = {k: v for k, v in env.items() if k != node.variable}
    elif isinstance(node, ir.Reduce):
        env = {k: v for k, v in env.items() if k not in (node.variable, node.accumulator)}
    changes: dict[str, Any] = {}
    for name in child_fields(type(node)):
        value = getattr(node, name)
        new = _substitute_value(value, env)
        if new is not value:
            changes[name] = new
    return rebuilt(node, **changes) if changes else node


def _substitute_value(value: Any, env: Env) -> Any:
    if isinstance(value, ir.Node):
        return _substitute(value, env)
    if isinstance(value, tuple):
        items = tuple(_substitute_value(v, env) for v in value)
        return value if all(a is b for a, b in zip(items, value, strict=True)) else items
    return value
