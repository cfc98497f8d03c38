"""Scalar functions by their canonical names (:mod:`gqlir.ir.functions`).

Each function receives evaluated arguments. Null in gives null out unless the function is about
null (``coalesce``). Type errors follow openCypher's categories: a wrong argument type is a
``TypeError``/``ArgumentError`` with the TCK's detail name, so conformance runs can compare them.
"""

from __future__ import annotations

import math
import unicodedata
import uuid
from collections.abc import Callable
from typing import Any, Literal

from .. import ir
from ..errors import EvaluationError
from ..ir.functions import WHITESPACE
from . import temporal as tm
from .graph import Node, Relationship
from .runtime import Runtime, unsupported
from .values import Path, check_int, equals, format_float, is_number, type_name

__all__ = ["call_function", "cast", "to_string", "type_matches"]

Fn = Callable[[Runtime, list[Any]], Any]
_FUNCTIONS: dict[str, Fn] = {}


def _fn(*names: str, nulls: bool = True) -> Callable[[Fn], Fn]:
    """Register a function; with ``nulls`` a null first argument gives null without a call."""

    def wrap(fn: Fn) -> Fn:
        def run(rt: Runtime, args: list[Any]) -> Any:
            if nulls and args and args[0] is None:
                return None
            return fn(rt, args)

        for name in names:
            _FUNCTIONS[name] = run
        return fn

    return wrap


def call_function(rt: Runtime, name: str, args: list[Any]) -> Any:
    fn = _FUNCTIONS.get(name)
    if fn is None:
        raise unsupported(f"the function {name}()")
    return fn(rt, args)


def _arg_type_error(name: str, v: Any, category: str = "ArgumentError") -> EvaluationError:
    return EvaluationError(
        f"{name}() cannot take a {type_name(v)}", category=category, detail="InvalidArgumentType"
    )


def _value_error(name: str, v: Any) -> EvaluationError:
    return EvaluationError(
        f"{name}() cannot take a {type_name(v)}",
        category="TypeError",
        detail="InvalidArgumentValue",
    )


def _num(name: str, v: Any) -> float | int:
    if not is_number(v):
        raise _arg_type_error(name, v, "TypeError")
    return v


def _int(name: str, v: Any) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise _arg_type_error(name, v, "TypeError")
    return v


def _str(name: str, v: Any) -> str:
    if not isinstance(v, str):
        raise _arg_type_error(name, v, "TypeError")
    return v


# -- graph -----------------------------------------------------------------------------------------


@_fn("id")
def _id(rt: Runtime, a: list[Any]) -> Any:
    if isinstance(a[0], (Node, Relationship)):
        return a[0].id
    raise _arg_type_error("id", a[0], "TypeError")


@_fn("elementid")
def _element_id(rt: Runtime, a: list[Any]) -> Any:
    if isinstance(a[0], Node):
        return f"n:{a[0].id}"
    if isinstance(a[0], Relationship):
        return f"r:{a[0].id}"
    raise _arg_type_error("elementId", a[0], "TypeError")


@_fn("labels")
def _labels(rt: Runtime, a: list[Any]) -> Any:
    if isinstance(a[0], Node):
        return list(a[0].labels)
    raise _arg_type_error("labels", a[0], "TypeError")


@_fn("type")
def _type(rt: Runtime, a: list[Any]) -> Any:
    if isinstance(a[0], Relationship):
        return a[0].type
    raise _value_error("type", a[0])


@_fn("keys")
def _keys(rt: Runtime, a: list[Any]) -> Any:
    v = a[0]
    if isinstance(v, (Node, Relationship)):
        return list(v.properties)
    if isinstance(v, dict):
        return list(v)
    raise _arg_type_error("keys", v, "TypeError")


@_fn("properties")
def _properties(rt: Runtime, a: list[Any]) -> Any:
    v = a[0]
    if isinstance(v, (Node, Relationship)):
        return dict(v.properties)
    if isinstance(v, dict):
        return dict(v)
    raise _arg_type_error("properties", v, "TypeError")


