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
