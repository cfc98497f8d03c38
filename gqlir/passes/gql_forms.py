"""The GQL family's lowered forms: one scope-typed walk, several rule families, run last.

Each rule family is a module of its own, stating its rule and its sources, selected by the
target's capabilities: :mod:`.string_prefixes` (STARTS WITH / ENDS WITH / CONTAINS),
:mod:`.list_walks` (IN, list predicates, subscripts and ``size()`` of comprehensions over
lists not known at translation time as ``FOR`` subqueries), :mod:`.gql_arithmetic` (``%``,
``^``, division), :mod:`.empty_aggregates` (``sum``/``stDev`` of no rows, ``collect``'s nulls,
SQL's aggregates), :mod:`.label_functions` (``type``/``labels`` under a schema),
:mod:`.value_subqueries` (COUNT / COLLECT subqueries and pattern comprehensions) and
:mod:`.comparable_types` (comparisons and typed lists refused by known types). A constant
map's property is its value. The walk runs after every other GQL lowering (the forms it builds
are the printer's last vocabulary: marked calls, :mod:`gqlir.ir.marks`), top-down, so that each
rule sees its operands as the query wrote them, which their types are inferred from.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..analysis.types import is_const
from ..dialect import Dialect
from ..ir import expr as e
from ..ir.analysis import cannot_fail
from ..ir.node import Node
from . import (
    comparable_types,
    empty_aggregates,
    gql_arithmetic,
    label_functions,
    list_walks,
    string_prefixes,
    value_subqueries,
)
from .fresh import FreshNames
from .scoped import ScopedRewrite

if TYPE_CHECKING:
    from .pipeline import Summary

__all__ = ["GqlForms", "lower_gql_forms", "needed"]


def lower_gql_forms(
    root: Node,
    target: Dialect,
    properties: Any = None,
    schema: Any = None,
) -> Node:
    """``root`` with the rule families above applied for ``target``."""
    return GqlForms(target, properties, schema, root).run(root)


def _property(walk: GqlForms, node: e.Property) -> e.Expr:
    subject = node.subject
    if isinstance(subject, e.MapLiteral) and is_const(subject):
        for key, value in subject.entries:
            if key == node.key:
                return value
        return e.Null(pos=node.pos)
    return node


def _function(walk: GqlForms, node: e.FunctionCall) -> e.Expr:
    name = node.name
    if name == "size":
        return list_walks.size(walk, node)
    if name in ("type", "labels"):
        return label_functions.label_function(walk, node)
    return node


def _case(walk: GqlForms, node: e.Case) -> e.Expr:
    new = empty_aggregates.sql_aggregate(walk, node)
    if new is not node:
        return new
    return comparable_types.check_case(walk, node)


_RULES: dict[type, Callable[[Any, Any], e.Expr]] = {
    e.StringMatch: string_prefixes.string_match,
    e.In: list_walks.membership,
    e.ListPredicate: list_walks.predicate,
    e.ListComprehension: list_walks.comprehension,
    e.Index: list_walks.index,
    e.Slice: list_walks.slice_,
    e.Arithmetic: gql_arithmetic.arithmetic,
    e.FunctionCall: _function,
    e.Aggregate: empty_aggregates.aggregate,
    e.CountSubquery: value_subqueries.count_subquery,
    e.PatternComprehension: value_subqueries.pattern_comprehension,
    e.CollectSubquery: value_subqueries.collect_subquery,
    e.Property: _property,
    e.Comparison: comparable_types.check_comparison,
    e.Case: _case,
    e.ListLiteral: comparable_types.check_list,
}

#: The node kinds some rule looks at (with the arithmetic operators and functions below).
KINDS = frozenset(_RULES) - {e.Arithmetic, e.FunctionCall, e.Aggregate, e.Property}
KINDS |= {e.MapLiteral}  # (the subject of a property a rule reads)
FUNCTIONS = frozenset({"size", "type", "labels"})


def needed(summary: Summary) -> bool:
    """Whether the query holds anything a rule looks at."""
    return (
        not summary.kinds.isdisjoint(KINDS)
        or summary.other_arithmetic
        or not summary.functions.isdisjoint(FUNCTIONS)
        or not summary.aggregates.isdisjoint(empty_aggregates.NAMES)
    )


class GqlForms(ScopedRewrite):
    rules = _RULES

    def __init__(self, target: Dialect, properties: Any, schema: Any, root: Node) -> None:
        super().__init__(target, properties)
        self.edge_labels = label_functions.edge_labels(schema) if schema is not None else ()
        self.node_labels = label_functions.node_labels(schema) if schema is not None else ()
        self._root = root
        self._names: dict[str, FreshNames] = {}

    def fresh(self, stem: str = "_g") -> str:
        """A name used nowhere in the query (nor by another stem's names)."""
        names = self._names.get(stem)
        if names is None:
            names = self._names[stem] = FreshNames(self._root, stem)
            for other in self._names.values():
                if other.taken is not None:
                    names.taken = other.taken  # (the names in the query, gathered once)
                    break
        return names()

    def cannot_fail(self, *exprs: e.Expr) -> bool:
        """Whether evaluating ``exprs`` cannot raise: a rewrite that leaves them unevaluated
        (writes a constant instead) must not lose Cypher's error."""
        variable = self.types.variable
        elements = {n for n in self.scope if variable(n).kind in ("node", "edge")}
        return all(cannot_fail(x, elements) for x in exprs)
