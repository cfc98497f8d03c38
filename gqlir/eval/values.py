"""The value model of the reference evaluator and openCypher's rules for it.

Values are plain Python objects: ``None`` (null), ``bool``, ``int`` (64-bit, checked), ``float``,
``str``, ``list``, ``dict`` (string keys), the graph records :class:`~gqlir.eval.graph.Node` and
:class:`~gqlir.eval.graph.Relationship`, :class:`Path`, and the temporal values of
:mod:`gqlir.eval.temporal`. Python's ``bool`` is an ``int``: every test here checks ``bool`` first.

Four relations, as openCypher defines them, because they differ on purpose:

* **equality** (``=``): three-valued; null or a null inside a list/map makes it unknown; 1 = 1.0;
  NaN equals nothing.
* **comparison** (``<`` …): only between values of one comparable kind, else null.
* **orderability** (ORDER BY): a total order over every value, across types.
* **equivalence** (DISTINCT, grouping, UNION): like equality, but null ≡ null and NaN ≡ NaN.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, TypeGuard

from ..errors import EvaluationError
from . import temporal as tm
from .graph import Node, Relationship

__all__ = [
    "INT_MAX",
    "INT_MIN",
    "Path",
    "and3",
    "check_int",
    "compare",
    "equals",
    "equivalence_key",
    "format_float",
    "is_property_value",
    "not3",
    "or3",
    "order_compare",
    "to_display",
    "truth",
    "type_name",
    "xor3",
]

INT_MIN = -(2**63)
INT_MAX = 2**63 - 1


@dataclass(frozen=True, slots=True, eq=False)
class Path:
    """An alternating sequence of nodes and relationships; ``nodes`` has one more entry."""

    nodes: tuple[Node, ...]
    relationships: tuple[Relationship, ...]

    def __len__(self) -> int:
        return len(self.relationships)


def type_name(v: Any) -> str:
    """The value's type as ``valueType()`` and error messages name it."""
    if v is None:
        return "NULL"
    if isinstance(v, bool):
        return "BOOLEAN"
    if isinstance(v, int):
        return "INTEGER"
    if isinstance(v, float):
        return "FLOAT"
    if isinstance(v, str):
        return "STRING"
    if isinstance(v, list):
        return "LIST"
    if isinstance(v, dict):
        return "MAP"
    if isinstance(v, Node):
        return "NODE"
    if isinstance(v, Relationship):
        return "RELATIONSHIP"
    if isinstance(v, Path):
        return "PATH"
    return {
        tm.Date: "DATE",
        tm.LocalTime: "LOCAL TIME",
        tm.Time: "ZONED TIME",
        tm.LocalDateTime: "LOCAL DATETIME",
        tm.DateTime: "ZONED DATETIME",
        tm.Duration: "DURATION",
    }.get(type(v), type(v).__name__)


def is_number(v: object) -> TypeGuard[int | float]:
    """An int or a float, not a bool (a TypeGuard, not TypeIs: a bool is an int, and no number)."""
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def check_int(v: int) -> int:
    """``v`` if it fits in 64 bits; integer arithmetic overflow is an error, never a wrap."""
    if INT_MIN <= v <= INT_MAX:
        return v
    raise EvaluationError("integer overflow", category="ArithmeticError", detail="IntegerOverflow")


# ---------------------------------------------------------------------------------------------
# three-valued logic
# ---------------------------------------------------------------------------------------------


def truth(v: Any, what: str = "a predicate") -> bool | None:
    """``v`` as a truth value: booleans and null only (anything else is a type error)."""
    if v is None or isinstance(v, bool):
        return v
    raise EvaluationError(
        f"{what} must be a boolean, not {type_name(v)}",
        category="TypeError",
        detail="InvalidArgumentType",
    )


def and3(a: bool | None, b: bool | None) -> bool | None:
    if a is False or b is False:
        return False
    if a is None or b is None:
        return None
    return True


def or3(a: bool | None, b: bool | None) -> bool | None:
    if a is True or b is True:
        return True
    if a is None or b is None:
        return None
    return False


def xor3(a: bool | None, b: bool | None) -> bool | None:
    if a is None or b is None:
        return None
    return a != b


def not3(a: bool | None) -> bool | None:
    return None if a is None else not a


# ---------------------------------------------------------------------------------------------
# equality
# ---------------------------------------------------------------------------------------------