@_fn("startnode")
def _start_node(rt: Runtime, a: list[Any]) -> Any:
    if isinstance(a[0], Relationship):
        return rt.graph.nodes.get(a[0].start)
    raise _arg_type_error("startNode", a[0], "TypeError")


@_fn("endnode")
def _end_node(rt: Runtime, a: list[Any]) -> Any:
    if isinstance(a[0], Relationship):
        return rt.graph.nodes.get(a[0].end)
    raise _arg_type_error("endNode", a[0], "TypeError")


@_fn("nodes")
def _nodes(rt: Runtime, a: list[Any]) -> Any:
    if isinstance(a[0], Path):
        return list(a[0].nodes)
    raise _arg_type_error("nodes", a[0], "TypeError")


@_fn("relationships")
def _relationships(rt: Runtime, a: list[Any]) -> Any:
    if isinstance(a[0], Path):
        return list(a[0].relationships)
    raise _arg_type_error("relationships", a[0], "TypeError")


@_fn("is_trail", "googlesql.is_trail")
def _is_trail(rt: Runtime, a: list[Any]) -> Any:
    """Kuzu's is_trail(p), which the Kuzu translation writes for Cypher's relationship
    uniqueness, and GoogleSQL's IS_TRAIL(p), which gqlir reads it as: no relationship of the
    path repeats."""
    if isinstance(a[0], Path):
        ids = [r.id for r in a[0].relationships]
        return len(set(ids)) == len(ids)
    raise _arg_type_error("is_trail", a[0], "TypeError")


@_fn("elements")
def _elements(rt: Runtime, a: list[Any]) -> Any:
    """GQL's ELEMENTS(p): the path's nodes and edges, alternating, from its first node."""
    if isinstance(a[0], Path):
        out: list[Any] = [a[0].nodes[0]]
        for rel, node in zip(a[0].relationships, a[0].nodes[1:], strict=True):
            out += [rel, node]
        return out
    raise _arg_type_error("elements", a[0], "TypeError")


@_fn("length")
def _length(rt: Runtime, a: list[Any]) -> Any:
    v = a[0]
    if isinstance(v, Path):
        return len(v.relationships)
    if isinstance(v, (str, list)):
        return len(v)
    raise _arg_type_error("length", v, "TypeError")


# -- lists -------------------------------------------------------------------------------------


@_fn("size")
def _size(rt: Runtime, a: list[Any]) -> Any:
    """A string's size counts code points, as Neo4j's TextValue.length() does (and as
    substring(), left() and right() count here, and CHAR_LENGTH in GQL and SQL)."""
    v = a[0]
    if isinstance(v, (str, list)):
        return len(v)
    raise _arg_type_error("size", v, "TypeError")


@_fn("char_length")
def _char_length(rt: Runtime, a: list[Any]) -> Any:
    return len(_str("char_length", a[0]))


@_fn("byte_length")
def _byte_length(rt: Runtime, a: list[Any]) -> Any:
    """GQL's BYTE_LENGTH: the octets of the string's UTF-8 encoding."""
    return len(_str("byte_length", a[0]).encode("utf-8"))


@_fn("head")
def _head(rt: Runtime, a: list[Any]) -> Any:
    if not isinstance(a[0], list):
        raise _arg_type_error("head", a[0], "TypeError")
    return a[0][0] if a[0] else None


@_fn("last")
def _last(rt: Runtime, a: list[Any]) -> Any:
    if not isinstance(a[0], list):
        raise _arg_type_error("last", a[0], "TypeError")
    return a[0][-1] if a[0] else None


@_fn("tail")
def _tail(rt: Runtime, a: list[Any]) -> Any:
    if not isinstance(a[0], list):
        raise _arg_type_error("tail", a[0], "TypeError")
    return a[0][1:]


@_fn("isempty")
def _is_empty(rt: Runtime, a: list[Any]) -> Any:
    v = a[0]
    if isinstance(v, (str, list, dict)):
        return len(v) == 0
    raise _arg_type_error("isEmpty", v, "TypeError")


@_fn("reverse")
def _reverse(rt: Runtime, a: list[Any]) -> Any:
    v = a[0]
    if isinstance(v, (str, list)):
        return v[::-1]
    raise _arg_type_error("reverse", v, "TypeError")


