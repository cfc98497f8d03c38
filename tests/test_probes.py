"""Dialect facts probed on the engines themselves (gqlir.probes, gqlir dialects --probe)."""

from __future__ import annotations

import json
from typing import Any

import pytest

import gqlir.probes as probes_module
from gqlir.cli import main
from gqlir.dialect import get_dialect
from gqlir.errors import EngineError
from gqlir.probes import (
    Difference,
    engine_differences,
    first_value,
    probe,
    suite_for,
)
from gqlir.probes.gql import FUNCTIONS
from gqlir.probes.sql import READINGS, TRANSLATIONS

# (dialect, engine): every dialect whose engine runs here, on that engine
ROUTES = [
    ("kuzu", "kuzu"),
    ("neo4j", "neo4j"),
    ("neo4j", "arcadedb"),
    ("falkordb", "falkordb"),
    ("neo4j", "grafeo"),
    ("opencypher9", "grafeo"),
    ("iso-gql", "grafeo"),
    ("sql:sqlite", "sqlite"),
    ("sql:duckdb", "duckdb"),
    ("sql:postgres", "postgres"),
]


@pytest.mark.parametrize(("name", "engine"), ROUTES)
def test_no_fact_is_contradicted_on_the_engine(open_engine: Any, name: str, engine: str) -> None:
    """Each fact holds, or is one the engine records as its own departure from the dialect
    (the dialect describes the language; grafeo and SQLite are implementations of it)."""
    db = open_engine(engine)
    dialect = get_dialect(name)
    findings = probe(
        dialect, first_value(db, dialect.name), differences=engine_differences(db, dialect)
    )
    wrong = [f for f in findings if f.verdict not in ("holds", "engine differs")]
    assert not wrong, wrong
    facts = {f.fact for f in findings}
    assert facts >= {p.capability for p in suite_for(dialect).probes(dialect)}
    assert any(f.startswith("reserved word ") for f in facts)
    # every recorded difference was observed (a stale record is a contradiction)
    differs = {f.fact for f in findings if f.verdict == "engine differs"}
    assert differs == set(engine_differences(db, dialect))


def test_the_gql_probe_graph_leaves_nothing_behind(open_engine: Any) -> None:
    db = open_engine("grafeo")
    dialect = get_dialect("iso-gql")
    probe(dialect, first_value(db, "iso-gql"), reserved=False)
    assert db.run("MATCH (n) RETURN COUNT(*) AS c", dialect="iso-gql").rows == [(0,)]


def test_the_gql_forms_expected_answers_are_the_reference_evaluators(open_engine: Any) -> None:
    """The hand-derived answers of the GQL suite (gqlir/probes/gql.py) are what gqlir's own
    evaluator gives for the same queries, so engine and standard are compared on one reading."""
    db = open_engine("reference")
    dialect = get_dialect("iso-gql")
    findings = probe(dialect, first_value(db, "iso-gql"), reserved=False)
    wrong = [f for f in findings if f.verdict != "holds"]
    assert not wrong, wrong
    forms = [f for f in findings if f.fact.startswith(("path mode", "search prefix", "quantifier"))]
    assert len(forms) >= 4 + 7 + 6


def test_every_gql_function_rename_has_a_probe() -> None:
    dialect = get_dialect("iso-gql")
    written = set(dialect.functions) - set(dialect.capabilities.unsupported_functions)
    assert written <= set(FUNCTIONS), written - set(FUNCTIONS)
    facts = {p.capability for p in suite_for(dialect).probes(dialect)}
    for canonical in written:
        assert f"function {canonical} = {dialect.functions[canonical]}" in facts


def test_every_sql_function_name_has_a_probe() -> None:
    """Each name of sql.toml's [functions] is read with Cypher's meaning (READINGS), and each
    function the SQL emitter writes is translated and run (TRANSLATIONS)."""
    dialect = get_dialect("sql")
    assert set(dialect.functions) <= set(READINGS)
    flavour = get_dialect("sql:duckdb")
    facts = {p.capability for p in suite_for(flavour).probes(flavour)}
    for canonical, name in dialect.functions.items():
        assert f"read: function {canonical} = {name}" in facts
    assert "read: function char_length = CHARACTER_LENGTH" in facts  # an alias
    for written in ("upper", "lower", "char_length", "abs", "coalesce", "nullif", "toFloat"):
        assert f"function {written}" in TRANSLATIONS


def test_a_query_the_sql_emitter_refuses_is_no_fact() -> None:
    """SQLite has no list values: collect() is refused there, so it is not probed."""
    facts = {
        p.capability for p in suite_for(get_dialect("sql:sqlite")).probes(get_dialect("sql:sqlite"))
    }
    assert "written: function upper" in facts
    assert "written: function collect" not in facts
    duck = get_dialect("sql:duckdb")
    assert "written: function collect" in {p.capability for p in suite_for(duck).probes(duck)}


