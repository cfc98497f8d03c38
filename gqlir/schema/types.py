"""The value types of schema properties, and how each target spells them.

One :class:`PropertyType` per meaning, independent of any target: ``INT32`` is a 32-bit signed
integer everywhere, ``DATETIME`` is an instant with a time zone (GQL ``ZONED DATETIME``, SQL
``TIMESTAMP WITH TIME ZONE``, Neo4j ``ZONED DATETIME``, Kuzu ``TIMESTAMP_TZ``, Spanner
``TIMESTAMP``), ``LOCAL_DATETIME`` is one without (SQL ``TIMESTAMP``, Kuzu ``TIMESTAMP``,
TuGraph ``DATETIME``).

The per-target spellings are data (:data:`TARGETS`), not code: each :class:`TypeTable` says
how a kind is written (a template) and which names read back as which type. A kind a target
cannot hold has no entry; writers then fall back to the table's ``fallback`` (usually a
string) and the round-trip check of :mod:`gqlir.schema.formats` reports the change. The reference
tools lose information here (Text2GQL-Bench's Spanner translator writes ``DATETIME`` as
``STRING``, CypherBench maps every Neo4j ``LIST`` to ``list[str]``); gqlir uses the target's own
temporal and exact-numeric types wherever the target has them.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass, field

from ..errors import SchemaError


class TypeKind(enum.Enum):
    BOOLEAN = "BOOLEAN"
    INT8 = "INT8"
    INT16 = "INT16"
    INT32 = "INT32"
    INT64 = "INT64"
    UINT8 = "UINT8"
    UINT16 = "UINT16"
    UINT32 = "UINT32"
    UINT64 = "UINT64"
    FLOAT32 = "FLOAT32"
    FLOAT64 = "FLOAT64"
    DECIMAL = "DECIMAL"  # exact numeric with precision and scale
    STRING = "STRING"  # optional maximum length
    BYTES = "BYTES"  # optional maximum length
    DATE = "DATE"
    TIME = "TIME"  # time of day with a time-zone offset (GQL ZONED TIME)
    LOCAL_TIME = "LOCAL_TIME"
    DATETIME = "DATETIME"  # instant with a time-zone offset (GQL ZONED DATETIME)
    LOCAL_DATETIME = "LOCAL_DATETIME"
    DURATION = "DURATION"
    POINT = "POINT"  # a spatial point (Neo4j POINT, TuGraph POINT)
    LIST = "LIST"  # homogeneous list of ``element``
    MAP = "MAP"  # string keys to values of ``value`` (any when None)
    JSON = "JSON"
    UUID = "UUID"
    ANY = "ANY"  # values of mixed or unknown type (e.g. read from a schema-free database)


INTEGER_KINDS = frozenset(
    {
        TypeKind.INT8,
        TypeKind.INT16,
        TypeKind.INT32,
        TypeKind.INT64,
        TypeKind.UINT8,
        TypeKind.UINT16,
        TypeKind.UINT32,
        TypeKind.UINT64,
    }
)


_TEMPORAL_VALUE_KINDS = {
    TypeKind.DATE: "date",
    TypeKind.LOCAL_DATETIME: "localdatetime",
    TypeKind.DATETIME: "datetime",
    TypeKind.LOCAL_TIME: "localtime",
    TypeKind.TIME: "time",
}


def value_kind(kind: TypeKind) -> str:
    """What a value of a property of type ``kind`` is, as the translators reason about types:
    int, float (DECIMAL included), string, bool, one of the temporal kinds (date,
    localdatetime, datetime, localtime, time), or other."""
    if kind in INTEGER_KINDS:
        return "int"
    if kind in (TypeKind.FLOAT32, TypeKind.FLOAT64, TypeKind.DECIMAL):
        return "float"
    if kind == TypeKind.STRING:
        return "string"
    if kind == TypeKind.BOOLEAN:
        return "bool"
    return _TEMPORAL_VALUE_KINDS.get(kind, "other")


FLOAT_KINDS = frozenset({TypeKind.FLOAT32, TypeKind.FLOAT64})
NUMERIC_KINDS = INTEGER_KINDS | FLOAT_KINDS | {TypeKind.DECIMAL}
TEMPORAL_KINDS = frozenset(
    {
        TypeKind.DATE,
        TypeKind.TIME,
        TypeKind.LOCAL_TIME,
        TypeKind.DATETIME,
        TypeKind.LOCAL_DATETIME,
        TypeKind.DURATION,
    }
)

# The inclusive value range of each integer kind (used by the graph-data validator).
INTEGER_RANGES: dict[TypeKind, tuple[int, int]] = {
    TypeKind.INT8: (-(2**7), 2**7 - 1),
    TypeKind.INT16: (-(2**15), 2**15 - 1),
    TypeKind.INT32: (-(2**31), 2**31 - 1),
    TypeKind.INT64: (-(2**63), 2**63 - 1),
    TypeKind.UINT8: (0, 2**8 - 1),
    TypeKind.UINT16: (0, 2**16 - 1),
    TypeKind.UINT32: (0, 2**32 - 1),
    TypeKind.UINT64: (0, 2**64 - 1),
}


@dataclass(frozen=True, slots=True)
class PropertyType:
    """A property's value type. Parameters only for the kinds that take them: ``length`` for
    STRING/BYTES, ``precision``/``scale`` for DECIMAL, ``element`` for LIST, ``value`` for MAP."""

    kind: TypeKind
    length: int | None = None
    precision: int | None = None
    scale: int | None = None
    element: PropertyType | None = None
    value: PropertyType | None = None

    def __post_init__(self) -> None:
        if self.length is not None and self.kind not in (TypeKind.STRING, TypeKind.BYTES):
            raise SchemaError(f"{self.kind.value} takes no length")
        if (self.precision is not None or self.scale is not None) and self.kind != TypeKind.DECIMAL:
            raise SchemaError(f"{self.kind.value} takes no precision or scale")
        if self.kind == TypeKind.DECIMAL and self.precision is None and self.scale is not None:
            raise SchemaError("DECIMAL with a scale needs a precision")
        if (
            self.precision is not None
            and self.scale is not None
            and not 0 <= self.scale <= self.precision
        ):
            raise SchemaError(f"DECIMAL({self.precision},{self.scale}): scale out of range")
        if self.element is not None and self.kind != TypeKind.LIST:
            raise SchemaError(f"{self.kind.value} has no element type")
        if self.kind == TypeKind.LIST and self.element is None:
            raise SchemaError("LIST needs an element type")
        if self.value is not None and self.kind != TypeKind.MAP:
            raise SchemaError(f"{self.kind.value} has no value type")

    def __str__(self) -> str:
        k = self.kind
        if k == TypeKind.LIST:
            return f"LIST<{self.element}>"
        if k == TypeKind.MAP:
            return f"MAP<{self.value}>" if self.value is not None else "MAP"
        if k == TypeKind.DECIMAL and self.precision is not None:
            if self.scale is None:
                return f"DECIMAL({self.precision})"
            return f"DECIMAL({self.precision},{self.scale})"
        if self.length is not None:
            return f"{k.value}({self.length})"
        return k.value

    @property
    def is_numeric(self) -> bool:
        return self.kind in NUMERIC_KINDS


def T(kind: TypeKind | str, **params: object) -> PropertyType:
    """Shorthand: ``T("INT64")``, ``T(TypeKind.LIST, element=T("STRING"))``."""
    if isinstance(kind, str):
        kind = TypeKind(kind)
    return PropertyType(kind, **params)  # type: ignore[arg-type]


# -- canonical text ------------------------------------------------------------------------------

_SPACED = {
    "LOCAL TIME": "LOCAL_TIME",
    "LOCAL DATETIME": "LOCAL_DATETIME",
    "ZONED TIME": "TIME",
    "ZONED DATETIME": "DATETIME",
}
_TOKEN = re.compile(
    r"\s*(?:(?P<word>[A-Za-z_][A-Za-z_0-9 ]*?)(?=\s*[<>(),]|\s*$)|(?P<num>\d+)|(?P<p>[<>(),]))"
)


def parse_type(text: str) -> PropertyType:
    """Parse gqlir's canonical type text (as :func:`str` of a :class:`PropertyType` writes it).

    Accepted: the :class:`TypeKind` names (``LOCAL DATETIME`` with a space too, and GQL's
    ``ZONED TIME`` / ``ZONED DATETIME``), ``STRING(n)``, ``BYTES(n)``, ``DECIMAL(p[,s])``,
    ``LIST<T>`` and ``MAP[<T>]``. Anything else is a :class:`SchemaError`.
    """
    tokens = _tokenize(text)
    t, rest = _parse(tokens, 0, text)
    if rest != len(tokens):
        raise SchemaError(f"unexpected text after the type in {text!r}")
    return t


def _tokenize(text: str) -> list[str]:
    out: list[str] = []
    pos = 0
    text = text.strip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise SchemaError(f"not a type: {text!r}")
        out.append((m.group("word") or m.group("num") or m.group("p")).strip())
        pos = m.end()
    return out


def _parse(tokens: list[str], i: int, text: str) -> tuple[PropertyType, int]:
    if i >= len(tokens):
        raise SchemaError(f"incomplete type: {text!r}")
    word = " ".join(tokens[i].upper().split())
    word = _SPACED.get(word, word)
    try:
        kind = TypeKind(word)
    except ValueError:
        raise SchemaError(f"unknown type {tokens[i]!r} in {text!r}") from None
    i += 1

    def take(tok: str) -> bool:
        nonlocal i
        if i < len(tokens) and tokens[i] == tok:
            i += 1
            return True
        return False

    def number() -> int:
        nonlocal i
        if i >= len(tokens) or not tokens[i].isdigit():
            raise SchemaError(f"expected a number in {text!r}")
        i += 1
        return int(tokens[i - 1])

    if kind in (TypeKind.LIST, TypeKind.MAP) and take("<"):
        inner, i = _parse(tokens, i, text)
        if not take(">"):
            raise SchemaError(f"missing '>' in {text!r}")
        if kind == TypeKind.LIST:
            return PropertyType(kind, element=inner), i
        return PropertyType(kind, value=inner), i
    if kind == TypeKind.DECIMAL and take("("):
        p = number()
        s = number() if take(",") else None
        if not take(")"):
            raise SchemaError(f"missing ')' in {text!r}")
        return PropertyType(kind, precision=p, scale=s), i
    if kind in (TypeKind.STRING, TypeKind.BYTES) and take("("):
        n = number()
        if not take(")"):
            raise SchemaError(f"missing ')' in {text!r}")
        return PropertyType(kind, length=n), i
    return PropertyType(kind), i


# -- per-target spellings ------------------------------------------------------------------------


@dataclass(frozen=True)
class TypeTable:
    """How one target spells types.

    ``write`` maps a kind to a template; ``{n}`` is the length, ``{p}``/``{s}`` precision and
    scale, ``{element}``/``{value}`` the rendered inner type. A ``"|"`` separates the template
    used without parameters from the one used with them (``"STRING|STRING({n})"``).
    ``read`` maps upper-cased names (after parameters are stripped) to kinds. ``list_forms``
    says how lists are written: ``"angle"`` (``LIST<T>``), ``"suffix"`` (``T[]``).
    ``widen`` gives, for a kind the target lacks, the nearest type it has (a wider integer,
    a float for an exact decimal); ``fallback`` is written for the other kinds it lacks.
    """

    name: str
    write: dict[TypeKind, str]
    read: dict[str, TypeKind | PropertyType]
    list_forms: tuple[str, ...] = ("angle",)
    list_keyword: str = "LIST"
    map_keyword: str | None = None
    fallback: PropertyType = field(default_factory=lambda: PropertyType(TypeKind.STRING))
    widen: dict[TypeKind, PropertyType] = field(default_factory=dict)
    source: str = ""

    def can_write(self, t: PropertyType) -> bool:
        """Whether the target holds ``t`` exactly."""
        if t.kind not in self.write:
            return False
        template = self.write[t.kind]
        if t.length is not None and "{n}" not in template:
            return False
        if t.precision is not None and "{p}" not in template:
            return False
        if t.precision is not None and t.scale is None and "{s}" in template:
            return False  # written as DECIMAL(p,0): not the same type text
        if t.element is not None:
            return self.can_write(t.element)
        if t.value is not None:
            return self.can_write(t.value)
        return True

    def substitute(self, t: PropertyType) -> PropertyType:
        """``t`` if the target holds it, else the nearest type it has: a wider one from
        :attr:`widen` (INT32 → INT64 where there is no INT32), else :attr:`fallback`."""
        k = t.kind
        if k == TypeKind.LIST and k in self.write and t.element is not None:
            return PropertyType(k, element=self.substitute(t.element))
        if k == TypeKind.MAP and k in self.write and t.value is not None:
            return PropertyType(k, value=self.substitute(t.value))
        if k in self.write:
            template = self.write[k]
            if t.length is not None and "{n}" not in template:
                return PropertyType(k)
            if t.precision is not None and "{p}" not in template:
                return PropertyType(k)
            return t
        if k in self.widen:
            return self.substitute(self.widen[k])
        return self.fallback

    def render(self, t: PropertyType) -> str:
        """The target's spelling of ``t`` (after :meth:`substitute`)."""
        t = self.substitute(t)
        template = self.write[t.kind]
        plain, _, with_params = template.partition("|")
        has_params = t.length is not None or t.precision is not None
        if t.kind == TypeKind.LIST:
            assert t.element is not None
            return plain.format(element=self.render(t.element))
        if t.kind == TypeKind.MAP:
            if t.value is None:
                return plain
            return (with_params or plain).format(value=self.render(t.value))
        if has_params and with_params:
            if t.precision is not None and t.scale is None and "{s}" in with_params:
                return with_params.format(p=t.precision, s=0, n=t.length)
            return with_params.format(n=t.length, p=t.precision, s=t.scale)
        return plain

    def parse(self, text: str) -> PropertyType:
        """The type a target's type text means (raises :class:`SchemaError` for unknown names)."""
        s = " ".join(text.strip().split())
        upper = s.upper()
        if "suffix" in self.list_forms and upper.endswith("[]"):
            return PropertyType(TypeKind.LIST, element=self.parse(s[:-2]))
        m = re.fullmatch(r"([A-Z_][A-Z_0-9 ]*?)\s*\[(.+)\]", s, re.IGNORECASE)
        if m and self.read.get(m.group(1).strip().upper()) == TypeKind.LIST:
            return PropertyType(TypeKind.LIST, element=self.parse(m.group(2)))  # list[str]
        m = re.fullmatch(r"([A-Z_][A-Z_0-9 ]*?)\s*<(.*)>", s, re.IGNORECASE)
        if m:
            head = m.group(1).strip().upper()
            inner = m.group(2).strip()
            kind = self.read.get(head)
            if kind == TypeKind.LIST:
                inner = re.sub(r"\s+NOT\s+NULL$", "", inner, flags=re.IGNORECASE)
                return PropertyType(TypeKind.LIST, element=self.parse(inner))
            if kind == TypeKind.MAP:
                parts = _split_top(inner)
                return PropertyType(TypeKind.MAP, value=self.parse(parts[-1]))
            raise SchemaError(f"{self.name}: unknown type {text!r}")
        m = re.fullmatch(r"([A-Z_][A-Z_0-9 ]*?)\s*\((.*)\)", s, re.IGNORECASE)
        if m:
            head = m.group(1).strip().upper()
            args = [a.strip() for a in _split_top(m.group(2))]
            kind = self.read.get(head)
            if kind is None:
                raise SchemaError(f"{self.name}: unknown type {text!r}")
            if isinstance(kind, PropertyType):
                kind = kind.kind
            if kind == TypeKind.MAP:
                return PropertyType(TypeKind.MAP, value=self.parse(args[-1]))
            if kind == TypeKind.DECIMAL:
                nums = [int(a) for a in args if a.isdigit()]
                if not nums:
                    return PropertyType(kind)
                return PropertyType(
                    kind, precision=nums[0], scale=nums[1] if len(nums) > 1 else None
                )
            if kind in (TypeKind.STRING, TypeKind.BYTES):
                if len(args) == 1 and args[0].isdigit():
                    return PropertyType(kind, length=int(args[0]))
                return PropertyType(kind)  # e.g. Spanner's STRING(MAX)
            raise SchemaError(f"{self.name}: {head} takes no parameters")
        kind = self.read.get(upper)
        if kind is None:
            raise SchemaError(f"{self.name}: unknown type {text!r}")
        if isinstance(kind, PropertyType):
            return kind
        if kind == TypeKind.LIST:
            return PropertyType(TypeKind.LIST, element=PropertyType(TypeKind.ANY))
        return PropertyType(kind)