@_fn("range", nulls=False)
def _range(rt: Runtime, a: list[Any]) -> Any:
    for v in a:
        if isinstance(v, bool) or not isinstance(v, int):
            raise _arg_type_error("range", v)
    start, end = a[0], a[1]
    step = a[2] if len(a) > 2 else 1
    if step == 0:
        raise EvaluationError(
            "range() step cannot be zero", category="ArgumentError", detail="NumberOutOfRange"
        )
    return list(range(start, end + (1 if step > 0 else -1), step))


@_fn("coalesce", nulls=False)
def _coalesce(rt: Runtime, a: list[Any]) -> Any:
    return next((v for v in a if v is not None), None)


@_fn("nullif", nulls=False)
def _nullif(rt: Runtime, a: list[Any]) -> Any:
    return None if equals(a[0], a[1]) is True else a[0]


# -- numbers -----------------------------------------------------------------------------------


@_fn("abs")
def _abs(rt: Runtime, a: list[Any]) -> Any:
    v = _num("abs", a[0])
    return check_int(abs(v)) if isinstance(v, int) else abs(v)


@_fn("sign")
def _sign(rt: Runtime, a: list[Any]) -> Any:
    v = _num("sign", a[0])
    if isinstance(v, float) and math.isnan(v):
        return 0
    return (v > 0) - (v < 0)


@_fn("ceil")
def _ceil(rt: Runtime, a: list[Any]) -> Any:
    v = float(_num("ceil", a[0]))
    return v if math.isnan(v) or math.isinf(v) else float(math.ceil(v))


@_fn("floor")
def _floor(rt: Runtime, a: list[Any]) -> Any:
    v = float(_num("floor", a[0]))
    return v if math.isnan(v) or math.isinf(v) else float(math.floor(v))


@_fn("ceil_typed")
def _ceil_typed(rt: Runtime, a: list[Any]) -> Any:
    """SQL's and GQL's CEIL: an integer stays the integer, a float is rounded up as a float."""
    v = _num("ceil", a[0])
    return v if isinstance(v, int) else _ceil(rt, a)


@_fn("floor_typed")
def _floor_typed(rt: Runtime, a: list[Any]) -> Any:
    """SQL's and GQL's FLOOR: an integer stays the integer, a float is rounded down as a float."""
    v = _num("floor", a[0])
    return v if isinstance(v, int) else _floor(rt, a)


@_fn("falkordb.round")
def _falkordb_round(rt: Runtime, a: list[Any]) -> Any:
    """FalkorDB's round(): an integer stays the integer, a float is rounded half away from
    zero as a float (exactly: 0.49999999999999994 is 0.0)."""
    v = _num("round", a[0])
    if isinstance(v, int) or math.isnan(v) or math.isinf(v):
        return v
    magnitude = abs(v)
    low = math.floor(magnitude)
    return math.copysign(float(low + 1 if magnitude - low >= 0.5 else low), v)


_ROUND_MODES = ("UP", "DOWN", "CEILING", "FLOOR", "HALF_UP", "HALF_DOWN", "HALF_EVEN")


@_fn("round")
def _round(rt: Runtime, a: list[Any]) -> Any:
    v = float(_num("round", a[0]))
    if math.isnan(v) or math.isinf(v):
        return v
    precision = _int("round", a[1]) if len(a) > 1 and a[1] is not None else 0
    mode = a[2] if len(a) > 2 and a[2] is not None else "HALF_UP"
    if mode not in _ROUND_MODES:
        raise EvaluationError(f"unknown rounding mode {mode!r}", category="ArgumentError")
    if len(a) == 1:
        # Java Math.round: half toward positive infinity, exactly (v + 0.5 is not exact for
        # 0.49999999999999994 or an odd integer above 2^52, which Math.round returns as is)
        low = math.floor(v)
        return float(low + 1 if v - low >= 0.5 else low)
    from decimal import (
        ROUND_CEILING,
        ROUND_DOWN,
        ROUND_FLOOR,
        ROUND_HALF_DOWN,
        ROUND_HALF_EVEN,
        ROUND_HALF_UP,
        ROUND_UP,
        Decimal,
    )

    modes = {
        "UP": ROUND_UP,
        "DOWN": ROUND_DOWN,
        "CEILING": ROUND_CEILING,
        "FLOOR": ROUND_FLOOR,
        "HALF_UP": ROUND_HALF_UP,
        "HALF_DOWN": ROUND_HALF_DOWN,
        "HALF_EVEN": ROUND_HALF_EVEN,
    }
    quantum = Decimal(1).scaleb(-precision)
    return float(Decimal(repr(v)).quantize(quantum, rounding=modes[mode]))


