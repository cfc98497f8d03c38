"""Small expression builders and tests the lowering passes and the GQL printer share.

They decide nothing about a target: whether an expression may be evaluated twice or not at all
(a rewrite that duplicates or drops it must keep its value and its errors), and the CASE on
runtime types (``IS TYPED``) a rewrite builds when an operand's type is only partly known.
"""

from __future__ import annotations

from ..analysis.types import is_const
from ..ir import expr as e
from ..ir.analysis import SUBQUERIES
from ..ir.node import Node

__all__ = [
    "VOLATILE",
    "all_of",
    "conjoin",
    "disjoin",
    "dispatch",
    "non_null_literal",
    "pure",
    "repeatable",
    "steady",
    "typed",
]

#: Functions whose value changes between calls: never duplicated or dropped by a rewrite.
VOLATILE = frozenset({"rand", "randomuuid", "timestamp"})


def pure(node: Node) -> bool:
    """Whether evaluating ``node`` twice (or not at all) cannot change the query's result: no
    volatile function, no aggregate and no subquery."""
    return repeatable(node, aggregates=False)


def repeatable(node: Node, *, aggregates: bool = True) -> bool:
    """Whether ``node`` may be written several times in one expression (the branches of a
    CASE) with the same value each time: no volatile function and no subquery. Unlike
    :func:`pure`, an aggregate is allowed (within a group it has one value) unless
    ``aggregates`` is false."""
    banned: tuple[type, ...] = (*SUBQUERIES, e.PatternComprehension)
    if not aggregates:
        banned = (*banned, e.Aggregate, e.CountStar)
    for inner in node.walk():
        if isinstance(inner, e.FunctionCall) and inner.name in VOLATILE:
            return False
        if isinstance(inner, banned):
            return False
    return True


def steady(node: Node) -> bool:
    """Whether ``node`` gives the same value each time it is evaluated (no volatile function)."""
    return not any(
        isinstance(inner, e.FunctionCall) and inner.name in VOLATILE for inner in node.walk()
    )


def non_null_literal(node: e.Expr) -> bool:
    return is_const(node) and not isinstance(node, e.Null)


def conjoin(terms: list[e.Expr], pos: int | None = None) -> e.Expr:
    out = terms[0]
    for term in terms[1:]:
        out = e.And(out, term, pos=pos)
    return out


def disjoin(terms: list[e.Expr], pos: int | None = None) -> e.Expr:
    out = terms[0]
    for term in terms[1:]:
        out = e.Or(out, term, pos=pos)
    return out


def all_of(*terms: e.Expr | bool) -> e.Expr | bool:
    """The conjunction of ``terms``, simplified where a term is known."""
    if False in terms:
        return False
    rest = [t for t in terms if isinstance(t, e.Expr)]
    return conjoin(rest) if rest else True


def typed(x: e.Expr, kinds: frozenset[str], kind: str, name: str) -> e.Expr | bool:
    """``x IS TYPED name`` for a value whose possible runtime kinds are ``kinds``."""
    if kind not in kinds:
        return False
    return True if kinds == {kind} else e.TypeTest(x, e.TypeRef(name))


def dispatch(
    branches: list[tuple[e.Expr | bool, e.Expr]], otherwise: e.Expr
) -> tuple[tuple[e.CaseWhen, ...], e.Expr]:
    """The WHENs and the ELSE of a CASE on runtime types from (condition, result) pairs whose
    condition may be known: a false one is dropped, a true one ends the CASE as its ELSE."""
    whens: list[e.CaseWhen] = []
    for condition, result in branches:
        if condition is True:
            return tuple(whens), result
        if condition is not False:
            whens.append(e.CaseWhen(condition, result))
    return tuple(whens), otherwise
