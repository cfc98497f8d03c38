"""Bad input is refused with a positioned GqlirError, never a crash (issue: lone surrogates,
integer literals beyond Python's conversion limit, sqlglot's internal failures, GQL's adjacent
node patterns into SQL)."""

from __future__ import annotations

import os

import pytest

import gqlir
from gqlir import ir
from gqlir.errors import ParseError, UnsupportedError

SOCIAL = os.path.join(os.path.dirname(__file__), os.pardir, "schemas", "social")
GRAPH_DIALECTS = ["neo4j", "opencypher9", "tugraph-cypher", "iso-gql", "spanner", "tugraph-gql"]


def _returning(dialect: str, text: str) -> str:
    """``RETURN text AS s`` as a whole query of ``dialect`` (Spanner's name their graph)."""
    return ("GRAPH g " if dialect == "spanner" else "") + f"RETURN {text} AS s"


@pytest.mark.parametrize("dialect", GRAPH_DIALECTS)
@pytest.mark.parametrize("escape", ["\\ud800", "\\uDC00", "\\uD83D x", "\\uDE00\\uD83D"])
def test_escaped_lone_surrogate_is_a_parse_error_at_the_escape(dialect: str, escape: str) -> None:
    text = _returning(dialect, f"'ab{escape}'")
    result = gqlir.validate(text, dialect)
    assert not result.valid
    assert result.error is not None and result.error.code == "PARSE_SURROGATE"
    assert result.error.column == text.index("\\") + 1


@pytest.mark.parametrize("dialect", ["neo4j", "iso-gql"])
def test_escaped_surrogate_pair_is_one_character(dialect: str) -> None:
    query = gqlir.parse(_returning(dialect, "'\\uD83D\\uDE00'"), dialect)
    assert query.steps[-1].items[0].expr == ir.String("\U0001f600")


@pytest.mark.parametrize("dialect", [*GRAPH_DIALECTS, "sqlpgq"])
def test_raw_surrogate_in_the_text_is_a_parse_error(dialect: str) -> None:
    text = _returning(dialect, "'x\udc00'")
    with pytest.raises(ParseError) as caught:
        gqlir.parse(text, dialect)
    assert caught.value.code == "PARSE_SURROGATE" and caught.value.column == text.index("x") + 2
    str(caught.value).encode("utf-8")  # the message and its caret snippet print as UTF-8


@pytest.mark.parametrize("dialect", [*GRAPH_DIALECTS, "sqlpgq", "sql:sqlite"])
def test_no_emitter_writes_a_lone_surrogate(dialect: str) -> None:
    source = "spanner" if dialect == "spanner" else "neo4j"
    text = ("GRAPH g " if source == "spanner" else "") + "MATCH (n:Person) RETURN 'x' AS s"
    query = gqlir.parse(text, source)
    bad = query.transform(lambda n: ir.String("a\ud800") if n == ir.String("x") else n)
    with pytest.raises(UnsupportedError, match="lone surrogate"):
        gqlir.emit(bad, dialect, schema=SOCIAL)


@pytest.mark.parametrize("dialect", GRAPH_DIALECTS)
def test_own_output_reads_back_for_astral_and_escaped_text(dialect: str) -> None:
    query = gqlir.parse(_returning(dialect, "'\\uD83D\\uDE00 \\u2028 \\u0000'"), dialect)
    assert gqlir.parse(gqlir.emit(query, dialect), dialect) == query


@pytest.mark.parametrize("dialect", GRAPH_DIALECTS)
@pytest.mark.parametrize("literal", ["1" * 5000, "-" + "9" * 4301, "0x" + "f" * 5000])
def test_huge_integer_literal_is_a_positioned_parse_error(dialect: str, literal: str) -> None:
    text = _returning(dialect, literal)
    with pytest.raises(ParseError) as caught:
        gqlir.parse(text, dialect)
    assert caught.value.code == "PARSE_INTEGER_OVERFLOW"
    assert caught.value.column == text.index(literal.lstrip("-")) + 1


def test_huge_quantifier_bound_is_a_parse_error() -> None:
    with pytest.raises(ParseError):
        gqlir.parse(f"MATCH (a)-[*1..{'7' * 5000}]->(b) RETURN a", "neo4j")


@pytest.mark.parametrize("literal", ["1" * 5000, "1." + "1" * 5000])
def test_long_numbers_in_sql_are_exact_or_refused(literal: str) -> None:
    text = f"SELECT {literal} AS n FROM Person"
    try:
        query = gqlir.parse(text, "sql:sqlite", schema=SOCIAL)
    except ParseError as exc:
        assert exc.code == "PARSE_INTEGER_OVERFLOW" and exc.column == len("SELECT ") + 1
    else:
        assert query.steps[-1].items[0].expr == ir.Float(float(literal))


@pytest.mark.parametrize("dialect", ["sqlpgq", "sql:sqlite", "sql:duckdb", "sql:postgres"])
def test_sqlglot_internal_failure_is_a_parse_error(dialect: str) -> None:
    with pytest.raises(ParseError) as caught:
        gqlir.parse("RETURN {k: 1, : 1}", dialect, schema=SOCIAL)
    assert caught.value.code == "PARSE_SQL" and caught.value.position is not None


def test_adjacent_node_patterns_into_sql_are_refused_by_name() -> None:
    with pytest.raises(UnsupportedError, match="adjacent node patterns"):
        gqlir.transpile(
            "MATCH (a IS Person) (a IS Person) RETURN a", "iso-gql", "sql:sqlite", schema=SOCIAL
        )


def test_a_parameter_too_long_to_read_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    from gqlir.cli import main

    assert main(["run", "--param", "n=" + "1" * 5000, "RETURN $n AS n"]) == 2
    assert "--param n: an integer in the value is too long" in capsys.readouterr().err


def test_graph_data_with_an_unreadable_number_is_a_schema_error(tmp_path) -> None:
    from gqlir.errors import SchemaError
    from gqlir.schema.graphdata import iter_nodes

    (tmp_path / "nodes.jsonl").write_text(
        '{"id": 1, "labels": ["A"], "properties": {"x": ' + "1" * 5000 + "}}\n", encoding="utf-8"
    )
    with pytest.raises(SchemaError, match=r"nodes\.jsonl:1"):
        list(iter_nodes(str(tmp_path)))