def _math1(name: str, fn: Callable[[float], float]) -> None:
    @_fn(name)
    def run(rt: Runtime, a: list[Any]) -> Any:
        x = float(_num(name, a[0]))
        try:
            return fn(x)
        except (ValueError, ZeroDivisionError):
            return math.nan
        except OverflowError:
            return math.inf


def _log(x: float) -> float:
    return -math.inf if x == 0 else math.log(x)


def _log10(x: float) -> float:
    return -math.inf if x == 0 else math.log10(x)


def _sqrt(x: float) -> float:
    return math.nan if x < 0 else math.sqrt(x)


def _cot(x: float) -> float:
    t = math.tan(x)
    return math.inf if t == 0 else 1 / t


def _sinh(x: float) -> float:
    try:
        return math.sinh(x)
    except OverflowError:  # (the shared handler would give +inf for a large negative x)
        return math.copysign(math.inf, x)


for _name, _f in {
    "sqrt": _sqrt,
    "exp": math.exp,
    "log": _log,
    "log10": _log10,
    "sin": math.sin,
    "cos": math.cos,
    "tan": math.tan,
    "cot": _cot,
    "sinh": _sinh,
    "cosh": math.cosh,
    "tanh": math.tanh,
    "asin": math.asin,
    "acos": math.acos,
    "atan": math.atan,
    "degrees": math.degrees,
    "radians": math.radians,
    "haversin": lambda x: (1 - math.cos(x)) / 2,
}.items():
    _math1(_name, _f)


@_fn("atan2", nulls=False)
def _atan2(rt: Runtime, a: list[Any]) -> Any:
    if a[0] is None or a[1] is None:
        return None
    return math.atan2(float(_num("atan2", a[0])), float(_num("atan2", a[1])))


@_fn("isnan")
def _isnan(rt: Runtime, a: list[Any]) -> Any:
    v = _num("isNaN", a[0])
    return isinstance(v, float) and math.isnan(v)


@_fn("pi", nulls=False)
def _pi(rt: Runtime, a: list[Any]) -> Any:
    return math.pi


@_fn("e", nulls=False)
def _e(rt: Runtime, a: list[Any]) -> Any:
    return math.e


@_fn("rand", nulls=False)
def _rand(rt: Runtime, a: list[Any]) -> Any:
    return rt.rng.random()


@_fn("randomuuid", nulls=False)
def _random_uuid(rt: Runtime, a: list[Any]) -> Any:
    return str(uuid.UUID(int=rt.rng.getrandbits(128), version=4))


# -- strings -----------------------------------------------------------------------------------


@_fn("upper")
def _upper(rt: Runtime, a: list[Any]) -> Any:
    return _str("toUpper", a[0]).upper()


@_fn("lower")
def _lower(rt: Runtime, a: list[Any]) -> Any:
    return _str("toLower", a[0]).lower()


def _trim_chars(name: str, a: list[Any]) -> str:
    """The characters to strip: the second argument, or Cypher's whitespace."""
    return _str(name, a[1]) if len(a) > 1 else WHITESPACE


@_fn("trim")
def _trim(rt: Runtime, a: list[Any]) -> Any:
    return _str("trim", a[0]).strip(WHITESPACE)


@_fn("btrim")
def _btrim(rt: Runtime, a: list[Any]) -> Any:
    if len(a) > 1 and a[1] is None:
        return None
    return _str("btrim", a[0]).strip(_trim_chars("btrim", a))


@_fn("ltrim")
def _ltrim(rt: Runtime, a: list[Any]) -> Any:
    if len(a) > 1 and a[1] is None:
        return None
    return _str("ltrim", a[0]).lstrip(_trim_chars("ltrim", a))