def _split_top(text: str) -> list[str]:
    """Split on commas that are not nested in brackets."""
    parts: list[str] = []
    cur: list[str] = []
    depth = 0
    for ch in text:
        if ch in "<([":
            depth += 1
        elif ch in ">)]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur))
    return parts


K = TypeKind

# Where a dialect has one 64-bit integer type, narrower ones widen to it (no value is lost).
_SMALL_INTEGERS_AS_INT64 = {
    kind: PropertyType(K.INT64) for kind in (K.INT8, K.INT16, K.INT32, K.UINT8, K.UINT16, K.UINT32)
}

# ISO/IEC 39075:2024 §18.9 <value type>; the predefined type names (also at
# https://opengql.github.io/standard/). No spatial, map or JSON types in GQL.
GQL = TypeTable(
    name="gql",
    write={
        K.BOOLEAN: "BOOLEAN",
        K.INT8: "INT8",
        K.INT16: "INT16",
        K.INT32: "INT32",
        K.INT64: "INT64",
        K.UINT8: "UINT8",
        K.UINT16: "UINT16",
        K.UINT32: "UINT32",
        K.UINT64: "UINT64",
        K.FLOAT32: "FLOAT32",
        K.FLOAT64: "FLOAT64",
        K.DECIMAL: "DECIMAL|DECIMAL({p},{s})",
        K.STRING: "STRING|STRING({n})",
        K.BYTES: "BYTES|BYTES({n})",
        K.DATE: "DATE",
        K.TIME: "ZONED TIME",
        K.LOCAL_TIME: "LOCAL TIME",
        K.DATETIME: "ZONED DATETIME",
        K.LOCAL_DATETIME: "LOCAL DATETIME",
        K.DURATION: "DURATION",
        K.LIST: "LIST<{element}>",
        K.ANY: "ANY",
    },
    read={
        "BOOL": K.BOOLEAN,
        "BOOLEAN": K.BOOLEAN,
        "INT8": K.INT8,
        "INT16": K.INT16,
        "INT32": K.INT32,
        "INT64": K.INT64,
        "INTEGER8": K.INT8,
        "INTEGER16": K.INT16,
        "INTEGER32": K.INT32,
        "INTEGER64": K.INT64,
        "SMALLINT": K.INT16,
        "BIGINT": K.INT64,
        "UINT8": K.UINT8,
        "UINT16": K.UINT16,
        "UINT32": K.UINT32,
        "UINT64": K.UINT64,
        "FLOAT32": K.FLOAT32,
        "FLOAT64": K.FLOAT64,
        "REAL": K.FLOAT32,
        "DOUBLE": K.FLOAT64,
        "DOUBLE PRECISION": K.FLOAT64,
        "DECIMAL": K.DECIMAL,
        "DEC": K.DECIMAL,
        "STRING": K.STRING,
        "VARCHAR": K.STRING,
        "CHAR": K.STRING,
        "BYTES": K.BYTES,
        "VARBINARY": K.BYTES,
        "DATE": K.DATE,
        "ZONED TIME": K.TIME,
        "TIME WITH TIME ZONE": K.TIME,
        "LOCAL TIME": K.LOCAL_TIME,
        "TIME WITHOUT TIME ZONE": K.LOCAL_TIME,
        "ZONED DATETIME": K.DATETIME,
        "TIMESTAMP WITH TIME ZONE": K.DATETIME,
        "LOCAL DATETIME": K.LOCAL_DATETIME,
        "TIMESTAMP WITHOUT TIME ZONE": K.LOCAL_DATETIME,
        "DURATION": K.DURATION,
        "LIST": K.LIST,
        "ARRAY": K.LIST,
        "ANY": K.ANY,
    },
    widen={K.JSON: PropertyType(K.STRING), K.UUID: PropertyType(K.STRING)},
    source="https://www.iso.org/standard/76120.html (ISO/IEC 39075:2024, 18.9 value types)",
)

