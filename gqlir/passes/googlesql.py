"""GoogleSQL's typing rules for a GQL target that reads through it (Spanner).

ZetaSQL's analyser, which Spanner runs, rejects three kinds of text whose meaning is plain:

* an operator with a literal ``NULL`` operand ("Operands of = cannot be literal NULL"; functions,
  ``AND``/``OR``, ``IS NULL`` and ``CASE`` take one). Every GoogleSQL operator returns null for a
  null operand (https://cloud.google.com/spanner/docs/reference/standard-sql/operators, "Unless
  otherwise specified, all operators return NULL when one of the operands is NULL"), as Cypher's
  do, so the operation is its null result: ``CAST(NULL AS BOOL)`` for a comparison or ``NOT``, a
  bare ``NULL`` for arithmetic. The other operand is not evaluated then, so it must be one that
  cannot fail; otherwise the operator is refused (capability ``literal_null_operands``).
* ``FOR x IN NULL`` ("must be of type ARRAY"): Cypher's ``UNWIND null`` gives no rows, as
  ``FOR x IN []`` does.
* an element pattern's property map or ``WHERE`` that reads a variable other than the element's
  own ("Name 'y', defined in the previous statement, can only be referenced in the outermost
  WHERE clause of MATCH"; "Unrecognized name" for another element of the same MATCH). Such a
  filter is the same condition in the MATCH's ``WHERE``, unless the element repeats (a
  quantifier) or the path is chosen by a search (``ANY SHORTEST``), where it is refused
  (capability ``element_filters_read_others``).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..dialect import Dialect
from ..errors import UnsupportedError
from ..ir import expr as e
from ..ir import pattern as p
from ..ir import query as q
from ..ir.analysis import cannot_fail, names_in
from ..ir.node import Node

_BOOL_NULL: e.Expr = e.Cast(e.Null(), e.TypeRef("BOOLEAN"))
_NULL_FREE_ARITHMETIC = frozenset(set(e.ArithOp) - {e.ArithOp.ADD})  # Cypher's + appends to lists


def lower_googlesql(root: Node, target: Dialect) -> Node:
    """``root`` with literal-null operands folded and element filters that read other
    variables moved to their MATCH's WHERE, as ``target``'s capabilities ask."""
    caps = target.capabilities
    fold, hoist = not caps.literal_null_operands, not caps.element_filters_read_others
    nulls = others = False  # (whether either rule has anything to do: one walk for both)
    elements = (p.NodePattern, p.RelPattern)
    for node in root.walk():
        if fold and not nulls and _null_operand(node):
            nulls = True
        elif hoist and not others and isinstance(node, elements) and _reads_others(node):
            others = True
    if nulls:
        names = _element_names(root)
        root = root.transform(lambda node: _fold_null_operand(node, names, target))
    if others:
        fresh = _Fresh(root)
        root = root.transform(lambda node: _hoist_element_filters(node, fresh, target))
    return root


def _null_operand(node: Node) -> bool:
    """Whether :func:`_fold_null_operand` rewrites or refuses ``node`` (a literal null operand
    of an operator, or of UNWIND): folding a query without one changes nothing."""
    cls, null = type(node), e.Null
    if cls is q.Unwind:
        return type(node.source) is null  # type: ignore[attr-defined]
    if cls is e.Not or cls is e.Negate:
        return type(node.operand) is null  # type: ignore[attr-defined]
    if cls is e.In:
        return type(node.container) is null  # type: ignore[attr-defined]
    if (
        cls is e.Comparison
        or cls is e.Concat
        or (cls is e.Arithmetic and node.op in _NULL_FREE_ARITHMETIC)  # type: ignore[attr-defined]
    ):
        return type(node.left) is null or type(node.right) is null  # type: ignore[attr-defined]
    return False


def _element_names(root: Node) -> set[str]:
    """Names that only ever name graph elements in ``root`` (bound by a pattern, never by a
    projection, FOR or LET), whose properties can be read without failing."""
    bound = {
        x.variable
        for x in root.walk()
        if isinstance(x, (p.NodePattern, p.RelPattern)) and x.variable and not _repeats(x)
    }
    for x in root.walk():
        if isinstance(x, q.ReturnItem) and x.alias and x.alias in bound:
            if not (isinstance(x.expr, e.Variable) and x.expr.name == x.alias):
                bound.discard(x.alias)
        elif isinstance(x, (q.Unwind, q.Binding)):
            bound.discard(x.variable)
    return bound


def _repeats(x: p.RelPattern | p.NodePattern) -> bool:
    return isinstance(x, p.RelPattern) and x.quantifier is not None


def _fold_null_operand(node: Node, elements: set[str], target: Dialect) -> Node:
    if isinstance(node, q.Unwind) and isinstance(node.source, e.Null):
        return replace(node, source=e.ListLiteral(()))
    if isinstance(node, e.Not) and isinstance(node.operand, e.Null):
        return _BOOL_NULL
    if isinstance(node, e.Negate) and isinstance(node.operand, e.Null):
        return e.Null(pos=node.pos)
    if isinstance(node, e.Comparison):
        result, left, right = _BOOL_NULL, node.left, node.right
    elif (isinstance(node, e.Arithmetic) and node.op in _NULL_FREE_ARITHMETIC) or isinstance(
        node, e.Concat
    ):
        result, left, right = e.Null(pos=node.pos), node.left, node.right
    elif isinstance(node, e.In) and isinstance(node.container, e.Null):
        result, left, right = _BOOL_NULL, node.container, node.item
    else:
        return node
    if not (isinstance(left, e.Null) or isinstance(right, e.Null)):
        return node
    other = right if isinstance(left, e.Null) else left
    if not cannot_fail(other, elements):
        raise UnsupportedError(
            "operator with a literal NULL operand",
            target.name,
            f"{target.name} rejects a literal NULL operand; its null result would skip the "
            "other operand, which may fail",
            offset=node.pos,
        )
    return result


class _Fresh:
    """Variable names not used anywhere in the query."""

    def __init__(self, root: Node) -> None:
        self.used = names_in(root)
        self.count = 0
        #: a ``*`` projection would return a fresh variable as a column
        self.star = any(isinstance(x, q.Projection) and x.star for x in root.walk())

    def __call__(self) -> str:
        while True:
            self.count += 1
            name = f"_e{self.count}"
            if name not in self.used:
                self.used.add(name)
                return name


def _hoist_element_filters(node: Node, fresh: _Fresh, target: Dialect) -> Node:
    if not isinstance(node, q.Match):
        return node
    moved: list[e.Expr] = []
    patterns = []
    for pattern in node.patterns:
        searched = pattern.search is not None

        def hoist(x: Node, searched: bool = searched) -> Node:
            if not isinstance(x, (p.NodePattern, p.RelPattern)):
                return x
            return _hoist_element(x, moved, fresh, target, searched)

        patterns.append(_transform_outside_repeats(pattern, hoist, target))
    if not moved:
        return node
    where = node.where
    for condition in moved:
        where = condition if where is None else e.And(where, condition)
    return replace(node, patterns=tuple(patterns), where=where)


def _transform_outside_repeats(pattern: p.PathPattern, fn, target: Dialect) -> p.PathPattern:
    """``fn`` on the element patterns that match once; an element inside a quantified group
    whose filter reads another variable is refused."""

    def visit(x: Node) -> Node:
        if isinstance(x, p.ParenPath) and x.quantifier is not None:
            for inner in x.walk():
                if isinstance(inner, (p.NodePattern, p.RelPattern)) and _reads_others(inner):
                    raise _refusal(target, inner, "a repeated element")
            return x
        if isinstance(x, p.RelPattern) and x.quantifier is not None:
            if _reads_others(x):
                raise _refusal(target, x, "a repeated element")
            return x
        if isinstance(x, (p.NodePattern, p.RelPattern)):
            return fn(x)
        children: dict[str, Any] = {}
        for name, value in x.field_values():
            if isinstance(value, Node):
                children[name] = visit(value)
            elif isinstance(value, tuple) and value and all(isinstance(v, Node) for v in value):
                children[name] = tuple(visit(v) for v in value)
        return replace(x, **children) if children else x

    return visit(pattern)  # type: ignore[return-value]


def _names(expr: Node) -> set[str]:
    return {v.name for v in expr.walk() if isinstance(v, e.Variable)}


def _reads_others(x: p.NodePattern | p.RelPattern) -> bool:
    """Whether the element's property map or WHERE reads a variable other than its own."""
    parts = [part for part in (x.properties, x.where) if part is not None]
    return any(_names(part) - {x.variable} for part in parts)


