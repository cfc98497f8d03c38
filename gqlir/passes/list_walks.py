"""Cypher list tests over lists known only at run time, as GQL subqueries that walk the list.

GQL has no ``IN``, no ``any()/all()/none()/single()`` and no list comprehension, but a subquery
can walk a list with ``FOR``. The answers these rewrites give do not depend on the order of the
list, so they are exact where ``COLLECT_LIST`` (whose order GQL leaves open, and which drops
nulls) would not be:

* ``any(v IN l WHERE p)`` becomes ``CASE WHEN l IS NULL THEN NULL WHEN EXISTS { FOR v IN l
  FILTER p RETURN v } THEN TRUE WHEN EXISTS { … FILTER p IS NULL … } THEN NULL ELSE FALSE END``,
  Cypher's three-valued answer; ``all``, ``none`` and ``single`` (by counting) alike, and
  ``x IN l`` as ``any(v IN l WHERE v = x)``, which is how Cypher defines membership;
* ``size([v IN l WHERE p | f])`` becomes a count of the rows ``FOR v IN l FILTER p`` keeps;
* a comprehension as the list of a quantifier is walked in place: its filter joins the walk and
  its projection replaces the variable in the test;
* a subscript ``l[k]`` becomes ``VALUE { FOR v IN l WITH OFFSET i FILTER i = k OR
  i - CARDINALITY(l) = k RETURN v }``: the one element at position ``k`` (from the end when ``k`` is
  negative), and no row, hence null, when ``k`` is out of range or null, as in Cypher. The
  position comes from ``WITH OFFSET``, not from the order of the rows, so it is exact.

The list and the tests are evaluated again inside each subquery, so none of them may aggregate
(the aggregate would run over the subquery's rows) or be volatile. Each rule is selected by the
capability whose absence it makes up for (``list_membership``, ``list_predicates``,
``list_comprehension``, ``subscript``; ``slicing`` absent refuses a slice); the variables it
adds are fresh (:class:`~.fresh.FreshNames`). Sources: ISO/IEC 39075 14.7 ``forStatement``
(``FOR … IN … WITH OFFSET``), 19.4 ``existsPredicate``, 20.6 ``valueQueryExpression``; Cypher's
list predicates and ``IN``: openCypher 9, "Lists" and "List predicates".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..analysis.aggregates import aggregates
from ..ir import expr as e
from ..ir import query as q
from ..ir.analysis import cannot_fail
from .exprs import steady
from .fold import closed
from .substitute import substitute

__all__ = [
    "comprehension",
    "count_comprehension",
    "element_at",
    "index",
    "membership",
    "predicate",
    "quantify",
    "size",
    "slice_",
]

#: The walk a rule runs in: ``caps``, ``scope``, ``type_of``, ``fresh(stem)``,
#: ``unsupported(construct, node, **kw)`` (a ScopedRewrite, or the printer for a walk over an
#: aggregate it has computed first, see :func:`over_aggregate`).
Walk = Any

_BINDERS = (
    e.ListComprehension,
    e.ListPredicate,
    e.Reduce,
    e.PatternComprehension,
    e.Exists,
    e.CountSubquery,
    e.CollectSubquery,
    e.ValueSubquery,
)


@dataclass(frozen=True)
class _Walk:
    """``FOR variable IN source [FILTER keep]``: the rows a subquery tests, and the test."""

    source: e.Expr
    variable: str
    keep: e.Expr | None
    test: e.Expr
    #: ``source`` as FOR walks it (see :func:`_as_list`)
    listed: e.Expr | None = None

    def rows(self, condition: e.Expr | None, item: q.ReturnItem) -> q.LinearQuery:
        steps: list[q.Step] = [q.Unwind(self.listed or self.source, self.variable)]
        steps += [q.Filter(c) for c in (self.keep, condition) if c is not None]
        return q.LinearQuery((*steps, q.Projection((item,))))

    def some(self, condition: e.Expr) -> e.Expr:
        return e.Exists(
            self.rows(condition, q.ReturnItem(e.Variable(self.variable), self.variable))
        )

    def count(self, walk: Walk, condition: e.Expr | None) -> e.Expr:
        return e.ValueSubquery(self.rows(condition, q.ReturnItem(e.CountStar(), walk.fresh("_g"))))

    def guarded(self, whens: list[tuple[e.Expr, e.Expr]], default: e.Expr, at: e.Expr) -> e.Expr:
        """The answer, null for a null list (FOR over null would walk nothing)."""
        cases = whens
        if not isinstance(self.source, e.ListLiteral):  # a literal list is never null
            cases = [(e.IsNull(self.source), e.Null()), *whens]
        if not cases:
            return default
        return e.Case(None, tuple(e.CaseWhen(c, r) for c, r in cases), default, pos=at.pos)


def quantify(walk: Walk, node: e.ListPredicate, construct: str, at: e.Expr) -> e.Expr:
    """``node`` (any/all/none/single over a list known at run time) by subqueries."""
    _not_constant(walk, node, construct, at)
    test = node.predicate if node.predicate is not None else e.Variable(node.variable)
    loop = _walk(walk, node.source, node.variable, test, construct, at)
    unknown = e.IsNull(loop.test)
    false, null = e.Boolean(False), e.Null()
    quantifier = node.quantifier
    if quantifier is e.ListQuantifier.SINGLE:
        trues = loop.count(walk, loop.test)
        whens = [
            (e.Comparison(e.CompOp.GT, trues, e.Integer(1)), false),
            (loop.some(unknown), null),
        ]
        return loop.guarded(whens, e.Comparison(e.CompOp.EQ, trues, e.Integer(1)), at)
    if quantifier is e.ListQuantifier.ALL:
        whens = [(loop.some(e.Not(loop.test)), false), (loop.some(unknown), null)]
        return loop.guarded(whens, e.Boolean(True), at)
    none = quantifier is e.ListQuantifier.NONE
    whens = [(loop.some(loop.test), e.Boolean(not none)), (loop.some(unknown), null)]
    return loop.guarded(whens, e.Boolean(none), at)


def count_comprehension(walk: Walk, node: e.ListComprehension, at: e.Expr) -> e.Expr:
    """``size(node)``: the number of elements the comprehension keeps. Its projection is not
    evaluated, so it must be one that cannot fail (else Cypher's error would be lost)."""
    _not_constant(walk, node, "list comprehension", at)
    if node.projection is not None and not cannot_fail(node.projection, set()):
        raise walk.unsupported(
            "list comprehension",
            node,
            message="its projection may fail, and counting its elements would not evaluate it",
        )
    keep = node.where if node.where is not None else e.Boolean(True)
    loop = _walk(walk, node.source, node.variable, keep, "list comprehension", at)
    condition = loop.test if node.where is not None else None
    return loop.guarded([], loop.count(walk, condition), at)


def element_at(walk: Walk, node: e.Index) -> e.Expr:
    """``l[k]`` for a list ``l`` and an integer ``k`` known only at run time. Cypher fails on a
    non-integer position (GQL's comparison would accept ``1.0``) and reads a map by key, so
    ``k`` must be known to be an integer and ``l`` not known to be anything but a list."""
    forms = [f for f in walk.caps.for_index if f.split()[0] == "OFFSET"]
    subject, index = node.subject, node.index
    kind = walk.type_of(subject).kind
    if (
        not (walk.caps.value_subquery and forms)
        or walk.type_of(index).kind != "integer"
        or kind not in ("list", "property", "any")
    ):
        raise walk.unsupported("subscript", node, rewrite="bind the element to a variable")
    _check(walk, subject, "subscript", node)
    _check(walk, index, "subscript", node)
    item, offset = walk.fresh("_v"), walk.fresh("_i")
    at = e.Variable(offset)
    from_start = e.Comparison(e.CompOp.EQ, at, index)
    size = e.FunctionCall("size", (subject,))
    # i - CARDINALITY(l) = k, not i = CARDINALITY(l) + k, which overflows for a large k
    from_end = e.Comparison(e.CompOp.EQ, e.Arithmetic(e.ArithOp.SUB, at, size), index)
    if isinstance(index, e.Integer):  # a literal's sign is known
        position: e.Expr = from_start if index.value >= 0 else from_end
    else:
        position = e.Or(from_start, from_end)
    steps = (
        q.Unwind(_as_list(walk, subject), item, index=offset),
        q.Filter(position),
        q.Projection((q.ReturnItem(e.Variable(item), item),)),
    )
    return e.ValueSubquery(q.LinearQuery(steps), pos=node.pos)


def _walk(
    walk: Walk, source: e.Expr, variable: str, test: e.Expr, construct: str, at: e.Expr
) -> _Walk:
    """The walk of ``source`` binding ``variable`` for ``test``: renamed where the subquery sees
    a variable of that name from outside (FOR may not rebind it), and through a comprehension
    when ``source`` is one."""
    if not (walk.caps.exists_subquery and walk.caps.value_subquery):
        raise walk.unsupported(construct, at)
    _check(walk, test, construct, at)
    if isinstance(source, e.ListComprehension):
        if any(isinstance(n, _BINDERS) for n in test.walk()):
            # the comprehension's projection replaces the variable in the test, and a binder
            # there could capture the projection's own variables
            raise walk.unsupported(construct, at, message="the test binds variables of its own")
        inner = _walk(
            walk,
            source.source,
            source.variable,
            source.where if source.where is not None else e.Boolean(True),
            construct,
            at,
        )
        element = (
            source.projection if source.projection is not None else e.Variable(source.variable)
        )
        if inner.variable != source.variable:
            element = _renamed(walk, element, source.variable, inner.variable, construct, at)
        keep = inner.test if source.where is not None else None
        _check(walk, element, construct, at)
        return _Walk(
            inner.source,
            inner.variable,
            keep,
            _replaced(walk, test, variable, element, construct, at),
            inner.listed,
        )
    _check(walk, source, construct, at)
    listed = _as_list(walk, source)
    if variable in walk.scope:
        fresh = walk.fresh("_v")
        test = _renamed(walk, test, variable, fresh, construct, at)
        return _Walk(source, fresh, None, test, listed)
    return _Walk(source, variable, None, test, listed)


def _as_list(walk: Walk, source: e.Expr) -> e.Expr:
    """``source`` as FOR's list: ``source || []`` unless it is known to be a list, so that a
    string or number fails as it does in Cypher (whether GQL's FOR would fail on it or walk it
    as one element is left to the implementation's reading of the standard). Not in a dialect
    whose lists are typed (GoogleSQL), which rejects FOR over a non-list before running."""
    if walk.type_of(source).kind in ("list", "null") or walk.caps.typed_lists:
        return source  # (a dialect with typed lists rejects FOR over a non-list when compiling)
    return e.Concat(source, e.ListLiteral(()), pos=source.pos)


def _not_constant(walk: Walk, node: e.Expr, construct: str, at: e.Expr) -> None:
    """A test that reads nothing but literals is left to constant folding (translation retries
    a refused query with its constants folded), which writes its value instead of subqueries."""
    if closed(node):
        raise walk.unsupported(construct, at, message="a constant, whose value is written instead")


def _check(walk: Walk, node: e.Expr, construct: str, at: e.Expr) -> None:
    if aggregates(node) or not steady(node):
        raise walk.unsupported(
            construct,
            at,
            message="the list or the test aggregates or is volatile, and would be evaluated "
            "again inside a subquery",
        )


def _renamed(walk: Walk, node: e.Expr, old: str, new: str, construct: str, at: e.Expr) -> e.Expr:
    return _replaced(walk, node, old, e.Variable(new), construct, at)


def _replaced(
    walk: Walk, node: e.Expr, name: str, value: e.Expr, construct: str, at: e.Expr
) -> e.Expr:
    if isinstance(value, e.Variable) and value.name == name:
        return node
    out = substitute(node, name, value)
    if out is None:
        raise walk.unsupported(construct, at, message="the test reads the variable in a subquery")
    return out


# -- the rules (a known list was written item by item by :mod:`.constant_lists` first) -------
def _reads_aggregate(*exprs: e.Expr | None) -> bool:
    """Whether a walk's list or test aggregates: left to the printer, which computes such an
    aggregate first where it can (a walk is a subquery, where the aggregate would run over the
    subquery's own rows) and then walks the computed list (:func:`over_aggregate`)."""
    return any(x is not None and aggregates(x) for x in exprs)


def membership(walk: Walk, node: e.In, defer: bool = True) -> e.Expr:
    """``x IN l`` as ``any(v IN l WHERE v = x)``: Cypher defines membership by equality."""
    if walk.caps.list_membership or (defer and _reads_aggregate(node.item, node.container)):
        return node
    v = walk.fresh("_v")
    test = e.Comparison(e.CompOp.EQ, e.Variable(v), node.item)
    quantified = e.ListPredicate(e.ListQuantifier.ANY, v, node.container, test)
    return quantify(walk, quantified, "IN", node)


def predicate(walk: Walk, node: e.ListPredicate, defer: bool = True) -> e.Expr:
    if walk.caps.list_predicates or (defer and _reads_aggregate(node.source, node.predicate)):
        return node
    return quantify(walk, node, f"{node.quantifier.value}() list predicate", node)


def comprehension(walk: Walk, node: e.ListComprehension) -> e.Expr:
    if walk.caps.list_comprehension or _reads_aggregate(node.source):
        return node  # (the printer counts one over an aggregate, or refuses it)
    raise walk.unsupported(
        "list comprehension",
        node,
        rewrite="VALUE { FOR x IN list FILTER … RETURN COLLECT_LIST(…) } (which drops nulls)",
    )


def index(walk: Walk, node: e.Index, defer: bool = True) -> e.Expr:
    if walk.caps.subscript or (defer and _reads_aggregate(node.subject, node.index)):
        return node
    return element_at(walk, node)


def slice_(walk: Walk, node: e.Slice) -> e.Expr:
    if walk.caps.slicing:
        return node
    raise walk.unsupported("list slice", node)


def size(walk: Walk, node: e.FunctionCall, defer: bool = True) -> e.Expr:
    """``size()`` of a comprehension over a list not known here, as a counting walk."""
    args = node.args
    if (
        node.name == "size"
        and len(args) == 1
        and isinstance(args[0], e.ListComprehension)
        and not walk.caps.list_comprehension
        and (args[0].where is not None or _const_items(walk, args[0].source) is None)
        and not (defer and _reads_aggregate(args[0].source, args[0].where, args[0].projection))
    ):
        return count_comprehension(walk, args[0], node)
    return node


def _const_items(walk: Walk, node: e.Expr) -> tuple[e.Expr, ...] | None:
    """The items of a list known here: a literal, or a value of a constant list type (the
    pass gql-expressions has folded the calls of constant lists)."""
    if isinstance(node, e.ListLiteral):
        return node.items
    const = walk.type_of(node).const
    return const.items if isinstance(const, e.ListLiteral) else None


def over_aggregate(walk: Walk, node: e.Expr) -> e.Expr:
    """The walk the rules above left for an aggregate's list, for the printer to write once it
    has computed the aggregate first (or to refuse as aggregating)."""
    if isinstance(node, e.In):
        return membership(walk, node, defer=False)
    if isinstance(node, e.ListPredicate):
        return predicate(walk, node, defer=False)
    if isinstance(node, e.Index):
        return index(walk, node, defer=False)
    if isinstance(node, e.FunctionCall):
        return size(walk, node, defer=False)
    return node
