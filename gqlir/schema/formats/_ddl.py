"""A small lexer and cursor shared by the DDL readers (GQL, Spanner, SQL/PGQ, Kuzu, Neo4j,
TuGraph procedure calls), and structural identifier quoting for the writers.

The DDL languages differ in keywords but share their lexical shape: identifiers (bare, or
delimited by double quotes or backticks with the delimiter doubled inside), string literals,
numbers, punctuation, and ``--``, ``//`` and ``/* */`` comments. Errors carry the text and the
offset, so the CLI shows a caret under the problem.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...errors import SchemaError

_BARE = re.compile(r"[A-Za-z_][A-Za-z_0-9]*\Z")

IDENT, QIDENT, STRING, NUMBER, PUNCT, END = "ident", "qident", "string", "number", "punct", "end"

_PUNCT = ("<->", "]->", "<-[", "->", "<-", "-[", "]-", "::", "=>", "<=", ">=", "<>", "!=")


@dataclass(frozen=True, slots=True)
class Token:
    kind: str
    value: str
    offset: int

    def is_kw(self, *words: str) -> bool:
        return self.kind == IDENT and self.value.upper() in words


def tokenize(text: str, *, backslash_escapes: bool = False) -> list[Token]:
    """Tokens of ``text``; ``backslash_escapes`` for Cypher-style ``'\\''`` strings."""
    out: list[Token] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch.isspace():
            i += 1
            continue
        if text.startswith("--", i) or text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j + 1
            continue
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            if j < 0:
                raise SchemaError("unterminated comment", text=text, offset=i, code="SCHEMA_SYNTAX")
            i = j + 2
            continue
        if ch.isalpha() or ch == "_":
            j = i + 1
            while j < n and (text[j].isalnum() or text[j] == "_"):
                j += 1
            out.append(Token(IDENT, text[i:j], i))
            i = j
            continue
        if "0" <= ch <= "9":  # ASCII only: str.isdigit() also holds for '²', which no number has
            m = re.compile(r"[0-9]+(\.[0-9]+)?").match(text, i)
            assert m
            out.append(Token(NUMBER, m.group(), i))
            i = m.end()
            continue
        if ch in "\"`'":
            value, j = _delimited(text, i, ch, backslash_escapes and ch == "'")
            out.append(Token(STRING if ch == "'" else QIDENT, value, i))
            i = j
            continue
        for p in _PUNCT:
            if text.startswith(p, i):
                out.append(Token(PUNCT, p, i))
                i += len(p)
                break
        else:
            out.append(Token(PUNCT, ch, i))
            i += 1
    out.append(Token(END, "", n))
    return out


def _delimited(text: str, start: int, quote: str, backslash: bool) -> tuple[str, int]:
    buf: list[str] = []
    i = start + 1
    while i < len(text):
        ch = text[i]
        if backslash and ch == "\\" and i + 1 < len(text):
            nxt = text[i + 1]
            buf.append({"n": "\n", "t": "\t", "r": "\r"}.get(nxt, nxt))
            i += 2
            continue
        if ch == quote:
            if i + 1 < len(text) and text[i + 1] == quote:
                buf.append(quote)
                i += 2
                continue
            return "".join(buf), i + 1
        buf.append(ch)
        i += 1
    raise SchemaError("unterminated quoted text", text=text, offset=start, code="SCHEMA_SYNTAX")


