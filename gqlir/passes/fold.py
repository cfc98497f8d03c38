"""Constant folding: an expression with no inputs is replaced by its value.

The value comes from the reference evaluator, which defines what the IR means, so the folded
query means what the original meant. A target dialect may lack a function whose every argument is
a literal (ISO GQL has no ``date.truncate``); its value, a literal, it can write. Folding is a
fallback of translation, not a default: a query is written as the user wrote it wherever the
target can express it.

Nothing that depends on the moment, on chance or on the graph is folded (``datetime()``,
``rand()``, ``id(n)``), nor anything whose evaluation fails: the failure is the meaning, and the
target's refusal stays.

Folding is bounded: one constant may cost at most :data:`WORK_BUDGET` steps of evaluation (an
evaluated node, or an item of a list, map or string it makes) and its value at most
:data:`MAX_ITEMS` items. A ``range()`` is measured before it is made, so a constant that would
be large (``range(1000000, 2000000)``) is never evaluated: it stays, and so does the refusal.
"""

from __future__ import annotations

import functools
import math
import threading
from typing import Any

from .. import ir
from ..errors import GqlirError
from ..ir.node import CHILD_GETTERS, child_fields, child_nodes, node_getter, rebuilt

# Functions whose value is not a function of their arguments alone.
_VOLATILE = frozenset(
    {
        "rand",
        "randomuuid",
        "timestamp",
        "elementid",
        "id",
        "labels",
        "type",
        "keys",
        "properties",
        "startnode",
        "endnode",
        "nodes",
        "relationships",
        "length",
    }
)
_VOLATILE_SUFFIXES = (".realtime", ".statement", ".transaction")
_TEMPORAL_CONSTRUCTORS = frozenset({"date", "time", "localtime", "datetime", "localdatetime"})

# Expression nodes whose value depends only on their children.
_PURE = (
    ir.Arithmetic,
    ir.Negate,
    ir.UnaryPlus,
    ir.Concat,
    ir.Comparison,
    ir.And,
    ir.Or,
    ir.Xor,
    ir.Not,
    ir.IsNull,
    ir.StringMatch,
    ir.RegexMatch,
    ir.In,
    ir.Index,
    ir.Slice,
    ir.Case,
    ir.CaseWhen,
    ir.FunctionCall,
    ir.Property,
    ir.ListLiteral,
    ir.MapLiteral,
    ir.TypeTest,
    ir.Cast,
)
_LITERALS = (ir.Null, ir.Boolean, ir.Integer, ir.Float, ir.String, ir.TemporalLiteral)
#: The pure expressions worth folding (a literal list or map is a value already).
_FOLDABLE_TYPES = frozenset(_PURE) - {ir.ListLiteral, ir.MapLiteral}


def fold_constants(query: ir.Statement, dialect: str = "neo4j") -> ir.Statement:
    """``query`` with every foldable constant sub-expression replaced by a literal, variables
    bound to constants included (:mod:`.propagate`), and the constant columns nothing reads
    any more dropped (:mod:`.dead_columns`)."""
    from .dead_columns import drop_dead_constants
    from .propagate import propagate_constants

    folder = _Folder(dialect)
    folded = folder.tree(query) if _has_candidate(query) else query
    propagated = propagate_constants(folded, folder.tree)
    return drop_dead_constants(propagated) if propagated is not folded else propagated


#: The evaluation steps one constant may take before folding gives up on it.
WORK_BUDGET = 100_000
#: The most items (list and map entries, at any depth) a folded value may hold.
MAX_ITEMS = 10_000


