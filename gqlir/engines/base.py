"""The engine interface and the canonical result table every adapter returns.

An engine runs a query in one of its own dialects (or translates it there through the IR),
with parameters, a timeout, a row cap and an optional read-only guarantee, and answers with a
:class:`ResultTable`: named columns, rows of canonical values, and whether the row order is part
of the result. Canonical values are the ones every engine can be compared on:

* ``None``, ``bool``, ``int``, ``float``, :class:`decimal.Decimal`, ``str``, ``list``, ``dict``;
* graph elements as :class:`NodeValue`, :class:`EdgeValue` and :class:`PathValue` (the engine's
  own element id is kept as text, but comparisons use labels, types and properties: ids are
  not portable between engines);
* temporal values as the reference evaluator's types (:mod:`gqlir.eval.temporal`), so an
  engine's answer and the reference answer are the same kind of value.

Adapters share one :meth:`BaseEngine.run`: it picks the dialect, translates when asked, works
out the ``ordered`` flag from the IR, refuses writes in read-only runs, and hands the engine's
own text to the adapter's ``_execute``.
"""

from __future__ import annotations

import abc
import datetime as _dt
import decimal
import math
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, Self, runtime_checkable

from ..errors import EngineError, GqlirError
from ..eval import temporal as tm

__all__ = [
    "BaseEngine",
    "EdgeValue",
    "Engine",
    "NodeValue",
    "PathValue",
    "Prepared",
    "ResultTable",
    "canonical_key",
    "from_python",
    "json_value",
]


# -- canonical graph values ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True, eq=False)
class NodeValue:
    """A node as an engine returned it. Equality is by :func:`canonical_key` (labels and
    properties), because element ids differ between engines holding the same graph."""

    id: str
    labels: tuple[str, ...]
    properties: Mapping[str, Any]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, NodeValue) and canonical_key(self) == canonical_key(other)

    def __hash__(self) -> int:
        return hash(canonical_key(self))


@dataclass(frozen=True, slots=True, eq=False)
class EdgeValue:
    """A relationship; ``source`` and ``target`` are the engine's ids of its end nodes."""

    id: str
    type: str
    source: str
    target: str
    properties: Mapping[str, Any]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, EdgeValue) and canonical_key(self) == canonical_key(other)

    def __hash__(self) -> int:
        return hash(canonical_key(self))


@dataclass(frozen=True, slots=True, eq=False)
class PathValue:
    """A path: ``nodes`` has one entry more than ``edges``."""

    nodes: tuple[NodeValue, ...]
    edges: tuple[EdgeValue, ...]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PathValue) and canonical_key(self) == canonical_key(other)

    def __hash__(self) -> int:
        return hash(canonical_key(self))


# Floats are compared to this many significant digits: engines sum and average in different
# orders (and DuckDB in 128-bit), so the last bits of an aggregate are not part of its meaning.
FLOAT_DIGITS = 12


def _number_key(v: float | int | decimal.Decimal) -> tuple[Any, ...]:
    if isinstance(v, int):
        return ("num", v)
    f = float(v)
    if math.isnan(f):
        return ("nan",)
    if math.isinf(f):
        return ("num", f)
    if f.is_integer() and abs(f) < 2**63:
        return ("num", int(f))
    return ("num", float(f"{f:.{FLOAT_DIGITS}g}"))


def canonical_key(v: Any) -> Any:
    """A hashable key under which two values from different engines are the same answer:
    1 = 1.0 = Decimal('1'); nodes by labels and properties; edges by type and properties;
    instants by the instant (an engine may give the same instant in another offset)."""
    if v is None:
        return ("null",)
    if isinstance(v, bool):
        return ("bool", v)
    if isinstance(v, (int, float, decimal.Decimal)):
        return _number_key(v)
    if isinstance(v, str):
        return ("str", v)
    if isinstance(v, (list, tuple)):
        return ("list", tuple(canonical_key(x) for x in v))
    if isinstance(v, Mapping):
        return ("map", tuple(sorted((str(k), canonical_key(x)) for k, x in v.items())))
    if isinstance(v, NodeValue):
        return ("node", tuple(sorted(v.labels)), canonical_key(v.properties))
    if isinstance(v, EdgeValue):
        return ("edge", v.type, canonical_key(v.properties))
    if isinstance(v, PathValue):
        return (
            "path",
            tuple(canonical_key(n) for n in v.nodes),
            tuple(canonical_key(e) for e in v.edges),
        )
    if isinstance(v, tm.DateTime):
        return ("instant", v.epoch_nanos())
    if isinstance(v, tm.Time):
        return ("time", v.utc_nanos())
    if isinstance(v, tm.TEMPORAL_TYPES):
        return (type(v).__name__, tm.sort_key(v))
    return ("other", repr(v))


