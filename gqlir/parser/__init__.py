"""Front ends: text of a dialect -> Graph-IR.

``parse(text, dialect)`` picks the dialect family's builder and the dialect's grammar variant;
parsers are built once per dialect and reused.
"""

from __future__ import annotations

from functools import cache

from .. import ir
from ..dialect import Dialect, get_dialect
from ..errors import GqlirError, ParseError, UnsupportedError
from .driver import Parser
from .tables import load_tables


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


def parse(text: str, dialect: str | Dialect = "neo4j") -> ir.Statement:
    """Parse ``text`` of ``dialect`` into the Graph-IR; errors carry the text and position."""
    d = get_dialect(dialect)
    if not isinstance(text, str):
        raise ParseError(f"query must be a string, not {type(text).__name__}")
    parser = parser_for(d)
    parser.builder.begin(text)
    try:
        result = parser.parse(text)
        return result
    except GqlirError as exc:
        if exc.text is None:
            exc.text = text
        raise
    except RecursionError:
        raise ParseError(
            "query is nested too deeply", text=text, offset=0, code="PARSE_TOO_DEEP"
        ) from None