class _Folder:
    def __init__(self, dialect: str) -> None:
        self.dialect = dialect
        #: Made on the first constant (most refused queries have none to fold).
        self.runtime: Any = None
        # Constants with no literal (0.0 / 0.0): their parents may still have one (NaN = 1 is
        # false). Kept by identity (equal nodes elsewhere need not be constants' parts), and
        # held so that no identity is reused while the folder lives.
        self.unwritable: dict[int, ir.Node] = {}

    def tree(self, node: Any) -> Any:
        """``node`` folded bottom-up (``node.transform(self)``, without the calls on the
        leaves, which never fold: the walk runs over every node of a refused query)."""
        cls = type(node)
        if cls in _INERT:
            return node
        if cls is tuple:
            out: list[Any] | None = None  # a copy only once something changed
            for i, item in enumerate(node):
                new = self.tree(item)
                if out is not None:
                    out.append(new)
                elif new is not item:
                    out = [*node[:i], new]
            return node if out is None else tuple(out)
        getter = _FIELDS.get(cls)
        if getter is None:
            if not isinstance(node, ir.Node):
                return node  # a scalar inside a tuple (a map entry's key)
            getter = _FIELDS[cls] = child_fields(cls)
        changes: dict[str, Any] | None = None
        for name in getter:
            value = getattr(node, name)
            if value is None:
                continue
            new = self.tree(value)
            if new is not value:
                if changes is None:
                    changes = {}
                changes[name] = new
        return self(node if changes is None else rebuilt(node, **changes))

    def __call__(self, node: ir.Node) -> ir.Node:
        kind = type(node)
        if kind in _FOLDABLE_TYPES:
            if not _constant(node, self.unwritable):
                return node
        elif kind not in _SCOPED or not closed(node):
            return node
        value = self.evaluate(node)
        if value is _FAILED or _too_large(value):
            return node
        literal = to_literal(value)
        if literal is None:
            self.unwritable[id(node)] = node
            return node
        # The literal must read back as exactly the value (a temporal's text included); a
        # literal of plain scalars holds the evaluator's own values, so it does by construction.
        if not _plain_value(value):
            again = self.evaluate(literal)
            if again is _FAILED or not _identical(again, value):
                return node
        return literal.with_pos(node.pos)

    def evaluate(self, expr: ir.Node) -> Any:
        if self.runtime is None:
            from ..eval.temporal import now_utc

            self.runtime = _runtime(self.dialect)
            self.runtime.now = now_utc()  # the statement clock of this folding
        evaluator = self.runtime.expressions
        evaluator.left = WORK_BUDGET
        try:
            return evaluator.eval(expr, {})
        except (GqlirError, ArithmeticError, ValueError, TypeError, _OverBudget):
            return _FAILED


def _plain_value(value: Any) -> bool:
    """Whether ``value`` is a null, boolean, integer, float or string, or a list or map of
    them (at any depth): values whose literal (:func:`to_literal`) holds them as they are."""
    stack = [value]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is list:
            stack.extend(item)
        elif kind is dict:
            stack.extend(item.values())
        elif item is not None and kind not in (bool, int, float, str):
            return False
    return True


def _has_candidate(query: ir.Node) -> bool:
    """Whether any node of ``query`` is a constant as it stands: folding works bottom-up, so
    without one nothing folds, and the rebuilding walk is skipped. (A walk written out, which
    skips the leaves: it runs on every refused query.)"""
    unwritable: dict[int, ir.Node] = {}
    stack: list[Any] = [query]
    pop, extend, getters = stack.pop, stack.extend, CHILD_GETTERS
    while stack:
        node = pop()
        kind = type(node)
        if kind in _INERT:
            continue
        if kind is tuple:
            extend(node)
            continue
        if kind in _FOLDABLE_TYPES:
            if _constant(node, unwritable):
                return True
        elif kind in _SCOPED and closed(node):
            return True
        extend((getters.get(kind) or node_getter(kind))(node))
    return False


#: What the folding walks pass by: leaves that never fold and hold nothing that does.
_INERT = frozenset(
    {ir.Null, ir.Boolean, ir.Integer, ir.Float, ir.String, ir.TemporalLiteral, ir.Variable}
    | {ir.Parameter, str, int, float, bool, type(None)}
)
#: node class -> its child fields, for :meth:`_Folder.tree`
_FIELDS: dict[type, tuple[str, ...]] = {}


