"""Front ends: text of a dialect -> Graph-IR.

``parse(text, dialect)`` picks the dialect family's builder and the dialect's grammar variant;
parsers are built once per dialect and reused. SQL (family ``sql``) is parsed by sqlglot and
lowered through a schema mapping (``schema=``, see :mod:`gqlir.sqlmapping`), which the graph
families do not need.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from .. import ir
from ..dialect import Dialect, get_dialect
from ..errors import GqlirError, ParseError, UnsupportedError
from .driver import Parser
from .tables import load_tables

_SURROGATE = re.compile("[\ud800-\udfff]")


def _refuse_surrogates(text: str) -> None:
    """A surrogate code point in the text (from a JSON ``\\ud800`` escape, or bytes decoded
    with ``surrogateescape``) is no character: no dialect can read it or write it back."""
    if text.isascii():
        return
    found = _SURROGATE.search(text)
    if found is not None:
        raise ParseError(
            f"the text holds U+{ord(found.group()):04X}, a lone surrogate, not a character",
            text=text,
            offset=found.start(),
            code="PARSE_SURROGATE",
        )


@cache
def parser_for(dialect: Dialect) -> Parser:
    if dialect.family == "cypher":
        from .cypher import CypherBuilder

        return Parser(load_tables(dialect.grammar), CypherBuilder(dialect))
    if dialect.family == "gql":
        from .gql import builder_for

        return Parser(load_tables(dialect.grammar), builder_for(dialect))
    raise UnsupportedError(
        f"reading {dialect.family}",
        dialect.name,
        f"there is no {dialect.family} front end yet",
    )


def parse(
    text: str, dialect: str | Dialect = "neo4j", *, schema: Any = None, graph: str | None = None
) -> ir.Statement:
    """Parse ``text`` of ``dialect`` into the Graph-IR; errors carry the text and position.

    ``schema`` maps SQL tables to node and edge types (a path, a SchemaGraph, a
    RelationalSchema or a :class:`~gqlir.sqlmapping.SqlMapping`); only SQL dialects read it.
    ``graph`` is the graph a GQL-family query without a GRAPH clause reads (Spanner).
    """
    d = get_dialect(dialect)
    if not isinstance(text, str):
        raise ParseError(f"query must be a string, not {type(text).__name__}")
    _refuse_surrogates(text)
    try:
        if d.family == "sql":
            from .sql import parse_sql

            return parse_sql(text, d, schema)
        parser = parser_for(d)
        if d.family == "gql":
            parser.builder.begin(text, graph)
        else:
            parser.builder.begin(text)
        try:
            return parser.parse(text)
        except ParseError as exc:
            _name_extension(exc, text, d, graph)
            raise
    except GqlirError as exc:
        if exc.text is None:
            exc.text = text
        raise
    except RecursionError:
        raise ParseError(
            "query is nested too deeply", text=text, offset=0, code="PARSE_TOO_DEEP"
        ) from None


def _name_extension(exc: ParseError, text: str, d: Dialect, graph: str | None) -> None:
    """A text the dialect refuses but one of its extensions reads (ISO GQL refusing TuGraph's
    ``x.@id`` or Spanner's ``GRAPH g``): the error names that dialect."""
    from ..dialect import extensions

    if d.family != "gql":
        return
    for name in extensions(d.name):
        ext = get_dialect(name)
        parser = parser_for(ext)
        parser.builder.begin(text, graph)
        try:
            parser.parse(text)
        except GqlirError:
            continue
        exc.message = f"{exc.message} ({ext.name} reads it: an extension of {d.name})"
        exc.args = (exc.message,)
        exc.code = "PARSE_OTHER_DIALECT"
        return
