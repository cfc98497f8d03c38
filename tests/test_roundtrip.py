"""Identity round trips (sqlglot's validate_identity idea, over whole corpora): for every query
a Cypher dialect accepts and can express, ``parse(emit(parse(q))) == parse(q)`` and emitting
again gives the same text."""

from __future__ import annotations

import pytest

import gqlir
from gqlir.conformance import tck

TCK_DIR = tck.default_tck_dir()
CORPORA = tck.default_corpora_dir()


def _corpus() -> list[str]:
    queries = tck.valid_queries(TCK_DIR) if TCK_DIR else []
    if CORPORA is not None:
        path = CORPORA / "cypher" / "neo4j5_features.jsonl"
        queries += [r["query"] for r in tck.load_jsonl_corpus(path)]
    return queries


@pytest.mark.skipif(TCK_DIR is None, reason="openCypher TCK not available")
@pytest.mark.parametrize("dialect", ["neo4j", "opencypher9", "tugraph-cypher", "kuzu"])
def test_parse_emit_parse_is_identity(dialect: str) -> None:
    checked = 0
    problems = []
    for query in _corpus():
        try:
            first = gqlir.parse(query, dialect)
        except gqlir.GqlirError:
            continue
        try:
            text = gqlir.emit(first, dialect)
        except gqlir.UnsupportedError:
            continue
        second = gqlir.parse(text, dialect)
        if second != first:
            problems.append((query, text, "different IR"))
        elif gqlir.emit(second, dialect) != text:
            problems.append((query, text, "not idempotent"))
        checked += 1
    assert not problems, problems[:5]
    assert checked > 1000
