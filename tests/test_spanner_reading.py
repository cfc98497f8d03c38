"""Reading Spanner Graph (and the other GQL dialects) as Google documents it: ``+`` is numeric,
a query may leave its GRAPH clause to the caller, GoogleSQL's expressions have IR meanings (and
are refused by name where another target has none), and the queries of Google's documentation
(corpus/spanner/docs.jsonl) are read, accepted by ZetaSQL and written back to the same IR."""

from __future__ import annotations

import datetime as _dt
import json
from pathlib import Path

import pytest

from gqlir import api
from gqlir.cli import main
from gqlir.errors import GqlirError, ParseError, UnsupportedError
from gqlir.eval import Graph, run
from gqlir.metrics.harness import EvalConfig, run_evaluation

NUMERIC = "GRAPH g MATCH (a:Account) RETURN a.amount + 1 AS id"


def _graph(value: object) -> Graph:
    g = Graph()
    g.create_node(["Account"], {"amount": value})
    return g


# -- + is numeric in every GQL dialect ------------------------------------------------------------


@pytest.mark.parametrize("dialect", ["spanner", "iso-gql", "tugraph-gql"])
def test_gql_plus_is_numeric_addition(dialect: str) -> None:
    text = "MATCH (a) RETURN a.x + 1 AS y"
    if dialect == "spanner":
        text = "GRAPH g " + text
    plus = next(n for n in api.parse(text, dialect).walk() if type(n).__name__ == "Arithmetic")
    assert plus.op.name == "ADD_NUMBERS"


def test_spanner_plus_validates_and_round_trips() -> None:
    assert api.validate(NUMERIC, "spanner").valid
    out = api.transpile(NUMERIC, "spanner", "spanner")
    assert out == NUMERIC
    assert api.parse(out, "spanner") == api.parse(NUMERIC, "spanner")


def test_numeric_plus_adds_numbers_and_propagates_null() -> None:
    assert run(NUMERIC, _graph(41), dialect="spanner").rows == [(42,)]
    assert run(NUMERIC, _graph(1.5), dialect="spanner").rows == [(2.5,)]
    assert run(NUMERIC, _graph(None), dialect="spanner").rows == [(None,)]


def test_numeric_plus_refuses_strings_where_cypher_concatenates() -> None:
    with pytest.raises(GqlirError):
        run(NUMERIC, _graph("7"), dialect="spanner")
    assert run("MATCH (a:Account) RETURN a.amount + 1 AS id", _graph("7")).rows == [("71",)]


def test_numeric_plus_in_cypher_keeps_the_meaning() -> None:
    """An operand of unknown type is made to fail on anything but a number, as under GQL."""
    cypher = api.transpile(NUMERIC, "spanner", "neo4j")
    assert run(cypher, _graph(41)).rows == [(42,)]
    assert run(cypher, _graph(None)).rows == [(None,)]
    with pytest.raises(GqlirError):
        run(cypher, _graph("7"))
    # known numbers are added as they are
    assert "- 0" not in api.transpile("GRAPH g RETURN 1 + 2.5 AS x", "spanner", "neo4j")


def test_gql_plus_adds_durations_to_instants_and_keeps_them_in_cypher() -> None:
    """ISO GQL's datetime and duration value expressions take + (so does GoogleSQL's
    TIMESTAMP + INTERVAL): the arithmetic + is not numbers only."""
    text = (
        "RETURN date('2020-01-31') + duration('P1D') AS d, duration('P1D') + duration('PT1H') AS e"
    )
    day, span = run(text, dialect="iso-gql").rows[0]
    assert str(day) == "2020-02-01" and str(span) == "P1DT1H"
    cypher = api.transpile(text, "iso-gql", "neo4j")
    assert "- 0" not in cypher and run(cypher).rows == run(text, dialect="iso-gql").rows
    with pytest.raises(GqlirError):
        run("RETURN date('2020-01-31') + date('2020-01-31') AS d", dialect="iso-gql")


def test_numeric_plus_to_sql_is_refused_by_name_when_types_are_unknown() -> None:
    from gqlir.dialect import get_dialect
    from gqlir.passes.gql_family import lower_gql_meanings

    with pytest.raises(UnsupportedError) as info:
        lower_gql_meanings(api.parse(NUMERIC, "spanner"), get_dialect("sql"))
    assert "numeric +" in info.value.construct


