"""The grammar Text2GQL-Bench's Driver judges a dialect by.

The Driver decides grammar validity with TuGraph's ``Lcypher.g4`` for Cypher dialects and the
OpenGQL ``GQL.g4`` for GQL ones. gqlir's ``tugraph-cypher`` and ``iso-gql`` parsers follow those
grammars (Lcypher's keyword-only words such as ``START``, ``0777`` octal, no ``OFFSET``, no
``shortestPath()``: dialects/tugraph-cypher.toml; OpenGQL's ``bindingVariable :
REGULAR_IDENTIFIER``: dialects/iso-gql.toml), so the benchmark's verdict is gqlir's own parse in
the dialect the Driver picks.
"""

from __future__ import annotations

__all__ = ["benchmark_dialect"]


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
