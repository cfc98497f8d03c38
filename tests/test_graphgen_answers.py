"""Gold answers under noise: consistent/inconsistent on the reference evaluator, Boolean
verification items for large answers."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gqlir.graphgen import DEFAULT_RATIOS, generate, noise_answers, perturb
from gqlir.graphgen.answers import read_items, write_results
from gqlir.schema import load_schema

SCHEMA = load_schema(
    os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "schemas", "movies", "schema.json"
    )
)
ONLY = dict.fromkeys(DEFAULT_RATIOS, 0.0)


@pytest.fixture(scope="module")
def graphs(tmp_path_factory) -> tuple[str, str]:
    base = tmp_path_factory.mktemp("answers")
    clean, observed = str(base / "clean"), str(base / "observed")
    generate(SCHEMA, clean, seed=1, target_edges=700)
    perturb(
        clean,
        observed,
        SCHEMA,
        {"ratios": ONLY | {"missing_edges": 0.2, "name_typos": 0.3}},
        seed=2,
    )
    return clean, observed


ITEMS = [
    {"id": "genres", "query": "MATCH (g:Genre) RETURN count(g) AS n"},
    {"id": "edges", "query": "MATCH ()-[r:ACTED_IN]->() RETURN count(r) AS n"},
    {
        "id": "names",
        "query": "MATCH (p:Person)-[:ACTED_IN]->(m:Movie) RETURN p.name AS name, m.title AS title",
    },
    {"id": "gql", "dialect": "iso-gql", "query": "MATCH (m:Movie) RETURN count(m) AS n"},
    {"id": "bad", "query": "MATCH (n RETURN n"},
]


def test_items_are_split_consistent_and_inconsistent(graphs) -> None:
    clean, observed = graphs
    out = {r["id"]: r for r in noise_answers(ITEMS, clean, observed, SCHEMA, seed=1)}
    assert out["genres"]["consistent"] is True  # node counts do not change
    assert out["gql"]["consistent"] is True
    assert out["edges"]["consistent"] is False  # 20 % of the edges are gone
    assert (
        out["edges"]["clean_answer"]["rows"][0][0] > out["edges"]["observed_answer"]["rows"][0][0]
    )
    assert out["bad"]["consistent"] is None and out["bad"]["error"]


def test_large_answers_become_verification_items(graphs) -> None:
    clean, observed = graphs
    [rec] = noise_answers(
        [ITEMS[2]], clean, observed, SCHEMA, seed=3, max_rows=10, positives=6, negatives=6
    )
    assert "clean_answer" not in rec and rec["clean_rows"] > 10
    items = rec["verification"]
    positives = [i for i in items if i["expected"]]
    negatives = [i for i in items if not i["expected"]]
    assert len(positives) == 6 and len(negatives) == 6
    assert all(i["columns"] == ["name", "title"] for i in items)
    assert {tuple(i["candidate"]) for i in positives}.isdisjoint(
        tuple(i["candidate"]) for i in negatives
    )
    # noise (typos in names, missing edges) removes some positives from the observed answer
    again = next(
        noise_answers(
            [ITEMS[2]], clean, observed, SCHEMA, seed=3, max_rows=10, positives=6, negatives=6
        )
    )
    assert again == rec  # seeded


def test_items_file_and_results_file(graphs, tmp_path: Path) -> None:
    clean, observed = graphs
    path = tmp_path / "gold.jsonl"
    path.write_text(
        '{"query": "MATCH (g:Genre) RETURN count(g) AS n"}\n{"text": "MATCH (u:User) RETURN count(u) AS n"}\n'
    )
    items = read_items(str(path))
    counts = write_results(
        noise_answers(items, clean, observed, SCHEMA), str(tmp_path / "out.jsonl")
    )
    assert counts == {"consistent": 2, "inconsistent": 0, "error": 0}
