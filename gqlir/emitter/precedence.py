"""Operator precedence of Graph-IR expressions, as data shared by emitters and builders.

The emitters use it to write the fewest parentheses that keep ``parse(emit(x)) == x``; the
Cypher builder (which parses expressions flat and assigns precedence afterwards) can use the
same table read the other way, so that the two can never disagree.

Levels, lowest to highest (Neo4j 5's order, which the Cypher builder follows)::

    OR < XOR < AND < NOT < COMPARISON (= <> < > <= >=)
       < PREDICATE (=~, STARTS WITH, ENDS WITH, CONTAINS, IN, IS [NOT] NULL, IS [NOT] :: T)
       < ADDITIVE (+ - ||) < MULTIPLICATIVE (* / %) < POWER (^) < UNARY (prefix - and +)
       < LABEL_TEST (n:A) < POSTFIX (.key [i] [a..b]) < ATOM

Associativity, which the emitters rely on:

* binary operators are left-associative (``a - b - c`` is ``(a - b) - c``; ``2 ^ 3 ^ 2`` is
  ``(2 ^ 3) ^ 2`` as in Cypher), so a right operand of the same level is parenthesised;
* COMPARISON is non-associative: the Cypher builder expands ``a < b < c`` into
  ``a < b AND b < c``, so an operand that is itself a comparison is always parenthesised;
* PREDICATE is non-associative too: Neo4j 5 allows one predicate per operand
  (``expression7: expression6 comparisonExpression6?``), so ``(a IN b) IN c`` and
  ``(x IS NULL) IS NULL`` keep their parentheses; the right operand of a predicate is at
  ADDITIVE level or above;
* a label test ends a postfix chain (``n.a:L`` is written bare, ``(n:L).a`` is not), which is
  why LABEL_TEST sits just below POSTFIX: a label test used as the subject of ``.key``, ``[i]``
  or another label test is parenthesised;
* a negative numeric literal (``Integer(-1)``) has UNARY precedence: it is written ``-1``.
"""

from __future__ import annotations

import math

from ..ir import expr as e

OR = 1
XOR = 2
AND = 3
NOT = 4
COMPARISON = 5
PREDICATE = 6
ADDITIVE = 7
MULTIPLICATIVE = 8
POWER = 9
UNARY = 10
LABEL_TEST = 11
POSTFIX = 12
ATOM = 13

#: Levels whose operators do not chain: both operands need a strictly higher level.
NON_ASSOCIATIVE: frozenset[int] = frozenset({COMPARISON, PREDICATE})

#: Arithmetic shares one IR class across three levels; its level depends on the operator.
ARITHMETIC: dict[e.ArithOp, int] = {
    e.ArithOp.ADD: ADDITIVE,
    e.ArithOp.ADD_NUMBERS: ADDITIVE,
    e.ArithOp.SUB: ADDITIVE,
    e.ArithOp.MUL: MULTIPLICATIVE,
    e.ArithOp.DIV: MULTIPLICATIVE,
    e.ArithOp.DIV_FLOAT: MULTIPLICATIVE,
    e.ArithOp.MOD: MULTIPLICATIVE,
    e.ArithOp.POW: POWER,
}

#: IR expression class -> level. Classes not listed are atoms (literals, variables, calls,
#: CASE, comprehensions, subqueries ...). Arithmetic is listed at its lowest level; use
#: :func:`precedence` for the exact level of a node.
PRECEDENCE: dict[type[e.Expr], int] = {
    e.Or: OR,
    e.Xor: XOR,
    e.And: AND,
    e.Not: NOT,
    e.Comparison: COMPARISON,
    e.Like: COMPARISON,
    e.RegexMatch: PREDICATE,
    e.StringMatch: PREDICATE,
    e.In: PREDICATE,
    e.IsNull: PREDICATE,
    e.TypeTest: PREDICATE,
    e.IsTruth: PREDICATE,
    e.Arithmetic: ADDITIVE,
    e.Concat: ADDITIVE,
    e.Negate: UNARY,
    e.UnaryPlus: UNARY,
    e.HasLabels: LABEL_TEST,
    e.Property: POSTFIX,
    e.Index: POSTFIX,
    e.Slice: POSTFIX,
}


def precedence(node: e.Expr) -> int:
    """The binding strength of ``node`` as written (higher binds tighter)."""
    kind = type(node)
    if kind is e.Arithmetic:
        return ARITHMETIC[node.op]  # type: ignore[attr-defined]
    if kind is e.Integer:
        return UNARY if node.value < 0 else ATOM  # type: ignore[attr-defined]
    if kind is e.Float:
        # copysign: -0.0 is written with its sign too.
        return UNARY if math.copysign(1.0, node.value) < 0 else ATOM  # type: ignore[attr-defined]
    return PRECEDENCE.get(kind, ATOM)