# Neo4j 5 property types, as used by property type constraints (IS :: TYPE):
# https://neo4j.com/docs/cypher-manual/current/values-and-types/property-structural-constructed/
NEO4J = TypeTable(
    name="neo4j",
    write={
        K.BOOLEAN: "BOOLEAN",
        K.INT64: "INTEGER",
        K.FLOAT64: "FLOAT",
        K.STRING: "STRING",
        K.DATE: "DATE",
        K.TIME: "ZONED TIME",
        K.LOCAL_TIME: "LOCAL TIME",
        K.DATETIME: "ZONED DATETIME",
        K.LOCAL_DATETIME: "LOCAL DATETIME",
        K.DURATION: "DURATION",
        K.POINT: "POINT",
        K.LIST: "LIST<{element} NOT NULL>",
        K.ANY: "ANY",
    },
    read={
        "BOOL": K.BOOLEAN,
        "BOOLEAN": K.BOOLEAN,
        "INT": K.INT64,
        "INTEGER": K.INT64,
        "SIGNED INTEGER": K.INT64,
        "LONG": K.INT64,
        "FLOAT": K.FLOAT64,
        "DOUBLE": K.FLOAT64,
        "STRING": K.STRING,
        "VARCHAR": K.STRING,
        "DATE": K.DATE,
        "ZONED TIME": K.TIME,
        "TIME WITH TIMEZONE": K.TIME,
        "TIME": K.TIME,
        "LOCAL TIME": K.LOCAL_TIME,
        "LOCALTIME": K.LOCAL_TIME,
        "TIME WITHOUT TIMEZONE": K.LOCAL_TIME,
        "ZONED DATETIME": K.DATETIME,
        "DATETIME": K.DATETIME,
        "DATE_TIME": K.DATETIME,
        "TIMESTAMP WITH TIMEZONE": K.DATETIME,
        "LOCAL DATETIME": K.LOCAL_DATETIME,
        "LOCALDATETIME": K.LOCAL_DATETIME,
        "LOCAL_DATE_TIME": K.LOCAL_DATETIME,
        "TIMESTAMP WITHOUT TIMEZONE": K.LOCAL_DATETIME,
        "DURATION": K.DURATION,
        "POINT": K.POINT,
        "LIST": K.LIST,
        "ARRAY": K.LIST,
        "MAP": K.MAP,
        "ANY": K.ANY,
    },
    map_keyword="MAP",
    widen={
        **_SMALL_INTEGERS_AS_INT64,
        K.FLOAT32: PropertyType(K.FLOAT64),
        K.DECIMAL: PropertyType(K.FLOAT64),
    },
    source="https://neo4j.com/docs/cypher-manual/current/values-and-types/",
)

