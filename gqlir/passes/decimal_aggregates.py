"""Aggregates of DECIMAL properties, refused where the target's aggregates do not take them.

Kuzu's ``sum``, ``min``, ``max``, ``avg`` and ``count`` have no DECIMAL signature: ``sum(n.d)``
of a ``DECIMAL(10, 2)`` column fails to bind (dialects/kuzu.toml, ``decimal_aggregates``,
observed with 0.11.3). Casting the value to a float would run, but would not keep its
exactness, so the aggregate is refused, naming the property, where the graph's schema types it
DECIMAL (without a schema nothing is known, and the engine's own error stays).
"""

from __future__ import annotations

from typing import Any

from ..dialect import Dialect
from ..errors import UnsupportedError
from ..ir import expr as e
from ..ir.node import Node

#: The aggregates probed on Kuzu 0.11.3 without a DECIMAL signature.
_NO_DECIMAL = frozenset({"sum", "min", "max", "avg", "count"})
#: Expressions whose value is DECIMAL when an operand is (arithmetic keeps the type there).
_PASSING = (e.Arithmetic, e.Negate, e.UnaryPlus)


def applies(target: Dialect) -> bool:
    return not target.capabilities.decimal_aggregates


def decimal_properties(schema: Any) -> frozenset[str]:
    """The property names ``schema`` declares DECIMAL on some node or edge type (a
    SchemaGraph, or anything :func:`gqlir.sqlmapping.mapping_for` reads; None: none)."""
    if schema is None:
        return frozenset()
    from ..schema.model import SchemaGraph
    from ..schema.types import TypeKind

    if not isinstance(schema, SchemaGraph):
        from ..sqlmapping import mapping_for

        schema = mapping_for(schema).schema
    return frozenset(
        prop.name
        for t in (*schema.node_types, *schema.edge_types)
        for prop in t.properties
        if prop.type.kind == TypeKind.DECIMAL
    )


def check_decimal_aggregates(root: Node, target: Dialect, schema: Any = None) -> Node:
    """``root`` unchanged, or an :class:`UnsupportedError` for the first aggregate of
    :data:`_NO_DECIMAL` whose argument is a DECIMAL property (or arithmetic on one)."""
    decimals = decimal_properties(schema)
    if not decimals:
        return root
    for node in root.walk():
        if isinstance(node, e.Aggregate) and node.name in _NO_DECIMAL and node.args:
            key = _decimal_read(node.args[0], decimals)
            if key is not None:
                raise UnsupportedError(
                    f"{node.name}() of a DECIMAL value",
                    target.name,
                    f"{target.name}'s {node.name}() takes no DECIMAL value (the property "
                    f"{key} is DECIMAL in the schema); a cast to a float would not be exact",
                    offset=node.pos,
                )
    return root


def _decimal_read(node: e.Expr, decimals: frozenset[str]) -> str | None:
    """The DECIMAL property ``node`` is, or computes its value from by arithmetic."""
    if isinstance(node, e.Property):
        return node.key if node.key in decimals else None
    if isinstance(node, e.Arithmetic):
        return _decimal_read(node.left, decimals) or _decimal_read(node.right, decimals)
    if isinstance(node, (e.Negate, e.UnaryPlus)):
        return _decimal_read(node.operand, decimals)
    return None