#: Evaluator runtimes by thread and dialect: making one costs more than folding a query.
_RUNTIMES = threading.local()


def _runtime(dialect: str) -> Any:
    """An evaluator runtime on an empty graph, whose expressions count their work: constants
    read nothing, write nothing and never ask for the time or a random number (``_constant``
    leaves those calls alone), so one serves every folding of its thread."""
    made = getattr(_RUNTIMES, "by_dialect", None)
    if made is None:
        made = _RUNTIMES.by_dialect = {}
    runtime = made.get(dialect)
    if runtime is None:
        runtime = made[dialect] = _new_runtime(dialect)
    return runtime


def _new_runtime(dialect: str) -> Any:
    from ..dialect import get_dialect
    from ..eval import Graph
    from ..eval.runtime import Runtime

    runtime = Runtime(Graph(), {}, get_dialect(dialect).capabilities)
    runtime.expressions = _budgeted_class()(runtime)
    return runtime


class _OverBudget(Exception):
    """A constant costs more to evaluate than folding may spend on it."""


@functools.cache
def _budgeted_class() -> type:
    """The evaluator's expressions, charging each node and the size of what it makes against
    ``left``; ``range()`` is charged its length before the list exists."""
    from ..eval.expressions import ExpressionEvaluator
    from ..eval.functions import call_function

    class Budgeted(ExpressionEvaluator):
        left = WORK_BUDGET

        def charge(self, cost: int) -> None:
            self.left -= cost
            if self.left < 0:
                raise _OverBudget

        def eval(self, expr: ir.Expr, row: Any) -> Any:
            self.charge(1)
            value = super().eval(expr, row)
            if isinstance(value, (list, dict, str)):
                self.charge(len(value))
            return value

        def e_FunctionCall(self, e: ir.FunctionCall, row: Any) -> Any:
            args = [self.eval(a, row) for a in e.args]
            if e.name == "range":
                self.charge(_range_length(args))
            return call_function(self.rt, e.name, args)

    return Budgeted


def _range_length(args: list[Any]) -> int:
    """How many items ``range(*args)`` makes (0 where the arguments are not integers, which
    range() refuses)."""
    if not args or not all(type(a) is int for a in args):
        return 0
    step = args[2] if len(args) > 2 else 1
    return len(range(args[0], args[1] + (1 if step > 0 else -1), step)) if step else 0


def _too_large(value: Any) -> bool:
    """Whether ``value`` holds more than :data:`MAX_ITEMS` list and map entries."""
    left = MAX_ITEMS
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            item = list(item.values())
        if isinstance(item, list):
            left -= len(item)
            if left < 0:
                return True
            stack.extend(item)
    return False


_FAILED = object()


def _identical(a: Any, b: Any) -> bool:
    from ..eval import equivalence_key

    return type(a) is type(b) and equivalence_key(a) == equivalence_key(b) and str(a) == str(b)


def _known_call(node: ir.FunctionCall) -> bool:
    """Whether the call's value is a function of its arguments, known here."""
    name = node.name
    namespace = name.split(".", 1)[0] if "." in name else None
    temporal_namespace = namespace in _TEMPORAL_CONSTRUCTORS or namespace == "duration"
    if name.endswith(_VOLATILE_SUFFIXES) and temporal_namespace:
        # The clock is not read for a null time zone: the value is null (Cypher's rule).
        return bool(node.args) and all(isinstance(a, ir.Null) for a in node.args)
    if name in _VOLATILE or name.endswith(_VOLATILE_SUFFIXES):
        return False
    if namespace is not None and not temporal_namespace:
        return False  # a user or library function: its value is not known here
    return not (name in _TEMPORAL_CONSTRUCTORS and not node.args)  # not the current time


#: List constructions that bind their own variables: constant when they read nothing else.
_SCOPED = (ir.ListComprehension, ir.ListPredicate, ir.Reduce)


