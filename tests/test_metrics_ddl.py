"""Grammar validity (``gqlir eval``'s grammar metric) follows the dialect's own rules, as
``gqlir validate`` does: a DDL statement the dialect documents (Neo4j 5 index and constraint
commands, ISO GQL's CREATE GRAPH TYPE and CREATE GRAPH) is valid in a gold file and in a
prediction, under every convention; a broken one is not."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gqlir.cli import main
from gqlir.metrics.grammar import grammar_score

ROOT = Path(__file__).resolve().parent.parent

DDL = [
    ("neo4j", "CREATE INDEX FOR (n:Person) ON n.name"),
    ("neo4j", "CREATE CONSTRAINT person_name FOR (p:Person) REQUIRE p.name IS UNIQUE"),
    ("neo4j4", "CREATE CONSTRAINT ON (n:Person) ASSERT n.name IS UNIQUE"),
    (
        "iso-gql",
        "CREATE GRAPH TYPE movieType { (p :Person {name STRING}), (m :Movie {title STRING}), "
        "(p)-[:ACTED_IN]->(m) }",
    ),
    ("iso-gql", "CREATE GRAPH IF NOT EXISTS movies TYPED movieType"),
]
BROKEN = [
    ("neo4j", "CREATE INDEX FOR (n:Person) ON"),
    ("iso-gql", "CREATE GRAPH movies TYPED"),
    ("iso-gql", "CREATE GRAPH TYPE t { (p :Person {name STRING} }"),
]


@pytest.mark.parametrize("convention", ["strict", "text2gql"])
@pytest.mark.parametrize(("dialect", "query"), DDL)
def test_documented_ddl_is_valid_gold_and_prediction(dialect, query, convention) -> None:
    assert grammar_score(query, dialect, gold=query, convention=convention) == 1


@pytest.mark.parametrize(("dialect", "query"), BROKEN)
def test_broken_ddl_scores_zero_and_as_gold_minus_one(dialect, query) -> None:
    good = next(q for d, q in DDL if d == dialect)
    assert grammar_score(query, dialect, gold=good) == 0
    assert grammar_score(query, dialect, gold=good, convention="text2gql") == 0
    assert grammar_score(good, dialect, gold=query, convention="text2gql") == -1


def test_eval_scores_a_gold_file_with_ddl(tmp_path: Path) -> None:
    items = [(f"d{i}", d, q) for i, (d, q) in enumerate(DDL)]
    items.append(("q", "neo4j", "MATCH (m:Movie) WHERE m.released = 2014 RETURN m.title"))
    gold = tmp_path / "gold.jsonl"
    pred = tmp_path / "pred.jsonl"
    gold.write_text(
        "".join(
            json.dumps({"id": i, "question": "q", "query": q, "dialect": d}) + "\n"
            for i, d, q in items
        ),
        encoding="utf-8",
    )
    answers = {i: q for i, _, q in items}
    answers["d1"] = BROKEN[0][1]  # a broken prediction of a DDL gold item
    pred.write_text(
        "".join(json.dumps({"id": i, "query": q}) + "\n" for i, q in answers.items()),
        encoding="utf-8",
    )
    out = tmp_path / "out"
    argv = ["eval", "--gold", str(gold), "--pred", str(pred), "--engine", "reference"]
    argv += ["--graph", str(ROOT / "schemas" / "movies"), "--out", str(out), "--quiet"]
    assert main(argv) == 0
    records = {
        r["id"]: r
        for r in map(json.loads, (out / "results.jsonl").read_text(encoding="utf-8").splitlines())
    }
    grammar = {i: r["metrics"]["grammar"] for i, r in records.items()}
    assert grammar == {"d0": 1, "d1": 0, "d2": 1, "d3": 1, "d4": 1, "q": 1}
    # the gold DDL is read, not reported as a gold query that does not parse
    assert all(not r["status"]["gold"].startswith("PARSE") for r in records.values())
