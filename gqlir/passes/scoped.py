"""The walk of a scope-typed lowering: every expression rewritten with the variables in scope.

A lowering whose rules read the types of variables (:mod:`.polymorphic_plus`,
:mod:`.typed_functions`) subclasses :class:`ScopedRewrite` and lists them in ``rules``. The walk
follows what each step binds as :mod:`gqlir.analysis.scope` states it (the GQL printer follows
the same rules), and rewrites top-down: a rule sees its operands as the input wrote them, which
is what their types are inferred from, and is applied again until it changes nothing before the
operands are visited. A walk that changes nothing returns its input (the same object), as
:func:`gqlir.passes.pipeline.lower` expects of a pass.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from contextvars import ContextVar
from typing import Any, ClassVar

from ..analysis.scope import (
    Deferred,
    ScopeTypes,
    call_results,
    path_bindings,
    pattern_bindings,
    projection_scope,
    unwind_bindings,
)
from ..analysis.types import ANY, VType, unconst
from ..dialect import Dialect
from ..errors import UnsupportedError
from ..ir import expr as e
from ..ir import pattern as p
from ..ir import query as q
from ..ir.analysis import free_variables
from ..ir.node import Node, child_fields, rebuilt

__all__ = ["UNLOWERED", "ScopedRewrite", "refusal_stops", "stopping_at_refusals"]

#: How often a rule may rewrite one node's result again before the walk moves on.
_MAX_ROUNDS = 64


class ScopedRewrite:
    """Rewrites the expressions of a query for ``target``; subclasses define :meth:`rule`."""

    def __init__(
        self, target: Dialect, properties: Mapping[tuple[str, str], str] | None = None
    ) -> None:
        self.dialect = target
        self.caps = target.capabilities
        self.types = ScopeTypes({}, properties)

    # -- what a rule asks ----------------------------------------------------------------------
    @property
    def scope(self) -> dict[str, VType]:
        return self.types.scope

    @scope.setter
    def scope(self, value: dict[str, VType]) -> None:
        self.types.scope = value

    def type_of(self, node: e.Expr) -> VType:
        return self.types.of(node)

    #: node class -> its rule, ``rule(walk, node)``: ``node`` rewritten, or ``node`` itself
    #: when the rule does not apply (a subclass lists its rules).
    rules: ClassVar[Mapping[type, Callable[[Any, Any], e.Expr]]] = {}

    def unsupported(self, construct: str, node: Node | None, **kw: Any) -> UnsupportedError:
        return UnsupportedError(
            construct, self.dialect.name, offset=getattr(node, "pos", None), **kw
        )

    #: Whether the walk may leave the steps after one it refused unlowered, under
    #: :func:`stopping_at_refusals`: for a pass after which no pass decides a step by the steps
    #: after it (the scoped walks go forward; the printer stops at the first refusal). The
    #: steps it leaves keep their places, so a step's position (the last one) stays known.
    stops_at_refusal: ClassVar[bool] = False

    # -- the walk ------------------------------------------------------------------------------
    #: How deep in subqueries the walk is: 0 in the query the user runs (a set operation's
    #: branches are at its own depth).
    depth = 0

    def run(self, node: Node) -> Node:
        self.scope = {}
        self.depth = -1  # (query() enters the top query)
        self._stops = _STOPS.get() if self.stops_at_refusal else None
        self._refused = 0
        if isinstance(node, q.Query):
            return self.query(node)
        self.depth = 0
        if isinstance(node, q.Step):
            return self.step(node)
        if isinstance(node, e.Expr):
            return self.expr(node)
        return node

    def query(self, query: q.Query) -> q.Query:
        """A query in the current scope, one level deeper (the scope is restored after: a
        subquery binds nothing outside)."""
        self.depth += 1
        try:
            return self._query(query)
        finally:
            self.depth -= 1

    def _query(self, query: q.Query) -> q.Query:
        outer = self.scope  # (scopes are replaced, never changed in place)
        try:
            if isinstance(query, q.LinearQuery):
                steps = self._linear(query.steps)
                return query if steps is query.steps else rebuilt(query, steps=steps)
            if isinstance(query, q.SetOperation):
                left = self._query(query.left)
                self.scope = outer
                right = self._query(query.right)
                if left is query.left and right is query.right:
                    return query
                return rebuilt(query, left=left, right=right)
            return query  # a conditional query: the printer refuses it
        finally:
            self.scope = outer

    def _linear(self, steps: tuple[q.Step, ...]) -> tuple[q.Step, ...]:
        """The steps of a linear query (a FOREACH body's are :meth:`_steps` only)."""
        return self._steps(steps)

    def _steps(self, steps: tuple[q.Step, ...]) -> tuple[q.Step, ...]:
        out: list[q.Step] | None = None
        stops = self._stops
        for i, step in enumerate(steps):
            refused = self._refused
            new = self.step(step)
            if out is not None:
                out.append(new)
            elif new is not step:
                out = [*steps[:i], new]
            if stops is not None and self._refused != refused and i + 1 < len(steps):
                # The printer raises this step's refusal (or an earlier one) before it writes
                # the steps after it: they are left unlowered, each marked so that a printer
                # that reaches one after all knows to lower the query in full.
                stops.append(type(self).__name__)
                done = steps[: i + 1] if out is None else tuple(out)
                return done + tuple(q.RefusedStep(x, x, UNLOWERED) for x in steps[i + 1 :])
        return steps if out is None else tuple(out)

    def step(self, step: q.Step) -> q.Step:
        """``step`` rewritten in the current scope, which then holds what it binds."""
        if type(step) is q.RefusedStep and step.construct == UNLOWERED:
            return step  # (left by an earlier pass after a refusal: never written)
        if isinstance(step, q.Match):
            self.scope = {**self.scope, **pattern_bindings(step.patterns)}
            return self.children(step)
        if isinstance(step, q.Let):
            bindings = []
            for binding in step.bindings:
                value = self.expr(binding.value)
                bound = Deferred(binding.value, self.scope)
                self.scope = {**self.scope, binding.variable: bound}  # type: ignore[dict-item]
                bindings.append(
                    binding if value is binding.value else rebuilt(binding, value=value)
                )
            if all(a is b for a, b in zip(bindings, step.bindings)):
                return step
            return rebuilt(step, bindings=tuple(bindings))
        if isinstance(step, q.Unwind):
            source = self.expr(step.source)
            self.scope = {**self.scope, **unwind_bindings(step, self.type_of(step.source))}
            return step if source is step.source else rebuilt(step, source=source)
        if isinstance(step, q.Projection):
            return self.projection(step)
        if isinstance(step, q.CallSubquery):
            imports = sorted(self.scope) if step.imports is None else list(step.imports)
            inner = {name: self.scope.get(name, ANY) for name in imports}
            outer = self.scope
            self.scope = inner
            try:
                body = self.query(step.query)
            finally:
                self.scope = outer
            self.scope = {**outer, **call_results(step.query, inner)}
            return step if body is step.query else rebuilt(step, query=body)
        if isinstance(step, q.ProcedureCall):
            args = None if step.args is None else self._tuple(step.args)
            self.scope = {**self.scope, **{y.alias or y.field: ANY for y in step.yields or ()}}
            where = None if step.where is None else self.expr(step.where)
            if args is step.args and where is step.where:
                return step
            return rebuilt(step, args=args, where=where)
        if isinstance(step, q.Merge):
            self.scope = {**self.scope, **pattern_bindings((step.pattern,))}
            return self.children(step)
        if isinstance(step, q.Create):
            new = self.children(step)  # (its property values read the scope before it)
            self.scope = {**self.scope, **pattern_bindings(step.patterns)}
            return new
        if isinstance(step, q.ScopeNote):
            scope = {k: v for k, v in self.scope.items() if k not in step.hidden}
            self.scope = {**scope, **{name: VType(kind) for name, kind in step.kinds}}
            return step
        if isinstance(step, q.Foreach):
            source = self.expr(step.source)
            outer = self.scope
            self.scope = {**outer, step.variable: ANY}
            try:
                steps = self._steps(step.body)
            finally:
                self.scope = outer
            if source is step.source and steps is step.body:
                return step
            return rebuilt(step, source=source, body=steps)
        return self.children(step)

    def projection(self, step: q.Projection) -> q.Projection:
        """Items, keys and pages in the incoming scope; then the columns' scope (with, for a
        WHERE, the variables it reads that the projection drops)."""
        incoming = self.scope
        columns: dict[str, Any] = projection_scope(step, incoming)
        items = self._tuple(step.items)
        order_by = self._tuple(step.order_by)
        skip = None if step.skip is None else self.expr(step.skip)
        limit = None if step.limit is None else self.expr(step.limit)
        group_by = None if step.group_by is None else self._tuple(step.group_by)
        where = step.where
        if where is not None:
            hidden = {v: incoming.get(v, ANY) for v in free_variables(where) if v not in columns}
            self.scope = {**columns, **hidden}
            where = self.expr(where)
        self.scope = columns
        if (
            items is step.items
            and order_by is step.order_by
            and skip is step.skip
            and limit is step.limit
            and group_by is step.group_by
            and where is step.where
        ):
            return step
        return rebuilt(
            step,
            items=items,
            order_by=order_by,
            skip=skip,
            limit=limit,
            group_by=group_by,
            where=where,
        )

    def expr(self, node: e.Expr) -> e.Expr:
        """``node`` with the rule applied at the top until stable, then to its operands. A
        refusal is left in the IR (:class:`~gqlir.ir.Untranslatable`) for the printer to
        raise where it writes it."""
        cls = type(node)
        if cls in _LEAVES or (cls is e.Property and type(node.subject) in _LEAVES):  # type: ignore[attr-defined]
            return node
        found = self.rules.get(cls)
        if found is not None:
            for _ in range(_MAX_ROUNDS):
                try:
                    new = found(self, node)
                except UnsupportedError as exc:
                    self._refused += 1
                    return _untranslatable(node, exc)
                if new is node:
                    break
                node = new
                cls = type(node)
                found = self.rules.get(cls)
                if found is None:
                    break
            if cls in _LEAVES:
                return node
        if cls in _ITERATIONS:
            return self._iteration(node)  # type: ignore[arg-type]
        if cls is e.PatternComprehension:
            outer = self.scope
            self.scope = {**outer, **pattern_bindings((node.pattern,))}  # type: ignore[attr-defined]
            try:
                return self._fields(node, "")  # type: ignore[return-value]
            finally:
                self.scope = outer
        # (a subquery's query() keeps the scope; no typing.cast: this runs on every node)
        return self._fields(node, "")  # type: ignore[return-value]

    def _iteration(self, node: e.ListComprehension | e.ListPredicate | e.Reduce) -> e.Expr:
        """A list walk: its source in the scope, the rest with the walk's variable bound to the
        source's element type (an accumulator's type is not followed)."""
        source_type = self.type_of(node.source)
        source = self.expr(node.source)
        outer = self.scope
        element = source_type.element if source_type.kind == "list" else None
        bound = {node.variable: ANY if element is None else unconst(element)}
        if isinstance(node, e.Reduce):
            bound[node.accumulator] = ANY
        self.scope = {**outer, **bound}
        try:
            rest = self.children(node, skip="source")
        finally:
            self.scope = outer
        if source is node.source:
            return rest
        return rebuilt(rest, source=source)

    # -- children ------------------------------------------------------------------------------
    def children(self, node: Any, skip: str = "") -> Any:
        """``node`` with its children rewritten (patterns bind the variables their parts see)."""
        cls = type(node)
        if cls is p.ParenPath:
            inner: dict[str, VType] = {}
            path_bindings(node.path, inner, group=False)
            outer = self.scope
            self.scope = {**outer, **inner}
            try:
                return self._fields(node, skip)
            finally:
                self.scope = outer
        if cls is p.RelPattern and node.variable and node.quantifier is not None:
            outer = self.scope
            self.scope = {**outer, node.variable: VType("edge")}
            try:
                return self._fields(node, skip)
            finally:
                self.scope = outer
        return self._fields(node, skip)

    def _fields(self, node: Node, skip: str) -> Node:
        changes: dict[str, Any] | None = None
        leaves, kinds = _LEAVES, _KINDS
        for name in _field_names(type(node)):
            value = getattr(node, name)
            cls = type(value)
            if cls in leaves or value is None or name == skip:
                continue
            kind = kinds.get(cls) or _kind(cls)
            new: Any
            if kind is _EXPR:
                new = self.expr(value)
            elif kind is _TUPLE:
                new = self._tuple(value)
            else:
                new = self._value(value, kind)
            if new is not value:
                if changes is None:
                    changes = {}
                changes[name] = new
        return rebuilt(node, **changes) if changes else node

    def _value(self, value: Any, kind: str) -> Any:
        if kind is _EXPR:
            return self.expr(value)
        if kind is _NODE:
            return self.children(value)
        if kind is _TUPLE:
            return self._tuple(value)
        if kind is _STEP:
            return self.step(value)
        if kind is _QUERY:
            return self.query(value)
        return value

    def _tuple(self, value: tuple[Any, ...]) -> tuple[Any, ...]:
        out: list[Any] | None = None
        leaves, kinds = _LEAVES, _KINDS
        for i, item in enumerate(value):
            cls = type(item)
            if cls in leaves:
                new = item
            else:
                new = self._value(item, kinds.get(cls) or _kind(cls))
            if out is not None:
                out.append(new)
            elif new is not item:
                out = [*value[:i], new]
        return value if out is None else tuple(out)


#: The construct of a step left unlowered after a refusal (never shown: the printer that
#: meets one lowers the query in full and writes that).
UNLOWERED = "step after a refusal"
#: The passes that left steps unlowered after a refusal, while the printer lowers a query
#: (None: every step is lowered).
_STOPS: ContextVar[list[str] | None] = ContextVar("gqlir_scoped_stops", default=None)


class stopping_at_refusals:  # (lower case: used as a function, ``with stopping_at_refusals()``)
    """Within: a pass whose walk ``stops_at_refusal`` leaves the steps after the first one it
    refused unlowered (the printer never writes them: it raises the first refusal in writing
    order), as :data:`UNLOWERED` refusals. Gives the names of the passes that did; a printer
    that meets such a step after all (a refusal it did not reach) lowers the query again
    outside. (A class, not a generator: every GQL translation enters one.)"""

    __slots__ = ("stops", "token")

    def __enter__(self) -> list[str]:
        self.stops: list[str] = []
        self.token = _STOPS.set(self.stops)
        return self.stops

    def __exit__(self, *exc: object) -> None:
        _STOPS.reset(self.token)


def refusal_stops() -> list[str] | None:
    """The list the passes that stop at a refusal append to, under
    :func:`stopping_at_refusals` (None outside: every step is lowered)."""
    return _STOPS.get()


#: What the walk does with a value of a class (found once per class).
_EXPR, _QUERY, _STEP, _NODE, _TUPLE, _OTHER = "expr", "query", "step", "node", "tuple", "other"
_KINDS: dict[type, str] = {}
#: Expressions with no operands (no rule rewrites them).
_LEAVES = frozenset(
    {e.Null, e.Boolean, e.Integer, e.Float, e.String, e.Variable, e.Parameter, e.CountStar}
)
_ITERATIONS = frozenset({e.ListComprehension, e.ListPredicate, e.Reduce})
_FIELDS: dict[type, tuple[str, ...]] = {}


def _kind(cls: type) -> str:
    if issubclass(cls, (p.LabelExpr, p.Quantifier, e.TypeRef)):
        kind = _OTHER  # (no expression inside)
    elif issubclass(cls, e.Expr):
        kind = _EXPR
    elif issubclass(cls, q.Query):
        kind = _QUERY
    elif issubclass(cls, q.Step):
        kind = _STEP
    elif issubclass(cls, Node):
        kind = _NODE
    elif cls is tuple:
        kind = _TUPLE
    else:
        kind = _OTHER
    _KINDS[cls] = kind
    return kind


def _field_names(cls: type) -> tuple[str, ...]:
    found = _FIELDS.get(cls)
    if found is None:
        found = _FIELDS[cls] = child_fields(cls)
    return found


def _untranslatable(node: e.Expr, exc: UnsupportedError) -> e.Untranslatable:
    message = exc.message
    suffix = f" (rewrite: {exc.rewrite})" if exc.rewrite else ""
    if suffix and message.endswith(suffix):
        message = message[: -len(suffix)]
    return e.Untranslatable(node, exc.construct, message, exc.rewrite or "", pos=node.pos)