# -- conversions ---------------------------------------------------------------------------------

_NANOS = 1_000_000_000


def _nanos_of(t: _dt.time | _dt.datetime) -> int:
    return ((t.hour * 60 + t.minute) * 60 + t.second) * _NANOS + t.microsecond * 1000


def from_python(v: Any) -> Any:
    """A value from a Python driver (``datetime``, ``Decimal``, tuples …) as a canonical value.
    Graph elements are the adapters' business; everything else goes through here."""
    if v is None or isinstance(v, (bool, int, str, decimal.Decimal)):
        return v
    if isinstance(v, float):
        return v
    if isinstance(v, _dt.datetime):
        date, nanos = v.date(), _nanos_of(v)
        off = v.utcoffset()
        if off is None:
            return tm.LocalDateTime(date, nanos)
        return tm.DateTime(date, nanos, int(off.total_seconds()))
    if isinstance(v, _dt.date):
        return tm.Date(v)
    if isinstance(v, _dt.time):
        off = v.utcoffset()
        if off is None:
            return tm.LocalTime(_nanos_of(v))
        return tm.Time(_nanos_of(v), int(off.total_seconds()))
    if isinstance(v, _dt.timedelta):
        return tm.Duration(0, v.days, v.seconds * _NANOS + v.microseconds * 1000)
    if isinstance(v, (list, tuple)):
        return [from_python(x) for x in v]
    if isinstance(v, Mapping):
        return {str(k): from_python(x) for k, x in v.items()}
    if isinstance(v, (bytes, bytearray, memoryview)):
        return bytes(v).hex()
    if isinstance(v, (NodeValue, EdgeValue, PathValue, *tm.TEMPORAL_TYPES)):
        return v
    return str(v)


def json_value(v: Any) -> Any:
    """A canonical value as JSON: elements as objects, temporal values as ISO 8601 text,
    decimals as numbers, non-finite floats as the strings NaN / Infinity / -Infinity."""
    if isinstance(v, float) and not math.isfinite(v):
        return "NaN" if math.isnan(v) else ("Infinity" if v > 0 else "-Infinity")
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    if isinstance(v, decimal.Decimal):
        return int(v) if v == v.to_integral_value() else float(v)
    if isinstance(v, (list, tuple)):
        return [json_value(x) for x in v]
    if isinstance(v, Mapping):
        return {str(k): json_value(x) for k, x in v.items()}
    if isinstance(v, NodeValue):
        return {"id": v.id, "labels": list(v.labels), "properties": json_value(v.properties)}
    if isinstance(v, EdgeValue):
        return {
            "id": v.id,
            "type": v.type,
            "source": v.source,
            "target": v.target,
            "properties": json_value(v.properties),
        }
    if isinstance(v, PathValue):
        return {"nodes": json_value(list(v.nodes)), "edges": json_value(list(v.edges))}
    return str(v)