def closed(node: ir.Node) -> bool:
    """Whether ``node`` (a list comprehension, list predicate or reduce) reads only literals
    and the variables it binds itself, through pure expressions."""
    bound: set[str] = set()
    read: list[str] = []  # (checked once every bound name is known: one walk, not two)
    for inner in node.walk():
        if isinstance(inner, ir.Variable):
            read.append(inner.name)
        elif isinstance(inner, ir.FunctionCall):
            if not _known_call(inner):
                return False
        elif not isinstance(inner, _CLOSED_KINDS):
            return False
        elif isinstance(inner, (ir.ListComprehension, ir.ListPredicate)):
            bound.add(inner.variable)
        elif isinstance(inner, ir.Reduce):
            bound |= {inner.variable, inner.accumulator}
    return bound.issuperset(read)


#: What a closed list construction may hold besides variables and known calls.
_CLOSED_KINDS = (*_PURE, *_SCOPED, *_LITERALS, ir.TypeRef)


def _constant(node: ir.Node, unwritable: dict[int, ir.Node]) -> bool:
    """Whether every input of ``node`` is a literal (nested list and map literals included) or a
    constant in ``unwritable``."""
    if isinstance(node, ir.FunctionCall) and not _known_call(node):
        return False
    for child in child_nodes(node):
        kind = type(child)
        if kind is ir.Variable:
            return False  # (the commonest input, never a constant)
        if kind in _INPUT_SET:
            continue
        if isinstance(child, (ir.ListLiteral, ir.MapLiteral)):
            if not all(is_constant_value(c) for c in child_nodes(child)):
                return False
        elif isinstance(child, ir.CaseWhen):
            if not (is_constant_value(child.condition) and is_constant_value(child.result)):
                return False
        elif not isinstance(child, _INPUT_KINDS) and unwritable.get(id(child)) is not child:
            return False
    return True


_INPUT_KINDS = (*_LITERALS, ir.TypeRef)
_INPUT_SET = frozenset(_INPUT_KINDS)


def is_constant_value(node: ir.Node) -> bool:
    """Whether ``node`` is a value written out: a literal, or a list or map of them."""
    if isinstance(node, _LITERALS):
        return True
    if isinstance(node, (ir.ListLiteral, ir.MapLiteral)):
        return all(is_constant_value(c) for c in child_nodes(node))
    return False


@functools.cache
def _temporal_kinds() -> dict[type, ir.TemporalKind]:
    """The evaluator's temporal classes and the literal kind of each (the evaluator is
    imported on first use)."""
    from ..eval import temporal

    return {
        temporal.Date: ir.TemporalKind.DATE,
        temporal.LocalTime: ir.TemporalKind.LOCAL_TIME,
        temporal.Time: ir.TemporalKind.TIME,
        temporal.LocalDateTime: ir.TemporalKind.LOCAL_DATETIME,
        temporal.DateTime: ir.TemporalKind.DATETIME,
        temporal.Duration: ir.TemporalKind.DURATION,
    }


def to_literal(value: Any) -> ir.Expr | None:
    """The IR literal for an evaluator value, or None where no literal writes it exactly."""
    if value is None:
        return ir.Null()
    if isinstance(value, bool):
        return ir.Boolean(value)
    if isinstance(value, int):
        return ir.Integer(value)
    if isinstance(value, float):
        return ir.Float(value) if math.isfinite(value) else None
    if isinstance(value, str):
        return ir.String(value)
    if isinstance(value, list):
        items = [to_literal(v) for v in value]
        written = [i for i in items if i is not None]
        return ir.ListLiteral(tuple(written)) if len(written) == len(items) else None
    if isinstance(value, dict):
        entries = [(k, lit) for k, v in value.items() if (lit := to_literal(v)) is not None]
        return ir.MapLiteral(tuple(entries)) if len(entries) == len(value) else None
    kind = _temporal_kinds().get(type(value))
    if kind is None:
        return None
    return ir.TemporalLiteral(kind, str(value))
