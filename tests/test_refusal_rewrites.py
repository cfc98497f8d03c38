"""Constructs a target lacks that gqlir writes itself with the same meaning (issue 29, item 5):
each translation is run by the reference evaluator under the target's semantics and gives the
source's rows, including the null and empty-list cases where the forms could differ."""

from __future__ import annotations

import pytest

import gqlir
from gqlir.errors import UnsupportedError
from gqlir.eval import run

LISTS = "UNWIND [[1, 2], [1, null], [null], [], null, [3, -1, null], [2, 2, 0]] AS l "


def _same_rows(query: str, target: str) -> str:
    text = gqlir.transpile(query, "neo4j", target)
    expected = run(query).rows
    assert expected, query
    assert run(text, dialect=target).rows == expected, text
    return text


@pytest.mark.parametrize("quantifier", ["all", "any", "none", "single"])
def test_tugraph_cypher_list_predicates_keep_three_valued_answers(quantifier: str) -> None:
    query = (
        LISTS + f"RETURN l, {quantifier}(x IN l WHERE x > 1) AS a, "
        f"{quantifier}(x IN l WHERE x IS NULL) AS b, {quantifier}(y IN l WHERE y <> 2) AS c"
    )
    text = _same_rows(query, "tugraph-cypher")
    assert f"{quantifier}(" not in text and "size([x IN l WHERE" in text


def test_a_nested_list_predicate_is_written_inside_out() -> None:
    query = (
        "UNWIND [[[1], [2, null]], [[]], null, [null, [3]]] AS ls "
        "RETURN ls, any(l IN ls WHERE all(x IN l WHERE x > 1)) AS a"
    )
    _same_rows(query, "tugraph-cypher")


def test_a_list_predicate_that_calls_rand_stays_refused() -> None:
    with pytest.raises(UnsupportedError) as info:
        gqlir.transpile(
            "RETURN any(x IN [1, 2] WHERE rand() > 0.5) AS a", "neo4j", "tugraph-cypher"
        )
    assert info.value.id == "any-list-predicate"


@pytest.mark.parametrize("target", ["iso-gql", "tugraph-gql"])
def test_sign_is_a_case_in_gql_without_sign(target: str) -> None:
    query = "UNWIND [3, -2.5, 0, 0.0, -0.0, null, 7.25] AS x RETURN x, sign(x) AS s"
    text = _same_rows(query, target)
    assert "SIGN" not in text.upper().replace("ASSIGN", "")
    with pytest.raises(UnsupportedError) as info:
        gqlir.transpile("RETURN sign(rand() - 0.5) AS s", "neo4j", target)
    assert info.value.id == "function:sign"


# -- rewrites a user applies (gqlir/refusal_notes.py) -----------------------------------------

#: (refusal id, target, a refused query, the query rewritten as the refusal suggests)
USER_REWRITES = [
    (
        "relationship-variable-bound-before-the-match",
        "falkordb",
        "MATCH (a1)-[r:T]->() WITH r, a1 MATCH (a1)-[r:T]->(b2) RETURN b2.x AS x",
        "MATCH (a1)-[r:T]->() WITH r, a1 MATCH (a1)-[r2:T]->(b2) WHERE r2 = r RETURN b2.x AS x",
    ),
    (
        "exists-subquery",
        "tugraph-cypher",
        "MATCH (n:N) WHERE exists { (n)-[:T]->() } RETURN n.x AS x",
        "MATCH (n:N) WHERE (n)-[:T]->() RETURN n.x AS x",
    ),
    (
        "in-over-a-list-that-is-not-a-literal",
        "sql:sqlite",
        "MATCH (n:N) WHERE n.x IN $l RETURN n.x AS x",
        "MATCH (n:N) WHERE n.x IN [$a, $b] RETURN n.x AS x",
    ),
]


def _graph():  # type: ignore[no-untyped-def]
    from gqlir.eval import Graph

    g = Graph()
    a = g.create_node(["N"], {"x": 1})
    b = g.create_node(["N"], {"x": 2})
    c = g.create_node(["N"], {"x": 3})
    g.create_relationship("T", a, b, {})
    g.create_relationship("T", b, c, {})
    return g


@pytest.mark.parametrize(
    ("refusal", "target", "refused", "rewritten"),
    USER_REWRITES,
    ids=[f"{r[0]}:{r[1]}" for r in USER_REWRITES],
)
def test_a_refusal_suggests_a_rewrite_that_translates_with_the_same_rows(
    refusal: str, target: str, refused: str, rewritten: str
) -> None:
    with pytest.raises(UnsupportedError) as info:
        gqlir.transpile(refused, "neo4j", target)
    assert info.value.id == refusal
    assert info.value.rewrite and info.value.to_dict()["rewrite"] == info.value.rewrite
    assert gqlir.transpile(rewritten, "neo4j", target)
    given = {"l": [1, 3], "a": 1, "b": 3}
    rows = sorted(run(refused, _graph(), given).rows, key=repr)
    assert rows and sorted(run(rewritten, _graph(), given).rows, key=repr) == rows


def test_a_raiser_s_own_rewrite_wins_over_the_catalogued_one() -> None:
    with pytest.raises(UnsupportedError) as info:
        gqlir.transpile("MATCH (n:A) RETURN n", "neo4j", "spanner", graph="g")
    assert "spanner_elements" in (info.value.rewrite or "")


def test_every_catalogued_refusal_has_a_rewrite_or_a_reason() -> None:
    from pathlib import Path

    page = Path(__file__).resolve().parent.parent / "docs" / "refusals.md"
    rows = [line for line in page.read_text(encoding="utf-8").splitlines() if line[:3] == "| `"]
    assert len(rows) > 50
    for row in rows:
        note = row.rstrip(" |").rsplit(" | ", 1)[-1]
        assert ("rewrite: " in note or "none: " in note) and "MISSING" not in note, row
