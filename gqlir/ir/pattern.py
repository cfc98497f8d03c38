"""Graph patterns: element patterns, label expressions, quantifiers, path and match modes.

One quantifier for every spelling: Cypher ``-[:R*1..3]->`` and GQL ``-[:R]->{1,3}`` are the same
:class:`RelPattern` with ``Quantifier(1, 3)``. ``shortestPath(...)`` and ``ANY SHORTEST`` are the
same :class:`Search`.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from .expr import Expr
from .node import Node

# -- label expressions ---------------------------------------------------------------------------


class LabelExpr(Node):
    __slots__ = ()


@dataclass(frozen=True, slots=True)
class Label(LabelExpr):
    name: str


@dataclass(frozen=True, slots=True)
class LabelAnd(LabelExpr):
    left: LabelExpr
    right: LabelExpr


@dataclass(frozen=True, slots=True)
class LabelOr(LabelExpr):
    left: LabelExpr
    right: LabelExpr


@dataclass(frozen=True, slots=True)
class LabelNot(LabelExpr):
    operand: LabelExpr


@dataclass(frozen=True, slots=True)
class LabelAny(LabelExpr):
    """``%``: any label (the element has at least one)."""


# -- elements ------------------------------------------------------------------------------------


class Direction(enum.Enum):
    OUT = "->"  # (a)-[]->(b)
    IN = "<-"  # (a)<-[]-(b)
    EITHER = "-"  # (a)-[]-(b): either direction
    UNDIRECTED = "~"  # GQL (a)~[]~(b): an undirected edge
    BOTH = "<->"  # GQL (a)<-[]->(b): left or right (same matches as EITHER on directed edges)


@dataclass(frozen=True, slots=True)
class Quantifier(Node):
    """Repetition bounds; ``upper`` None means unbounded."""

    lower: int
    upper: int | None


@dataclass(frozen=True, slots=True)
class NodePattern(Node):
    variable: str | None = None
    labels: LabelExpr | None = None
    properties: Expr | None = None  # MapLiteral or Parameter
    where: Expr | None = None


@dataclass(frozen=True, slots=True)
class RelPattern(Node):
    """A relationship (edge) pattern. With a quantifier, ``variable`` binds the list of edges.

    ``cost`` is the edge's cost for the CHEAPEST path searches (Spanner's ``COST expr``).
    """

    direction: Direction
    variable: str | None = None
    types: LabelExpr | None = None
    properties: Expr | None = None
    where: Expr | None = None
    quantifier: Quantifier | None = None
    cost: Expr | None = None


class PathMode(enum.Enum):
    WALK = "WALK"
    TRAIL = "TRAIL"
    SIMPLE = "SIMPLE"
    ACYCLIC = "ACYCLIC"


class SearchKind(enum.Enum):
    ALL = "ALL"  # every path (the default when no prefix is written)
    ANY = "ANY"  # ANY [k]
    ANY_SHORTEST = "ANY SHORTEST"
    ALL_SHORTEST = "ALL SHORTEST"
    SHORTEST_K = "SHORTEST k"  # SHORTEST k [PATHS]
    SHORTEST_K_GROUPS = "SHORTEST k GROUPS"
    ANY_CHEAPEST = "ANY CHEAPEST"
    CHEAPEST_K = "CHEAPEST k"


@dataclass(frozen=True, slots=True)
class Search(Node):
    """A path search prefix; ``k`` for the counted kinds: an integer, or a parameter
    (GoogleSQL's ``CHEAPEST @k``)."""

    kind: SearchKind
    k: int | Expr | None = None


@dataclass(frozen=True, slots=True)
class RefusedSearch(Search):
    """A path search a lowering pass found the target cannot keep the meaning of: the printer
    refuses it (``construct``, ``message``, ``rewrite``) where it writes the search, so the
    query's first refusal stays its first refused construct in writing order (as
    :class:`~gqlir.ir.expr.Untranslatable` for expressions). Only lowered IR holds one."""

    construct: str = ""
    message: str = ""
    rewrite: str = ""


@dataclass(frozen=True, slots=True)
class ParenPath(Node):
    """A parenthesised sub-path ``((a)-->(b) WHERE ...){m,n}`` (quantified path pattern)."""

    path: PathExpr
    quantifier: Quantifier | None = None
    where: Expr | None = None
    variable: str | None = None  # GQL subpath variable: (p = ...)
    mode: PathMode | None = None


PathElement = NodePattern | RelPattern | ParenPath


@dataclass(frozen=True, slots=True)
class PathChain(Node):
    """Element patterns in sequence. Adjacent node patterns (around a :class:`ParenPath`) denote
    the same node."""

    elements: tuple[PathElement, ...]


@dataclass(frozen=True, slots=True)
class PathUnion(Node):
    """GQL path alternation: ``|`` (set union) or ``|+|`` (multiset alternation)."""

    alternatives: tuple[PathChain, ...]
    multiset: bool = False


PathExpr = PathChain | PathUnion


@dataclass(frozen=True, slots=True)
class PathPattern(Node):
    """One comma-separated part of a MATCH: ``p = <search> <mode> <path>``."""

    path: PathExpr
    variable: str | None = None
    search: Search | None = None
    mode: PathMode | None = None


class MatchMode(enum.Enum):
    """Edge uniqueness within one MATCH. Cypher's default is DIFFERENT_EDGES (relationship
    isomorphism); Spanner's is REPEATABLE_ELEMENTS (homomorphism)."""

    DIFFERENT_EDGES = "DIFFERENT EDGES"
    REPEATABLE_ELEMENTS = "REPEATABLE ELEMENTS"
