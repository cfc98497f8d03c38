"""Identity round trips (sqlglot's validate_identity idea, over whole corpora): for every query
a Cypher dialect accepts and can express, ``parse(emit(parse(q))) == parse(q)`` and emitting
again gives the same text. Where the target's lowering writes a construct the dialect reads but
its engine lacks (TuGraph's list predicates), the text reads back as the lowered IR."""

from __future__ import annotations

import pytest

import gqlir
from gqlir.conformance import tck
from gqlir.dialect import get_dialect
from gqlir.passes.pipeline import lower

TCK_DIR = tck.default_tck_dir()
CORPORA = tck.default_corpora_dir()


def _corpus() -> list[str]:
    queries = tck.valid_queries(TCK_DIR) if TCK_DIR else []
    if CORPORA is not None:
        path = CORPORA / "cypher" / "neo4j5_features.jsonl"
        queries += [r["query"] for r in tck.load_jsonl_corpus(path)]
    return queries


@pytest.mark.skipif(TCK_DIR is None, reason="openCypher TCK not available")
@pytest.mark.parametrize("dialect", ["neo4j", "opencypher9", "tugraph-cypher"])
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
        if second != lower(first, get_dialect(dialect)):
            problems.append((query, text, "different IR"))
        elif gqlir.emit(second, dialect) != text:
            problems.append((query, text, "not idempotent"))
        checked += 1
    assert not problems, problems[:5]
    assert checked > 1000


@pytest.mark.skipif(TCK_DIR is None, reason="openCypher TCK not available")
def test_kuzu_output_reads_back() -> None:
    """Kuzu's output is lowered to Cypher's meaning (gqlir.passes.cypher_lowering: an IN
    becomes a CASE, a simple CASE a searched one), so it is not the IR it came from; it must
    still be Kuzu text that gqlir reads."""
    checked = 0
    problems = []
    for query in _corpus():
        try:
            text = gqlir.emit(gqlir.parse(query, "kuzu"), "kuzu")
        except gqlir.GqlirError:
            continue
        try:
            gqlir.parse(text, "kuzu")
        except gqlir.GqlirError as exc:
            problems.append((query, text, exc))
        checked += 1
    assert not problems, problems[:5]
    assert checked > 1000
