"""The grammar Text2GQL-Bench's Driver judges a dialect by, and where it is narrower than gqlir's.

The Driver decides grammar validity with TuGraph's ``Lcypher.g4`` for Cypher dialects and the
OpenGQL ``GQL.g4`` for GQL ones: gqlir's ``tugraph-cypher`` and ``iso-gql`` parsers follow those
grammars (``START`` and Lcypher's other keyword-only words, ``0777`` octal, no ``OFFSET``, no
``shortestPath()``: dialects/tugraph-cypher.toml). One rule is still checked here: OpenGQL's
delimited binding variable, ``(`x`)`` or ``("x":L)`` (``bindingVariable : REGULAR_IDENTIFIER``).
"""

from __future__ import annotations

import re

__all__ = ["benchmark_dialect", "rejected_by_benchmark"]

_DELIMITED_VARIABLE = re.compile(
    r"(?:(?<![\w.])\(|[-~]\[)\s*(?:`[^`]*`|\"(?:[^\"\\]|\\.)*\")\s*(?::|\)|\]|\{|IS\b|WHERE\b)",
    re.IGNORECASE,
)


def benchmark_dialect(dialect: str) -> str:
    """The grammar the Driver applies: OpenGQL for a GQL-family dialect, Lcypher otherwise
    (``impl = 'iso-gql' if 'gql' in lang else 'tugraph-db'``)."""
    from ..api import get_dialect
    from ..errors import DialectError

    try:
        family = get_dialect(dialect).family
    except DialectError:  # a name the benchmark's files carry that gqlir does not know
        family = "gql" if "gql" in dialect else "cypher"
    return "iso-gql" if family == "gql" else "tugraph-cypher"


def rejected_by_benchmark(text: str, dialect: str) -> bool:
    """Whether the benchmark's grammar for ``dialect`` (``iso-gql`` or ``tugraph-cypher``)
    rejects ``text`` although gqlir's parser reads it."""
    if dialect == "iso-gql":
        return _DELIMITED_VARIABLE.search(text) is not None
    return False
