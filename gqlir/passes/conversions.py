"""Cypher's conversion functions where the argument's type makes them plain, for a target that
lacks them.

``toBoolean``, ``toInteger``, ``toFloat`` and ``toString`` return a value of their own type
unchanged and null for null (Neo4j Cypher manual, scalar and string functions: "toBoolean(true)
returns true", "toInteger(null) returns null" …), so for a target that lists the function in
``unsupported_functions`` (Kuzu converts with cast(), SQL and GQL with CAST, which raise where
Cypher's functions give null: dialects/kuzu.toml, sql.toml, iso-gql.toml) a call whose argument
is known to have that type, or to be null, is the argument itself. ``toString`` of an integer
is ``CAST(x AS STRING)`` for a GQL target (the pipeline runs :func:`lower_conversions_by_cast`
there; Kuzu's CAST is not read back by gqlir's Cypher grammar and gqlir's SQL printer writes no
CAST, so those targets keep only the identities): an integer is written in decimal digits with
a leading ``-`` by Cypher (Java's ``Long.toString``), SQL (ISO 9075 6.13 "cast specification":
the shortest exact numeric literal), GQL (castSpecification, GQL.g4 20.8, after SQL) and Kuzu
alike; ``toFloat`` of an integer is ``CAST(x AS FLOAT)`` there (both the nearest double, as
Java's ``long`` to ``double`` conversion). Other types stay refused: floats, booleans and temporal values are written differently,
and a string's conversion to a number or boolean fails differently.

The argument's type comes from :class:`gqlir.analysis.types.TypeAnalysis` over the variables a
linear query has bound so far (an UNWIND of a list of known element type, a WITH item of known
type); a name some inner scope binds again (a comprehension's variable, a subquery's) is not
known, nor is anything after a step this pass does not follow.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from ..analysis.types import ANY, TypeAnalysis, VType
from ..dialect import Dialect
from ..ir import expr as e
from ..ir import query as q
from ..ir.analysis import OPAQUE, names_in
from ..ir.node import Node

__all__ = ["NAMES", "applies", "lower_conversions", "lower_conversions_by_cast"]

#: conversion function -> the type it leaves unchanged
_OWN_TYPE = {"toboolean": "boolean", "tointeger": "integer", "tofloat": "float"}
_OWN_TYPE["tostring"] = "string"
NAMES = frozenset(_OWN_TYPE)

#: steps after which the variables in scope are still the ones this pass tracks
_FOLLOWED = (q.Match, q.Filter, q.SetClause, q.Remove, q.Delete)


def applies(target: Dialect) -> bool:
    """A target that lacks one of the conversion functions."""
    return not NAMES.isdisjoint(target.capabilities.unsupported_functions)


class _Scope(TypeAnalysis):
    def __init__(self, bound: dict[str, VType], unknown: frozenset[str]) -> None:
        self.bound, self.unknown = bound, unknown

    def variable(self, name: str) -> VType:
        return ANY if name in self.unknown else self.bound.get(name, ANY)


def lower_conversions(root: Node, target: Dialect) -> Node:
    """``root`` with each conversion ``target`` lacks of a value of its own type (or null)
    written as the value."""
    return _lower(root, target, cast=False)


def lower_conversions_by_cast(root: Node, target: Dialect) -> Node:
    """As :func:`lower_conversions`, and ``toString`` of a known integer as a CAST."""
    return _lower(root, target, cast=target.capabilities.cast)


def _lower(root: Node, target: Dialect, *, cast: bool) -> Node:
    lacking = NAMES & set(target.capabilities.unsupported_functions)
    if not lacking:
        return root
    unknown = frozenset(_rebound(root))

    def linear(node: Node) -> Node:
        if not isinstance(node, q.LinearQuery):
            return node
        bound: dict[str, VType] = {}
        steps: list[q.Step] = []
        for step in node.steps:
            scope = _Scope(bound, unknown)
            if isinstance(step, q.Projection):
                items = tuple(
                    replace(item, expr=_rewrite(item.expr, scope, lacking, cast))
                    for item in step.items
                )
                steps.append(replace(step, items=items) if items != step.items else step)
                out = dict(bound) if step.star else {}
                for item in items:
                    name = item.alias or (
                        item.expr.name if isinstance(item.expr, e.Variable) else None
                    )
                    if name is not None:
                        out[name] = scope.of(item.expr)
                bound = out
                continue
            if isinstance(step, q.Unwind):
                steps.append(_rewrite_all(step, scope, lacking, cast))
                listed = scope.of(step.source)
                element = listed.element if listed.kind == "list" else None
                bound = {**bound, step.variable: element or ANY}
                if step.index is not None:
                    bound[step.index] = VType("integer")
                continue
            steps.append(_rewrite_all(step, scope, lacking, cast))
            if not isinstance(step, _FOLLOWED):
                bound = {}
        new = tuple(steps)
        return (
            node
            if all(a is b for a, b in zip(new, node.steps, strict=True))
            else replace(node, steps=new)
        )

    return root.transform(linear)


def _rebound(root: Node) -> set[str]:
    """Names an inner scope binds (a comprehension's, a predicate's, reduce()'s, or any name
    inside a subquery or pattern comprehension)."""
    found: set[str] = set()
    for node in root.walk():
        if isinstance(node, (e.ListComprehension, e.ListPredicate)):
            found.add(node.variable)
        elif isinstance(node, e.Reduce):
            found |= {node.variable, node.accumulator}
        elif isinstance(node, OPAQUE):
            found |= names_in(node)
    return found


def _rewrite_all(step: q.Step, scope: _Scope, lacking: frozenset[str], cast: bool) -> q.Step:
    changed = step.transform(_call_rewriter(scope, lacking, cast))
    return changed  # type: ignore[return-value]


def _rewrite(expr: e.Expr, scope: _Scope, lacking: frozenset[str], cast: bool) -> e.Expr:
    return expr.transform(_call_rewriter(scope, lacking, cast))  # type: ignore[return-value]


def _call_rewriter(scope: _Scope, lacking: frozenset[str], cast: bool) -> Callable[[Node], Node]:
    def rewrite(node: Node) -> Node:
        if not isinstance(node, e.FunctionCall) or node.name not in lacking:
            return node
        if len(node.args) != 1:
            return node
        (arg,) = node.args
        kind = scope.of(arg).kind
        if kind in (_OWN_TYPE[node.name], "null"):
            return arg
        if node.name == "tostring" and kind == "integer" and cast:
            return e.Cast(arg, e.TypeRef("STRING"), pos=node.pos)
        if node.name == "tofloat" and kind == "integer" and cast:
            return e.Cast(arg, e.TypeRef("FLOAT"), pos=node.pos)
        return node

    return rewrite