def _display(v: Any) -> str:
    from ..eval.values import format_float

    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return format_float(v)
    if isinstance(v, (int, decimal.Decimal)):
        return str(v)
    if isinstance(v, str):
        return "'" + v.replace("\\", "\\\\").replace("'", "\\'") + "'"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_display(x) for x in v) + "]"
    if isinstance(v, Mapping):
        return "{" + ", ".join(f"{k}: {_display(x)}" for k, x in v.items()) + "}"
    if isinstance(v, NodeValue):
        labels = "".join(f":{x}" for x in v.labels)
        props = _display(dict(v.properties)) if v.properties else ""
        return f"({labels}{' ' if labels and props else ''}{props})"
    if isinstance(v, EdgeValue):
        props = _display(dict(v.properties)) if v.properties else ""
        return f"[:{v.type}{' ' if props else ''}{props}]"
    if isinstance(v, PathValue):
        parts = [_display(v.nodes[0])] if v.nodes else []
        for e, n in zip(v.edges, v.nodes[1:]):
            parts.append(f"-{_display(e)}-")
            parts.append(_display(n))
        return "<" + "".join(parts) + ">"
    return f"'{v}'"


def _row(row: tuple[Any, ...]) -> str:
    """A row as a reader writes it: ``('Kai', 3)``, not the comparison keys."""
    return "(" + ", ".join(_display(v) for v in row) + ")"


# -- the result table ----------------------------------------------------------------------------


@dataclass(slots=True)
class ResultTable:
    """What a query returned. ``ordered`` says the row order is part of the answer (the query
    ends with ORDER BY); ``truncated`` says the row cap cut the result."""

    columns: list[str]
    rows: list[tuple[Any, ...]]
    ordered: bool = False
    truncated: bool = False
    notes: list[str] = field(default_factory=list)

    def records(self) -> list[dict[str, Any]]:
        return [dict(zip(self.columns, row)) for row in self.rows]

    def keys(self) -> list[tuple[Any, ...]]:
        return [tuple(canonical_key(v) for v in row) for row in self.rows]

    def difference(self, other: ResultTable, *, columns: bool = True) -> str | None:
        """Why ``other`` is a different answer, or None when it is the same: equal columns
        (unless ``columns`` is False: SQL and some engines rename or case-fold them) and rows
        as lists when both are ordered, else as bags."""
        if columns and list(self.columns) != list(other.columns):
            return f"columns {self.columns} != {other.columns}"
        if len(self.columns) != len(other.columns):
            return f"{len(self.columns)} columns != {len(other.columns)}"
        mine, theirs = self.keys(), other.keys()
        if self.ordered and other.ordered:
            if mine != theirs:
                for i, (a, b) in enumerate(zip(mine, theirs)):
                    if a != b:
                        return f"row {i}: {_row(self.rows[i])} != {_row(other.rows[i])}"
                return f"{len(mine)} rows != {len(theirs)} rows"
            return None
        ca, cb = Counter(mine), Counter(theirs)
        if ca == cb:
            return None
        rows_a = dict(zip(mine, self.rows))
        rows_b = dict(zip(theirs, other.rows))
        only_a = ", ".join(_row(rows_a[k]) for k in list((ca - cb).elements())[:3])
        only_b = ", ".join(_row(rows_b[k]) for k in list((cb - ca).elements())[:3])
        return (
            f"{len(mine)} rows vs {len(theirs)} rows; only in the first: [{only_a}]; "
            f"only in the second: [{only_b}]"
        )

    def same_as(self, other: ResultTable, *, columns: bool = True) -> bool:
        return self.difference(other, columns=columns) is None

    def to_data(self) -> dict[str, Any]:
        """``{"columns", "rows", "ordered"}`` (and ``"truncated": true`` when capped)."""
        out: dict[str, Any] = {
            "columns": list(self.columns),
            "rows": [[json_value(v) for v in row] for row in self.rows],
            "ordered": self.ordered,
        }
        if self.truncated:
            out["truncated"] = True
        return out

    def format_table(self) -> str:
        cells = [[_display(v) for v in row] for row in self.rows]
        widths = [max([len(c)] + [len(r[i]) for r in cells]) for i, c in enumerate(self.columns)]
        lines = []
        if self.columns:
            lines.append(" | ".join(c.ljust(w) for c, w in zip(self.columns, widths)))
            lines.append("-+-".join("-" * w for w in widths))
            lines.extend(" | ".join(v.ljust(w) for v, w in zip(r, widths)) for r in cells)
        n = len(self.rows)
        tail = f"({n} row{'s' if n != 1 else ''}{', truncated' if self.truncated else ''})"
        lines.append(tail)
        return "\n".join(lines)


