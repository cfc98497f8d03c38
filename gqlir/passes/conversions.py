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

The argument's type comes from the scope analysis (:mod:`gqlir.analysis.scope`, walked by
:class:`~.scoped.ScopedRewrite`): what each step binds, a walk's variable typed by its list, a
subquery's imports. A nested conversion is decided first, since its result is the operand's
value (``toString(toInteger(null))`` is null).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, ClassVar

from ..dialect import Dialect
from ..ir import expr as e
from ..ir.node import Node
from .scoped import ScopedRewrite

__all__ = ["NAMES", "applies", "lower_conversions", "lower_conversions_by_cast"]

#: conversion function -> the type it leaves unchanged
_OWN_TYPE = {"toboolean": "boolean", "tointeger": "integer", "tofloat": "float"}
_OWN_TYPE["tostring"] = "string"
NAMES = frozenset(_OWN_TYPE)


def applies(target: Dialect) -> bool:
    """A target that lacks one of the conversion functions."""
    return not NAMES.isdisjoint(target.capabilities.unsupported_functions)


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
    return _Conversions(target, lacking, cast=cast).run(root)


def _conversion(walk: _Conversions, node: e.FunctionCall) -> e.Expr:
    if node.name not in walk.lacking or len(node.args) != 1:
        return node
    arg = walk.expr(node.args[0])  # (an inner conversion first: its result is the value)
    kind = walk.type_of(arg).kind
    if kind in (_OWN_TYPE[node.name], "null"):
        return arg
    if walk.cast and kind == "integer" and node.name in ("tostring", "tofloat"):
        to = "STRING" if node.name == "tostring" else "FLOAT"
        return e.Cast(arg, e.TypeRef(to), pos=node.pos)
    return node if arg is node.args[0] else replace(node, args=(arg,))


class _Conversions(ScopedRewrite):
    rules: ClassVar[Any] = {e.FunctionCall: _conversion}

    def __init__(self, target: Dialect, lacking: frozenset[str], *, cast: bool) -> None:
        super().__init__(target)
        self.lacking = lacking
        self.cast = cast
