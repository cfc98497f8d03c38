"""SQLite's type affinity: how SQLite compares two columns' values, so that a migration matches
a foreign key to its row exactly when SQLite's own join would.

Spider's databases hold foreign keys declared ``TEXT`` that refer to ``INTEGER`` keys (``'1'``
for ``1``); SQLite joins them, because before comparing it converts the text operand to a
number (https://www.sqlite.org/datatype3.html, §3.1 "Determination Of Column Affinity" and §4.2
"Type Conversions Prior To Comparison"):

* when either column has INTEGER, REAL or NUMERIC affinity, NUMERIC affinity is applied to
  both operands (a well-formed number in text, spaces around it allowed, becomes that number;
  other text stays text);
* otherwise (TEXT and BLOB columns) values are compared as stored. The rule that applies TEXT
  affinity is for an operand with no affinity at all (an expression), never a column: SQLite's
  ``sqlite3CompareAffinity`` gives two columns BLOB, i.e. no conversion.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Callable
from typing import Any

__all__ = ["Affinity", "column_affinity", "comparison_converters", "numeric_value"]


class Affinity(enum.Enum):
    INTEGER = "INTEGER"
    TEXT = "TEXT"
    BLOB = "BLOB"
    REAL = "REAL"
    NUMERIC = "NUMERIC"


_NUMERIC_KINDS = (Affinity.INTEGER, Affinity.REAL, Affinity.NUMERIC)
_INTEGER = re.compile(r"\s*[+-]?\d+\s*")
_REAL = re.compile(r"\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*")
_INT64 = 2**63


def column_affinity(declared: str | None) -> Affinity:
    """The affinity of a column from its declared type, by SQLite's five rules in order."""
    t = (declared or "").upper()
    if "INT" in t:
        return Affinity.INTEGER
    if "CHAR" in t or "CLOB" in t or "TEXT" in t:
        return Affinity.TEXT
    if "BLOB" in t or not t:
        return Affinity.BLOB
    if "REAL" in t or "FLOA" in t or "DOUB" in t:
        return Affinity.REAL
    return Affinity.NUMERIC


def numeric_value(value: Any) -> Any:
    """``value`` with NUMERIC affinity applied: text that is a well-formed number becomes it (an
    integral value as an integer, as SQLite stores '3.0e+5' as 300000)."""
    if not isinstance(value, str):
        return value
    if _INTEGER.fullmatch(value):
        number = int(value)
        return number if -_INT64 <= number < _INT64 else float(number)
    if _REAL.fullmatch(value):
        real = float(value)
        if real.is_integer() and -_INT64 <= real < _INT64:
            return int(real)
        return real
    return value


def _same(value: Any) -> Any:
    return value


Converter = Callable[[Any], Any]


def comparison_converters(left: Affinity, right: Affinity) -> tuple[Converter, Converter]:
    """What SQLite applies to each operand before it compares a value of a column of affinity
    ``left`` with one of a column of affinity ``right``."""
    if left in _NUMERIC_KINDS or right in _NUMERIC_KINDS:
        return numeric_value, numeric_value
    return _same, _same
