"""The GQL family's scope-typed expression lowering: one walk, several rule families.

Each rule family is a module of its own, stating its rule and its sources; this pass applies
them in one walk over the query (:class:`~.scoped.ScopedRewrite`: top-down, with the variables
in scope), because their rules feed each other: a walk over a constant list is written item by
item (:mod:`.constant_lists`) before the functions of each item are typed
(:mod:`.typed_functions`), and a list is constant when a function of it folds.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..dialect import Dialect
from ..ir import expr as e
from ..ir.node import Node
from . import boolean_forms, constant_lists, polymorphic_plus, typed_functions
from .scoped import ScopedRewrite

__all__ = ["KINDS", "NAMES", "GqlExpressions", "lower_gql_expressions", "needed"]

#: The functions and the node kinds the rules rewrite (the pass is skipped without them, and
#: without a ``+``: the other arithmetic, negation and aggregates are rewritten only around one).
NAMES = typed_functions.NAMES
KINDS = frozenset({e.ListPredicate, e.ListComprehension, e.In, e.Index, e.Slice, e.Xor})
KINDS |= {e.IsTruth}
#: ``KINDS`` less XOR and IS UNKNOWN, which a target that has them writes as read.
_LIST_KINDS = KINDS - {e.Xor, e.IsTruth}


def needed(summary: Any, target: Dialect, typed: bool = False) -> bool:
    """Whether a query (its pipeline ``summary``) holds anything the rules rewrite for
    ``target``: a ``+``, a function of :data:`NAMES`, a list form, or an XOR or IS UNKNOWN
    the target lacks."""
    if summary.adds or not summary.functions.isdisjoint(NAMES):
        return True
    kinds = summary.kinds
    if not kinds.isdisjoint(_LIST_KINDS):
        return True
    caps = target.capabilities
    return (e.Xor in kinds and not caps.xor_operator) or (
        e.IsTruth in kinds and not caps.unknown_test
    )


def lower_gql_expressions(
    root: Node, target: Dialect, properties: Mapping[tuple[str, str], str] | None = None
) -> Node:
    """``root`` with the rule families above applied for ``target``."""
    return GqlExpressions(target, properties).run(root)


def _functions(walk: GqlExpressions, node: e.FunctionCall) -> e.Expr:
    return typed_functions.rewrite(walk, node) if node.name in NAMES else node


_RULES: dict[type, Callable[[Any, Any], e.Expr]] = {
    e.FunctionCall: _functions,
    e.ListPredicate: constant_lists.predicate,
    e.ListComprehension: constant_lists.comprehension,
    e.In: constant_lists.membership,
    e.Index: constant_lists.index,
    e.Slice: constant_lists.slice_,
    e.Arithmetic: polymorphic_plus.arithmetic,
    e.Negate: polymorphic_plus.negate,
    e.Aggregate: polymorphic_plus.aggregate,
    e.Xor: boolean_forms.xor,
    e.IsTruth: boolean_forms.is_truth,
}


class GqlExpressions(ScopedRewrite):
    rules = _RULES
    stops_at_refusal = True  # (the passes after it walk forward)

    def const_list(self, node: e.Expr) -> list[e.Expr] | None:
        """The items of a list known here: a literal, a variable bound to a constant list, or
        a call these rules fold to one."""
        if isinstance(node, e.ListLiteral):
            return list(node.items)
        if isinstance(node, e.Variable):
            const = self.types.variable(node.name).const
            if isinstance(const, e.ListLiteral):
                return list(const.items)
        if isinstance(node, (e.Index, e.Slice)) or (
            isinstance(node, e.FunctionCall) and node.name in NAMES
        ):
            folded = self.expr(node)
            if isinstance(folded, e.ListLiteral):
                return list(folded.items)
        if (isinstance(node, e.Arithmetic) and node.op is e.ArithOp.ADD) or isinstance(
            node, e.Concat
        ):
            # Cypher's + of two lists concatenates them, of a list and another (non-null)
            # value appends it
            left, right = self.const_list(node.left), self.const_list(node.right)
            if left is not None and right is not None:
                return left + right
            if left is not None and _scalar_literal(node.right):
                return [*left, node.right]
            if right is not None and _scalar_literal(node.left):
                return [node.left, *right]
        return None


def _scalar_literal(node: e.Expr) -> bool:
    return isinstance(node, (e.Boolean, e.Integer, e.Float, e.String))
