"""Small questions about IR that several layers ask (and must answer the same way)."""

from __future__ import annotations

import dataclasses
from typing import Any

from . import expr, predicates
from .expr import (
    CollectSubquery,
    CountSubquery,
    Exists,
    Expr,
    ListComprehension,
    ListPredicate,
    MapProjection,
    PatternComprehension,
    Reduce,
    ValueSubquery,
    Variable,
)
from .node import CHILD_GETTERS, Node, node_getter

#: Expressions with a query of their own, which aggregates over its own rows.
SUBQUERIES = (Exists, CountSubquery, CollectSubquery, ValueSubquery)

#: Expressions whose value is a boolean (or null), whatever their operands.
BOOLEAN_VALUED = (
    predicates.IsDirected,
    predicates.IsEndpoint,
    predicates.Same,
    predicates.AllDifferent,
    predicates.PropertyExists,
    expr.Comparison,
    expr.And,
    expr.Or,
    expr.Xor,
    expr.Not,
    expr.IsTruth,
    expr.IsNull,
    expr.StringMatch,
    expr.RegexMatch,
    expr.Like,
    expr.In,
    expr.HasLabels,
    expr.TypeTest,
    expr.Exists,
    expr.ListPredicate,
)

#: Expressions that name variables in patterns, scopes or items of their own rather than as
#: plain Variable reads of the enclosing scope.
OPAQUE = (*SUBQUERIES, PatternComprehension, MapProjection)


def reads_only(expr: Expr, names: set[str]) -> bool:
    """Whether ``expr`` certainly reads no variable outside ``names``. Conservative: an
    expression with a subquery, a pattern comprehension or a map projection does not qualify."""
    for node in expr.walk():
        if isinstance(node, Variable) and node.name not in names:
            return False
        if isinstance(node, OPAQUE):
            return False
    return True


def free_variables(node: Node) -> set[str]:
    """The variables ``node`` reads from its scope: a comprehension's, a list predicate's and
    reduce()'s own variables are bound inside; every name an OPAQUE expression mentions
    counts (over-approximated: its own bindings are not told apart)."""
    if isinstance(node, Variable):
        return {node.name}
    if isinstance(node, (ListComprehension, ListPredicate)):
        inner = set().union(*(free_variables(c) for c in node.children() if c is not node.source))
        return free_variables(node.source) | (inner - {node.variable})
    if isinstance(node, Reduce):
        inner = free_variables(node.expression) - {node.accumulator, node.variable}
        return free_variables(node.init) | free_variables(node.source) | inner
    if isinstance(node, OPAQUE):
        return {v.name for v in node.find_all(Variable)}
    return set().union(*(free_variables(c) for c in node.children()))


def conjuncts(where: Expr | None) -> list[Expr]:
    """The top-level AND operands of ``where``, left to right (none for no condition)."""
    out: list[Expr] = []
    stack: list[Expr] = [where] if where is not None else []
    while stack:
        c = stack.pop()
        if isinstance(c, expr.And):
            stack += [c.right, c.left]
        else:
            out.append(c)
    return out


def column_name(item: Node) -> str | None:
    """The name a projected item (a ReturnItem) is known by afterwards: its alias, or an
    unaliased variable's own name."""
    alias = getattr(item, "alias", None)
    if alias is not None:
        return alias
    expr = getattr(item, "expr", None)
    return expr.name if isinstance(expr, Variable) else None


def names_in(node: Node) -> set[str]:
    """Every name a query binds or reads: a fresh name must avoid them all. (One walk written
    out, with each class's naming fields and children found once: several passes and the
    folding fallback ask it of every step.)"""
    names: set[str] = set()
    add = names.add
    stack: list[Any] = [node]
    pop, extend = stack.pop, stack.extend
    getters, cache = CHILD_GETTERS, _NAMING_CACHE
    while stack:
        inner = pop()
        cls = type(inner)
        if cls is tuple:
            extend(inner)
            continue
        fields = cache.get(cls)
        if fields is None:
            if not isinstance(inner, Node):
                continue  # None, or a scalar inside a tuple (a map entry's key)
            fields = _naming_fields(cls)
        for attr in fields:  # (none for most nodes: literals, operators)
            value = getattr(inner, attr)
            if type(value) is str:
                add(value)
        extend((getters.get(cls) or node_getter(cls))(inner))
    return names