# Kuzu data types: https://docs.kuzudb.com/cypher/data-types/ (no TIME; TIMESTAMP has no zone,
# TIMESTAMP_TZ has one; lists are T[]).
KUZU = TypeTable(
    name="kuzu",
    write={
        K.BOOLEAN: "BOOL",
        K.INT8: "INT8",
        K.INT16: "INT16",
        K.INT32: "INT32",
        K.INT64: "INT64",
        K.UINT8: "UINT8",
        K.UINT16: "UINT16",
        K.UINT32: "UINT32",
        K.UINT64: "UINT64",
        K.FLOAT32: "FLOAT",
        K.FLOAT64: "DOUBLE",
        K.DECIMAL: "DECIMAL|DECIMAL({p},{s})",
        K.STRING: "STRING",
        K.BYTES: "BLOB",
        K.DATE: "DATE",
        K.DATETIME: "TIMESTAMP_TZ",
        K.LOCAL_DATETIME: "TIMESTAMP",
        K.DURATION: "INTERVAL",
        K.LIST: "{element}[]",
        K.MAP: "MAP(STRING, STRING)|MAP(STRING, {value})",
        K.JSON: "JSON",
        K.UUID: "UUID",
    },
    read={
        "BOOL": K.BOOLEAN,
        "BOOLEAN": K.BOOLEAN,
        "INT8": K.INT8,
        "INT16": K.INT16,
        "INT32": K.INT32,
        "INT": K.INT32,
        "INT64": K.INT64,
        "SERIAL": K.INT64,
        "UINT8": K.UINT8,
        "UINT16": K.UINT16,
        "UINT32": K.UINT32,
        "UINT64": K.UINT64,
        "FLOAT": K.FLOAT32,
        "DOUBLE": K.FLOAT64,
        "DECIMAL": K.DECIMAL,
        "STRING": K.STRING,
        "BLOB": K.BYTES,
        "BYTEA": K.BYTES,
        "DATE": K.DATE,
        "TIMESTAMP_TZ": K.DATETIME,
        "TIMESTAMP": K.LOCAL_DATETIME,
        "INTERVAL": K.DURATION,
        "MAP": K.MAP,
        "JSON": K.JSON,
        "UUID": K.UUID,
    },
    list_forms=("suffix",),
    widen={K.POINT: PropertyType(K.STRING)},
    source="https://docs.kuzudb.com/cypher/data-types/",
)

