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
(the aggregate would run over the subquery's rows) or be volatile.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..analysis.aggregates import aggregates
from ..ir import expr as e
from ..ir import query as q
from ..ir.analysis import cannot_fail
from ..passes.exprs import steady
from ..passes.fold import closed
from ..passes.substitute import substitute

if TYPE_CHECKING:
    from .gql import GqlGenerator

__all__ = ["count_comprehension", "element_at", "quantify"]

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

    def count(self, gen: GqlGenerator, condition: e.Expr | None) -> e.Expr:
        return e.ValueSubquery(self.rows(condition, q.ReturnItem(e.CountStar(), gen.fresh())))

    def guarded(self, whens: list[tuple[e.Expr, e.Expr]], default: e.Expr, at: e.Expr) -> e.Expr:
        """The answer, null for a null list (FOR over null would walk nothing)."""
        cases = whens
        if not isinstance(self.source, e.ListLiteral):  # a literal list is never null
            cases = [(e.IsNull(self.source), e.Null()), *whens]
        if not cases:
            return default
        return e.Case(None, tuple(e.CaseWhen(c, r) for c, r in cases), default, pos=at.pos)


def quantify(gen: GqlGenerator, node: e.ListPredicate, construct: str, at: e.Expr) -> e.Expr:
    """``node`` (any/all/none/single over a list known at run time) by subqueries."""
    _not_constant(gen, node, construct, at)
    test = node.predicate if node.predicate is not None else e.Variable(node.variable)
    walk = _walk(gen, node.source, node.variable, test, construct, at)
    unknown = e.IsNull(walk.test)
    false, null = e.Boolean(False), e.Null()
    quantifier = node.quantifier
    if quantifier is e.ListQuantifier.SINGLE:
        trues = walk.count(gen, walk.test)
        whens = [
            (e.Comparison(e.CompOp.GT, trues, e.Integer(1)), false),
            (walk.some(unknown), null),
        ]
        return walk.guarded(whens, e.Comparison(e.CompOp.EQ, trues, e.Integer(1)), at)
    if quantifier is e.ListQuantifier.ALL:
        whens = [(walk.some(e.Not(walk.test)), false), (walk.some(unknown), null)]
        return walk.guarded(whens, e.Boolean(True), at)
    none = quantifier is e.ListQuantifier.NONE
    whens = [(walk.some(walk.test), e.Boolean(not none)), (walk.some(unknown), null)]
    return walk.guarded(whens, e.Boolean(none), at)


def count_comprehension(gen: GqlGenerator, node: e.ListComprehension, at: e.Expr) -> e.Expr:
    """``size(node)``: the number of elements the comprehension keeps. Its projection is not
    evaluated, so it must be one that cannot fail (else Cypher's error would be lost)."""
    _not_constant(gen, node, "list comprehension", at)
    if node.projection is not None and not cannot_fail(node.projection, set()):
        raise gen.unsupported(
            "list comprehension",
            node,
            message="its projection may fail, and counting its elements would not evaluate it",
        )
    keep = node.where if node.where is not None else e.Boolean(True)
    walk = _walk(gen, node.source, node.variable, keep, "list comprehension", at)
    condition = walk.test if node.where is not None else None
    return walk.guarded([], walk.count(gen, condition), at)


def element_at(gen: GqlGenerator, node: e.Index) -> e.Expr:
    """``l[k]`` for a list ``l`` and an integer ``k`` known only at run time. Cypher fails on a
    non-integer position (GQL's comparison would accept ``1.0``) and reads a map by key, so
    ``k`` must be known to be an integer and ``l`` not known to be anything but a list."""
    forms = [f for f in gen.caps.for_index if f.split()[0] == "OFFSET"]
    subject, index = node.subject, node.index
    kind = gen.type_of(subject).kind
    if (
        not (gen.caps.value_subquery and forms)
        or gen.type_of(index).kind != "integer"
        or kind not in ("list", "property", "any")
    ):
        raise gen.unsupported("subscript", node, rewrite="bind the element to a variable")
    _check(gen, subject, "subscript", node)
    _check(gen, index, "subscript", node)
    item, offset = gen.fresh("_v"), gen.fresh("_i")
    at = e.Variable(offset)
    from_start = e.Comparison(e.CompOp.EQ, at, index)
    size = e.FunctionCall("size", (subject,))
    # i - CARDINALITY(l) = k, not i = CARDINALITY(l) + k, which overflows for a large k
    from_end = e.Comparison(e.CompOp.EQ, e.Arithmetic(e.ArithOp.SUB, at, size), index)
    if isinstance(index, e.Integer):  # a literal's sign is known
        position = from_start if index.value >= 0 else from_end
    else:
        position = e.Or(from_start, from_end)
    steps = (
        q.Unwind(_as_list(gen, subject), item, index=offset),
        q.Filter(position),
        q.Projection((q.ReturnItem(e.Variable(item), item),)),
    )
    return e.ValueSubquery(q.LinearQuery(steps), pos=node.pos)


def _walk(
    gen: GqlGenerator, source: e.Expr, variable: str, test: e.Expr, construct: str, at: e.Expr
) -> _Walk:
    """The walk of ``source`` binding ``variable`` for ``test``: renamed where the subquery sees
    a variable of that name from outside (FOR may not rebind it), and through a comprehension
    when ``source`` is one."""
    if not (gen.caps.exists_subquery and gen.caps.value_subquery):
        raise gen.unsupported(construct, at)
    _check(gen, test, construct, at)
    if isinstance(source, e.ListComprehension):
        if any(isinstance(n, _BINDERS) for n in test.walk()):
            # the comprehension's projection replaces the variable in the test, and a binder
            # there could capture the projection's own variables
            raise gen.unsupported(construct, at, message="the test binds variables of its own")
        inner = _walk(
            gen,
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
            element = _renamed(gen, element, source.variable, inner.variable, construct, at)
        keep = inner.test if source.where is not None else None
        _check(gen, element, construct, at)
        return _Walk(
            inner.source,
            inner.variable,
            keep,
            _replaced(gen, test, variable, element, construct, at),
            inner.listed,
        )
    _check(gen, source, construct, at)
    listed = _as_list(gen, source)
    if variable in gen.scope:
        fresh = gen.fresh("_v")
        test = _renamed(gen, test, variable, fresh, construct, at)
        return _Walk(source, fresh, None, test, listed)
    return _Walk(source, variable, None, test, listed)


def _as_list(gen: GqlGenerator, source: e.Expr) -> e.Expr:
    """``source`` as FOR's list: ``source || []`` unless it is known to be a list, so that a
    string or number fails as it does in Cypher (whether GQL's FOR would fail on it or walk it
    as one element is left to the implementation's reading of the standard). Not in a dialect
    whose lists are typed (GoogleSQL), which rejects FOR over a non-list before running."""
    if gen.type_of(source).kind in ("list", "null") or gen.caps.typed_lists:
        return source  # (a dialect with typed lists rejects FOR over a non-list when compiling)
    return e.Concat(source, e.ListLiteral(()), pos=source.pos)


def _not_constant(gen: GqlGenerator, node: e.Expr, construct: str, at: e.Expr) -> None:
    """A test that reads nothing but literals is left to constant folding (translation retries
    a refused query with its constants folded), which writes its value instead of subqueries."""
    if closed(node):
        raise gen.unsupported(construct, at, message="a constant, whose value is written instead")


def _check(gen: GqlGenerator, node: e.Expr, construct: str, at: e.Expr) -> None:
    if aggregates(node) or not steady(node):
        raise gen.unsupported(
            construct,
            at,
            message="the list or the test aggregates or is volatile, and would be evaluated "
            "again inside a subquery",
        )


def _renamed(
    gen: GqlGenerator, node: e.Expr, old: str, new: str, construct: str, at: e.Expr
) -> e.Expr:
    return _replaced(gen, node, old, e.Variable(new), construct, at)


def _replaced(
    gen: GqlGenerator, node: e.Expr, name: str, value: e.Expr, construct: str, at: e.Expr
) -> e.Expr:
    if isinstance(value, e.Variable) and value.name == name:
        return node
    out = substitute(node, name, value)
    if out is None:
        raise gen.unsupported(construct, at, message="the test reads the variable in a subquery")
    return out
