"""The boundary to sqlglot: whatever it raises while reading text becomes a :class:`ParseError`.

sqlglot's own errors carry a line and column; its internal failures on malformed input (an
``AttributeError`` on ``{k: 1, : 1}``, for one) carry nothing, so the position is the last token its
parser read. No other exception leaves these functions.
"""

from __future__ import annotations

from typing import Any

from ..errors import ParseError


def tokenize(text: str, flavour: str | None) -> list[Any]:
    """sqlglot's tokens of ``text`` in ``flavour`` (``None``: sqlglot's default dialect)."""
    from sqlglot.dialects.dialect import Dialect

    try:
        return Dialect.get_or_raise(flavour).tokenize(text)
    except Exception as exc:  # the boundary: every failure is a parse error
        raise _error(text, exc, None) from None


def parse(text: str, flavour: str | None) -> list[Any]:
    """The statements of ``text`` (empty ones dropped)."""
    from sqlglot.dialects.dialect import Dialect

    tokens = tokenize(text, flavour)
    parser = Dialect.get_or_raise(flavour).parser()
    try:
        return [s for s in parser.parse(tokens, text) if s is not None]
    except Exception as exc:  # the boundary: every failure is a parse error
        raise _error(text, exc, getattr(parser, "_prev", None)) from None


def _error(text: str, exc: Exception, token: Any) -> ParseError:
    errors = getattr(exc, "errors", None)
    if errors:
        first = errors[0]
        message = first.get("description") or str(exc).split("\n")[0]
        return ParseError(
            f"SQL: {message}",
            text=text,
            offset=_offset(text, first.get("line"), first.get("col")),
            code="PARSE_SQL",
        )
    offset = getattr(token, "start", 0) if token is not None else 0
    detail = str(exc).split("\n")[0] if type(exc).__module__.startswith("sqlglot") else ""
    message = f"SQL: {detail}" if detail else "SQL: the text cannot be read here"
    return ParseError(message, text=text, offset=offset, code="PARSE_SQL")


def _offset(text: str, line: int | None, col: int | None) -> int:
    """sqlglot's 1-based line and column as an offset into ``text``."""
    if not line:
        return 0
    lines = text.split("\n")
    return sum(len(x) + 1 for x in lines[: line - 1]) + max(0, (col or 1) - 1)