class Cursor:
    """Recursive-descent helper over a token list."""

    def __init__(self, text: str, *, backslash_escapes: bool = False) -> None:
        self.text = text
        self.tokens = tokenize(text, backslash_escapes=backslash_escapes)
        self.i = 0

    @property
    def tok(self) -> Token:
        return self.tokens[self.i]

    def peek(self, k: int = 1) -> Token:
        return self.tokens[min(self.i + k, len(self.tokens) - 1)]

    def at_end(self) -> bool:
        return self.tok.kind == END

    def error(self, message: str, token: Token | None = None) -> SchemaError:
        t = token or self.tok
        return SchemaError(message, text=self.text, offset=t.offset, code="SCHEMA_SYNTAX")

    def next(self) -> Token:
        t = self.tok
        if t.kind != END:
            self.i += 1
        return t

    def at_kw(self, *words: str) -> bool:
        return self.tok.is_kw(*(w.upper() for w in words))

    def accept_kw(self, *words: str) -> bool:
        """Accept a keyword sequence (``accept_kw("PRIMARY", "KEY")``) if all of it is next."""
        for k, w in enumerate(words):
            if not self.peek(k).is_kw(w.upper()):
                return False
        self.i += len(words)
        return True

    def expect_kw(self, *words: str) -> None:
        if not self.accept_kw(*words):
            raise self.error(f"expected {' '.join(words)}, found {self.describe()}")

    def at(self, punct: str) -> bool:
        return self.tok.kind == PUNCT and self.tok.value == punct

    def accept(self, punct: str) -> bool:
        if self.at(punct):
            self.i += 1
            return True
        return False

    def expect(self, punct: str) -> None:
        if not self.accept(punct):
            raise self.error(f"expected {punct!r}, found {self.describe()}")

    def ident(self, what: str = "a name") -> str:
        t = self.tok
        if t.kind in (IDENT, QIDENT):
            self.i += 1
            return t.value
        raise self.error(f"expected {what}, found {self.describe()}")

    def qualified(self, what: str = "a name") -> str:
        """``a.b.c`` kept as the last part (catalog prefixes do not name schema elements)."""
        name = self.ident(what)
        while self.at(".") and self.peek().kind in (IDENT, QIDENT):
            self.i += 1
            name = self.ident(what)
        return name

    def string(self) -> str:
        t = self.tok
        if t.kind == STRING:
            self.i += 1
            return t.value
        raise self.error(f"expected a string literal, found {self.describe()}")

    def number(self) -> int:
        t = self.tok
        if t.kind == NUMBER and t.value.isdigit():
            self.i += 1
            return int(t.value)
        raise self.error(f"expected a number, found {self.describe()}")

    def describe(self) -> str:
        t = self.tok
        if t.kind == END:
            return "the end of the text"
        if t.kind == STRING:
            return f"'{t.value}'"
        return repr(t.value)

    def skip_balanced(self) -> None:
        """Skip a bracketed group starting at the current ``(``, ``[``, ``{`` or ``<``."""
        pairs = {"(": ")", "[": "]", "{": "}", "<": ">"}
        opener = self.tok.value
        if opener not in pairs:
            return
        depth = 0
        while not self.at_end():
            t = self.next()
            if t.kind == PUNCT and t.value == opener:
                depth += 1
            elif t.kind == PUNCT and t.value == pairs[opener]:
                depth -= 1
                if depth == 0:
                    return
        raise self.error(f"unbalanced {opener!r}")

    def raw_until(self, *stops: str) -> str:
        """The source text of tokens up to (not including) a top-level stop punctuation."""
        start = self.tok.offset
        depth = 0
        while not self.at_end():
            t = self.tok
            if t.kind == PUNCT:
                if depth == 0 and t.value in stops:
                    break
                if t.value in "([<{":
                    depth += 1
                elif t.value in ")]>}":
                    if depth == 0:
                        break
                    depth -= 1
            self.next()
        return self.text[start : self.tok.offset].strip()

    def statement_end(self) -> None:
        """A statement ends at ``;`` or at the end of the text."""
        if not self.accept(";") and not self.at_end():
            raise self.error(f"expected ';' or the end of the text, found {self.describe()}")
        while self.accept(";"):
            pass


def quote_ident(name: str, quote: str = "`", reserved: frozenset[str] = frozenset()) -> str:
    """``name`` as a delimited identifier when it is not a plain word or is reserved: the
    quote character is doubled inside, so no name can change the statement's structure."""
    if _BARE.match(name) and name.upper() not in reserved:
        return name
    return quote + name.replace(quote, quote * 2) + quote


def quote_string(value: str, quote: str = "'") -> str:
    """A string literal with the quote doubled inside (SQL, GQL, Spanner, Kuzu)."""
    return quote + value.replace(quote, quote * 2) + quote


def cypher_string(value: str) -> str:
    """A Cypher string literal: backslash escapes, as Neo4j and TuGraph read them."""
    out = value.replace("\\", "\\\\").replace("'", "\\'").replace("\n", "\\n").replace("\r", "\\r")
    return "'" + out + "'"
