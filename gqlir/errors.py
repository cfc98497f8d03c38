"""One exception hierarchy for everything gqlir reports.

Every error is a value with a stable ``code`` (scripts may depend on it), an optional source
position, and a caret snippet, so that the CLI can print it readably and ``--json`` can print it
as data. Nothing outside this hierarchy should escape the public API.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any

from .refusal_notes import rewrite_for


@dataclass(frozen=True, slots=True)
class Position:
    """A place in a source text: 0-based offset, 1-based line and column."""

    offset: int
    line: int
    column: int

    @staticmethod
    def at(text: str, offset: int) -> Position:
        offset = max(0, min(offset, len(text)))
        line = text.count("\n", 0, offset) + 1
        line_start = text.rfind("\n", 0, offset) + 1
        return Position(offset, line, offset - line_start + 1)


_SURROGATE = re.compile("[\ud800-\udfff]")


def caret_snippet(text: str, offset: int) -> str:
    """The source line containing ``offset`` with a caret under the offending character."""
    pos = Position.at(text, offset)
    start = text.rfind("\n", 0, pos.offset) + 1
    end = text.find("\n", pos.offset)
    # A lone surrogate cannot be printed or written as UTF-8: it is shown as U+FFFD.
    line = _SURROGATE.sub("\ufffd", text[start : end if end >= 0 else len(text)])
    pad = "".join("\t" if ch == "\t" else " " for ch in line[: pos.column - 1])
    return f"{line}\n{pad}^"


class GqlirError(Exception):
    """Base of all gqlir errors."""

    code = "GQLIR"

    def __init__(
        self,
        message: str,
        *,
        text: str | None = None,
        offset: int | None = None,
        code: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.text = text
        self.offset = offset
        if code is not None:
            self.code = code

    @property
    def position(self) -> Position | None:
        if self.text is None or self.offset is None:
            return None
        return Position.at(self.text, self.offset)

    @property
    def line(self) -> int | None:
        pos = self.position
        return pos.line if pos else None

    @property
    def column(self) -> int | None:
        pos = self.position
        return pos.column if pos else None

    def snippet(self) -> str | None:
        if self.text is None or self.offset is None:
            return None
        return caret_snippet(self.text, self.offset)

    def to_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "message": self.message,
            "line": self.line,
            "column": self.column,
        }

    def __str__(self) -> str:
        pos = self.position
        where = f" at line {pos.line}, column {pos.column}" if pos else ""
        out = f"[{self.code}] {self.message}{where}"
        snip = self.snippet()
        return f"{out}\n{snip}" if snip else out


class ParseError(GqlirError):
    """The text is not valid in the dialect's grammar."""

    code = "PARSE"

    def __init__(
        self,
        message: str,
        *,
        text: str | None = None,
        offset: int | None = None,
        expected: tuple[str, ...] = (),
        code: str | None = None,
    ) -> None:
        super().__init__(message, text=text, offset=offset, code=code)
        self.expected = expected

    def to_dict(self) -> dict[str, Any]:
        out = super().to_dict()
        if self.expected:
            out["expected"] = list(self.expected)
        return out


# -- refusal ids (here, not in gqlir.refusals, so that errors import only refusal_notes' data) --

#: Wordings of one construct in different emitters, and the words its id is made of.
SYNONYMS = {
    "regex match": "regular expression match",
    "path mode trail": "trail path mode",
    "subscript": "list subscript",
    "graph element in the result": "graph element in result",
}


@functools.lru_cache(maxsize=2048)
def refusal_id(construct: str) -> str:
    """The stable id of a refused construct: lower case words joined by ``-``; a function is
    ``function:<name>``. (Remembered: every refusal a pass leaves in a query makes an error.)"""
    words = " ".join(construct.split()).lower()
    function = re.fullmatch(r"function ([\w.]+)\(\)", words)
    if function is not None:
        return f"function:{function.group(1)}"
    words = SYNONYMS.get(words, words)
    return re.sub(r"[^a-z0-9]+", "-", words).strip("-")


