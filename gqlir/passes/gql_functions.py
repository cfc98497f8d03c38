"""Cypher functions that GQL writes with other built-ins, where no type needs to be known.

Rules (each a same-meaning rewrite; the ones that depend on argument types stay in the GQL
printer's ``_lower_function`` until a scope-typed pass exists, see docs/architecture.md):

* ``e()`` and ``pi()`` are the constants (Neo4j Cypher manual, mathematical functions:
  logarithmic and trigonometric: "e() returns the base of the natural logarithm", "pi()
  returns the mathematical constant pi"); GQL has no such functions (``dialects/iso-gql.toml``
  ``unsupported_functions``), so they are float literals.
* ``coalesce(x)`` of one argument is ``x``.
* ``nodes(null)`` and ``relationships(null)`` are null.
* the one-argument trims strip whitespace in Cypher (Java's ``Character.isWhitespace``) but only
  spaces in GQL (neo4j/docs-cypher gql-conformance/supported-optional.adoc), so they are written
  with the whitespace set as second argument: ``trim(x)`` is ``BTRIM(x, ws)``, and ``ltrim``,
  ``rtrim``, ``btrim`` keep their name (GQL.g4 20.23 multiCharacterTrimFunction).
"""

from __future__ import annotations

import math

from ..dialect import Dialect
from ..ir import expr as e
from ..ir.functions import WHITESPACE
from ..ir.node import Node

__all__ = ["NAMES", "lower_gql_functions"]

#: The functions this pass may rewrite.
NAMES = frozenset({"e", "pi", "coalesce", "nodes", "relationships", "trim", "btrim"})
NAMES |= {"ltrim", "rtrim"}


def lower_gql_functions(root: Node, target: Dialect) -> Node:
    """``root`` with the functions above written as GQL writes them."""
    return root.transform(_rewrite)


def _rewrite(node: Node) -> Node:
    if not isinstance(node, e.FunctionCall):
        return node
    name, args = node.name, node.args
    if name in ("e", "pi") and not args:
        return e.Float(math.e if name == "e" else math.pi, pos=node.pos)
    if name == "coalesce" and len(args) == 1:
        return args[0]
    if name in ("nodes", "relationships") and args == (e.Null(),):
        return e.Null(pos=node.pos)
    if name in ("trim", "btrim", "ltrim", "rtrim") and len(args) == 1:
        canonical = "btrim" if name == "trim" else name
        return e.FunctionCall(canonical, (args[0], e.String(WHITESPACE)), pos=node.pos)
    return node