# Spanner GoogleSQL types: https://cloud.google.com/spanner/docs/reference/standard-sql/data-types
# (TIMESTAMP is an absolute point in time; no local datetime, time-of-day or unsigned types;
# NUMERIC is fixed at precision 38, scale 9).
SPANNER = TypeTable(
    name="spanner",
    write={
        K.BOOLEAN: "BOOL",
        K.INT64: "INT64",
        K.FLOAT32: "FLOAT32",
        K.FLOAT64: "FLOAT64",
        K.STRING: "STRING(MAX)|STRING({n})",
        K.BYTES: "BYTES(MAX)|BYTES({n})",
        K.DECIMAL: "NUMERIC",
        K.DATE: "DATE",
        K.DATETIME: "TIMESTAMP",
        K.DURATION: "INTERVAL",
        K.LIST: "ARRAY<{element}>",
        K.JSON: "JSON",
    },
    read={
        "BOOL": K.BOOLEAN,
        "INT64": K.INT64,
        "FLOAT32": K.FLOAT32,
        "FLOAT64": K.FLOAT64,
        "NUMERIC": PropertyType(K.DECIMAL, precision=38, scale=9),
        "STRING": K.STRING,
        "BYTES": K.BYTES,
        "DATE": K.DATE,
        "TIMESTAMP": K.DATETIME,
        "INTERVAL": K.DURATION,
        "ARRAY": K.LIST,
        "JSON": K.JSON,
    },
    widen={
        **_SMALL_INTEGERS_AS_INT64,
        K.UINT64: PropertyType(K.DECIMAL),
        K.LOCAL_DATETIME: PropertyType(K.DATETIME),
    },
    source="https://cloud.google.com/spanner/docs/reference/standard-sql/data-types",
)

