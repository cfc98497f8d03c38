"""Fuzzing the front end and the emitters: nothing but GqlirError may escape, and no value can
change a query's structure. ``GQLIR_FUZZ_EXAMPLES`` raises the example counts (``make fuzz``)."""

from __future__ import annotations

import contextlib
import os
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gqlir
from gqlir import ir
from gqlir.conformance import tck

EXAMPLES = int(os.environ.get("GQLIR_FUZZ_EXAMPLES", "300"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
CYPHER_DIALECTS = ["neo4j", "opencypher9", "tugraph-cypher"]
TCK_DIR = tck.default_tck_dir()
TCK_QUERIES = tck.valid_queries(TCK_DIR) if TCK_DIR else []

_TOKENS = (
    "MATCH OPTIONAL WHERE RETURN WITH UNWIND AS CREATE MERGE SET DELETE DETACH CALL YIELD UNION "
    "ALL "
    "DISTINCT ORDER BY SKIP LIMIT AND OR NOT IN IS NULL CASE WHEN THEN ELSE END EXISTS COUNT "
    "( ) [ ] { } - -> <- --> <-- -- -[ ]-> ]- : . , | * .. + = <> < > $p n m r 1 2.5 0x1F true "
    "{1,3} & ! % :: || /*c*/ \\ ' ` ü"
).split() + ["`a b`", "'s'", '"t"', "// c\n", "\u2028"]


def _must_be_gqlir_error(text: str, dialect: str) -> None:
    with contextlib.suppress(gqlir.GqlirError):
        gqlir.parse(text, dialect)


@FUZZ
@given(st.text(max_size=200), st.sampled_from(CYPHER_DIALECTS))
def test_random_text_only_raises_gqlir_errors(text: str, dialect: str) -> None:
    _must_be_gqlir_error(text, dialect)


@FUZZ
@given(st.lists(st.sampled_from(_TOKENS), max_size=40), st.sampled_from(CYPHER_DIALECTS))
def test_random_token_soup_only_raises_gqlir_errors(tokens: list[str], dialect: str) -> None:
    _must_be_gqlir_error(" ".join(tokens), dialect)


@pytest.mark.skipif(not TCK_QUERIES, reason="openCypher TCK not available")
@FUZZ
@given(st.data())
def test_mutated_tck_queries_only_raise_gqlir_errors(data: st.DataObject) -> None:
    query = data.draw(st.sampled_from(TCK_QUERIES))
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    chars = list(query)
    for _ in range(rng.randint(1, 4)):
        op = rng.choice(("delete", "insert", "swap", "dup"))
        i = rng.randrange(len(chars) or 1)
        if op == "delete" and chars:
            del chars[i]
        elif op == "insert":
            chars.insert(i, rng.choice(_TOKENS))
        elif op == "swap" and len(chars) > 1:
            j = rng.randrange(len(chars))
            chars[i], chars[j] = chars[j], chars[i]
        elif chars:
            chars.insert(i, chars[i])
    mutated = "".join(chars)
    for dialect in CYPHER_DIALECTS:
        _must_be_gqlir_error(mutated, dialect)
        try:
            query_ir = gqlir.parse(mutated, dialect)
        except gqlir.GqlirError:
            continue
        try:
            text = gqlir.emit(query_ir, dialect)
        except gqlir.UnsupportedError:
            continue
        assert gqlir.parse(text, dialect) == query_ir, (mutated, text)


# -- any name or value round-trips without changing the query's structure ------------------------

_hostile = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=0, max_size=30
) | st.sampled_from(
    ["'", '"', "`", "\\", "\n", "``", "\\'", "' OR 1=1 //", "*/", "/*", "$x", "MATCH"]
)


def _query(name: str, value: str) -> ir.Query:
    """MATCH (v:L {k: value}) RETURN v.k AS alias, with every name set to ``name``."""
    node = ir.NodePattern(name, ir.Label(name), ir.MapLiteral(((name, ir.String(value)),)))
    match = ir.Match((ir.PathPattern(ir.PathChain((node,))),))
    item = ir.ReturnItem(ir.Property(ir.Variable(name), name), name)
    param = ir.ReturnItem(ir.Parameter(name), name + "_p")
    return ir.LinearQuery((match, ir.Projection((item, param))))


@FUZZ
@given(_hostile.filter(lambda s: s != ""), _hostile, st.sampled_from(CYPHER_DIALECTS))
def test_any_identifier_and_string_round_trip(name: str, value: str, dialect: str) -> None:
    query = _query(name, value)
    text = gqlir.emit(query, dialect)
    assert gqlir.parse(text, dialect) == query, text
