"""Decoding of literal tokens shared by the Cypher and GQL front ends."""

from __future__ import annotations

import re

from ..errors import ParseError

INT64_MAX = 2**63 - 1

#: More digits than any dialect's integer type holds (int64 has 19). Longer decimal literals are
#: refused before conversion, which Python refuses beyond 4,300 digits and does in quadratic time.
MAX_DIGITS = 1000

#: A surrogate pair written as two ``\\u`` escapes (one astral character), tried first.
_PAIR = r"u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}"
_ESCAPE = re.compile(r"\\(" + _PAIR + r"|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.)", re.S)
_SIMPLE_ESCAPES = {
    "\\": "\\",
    "'": "'",
    '"': '"',
    "b": "\b",
    "f": "\f",
    "n": "\n",
    "r": "\r",
    "t": "\t",
}


def decode_string(token: str, offset: int) -> str:
    """The value of a quoted string literal (``'…'`` or ``"…"``) with its escapes resolved."""
    body = token[1:-1]
    if "\\" not in body:
        return body
    return _unescape(body, offset, _ESCAPE, _SIMPLE_ESCAPES)


#: In a GQL accent-quoted name a doubled grave accent is one, as is a backslash-escaped one.
_ACCENT_ESCAPE = re.compile(r"``|\\(" + _PAIR + r"|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.)", re.S)
_ACCENT_SIMPLE = {**_SIMPLE_ESCAPES, "`": "`"}


def decode_accent_quoted(token: str, offset: int) -> str:
    """A GQL name between grave accents (ISO/IEC 39075 21.3, and GQL.g4's
    ACCENT_QUOTED_CHARACTER_SEQUENCE): a doubled grave accent stands for one, and the escapes
    of strings apply, a backslash before a grave accent among them."""
    body = token[1:-1]
    if "`" not in body and "\\" not in body:
        return body
    return _unescape(body, offset, _ACCENT_ESCAPE, _ACCENT_SIMPLE)


def _unescape(body: str, offset: int, pattern: re.Pattern[str], simple: dict[str, str]) -> str:
    def replace(m: re.Match[str]) -> str:
        if m.group(1) is None:
            return "`"  # a doubled grave accent
        esc = m.group(1)
        at = offset + 1 + m.start()
        if len(esc) == 11:  # a surrogate pair
            high, low = int(esc[1:5], 16), int(esc[7:], 16)
            return chr(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
        if esc[0] in "uU" and len(esc) > 1:
            return _code_point(esc, at)
        if esc in ("u", "U"):
            raise ParseError(
                "invalid unicode escape: \\u needs 4 hex digits, \\U needs 8",
                offset=at,
                code="PARSE_UNICODE",
            )
        if esc in simple:
            return simple[esc]
        raise ParseError(f"invalid escape sequence \\{esc}", offset=at, code="PARSE_ESCAPE")

    return pattern.sub(replace, body)


def _code_point(esc: str, offset: int) -> str:
    """The character of a ``\\uXXXX`` or ``\\UXXXXXXXX`` escape. A lone surrogate is refused:
    it is no character, no engine stores it (UTF-8 cannot encode it; Neo4j's Bolt sends strings
    as UTF-8), so it could not mean the same thing in any target."""
    code = int(esc[1:], 16)
    if code > 0x10FFFF:
        raise ParseError(f"invalid unicode escape \\{esc}", offset=offset, code="PARSE_UNICODE")
    if 0xD800 <= code <= 0xDFFF:
        raise ParseError(
            f"\\{esc} is a lone surrogate, not a character (a \\u escape of a high surrogate "
            "followed by one of a low surrogate makes one character)",
            offset=offset,
            code="PARSE_SURROGATE",
        )
    return chr(code)


def decode_leading_zero_octal(token: str, offset: int) -> int:
    """``0777``: octal where a dialect reads a leading zero so (TuGraph's Lcypher.g4
    ``OctalInteger : ZeroDigit ( OctDigit )+``); ``0`` alone is zero."""
    if len(token) > 1 and not set(token) <= set("01234567"):
        raise ParseError(f"invalid octal literal {token!r}", offset=offset, code="PARSE_NUMBER")
    return int(token, 8)


def decode_integer(token: str, offset: int) -> int:
    """Decimal, ``0x`` hexadecimal and ``0o`` octal integers, with ``_`` separators."""
    if token.isdigit():
        if len(token) > 1 and token[0] == "0":
            # Older Cypher read 0123 as octal, newer versions as an error: no meaning to pick.
            raise ParseError(
                f"ambiguous number literal {token!r}: write 0o{token.lstrip('0') or '0'} for "
                f"octal or {int(token)} for decimal",
                offset=offset,
                code="PARSE_NUMBER",
            )
        return decimal(token, offset)
    text = token.replace("_", "")
    if token.endswith("_") or "__" in token:
        raise ParseError(f"invalid number literal {token!r}", offset=offset, code="PARSE_NUMBER")
    try:
        if text[:2] in ("0x", "0X"):
            return int(text[2:], 16)
        if text[:2] in ("0o", "0O"):
            return int(text[2:], 8)
        return decimal(text, offset)
    except ValueError:
        raise ParseError(
            f"invalid number literal {token!r}", offset=offset, code="PARSE_NUMBER"
        ) from None


def decimal(digits: str, offset: int | None) -> int:
    """The value of a run of decimal digits, refused when no integer type could hold it."""
    if len(digits.lstrip("0")) > MAX_DIGITS:
        raise ParseError(
            f"integer literal of {len(digits):,} digits is too large",
            offset=offset,
            code="PARSE_INTEGER_OVERFLOW",
        )
    return int(digits, 10)


def decode_float(token: str, offset: int) -> float:
    value = float(token.replace("_", ""))
    if value in (float("inf"), float("-inf")):
        raise ParseError(
            f"floating point literal {token!r} is too large",
            offset=offset,
            code="PARSE_FLOAT_OVERFLOW",
        )
    return value


def unquote_identifier(token: str) -> str:
    """``\\`a``b\\``` -> ``a`b``: a backtick-quoted name, doubled backticks as one."""
    if token.startswith("`"):
        return token[1:-1].replace("``", "`")
    return token
