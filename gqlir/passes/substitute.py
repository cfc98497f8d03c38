"""Substituting a value for a variable in an expression, with the IR's scoping.

A rewrite that expands a list walk over a constant list (``any(x IN [1, 2] WHERE p)`` is
``p[1/x] OR p[2/x]``) or names an outer element afresh must replace a variable only where it
reads the binding being replaced: a comprehension or ``reduce()`` that binds the same name
hides it, and a subquery (whose scoping is not followed here) refuses the substitution.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..ir import expr as e
from ..ir import pattern as p
from ..ir.analysis import SUBQUERIES, names_in
from ..ir.node import Node, child_fields, rebuilt

__all__ = ["mentions", "rebinds", "rename", "substitute"]


def substitute(node: e.Expr, name: str, value: e.Expr) -> e.Expr | None:
    """``node`` with the variable ``name`` replaced by the constant ``value``; None where a
    subquery could see the variable (its scoping is not followed here)."""
    cls = type(node)
    if cls is e.Variable:
        return value if node.name == name else node  # type: ignore[attr-defined]
    if cls in _CONSTANTS:
        return node
    if isinstance(node, e.Variable):
        return value if node.name == name else node
    if isinstance(node, (*SUBQUERIES, e.PatternComprehension)):
        if not mentions(node, name):
            return node
        if (
            isinstance(value, e.Variable)
            and value.name not in names_in(node)
            and not rebinds(node, name)
        ):
            return rename(node, {name: value.name})
        return None
    if isinstance(node, (e.ListComprehension, e.ListPredicate)):
        source = substitute(node.source, name, value)
        if source is None:
            return None
        if node.variable == name:
            return replace(node, source=source)
        fields: dict[str, Any] = {"source": source}
        for attr in ("where", "projection", "predicate"):
            inner = getattr(node, attr, None)
            if inner is not None:
                new = substitute(inner, name, value)
                if new is None:
                    return None
                fields[attr] = new
        return replace(node, **fields)
    if isinstance(node, e.Reduce) and (
        name in (node.accumulator, node.variable) or name in _variables(node.expression)
    ):
        return None
    changes: dict[str, Any] = {}
    for attr in child_fields(cls):  # (the other fields hold names and flags)
        child = getattr(node, attr)
        if isinstance(child, e.Expr):
            new = substitute(child, name, value)
            if new is None:
                return None
            if new is not child:
                changes[attr] = new
        elif isinstance(child, tuple) and child and all(isinstance(c, e.Expr) for c in child):
            items = []
            for c in child:
                new = substitute(c, name, value)
                if new is None:
                    return None
                items.append(new)
            if any(a is not b for a, b in zip(items, child)):
                changes[attr] = tuple(items)
        elif isinstance(child, tuple) and any(
            isinstance(c, tuple) for c in child
        ):  # map literal entries
            entries = []
            for key, inner in child:
                new = substitute(inner, name, value)
                if new is None:
                    return None
                entries.append((key, new))
            changes[attr] = tuple(entries)
        elif isinstance(child, Node) and name in _variables(child):
            return None
    return rebuilt(node, **changes) if changes else node


#: Expressions with no operand and no variable: a substitution leaves them as they are.
_CONSTANTS = frozenset({e.Null, e.Boolean, e.Integer, e.Float, e.String, e.Parameter})


def rename(node: e.Expr, names: dict[str, str]) -> e.Expr:
    """``node`` with its variables renamed, in patterns too (a subquery's pattern refers to an
    outer variable by its name)."""

    def swap(inner: Node) -> Node:
        if isinstance(inner, e.Variable) and inner.name in names:
            return e.Variable(names[inner.name], pos=inner.pos)
        if isinstance(inner, (p.NodePattern, p.RelPattern)) and inner.variable in names:
            return replace(inner, variable=names[inner.variable])
        return inner

    result = node.transform(swap)
    assert isinstance(result, e.Expr)
    return result


def mentions(node: Node, name: str) -> bool:
    """Whether ``node`` reads ``name`` or names it in a pattern (as a string, not a Variable)."""
    for inner in node.walk():
        if isinstance(inner, (e.Variable, p.NodePattern, p.RelPattern, p.PathPattern)) and (
            getattr(inner, "name", None) == name or getattr(inner, "variable", None) == name
        ):
            return True
    return False


def rebinds(node: Node, name: str) -> bool:
    """Whether something inside ``node`` binds ``name`` anew (a comprehension's variable, a
    path variable …)."""
    return any(
        getattr(inner, attr, None) == name
        for inner in node.walk()
        if isinstance(inner, (e.ListComprehension, e.ListPredicate, e.Reduce, p.PathPattern))
        for attr in ("variable", "accumulator")
    )


def _variables(node: Node) -> set[str]:
    return {v.name for v in node.find_all(e.Variable)}
