"""Where Text2GQL-Bench's ANTLR grammars reject what gqlir's dialect parsers accept.

The Driver decides grammar validity with TuGraph's ``Lcypher.g4`` (Cypher) and the OpenGQL
``GQL.g4`` (ISO GQL). gqlir's ``tugraph-cypher`` parser is wider than Lcypher in five places,
its ``iso-gql`` parser in one; for the benchmark's figure, those queries are rejected here:

* Lcypher: a label or type named ``START`` (a keyword of TuGraph's grammar), an ``0o``
  octal literal (TuGraph writes ``0777``), ``OFFSET`` (TuGraph pages with ``SKIP``), and
  ``shortestPath(…)`` / ``allShortestPaths(…)`` in a pattern (TuGraph calls
  ``algo.shortestPath``);
  gqlir refuses TuGraph's own ``0777`` as ambiguous; Lcypher reads it, so it is read here;
* OpenGQL: a delimited binding variable, ``(`x`)`` or ``("x":L)``
  (``bindingVariable : REGULAR_IDENTIFIER``).
"""

from __future__ import annotations

import re

__all__ = ["benchmark_dialect", "benchmark_text", "rejected_by_benchmark"]

_QUOTED = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|`[^`]*`")
_LCYPHER_REJECTS = re.compile(
    r":\s*START\b|\b0o[0-7]+|\bOFFSET\b|\b(?:all)?shortestPath\s*\(", re.IGNORECASE
)
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


_LEADING_ZERO = re.compile(r"(?<![\w.])0+([0-7]+)\b")


def benchmark_text(text: str, dialect: str) -> str:
    """``text`` as gqlir's parser should read it for the benchmark's verdict: Lcypher's
    leading-zero octal literals (outside quotes) lose their zeros."""
    if dialect != "tugraph-cypher":
        return text
    parts, last = [], 0
    for quoted in _QUOTED.finditer(text):
        parts += [_LEADING_ZERO.sub(r"\1", text[last : quoted.start()]), quoted.group()]
        last = quoted.end()
    return "".join(parts) + _LEADING_ZERO.sub(r"\1", text[last:])


def rejected_by_benchmark(text: str, dialect: str) -> bool:
    """Whether the benchmark's grammar for ``dialect`` (``iso-gql`` or ``tugraph-cypher``)
    rejects ``text`` although gqlir's parser reads it."""
    if dialect == "iso-gql":
        return _DELIMITED_VARIABLE.search(text) is not None
    if dialect == "tugraph-cypher":
        return _LCYPHER_REJECTS.search(_QUOTED.sub("''", text)) is not None
    return False
