"""JSON lines: one reading and one writing rule for every command that handles them.

Reading is strict JSON (RFC 8259): ``NaN``, ``Infinity`` and numbers a double cannot hold
(``1e999``) are refused rather than turned into values no JSON writer can write back, as are
integers beyond Python's conversion limit. Writing is strict JSON on one line that any UTF-8
reader and any line splitter accepts: lone surrogates (which a JSON ``\\udc00`` escape can put
into a string) and U+0085/U+2028/U+2029 are written as ``\\u`` escapes.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

#: Lone surrogates (not UTF-8) and what ``str.splitlines`` takes for a line break beyond the
#: control characters that JSON escapes anyway: NEL, LINE and PARAGRAPH SEPARATOR.
_UNSAFE = re.compile("[\x85\u2028\u2029\ud800-\udfff]")


class StrictJsonError(ValueError):
    """A line that is JSON to Python's reader but not strict JSON, or a number out of range."""


def _constant(name: str) -> Any:
    raise StrictJsonError(f"{name} is not JSON")


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise StrictJsonError(f"the number {text[:40]} is out of range")
    return value


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise StrictJsonError(f"an integer of {len(text):,} digits is too long") from None


def loads(text: str) -> Any:
    """The value of one JSON text; raises ``json.JSONDecodeError`` or :class:`StrictJsonError`
    (both ``ValueError``), or ``RecursionError`` when nested too deeply."""
    return json.loads(text, parse_constant=_constant, parse_float=_float, parse_int=_int)


def read_line(text: str) -> tuple[Any, str | None, int | None]:
    """``(value, None, None)`` for a strict JSON line, else ``(None, why, column)``."""
    if not text.strip(" \t\r\n"):
        return None, "blank line", None
    try:
        return loads(text), None, None
    except json.JSONDecodeError as exc:
        return None, f"not valid JSON ({exc.msg})", exc.colno
    except StrictJsonError as exc:
        return None, f"not strict JSON ({exc})", None
    except RecursionError:
        return None, "JSON nested too deeply", None


def dumps(data: Any, *, sort_keys: bool = False) -> str:
    """``data`` as one line of strict JSON, without the newline. Non-finite floats are refused
    (``ValueError``): callers write them as the strings ``NaN``/``Infinity`` themselves."""
    text = json.dumps(data, ensure_ascii=False, allow_nan=False, sort_keys=sort_keys)
    return _UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def field_path(path: str) -> tuple[str, ...]:
    """The keys of a dotted field path (``gold.query``); raises ``ValueError`` for an empty
    step, which could name no field."""
    keys = tuple(path.split("."))
    if not all(keys):
        raise ValueError(f"{path!r} is not a field path: an empty name between dots")
    return keys


def text_at(record: dict[str, Any], keys: tuple[str, ...]) -> tuple[str | None, str | None]:
    """``(text, None)`` for the string at ``keys`` in ``record``, else ``(None, why)``."""
    name = ".".join(keys)
    value: Any = record
    for depth, key in enumerate(keys):
        if not isinstance(value, dict):
            return None, f'no "{name}" field ("{".".join(keys[:depth])}" is not an object)'
        if key not in value:
            return None, f'no "{name}" field'
        value = value[key]
    if not isinstance(value, str):
        return None, f'"{name}" is not a string'
    return value, None