def take(rows: Iterable[Any], cap: int | None) -> tuple[list[Any], bool]:
    """At most ``cap`` rows from a stream, and whether there were more (one more is read)."""
    if cap is None:
        return list(rows), False
    out: list[Any] = []
    for row in rows:
        if len(out) == cap:
            return out, True
        out.append(row)
    return out, False


# -- the interface -------------------------------------------------------------------------------


@runtime_checkable
class Engine(Protocol):
    """What every adapter offers (see :class:`BaseEngine` for the shared behaviour)."""

    name: str
    dialects: tuple[str, ...]

    def load(self, schema: Any, directory: str) -> dict[str, int]: ...

    def run(
        self,
        query: str,
        *,
        dialect: str | None = None,
        parameters: Mapping[str, Any] | None = None,
        timeout: float | None = None,
        row_cap: int | None = None,
        read_only: bool = False,
    ) -> ResultTable: ...

    def close(self) -> None: ...

    def __enter__(self) -> Self: ...

    def __exit__(self, *exc: object) -> None: ...


@dataclass(frozen=True, slots=True)
class Prepared:
    """A query ready for an engine: the text in the engine's ``dialect``, its IR when gqlir
    could read it, the ``ordered`` flag, and the write constructs found in it (None: unknown,
    the text could not be analysed)."""

    text: str
    dialect: str
    statement: Any
    ordered: bool
    writes: tuple[str, ...] | None
    source_dialect: str
    translated: bool = False


class _Closable(Protocol):
    """What :meth:`BaseEngine._check_open` reads: an engine's name and whether it is closed
    (:class:`gqlir.engines.isolated.IsolatedEngine` borrows the method without the base)."""

    @property
    def name(self) -> str: ...

    @property
    def closed(self) -> bool: ...