@_fn("rtrim")
def _rtrim(rt: Runtime, a: list[Any]) -> Any:
    if len(a) > 1 and a[1] is None:
        return None
    return _str("rtrim", a[0]).rstrip(_trim_chars("rtrim", a))


def _null_length(rt: Runtime, name: str, length: Any) -> bool:
    """A null length gives null in GQL and SQL; Cypher raises."""
    if length is not None:
        return False
    if rt.capabilities.null_length_is_null:
        return True
    raise EvaluationError(f"{name}() length cannot be null", category="ArgumentError")


@_fn("left")
def _left(rt: Runtime, a: list[Any]) -> Any:
    s = _str("left", a[0])
    if _null_length(rt, "left", a[1]):
        return None
    n = _int("left", a[1])
    if n < 0:
        raise EvaluationError(
            "left() length cannot be negative",
            category="ArgumentError",
            detail="NegativeIntegerArgument",
        )
    return s[:n]


@_fn("right")
def _right(rt: Runtime, a: list[Any]) -> Any:
    s = _str("right", a[0])
    if _null_length(rt, "right", a[1]):
        return None
    n = _int("right", a[1])
    if n < 0:
        raise EvaluationError(
            "right() length cannot be negative",
            category="ArgumentError",
            detail="NegativeIntegerArgument",
        )
    return s[max(len(s) - n, 0) :] if n else ""  # (a longer n is the whole string)


@_fn("substring")
def _substring(rt: Runtime, a: list[Any]) -> Any:
    s = _str("substring", a[0])
    start = _int("substring", a[1])
    if start < 0:
        raise EvaluationError(
            "substring() start cannot be negative",
            category="ArgumentError",
            detail="NegativeIntegerArgument",
        )
    if len(a) > 2:
        n = _int("substring", a[2])
        if n < 0:
            raise EvaluationError(
                "substring() length cannot be negative",
                category="ArgumentError",
                detail="NegativeIntegerArgument",
            )
        return s[start : start + n]
    return s[start:]


@_fn("replace", nulls=False)
def _replace(rt: Runtime, a: list[Any]) -> Any:
    if any(v is None for v in a):
        return None
    return _str("replace", a[0]).replace(_str("replace", a[1]), _str("replace", a[2]))


@_fn("split", nulls=False)
def _split(rt: Runtime, a: list[Any]) -> Any:
    if a[0] is None or a[1] is None:
        return None
    s = _str("split", a[0])
    sep = a[1]
    if isinstance(sep, list):
        parts = [s]
        for d in sep:
            parts = [
                p for piece in parts for p in (piece.split(_str("split", d)) if d else list(piece))
            ]
        return parts
    sep = _str("split", sep)
    return s.split(sep) if sep else list(s)


_NORMAL_FORMS: tuple[Literal["NFC", "NFD", "NFKC", "NFKD"], ...] = ("NFC", "NFD", "NFKC", "NFKD")


@_fn("normalize")
def _normalize(rt: Runtime, a: list[Any]) -> Any:
    form = a[1] if len(a) > 1 else "NFC"
    for known in _NORMAL_FORMS:
        if form == known:
            return unicodedata.normalize(known, _str("normalize", a[0]))
    raise EvaluationError(f"unknown normal form {form!r}", category="ArgumentError")


# -- conversions -------------------------------------------------------------------------------


def to_string(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return format_float(v)
    if isinstance(v, str):
        return v
    if isinstance(v, tm.TEMPORAL_TYPES):
        return str(v)
    raise _value_error("toString", v)


def _to_integer(v: Any) -> int | None:
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, int):
        return v
    if isinstance(v, float):
        if math.isnan(v) or math.isinf(v):
            raise EvaluationError(
                "cannot convert a non-finite float to an integer", category="ArgumentError"
            )
        return check_int(int(v))
    if isinstance(v, str):
        text = v.strip()
        try:
            return check_int(int(text, 10))
        except ValueError:
            pass
        f = _parse_float(text)
        if f is None or math.isnan(f) or math.isinf(f):
            return None
        return check_int(int(f))
    raise _value_error("toInteger", v)


