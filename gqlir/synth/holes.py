"""Typed holes: IR nodes that stand for a part of a query chosen at instantiation.

A template is an ordinary IR query in which some nodes are holes. Each hole is named; holes with
the same name (and, for properties, the same subject variable) take the same value. Substituting
every hole (:mod:`gqlir.synth.instantiate`) gives a concrete IR query.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from .. import ir


@dataclass(frozen=True, slots=True)
class LabelHole(ir.LabelExpr):
    """A node label (``kind='node'``) or a relationship type (``kind='edge'``)."""

    name: str
    kind: str = "node"


@dataclass(frozen=True, slots=True)
class PropertyHole(ir.Expr):
    """``subject.<property>``: a property of the label bound to the subject variable.

    ``name`` is the hole's role: ``name`` (the label's display property), ``key`` (a unique
    display property), ``start``/``end`` (a period's bounds) or any other name (a property
    chosen by the types its uses allow)."""

    subject: ir.Expr
    name: str

    @property
    def variable(self) -> str:
        return self.subject.name if isinstance(self.subject, ir.Variable) else "?"


@dataclass(frozen=True, slots=True)
class ValueHole(ir.Expr):
    """A literal value, sampled from the graph."""

    name: str


@dataclass(frozen=True, slots=True)
class OperatorHole(ir.Expr):
    """``left <op> right`` with the operator chosen to fit the type of ``left``."""

    name: str
    left: ir.Expr
    right: ir.Expr


@dataclass(frozen=True, slots=True)
class AggregateHole(ir.Expr):
    """``<agg>(arg)`` with the aggregate chosen to fit the type of ``arg``."""

    name: str
    arg: ir.Expr


@dataclass(frozen=True, slots=True)
class SortHole(ir.Node):
    """An ORDER BY key whose direction (ascending or descending) is a hole."""

    name: str
    expr: ir.Expr


@dataclass(frozen=True, slots=True)
class QuantifierHole(ir.Node):
    """The hop bounds of a variable-length relationship."""

    name: str


HOLE_TYPES = (
    LabelHole,
    PropertyHole,
    ValueHole,
    OperatorHole,
    AggregateHole,
    SortHole,
    QuantifierHole,
)


def holes_in(node: ir.Node) -> Iterator[ir.Node]:
    """Every hole of a template, in tree order."""
    for n in node.walk():
        if isinstance(n, HOLE_TYPES):
            yield n