class UnsupportedError(GqlirError):
    """A construct cannot be expressed in the target dialect with the same meaning.

    ``construct`` names it (stable, for reports), ``dialect`` is the target, and ``rewrite``
    suggests what the user could write instead, where there is such a thing (given by the
    raiser, else the catalogued one: :mod:`gqlir.refusal_notes`).
    """

    code = "UNSUPPORTED"

    def __init__(
        self,
        construct: str,
        dialect: str,
        message: str | None = None,
        *,
        rewrite: str | None = None,
        text: str | None = None,
        offset: int | None = None,
        node: Any = None,
    ) -> None:
        msg = message or f"{construct} cannot be expressed in {dialect}"
        if rewrite is None:  # the catalogued rewrite of the construct, where there is one
            rewrite = rewrite_for(refusal_id(construct), dialect)
        if rewrite:
            msg = f"{msg} (rewrite: {rewrite})"
        super().__init__(msg, text=text, offset=offset)
        self.construct = construct
        self.dialect = dialect
        self.rewrite = rewrite
        #: the refused IR node, where an emitter knows it (not part of the error's data)
        self.node = node
        self._others: Any = None  # () -> the query's other refusals (set by the translator)

    @property
    def id(self) -> str:
        """The construct's stable id (docs/refusals.md; :func:`refusal_id`)."""
        return refusal_id(self.construct)

    def all_refusals(self) -> list[UnsupportedError]:
        """This refusal and the query's others, one per construct (found by writing the query
        again without each refused part: :func:`gqlir.refusals.all_refusals`)."""
        if self._others is None:
            return [self]
        found: list[UnsupportedError] = self._others()
        self._others = lambda: found
        for other in found:
            if other.text is None:
                other.text = self.text
        return found

    def to_dict(self) -> dict[str, Any]:
        out = super().to_dict()
        out["id"] = self.id
        out["construct"] = self.construct
        out["dialect"] = self.dialect
        if self.rewrite:
            out["rewrite"] = self.rewrite
        return out

    def __reduce__(self) -> Any:
        """Pickled (worker processes) without the IR node and the probe."""
        state = {k: v for k, v in self.__dict__.items() if k not in ("node", "_others")}
        return (_rebuild_unsupported, (self.construct, self.dialect), state)


def _rebuild_unsupported(construct: str, dialect: str) -> UnsupportedError:
    return UnsupportedError(construct, dialect)


class SemanticError(GqlirError):
    """The text parses but breaks a rule of the language (e.g. misplaced aggregate)."""

    code = "SEMANTIC"


class DialectError(GqlirError):
    """Unknown dialect name or a malformed dialect specification."""

    code = "DIALECT"


class SchemaError(GqlirError):
    """A schema is malformed or a query does not fit it."""

    code = "SCHEMA"


class EngineError(GqlirError):
    """An engine refused or failed a query; ``engine_code`` is the engine's own code."""

    code = "ENGINE"

    def __init__(self, message: str, *, engine_code: str | None = None, **kw: Any) -> None:
        super().__init__(message, **kw)
        self.engine_code = engine_code

    def to_dict(self) -> dict[str, Any]:
        out = super().to_dict()
        if self.engine_code is not None:
            out["engine_code"] = self.engine_code
        return out


class EvaluationError(GqlirError):
    """The reference evaluator stopped a query.

    ``category`` names the kind of failure the way the openCypher TCK does (``TypeError``,
    ``ArgumentError``, ``ArithmeticError``, ``EntityNotFound``, ``ConstraintVerificationFailed``,
    ``SyntaxError`` for invalid runtime arguments such as a negative LIMIT, ``ProcedureError``),
    or ``Unsupported`` for a construct the evaluator does not model; ``detail`` is the TCK's
    finer name (``InvalidArgumentType``, ``DivisionByZero`` ...) where one applies. Conformance
    runs compare categories, so they are part of the contract.
    """

    code = "EVAL"

    def __init__(
        self,
        message: str,
        *,
        category: str = "TypeError",
        detail: str | None = None,
        **kw: Any,
    ) -> None:
        super().__init__(message, **kw)
        self.category = category
        self.detail = detail

    def to_dict(self) -> dict[str, Any]:
        out = super().to_dict()
        out["category"] = self.category
        if self.detail:
            out["detail"] = self.detail
        return out
