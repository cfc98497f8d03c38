"""Dialect facts probed on the engines themselves (gqlir.probes, gqlir dialects --probe)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from gqlir.cli import main
from gqlir.dialect import get_dialect
from gqlir.errors import EngineError
from gqlir.probes import CYPHER_PROBES, first_value, probe


@pytest.mark.parametrize("engine", ["kuzu", "neo4j"])
def test_no_fact_of_the_engines_own_dialect_is_contradicted(open_engine: Any, engine: str) -> None:
    db = open_engine(engine)
    findings = probe(get_dialect(engine), first_value(db, engine))
    wrong = [f for f in findings if f.verdict != "holds"]
    assert not wrong, wrong
    assert {f.fact for f in findings} >= {p.capability for p in CYPHER_PROBES}


def test_an_engine_that_answers_otherwise_contradicts_the_file() -> None:
    """A stand-in engine with Kuzu's rules, probed against the Neo4j facts."""
    answers = {
        "RETURN 2 IN [1, null] AS v": False,
        "RETURN [1, null] = [1, null] AS v": True,
        "RETURN [10, 20, 30][1] AS v": 10,
    }

    def run(query: str) -> Any:
        if query in answers:
            return answers[query]
        if query == "RETURN [1, 2, 3][10] AS v":
            raise EngineError("index out of range", code="ENGINE")
        if query.startswith("WITH 1 AS MULTI_JOIN "):
            raise EngineError("syntax error", code="ENGINE")
        return {"RETURN 7 / 2 AS v": 3}.get(query)

    findings = {f.fact: f for f in probe(get_dialect("neo4j"), run)}
    for fact in ("membership_null_unknown", "list_equality_null_unknown", "list_index_base"):
        assert findings[fact].verdict == "contradicted", findings[fact]
    assert findings["index_out_of_range_null"].observed is False
    assert findings["integer_division"].verdict == "holds"
    assert findings["reserved word MULTI_JOIN"].verdict == "contradicted"  # refused bare, unlisted
    assert findings["sum_empty_null"].observed is True  # it answered null: Neo4j says 0


def test_the_cli_prints_what_an_engine_contradicts(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["dialects", "kuzu", "--probe", "--engine", "kuzu"]) == 0
    assert "0 contradicted" in capsys.readouterr().err
    # grafeo's Cypher is not Neo4j's: two facts differ, and the exit code says so
    assert main(["dialects", "neo4j", "--probe", "--engine", "grafeo", "--json"]) == 1
    found = {f["fact"]: f for f in json.loads(capsys.readouterr().out)}
    assert found["list_equality_null_unknown"]["verdict"] == "contradicted"
    assert main(["dialects", "iso-gql", "--probe", "--engine", "kuzu"]) == 2
    assert "Cypher dialects" in capsys.readouterr().err