def test_cypher_plus_to_spanner_is_unchanged() -> None:
    """Cypher's polymorphic + still needs known operand types to be written for Spanner."""
    with pytest.raises(UnsupportedError):
        api.transpile("MATCH (a) RETURN a.x + a.y AS s", "neo4j", "spanner")


# -- the graph named outside the text -------------------------------------------------------------

BARE = "MATCH (a) RETURN a.id AS id"


def test_graph_supplies_the_missing_graph_clause() -> None:
    assert api.validate(BARE, "spanner", graph="g").valid
    assert api.transpile(BARE, "spanner", "spanner", graph="g") == "GRAPH g " + BARE
    assert api.parse(BARE, "spanner", graph="g") == api.parse("GRAPH g " + BARE, "spanner")
    # the text's own clause wins
    assert api.transpile("GRAPH h " + BARE, "spanner", "spanner", graph="g").startswith("GRAPH h")


def test_without_graph_the_error_says_how_to_supply_it() -> None:
    with pytest.raises(ParseError) as info:
        api.parse(BARE, "spanner")
    assert info.value.code == "PARSE_NO_GRAPH"
    assert "--graph-name" in info.value.message and "graph=" in info.value.message


def test_with_graph_adds_the_clause_only_where_needed() -> None:
    assert api.with_graph(BARE, "spanner", "g") == "GRAPH g\n" + BARE
    assert api.with_graph(BARE, "spanner", "a.b") == "GRAPH a.b\n" + BARE
    assert api.with_graph("GRAPH h " + BARE, "spanner", "g") == "GRAPH h " + BARE
    assert api.with_graph(BARE, "iso-gql", "g") == BARE


def test_cli_validate_translate_run_take_the_graph(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "--dialect", "spanner", "--graph", "g", BARE]) == 0
    assert main(["validate", "--dialect", "spanner", BARE]) != 0
    assert "--graph-name" in capsys.readouterr().err
    assert main(["translate", "--from", "spanner", "--to", "spanner", "--graph", "g", BARE]) == 0
    assert capsys.readouterr().out.strip() == "GRAPH g " + BARE
    assert main(["run", "--dialect", "spanner", "--graph-name", "g", "--json", BARE]) == 0
    assert json.loads(capsys.readouterr().out)["rows"] == []


def test_eval_graph_name_reads_text2gql_spanner_items(tmp_path: Path) -> None:
    gold = tmp_path / "gold.jsonl"
    gold.write_text(json.dumps({"id": "1", "query": "RETURN 1 + 1 AS x", "dialect": "spanner"}))
    pred = tmp_path / "pred.jsonl"
    pred.write_text(json.dumps({"id": "1", "query": "RETURN 2 AS x"}))
    config = EvalConfig(str(gold), str(pred), str(tmp_path / "out"), graph_name="g", psjs=False)
    result = run_evaluation(config)
    record = json.loads((tmp_path / "out" / "results.jsonl").read_text().splitlines()[0])
    assert result.total == 1
    assert record["metrics"]["ex"] == 1, record


# -- Spanner Graph queries from Google's documentation --------------------------------------------

DOCS = [
    json.loads(line)
    for line in (Path(__file__).resolve().parents[1] / "corpus/spanner/docs.jsonl")
    .read_text()
    .splitlines()
]
VALID_DOCS = [d for d in DOCS if d["valid"]]


def test_docs_corpus_is_cited_and_large_enough() -> None:
    assert len(VALID_DOCS) >= 150
    assert all(d["source"].startswith("https://cloud.google.com/spanner/docs/") for d in DOCS)


FINGRAPH = Path(__file__).resolve().parents[1] / "corpus/spanner/fingraph.schema.json"


def test_zetasql_analyses_every_valid_docs_query() -> None:
    """Against the catalog of the docs' FinGraph where the query reads it (parse only for the
    few that name another graph)."""
    from gqlir.checks.zetasql import shared_checker
    from gqlir.schema import load_schema

    checker, fingraph = shared_checker(), load_schema(str(FINGRAPH))
    rejected, analysed = [], 0
    for d in VALID_DOCS:
        reads = d["query"].startswith("GRAPH FinGraph ")
        verdict = checker.check(d["query"], fingraph if reads else None)
        analysed += verdict.analysed
        if not verdict.accepted:
            rejected.append((d["id"], verdict.message))
    assert rejected == []
    assert analysed >= 0.95 * len(VALID_DOCS)


