"""Fuzzing the front end and the emitters: nothing but GqlirError may escape, and no value can
change a query's structure. ``GQLIR_FUZZ_EXAMPLES`` raises the example counts (``make fuzz``)."""

from __future__ import annotations

import contextlib
import json
import os
import random
import tempfile

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gqlir
from gqlir import ir
from gqlir.cli import main
from gqlir.conformance import tck
from gqlir.dialect import all_dialects, get_dialect
from gqlir.passes.pipeline import lower

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
        # where the dialect reads a construct its engine lacks (TuGraph's list predicates), the
        # text reads back as the lowered IR (as in tests/test_roundtrip.py)
        again = gqlir.parse(text, dialect)
        assert again == query_ir or again == lower(query_ir, get_dialect(dialect)), (mutated, text)


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


# -- adversarial text through every dialect, and JSON lines through batch mode -------------------

#: Slower properties (every dialect, a CLI run per example) draw a sixth of the examples.
FUZZ_SLOW = settings(FUZZ, max_examples=max(EXAMPLES // 6, 20))
ALL_DIALECTS = [d.name for d in all_dialects()] + ["sql:sqlite", "sql:duckdb", "sql:postgres"]
SOCIAL = os.path.join(os.path.dirname(__file__), os.pardir, "schemas", "social")

_any_char = st.characters(exclude_categories=())  # surrogates included
_ADVERSARIAL = [
    "'\\ud800'", "'\\uDC00'", "'\\uD83D\\uDE00'", "`\\ud800`", '"\\uD800"', "\ud800", "\udfff",
    "1" * 4400, "-" + "9" * 4400, "0." + "1" * 4400, "1e99999", "0x" + "f" * 300,
    "(" * 200, "[" * 200, "{k: 1, : 1}", "GRAPH g", "SELECT", "FROM Person", "GRAPH_TABLE (",
    "IS", "COLUMNS (", "(a IS Person) (a IS Person)",
]  # fmt: skip
_adversarial_text = st.lists(
    st.sampled_from(_TOKENS + _ADVERSARIAL) | st.text(_any_char, max_size=8), max_size=30
).map(" ".join)


@FUZZ_SLOW
@given(_adversarial_text, st.sampled_from(ALL_DIALECTS), st.sampled_from(ALL_DIALECTS))
def test_adversarial_text_in_every_dialect_only_raises_gqlir_errors(
    text: str, source: str, target: str
) -> None:
    """parse, validate and translate, for every reader and writer: a GqlirError or a result."""
    gqlir.validate(text, source, schema=SOCIAL)
    with contextlib.suppress(gqlir.GqlirError):
        gqlir.transpile(text, source, target, schema=SOCIAL)


@pytest.mark.parametrize("text", ["²", "x = ²", "١٢", "CREATE TABLE t (a INT DEFAULT ³)"])
@pytest.mark.parametrize("dialect", ["sqlpgq", "sql:postgres"])
def test_a_digit_no_number_has_is_a_syntax_error(text: str, dialect: str) -> None:
    """make fuzz (seed 20261121): '²' is a digit to str.isdigit() but to no number pattern,
    and the SQL DDL tokenizer failed an assertion on it."""
    with contextlib.suppress(gqlir.GqlirError):
        gqlir.validate(text, dialect)
        gqlir.transpile(text, dialect, "neo4j")


_line_value = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(_any_char, max_size=12),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
)
_record = st.fixed_dictionaries(
    {},
    optional={"query": _adversarial_text | st.integers(), "note": _line_value, "id": _line_value},
)
_SPECIAL_LINES = [
    "", " ", "\t", "\r", "\u3000", "\x1c", "\x85", "\u2028", "\ufeff", "NaN", "Infinity", "1e999",
    "1" * 5000, '{"query": "RETURN 1 AS x", "n": NaN}', '{"query": "RETURN 1 AS x", "n": 1e999}',
    '{"query": "RETURN 1 AS x", "n": -Infinity}', '{"query": "RETURN 1 AS x", "note": "\\udc00"}',
    '{"query": "RETURN \'\\\\ud800\' AS x"}', "[" * 5000, '{"query": "x"', "[]", "null", '"s"',
]  # fmt: skip
_jsonl_line = (
    _record.map(json.dumps)  # non-finite floats become NaN / Infinity, as a careless writer does
    | st.sampled_from(_SPECIAL_LINES)
    | st.text(_any_char, max_size=40)
).map(lambda line: line.replace("\n", " "))


@FUZZ_SLOW
@given(st.lists(_jsonl_line, max_size=12), st.booleans())
def test_batch_mode_writes_one_strict_json_line_per_input_line(
    lines: list[str], translate: bool
) -> None:
    """Whatever the lines hold, batch mode writes as many lines as it reads, each strict JSON
    in UTF-8, and never exits as a crash (3)."""
    command = ["translate", "-f", "neo4j", "-t", "sql:sqlite", "-s", SOCIAL] if translate else [
        "validate", "-d", "iso-gql"
    ]  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        src, out = os.path.join(tmp, "in.jsonl"), os.path.join(tmp, "out.jsonl")
        with open(src, "wb") as fh:
            fh.write("".join(line + "\n" for line in lines).encode("utf-8", "surrogatepass"))
        code = main([*command, "--input", src, "--output", out, "--quiet"])
        with open(out, "rb") as fh:
            written = fh.read().decode("utf-8")
    assert code in (0, 1)
    assert written.endswith("\n") or not lines
    records = written.split("\n")[:-1]
    assert len(records) == len(lines)
    for record in records:
        assert isinstance(json.loads(record, parse_constant=_not_json), dict)


def _not_json(name: str) -> None:
    raise AssertionError(f"{name} written")
