"""JSON text with positions: Python's ``json`` gives values but not where they are, and a
mapping error should point at the line and column of the value it is about."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

_SPACE = re.compile(r"[ \t\r\n]*")
_SCALAR = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null")

JsonPath = Sequence[str | int]


def path_text(path: JsonPath) -> str:
    """``('nodes', 2, 'rdf')`` as ``nodes[2].rdf``."""
    out = ""
    for step in path:
        out += f"[{step}]" if isinstance(step, int) else (f".{step}" if out else step)
    return out or "the document"


def parse_path_text(text: str) -> list[str | int]:
    """The inverse of :func:`path_text` (for paths named in other modules' messages)."""
    return [int(n) if n else k for k, n in re.findall(r"([A-Za-z_][\w-]*)|\[(\d+)\]", text)]


_DECODER = json.JSONDecoder()


def _string_at(text: str, i: int) -> tuple[str, int]:
    """The JSON string whose opening quote is at ``i``, and the offset just after it."""
    if text[i] != '"':
        raise ValueError(f"no JSON string at offset {i}")
    value, end = _DECODER.raw_decode(text, i)
    return value, end


def _skip_space(text: str, i: int) -> int:
    m = _SPACE.match(text, i)
    return m.end() if m else i


def _skip_value(text: str, i: int) -> int:
    """The offset just after the JSON value that starts at ``i`` (text is valid JSON)."""
    ch = text[i]
    if ch == '"':
        return _string_at(text, i)[1]
    if ch in "[{":
        close = "]" if ch == "[" else "}"
        i = _skip_space(text, i + 1)
        if text[i] == close:
            return i + 1
        while True:
            if ch == "{":
                i = _skip_space(text, _string_at(text, i)[1])
                i = _skip_space(text, i + 1)  # the colon
            i = _skip_space(text, _skip_value(text, i))
            if text[i] == close:
                return i + 1
            i = _skip_space(text, i + 1)  # the comma
    m = _SCALAR.match(text, i)
    return m.end() if m else i + 1


def locate(text: str, path: JsonPath) -> int | None:
    """The offset of the value at ``path`` in the JSON ``text``: a member's key for an object
    member and an object's first key for an object, so that the caret points at a name; None
    when the path does not exist."""
    try:
        i = _skip_space(text, 0)
        for depth, step in enumerate(path, 1):
            if isinstance(step, int):
                if text[i] != "[":
                    return None
                i = _skip_space(text, i + 1)
                for _ in range(step):
                    if text[i] == "]":
                        return None
                    i = _skip_space(text, _skip_value(text, i))
                    if text[i] != ",":
                        return None
                    i = _skip_space(text, i + 1)
                if text[i] == "]":
                    return None
            else:
                if text[i] != "{":
                    return None
                i = _skip_space(text, i + 1)
                while text[i] != "}":
                    key, end = _string_at(text, i)
                    if key == step:
                        if depth == len(path):
                            return i
                        i = _skip_space(text, _skip_space(text, end) + 1)
                        break
                    i = _skip_space(text, _skip_space(text, end) + 1)
                    i = _skip_space(text, _skip_value(text, i))
                    if text[i] == ",":
                        i = _skip_space(text, i + 1)
                else:
                    return None
        if text[i] == "{" and text[_skip_space(text, i + 1)] == '"':
            return _skip_space(text, i + 1)  # an object: its first member, where its text starts
        return i
    except (IndexError, ValueError):
        return None


def load_json(text: str) -> Any:
    """``json.loads`` that raises ``json.JSONDecodeError`` for duplicate keys as well (a
    duplicated mapping entry would otherwise silently win)."""

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for k, v in items:
            if k in out:
                raise ValueError(f"the key {k!r} appears twice in one object")
            out[k] = v
        return out

    return json.loads(text, object_pairs_hook=pairs)