def _kuzu_like(query: str) -> Any:
    """A stand-in engine with Kuzu's rules."""
    answers = {
        "RETURN 2 IN [1, null] AS v": False,
        "RETURN [1, null] = [1, null] AS v": True,
        "RETURN [10, 20, 30][1] AS v": 10,
    }
    if query in answers:
        return answers[query]
    if query == "RETURN [1, 2, 3][10] AS v":
        raise EngineError("index out of range", code="ENGINE")
    if query.startswith("WITH 1 AS MULTI_JOIN "):
        raise EngineError("syntax error", code="ENGINE")
    return {"RETURN 7 / 2 AS v": 3}.get(query)


def test_an_engine_that_answers_otherwise_contradicts_the_file() -> None:
    """A stand-in engine with Kuzu's rules, probed against the Neo4j facts."""
    findings = {f.fact: f for f in probe(get_dialect("neo4j"), _kuzu_like)}
    for fact in ("membership_null_unknown", "list_equality_null_unknown", "list_index_base"):
        assert findings[fact].verdict == "contradicted", findings[fact]
    assert findings["index_out_of_range_null"].observed is False
    assert findings["integer_division"].verdict == "holds"
    assert findings["reserved word MULTI_JOIN"].verdict == "contradicted"  # refused bare, unlisted
    assert findings["sum_empty_null"].observed is True  # it answered null: Neo4j says 0


def test_a_recorded_difference_is_reported_as_the_engines_and_a_stale_one_fails() -> None:
    known = {
        "list_index_base": Difference(1, "1-based"),
        "membership_null_unknown": Difference(False, "false"),
        "contains_empty_true": Difference(False, "no longer so"),
    }
    findings = {f.fact: f for f in probe(get_dialect("neo4j"), _kuzu_like, differences=known)}
    assert findings["list_index_base"].verdict == "engine differs"
    assert findings["list_index_base"].detail == "1-based"
    assert findings["membership_null_unknown"].verdict == "engine differs"
    assert findings["list_equality_null_unknown"].verdict == "contradicted"  # not recorded
    # the stand-in answers nothing for CONTAINS: no answer, not a difference
    assert findings["contains_empty_true"].verdict == "no answer"


def test_a_recorded_difference_the_engine_no_longer_shows_is_a_contradiction() -> None:
    def engine(query: str) -> Any:
        return 3 if query == "RETURN 7 / 2 AS v" else _kuzu_like(query)

    known = {"integer_division": Difference("float", "old engine")}
    findings = {f.fact: f for f in probe(get_dialect("neo4j"), engine, differences=known)}
    assert findings["integer_division"].verdict == "contradicted"
    assert "recorded difference" in findings["integer_division"].detail


def test_the_cli_prints_what_an_engine_contradicts(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert main(["dialects", "kuzu", "--probe", "--engine", "kuzu"]) == 0
    assert "0 contradicted" in capsys.readouterr().err
    # grafeo's Cypher is not Neo4j's: two facts differ, recorded as grafeo's
    assert main(["dialects", "neo4j", "--probe", "--engine", "grafeo", "--json"]) == 0
    found = {f["fact"]: f for f in json.loads(capsys.readouterr().out)}
    assert found["list_equality_null_unknown"]["verdict"] == "engine differs"
    assert found["sum_empty_null"]["verdict"] == "engine differs"
    # without grafeo's record, the same answers contradict the Neo4j facts: exit 1
    monkeypatch.setattr(probes_module, "engine_differences", lambda engine, dialect: {})
    assert main(["dialects", "neo4j", "--probe", "--engine", "grafeo"]) == 1
    out = capsys.readouterr()
    assert "contradicted   list_equality_null_unknown" in out.out
    assert "2 contradicted" in out.err
    # a dialect the engine does not run untranslated, and a family without probes
    assert main(["dialects", "iso-gql", "--probe", "--engine", "kuzu"]) == 2
    assert "untranslated" in capsys.readouterr().err
    assert main(["dialects", "spanner", "--probe", "--engine", "kuzu"]) == 2
    assert "no probes for spanner" in capsys.readouterr().err


def test_the_cli_probes_gql_and_sql_engines(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["dialects", "iso-gql", "--probe", "--engine", "grafeo"]) == 0
    out = capsys.readouterr()
    assert "engine differs" in out.out and "quantifier {,n}" in out.out
    assert "0 contradicted" in out.err
    assert main(["dialects", "sql:duckdb", "--probe", "--engine", "duckdb", "--json"]) == 0
    found = {f["fact"]: f for f in json.loads(capsys.readouterr().out)}
    assert found["sqlglot TYPED_DIVISION"] == {
        "fact": "sqlglot TYPED_DIVISION",
        "declared": False,
        "observed": False,
        "verdict": "holds",
        "detail": "SELECT 7 / 2 AS v",
    }


def test_the_cli_probes_postgres(capsys: pytest.CaptureFixture[str], postgres_server: Any) -> None:
    argv = ["dialects", "sql:postgres", "--probe", "--engine", "postgres"]
    assert main([*argv, "--url", postgres_server.url]) == 0
    assert "0 contradicted" in capsys.readouterr().err


def test_an_engine_in_a_worker_process_keeps_its_recorded_differences() -> None:
    from gqlir.engines import open_engine as open_

    with open_("sqlite", isolated=True) as db:
        known = engine_differences(db, get_dialect("sql:sqlite"))
    assert known["reserved word TRUE"].observed is False