def equals(a: Any, b: Any) -> bool | None:
    """Cypher ``a = b``: True, False, or None (unknown)."""
    if a is None or b is None:
        return None
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b if isinstance(a, bool) and isinstance(b, bool) else False
    if is_number(a):
        return is_number(b) and a == b
    if isinstance(a, str):
        return isinstance(b, str) and a == b
    if isinstance(a, list):
        if not isinstance(b, list):
            return False
        if len(a) != len(b):
            return False
        return _all_equal(zip(a, b))
    if isinstance(a, dict):
        if not isinstance(b, dict):
            return False
        if a.keys() != b.keys():
            return False
        return _all_equal((a[k], b[k]) for k in a)
    if isinstance(a, Node):
        return isinstance(b, Node) and a.id == b.id
    if isinstance(a, Relationship):
        return isinstance(b, Relationship) and a.id == b.id
    if isinstance(a, Path):
        return isinstance(b, Path) and _path_ids(a) == _path_ids(b)
    if isinstance(a, tm.TEMPORAL_TYPES):
        return tm.equal(a, b)
    return False


def _all_equal(pairs: Any) -> bool | None:
    unknown = False
    for x, y in pairs:
        r = equals(x, y)
        if r is False:
            return False
        if r is None:
            unknown = True
    return None if unknown else True


def _path_ids(p: Path) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return tuple(n.id for n in p.nodes), tuple(r.id for r in p.relationships)


# ---------------------------------------------------------------------------------------------
# comparison (<, <=, >, >=)
# ---------------------------------------------------------------------------------------------


def compare(a: Any, b: Any) -> int | None:
    """-1/0/1 when ``a`` and ``b`` are comparable, None when the comparison is unknown (null,
    NaN, or values of different kinds)."""
    if a is None or b is None:
        return None
    if is_number(a) and is_number(b):
        if (isinstance(a, float) and math.isnan(a)) or (isinstance(b, float) and math.isnan(b)):
            return None
        return (a > b) - (a < b)
    if isinstance(a, bool) and isinstance(b, bool):
        return (a > b) - (a < b)
    if isinstance(a, str) and isinstance(b, str):
        return _string_compare(a, b)
    if isinstance(a, list) and isinstance(b, list):
        for x, y in zip(a, b):
            if equals(x, y) is True:
                continue
            return compare(x, y)
        return (len(a) > len(b)) - (len(a) < len(b))
    if isinstance(a, tm.TEMPORAL_TYPES) and isinstance(b, tm.TEMPORAL_TYPES):
        return tm.compare(a, b)
    return None


def _string_compare(a: str, b: str) -> int:
    """Strings order by UTF-16 code units, as in Java (so astral characters sort as surrogates)."""
    if a.isascii() and b.isascii():
        return (a > b) - (a < b)
    ka, kb = a.encode("utf-16-be"), b.encode("utf-16-be")
    return (ka > kb) - (ka < kb)


# ---------------------------------------------------------------------------------------------
# orderability (ORDER BY): a total order across all values
# ---------------------------------------------------------------------------------------------

# ascending: maps, nodes, relationships, lists, paths, temporal types, strings, booleans,
# numbers, null
_RANK: dict[type, int] = {
    dict: 0,
    Node: 1,
    Relationship: 2,
    list: 3,
    Path: 4,
    tm.DateTime: 5,
    tm.LocalDateTime: 6,
    tm.Date: 7,
    tm.Time: 8,
    tm.LocalTime: 9,
    tm.Duration: 10,
    str: 11,
    bool: 12,
    int: 13,
    float: 13,
}
_NULL_RANK = 14


def _rank(v: Any) -> int:
    if v is None:
        return _NULL_RANK
    return _RANK.get(type(v), 13)


def order_compare(a: Any, b: Any) -> int:
    """The global sort order: -1, 0 or 1 for any two values (null sorts last)."""
    ra, rb = _rank(a), _rank(b)
    if ra != rb:
        return -1 if ra < rb else 1
    if ra == _NULL_RANK:
        return 0
    if ra == 13:
        a_nan = isinstance(a, float) and math.isnan(a)
        b_nan = isinstance(b, float) and math.isnan(b)
        if a_nan or b_nan:
            return (a_nan > b_nan) - (a_nan < b_nan)  # NaN after every number
        return (a > b) - (a < b)
    if ra in (11, 12):
        return compare(a, b) or 0
    if ra == 3:
        for x, y in zip(a, b):
            c = order_compare(x, y)
            if c:
                return c
        return (len(a) > len(b)) - (len(a) < len(b))
    if ra == 0:
        ka, kb = sorted(a), sorted(b)
        for x, y in zip(ka, kb):
            c = _string_compare(x, y)
            if c:
                return c
            c = order_compare(a[x], b[y])
            if c:
                return c
        return (len(ka) > len(kb)) - (len(ka) < len(kb))
    if ra in (1, 2):
        return (a.id > b.id) - (a.id < b.id)
    if ra == 4:
        return order_compare(_path_as_list(a), _path_as_list(b))
    sa, sb = tm.sort_key(a), tm.sort_key(b)
    return (sa > sb) - (sa < sb)


def _path_as_list(p: Path) -> list[Any]:
    out: list[Any] = [p.nodes[0]]
    for r, n in zip(p.relationships, p.nodes[1:]):
        out.extend((r, n))
    return out