_NAMING = ("name", "variable", "alias", "index", "accumulator", "subject", "field")
_NAMING_CACHE: dict[type, tuple[str, ...]] = {}


def _naming_fields(cls: type) -> tuple[str, ...]:
    """The fields of ``cls`` that may hold a name (for :func:`names_in`)."""
    found = _NAMING_CACHE.get(cls)
    if found is None:
        present = (
            {f.name for f in dataclasses.fields(cls)} if dataclasses.is_dataclass(cls) else set()
        )
        found = _NAMING_CACHE[cls] = tuple(a for a in _NAMING if a in present)
    return found


def write_clause(node: Node) -> str | None:
    """The name of the write ``node`` is (CREATE, SET, a schema or transaction command …), or
    None for a node that writes nothing (procedure calls are the engines' to judge)."""
    from . import catalog, ddl, query

    if isinstance(node, query.Delete):
        return "DETACH DELETE" if node.detach else "DELETE"
    for cls, name in (
        (query.Create, "CREATE/INSERT"),
        (query.Merge, "MERGE"),
        (query.SetClause, "SET"),
        (query.Remove, "REMOVE"),
        (query.Foreach, "FOREACH"),
    ):
        if isinstance(node, cls):
            return name
    if isinstance(
        node,
        (
            ddl.CreateIndex,
            ddl.CreateConstraint,
            ddl.DropIndex,
            ddl.DropConstraint,
            catalog.CreateSchema,
            catalog.DropSchema,
            catalog.CreateGraph,
            catalog.DropGraph,
            catalog.CreateGraphType,
            catalog.DropGraphType,
        ),
    ):
        return f"schema command {type(node).__name__}"
    if isinstance(node, (catalog.StartTransaction, catalog.Commit, catalog.Rollback)):
        return f"transaction control {type(node).__name__}"
    return None


def writes_data(statement: Node) -> bool:
    """Whether ``statement`` can change nodes, relationships, labels or properties (a schema
    or transaction command alone cannot)."""
    from .query import UPDATING_STEPS

    return any(isinstance(node, UPDATING_STEPS) for node in statement.walk())


def cannot_fail(expr: Expr, elements: set[str]) -> bool:
    """Whether ``expr`` evaluates without raising, whatever the values: only operators that
    cannot (comparisons of values of different types are null in Cypher and GQL, not errors),
    literals, variables, and properties of the graph elements named in ``elements``
    (``x.k`` and ``x:L`` fail when ``x`` is a number)."""
    from . import expr as ex
    from . import pattern as pt

    allowed = (
        ex.Comparison,
        ex.And,
        ex.Or,
        ex.Not,
        ex.Xor,
        ex.IsNull,
        ex.ListLiteral,
        ex.MapLiteral,
        ex.Property,
        ex.Variable,
        ex.HasLabels,
        ex.StringMatch,
        ex.Null,
        ex.Boolean,
        ex.Integer,
        ex.Float,
        ex.String,
        pt.Label,
        pt.LabelAnd,
        pt.LabelOr,
        pt.LabelNot,
        pt.LabelAny,
    )
    pending: list[Node] = [expr]
    while pending:
        node = pending.pop()
        if isinstance(node, ex.Exists) and node.pattern_predicate:
            # a pattern predicate over graph elements: true or false, never an error
            if not _pattern_of_elements(node, elements):
                return False
            continue
        if not isinstance(node, allowed):
            return False
        if isinstance(node, (ex.Property, ex.HasLabels)) and not (
            isinstance(node.subject, ex.Variable) and node.subject.name in elements
        ):
            return False
        pending.extend(node.children())
    return True


def _pattern_of_elements(node: Node, elements: set[str]) -> bool:
    """Whether a pattern predicate names only ``elements`` and has no property map or
    condition that could fail."""
    from . import pattern as pt

    for x in node.walk():
        if isinstance(x, (pt.NodePattern, pt.RelPattern)):
            if x.variable is not None and x.variable not in elements:
                return False
            if getattr(x, "properties", None) is not None or getattr(x, "where", None) is not None:
                return False
    return True
