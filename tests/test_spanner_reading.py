"""Reading Spanner Graph (and the other GQL dialects) as Google documents it: ``+`` is numeric,
and a query may leave its GRAPH clause to the caller."""

from __future__ import annotations

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


def test_zetasql_parses_every_valid_docs_query() -> None:
    from gqlir.checks.zetasql import shared_checker

    checker = shared_checker()
    rejected = [d["id"] for d in VALID_DOCS if not checker.check(d["query"]).accepted]
    assert rejected == []


@pytest.mark.parametrize("item", [d for d in DOCS if not d["valid"]], ids=lambda d: d["id"])
def test_documented_invalid_forms_are_rejected_with_a_position(item: dict) -> None:
    result = api.validate(item["query"], "spanner")
    assert not result.valid
    assert result.error is not None and result.error.line is not None


def test_docs_acceptance_and_round_trip() -> None:
    """The share gqlir reads today (benchmarks/spanner_docs.py prints the rest); every query it
    accepts is written back to Spanner, and nearly all read back to the same IR."""
    accepted = [d for d in VALID_DOCS if api.validate(d["query"], "spanner").valid]
    assert len(accepted) / len(VALID_DOCS) >= 0.8
    same = [
        d["id"]
        for d in accepted
        if api.parse(api.emit(api.parse(d["query"], "spanner"), "spanner"), "spanner")
        == api.parse(d["query"], "spanner")
    ]
    assert len(same) / len(accepted) >= 0.9


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
