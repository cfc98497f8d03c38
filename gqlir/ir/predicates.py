"""Graph-element predicates: tests on nodes and edges that have no expression of another kind.

ISO GQL (and Spanner Graph) name them; Cypher spells some of them with functions
(``startNode(e) = n``) whose meaning is close but not the same (null and undirected-edge
behaviour), so each is one node here and the emitters decide how, or whether, a dialect can say
it.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from .expr import Expr


@dataclass(frozen=True, slots=True)
class IsDirected(Expr):
    """``e IS [NOT] DIRECTED``: the edge bound to ``operand`` is directed."""

    operand: Expr
    negated: bool = False


class Endpoint(enum.Enum):
    SOURCE = "SOURCE"
    DESTINATION = "DESTINATION"


@dataclass(frozen=True, slots=True)
class IsEndpoint(Expr):
    """``n IS [NOT] SOURCE|DESTINATION OF e``: ``node`` is that endpoint of the directed edge
    ``edge`` (false for an undirected edge)."""

    node: Expr
    edge: Expr
    endpoint: Endpoint
    negated: bool = False


@dataclass(frozen=True, slots=True)
class Same(Expr):
    """``SAME(a, b, …)``: all the element references denote one graph element."""

    elements: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class AllDifferent(Expr):
    """``ALL_DIFFERENT(a, b, …)``: the element references denote pairwise distinct elements."""

    elements: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class PropertyExists(Expr):
    """``PROPERTY_EXISTS(n, key)``: the element has the property ``key``.

    Not the same as ``n.key IS NOT NULL``: with a graph type (Spanner's schema, a GQL closed
    graph type) a property can exist and hold null.
    """

    subject: Expr
    key: str
