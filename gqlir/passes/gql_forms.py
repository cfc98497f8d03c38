"""The GQL family's lowered forms: one scope-typed walk, several rule families, run last.

Each rule family is a module of its own, stating its rule and its sources, selected by the
target's capabilities: :mod:`.string_prefixes` (STARTS WITH / ENDS WITH / CONTAINS),
:mod:`.list_walks` (IN, list predicates, subscripts and ``size()`` of comprehensions over
lists not known at translation time as ``FOR`` subqueries), :mod:`.gql_arithmetic` (``%``,
``^``, division), :mod:`.empty_aggregates` (``sum``/``stDev`` of no rows, ``collect``'s nulls,
SQL's aggregates), :mod:`.label_functions` (``type``/``labels`` under a schema),
:mod:`.value_subqueries` (COUNT / COLLECT subqueries and pattern comprehensions) and
:mod:`.comparable_types` (comparisons and typed lists refused by known types), :mod:`.unnest_membership` (GoogleSQL's
``IN UNNEST`` guarded for a null list). A constant
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
    unnest_membership,
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


def _membership(walk: GqlForms, node: e.In) -> e.Expr:
    new = list_walks.membership(walk, node)
    return unnest_membership.membership(walk, node) if new is node else new


def _case(walk: GqlForms, node: e.Case) -> e.Expr:
    new = empty_aggregates.sql_aggregate(walk, node)
    if new is not node:
        return new
    return comparable_types.check_case(walk, node)


_RULES: dict[type, Callable[[Any, Any], e.Expr]] = {
    e.StringMatch: string_prefixes.string_match,
    e.In: _membership,
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


def needed(summary: Summary, target: Dialect, typed: bool) -> bool:
    """Whether the query holds anything a rule rewrites or checks for ``target`` (``typed``: a
    schema gives property types, so any comparison may be refused)."""
    kinds, caps = summary.kinds, target.capabilities
    if not kinds.isdisjoint(_kinds(target)) or summary.other_arithmetic:
        return True
    if summary.map_properties:
        return True
    if summary.typed_comparisons or (typed and not kinds.isdisjoint(_COMPARING)):
        return True
    aggregates = summary.aggregates
    if not aggregates.isdisjoint(_EMPTY) or (
        "collect" in aggregates and (caps.collect_keeps_nulls or caps.collect_empty_null)
    ):
        return True
    if (
        caps.collect_empty_null
        and e.Case in kinds
        and (e.CountStar in kinds or "count" in aggregates)
    ):
        return True  # (SQL's aggregates, as the Spanner reader spells them)
    if typed and not summary.functions.isdisjoint(("type", "labels")):
        return True
    return e.ListComprehension in kinds and "size" in summary.functions


_COMPARING = frozenset({e.Comparison, e.Case})
#: The aggregates rewritten or checked whatever the target.
_EMPTY = frozenset({"sum", "stdev", "stdevp", "min", "max"})
_TARGET_KINDS: dict[Dialect, frozenset[type]] = {}


def _kinds(target: Dialect) -> frozenset[type]:
    """The node kinds whose rules do something for ``target`` (found once per dialect)."""
    found = _TARGET_KINDS.get(target)
    if found is None:
        caps = target.capabilities
        by_capability = {
            e.StringMatch: not caps.string_predicates,
            e.In: not caps.list_membership or caps.membership_unnest,
            e.ListPredicate: not caps.list_predicates,
            e.ListComprehension: not caps.list_comprehension,
            e.Index: not caps.subscript,
            e.Slice: not caps.slicing,
            e.CountSubquery: not caps.count_subquery,
            e.PatternComprehension: caps.value_subquery,
            e.CollectSubquery: True,
            e.ListLiteral: caps.typed_lists,
        }
        found = frozenset(kind for kind, rule in by_capability.items() if rule)
        if len(_TARGET_KINDS) > 64:  # dialects built by hand, not loaded once
            _TARGET_KINDS.clear()
        _TARGET_KINDS[target] = found
    return found


class GqlForms(ScopedRewrite):
    rules = _RULES
    stops_at_refusal = True  # (the GQL family's last pass)

    def __init__(self, target: Dialect, properties: Any, schema: Any, root: Node) -> None:
        super().__init__(target, properties)
        self.edge_labels = label_functions.edge_labels(schema) if schema is not None else ()
        self.node_labels = label_functions.node_labels(schema) if schema is not None else ()
        self._names = FreshNames(root)

    def fresh(self, stem: str = "_g") -> str:
        """A name used nowhere in the query: ``stem`` itself while it is free (a walk's
        variable ``_v``), ``_g1``, ``_g2``, … for a column nothing reads by name."""
        return self._names() if stem == "_g" else self._names.named(stem)

    def cannot_fail(self, *exprs: e.Expr) -> bool:
        """Whether evaluating ``exprs`` cannot raise: a rewrite that leaves them unevaluated
        (writes a constant instead) must not lose Cypher's error."""
        variable = self.types.variable
        elements = {n for n in self.scope if variable(n).kind in ("node", "edge")}
        return all(cannot_fail(x, elements) for x in exprs)