# TuGraph field types: https://tugraph-db.readthedocs.io/en/latest/ (data model, "Data types");
# DATETIME has no time zone. No DECIMAL, TIME, DURATION or list types.
TUGRAPH = TypeTable(
    name="tugraph",
    write={
        K.BOOLEAN: "BOOL",
        K.INT8: "INT8",
        K.INT16: "INT16",
        K.INT32: "INT32",
        K.INT64: "INT64",
        K.FLOAT32: "FLOAT",
        K.FLOAT64: "DOUBLE",
        K.STRING: "STRING",
        K.BYTES: "BLOB",
        K.DATE: "DATE",
        K.LOCAL_DATETIME: "DATETIME",
        K.POINT: "POINT",
    },
    read={
        "BOOL": K.BOOLEAN,
        "BOOLEAN": K.BOOLEAN,
        "INT8": K.INT8,
        "INT16": K.INT16,
        "INT32": K.INT32,
        "INT64": K.INT64,
        "LONG": K.INT64,
        "FLOAT": K.FLOAT32,
        "DOUBLE": K.FLOAT64,
        "STRING": K.STRING,
        "TEXT": K.STRING,
        "BLOB": K.BYTES,
        "DATE": K.DATE,
        "DATETIME": K.LOCAL_DATETIME,
        "POINT": K.POINT,
    },
    widen={
        K.UINT8: PropertyType(K.INT16),
        K.UINT16: PropertyType(K.INT32),
        K.UINT32: PropertyType(K.INT64),
        K.DECIMAL: PropertyType(K.FLOAT64),
        K.DATETIME: PropertyType(K.LOCAL_DATETIME),
    },
    source="https://tugraph-db.readthedocs.io/en/latest/ (Data Model / lgraph_import)",
)

