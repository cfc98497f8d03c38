"""List walks over a list whose items are known, written out item by item.

Where the target has no list predicates (``any/all/none(x IN l WHERE p)``), no list
comprehension or no ``IN`` (capabilities ``list_predicates``, ``list_comprehension``,
``list_membership``; ISO GQL has none of them, GQL.g4 has no such production), a walk over a
constant list is the same value written per item, by Cypher's three-valued logic (openCypher 9,
"Lists": ``any`` is true when some item satisfies the predicate, null when none does and some
test is null; ``IN`` is defined by ``=``):

* ``any(x IN [a, b] WHERE p)`` is ``p[a/x] OR p[b/x]``, ``all`` the conjunction, ``none`` the
  negated disjunction; over ``[]`` they are false, true and true;
* ``[x IN [a, b] | f]`` is ``[f[a/x], f[b/x]]`` (with no WHERE), ``[x IN l]`` the list;
* ``v IN [a, b]`` is ``v = a OR v = b`` (false over ``[]``), for a ``v`` that may be written
  more than once.

Where the target has no subscript or slice (``subscript``, ``slicing``), ``[a, b][1]`` is ``b``
(null outside the list, as in Cypher; the items not selected must be unable to fail, since they
are no longer evaluated), ``{k: v}['k']`` is ``v``, ``x['k']`` of a value that is not a list is
the property ``x.k`` (Cypher's dynamic property access with a literal key), and ``[a, b,
c][0..2]`` is ``[a, b]``.

A walk, subscript or slice of another list is left to the printer, which writes it as a
subquery walk (or refuses it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..analysis.types import is_const
from ..ir import expr as e
from ..ir.analysis import cannot_fail
from .exprs import conjoin, disjoin, pure
from .substitute import substitute

if TYPE_CHECKING:
    from .gql_expressions import GqlExpressions as Lowering

__all__ = ["comprehension", "index", "membership", "predicate", "slice_"]


def predicate(walk: Lowering, node: e.ListPredicate) -> e.Expr:
    if walk.caps.list_predicates:
        return node
    construct = f"{node.quantifier.value}() list predicate"
    items = walk.const_list(node.source)
    if items is None or node.predicate is None or node.quantifier is e.ListQuantifier.SINGLE:
        return node
    terms = []
    for item in items:
        term = substitute(node.predicate, node.variable, item)
        if term is None:
            raise walk.unsupported(construct, node, message="the predicate uses a subquery")
        terms.append(term)
    if node.quantifier is e.ListQuantifier.ALL:
        return conjoin(terms, node.pos) if terms else e.Boolean(True, pos=node.pos)
    any_true = disjoin(terms, node.pos) if terms else e.Boolean(False, pos=node.pos)
    if node.quantifier is e.ListQuantifier.ANY:
        return any_true
    return e.Not(any_true, pos=node.pos)


def comprehension(walk: Lowering, node: e.ListComprehension) -> e.Expr:
    if walk.caps.list_comprehension:
        return node
    items = walk.const_list(node.source)
    if items is None or node.where is not None:
        return node  # (the printer counts it as a walk in size(), and refuses it elsewhere)
    if node.projection is None:
        return e.ListLiteral(tuple(items), pos=node.pos)
    out = []
    for item in items:
        term = substitute(node.projection, node.variable, item)
        if term is None:
            raise walk.unsupported("list comprehension", node)
        out.append(term)
    return e.ListLiteral(tuple(out), pos=node.pos)


def membership(walk: Lowering, node: e.In) -> e.Expr:
    if walk.caps.list_membership:
        return node
    items = walk.const_list(node.container)
    if items is None:
        return node
    if not pure(node.item):
        raise walk.unsupported("IN", node, message="the tested value is not constant")
    if not items:
        return e.Boolean(False, pos=node.pos)
    return disjoin([e.Comparison(e.CompOp.EQ, node.item, item) for item in items], node.pos)


def index(walk: Lowering, node: e.Index) -> e.Expr:
    if walk.caps.subscript:
        return node
    if isinstance(node.index, e.String) and walk.type_of(node.subject).kind != "list":
        return e.Property(node.subject, node.index.value, pos=node.pos)
    items = walk.const_list(node.subject)
    if items is not None and isinstance(node.index, e.Integer):
        # the other items are not evaluated: they must be unable to fail (Cypher's would)
        i = node.index.value
        inside = -len(items) <= i < len(items)
        others = [x for j, x in enumerate(items) if not inside or j != i % len(items)]
        elements = walk.types.elements()
        if all(is_const(x) for x in items) or all(cannot_fail(x, elements) for x in others):
            return items[i] if inside else e.Null(pos=node.pos)
    subject = node.subject
    if (
        isinstance(subject, e.MapLiteral)
        and isinstance(node.index, e.String)
        and all(is_const(v) for _, v in subject.entries)
    ):
        for key, value in subject.entries:
            if key == node.index.value:
                return value
        return e.Null(pos=node.pos)
    return node


def slice_(walk: Lowering, node: e.Slice) -> e.Expr:
    if walk.caps.slicing:
        return node
    items = walk.const_list(node.subject)
    bounds = [b for b in (node.start, node.end) if b is not None]
    if items is None or not all(isinstance(b, e.Integer) for b in bounds):
        return node
    start = node.start.value if isinstance(node.start, e.Integer) else None
    end = node.end.value if isinstance(node.end, e.Integer) else None
    return e.ListLiteral(tuple(items[start:end]), pos=node.pos)