@pytest.mark.parametrize("item", [d for d in DOCS if not d["valid"]], ids=lambda d: d["id"])
def test_documented_invalid_forms_are_rejected_with_a_position(item: dict) -> None:
    result = api.validate(item["query"], "spanner")
    assert not result.valid
    assert result.error is not None and result.error.line is not None


def test_docs_acceptance_and_round_trip() -> None:
    """At least 95% of the valid docs queries are accepted (benchmarks/spanner_docs.py prints
    the rest), and every accepted one is written back to Spanner (with FinGraph's property
    types, which decide some spellings) as a text ZetaSQL accepts and that reads back to the
    same IR."""
    from gqlir.schema import load_schema

    fingraph = load_schema(str(FINGRAPH))
    accepted = [d for d in VALID_DOCS if api.validate(d["query"], "spanner").valid]
    assert len(accepted) / len(VALID_DOCS) >= 0.95
    from gqlir.checks.zetasql import shared_checker

    checker = shared_checker()
    changed, rejected = [], []
    for d in accepted:
        query = api.parse(d["query"], "spanner")
        text = api.emit(query, "spanner", schema=fingraph)
        if api.parse(text, "spanner") != query:
            changed.append((d["id"], text))
        # the text written back is Spanner's too
        verdict = checker.check(text, fingraph if text.startswith("GRAPH FinGraph ") else None)
        if not verdict.accepted:
            rejected.append((d["id"], text, verdict.message))
    assert changed == []
    assert rejected == []


@pytest.mark.parametrize(
    "text",
    [
        "GRAPH g MATCH (p) WHERE p.name NOT LIKE 'A%' RETURN p.name AS n",
        "GRAPH g MATCH (p) RETURN STRPOS(p.name, 'a') AS s, TO_JSON(p) AS j",
        "@{force_join_order=true} GRAPH g MATCH (a)-[:R]->@{JOIN_METHOD=HASH_JOIN}(b) RETURN b.x AS x",
    ],
)
def test_googlesql_constructs_round_trip(text: str) -> None:
    query = api.parse(text, "spanner")
    assert api.parse(api.emit(query, "spanner"), "spanner") == query


def test_googlesql_functions_are_refused_by_name_elsewhere() -> None:
    text = "GRAPH g MATCH (p) RETURN STRPOS(p.name, 'a') AS s"
    for target in ("neo4j", "iso-gql"):
        with pytest.raises(UnsupportedError) as info:
            api.transpile(text, "spanner", target)
        assert "strpos" in info.value.construct.lower()


def test_ifnull_and_if_have_ir_meanings() -> None:
    text = "GRAPH g RETURN IFNULL(NULL, 2) AS a, IF(1 > 2, 'x', 'y') AS b"
    assert run(text, Graph(), dialect="spanner").rows == [(2, "y")]
    assert run(api.transpile(text, "spanner", "neo4j"), Graph()).rows == [(2, "y")]


def test_googlesql_like_reads_a_backslash_as_an_escape() -> None:
    """The string literal 'a\\\\%b' holds a\\%b; LIKE reads \\% as a literal percent sign."""
    text = (
        "GRAPH g RETURN 'a%b' LIKE 'a\\\\%b' AS x, 'axb' LIKE 'a\\\\%b' AS y, "
        "'axb' LIKE 'a%b' AS z, 'a\\\\b' LIKE 'a\\\\\\\\b' AS w"
    )
    assert run(text, dialect="spanner").rows == [(True, False, True, True)]
    out = api.transpile(text, "spanner", "spanner")
    assert api.parse(out, "spanner") == api.parse(text, "spanner")
    with pytest.raises(GqlirError):
        run("GRAPH g RETURN 'a' LIKE 'a\\\\' AS x", dialect="spanner")


# -- GoogleSQL expressions: their meanings, and refusals elsewhere ----------------------------------


def _one(text: str, parameters: dict | None = None) -> object:
    (row,) = run(text, Graph(), parameters, dialect="spanner").rows
    (value,) = row
    return value


def _round_trips(text: str) -> None:
    query = api.parse(text, "spanner")
    assert api.parse(api.emit(query, "spanner"), "spanner") == query


