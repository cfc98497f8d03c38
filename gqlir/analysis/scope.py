"""What each step of a query binds, and the type analysis over the variables in scope.

A rule that depends on a variable's type (Cypher's ``+`` concatenates strings and adds
numbers; ``size()`` counts characters or elements) needs the variables in scope where the
expression stands: a MATCH binds nodes, edges and paths (lists of them under a quantifier), a
LET and a projection bind the types of their values, a FOR binds its list's element type, a CALL
subquery adds its result columns. These rules are written once here; the GQL printer and the
scope-typed lowering passes (:mod:`gqlir.passes.scoped`) both follow them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ..ir import expr as e
from ..ir import pattern as p
from ..ir import query as q
from ..ir.node import Node
from .types import ANY, TypeAnalysis, VType, unconst

__all__ = [
    "Deferred",
    "ScopeTypes",
    "call_results",
    "path_bindings",
    "pattern_bindings",
    "projection_columns",
    "projection_scope",
    "unwind_bindings",
]


class Deferred:
    """The type of ``expr`` in ``scope``, inferred when first asked (most bound variables'
    types are never asked, and a projection binds every column). ``element``: the type of an
    element of the list ``expr`` is (what ``FOR x IN expr`` binds ``x`` to)."""

    __slots__ = ("element", "expr", "found", "scope")

    def __init__(
        self, expr: e.Expr, scope: Mapping[str, VType | Deferred], *, element: bool = False
    ) -> None:
        self.expr = expr
        self.scope = scope
        self.element = element
        self.found: VType | None = None

    def resolve(self, types: ScopeTypes) -> VType:
        if self.found is None:
            outer = types.scope
            types.scope = self.scope  # type: ignore[assignment]
            try:
                found = types.of(self.expr)
            finally:
                types.scope = outer
            if self.element:
                found = element_type(found)
            self.found = found
            self.scope = {}  # (no longer needed)
        return self.found


Scope = dict[str, VType]


class ScopeTypes(TypeAnalysis):
    """The type analysis over a scope of variables and the schema's property kinds
    (``(node|edge, key) -> kind``, :func:`gqlir.analysis.types.property_kinds`). A variable's
    type may be :class:`Deferred` (inferred when asked)."""

    __slots__ = ("properties", "scope")

    def __init__(
        self, scope: Scope | None = None, properties: Mapping[tuple[str, str], str] | None = None
    ) -> None:
        self.scope: Scope = scope if scope is not None else {}
        self.properties: Mapping[tuple[str, str], str] = properties or {}

    def variable(self, name: str) -> VType:
        found = self.scope.get(name, ANY)
        if type(found) is Deferred:
            return found.resolve(self)
        return found

    def elements(self) -> set[str]:
        """The variables in scope bound to nodes or edges."""
        return {n for n in self.scope if self.variable(n).kind in ("node", "edge")}

    def property(self, node: e.Property, subject: VType) -> VType:
        if subject.kind not in ("node", "edge"):
            return ANY
        kind = self.properties.get((subject.kind, node.key))
        return VType(kind) if kind is not None else VType("property")


def pattern_bindings(patterns: tuple[p.PathPattern, ...]) -> Scope:
    """The variables a graph pattern binds: nodes, edges and paths, and lists of them for the
    variables inside a quantified part."""
    new: Scope = {}
    for pattern in patterns:
        if pattern.variable is not None:
            new[pattern.variable] = VType("path")
        path_bindings(pattern.path, new, group=False)
    return new


def path_bindings(path: Node, out: Scope, *, group: bool) -> None:
    """Add to ``out`` the variables of ``path`` (a chain or a union of chains); ``group``: the
    path is inside a quantified part, so each variable is a list."""
    chains = path.alternatives if type(path) is p.PathUnion else (path,)
    for chain in chains:
        assert type(chain) is p.PathChain
        for element in chain.elements:
            # (by exact class: the IR's pattern classes have no subclasses)
            if type(element) is p.NodePattern:
                if element.variable:
                    t = _NODE
                    out.setdefault(element.variable, VType("list", t) if group else t)
            elif type(element) is p.RelPattern:
                if element.variable:
                    t = _EDGE
                    is_group = group or element.quantifier is not None
                    out.setdefault(element.variable, VType("list", t) if is_group else t)
            elif type(element) is p.ParenPath:
                inner_group = group or element.quantifier is not None
                if element.variable:
                    t = VType("path")
                    out.setdefault(element.variable, VType("list", t) if inner_group else t)
                path_bindings(element.path, out, group=inner_group)


#: (frozen: shared by every binding of their kind)
_NODE, _EDGE = VType("node"), VType("edge")


def unwind_bindings(step: q.Unwind, source: VType) -> Scope:
    """What ``UNWIND source AS v`` (GQL's ``FOR``) binds: the list's element type, and an
    integer position when it is numbered."""
    out: Scope = {step.variable: element_type(source)}
    if step.index is not None:
        out[step.index] = VType("integer")
    return out


def element_type(source: VType) -> VType:
    """What ``FOR x IN l`` binds ``x`` to, for ``l`` of type ``source``."""
    elem = source.element if source.kind == "list" and source.element else ANY
    return unconst(elem)


def deferred_unwind_bindings(step: q.Unwind, scope: Mapping[str, VType | Deferred]) -> Scope:
    """:func:`unwind_bindings` with the element type inferred when first asked."""
    out: Scope = {step.variable: Deferred(step.source, scope, element=True)}  # type: ignore[dict-item]
    if step.index is not None:
        out[step.index] = VType("integer")
    return out


def projection_columns(step: q.Projection, scope: Mapping[str, VType]) -> list[tuple[e.Expr, str]]:
    """The columns of a projection as (expression, name), ``*`` first as the variables in
    scope in name order. An unnamed item that is not a variable has no name here (``""``):
    the printer refuses it."""
    cols: list[tuple[e.Expr, str]] = []
    names = set()
    for item in step.items:
        alias = item.alias
        if alias is None:
            alias = item.expr.name if isinstance(item.expr, e.Variable) else ""
        cols.append((item.expr, alias))
        names.add(alias)
    if step.star:
        cols = [(e.Variable(n), n) for n in sorted(scope) if n not in names] + cols
    return cols


def projection_scope(
    step: q.Projection, scope: Mapping[str, VType | Deferred]
) -> dict[str, VType | Deferred]:
    """The scope after a projection: its named columns, each a variable's type or the type of
    its value in ``scope`` (inferred when asked)."""
    return column_scope(projection_columns(step, scope), scope)  # type: ignore[arg-type]


def column_scope(
    columns: Iterable[tuple[e.Expr, str | None]], scope: Mapping[str, VType | Deferred]
) -> dict[str, VType | Deferred]:
    """The scope a projection of ``columns`` (expression, name) leaves: each named column a
    variable's type in ``scope`` or its value's, inferred when asked."""
    return {
        a: scope.get(x.name, ANY) if type(x) is e.Variable else Deferred(x, scope)
        for x, a in columns
        if a
    }


def call_results(query: q.Query, scope: Mapping[str, VType]) -> Scope:
    """The columns a CALL subquery adds to the outer scope (their types are not followed)."""
    if isinstance(query, q.SetOperation):
        return call_results(query.left, scope)
    if not isinstance(query, q.LinearQuery) or not query.steps:
        return {}
    last = query.steps[-1]
    if not isinstance(last, q.Projection):
        return {}
    names = [i.alias or (i.expr.name if isinstance(i.expr, e.Variable) else "") for i in last.items]
    if last.star:
        names += list(scope)
    return {name: ANY for name in names if name}