def _parse_float(text: str) -> float | None:
    text = text.strip()
    if not text or (
        text.lower().lstrip("+-") in ("nan", "inf", "infinity")
        and text not in ("NaN", "Infinity", "-Infinity")
    ):
        return None
    try:
        return float(text)
    except ValueError:
        return None


def _to_float(v: Any) -> float | None:
    if isinstance(v, bool):
        raise _value_error("toFloat", v)
    if isinstance(v, (int, float)):
        return float(v)
    if isinstance(v, str):
        return _parse_float(v)
    raise _value_error("toFloat", v)


def _to_boolean(v: Any) -> bool | None:
    if isinstance(v, bool):
        return v
    if isinstance(v, int):
        return v != 0
    if isinstance(v, str):
        text = v.strip(WHITESPACE).lower()
        return True if text == "true" else False if text == "false" else None
    raise _value_error("toBoolean", v)


def _converter(name: str, fn: Callable[[Any], Any]) -> None:
    @_fn(name)
    def plain(rt: Runtime, a: list[Any]) -> Any:
        return fn(a[0])

    @_fn(name + "ornull")
    def or_null(rt: Runtime, a: list[Any]) -> Any:
        try:
            return fn(a[0])
        except EvaluationError:
            return None

    @_fn(name + "list")
    def as_list(rt: Runtime, a: list[Any]) -> Any:
        if not isinstance(a[0], list):
            raise _arg_type_error(name + "List", a[0], "TypeError")
        out = []
        for item in a[0]:
            try:
                out.append(None if item is None else fn(item))
            except EvaluationError:
                out.append(None)
        return out


_converter("tostring", to_string)
_converter("tointeger", _to_integer)
_converter("tofloat", _to_float)
_converter("toboolean", _to_boolean)


@_fn("valuetype", nulls=False)
def _value_type(rt: Runtime, a: list[Any]) -> Any:
    v = a[0]
    if v is None:
        return "NULL"
    if isinstance(v, list):
        kinds = {type_name(x) for x in v}
        inner = kinds.pop() if len(kinds) == 1 else "ANY"
        return f"LIST<{inner} NOT NULL> NOT NULL" if None not in v else f"LIST<{inner}> NOT NULL"
    return f"{type_name(v)} NOT NULL"


# -- temporal ----------------------------------------------------------------------------------

_TEMPORAL_KINDS = ("date", "localtime", "time", "localdatetime", "datetime")


def _temporal_constructor(kind: str) -> None:
    @_fn(kind, nulls=False)
    def construct(rt: Runtime, a: list[Any]) -> Any:
        return tm.construct(kind, a[0] if a else ..., rt.now, rt.zone)

    def clock(rt: Runtime, a: list[Any]) -> Any:
        if a and a[0] is None:
            return None
        zone = rt.zone
        if a:
            tz = a[0]
            if isinstance(tz, dict):
                tz = tz.get("timezone")
            if not isinstance(tz, str):
                raise _arg_type_error(kind, a[0], "TypeError")
            zone = tm.Zone.parse(tz)
        return tm.construct(kind, ..., rt.now, zone)

    for suffix in ("statement", "transaction", "realtime"):
        _FUNCTIONS[f"{kind}.{suffix}"] = clock

    @_fn(f"{kind}.truncate", nulls=False)
    def truncate(rt: Runtime, a: list[Any]) -> Any:
        fields = a[2] if len(a) > 2 else None
        if fields is not None and not isinstance(fields, dict):
            raise _arg_type_error(f"{kind}.truncate", fields, "TypeError")
        return tm.truncate(kind, a[0], a[1], fields, rt.zone)


for _kind in _TEMPORAL_KINDS:
    _temporal_constructor(_kind)


@_fn("duration", nulls=True)
def _duration(rt: Runtime, a: list[Any]) -> Any:
    return tm.construct("duration", a[0], rt.now, rt.zone)


@_fn("duration.between", nulls=False)
def _between(rt: Runtime, a: list[Any]) -> Any:
    return tm.duration_between(a[0], a[1])


