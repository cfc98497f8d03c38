"""Injection and quoting in SQL and SQL/PGQ: no parameter name, identifier or string value can
change a query's structure. Examples of each class, then properties over random names and
values (``GQLIR_FUZZ_EXAMPLES`` raises their example counts, ``make fuzz``)."""

from __future__ import annotations

import os

import pytest

import gqlir
from gqlir.errors import ParseError, UnsupportedError

SQL_FLAVOURS = (
    "sql",
    "sql:sqlite",
    "sql:duckdb",
    "sql:postgres",
    "sql:mysql",
    "sql:oracle",
    "sql:tsql",
    "sql:bigquery",
)
PGQ_FORMS = ("sqlpgq", "sqlpgq:oracle", "sqlpgq:postgres", "sqlpgq:duckdb")
MOVIES = os.path.join(os.path.dirname(__file__), "..", "schemas", "movies")


# -- parameter names -----------------------------------------------------------------------------


@pytest.mark.parametrize("target", SQL_FLAVOURS + PGQ_FORMS)
def test_a_parameter_name_the_target_cannot_spell_is_refused(target: str) -> None:
    query = "MATCH (n:Person) WHERE n.name = $`p OR 1 = 1` RETURN n.name AS x"
    with pytest.raises(UnsupportedError) as info:
        gqlir.transpile(query, "neo4j", target, schema=MOVIES)
    assert info.value.construct == "parameter name"
    assert "p OR 1 = 1" in str(info.value)


@pytest.mark.parametrize("target", PGQ_FORMS)
def test_sqlpgq_parameters_read_back_in_each_form(target: str) -> None:
    source = gqlir.parse("USE g MATCH (n:Person) WHERE n.name = $p RETURN n.name AS x", "neo4j")
    text = gqlir.emit(source, target)
    assert gqlir.parse(text, target) == source, text


# -- the SQL/PGQ reader: SQL's lexical rules inside GRAPH_TABLE ----------------------------------


def _where_value(text: str) -> object:
    query = gqlir.parse(
        f"SELECT x FROM GRAPH_TABLE (g MATCH (n IS P) WHERE {text} COLUMNS (n.a AS x))", "sqlpgq"
    )
    return query.steps[1].where  # type: ignore[attr-defined]


def test_sqlpgq_strings_have_no_backslash_escapes() -> None:
    assert _where_value(r"n.a = 'C:\new'").right.value == "C:\\new"
    assert _where_value("n.a = '\\'").right.value == "\\"
    assert _where_value("n.a = 'it''s'").right.value == "it's"


def test_sqlpgq_double_quotes_delimit_names() -> None:
    where = _where_value('"n"."a b" = \'x\' AND n."\\" = n."say ""hi"""')
    assert where.left.left.key == "a b"
    assert where.right.left.key == "\\"
    assert where.right.right.key == 'say "hi"'
    query = gqlir.parse(
        'SELECT x FROM GRAPH_TABLE (g MATCH ("a b" IS P) COLUMNS ("a b".name AS x))', "sqlpgq"
    )
    assert query.steps[1].patterns[0].path.elements[0].variable == "a b"  # type: ignore[attr-defined]


def test_sqlpgq_single_quotes_are_never_names() -> None:
    with pytest.raises(ParseError):
        gqlir.parse("SELECT x FROM GRAPH_TABLE (g MATCH ('n' IS P) COLUMNS (n.a AS x))", "sqlpgq")


def test_a_label_after_a_colon_is_not_a_parameter() -> None:
    query = gqlir.parse(
        "SELECT x FROM GRAPH_TABLE (g MATCH (n:P)-[:R]->(:Q) WHERE n.a = :a COLUMNS (n.a AS x))",
        "sqlpgq:duckdb",
    )
    assert (
        gqlir.emit(query, "neo4j") == "USE g MATCH (n:P)-[:R]->(:Q) WHERE n.a = $a RETURN n.a AS x"
    )


# -- the SQL/PGQ emitter: one quoting rule for every name --------------------------------------


@pytest.mark.parametrize("target", PGQ_FORMS)
def test_a_reserved_word_as_a_name_is_quoted(target: str) -> None:
    source = gqlir.parse(
        "USE g MATCH (`select`:`TRUE`) WHERE `select`.`null` = 1 RETURN `select`.`from` AS `TRUE`",
        "neo4j",
    )
    text = gqlir.emit(source, target)
    assert " AS TRUE" not in text and "IS TRUE" not in text and ".null" not in text.lower()
    assert gqlir.parse(text, target) == source, text


@pytest.mark.parametrize(
    ("target", "bare", "quoted"),
    [
        ("sqlpgq", "ABC", "abc"),
        ("sqlpgq:oracle", "ABC", "Abc"),
        ("sqlpgq:postgres", "abc", "Abc"),
    ],
)
def test_a_name_whose_case_the_flavour_folds_is_quoted(target: str, bare: str, quoted: str) -> None:
    for name, is_quoted in ((bare, False), (quoted, True)):
        source = gqlir.parse(f"USE G MATCH (n:{name}) RETURN n.{name} AS {name}", "neo4j")
        text = gqlir.emit(source, target)
        assert (f'"{name}"' in text) is is_quoted, text
        assert gqlir.parse(text, target) == source, text