class BaseEngine(abc.ABC):
    """Shared behaviour of the adapters. Subclasses set ``name``, ``dialects`` (the dialects the
    engine runs natively, the default first) and ``enforces_read_only`` (the engine itself can
    refuse writes: read-only transactions or access modes), and implement ``_execute`` and
    ``load``."""

    name: ClassVar[str] = "engine"
    dialects: ClassVar[tuple[str, ...]] = ()
    enforces_read_only: ClassVar[bool] = False
    # the engine stops a query at its timeout itself (an engine that cannot is only run in a
    # worker process, whose kill is its timeout: gqlir.engines.isolated)
    stops_queries: ClassVar[bool] = True
    # where the engine departs from a dialect it runs, as its probes show (gqlir.probes):
    # dialect name -> fact -> gqlir.probes.Difference
    fact_differences: ClassVar[Mapping[str, Mapping[str, Any]]] = {}

    closed: bool = False
    schema: Any = None  # the SchemaGraph of the loaded graph: SQL translations map tables by it

    # -- lifecycle ----------------------------------------------------------------------------

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.closed = True

    def load(self, schema: Any, directory: str) -> dict[str, int]:
        """Create what the engine needs for ``schema`` (a SchemaGraph) and load the graph in
        ``directory`` (docs/graph-format.md); returns elements (or rows) per label (table)."""
        self._check_open()
        counts = self._load(schema, directory)
        self.schema = schema
        return counts

    @abc.abstractmethod
    def _load(self, schema: Any, directory: str) -> dict[str, int]:
        """Each engine's own DDL and bulk load (``load`` has checked the engine is open)."""

    def _check_open(self: _Closable) -> None:
        if self.closed:
            raise EngineError(f"the {self.name} engine is closed", code="ENGINE_CLOSED")

    # -- running ------------------------------------------------------------------------------

    def native_dialect(self, dialect: str | None) -> str | None:
        """The engine dialect that runs ``dialect`` text as it is, or None (translate)."""
        from ..dialect import get_dialect

        if dialect is None:
            return self.dialects[0]
        name = get_dialect(dialect).name
        own = {get_dialect(d).name for d in self.dialects}
        if name in own:
            return name
        return None

    def prepare(
        self, query: str, dialect: str | None = None, *, read_only: bool = False
    ) -> Prepared:
        """Translate ``query`` into the engine's dialect if it is not one of them, and analyse
        it (ordered flag, writes). In a read-only run a write is refused here, before any
        translation could fail for another reason."""
        from ..dialect import get_dialect
        from . import safety

        source = get_dialect(dialect or self.dialects[0]).name
        native = self.native_dialect(source)
        if native is not None:
            statement, ordered, writes = safety.analyse(query, source)
            if read_only and statement is None and get_dialect(source).family != "sql":
                from ..api import parse

                # What gqlir cannot read is refused in a read-only run: with gqlir's own error
                # (code and position), so one bad query fails alike on every engine.
                parse(query, source)
            prepared = Prepared(query, native, statement, ordered, writes, source)
            if read_only:
                self.check_read_only(prepared)
            return prepared
        from ..api import emit, parse

        mapping: dict[str, Any] = {} if self.schema is None else {"schema": self.schema}
        statement = parse(query, source, **mapping)
        writes = safety.ir_writes(statement)
        if read_only and writes:
            self.check_read_only(Prepared(query, source, statement, False, writes, source))
        target = self.dialects[0]
        try:
            text = emit(statement, target, **mapping)
        except GqlirError as exc:
            if exc.text is None:
                exc.text = query
            raise
        return Prepared(text, target, statement, safety.ir_ordered(statement), writes, source, True)

    def run(
        self,
        query: str,
        *,
        dialect: str | None = None,
        parameters: Mapping[str, Any] | None = None,
        timeout: float | None = None,
        row_cap: int | None = None,
        read_only: bool = False,
    ) -> ResultTable:
        """Run ``query`` (in ``dialect``, default the engine's own) and return its table.

        ``timeout`` (seconds) stops the query and raises EngineError ``TIMEOUT``; the engine
        stays usable. ``row_cap`` keeps the first rows and marks the table truncated.
        ``read_only`` guarantees the query only reads the graph: anything else (a write, a
        file, a setting) is refused (EngineError ``READ_ONLY``) before it runs, by gqlir's
        allow-list (:mod:`gqlir.engines.safety`), and by the engine itself where the engine
        has read-only transactions or access modes.
        """
        self._check_open()
        check_arguments(timeout, row_cap)
        prepared = self.prepare(query, dialect, read_only=read_only)
        if read_only:
            self.check_read_only(prepared)
        table = self._execute(prepared, dict(parameters or {}), timeout, row_cap, read_only)
        table.ordered = prepared.ordered
        return table

    def check_read_only(self, prepared: Prepared) -> None:
        """Refuse ``prepared`` in a read-only run unless it only reads the graph
        (:func:`gqlir.engines.safety.check_read_only`)."""
        from . import safety

        safety.check_read_only(prepared, self.name)

    @abc.abstractmethod
    def _execute(
        self,
        prepared: Prepared,
        parameters: dict[str, Any],
        timeout: float | None,
        row_cap: int | None,
        read_only: bool,
    ) -> ResultTable:
        """Each engine's own run of a prepared query (``run`` has checked read-only safety)."""


def check_arguments(timeout: float | None, row_cap: int | None) -> None:
    if timeout is not None and timeout <= 0:
        raise EngineError("the timeout must be positive", code="ENGINE_ARGUMENT")
    if row_cap is not None and row_cap < 0:
        raise EngineError("the row cap cannot be negative", code="ENGINE_ARGUMENT")


def timeout_error(engine: str, seconds: float, engine_code: str | None = None) -> EngineError:
    return EngineError(
        f"{engine}: the query was stopped after the timeout of {seconds:g} s",
        code="TIMEOUT",
        engine_code=engine_code,
    )


def engine_error(
    engine: str, message: str, engine_code: str | None, *, code: str = "ENGINE"
) -> EngineError:
    return EngineError(f"{engine}: {message}", code=code, engine_code=engine_code)