# ---------------------------------------------------------------------------------------------
# equivalence (DISTINCT, grouping keys, UNION)
# ---------------------------------------------------------------------------------------------


def equivalence_key(v: Any) -> Any:
    """A hashable key: two values have the same key iff they are equivalent (null ≡ null,
    NaN ≡ NaN, 1 ≡ 1.0, lists and maps element-wise)."""
    if v is None:
        return ("null",)
    if isinstance(v, bool):
        return ("bool", v)
    if isinstance(v, int):
        return ("num", v)
    if isinstance(v, float):
        if math.isnan(v):
            return ("nan",)
        if v.is_integer() and INT_MIN <= v <= INT_MAX:
            return ("num", int(v))
        return ("num", v)
    if isinstance(v, str):
        return ("str", v)
    if isinstance(v, list):
        return ("list", tuple(equivalence_key(x) for x in v))
    if isinstance(v, dict):
        return ("map", tuple(sorted((k, equivalence_key(x)) for k, x in v.items())))
    if isinstance(v, Node):
        return ("node", v.id)
    if isinstance(v, Relationship):
        return ("rel", v.id)
    if isinstance(v, Path):
        return ("path", _path_ids(v))
    if isinstance(v, tm.TEMPORAL_TYPES):
        return (type(v).__name__, tm.sort_key(v))
    return ("other", repr(v))


# ---------------------------------------------------------------------------------------------
# property values
# ---------------------------------------------------------------------------------------------


def is_property_value(v: Any) -> bool:
    """Whether ``v`` may be stored as a property: a scalar, or a list of scalars of one type."""
    if isinstance(v, (bool, int, float, str, *tm.TEMPORAL_TYPES)):
        return True
    if isinstance(v, list):
        kinds = {_scalar_kind(x) for x in v}
        return None not in kinds and len(kinds) <= 1
    return False


def _scalar_kind(v: Any) -> str | None:
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, (int, float)):
        return "number"
    if isinstance(v, str):
        return "str"
    if isinstance(v, tm.TEMPORAL_TYPES):
        return type(v).__name__
    return None


# ---------------------------------------------------------------------------------------------
# text
# ---------------------------------------------------------------------------------------------


def format_float(f: float) -> str:
    """A float as Java's ``Double.toString`` writes it (``1.0``, ``1.0E20``, ``1.0E-5``): the
    shortest digits that round-trip, positional between 10^-3 and 10^7, else ``d.dddE±n``."""
    if math.isnan(f):
        return "NaN"
    if math.isinf(f):
        return "Infinity" if f > 0 else "-Infinity"
    if f == 0:
        return "-0.0" if math.copysign(1.0, f) < 0 else "0.0"
    if 1e-3 <= abs(f) < 1e7:
        return repr(f)  # Python's repr is positional in this range and has the same digits
    digits_tuple = Decimal(repr(abs(f))).as_tuple()
    digits = "".join(map(str, digits_tuple.digits)).rstrip("0") or "0"
    exponent = len(digits_tuple.digits) + int(digits_tuple.exponent) - 1
    sign = "-" if f < 0 else ""
    return f"{sign}{digits[0]}.{digits[1:] or '0'}E{exponent}"


def to_display(v: Any) -> str:
    """A value as the TCK and ``gqlir run`` print it: ``'text'``, ``(:L {k: 1})``, ``[:T]``,
    ``<(a)-[:T]->(b)>``, temporal values as quoted ISO text."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return format_float(v)
    if isinstance(v, str):
        return "'" + v.replace("\\", "\\\\").replace("'", "\\'") + "'"
    if isinstance(v, list):
        return "[" + ", ".join(to_display(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {to_display(x)}" for k, x in v.items()) + "}"
    if isinstance(v, Node):
        labels = "".join(f":{lab}" for lab in sorted(v.labels))
        props = _display_props(v.properties)
        return f"({labels}{' ' if labels and props else ''}{props})"
    if isinstance(v, Relationship):
        props = _display_props(v.properties)
        return f"[:{v.type}{' ' if props else ''}{props}]"
    if isinstance(v, Path):
        out = [to_display(v.nodes[0])]
        current = v.nodes[0]
        for rel, nxt in zip(v.relationships, v.nodes[1:]):
            text = to_display(rel)
            if rel.start == current.id:
                out.append(f"-{text}->")
            else:
                out.append(f"<-{text}-")
            out.append(to_display(nxt))
            current = nxt
        return "<" + "".join(out) + ">"
    if isinstance(v, tm.TEMPORAL_TYPES):
        return f"'{v}'"
    return repr(v)


def _display_props(props: dict[str, Any]) -> str:
    if not props:
        return ""
    return "{" + ", ".join(f"{k}: {to_display(x)}" for k, x in props.items()) + "}"