@_fn("duration.inmonths", nulls=False)
def _in_months(rt: Runtime, a: list[Any]) -> Any:
    return tm.duration_between(a[0], a[1], "months")


@_fn("duration.indays", nulls=False)
def _in_days(rt: Runtime, a: list[Any]) -> Any:
    return tm.duration_between(a[0], a[1], "days")


@_fn("duration.inseconds", nulls=False)
def _in_seconds(rt: Runtime, a: list[Any]) -> Any:
    return tm.duration_between(a[0], a[1], "seconds")


@_fn("datetime.fromepoch", nulls=False)
def _from_epoch(rt: Runtime, a: list[Any]) -> Any:
    if a[0] is None or a[1] is None:
        return None
    return tm.construct("datetime", {"epochSeconds": a[0], "nanosecond": a[1]}, rt.now, rt.zone)


@_fn("datetime.fromepochmillis")
def _from_epoch_millis(rt: Runtime, a: list[Any]) -> Any:
    return tm.construct("datetime", {"epochMillis": a[0]}, rt.now, rt.zone)


@_fn("timestamp", nulls=False)
def _timestamp(rt: Runtime, a: list[Any]) -> Any:
    return rt.now.epoch_nanos() // 1_000_000


# -- types -------------------------------------------------------------------------------------

_TYPE_CHECKS: dict[str, Callable[[Any], bool]] = {
    "ANY": lambda v: True,
    "NOTHING": lambda v: False,
    "NULL": lambda v: v is None,
    "BOOLEAN": lambda v: isinstance(v, bool),
    "INTEGER": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "FLOAT": lambda v: isinstance(v, float),
    "NUMBER": is_number,
    "STRING": lambda v: isinstance(v, str),
    "LIST": lambda v: isinstance(v, list),
    "MAP": lambda v: isinstance(v, dict),
    "NODE": lambda v: isinstance(v, Node),
    "RELATIONSHIP": lambda v: isinstance(v, Relationship),
    "PATH": lambda v: isinstance(v, Path),
    "DATE": lambda v: isinstance(v, tm.Date),
    "LOCAL TIME": lambda v: isinstance(v, tm.LocalTime),
    "ZONED TIME": lambda v: isinstance(v, tm.Time),
    "LOCAL DATETIME": lambda v: isinstance(v, tm.LocalDateTime),
    "ZONED DATETIME": lambda v: isinstance(v, tm.DateTime),
    "DURATION": lambda v: isinstance(v, tm.Duration),
    "PROPERTY VALUE": lambda v: not isinstance(v, (dict, Node, Relationship, Path)),
}


def type_matches(v: Any, t: ir.TypeRef) -> bool:
    """``v IS :: t`` (null is of every nullable type)."""
    if t.alternatives:
        return any(type_matches(v, alt) for alt in t.alternatives)
    if v is None:
        return not t.not_null and t.name != "NOTHING"
    check = _TYPE_CHECKS.get(t.name)
    if check is None:
        raise unsupported(f"the type {t.name}")
    if not check(v):
        return False
    if t.name == "LIST" and t.element is not None:
        return all(type_matches(x, t.element) for x in v)
    return True


def cast(v: Any, t: ir.TypeRef) -> Any:
    """``CAST(v AS t)``: the conversion, or an error when there is none."""
    if v is None:
        return None
    converters: dict[str, Callable[[Any], Any]] = {
        "STRING": to_string,
        "INTEGER": _to_integer,
        "FLOAT": _to_float,
        "BOOLEAN": _to_boolean,
    }
    fn = converters.get(t.name)
    if fn is None:
        if type_matches(v, t):
            return v
        raise unsupported(f"CAST to {t.name}")
    result = fn(v)
    if result is None:
        raise EvaluationError(
            f"cannot cast {type_name(v)} to {t.name}",
            category="TypeError",
            detail="InvalidArgumentValue",
        )
    return result


def _register_googlesql() -> None:
    """GoogleSQL's own functions (:mod:`gqlir.eval.googlesql`), for Spanner text read back."""
    from . import googlesql

    for name, fn in googlesql.FUNCTIONS.items():
        _FUNCTIONS.setdefault(name, fn)


_register_googlesql()