def _refusal(target: Dialect, at: Node, where: str) -> UnsupportedError:
    return UnsupportedError(
        "element filter reading another variable",
        target.name,
        f"{target.name} lets only the MATCH's WHERE read other variables, and a filter of "
        f"{where} is not that condition",
        offset=at.pos,
    )


def _hoist_element(
    x: p.NodePattern | p.RelPattern,
    moved: list[e.Expr],
    fresh: _Fresh,
    target: Dialect,
    searched: bool,
) -> Node:
    if not _reads_others(x):
        return x
    if searched:
        raise _refusal(target, x, "a path chosen by a search")
    if not isinstance(x.properties, (e.MapLiteral, type(None))):
        raise _refusal(target, x, "a property map that is not a literal map")
    if x.variable is None and fresh.star:
        raise _refusal(target, x, "an unnamed element before a * projection")
    variable = x.variable or fresh()
    subject = e.Variable(variable)
    kept: list[tuple[str, e.Expr]] = []
    for key, value in x.properties.entries if x.properties is not None else ():
        if _names(value) - {variable}:
            moved.append(e.Comparison(e.CompOp.EQ, e.Property(subject, key), value))
        else:
            kept.append((key, value))
    where = x.where
    if where is not None and _names(where) - {variable}:
        moved.append(where)
        where = None
    properties = e.MapLiteral(tuple(kept)) if kept else None
    return replace(x, variable=variable, properties=properties, where=where)
