"""The Cypher family's probes, in openCypher that every Cypher engine reads; each reads only
literals, so the engine needs no graph."""

from __future__ import annotations

from ..dialect import Dialect
from . import Probe, Suite, error_or, null_or

__all__ = ["CYPHER_PROBES", "KEYWORDS", "SUITE"]

CYPHER_PROBES: tuple[Probe, ...] = (
    Probe(
        "membership_null_unknown",
        "RETURN 2 IN [1, null] AS v",
        null_or(True, {False: False}),
    ),
    Probe(
        "list_equality_null_unknown",
        "RETURN [1, null] = [1, null] AS v",
        null_or(True, {True: False}),
    ),
    Probe(
        "index_out_of_range_null",
        "RETURN [1, 2, 3][10] AS v",
        error_or(lambda a: True if a is None else None, False),
    ),
    Probe(
        "list_index_base",
        "RETURN [10, 20, 30][1] AS v",
        null_or(None, {20: 0, 10: 1}),
    ),
    Probe(
        "integer_division",
        "RETURN 7 / 2 AS v",
        null_or(None, {3: "truncate", 3.5: "float"}),
    ),
    Probe(
        "contains_empty_true",
        "RETURN 'abc' CONTAINS '' AS v",
        null_or(None, {True: True, False: False}),
    ),
    Probe(
        "simple_case_null_matches",
        "RETURN CASE 1 WHEN null THEN 1 ELSE 2 END AS v",
        null_or(None, {1: True, 2: False}),
    ),
    Probe(
        "collect_keeps_nulls",
        "UNWIND [1, null] AS x RETURN collect(x) AS v",
        null_or(None, {(1, None): True, (1,): False}),
    ),
    Probe(
        "sum_empty_null",
        "UNWIND [] AS x RETURN sum(x) AS v",
        null_or(True, {0: False}),
    ),
    Probe(
        "nulls_sort_high",
        "UNWIND [2, null, 1] AS x RETURN x AS v ORDER BY v LIMIT 1",
        null_or(False, {1: True}),
    ),
)

#: Words some Cypher or GQL engine treats as keywords, beyond the dialect files' lists (Kuzu's
#: path modes and hints, GQL's reserved words that Cypher engines may adopt).
KEYWORDS = (
    "ACYCLIC", "ANY", "HINT", "JOIN", "MULTI_JOIN", "NONE", "SINGLE", "TRAIL", "WALK",
    "SIMPLE", "SHORTEST", "GRAPH", "TABLE", "COPY", "EXPORT", "IMPORT", "PROFILE", "EXPLAIN",
    "BEGIN", "COMMIT", "ROLLBACK", "TRANSACTION", "USING", "LOAD", "INSTALL", "ATTACH",
    "DETACH", "MACRO", "SEQUENCE", "PRIMARY", "KEY", "REL", "NODE", "GROUP", "BY", "LET",
    "FILTER", "NEXT", "FINISH", "INSERT", "YIELD", "CALL",
)  # fmt: skip


def _escaped(word: str, dialect: Dialect) -> str:
    quote = dialect.capabilities.identifier_quote
    return f"WITH 1 AS {quote}{word}{quote} RETURN {quote}{word}{quote} AS v"


SUITE = Suite(
    probes=lambda dialect: CYPHER_PROBES,
    bare=lambda word: f"WITH 1 AS {word} RETURN {word} AS v",
    escaped=_escaped,
    keywords=KEYWORDS,
)
