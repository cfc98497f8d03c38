"""Evaluation of IR expressions against one binding row.

One method per expression node type, found through a dispatch table built once. Operators
follow openCypher: null propagates, logic is three-valued, ``+`` concatenates strings and
lists, integer arithmetic is 64-bit with overflow errors, and integer division truncates
toward zero (or gives a float, where the dialect's capabilities say so).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from fractions import Fraction
from functools import lru_cache
from typing import Any

from .. import ir
from ..errors import EvaluationError
from . import temporal as tm
from .functions import call_function, type_matches
from .graph import Node, Relationship
from .runtime import Row, Runtime, unsupported
from .values import (
    and3,
    check_int,
    compare,
    equals,
    is_number,
    not3,
    or3,
    truth,
    type_name,
    xor3,
)

__all__ = ["ExpressionEvaluator", "arithmetic", "label_match"]


def _type_error(message: str, detail: str = "InvalidArgumentType") -> EvaluationError:
    return EvaluationError(message, category="TypeError", detail=detail)


class ExpressionEvaluator:
    #: IR class -> method name, found once per class (a runtime is made per query).
    _methods: dict[type, str] | None = None

    def __init__(self, rt: Runtime) -> None:
        self.rt = rt
        methods = type(self)._methods
        if methods is None:
            methods = {}
            for name in dir(type(self)):
                cls = getattr(ir, name[2:], None) if name.startswith("e_") else None
                if isinstance(cls, type):
                    methods[cls] = name
            type(self)._methods = methods
        self._dispatch: dict[type, Callable[[Any, Row], Any]] = {
            cls: getattr(self, name) for cls, name in methods.items()
        }

    def eval(self, expr: ir.Expr, row: Row) -> Any:
        fn = self._dispatch.get(type(expr))
        if fn is None:
            raise unsupported(f"the expression {type(expr).__name__}")
        return fn(expr, row)

    def predicate(self, expr: ir.Expr, row: Row) -> bool | None:
        return truth(self.eval(expr, row))

    # -- literals and names --------------------------------------------------------------------

    def e_Null(self, e: ir.Null, row: Row) -> Any:
        return None

    def e_Boolean(self, e: ir.Boolean, row: Row) -> Any:
        return e.value

    def e_Integer(self, e: ir.Integer, row: Row) -> Any:
        return check_int(e.value)

    def e_Float(self, e: ir.Float, row: Row) -> Any:
        return e.value

    def e_String(self, e: ir.String, row: Row) -> Any:
        return e.value

    def e_TemporalLiteral(self, e: ir.TemporalLiteral, row: Row) -> Any:
        return tm.parse_temporal(e.kind.value, e.text, self.rt.zone)

    def e_ListLiteral(self, e: ir.ListLiteral, row: Row) -> Any:
        return [self.eval(x, row) for x in e.items]

    def e_MapLiteral(self, e: ir.MapLiteral, row: Row) -> Any:
        return {k: self.eval(v, row) for k, v in e.entries}

    def e_Parameter(self, e: ir.Parameter, row: Row) -> Any:
        return self.rt.parameter(e.name)

    def e_Variable(self, e: ir.Variable, row: Row) -> Any:
        try:
            return row[e.name]
        except KeyError:
            raise EvaluationError(
                f"variable {e.name} is not defined",
                category="SyntaxError",
                detail="UndefinedVariable",
            ) from None

    # -- access --------------------------------------------------------------------------------

    def e_Property(self, e: ir.Property, row: Row) -> Any:
        return property_of(self.eval(e.subject, row), e.key)

    def e_Index(self, e: ir.Index, row: Row) -> Any:
        subject = self.eval(e.subject, row)
        index = self.eval(e.index, row)
        if subject is None or index is None:
            return None
        if isinstance(subject, list):
            if isinstance(index, bool) or not isinstance(index, int):
                raise _type_error(f"a list index must be an integer, not {type_name(index)}")
            if -len(subject) <= index < len(subject):
                return subject[index]
            return None
        if isinstance(subject, (dict, Node, Relationship)):
            if not isinstance(index, str):
                raise _type_error(
                    f"a map key must be a string, not {type_name(index)}",
                    "MapElementAccessByNonString",
                )
            return property_of(subject, index)
        raise _type_error(f"cannot index a {type_name(subject)}")

    def e_ArrayElement(self, e: ir.ArrayElement, row: Row) -> Any:
        subject = self.eval(e.subject, row)
        index = self.eval(e.index, row)
        if subject is None or index is None:
            return None
        if not isinstance(subject, list):
            raise _type_error(f"cannot subscript a {type_name(subject)} as an array")
        if isinstance(index, bool) or not isinstance(index, int):
            raise _type_error(f"an array position must be an integer, not {type_name(index)}")
        at = index - 1 if e.ordinal else index
        if 0 <= at < len(subject):
            return subject[at]
        if e.safe:
            return None
        raise EvaluationError(
            f"array index {index} is out of bounds",
            category="ArgumentError",
            detail="IndexOutOfBounds",
        )

    def e_Slice(self, e: ir.Slice, row: Row) -> Any:
        subject = self.eval(e.subject, row)
        start = self.eval(e.start, row) if e.start is not None else 0
        end = self.eval(e.end, row) if e.end is not None else None
        if subject is None or start is None or (e.end is not None and end is None):
            return None
        if not isinstance(subject, list):
            raise _type_error(f"cannot slice a {type_name(subject)}")
        for bound in (start, end):
            if bound is not None and (isinstance(bound, bool) or not isinstance(bound, int)):
                raise _type_error(f"a slice bound must be an integer, not {type_name(bound)}")
        return subject[start:end]

    # -- operators -----------------------------------------------------------------------------

    def e_Arithmetic(self, e: ir.Arithmetic, row: Row) -> Any:
        return arithmetic(
            e.op,
            self.eval(e.left, row),
            self.eval(e.right, row),
            self.rt.capabilities.integer_division,
        )

    def e_Negate(self, e: ir.Negate, row: Row) -> Any:
        v = self.eval(e.operand, row)
        if v is None:
            return None
        if isinstance(v, bool) or not (is_number(v) or isinstance(v, tm.Duration)):
            raise _type_error(f"cannot negate a {type_name(v)}")
        if isinstance(v, tm.Duration):
            return tm.negate_duration(v)
        return check_int(-v) if isinstance(v, int) else -v

    def e_UnaryPlus(self, e: ir.UnaryPlus, row: Row) -> Any:
        v = self.eval(e.operand, row)
        if v is None or (is_number(v)) or isinstance(v, tm.Duration):
            return v
        raise _type_error(f"unary + needs a number, not {type_name(v)}")

    def e_Concat(self, e: ir.Concat, row: Row) -> Any:
        a, b = self.eval(e.left, row), self.eval(e.right, row)
        if a is None or b is None:
            return None
        if isinstance(a, str) and isinstance(b, str):
            return a + b
        if isinstance(a, list) and isinstance(b, list):
            return a + b
        raise _type_error(
            f"|| needs two strings or two lists, not {type_name(a)} and {type_name(b)}"
        )

    def e_Comparison(self, e: ir.Comparison, row: Row) -> Any:
        return comparison(e.op, self.eval(e.left, row), self.eval(e.right, row))

    def e_And(self, e: ir.And, row: Row) -> Any:
        return and3(self._bool(e.left, row), self._bool(e.right, row))

    def e_Or(self, e: ir.Or, row: Row) -> Any:
        return or3(self._bool(e.left, row), self._bool(e.right, row))

    def e_Xor(self, e: ir.Xor, row: Row) -> Any:
        return xor3(self._bool(e.left, row), self._bool(e.right, row))

    def e_Not(self, e: ir.Not, row: Row) -> Any:
        return not3(self._bool(e.operand, row))

    def _bool(self, e: ir.Expr, row: Row) -> bool | None:
        return truth(self.eval(e, row), "an operand of a boolean operator")

    def e_IsTruth(self, e: ir.IsTruth, row: Row) -> Any:
        v = self._bool(e.operand, row)
        want = {ir.TruthValue.TRUE: True, ir.TruthValue.FALSE: False, ir.TruthValue.UNKNOWN: None}[
            e.value
        ]
        return (v is want) != e.negated

    def e_IsNull(self, e: ir.IsNull, row: Row) -> Any:
        return (self.eval(e.operand, row) is None) != e.negated

    def e_StringMatch(self, e: ir.StringMatch, row: Row) -> Any:
        a, b = self.eval(e.left, row), self.eval(e.right, row)
        if not isinstance(a, str) or not isinstance(b, str):
            return None
        if e.op is ir.StringOp.STARTS_WITH:
            return a.startswith(b)
        if e.op is ir.StringOp.ENDS_WITH:
            return a.endswith(b)
        return b in a

    def e_RegexMatch(self, e: ir.RegexMatch, row: Row) -> Any:
        a, b = self.eval(e.left, row), self.eval(e.right, row)
        if not isinstance(a, str) or not isinstance(b, str):
            return None
        return _regex(b).fullmatch(a) is not None

    def e_Like(self, e: ir.Like, row: Row) -> Any:
        a, b = self.eval(e.left, row), self.eval(e.pattern, row)
        if not isinstance(a, str) or not isinstance(b, str):
            return None
        return (_like(b, e.escape).fullmatch(a) is not None) != e.negated

    def e_In(self, e: ir.In, row: Row) -> Any:
        return membership(self.eval(e.item, row), self.eval(e.container, row))

    def e_HasLabels(self, e: ir.HasLabels, row: Row) -> Any:
        v = self.eval(e.subject, row)
        if v is None:
            return None
        if isinstance(v, Node):
            return label_match(e.labels, v.labels)
        if isinstance(v, Relationship):
            return label_match(e.labels, (v.type,))
        raise _type_error(f"a label test needs a node or a relationship, not {type_name(v)}")

    def e_TypeTest(self, e: ir.TypeTest, row: Row) -> Any:
        return type_matches(self.eval(e.operand, row), e.type) != e.negated

    def e_Cast(self, e: ir.Cast, row: Row) -> Any:
        from .functions import cast

        return cast(self.eval(e.operand, row), e.type)

    def e_SafeCast(self, e: ir.SafeCast, row: Row) -> Any:
        from .functions import cast

        try:
            return cast(self.eval(e.operand, row), e.type)
        except EvaluationError as error:
            if error.category != "TypeError":
                raise
            return None

    def e_Struct(self, e: ir.Struct, row: Row) -> Any:
        """A struct is a record: a map of its fields in order (an anonymous field is keyed by
        its position, ``_1`` …), so ``s.name`` reads a field."""
        return {
            f.name if f.name is not None else f"_{i}": self.eval(f.value, row)
            for i, f in enumerate(e.fields, 1)
        }

    def e_Case(self, e: ir.Case, row: Row) -> Any:
        if e.subject is not None:
            subject = self.eval(e.subject, row)
            for w in e.whens:
                if equals(subject, self.eval(w.condition, row)) is True:
                    return self.eval(w.result, row)
        else:
            for w in e.whens:
                if truth(self.eval(w.condition, row), "a CASE condition") is True:
                    return self.eval(w.result, row)
        return self.eval(e.default, row) if e.default is not None else None

    # -- calls ---------------------------------------------------------------------------------

    def e_FunctionCall(self, e: ir.FunctionCall, row: Row) -> Any:
        return call_function(self.rt, e.name, [self.eval(a, row) for a in e.args])

    def e_Aggregate(self, e: ir.Aggregate, row: Row) -> Any:
        if e in row:
            return row[e]
        raise EvaluationError(
            f"{e.name}() is an aggregate and cannot be used here",
            category="SyntaxError",
            detail="InvalidAggregation",
        )

    def e_CountStar(self, e: ir.CountStar, row: Row) -> Any:
        if e in row:
            return row[e]
        raise EvaluationError(
            "count(*) cannot be used here", category="SyntaxError", detail="InvalidAggregation"
        )

    # -- list and map constructions ------------------------------------------------------------

    def _items(self, source: ir.Expr, row: Row, what: str) -> list[Any] | None:
        v = self.eval(source, row)
        if v is None or isinstance(v, list):
            return v
        raise _type_error(f"{what} needs a list, not {type_name(v)}")

    def e_ListComprehension(self, e: ir.ListComprehension, row: Row) -> Any:
        items = self._items(e.source, row, "a list comprehension")
        if items is None:
            return None
        out = []
        inner = dict(row)
        for item in items:
            inner[e.variable] = item
            if e.where is not None and truth(self.eval(e.where, inner), "WHERE") is not True:
                continue
            out.append(self.eval(e.projection, inner) if e.projection is not None else item)
        return out

    def e_ListPredicate(self, e: ir.ListPredicate, row: Row) -> Any:
        items = self._items(e.source, row, f"{e.quantifier.value}()")
        if items is None:
            return None
        trues = unknowns = 0
        inner = dict(row)
        for item in items:
            inner[e.variable] = item
            v = truth(
                self.eval(e.predicate, inner) if e.predicate is not None else item,
                "a list predicate",
            )
            if v is True:
                trues += 1
            elif v is None:
                unknowns += 1
        falses = len(items) - trues - unknowns
        q = e.quantifier
        if q is ir.ListQuantifier.ALL:
            return False if falses else (None if unknowns else True)
        if q is ir.ListQuantifier.ANY:
            return True if trues else (None if unknowns else False)
        if q is ir.ListQuantifier.NONE:
            return False if trues else (None if unknowns else True)
        if trues > 1:
            return False
        if unknowns:
            return None
        return trues == 1

    def e_Reduce(self, e: ir.Reduce, row: Row) -> Any:
        acc = self.eval(e.init, row)
        items = self._items(e.source, row, "reduce()")
        if items is None:
            return None
        inner = dict(row)
        for item in items:
            inner[e.accumulator] = acc
            inner[e.variable] = item
            acc = self.eval(e.expression, inner)
        return acc

    def e_PatternComprehension(self, e: ir.PatternComprehension, row: Row) -> Any:
        out = []
        for match in self.rt.matcher.match((e.pattern,), ir.MatchMode.DIFFERENT_EDGES, row):
            if e.where is not None and truth(self.eval(e.where, match), "WHERE") is not True:
                continue
            out.append(self.eval(e.projection, match))
        return out

    def e_MapProjection(self, e: ir.MapProjection, row: Row) -> Any:
        subject = row.get(e.subject)
        if subject is None:
            return None
        if isinstance(subject, (Node, Relationship)):
            props = subject.properties
        elif isinstance(subject, dict):
            props = subject
        else:
            raise _type_error(
                f"a map projection needs a node, relationship or map, not {type_name(subject)}"
            )
        out: dict[str, Any] = {}
        for item in e.items:
            if item.kind is ir.MapItemKind.ALL:
                out.update(props)
            elif item.kind is ir.MapItemKind.PROPERTY:
                out[item.key] = props.get(item.key)
            elif item.kind is ir.MapItemKind.VARIABLE:
                out[item.key] = self.e_Variable(ir.Variable(item.key), row)
            else:
                assert item.value is not None
                out[item.key] = self.eval(item.value, row)
        return out

    # -- subqueries ----------------------------------------------------------------------------

    def e_Exists(self, e: ir.Exists, row: Row) -> Any:
        return self.rt.interpreter.subquery_has_rows(e.query, row)

    def e_CountSubquery(self, e: ir.CountSubquery, row: Row) -> Any:
        return len(self.rt.interpreter.subquery_rows(e.query, row)[1])

    def e_CollectSubquery(self, e: ir.CollectSubquery, row: Row) -> Any:
        columns, rows = self.rt.interpreter.subquery_rows(e.query, row)
        if len(columns) != 1:
            raise EvaluationError("COLLECT { } must return one column", category="SyntaxError")
        return [r[columns[0]] for r in rows]

    def e_ValueSubquery(self, e: ir.ValueSubquery, row: Row) -> Any:
        columns, rows = self.rt.interpreter.subquery_rows(e.query, row)
        if len(columns) != 1:
            raise EvaluationError("VALUE { } must return one column", category="SyntaxError")
        if len(rows) > 1:
            raise EvaluationError("VALUE { } returned more than one row", category="ArgumentError")
        return rows[0][columns[0]] if rows else None

    # -- graph element predicates --------------------------------------------------------------

    def e_IsDirected(self, e: ir.IsDirected, row: Row) -> Any:
        v = self.eval(e.operand, row)
        if v is None:
            return None
        if not isinstance(v, Relationship):
            raise _type_error(f"IS DIRECTED needs a relationship, not {type_name(v)}")
        return not e.negated  # every relationship of this graph model is directed

    def e_IsEndpoint(self, e: ir.IsEndpoint, row: Row) -> Any:
        n, r = self.eval(e.node, row), self.eval(e.edge, row)
        if n is None or r is None:
            return None
        if not isinstance(n, Node) or not isinstance(r, Relationship):
            raise _type_error("IS SOURCE/DESTINATION OF needs a node and a relationship")
        end = r.start if e.endpoint is ir.Endpoint.SOURCE else r.end
        return (n.id == end) != e.negated

    def e_Same(self, e: ir.Same, row: Row) -> Any:
        values = [self.eval(x, row) for x in e.elements]
        if any(v is None for v in values):
            return None
        return all(equals(values[0], v) for v in values[1:])

    def e_AllDifferent(self, e: ir.AllDifferent, row: Row) -> Any:
        values = [self.eval(x, row) for x in e.elements]
        if any(v is None for v in values):
            return None
        keys = [(type(v).__name__, getattr(v, "id", None)) for v in values]
        return len(set(keys)) == len(keys)

    def e_PropertyExists(self, e: ir.PropertyExists, row: Row) -> Any:
        v = self.eval(e.subject, row)
        if v is None:
            return None
        if isinstance(v, (Node, Relationship)):
            return e.key in v.properties
        if isinstance(v, dict):
            return e.key in v
        raise _type_error(f"PROPERTY_EXISTS needs a graph element, not {type_name(v)}")


# ---------------------------------------------------------------------------------------------
# operators as functions (shared with aggregates and the static checks' constant folding)
# ---------------------------------------------------------------------------------------------


def property_of(subject: Any, key: str) -> Any:
    if subject is None:
        return None
    if isinstance(subject, (Node, Relationship)):
        if subject.deleted:
            raise EvaluationError(
                f"the {type_name(subject).lower()} was deleted",
                category="EntityNotFound",
                detail="DeletedEntityAccess",
            )
        return subject.properties.get(key)
    if isinstance(subject, dict):
        return subject.get(key)
    if isinstance(subject, tm.TEMPORAL_TYPES):
        return tm.accessor(subject, key)
    raise _type_error(f"cannot read property {key!r} of a {type_name(subject)}")


def label_match(expr: ir.LabelExpr, labels: Any) -> bool:
    if isinstance(expr, ir.Label):
        return expr.name in labels
    if isinstance(expr, ir.LabelAnd):
        return label_match(expr.left, labels) and label_match(expr.right, labels)
    if isinstance(expr, ir.LabelOr):
        return label_match(expr.left, labels) or label_match(expr.right, labels)
    if isinstance(expr, ir.LabelNot):
        return not label_match(expr.operand, labels)
    if isinstance(expr, ir.LabelAny):
        return bool(labels)
    raise unsupported(f"the label expression {type(expr).__name__}")


def membership(item: Any, container: Any) -> bool | None:
    if container is None:
        return None
    if not isinstance(container, list):
        raise _type_error(f"IN needs a list, not {type_name(container)}")
    unknown = False
    for x in container:
        r = equals(item, x)
        if r is True:
            return True
        if r is None:
            unknown = True
    return None if unknown else False


_COMPARE = {
    ir.CompOp.LT: lambda c: c < 0,
    ir.CompOp.LE: lambda c: c <= 0,
    ir.CompOp.GT: lambda c: c > 0,
    ir.CompOp.GE: lambda c: c >= 0,
}


def comparison(op: ir.CompOp, a: Any, b: Any) -> bool | None:
    if op is ir.CompOp.EQ:
        return equals(a, b)
    if op is ir.CompOp.NE:
        return not3(equals(a, b))
    if is_number(a) and is_number(b) and (_nan(a) or _nan(b)):
        return False if a is not None and b is not None else None
    c = compare(a, b)
    return None if c is None else _COMPARE[op](c)


def _nan(v: Any) -> bool:
    return isinstance(v, float) and math.isnan(v)


def arithmetic(op: ir.ArithOp, a: Any, b: Any, integer_division: str = "truncate") -> Any:
    if a is None or b is None:
        return None
    if op is ir.ArithOp.ADD:
        return _add(a, b)
    if op is ir.ArithOp.ADD_NUMBERS:
        arithmetic_operands = (is_number(a) and is_number(b)) or (
            isinstance(a, tm.TEMPORAL_TYPES)
            and isinstance(b, tm.TEMPORAL_TYPES)
            and (isinstance(a, tm.Duration) or isinstance(b, tm.Duration))
        )
        if arithmetic_operands:
            return _add(a, b)
        raise _type_error(f"+ adds numbers and durations, not {type_name(a)} and {type_name(b)}")
    if op is ir.ArithOp.DIV_FLOAT and is_number(a) and is_number(b):
        if b == 0:
            raise EvaluationError(
                "division by zero", category="ArithmeticError", detail="DivisionByZero"
            )
        return _float_div(float(a), float(b))
    if is_number(a) and is_number(b):
        return _numeric(op, a, b, integer_division)
    if op is ir.ArithOp.SUB and isinstance(b, tm.Duration):
        if isinstance(a, tm.Duration):
            return tm.add_durations(a, tm.negate_duration(b))
        if isinstance(a, tm.TEMPORAL_TYPES):
            return tm.add_duration(a, tm.negate_duration(b))
    if op is ir.ArithOp.MUL:
        if isinstance(a, tm.Duration) and is_number(b):
            return tm.scale_duration(a, Fraction(b))
        if is_number(a) and isinstance(b, tm.Duration):
            return tm.scale_duration(b, Fraction(a))
    if op in (ir.ArithOp.DIV, ir.ArithOp.DIV_FLOAT) and isinstance(a, tm.Duration) and is_number(b):
        if b == 0:
            raise EvaluationError(
                "division of a duration by zero",
                category="ArithmeticError",
                detail="DivisionByZero",
            )
        return tm.scale_duration(a, 1 / Fraction(b))
    raise _type_error(f"cannot apply {op.value} to {type_name(a)} and {type_name(b)}")


def _add(a: Any, b: Any) -> Any:
    if is_number(a) and is_number(b):
        if isinstance(a, int) and isinstance(b, int):
            return check_int(a + b)
        return float(a) + float(b)
    if isinstance(a, list):
        return a + b if isinstance(b, list) else a + [b]
    if isinstance(b, list):
        return [a] + b
    if isinstance(a, str) and isinstance(b, str):
        return a + b
    if isinstance(a, str) and (is_number(b) or isinstance(b, bool)):
        from .functions import to_string

        return a + to_string(b)
    if isinstance(b, str) and (is_number(a) or isinstance(a, bool)):
        from .functions import to_string

        return to_string(a) + b
    if isinstance(a, tm.Duration) and isinstance(b, tm.Duration):
        return tm.add_durations(a, b)
    if isinstance(b, tm.Duration) and isinstance(a, tm.TEMPORAL_TYPES):
        return tm.add_duration(a, b)
    if isinstance(a, tm.Duration) and isinstance(b, tm.TEMPORAL_TYPES):
        return tm.add_duration(b, a)
    raise _type_error(f"cannot add {type_name(a)} and {type_name(b)}")


def _numeric(op: ir.ArithOp, a: Any, b: Any, integer_division: str) -> Any:
    both_int = isinstance(a, int) and isinstance(b, int)
    if op is ir.ArithOp.SUB:
        return check_int(a - b) if both_int else float(a) - float(b)
    if op is ir.ArithOp.MUL:
        return check_int(a * b) if both_int else float(a) * float(b)
    if op is ir.ArithOp.DIV:
        if both_int and integer_division == "truncate":
            if b == 0:
                raise EvaluationError(
                    "/ by zero", category="ArithmeticError", detail="DivisionByZero"
                )
            q = abs(a) // abs(b)
            return check_int(q if (a >= 0) == (b > 0) else -q)
        return _float_div(float(a), float(b))
    if op is ir.ArithOp.MOD:
        if both_int:
            if b == 0:
                raise EvaluationError(
                    "% by zero", category="ArithmeticError", detail="DivisionByZero"
                )
            return (
                int(math.fmod(a, b))
                if abs(a) < 2**53 and abs(b) < 2**53
                else a - b * int(Fraction(a, b))
            )
        if float(b) == 0.0:
            return math.nan
        return math.fmod(float(a), float(b))
    if op is ir.ArithOp.POW:
        return _pow(float(a), float(b))
    raise AssertionError(op)


def _float_div(a: float, b: float) -> float:
    """Division with IEEE 754 results for a zero divisor (Java's, not Python's exception)."""
    if b == 0.0:
        if a == 0.0 or math.isnan(a):
            return math.nan
        negative = (a < 0) != (math.copysign(1.0, b) < 0)
        return -math.inf if negative else math.inf
    return a / b


def _pow(a: float, b: float) -> float:
    try:
        result = math.pow(a, b)
    except OverflowError:
        return math.inf if a > 0 or b % 2 == 0 else -math.inf
    except ValueError:
        if a == 0.0 and b < 0:
            return math.inf
        return math.nan
    return result


@lru_cache(maxsize=256)
def _regex(pattern: str) -> re.Pattern[str]:
    try:
        # Java's \d \w \s \b and case-insensitive matching are ASCII-only unless the pattern
        # asks for Unicode (java.util.regex.Pattern: UNICODE_CHARACTER_CLASS, UNICODE_CASE)
        return re.compile(_java_regex(pattern), re.ASCII)
    except re.error as exc:
        raise EvaluationError(
            f"invalid regular expression {pattern!r}: {exc}", category="ArgumentError"
        ) from None


_JAVA_NAMED_GROUP = re.compile(r"\(\?<(?=[A-Za-z])")


def _java_regex(pattern: str) -> str:
    """Java's named groups ``(?<name>…)`` in Python's spelling ``(?P<name>…)``; look-behinds
    ``(?<=`` / ``(?<!`` are the same in both. Java features Python lacks (possessive
    quantifiers, ``\\p{javaLowerCase}``) are left for ``re`` to reject as invalid."""
    return _JAVA_NAMED_GROUP.sub("(?P<", pattern)


@lru_cache(maxsize=256)
def _like(pattern: str, escape: str | None = None) -> re.Pattern[str]:
    out = []
    chars = iter(pattern)
    for ch in chars:
        if ch == escape:
            nxt = next(chars, None)
            if nxt is None:
                raise EvaluationError(
                    "a LIKE pattern ends with its escape character", category="ArgumentError"
                )
            out.append(re.escape(nxt))
        else:
            out.append(".*" if ch == "%" else "." if ch == "_" else re.escape(ch))
    return re.compile("".join(out), re.DOTALL)
