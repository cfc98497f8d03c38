"""One RDF value to one property value of the schema's type, or the reason it cannot be one.

The rules (docs/rdf.md): entities become their label in the first listed language; times keep
only the precision a property asks for (a DATE needs day precision, a year needs year
precision); quantities are converted to the property's unit with pint; numbers must fit the
type; and every value is finally checked with the graph format's own
:func:`~gqlir.schema.graphdata.check_value`, so a converted graph always validates.
"""

from __future__ import annotations

import datetime as dt
import decimal
import math
import re
from dataclasses import dataclass, field
from typing import Any

from ..schema.graphdata import check_value
from ..schema.types import INTEGER_KINDS, PropertyType, TypeKind
from .mapping import Mapping, ValueSpec
from .terms import Term, literal_lexical, local_name
from .units import UnitConversionFailed, convert, same_unit

K = TypeKind

PRECISION_NAMES = {
    0: "billion years",
    1: "hundred million years",
    2: "ten million years",
    3: "million years",
    4: "hundred thousand years",
    5: "ten thousand years",
    6: "millennium",
    7: "century",
    8: "decade",
    9: "year",
    10: "month",
    11: "day",
    12: "hour",
    13: "minute",
    14: "second",
}
_TIME = re.compile(r"([+-]?)(\d{1,})(?:-(\d{2})(?:-(\d{2}))?)?(?:T[\d:.]+)?(Z|[+-]\d{2}:\d{2})?\Z")


class Discarded(Exception):
    """A value that does not convert; the message is the reason the report counts."""


@dataclass(slots=True)
class Candidate:
    """One RDF value of a property: the value, its precision or unit, the labels of an entity
    value by language, and the rank of its statement (None outside the statement model)."""

    value: Term
    extra: Term | None = None
    labels: dict[str, list[str]] = field(default_factory=dict)
    rank: str | None = None
    statement: str = ""


def pick_label(labels: dict[str, list[str]], languages: tuple[str, ...]) -> str | None:
    """The label in the first listed language that has one (the smallest, if several)."""
    for lang in languages:
        if labels.get(lang):
            return min(labels[lang])
    return None


def precision_name(p: int) -> str:
    return PRECISION_NAMES.get(p, f"precision {p}")


def convert_candidate(
    c: Candidate, spec: ValueSpec, mapping: Mapping, conversions: dict[str, int]
) -> Any:
    """The property value of ``c``; raises :class:`Discarded`. Unit conversions done are
    counted in ``conversions`` (``"foot -> centimetre"``)."""
    if c.value.kind == "bnode":
        raise Discarded("unknown value (a blank node)")
    target = spec.element_type
    if spec.shape == "time":
        value = _time_value(c, spec, target)
    elif spec.shape == "quantity":
        value = _number(_quantity(c, spec, mapping, conversions), target)
    elif target.kind == K.STRING:
        value = _text(c, mapping)
    elif c.value.is_iri:
        raise Discarded(f"expected a {target} literal, got an entity")
    elif target.kind == K.BOOLEAN:
        value = _boolean(literal_lexical(c.value))
    else:
        value = _number(_decimal(c.value), target)
    why = check_value(value, target)
    if why:
        raise Discarded(f"not a valid {target}")
    return value


def _text(c: Candidate, mapping: Mapping) -> str:
    if c.value.is_iri:
        label = pick_label(c.labels, mapping.languages)
        if label is None:
            raise Discarded(f"an entity value without a label in {mapping.languages_text}")
        return label
    return c.value.value


def _boolean(text: str) -> bool:
    if text in ("true", "1"):
        return True
    if text in ("false", "0"):
        return False
    raise Discarded("not a boolean")


def _decimal(term: Term) -> decimal.Decimal:
    if term.is_iri:
        raise Discarded("expected a number, got an entity")
    try:
        d = decimal.Decimal(literal_lexical(term))
    except decimal.InvalidOperation:
        raise Discarded("not a number") from None
    if not d.is_finite():
        raise Discarded("not a finite number")
    return d


def _number(d: decimal.Decimal, target: PropertyType) -> Any:
    if target.kind in INTEGER_KINDS:
        if d != d.to_integral_value():
            raise Discarded("not an integer")
        return int(d)
    if target.kind in (K.FLOAT32, K.FLOAT64):
        f = float(d)
        if not math.isfinite(f):
            raise Discarded(f"out of the range of {target}")
        return f
    if target.kind == K.DECIMAL:
        return format(d, "f")
    raise Discarded(f"a number cannot fill a {target} property")


def _quantity(
    c: Candidate, spec: ValueSpec, mapping: Mapping, conversions: dict[str, int]
) -> decimal.Decimal:
    assert spec.unit is not None
    amount = _decimal(c.value)
    if c.extra is None:
        if spec.source_unit is None:
            raise Discarded("a quantity without a unit")
        unit = spec.source_unit
    elif c.extra.is_iri and c.extra.value in mapping.units:
        unit = mapping.units[c.extra.value]
    else:
        raise Discarded(f"unit {local_name(c.extra.value)} is not listed in rdf.units")
    if unit == spec.unit or same_unit(unit, spec.unit, mapping.unit_definitions):
        return amount
    try:
        out = convert(amount, unit, spec.unit, mapping.unit_definitions)
    except UnitConversionFailed as exc:
        raise Discarded(str(exc)) from None
    key = f"{unit} -> {spec.unit}"
    conversions[key] = conversions.get(key, 0) + 1
    return out


def _time_value(c: Candidate, spec: ValueSpec, target: PropertyType) -> Any:
    if c.value.is_iri:
        raise Discarded("expected a time, got an entity")
    m = _TIME.match(literal_lexical(c.value))
    if not m:
        raise Discarded("not a date or time")
    sign, year_text, month, day = m.group(1), m.group(2), m.group(3), m.group(4)
    precision = _precision(c.extra)
    if precision is None:  # no value node: the lexical form shows what it has
        precision = 11 if day else (10 if month else 9)
    assert spec.min_precision is not None
    if precision < spec.min_precision:
        raise Discarded(
            f"precision {precision_name(precision)} is coarser than "
            f"{precision_name(spec.min_precision)}"
        )
    year = int(sign + year_text)
    if spec.year:
        return year
    if target.kind != K.DATE:
        raise Discarded(f"a time cannot fill a {target} property")
    if not 1 <= year <= 9999:
        raise Discarded("a year outside the DATE range (1-9999)")
    try:
        return dt.date(year, int(month or 1), int(day or 1)).isoformat()
    except ValueError:
        raise Discarded("not a valid calendar date") from None


def _precision(term: Term | None) -> int | None:
    if term is None:
        return None
    try:
        return int(literal_lexical(term))
    except ValueError:
        return None