def test_googlesql_division_is_a_float_quotient() -> None:
    text = "GRAPH g RETURN 7 / 2 AS q"
    assert _one(text) == 3.5
    _round_trips(text)
    cypher = api.transpile(text, "spanner", "neo4j")
    assert run(cypher, Graph()).rows == [(3.5,)]
    with pytest.raises(GqlirError):
        _one("GRAPH g RETURN 1.0 / 0 AS q")  # GoogleSQL: division by zero is an error
    with pytest.raises(UnsupportedError):
        api.transpile("GRAPH g RETURN 1 / 0 AS q", "spanner", "neo4j")  # Cypher: infinity


@pytest.mark.parametrize(
    "expr, value",
    [
        ("[10, 20, 30][OFFSET(1)]", 20),
        ("[10, 20, 30][1]", 20),  # a bare position is OFFSET
        ("[10, 20, 30][ORDINAL(1)]", 10),
        ("[10, 20, 30][SAFE_OFFSET(3)]", None),
        ("[10, 20, 30][SAFE_ORDINAL(0)]", None),
        ("[10, 20, 30][SAFE_OFFSET(-1)]", None),  # never counted from the end
    ],
)
def test_array_subscripts(expr: str, value: object) -> None:
    text = f"GRAPH g RETURN {expr} AS v"
    assert _one(text) == value
    _round_trips(text)


def test_out_of_range_offset_is_an_error_and_only_safe_literal_positions_translate() -> None:
    with pytest.raises(GqlirError):
        _one("GRAPH g RETURN [10, 20][OFFSET(2)] AS v")
    assert "[10, 20][1]" in api.transpile(
        "GRAPH g RETURN [10, 20][SAFE_ORDINAL(2)] AS v", "spanner", "neo4j"
    )
    for form in ("OFFSET(1)", "SAFE_OFFSET(@i)"):
        with pytest.raises(UnsupportedError) as info:
            api.transpile(f"GRAPH g RETURN [10, 20][{form}] AS v", "spanner", "neo4j")
        assert "array subscript" in info.value.construct


def test_safe_cast_and_struct() -> None:
    assert _one("GRAPH g RETURN SAFE_CAST('x' AS INT64) AS v") is None
    assert _one("GRAPH g RETURN SAFE_CAST('12' AS INT64) AS v") == 12
    assert _one("GRAPH g RETURN STRUCT(1 AS a, 'x' AS b).b AS v") == "x"
    for text in (
        "GRAPH g RETURN SAFE_CAST('12' AS INT64) AS v",
        "GRAPH g RETURN STRUCT(1 AS a, 'x' AS b) AS v",
    ):
        _round_trips(text)
        for target in ("neo4j", "iso-gql"):
            with pytest.raises(UnsupportedError) as info:
                api.transpile(text, "spanner", target)
            assert info.value.construct in ("SAFE_CAST", "STRUCT")


@pytest.mark.parametrize(
    "predicate, value",
    [
        ("'abc' LIKE ANY ('a%', 'x%')", True),
        ("'abc' LIKE SOME ('x%', 'y%')", False),
        ("'abc' LIKE ALL ('a%', '%c')", True),
        ("'abc' LIKE ALL ('a%', 'x%')", False),
        ("'abc' LIKE ANY ('x%', NULL)", None),  # three-valued, as OR
        ("'b' IN ('b')", True),  # one parenthesised value is a list of one
        ("'b' NOT IN ('a', 'c')", True),
        ("3 IN (1 + 2)", True),  # a parenthesised computed value too
        ("'ab' LIKE ANY ('a' || '%')", True),
    ],
)
def test_quantified_like_and_in_lists(predicate: str, value: object) -> None:
    text = f"GRAPH g RETURN {predicate} AS v"
    assert _one(text) == value
    _round_trips(text)
    if "LIKE" not in predicate:  # (Cypher has no LIKE)
        assert run(api.transpile(text, "spanner", "neo4j"), Graph()).rows == [(value,)]


def test_in_unnest_of_null_is_false() -> None:
    """UNNEST(NULL) is an empty array (where Cypher's 1 IN null is null)."""
    text = "GRAPH g RETURN 1 IN UNNEST(@ids) AS v"
    assert _one(text, {"ids": None}) is False
    assert _one(text, {"ids": [1]}) is True
    _round_trips(text)
    assert run(api.transpile(text, "spanner", "neo4j"), Graph(), {"ids": None}).rows == [(False,)]


