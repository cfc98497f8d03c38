"""Static checks the reference evaluator runs before it executes anything.

A query can parse and still be wrong: a variable used before it is bound or bound twice, a
node variable reused as a relationship, an aggregate where none may be, ORDER BY reading a
variable a DISTINCT or aggregating projection dropped, a boolean operator applied to a literal
number. openCypher rejects these at compile time (the TCK's compile-time ``SyntaxError`` s and
``TypeError`` s), before any row is read, and so does the evaluator: this module walks the IR
with a scope of variable *kinds* (node, relationship, list of relationships, path, or the
static type of a value) and raises :class:`StaticCheckError` naming the TCK's detail.

The checks are about the query alone (no graph, no parameters), so they are the same whatever
data the query later runs on. Only what is certain is reported: an expression of unknown type
is never an error here; it may still fail at runtime.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .. import ir
from ..analysis.aggregates import aggregates
from ..analysis.types import ANY as ANY_TYPE
from ..analysis.types import TypeAnalysis, VType
from ..errors import SemanticError

__all__ = ["StaticCheckError", "check"]

NODE, REL, RELS, PATH = "NODE", "RELATIONSHIP", "LIST<RELATIONSHIP>", "PATH"
INTEGER, FLOAT, STRING, BOOLEAN, LIST, MAP, NULL, ANY = (
    "INTEGER",
    "FLOAT",
    "STRING",
    "BOOLEAN",
    "LIST",
    "MAP",
    "NULL",
    "ANY",
)
_NOT_BOOLEAN = {INTEGER, FLOAT, STRING, LIST, MAP, NODE, REL, RELS, PATH}
_NOT_NUMBER = {STRING, BOOLEAN, LIST, MAP, NODE, REL, RELS, PATH}
_NOT_ADDABLE = {BOOLEAN, MAP, NODE, REL, PATH}
_NOT_MAPLIKE = {INTEGER, FLOAT, STRING, BOOLEAN, LIST, RELS}
_NOT_LIST = {INTEGER, FLOAT, STRING, BOOLEAN, MAP, NODE, REL, PATH}

Scope = dict[str, str]


class StaticCheckError(SemanticError):
    """A query the evaluator refuses before running it. ``detail`` is the openCypher TCK's name
    for the problem (``UndefinedVariable`` …); ``category`` its error type (``SyntaxError`` or
    ``TypeError``), both raised at compile time."""

    def __init__(
        self, detail: str, message: str, *, category: str = "SyntaxError", offset: int | None = None
    ) -> None:
        code = "SEMANTIC_" + re.sub(r"(?<!^)(?=[A-Z])", "_", detail).upper()
        super().__init__(message, offset=offset, code=code)
        self.detail = detail
        self.category = category


def check(statement: ir.Statement) -> None:
    """Raise :class:`StaticCheckError` if ``statement`` breaks a compile-time rule."""
    if isinstance(statement, ir.Query):
        _Checker().query(statement, {})
    elif isinstance(statement, ir.Program):
        for part in statement.statements:
            check(part)


def _fail(
    detail: str, message: str, node: ir.Node | None = None, category: str = "SyntaxError"
) -> StaticCheckError:
    return StaticCheckError(detail, message, category=category, offset=getattr(node, "pos", None))


@dataclass(frozen=True, slots=True)
class _Ctx:
    """Where an expression sits: whether aggregates may appear, and whether we are inside one."""

    aggregates: bool = False
    in_aggregate: bool = False
    where: str = "here"


_NO_AGG = _Ctx()


class _Checker:
    # -- queries ---------------------------------------------------------------------------------

    def query(self, q: ir.Query, scope: Scope) -> tuple[Scope, list[str] | None]:
        """The scope after ``q`` and its returned columns (None when it returns nothing)."""
        if isinstance(q, ir.LinearQuery):
            return self.linear(q, dict(scope))
        if isinstance(q, ir.SetOperation):
            _, left = self.query(q.left, scope)
            _, right = self.query(q.right, scope)
            if left is not None and right is not None and sorted(left) != sorted(right):
                raise _fail(
                    "DifferentColumnsInUnion",
                    "every part of a UNION must return the same columns",
                    q,
                )
            return dict(scope), left
        if isinstance(q, ir.ConditionalQuery):
            columns = None
            for b in q.branches:
                self.expr(b.condition, scope, _NO_AGG)
                columns = self.query(b.query, scope)[1]
            if q.otherwise is not None:
                columns = self.query(q.otherwise, scope)[1]
            return dict(scope), columns
        return dict(scope), None

    def linear(self, q: ir.LinearQuery, scope: Scope) -> tuple[Scope, list[str] | None]:
        columns: list[str] | None = None
        for step in q.steps:
            handler = getattr(self, "s_" + type(step).__name__, None)
            columns = None
            if handler is None:
                continue
            result = handler(step, scope)
            if isinstance(result, tuple):
                scope, columns = result
        return scope, columns

    # -- reading steps ---------------------------------------------------------------------------

    def s_Match(self, step: ir.Match, scope: Scope) -> None:
        local: Scope = {}
        for pp in step.patterns:
            self.pattern(pp, scope, local, in_match=True)
        scope.update(local)
        for pp in step.patterns:
            self.pattern_expressions(pp, scope)
        if step.where is not None:
            self.condition(step.where, scope, "WHERE")

    def pattern(self, pp: ir.PathPattern, scope: Scope, local: Scope, in_match: bool) -> None:
        """Declare the variables of one path pattern, checking their kinds. The path variable
        comes last: ``p = ()-[p]->()`` binds ``p`` twice."""
        self._declare(pp.path, scope, local, in_match)
        if pp.variable is not None:
            self._declare_path(pp.variable, scope, local, pp)

    def _declare(self, path: ir.Node, scope: Scope, local: Scope, in_match: bool) -> None:
        if isinstance(path, ir.PathUnion):
            merged: Scope = {}
            for alt in path.alternatives:  # each alternative declares its variables anew
                alt_local = dict(local)
                self._declare(alt, scope, alt_local, in_match)
                merged.update(alt_local)
            local.update(merged)
            return
        assert isinstance(path, ir.PathChain)
        for el in path.elements:
            if isinstance(el, ir.ParenPath):
                if el.quantifier is None:
                    self._declare(el.path, scope, local, in_match)
                else:
                    inner = dict(local)
                    self._declare(el.path, scope, inner, in_match)
                    for name in inner.keys() - local.keys():
                        local[name] = LIST  # a group variable: one value per iteration
                if el.variable is not None:
                    self._declare_path(el.variable, scope, local, el)
            elif isinstance(el, ir.NodePattern):
                self._declare_node(el, scope, local, in_match)
            else:
                self._declare_rel(el, scope, local, in_match)

    def _declare_node(self, el: ir.NodePattern, scope: Scope, local: Scope, in_match: bool) -> None:
        if in_match and isinstance(el.properties, ir.Parameter):
            raise _fail("InvalidParameterUse", "a parameter cannot be a property map in MATCH", el)
        name = el.variable
        if name is None:
            return
        known = local.get(name, scope.get(name))
        if known is None:
            local[name] = NODE
        elif known not in (NODE, ANY, NULL):
            raise _fail("VariableTypeConflict", f"{name} is a {known}, not a node", el)

    def _declare_rel(self, el: ir.RelPattern, scope: Scope, local: Scope, in_match: bool) -> None:
        if in_match and isinstance(el.properties, ir.Parameter):
            raise _fail("InvalidParameterUse", "a parameter cannot be a property map in MATCH", el)
        name = el.variable
        if name is None:
            return
        kind = RELS if el.quantifier is not None else REL
        if name in local:
            if local[name] in (REL, RELS):
                raise _fail(
                    "RelationshipUniquenessViolation",
                    f"relationship {name} is bound twice in one pattern",
                    el,
                )
            raise _fail(
                "VariableTypeConflict", f"{name} is a {local[name]}, not a relationship", el
            )
        known = scope.get(name)
        if known is None:
            local[name] = kind
        elif known not in (kind, ANY, NULL) and not (known == LIST and kind == RELS):
            raise _fail("VariableTypeConflict", f"{name} is a {known}, not a {kind}", el)

    def _declare_path(self, name: str, scope: Scope, local: Scope, node: ir.Node) -> None:
        if name in local or name in scope:
            raise _fail("VariableAlreadyBound", f"{name} is already bound", node)
        local[name] = PATH

    def pattern_expressions(self, pp: ir.PathPattern, scope: Scope) -> None:
        self._element_expressions(pp.path, scope)

    def _element_expressions(self, path: ir.PathExpr, scope: Scope) -> None:
        chains = path.alternatives if isinstance(path, ir.PathUnion) else (path,)
        for chain in chains:
            for el in chain.elements:
                if isinstance(el, ir.ParenPath):
                    inner = scope
                    if el.quantifier is not None:
                        singles: Scope = {}  # inside the repetition a variable is one element
                        self._declare(el.path, {}, singles, in_match=False)
                        inner = {**scope, **singles}
                    self._element_expressions(el.path, inner)
                    if el.where is not None:
                        self.condition(el.where, inner, "WHERE")
                    continue
                inner = scope
                if isinstance(el, ir.RelPattern) and el.variable and el.quantifier is not None:
                    inner = {**scope, el.variable: REL}  # one relationship of the repetition
                if el.properties is not None:
                    self.expr(el.properties, inner, _NO_AGG)
                if el.where is not None:
                    self.condition(el.where, inner, "WHERE")
                if isinstance(el, ir.RelPattern) and el.cost is not None:
                    self.expr(el.cost, inner, _NO_AGG)

    def s_Unwind(self, step: ir.Unwind, scope: Scope) -> None:
        self.expr(step.source, scope, _NO_AGG)
        if step.variable in scope:
            raise _fail("VariableAlreadyBound", f"{step.variable} is already bound", step)
        scope[step.variable] = _element_kind(step.source, scope)
        if step.index:
            scope[step.index] = INTEGER

    def s_Let(self, step: ir.Let, scope: Scope) -> None:
        for b in step.bindings:
            self.expr(b.value, scope, _NO_AGG)
            scope[b.variable] = _kind(b.value, scope)

    def s_LoadCsv(self, step: ir.LoadCsv, scope: Scope) -> None:
        self.expr(step.source, scope, _NO_AGG)
        if step.variable in scope:
            raise _fail("VariableAlreadyBound", f"{step.variable} is already bound", step)
        scope[step.variable] = ANY

    def s_Filter(self, step: ir.Filter, scope: Scope) -> None:
        self.condition(step.condition, scope, "WHERE")

    def s_Finish(self, step: ir.Finish, scope: Scope) -> tuple[Scope, list[str]]:
        return {}, []

    # -- projection ------------------------------------------------------------------------------

    def s_Projection(self, step: ir.Projection, scope: Scope) -> tuple[Scope, list[str]]:
        items = list(step.items)
        if step.star:
            if not scope and not items:
                raise _fail("NoVariablesInScope", "RETURN * needs variables in scope", step)
            named = {i.alias for i in items}
            items = [ir.ReturnItem(ir.Variable(v), v) for v in scope if v not in named] + items
        aliases = [
            i.alias or (i.expr.name if isinstance(i.expr, ir.Variable) else "") for i in items
        ]
        seen: set[str] = set()
        for alias, item in zip(aliases, items):
            if alias in seen:
                raise _fail("ColumnNameConflict", f"the column name {alias} is used twice", item)
            seen.add(alias)
        ctx = _Ctx(aggregates=True, where="a projection")
        for item in items:
            self.expr(item.expr, scope, ctx)
        grouping = step.group_by is not None or any(aggregates(i.expr) for i in items)
        keys = [i.expr for i in items if not aggregates(i.expr)]
        if step.group_by is not None:
            keys = list(step.group_by)
            for k in keys:
                self.expr(k, scope, _NO_AGG)
        if grouping:
            for item in items:
                if aggregates(item.expr):
                    _unambiguous(item.expr, keys)
        new_scope: Scope = {alias: _kind(i.expr, scope) for alias, i in zip(aliases, items)}
        if step.order_by:
            self.order_by(step, items, aliases, scope, new_scope, grouping, keys)
        for bound, what in ((step.skip, "SKIP"), (step.limit, "LIMIT")):
            if bound is not None:
                self.count_argument(bound, scope, what)
        if step.where is not None:
            # WITH … WHERE sees ORDER BY's scope: the dropped variables too, unless grouped.
            wide = not grouping and not step.distinct
            self.condition(step.where, {**scope, **new_scope} if wide else new_scope, "WHERE")
        return new_scope, aliases

    def order_by(
        self,
        step: ir.Projection,
        items: list[ir.ReturnItem],
        aliases: list[str],
        scope: Scope,
        new_scope: Scope,
        grouping: bool,
        keys: list[ir.Expr],
    ) -> None:
        if not grouping and not step.distinct:
            visible = {**scope, **new_scope}
            for s in step.order_by:
                if aggregates(s.expr):
                    raise _fail(
                        "InvalidAggregation",
                        "ORDER BY cannot aggregate when the projection does not",
                        s,
                    )
                self.expr(s.expr, visible, _NO_AGG)
            return
        projected = {i.expr for i in items}
        for s in step.order_by:
            if aggregates(s.expr) and not grouping:
                raise _fail(
                    "InvalidAggregation",
                    "ORDER BY cannot aggregate when the projection does not",
                    s,
                )
            self._projected_only(s.expr, new_scope, projected)
            if grouping and aggregates(s.expr):
                _unambiguous(s.expr, keys + [ir.Variable(a) for a in aliases])

    def _projected_only(self, expr: ir.Expr, visible: Scope, projected: set[ir.Expr]) -> None:
        """After DISTINCT or aggregation only projected names, or expressions equal to projected
        items, remain to sort by."""
        if expr in projected:
            return
        if isinstance(expr, ir.Variable):
            if expr.name not in visible:
                raise _fail("UndefinedVariable", f"variable {expr.name} is not defined", expr)
            return
        if isinstance(expr, (ir.Aggregate, ir.CountStar)):
            raise _fail(
                "UndefinedVariable",
                "ORDER BY may only aggregate what the projection aggregates",
                expr,
            )
        if isinstance(expr, _SCOPING):
            self.expr(expr, visible, _NO_AGG)
            return
        for child in _expr_children(expr):
            self._projected_only(child, visible, projected)

    def count_argument(self, expr: ir.Expr, scope: Scope, what: str) -> None:
        if any(isinstance(n, ir.Variable) for n in expr.walk()) or any(
            isinstance(n, ir.FunctionCall) and n.name == "rand" for n in expr.walk()
        ):
            raise _fail("NonConstantExpression", f"{what} must be a constant expression", expr)
        kind = _kind(expr, scope)
        if kind == INTEGER and isinstance(expr, ir.Integer) and expr.value < 0:
            raise _fail("NegativeIntegerArgument", f"{what} cannot be negative", expr)
        if kind in (FLOAT, STRING, BOOLEAN, LIST, MAP):
            raise _fail("InvalidArgumentType", f"{what} needs an integer", expr)

    # -- calls -----------------------------------------------------------------------------------

    def s_CallSubquery(self, step: ir.CallSubquery, scope: Scope) -> None:
        if step.imports is None:
            inner = dict(scope)
        else:
            for name in step.imports:
                if name not in scope:
                    raise _fail("UndefinedVariable", f"variable {name} is not defined", step)
            inner = {k: scope[k] for k in step.imports}
        out_scope, columns = self.query(step.query, inner)
        for c in columns or ():
            if c in scope:
                raise _fail("VariableAlreadyBound", f"{c} is already bound", step)
            scope[c] = out_scope.get(c, ANY)

    def s_ProcedureCall(self, step: ir.ProcedureCall, scope: Scope) -> None:
        for a in step.args or ():
            self.expr(a, scope, _NO_AGG)
        declared: set[str] = set()
        for y in step.yields or ():
            name = y.alias or y.field
            if name in declared or name in scope:
                raise _fail("VariableAlreadyBound", f"{name} is already bound", y)
            declared.add(name)
        for name in declared:
            scope[name] = ANY
        if step.where is not None:
            self.condition(step.where, scope, "WHERE")

    # -- writing steps ---------------------------------------------------------------------------

    def s_Create(self, step: ir.Create, scope: Scope) -> None:
        local: Scope = {}
        for pp in step.patterns:
            self.created(pp, scope, local, merge=False)
            self.pattern_expressions(pp, {**scope, **local})
        scope.update(local)

    def s_Merge(self, step: ir.Merge, scope: Scope) -> None:
        local: Scope = {}
        self.created(step.pattern, scope, local, merge=True)
        scope.update(local)
        self.pattern_expressions(step.pattern, scope)
        for action in step.actions:
            self.set_items(action.items, scope)

    def created(self, pp: ir.PathPattern, scope: Scope, local: Scope, merge: bool) -> None:
        """Variables of a CREATE/MERGE pattern: new ones are declared, bound ones only joined."""
        elements = list(_elements(pp.path))
        for el in elements:
            if isinstance(el, ir.NodePattern):
                name = el.variable
                if name is None:
                    continue
                known = local.get(name, scope.get(name))
                if known is None:
                    local[name] = NODE
                    continue
                if known not in (NODE, ANY, NULL):
                    raise _fail("VariableTypeConflict", f"{name} is a {known}, not a node", el)
                if el.labels is not None or el.properties is not None or len(elements) == 1:
                    raise _fail("VariableAlreadyBound", f"{name} is already bound", el)
            elif isinstance(el, ir.RelPattern):
                if el.variable is not None and (el.variable in local or el.variable in scope):
                    raise _fail("VariableAlreadyBound", f"{el.variable} is already bound", el)
                if el.quantifier is not None:
                    raise _fail(
                        "CreatingVarLength", "a variable-length relationship cannot be created", el
                    )
                if not isinstance(el.types, ir.Label):
                    raise _fail(
                        "NoSingleRelationshipType",
                        "a created relationship needs exactly one type",
                        el,
                    )
                if not merge and el.direction not in (ir.Direction.OUT, ir.Direction.IN):
                    raise _fail(
                        "RequiresDirectedRelationship",
                        "a created relationship needs a direction",
                        el,
                    )
                if el.variable is not None:
                    local[el.variable] = REL
        if pp.variable is not None:
            self._declare_path(pp.variable, scope, local, pp)

    def s_SetClause(self, step: ir.SetClause, scope: Scope) -> None:
        self.set_items(step.items, scope)

    def set_items(self, items: Iterable[Any], scope: Scope) -> None:
        for item in items:
            if isinstance(item, (ir.SetProperties, ir.SetLabels)):
                self._variable(item.variable, scope, item)
            else:
                self.expr(item.subject, scope, _NO_AGG)
            for name in ("value", "key"):
                value = getattr(item, name, None)
                if isinstance(value, ir.Expr):
                    self.expr(value, scope, _NO_AGG)

    def s_Remove(self, step: ir.Remove, scope: Scope) -> None:
        for item in step.items:
            if isinstance(item, ir.RemoveLabels):
                self._variable(item.variable, scope, item)
            else:
                self.expr(item.subject, scope, _NO_AGG)

    def s_Delete(self, step: ir.Delete, scope: Scope) -> None:
        for target in step.targets:
            if isinstance(target, ir.HasLabels):
                raise _fail(
                    "InvalidDelete", "DELETE takes elements; use REMOVE to remove labels", target
                )
            self.expr(target, scope, _NO_AGG)
            if _kind(target, scope) in (INTEGER, FLOAT, STRING, BOOLEAN, MAP):
                raise _fail(
                    "InvalidArgumentType", "DELETE needs a node, relationship or path", target
                )

    def s_Foreach(self, step: ir.Foreach, scope: Scope) -> None:
        self.expr(step.source, scope, _NO_AGG)
        inner = dict(scope)
        inner[step.variable] = _element_kind(step.source, scope)
        self.linear(ir.LinearQuery(step.body), inner)

    # -- expressions -----------------------------------------------------------------------------

    def condition(self, expr: ir.Expr, scope: Scope, where: str) -> None:
        self.expr(expr, scope, _Ctx(where=where))
        if _kind(expr, scope) in _NOT_BOOLEAN:
            raise _fail("InvalidArgumentType", f"{where} needs a boolean", expr)

    def _variable(self, name: str, scope: Scope, node: ir.Node) -> None:
        if name not in scope:
            raise _fail("UndefinedVariable", f"variable {name} is not defined", node)

    def expr(self, e: ir.Expr, scope: Scope, ctx: _Ctx) -> None:
        handler = getattr(self, "e_" + type(e).__name__, None)
        if handler is not None:
            handler(e, scope, ctx)
            return
        for child in _expr_children(e):
            self.expr(child, scope, ctx)

    def e_Variable(self, e: ir.Variable, scope: Scope, ctx: _Ctx) -> None:
        self._variable(e.name, scope, e)

    def e_Property(self, e: ir.Property, scope: Scope, ctx: _Ctx) -> None:
        self.expr(e.subject, scope, ctx)
        if _kind(e.subject, scope) in _NOT_MAPLIKE:
            raise _fail(
                "InvalidArgumentType",
                f"cannot read property {e.key} of a {_kind(e.subject, scope)}",
                e,
                "TypeError",
            )

    def _boolean_operands(
        self, e: ir.Expr, operands: Iterable[ir.Expr], scope: Scope, ctx: _Ctx
    ) -> None:
        for operand in operands:
            self.expr(operand, scope, ctx)
            if _kind(operand, scope) in _NOT_BOOLEAN:
                raise _fail("InvalidArgumentType", "a boolean operator needs boolean operands", e)

    def e_And(self, e: ir.And, scope: Scope, ctx: _Ctx) -> None:
        self._boolean_operands(e, (e.left, e.right), scope, ctx)

    e_Or = e_Xor = e_And

    def e_Not(self, e: ir.Not, scope: Scope, ctx: _Ctx) -> None:
        self._boolean_operands(e, (e.operand,), scope, ctx)

    def e_Arithmetic(self, e: ir.Arithmetic, scope: Scope, ctx: _Ctx) -> None:
        self.expr(e.left, scope, ctx)
        self.expr(e.right, scope, ctx)
        bad = _NOT_ADDABLE if e.op is ir.ArithOp.ADD else _NOT_NUMBER
        if e.op is ir.ArithOp.ADD and LIST in (_kind(e.left, scope), _kind(e.right, scope)):
            return  # anything can be appended to or prepended to a list
        for side in (e.left, e.right):
            if _kind(side, scope) in bad:
                raise _fail(
                    "InvalidArgumentType", f"{e.op.value} cannot take a {_kind(side, scope)}", e
                )

    def e_In(self, e: ir.In, scope: Scope, ctx: _Ctx) -> None:
        self.expr(e.item, scope, ctx)
        self.expr(e.container, scope, ctx)
        if _kind(e.container, scope) in _NOT_LIST:
            raise _fail("InvalidArgumentType", "IN needs a list", e)

    def e_Negate(self, e: ir.Negate, scope: Scope, ctx: _Ctx) -> None:
        self.expr(e.operand, scope, ctx)
        if _kind(e.operand, scope) in _NOT_NUMBER:
            raise _fail("InvalidArgumentType", f"- cannot take a {_kind(e.operand, scope)}", e)

    def e_FunctionCall(self, e: ir.FunctionCall, scope: Scope, ctx: _Ctx) -> None:
        for a in e.args:
            self.expr(a, scope, ctx)
        wants = _ENTITY_ARGUMENT.get(e.name)
        if wants and e.args and _kind(e.args[0], scope) in {NODE, REL, PATH} - {wants}:
            raise _fail(
                "InvalidArgumentType", f"{e.name}() cannot take a {_kind(e.args[0], scope)}", e
            )
        # Neo4j types a function's arguments when it plans the query: an argument whose type is
        # certain and wrong is an error even if no row would reach the call
        refused = _ARGUMENT_NOT.get(e.name)
        if refused and e.args and _kind(e.args[0], scope) in refused:
            raise _fail(
                "InvalidArgumentType", f"{e.name}() cannot take a {_kind(e.args[0], scope)}", e
            )

    def e_Aggregate(self, e: ir.Aggregate, scope: Scope, ctx: _Ctx) -> None:
        if ctx.in_aggregate:
            raise _fail("NestedAggregation", "an aggregate cannot contain another aggregate", e)
        if not ctx.aggregates:
            raise _fail("InvalidAggregation", f"an aggregate cannot be used in {ctx.where}", e)
        inner = _Ctx(aggregates=True, in_aggregate=True, where=ctx.where)
        for a in e.args:
            self.expr(a, scope, inner)
            if any(isinstance(n, ir.FunctionCall) and n.name == "rand" for n in a.walk()):
                raise _fail(
                    "NonConstantExpression",
                    "an aggregate cannot take a non-deterministic argument",
                    e,
                )

    def e_CountStar(self, e: ir.CountStar, scope: Scope, ctx: _Ctx) -> None:
        if ctx.in_aggregate:
            raise _fail("NestedAggregation", "an aggregate cannot contain another aggregate", e)
        if not ctx.aggregates:
            raise _fail("InvalidAggregation", f"count(*) cannot be used in {ctx.where}", e)

    def _local(self, scope: Scope, names: dict[str, str]) -> Scope:
        return {**scope, **names}

    def e_ListComprehension(self, e: ir.ListComprehension, scope: Scope, ctx: _Ctx) -> None:
        self.expr(e.source, scope, ctx)
        inner = self._local(scope, {e.variable: _element_kind(e.source, scope)})
        body = _Ctx(where="a list comprehension")
        if e.where is not None:
            self.condition(e.where, inner, "a list comprehension")
        if e.projection is not None:
            self.expr(e.projection, inner, body)

    def e_ListPredicate(self, e: ir.ListPredicate, scope: Scope, ctx: _Ctx) -> None:
        self.expr(e.source, scope, ctx)
        inner = self._local(scope, {e.variable: _element_kind(e.source, scope)})
        if e.predicate is not None:
            self.condition(e.predicate, inner, "a list predicate")

    def e_Reduce(self, e: ir.Reduce, scope: Scope, ctx: _Ctx) -> None:
        self.expr(e.init, scope, ctx)
        self.expr(e.source, scope, ctx)
        inner = self._local(scope, {e.accumulator: ANY, e.variable: _element_kind(e.source, scope)})
        self.expr(e.expression, inner, _Ctx(where="reduce()"))

    def e_PatternComprehension(self, e: ir.PatternComprehension, scope: Scope, ctx: _Ctx) -> None:
        local: Scope = {}
        self.pattern(e.pattern, scope, local, in_match=True)
        inner = {**scope, **local}
        self.pattern_expressions(e.pattern, inner)
        if e.where is not None:
            self.condition(e.where, inner, "WHERE")
        self.expr(e.projection, inner, _Ctx(where="a pattern comprehension"))

    def e_MapProjection(self, e: ir.MapProjection, scope: Scope, ctx: _Ctx) -> None:
        self._variable(e.subject, scope, e)
        for item in e.items:
            if item.kind is ir.MapItemKind.VARIABLE:
                self._variable(item.key, scope, item)
            elif item.value is not None:
                self.expr(item.value, scope, ctx)

    def _subquery(self, e: Any, scope: Scope, ctx: _Ctx) -> None:
        if isinstance(e, ir.Exists) and e.pattern_predicate:
            # A bare pattern predicate may only test variables that exist already.
            for node in e.query.walk():
                name = getattr(node, "variable", None)
                element = isinstance(node, (ir.NodePattern, ir.RelPattern))
                if element and name is not None and name not in scope:
                    raise _fail(
                        "UndefinedVariable",
                        f"variable {name} is not defined (a pattern predicate cannot "
                        "introduce new variables; use EXISTS { … })",
                        node,
                    )
        self.query(e.query, dict(scope))

    e_Exists = e_CountSubquery = e_CollectSubquery = e_ValueSubquery = _subquery


_SCOPING = (
    ir.ListComprehension,
    ir.ListPredicate,
    ir.Reduce,
    ir.PatternComprehension,
    ir.Exists,
    ir.CountSubquery,
    ir.CollectSubquery,
    ir.ValueSubquery,
    ir.MapProjection,
)

# functions that take one kind of graph element: another kind is a compile-time error
_ENTITY_ARGUMENT = {
    "type": REL,
    "startnode": REL,
    "endnode": REL,
    "labels": NODE,
    "nodes": PATH,
    "relationships": PATH,
}


def _expr_children(e: ir.Node) -> Iterable[ir.Expr]:
    for child in e.children():
        if isinstance(child, ir.Expr):
            yield child
        elif isinstance(child, (ir.CaseWhen, ir.MapProjectionItem)):
            yield from _expr_children(child)


def _elements(path: ir.Node) -> Iterable[Any]:
    """Node, relationship and sub-path patterns of a path, in text order."""
    for n in path.walk():
        if isinstance(n, (ir.NodePattern, ir.RelPattern, ir.ParenPath)):
            yield n


def _unambiguous(expr: ir.Expr, keys: list[ir.Expr], local: frozenset[str] = frozenset()) -> None:
    """Outside its aggregates, an aggregating expression may only use grouping keys: projected
    variables, or property reads that are themselves projected (and the expression's own local
    variables, such as a list comprehension's)."""
    if expr in keys and isinstance(expr, (ir.Variable, ir.Property)):
        return
    if isinstance(expr, (ir.Aggregate, ir.CountStar)):
        return
    if isinstance(expr, ir.Variable):
        if expr.name in local:
            return
        raise _fail(
            "AmbiguousAggregationExpression",
            f"{expr.name} is used next to an aggregate but is not a grouping key",
            expr,
        )
    if isinstance(expr, (ir.ListComprehension, ir.ListPredicate)):
        local = local | {expr.variable}
    elif isinstance(expr, ir.Reduce):
        local = local | {expr.variable, expr.accumulator}
    for child in _expr_children(expr):
        _unambiguous(child, keys, local)


_NUMERIC_FUNCTIONS = """abs ceil floor round sign sqrt exp log log10 sin cos tan cot asin acos
    atan atan2 degrees radians haversin""".split()
_STRING_FUNCTIONS = "upper lower trim ltrim rtrim left right substring replace split".split()
#: The kinds a function's first argument cannot have (Neo4j: "Type mismatch" at compile time).
_ARGUMENT_NOT = {
    **dict.fromkeys(_NUMERIC_FUNCTIONS, _NOT_NUMBER),
    **dict.fromkeys(_STRING_FUNCTIONS, _NOT_NUMBER - {STRING} | {INTEGER, FLOAT}),
    "reverse": {INTEGER, FLOAT, BOOLEAN, MAP, NODE, REL, PATH},
}

_TO_CHECK = {
    "null": NULL,
    "boolean": BOOLEAN,
    "integer": INTEGER,
    "float": FLOAT,
    "string": STRING,
    "list": LIST,
    "map": MAP,
    "node": NODE,
    "edge": REL,
    "path": PATH,
}
_FROM_CHECK = {v: VType(k) for k, v in _TO_CHECK.items()}
_FROM_CHECK[RELS] = VType("list", VType("edge"))


class _ScopeTypes(TypeAnalysis):
    """The type analysis (:mod:`gqlir.analysis.types`) over the checker's scope of kinds. A
    written ``null`` is of any type here, as in Neo4j's planner: it types ``CASE WHEN c THEN
    null ELSE 'a' END`` and ``coalesce(null, 'a')`` as any value, not as strings (observed with
    Neo4j 5.26), so no compile-time error may follow from them."""

    __slots__ = ("scope",)
    NULL_IS_ANY = True

    def __init__(self, scope: Scope) -> None:
        self.scope = scope

    def variable(self, name: str) -> VType:
        return _FROM_CHECK.get(self.scope.get(name, ANY), ANY_TYPE)


def _kind(e: ir.Expr, scope: Scope) -> str:
    """The static kind of an expression, or ANY when it is not certain."""
    t = _ScopeTypes(scope).of(e)
    if t.kind == "list" and t.element is not None and t.element.kind == "edge":
        return RELS
    return _TO_CHECK.get(t.kind, ANY)


def _element_kind(source: ir.Expr, scope: Scope) -> str:
    """The kind of the elements of a list expression, when every element has the same one."""
    if isinstance(source, ir.ListLiteral) and source.items:
        kinds = {_kind(x, scope) for x in source.items}
        if len(kinds) == 1:
            return kinds.pop()
        return ANY
    if isinstance(source, ir.Variable) and scope.get(source.name) == RELS:
        return REL
    return ANY
