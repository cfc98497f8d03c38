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
        "MATCH (n:N) WHERE exists { MATCH (n)-[:T]->(m) WHERE m.x > 2 } RETURN n.x AS x",
        "MATCH (n:N) WHERE size([(n)-[:T]->(m) WHERE m.x > 2 | 1]) > 0 RETURN n.x AS x",
    ),
    (
        "anonymous-relationship-under-a-projection",
        "falkordb",
        "MATCH p = (a:N)-->(b) RETURN *",
        "MATCH p = (a:N)-[r]->(b) RETURN p, a, b",
    ),
    (
        "order-by-after-an-alias-that-shadows-a-variable",
        "kuzu",
        "MATCH (n:N)-[:T]->(m:N) WITH n.x AS x, count(m) AS c ORDER BY x, x + count(m) RETURN x",
        "MATCH (n:N)-[:T]->(m:N) WITH n.x AS x, count(m) AS c WITH x, c ORDER BY x, x + c RETURN x",
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
    given, graph = {"l": [1, 3], "a": 1, "b": 3}, _graph()
    rows = sorted(map(repr, run(refused, graph, given).rows))  # paths compare by identity
    assert rows and sorted(map(repr, run(rewritten, graph, given).rows)) == rows


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


# -- conversions of a value of their own type (gqlir/passes/conversions.py) --------------------

CONVERSIONS = (
    "UNWIND [1, -20, 0, null] AS i WITH i, 'x' AS s, i > 0 AS b "
    "RETURN i, toInteger(i) AS n, toString(s) AS t, toBoolean(b) AS c"
)


@pytest.mark.parametrize("target", ["iso-gql", "tugraph-gql", "spanner"])
def test_gql_conversions_of_known_types_keep_the_rows(target: str) -> None:
    query = CONVERSIONS + ", toString(i) AS s, toFloat(i) AS f"
    text = gqlir.transpile(query, "neo4j", target, graph="g")
    assert "CAST(i AS STRING)" in text and "TOINTEGER" not in text.upper()
    assert "CAST(i AS FLOAT" in text
    rows = run(text, dialect=target).rows
    assert rows == run(query).rows
    assert [type(r[-1]) for r in rows if r[-1] is not None] == [float] * 3  # 1.0, not 1


@pytest.mark.parametrize("target", ["sql:sqlite", "sql:duckdb"])
def test_sql_conversions_of_known_types_run_with_the_same_rows(target: str) -> None:
    text = gqlir.transpile(CONVERSIONS, "neo4j", target)
    if target == "sql:sqlite":
        import sqlite3

        got = sqlite3.connect(":memory:").execute(text).fetchall()
    else:
        import duckdb

        got = duckdb.connect().execute(text).fetchall()
    assert sorted(got, key=repr) == sorted(run(CONVERSIONS).rows, key=repr)


@pytest.mark.parametrize(
    "query",
    [
        "UNWIND [1.5] AS f RETURN toInteger(f) AS n",  # Cypher truncates; CASTs round
        "UNWIND ['1'] AS s RETURN toInteger(s) AS n",
        "UNWIND [1.5] AS f RETURN toString(f) AS s",  # '1.5' vs '1.5E0'
        "MATCH (n) RETURN toString(n.name) AS s",  # a property's type is not known
    ],
)
def test_other_conversions_stay_refused(query: str) -> None:
    with pytest.raises(UnsupportedError) as info:
        gqlir.transpile(query, "neo4j", "iso-gql")
    assert info.value.id.startswith("function:to")


def test_a_walk_variable_shadows_the_outer_one_only_inside_the_walk() -> None:
    from gqlir.dialect import get_dialect
    from gqlir.ir import expr as e
    from gqlir.passes.conversions import lower_conversions

    query = gqlir.parse(
        "UNWIND [1] AS x UNWIND [2] AS y "
        "RETURN [x IN ['a'] | toInteger(x)] AS l, toInteger(y) AS n, toInteger(x) AS m"
    )
    lowered = lower_conversions(query, get_dialect("kuzu"))
    calls = [n for n in lowered.walk() if isinstance(n, e.FunctionCall)]
    # y and the outer x are integers; inside the comprehension x is a string, kept converted
    assert [(c.name, c.args) for c in calls] == [("tointeger", (e.Variable("x"),))]
    items = lowered.steps[-1].items  # type: ignore[attr-defined]
    assert [i.expr for i in items[1:]] == [e.Variable("y"), e.Variable("x")]


def test_kuzu_keeps_to_string_of_an_integer_refused() -> None:
    """Kuzu has CAST, but gqlir's Cypher grammar does not read it back, so toString() of an
    integer stays refused there (a string's toString() is the string itself)."""
    with pytest.raises(UnsupportedError) as info:
        gqlir.transpile("UNWIND [1] AS i RETURN toString(i) AS s", "neo4j", "kuzu")
    assert info.value.id == "function:tostring"
    assert "toString" not in gqlir.transpile(
        "UNWIND ['a'] AS s RETURN toString(s) AS t", "neo4j", "kuzu"
    )


# -- EXISTS as a pattern predicate (gqlir/passes/pattern_predicates.py) ------------------------


@pytest.mark.parametrize(
    "query",
    [
        "MATCH (n:N) WHERE exists { (n)-[:T]->() } RETURN n.x AS x",
        "MATCH (n:N) WHERE NOT exists { (n)<-[:T]-(m) } RETURN n.x AS x",
        "MATCH (n:N) WITH n WHERE exists { (n)-[r:T]->({x: 3}) } RETURN n.x AS x",
    ],
)
@pytest.mark.parametrize("target", ["tugraph-cypher", "falkordb"])
def test_exists_of_one_pattern_is_a_pattern_predicate(query: str, target: str) -> None:
    text = gqlir.transpile(query, "neo4j", target)
    assert "exists" not in text.lower()
    rows = sorted(run(query, _graph()).rows, key=repr)
    assert rows and sorted(run(text, _graph(), dialect=target).rows, key=repr) == rows


def test_exists_of_a_variable_length_pattern_is_a_pattern_predicate_in_tugraph() -> None:
    query = "MATCH (n:N), (m:N) WHERE exists { (n)-[:T*1..2]->(m) } RETURN n.x AS a, m.x AS b"
    text = gqlir.transpile(query, "neo4j", "tugraph-cypher")
    assert "WHERE (n)-[:T*1..2]->(m)" in text
    rows = sorted(run(query, _graph()).rows, key=repr)
    assert rows and sorted(run(text, _graph(), dialect="tugraph-cypher").rows, key=repr) == rows


def test_exists_that_declares_a_variable_twice_stays_refused() -> None:
    with pytest.raises(UnsupportedError) as info:
        gqlir.transpile(
            "MATCH (n) WHERE exists { (n)-->(m)-->(m) } RETURN n", "neo4j", "tugraph-cypher"
        )
    assert info.value.id == "exists-subquery"


@pytest.mark.parametrize(
    "query",
    [
        "OPTIONAL MATCH (n:N) RETURN exists { (n)-[:T]->() } AS e",
        "OPTIONAL MATCH (n:Missing) WHERE n.x = n.x "
        "RETURN CASE WHEN exists { (n)-[:T]->() } THEN n.x ELSE 0 END AS c",
        "MATCH (n:N) WITH n.x AS x, null AS m RETURN exists { (m)-[:T]->() } AS e",
    ],
)
@pytest.mark.parametrize("target", ["tugraph-cypher", "falkordb"])
def test_exists_of_a_variable_that_may_be_null_stays_an_exists(query: str, target: str) -> None:
    # On a null node EXISTS { } is false and a pattern predicate null (FalkorDB drops the row
    # of such a CASE): the rewrite needs the pattern's bound variables to hold a value.
    rows = run(query, _graph()).rows
    assert rows
    with pytest.raises(UnsupportedError) as info:
        gqlir.transpile(query, "neo4j", target)
    assert info.value.id == "exists-subquery"


# -- type(r) of a relationship whose types the MATCH names (passes/relationship_types.py) -----


def _typed_graph():  # type: ignore[no-untyped-def]
    from gqlir.eval import Graph

    g = Graph()
    a = g.create_node(["N"], {"x": 1})
    b = g.create_node(["N"], {"x": 2})
    c = g.create_node(["N"], {"x": 3})
    g.create_relationship("T", a, b, {})
    g.create_relationship("S", b, c, {})
    g.create_relationship("U", c, a, {})
    return g


@pytest.mark.parametrize(
    "query",
    [
        "MATCH (a:N) OPTIONAL MATCH (a)-[r:T]->() RETURN a.x AS x, type(r) AS t",
        "MATCH (a)-[r:T|S]->(b) WITH r, b WHERE type(r) = 'S' RETURN type(r) AS t, b.x AS x",
        "MATCH (a)-[r:T|S|U]->(b) RETURN type(r) AS t, count(*) AS n",
    ],
)
@pytest.mark.parametrize("target", ["iso-gql", "tugraph-gql", "spanner"])
def test_type_of_a_relationship_with_named_types_is_a_label_test(query: str, target: str) -> None:
    text = gqlir.transpile(query, "neo4j", target, graph="g")
    assert "type(" not in text.lower()
    rows = sorted(run(query, _typed_graph()).rows, key=repr)
    got = run(text, _typed_graph(), dialect=target).rows
    assert rows and sorted(got, key=repr) == rows


@pytest.mark.parametrize(
    "query",
    [
        "MATCH ()-[r]->() RETURN type(r) AS t",  # any type
        "MATCH (a)-[r:T]->(b) WITH 1 AS r RETURN type(r) AS t",  # r is no longer the edge
        "MATCH (a)-[r:T]->(b) RETURN [r IN [a] | type(r)] AS t",  # rebound inside
    ],
)
def test_type_of_a_relationship_of_unknown_types_stays_refused(query: str) -> None:
    with pytest.raises(UnsupportedError) as info:
        gqlir.transpile(query, "neo4j", "iso-gql")
    assert info.value.id in ("function:type", "list-comprehension")


def test_the_notes_name_ids_and_targets_that_exist() -> None:
    """Every key of gqlir/refusal_notes.py is an id as refusal_id() writes it, and every target
    key a dialect, a family prefix (``sql``) or ``*``: a typo would silently lose a note."""
    import re

    from gqlir.dialect import get_dialect
    from gqlir.refusal_notes import REWRITES, WHY_NONE

    for table in (REWRITES, WHY_NONE):
        for key, note in table.items():
            assert re.fullmatch(r"(function:[a-z.]+|[a-z0-9]+(-[a-z0-9]+)*)", key), key
            targets = [] if isinstance(note, str) else list(note)
            for target in targets:
                if target not in ("*", "sql"):
                    assert get_dialect(target).name == target
            assert all(
                text.strip() for text in ([note] if isinstance(note, str) else note.values())
            )


@pytest.mark.parametrize(
    "query",
    [
        "MATCH (p:Person) RETURN collect(DISTINCT p.born) AS b",  # collect-of-lists
        "MATCH (p:Person) RETURN p.born % 3 AS m, p.born + p.born AS s",  # % and + on numbers
    ],
)
def test_sql_refusals_that_ask_for_the_schema_translate_with_it(query: str) -> None:
    from pathlib import Path

    from gqlir.schema import load_schema

    with pytest.raises(UnsupportedError) as info:
        gqlir.transpile(query, "neo4j", "sql:duckdb")
    assert "--schema" in (info.value.rewrite or "")
    movies = Path(__file__).resolve().parent.parent / "schemas" / "movies" / "schema.json"
    assert gqlir.transpile(query, "neo4j", "sql:duckdb", schema=load_schema(str(movies)))