# CypherBench's DataType enum (cypherbench/schema.py, https://github.com/megagonlabs/cypherbench)
# plus the list types of its Wikidata schema. "categorical" is a string with few distinct values.
CYPHERBENCH = TypeTable(
    name="cypherbench",
    write={
        K.STRING: "str",
        K.INT64: "int",
        K.FLOAT64: "float",
        K.BOOLEAN: "bool",
        K.DATE: "date",
        K.LIST: "list[{element}]",
    },
    read={
        "STR": K.STRING,
        "CATEGORICAL": K.STRING,
        "INT": K.INT64,
        "FLOAT": K.FLOAT64,
        "BOOL": K.BOOLEAN,
        "DATE": K.DATE,
        "LIST": K.LIST,
    },
    widen={
        **_SMALL_INTEGERS_AS_INT64,
        K.FLOAT32: PropertyType(K.FLOAT64),
        K.DECIMAL: PropertyType(K.FLOAT64),
    },
    source="https://github.com/megagonlabs/cypherbench (cypherbench/schema.py DataType)",
)

TARGETS: dict[str, TypeTable] = {
    t.name: t for t in (GQL, NEO4J, KUZU, SPANNER, TUGRAPH, CYPHERBENCH)
}


def table(name: str) -> TypeTable:
    try:
        return TARGETS[name]
    except KeyError:
        raise SchemaError(f"no type table for target {name!r}") from None