FRIENDS = (
    "CREATE (a:Person {id: 1, name: 'a'}), (b:Person {id: 2, name: 'b'}), (c:Person {id: 3}), "
    "(a)-[:Knows]->(b), (a)-[:Knows]->(c)"
)


def test_array_and_in_subqueries_keep_nulls_and_mean_what_cypher_says() -> None:
    graph = Graph()
    run(FRIENDS, graph)
    text = (
        "GRAPH g MATCH (p:Person) RETURN p.id AS id, ARRAY { MATCH (x:Person)-[:Knows]->(f) "
        "WHERE x = p RETURN f.name AS n ORDER BY n NULLS LAST } AS names, p.id IN { MATCH (y)-[:Knows]->(z) "
        "RETURN z.id AS zid } AS known ORDER BY id NULLS LAST"
    )
    want = [(1, ["b", None], False), (2, [], True), (3, [], True)]
    assert run(text, graph, dialect="spanner").rows == want
    _round_trips(text)
    assert run(api.transpile(text, "spanner", "neo4j"), graph).rows == want


def test_value_subquery_without_match_names_its_graph() -> None:
    """Spanner's analyser: "Match should be the first operator when the graph reference is
    omitted"; VALUE { GRAPH g FOR … } reads, round-trips and translates."""
    from gqlir.checks.zetasql import shared_checker
    from gqlir.schema import load_schema

    text = (
        "GRAPH FinGraph MATCH (a:Account) RETURN a.id AS id, VALUE { GRAPH FinGraph "
        "FOR x IN [1, 2, 3] FILTER x >= a.id RETURN SUM(x) AS s } AS total"
    )
    query = api.parse(text, "spanner")
    written = api.emit(query, "spanner")
    assert "{ GRAPH FinGraph FOR" in written
    assert api.parse(written, "spanner") == query
    assert shared_checker().check(written, load_schema(str(FINGRAPH))).accepted
    graph = Graph()
    run("CREATE (:Account {id: 2}), (:Account {id: 5})", graph)
    want = [(2, 5), (5, None)]
    assert sorted(run(text, graph, dialect="spanner").rows, key=str) == want
    cypher = api.transpile(text, "spanner", "neo4j")
    assert sorted(run(cypher, graph).rows, key=str) == want
    # without its GRAPH, such a subquery is written with the query's graph
    bare = "RETURN VALUE { RETURN 1 AS one } AS v"
    assert "VALUE { GRAPH g RETURN" in api.transpile(bare, "iso-gql", "spanner", graph="g")


def test_search_count_parameter() -> None:
    text = (
        "GRAPH g MATCH ANY @k (a {id: 1})-[e]->{1,2}(b) RETURN b.id AS id "
        "ORDER BY id NULLS LAST LIMIT 5"
    )
    query = api.parse(text, "spanner")
    pattern = query.steps[1].patterns[0]  # type: ignore[attr-defined]
    assert pattern.search.k == api.ir.Parameter("k")
    _round_trips(text)
    graph = Graph()
    run("CREATE (a {id: 1})-[:R]->(b {id: 2})-[:R]->(c {id: 3})", graph)
    assert run(text, graph, {"k": 1}, dialect="spanner").rows == [(2,), (3,)]
    with pytest.raises(GqlirError):
        run(text, graph, {"k": "x"}, dialect="spanner")


@pytest.mark.parametrize(
    "text",
    [
        "GRAPH g MATCH (p) WHERE p.birthday < TIMESTAMP '1990-01-10 10:00:00' RETURN p.id AS id",
        "GRAPH g MATCH (p) WHERE REGEXP_CONTAINS(p.name, r'^A\\d') RETURN p.id AS id",
        "GRAPH g RETURN ARRAY<FLOAT64>[1, 2.5] AS a, ARRAY_LENGTH(ARRAY<INT64>[]) AS n",
        "GRAPH g MATCH (n) RETURN TO_JSON(n)['properties']['name'] AS name",
        "GRAPH g MATCH (a)-[t]->(b) RETURN a.id AS id, ARRAY_AGG(t.x) AS xs, "
        "ARRAY_AGG(DISTINCT t.x IGNORE NULLS) AS ys, STDDEV_SAMP(t.x) AS sd GROUP BY id",
        "GRAPH g MATCH (a) RETURN a.name AS name ORDER BY a.name LIMIT 2",
        "GRAPH g MATCH (a) RETURN a.id AS id UNION ALL MATCH (b) RETURN b.id AS id",
        "GRAPH g MATCH (a) RETURN TRIM(a.name) AS t, ROUND(a.x) AS r, LOG(a.x, 2) AS l",
    ],
)
def test_googlesql_forms_round_trip(text: str) -> None:
    _round_trips(text)


