"""The library entry points behind ``gqlir.parse`` / ``emit`` / ``transpile`` / ``validate``."""

from __future__ import annotations

from dataclasses import dataclass

from . import ir
from .dialect import get_dialect
from .errors import GqlirError


def parse(text: str, dialect: str = "neo4j") -> ir.Query:
    from .parser import parse as _parse

    return _parse(text, get_dialect(dialect))


def emit(query: ir.Node, dialect: str = "neo4j") -> str:
    from .emitter import emit as _emit

    return _emit(query, get_dialect(dialect))


def transpile(text: str, read: str = "neo4j", write: str = "neo4j") -> str:
    query = parse(text, read)
    try:
        return emit(query, write)
    except GqlirError as exc:
        if exc.text is None:
            exc.text = text
        raise


@dataclass(frozen=True)
class ValidationResult:
    """Whether a query is valid in a dialect, and the first error if it is not."""

    valid: bool
    dialect: str
    error: GqlirError | None = None

    def __bool__(self) -> bool:
        return self.valid

    def to_dict(self) -> dict:
        out: dict = {"valid": self.valid, "dialect": self.dialect}
        if self.error is not None:
            out["error"] = self.error.to_dict()
        return out


def validate(text: str, dialect: str = "neo4j") -> ValidationResult:
    """Valid means: the dialect's grammar accepts the text, and the dialect can express every
    construct in it (the grammar of a family is shared more widely than its features are)."""
    d = get_dialect(dialect)
    try:
        query = parse(text, d.name)
        emit(query, d.name)
    except GqlirError as exc:
        if exc.text is None:
            exc.text = text
        return ValidationResult(False, d.name, exc)
    return ValidationResult(True, d.name)
