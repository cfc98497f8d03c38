"""The library entry points behind ``gqlir.parse`` / ``emit`` / ``transpile`` / ``validate``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from . import ir
from .dialect import get_dialect
from .errors import GqlirError, ParseError, UnsupportedError
from .optional import MissingDependencyError


def parse(
    text: str, dialect: str = "neo4j", *, schema: Any = None, graph: str | None = None
) -> ir.Query:
    """``schema`` maps tables to node and edge types when ``dialect`` is SQL (ignored
    otherwise): a graph folder, a schema or DDL file, a database, or a schema object.
    ``graph`` names the graph a Spanner query without a GRAPH clause reads."""
    from .parser import parse as _parse

    return _parse(text, get_dialect(dialect), schema=schema, graph=graph)


def emit(query: ir.Node, dialect: str = "neo4j", *, schema: Any = None) -> str:
    """``schema`` gives the tables a SQL target reads (ignored by graph dialects)."""
    from .emitter import emit as _emit

    return _emit(query, get_dialect(dialect), schema=schema)


def transpile(
    text: str,
    read: str = "neo4j",
    write: str = "neo4j",
    *,
    schema: Any = None,
    graph: str | None = None,
) -> str:
    """Translate ``text``; ``schema`` is the table mapping of a SQL source or target, ``graph``
    the graph a Spanner source without a GRAPH clause reads."""
    try:
        query = parse(text, read, schema=schema, graph=graph)
        return translate(query, read, write, schema=schema)
    except GqlirError as exc:
        if exc.text is None:
            exc.text = text
        raise


def translate(
    query: ir.Node,
    read: str,
    write: str,
    *,
    schema: Any = None,
    writer: Callable[[ir.Node], str] | None = None,
) -> str:
    """``query``, read from dialect ``read``, in dialect ``write``. What the target refuses is
    tried once more with its constant parts folded to values (``range(1, 3)`` is a list the
    target may write). ``writer`` replaces the plain emitter (e.g. to pass the GQL
    emitter's graph name): a function from a query to its text."""
    write_query = writer or (lambda q: emit(q, write, schema=schema))
    source, target = get_dialect(read).capabilities, get_dialect(write).capabilities
    if source.integer_division == "float" and target.integer_division != "float":
        from .passes.division import float_quotients

        query = float_quotients(query)
    try:
        return write_query(query)
    except UnsupportedError as refused:
        from .passes.fold import fold_constants

        folded = fold_constants(query, get_dialect(read).name)
        if folded is query:
            raise
        try:
            return write_query(folded)
        except UnsupportedError:
            raise refused from None


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


def validate(
    text: str, dialect: str = "neo4j", *, schema: Any = None, graph: str | None = None
) -> ValidationResult:
    """Valid means: the dialect's grammar accepts the text, and the dialect can express every
    construct in it (the grammar of a family is shared more widely than its features are).
    ``graph`` names the graph a Spanner query without a GRAPH clause reads."""
    d = get_dialect(dialect)
    try:
        query = parse(text, d.name, schema=schema, graph=graph)
        emit(query, d.name, schema=schema)
    except MissingDependencyError:
        raise  # the text was not checked: saying it is invalid would be wrong
    except GqlirError as exc:
        if exc.text is None:
            exc.text = text
        return ValidationResult(False, d.name, exc)
    return ValidationResult(True, d.name)


def with_graph(text: str, dialect: str, graph: str | None) -> str:
    """``text`` with a GRAPH clause naming ``graph`` in front, when ``dialect`` requires one and
    the text has none (Text2GQL-Bench's Spanner corpora leave the clause to the driver, which
    adds it before it runs a query); otherwise ``text`` unchanged. For engines and checkers
    that read the text itself rather than gqlir's IR."""
    d = get_dialect(dialect)
    if graph is None or not d.capabilities.graph_prefix_required:
        return text
    try:
        parse(text, d.name)
    except ParseError as exc:
        if exc.code == "PARSE_NO_GRAPH":
            from .emitter import generator_for

            generator = generator_for(d)
            name = ".".join(generator.identifier(part) for part in graph.split("."))
            return "GRAPH " + name + "\n" + text
    except GqlirError:
        pass
    return text