def test_raw_strings_keep_backslashes() -> None:
    assert _one("GRAPH g RETURN r'a\\d' AS v") == "a\\d"
    assert _one("GRAPH g RETURN 'a\\\\d' AS v") == "a\\d"


def test_googlesql_length_is_a_string_length() -> None:
    assert _one("GRAPH g RETURN LENGTH('abc') AS v") == 3
    assert "PATH_LENGTH" not in api.transpile(
        "GRAPH g RETURN LENGTH('abc') AS v", "spanner", "spanner"
    )


@pytest.mark.parametrize(
    "text, message",
    [
        ("GRAPH g MATCH (a)->(b) RETURN a.id, b.id", "two columns are named id"),
        ("GRAPH g MATCH (a) LET x = a.id, y = x + 1 RETURN y", "x is defined by this LET"),
        ("GRAPH g RETURN UNNEST([1]) AS v", "UNNEST"),
        ("GRAPH g RETURN OFFSET(1) AS v", "only allowed in [ ]"),
        ("GRAPH g MATCH (a) RETURN a.x IN a.l AS v", "IN needs a parenthesised list"),
    ],
)
def test_invalid_googlesql_is_refused_with_a_position(text: str, message: str) -> None:
    result = api.validate(text, "spanner")
    assert not result.valid and result.error is not None
    assert message in result.error.message and result.error.line is not None


FINGRAPH_DATA = """CREATE
(p1:Person {id: 1, name: 'Alex', country: 'Germany', city: 'Adelaide'}),
(p2:Person {id: 2, name: 'Dana', country: 'Czech', city: 'Moravia'}),
(p3:Person {id: 3, name: 'Lee', country: 'Germany', city: 'Kollam'}),
(a7:Account {id: 7, is_blocked: false, nick_name: 'Vacation Fund'}),
(a16:Account {id: 16, is_blocked: true, nick_name: 'Vacation Fund'}),
(a20:Account {id: 20, is_blocked: false, nick_name: 'Rainy Day Fund'}),
(p1)-[:Owns]->(a7), (p2)-[:Owns]->(a20), (p3)-[:Owns]->(a16),
(a7)-[:Transfers {amount: 300.0}]->(a16), (a7)-[:Transfers {amount: 100.0}]->(a16),
(a16)-[:Transfers {amount: 300.0}]->(a20), (a20)-[:Transfers {amount: 500.0}]->(a7),
(a20)-[:Transfers {amount: 200.0}]->(a16)"""


def test_docs_queries_translated_to_cypher_give_spanner_answers() -> None:
    """Each accepted docs query that the evaluator runs under Spanner's semantics on a small
    FinGraph and that translates to Neo4j Cypher gives the same rows there (as a multiset)."""
    graph = Graph()
    run(FINGRAPH_DATA, graph)
    params = {"k": 2, "ids": [7, 16], "id": 7, "name": "Alex"}
    clock = _dt.datetime(2024, 6, 1, 12, 0, tzinfo=_dt.UTC)  # one statement clock
    compared, differ = 0, []
    for d in VALID_DOCS:
        if not api.validate(d["query"], "spanner").valid:
            continue
        if "CURRENT_TIMESTAMP" in d["query"].upper():
            continue  # the clock moves between the two runs
        try:
            want = run(d["query"], graph, params, dialect="spanner", clock=clock).rows
            cypher = api.transpile(d["query"], "spanner", "neo4j")
        except GqlirError:
            continue  # a GoogleSQL function the evaluator lacks, or a refusal by name
        got = run(cypher, graph, params, clock=clock).rows
        compared += 1
        if sorted(map(repr, want)) != sorted(map(repr, got)):
            differ.append((d["id"], cypher))
    assert differ == []
    assert compared >= 130
