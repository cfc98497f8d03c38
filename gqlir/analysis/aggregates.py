"""Does an expression aggregate, and with which aggregates.

An aggregate (``count(x)``, ``count(*)``, ``collect(x)`` …) belongs to the nearest query around
it: one inside an ``EXISTS``/``COUNT``/``COLLECT``/``VALUE`` subquery aggregates the subquery's
rows, not the enclosing projection's (openCypher 9, 4.3 "Aggregating functions"; ISO GQL 16.9
<aggregate function>: the set function's rows are its query's). So ``RETURN COUNT { MATCH (n)
RETURN count(*) }`` does not group. A pattern comprehension is not a subquery: an aggregate in
its projection is the enclosing query's (and Cypher rejects it there).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from ..ir.analysis import SUBQUERIES
from ..ir.expr import (
    Aggregate,
    Boolean,
    CountStar,
    Expr,
    Float,
    Integer,
    Null,
    Parameter,
    Property,
    String,
    Variable,
)
from ..ir.node import Node, child_fields

__all__ = ["SUBQUERIES", "aggregates", "aggregates_in", "distinct_aggregates", "outer_aggregates"]

_AGGREGATES = (Aggregate, CountStar)


def outer_aggregates(node: Node) -> Iterator[Expr]:
    """The aggregates of ``node`` at its own level, left to right (an aggregate's argument is
    not searched: aggregates do not nest)."""
    stack: list[Any] = [node]
    pop = stack.pop
    while stack:
        inner = pop()
        if type(inner) is tuple:
            stack.extend(reversed(inner))
            continue
        if isinstance(inner, _AGGREGATES):
            yield inner
        elif isinstance(inner, Node) and not isinstance(inner, SUBQUERIES):
            for name in reversed(child_fields(type(inner))):
                value = getattr(inner, name)
                if value is not None:
                    stack.append(value)


#: Expressions that hold no aggregate (asked of nearly every projected column).
_PLAIN = frozenset({Variable, Parameter, Null, Boolean, Integer, Float, String})


def aggregates(node: Node) -> bool:
    """Whether ``node`` aggregates at its own level (remembered while the node lives: the
    projection lowerings, the printer and the folding fallback ask it of the same columns)."""
    cls = type(node)
    if cls in _PLAIN or (cls is Property and type(node.subject) in _PLAIN):  # type: ignore[attr-defined]
        return False
    found = _KNOWN.get(id(node))
    if found is not None and found[0] is node:
        return found[1]
    holds = _holds_aggregate(node)
    if len(_KNOWN) > 4096:
        _KNOWN.clear()
    _KNOWN[id(node)] = (node, holds)
    return holds


#: id(node) -> (the node, held so that its id is not reused; whether it aggregates)
_KNOWN: dict[int, tuple[Node, bool]] = {}


def _holds_aggregate(node: Node) -> bool:
    """:func:`outer_aggregates` finds one, without its generator and in no particular order
    (the projection lowerings ask this of every column, several times)."""
    stack: list[Any] = [node]
    pop, push, kinds = stack.pop, stack.append, _ROLES
    while stack:
        inner = pop()
        cls = type(inner)
        if cls is tuple:
            stack.extend(inner)
            continue
        role = kinds.get(cls)
        if role is None:
            role = _role(cls)
        if role is _AGGREGATE:
            return True
        if role is _SEARCHED:
            for name in child_fields(cls):
                value = getattr(inner, name)
                if value is not None:
                    push(value)
    return False


#: What :func:`_holds_aggregate` does with a value of a class (found once per class).
_AGGREGATE, _SEARCHED, _SKIPPED = "aggregate", "searched", "skipped"
_ROLES: dict[type, str] = {}


def _role(cls: type) -> str:
    if issubclass(cls, _AGGREGATES):
        role = _AGGREGATE
    elif issubclass(cls, Node) and not issubclass(cls, SUBQUERIES):
        role = _SEARCHED
    else:
        role = _SKIPPED  # a subquery (its own level), or a scalar inside a tuple or field
    _ROLES[cls] = role
    return role


def aggregates_in(node: Node) -> list[Expr]:
    """The aggregates of ``node`` at its own level, as a list (see :func:`outer_aggregates`)."""
    return list(outer_aggregates(node))


def distinct_aggregates(nodes: Iterable[Node]) -> list[Expr]:
    """The aggregates of ``nodes`` at their own level, each equal one once, in order."""
    return list(dict.fromkeys(agg for node in nodes for agg in outer_aggregates(node)))
