"""The library surface of issue 29: validate with a schema, emitter options as keywords."""

from __future__ import annotations

from pathlib import Path

import pytest

import gqlir
from gqlir import DialectError, SchemaError
from gqlir.schema import load_schema

MOVIES = "schemas/movies"
ROOT = Path(__file__).resolve().parent.parent
BAD = "MATCH (p:Persn)-[:ACTED_IN]->(m:Movie) RETURN m.titel AS t"


# -- validate with a schema ---------------------------------------------------------------------


@pytest.mark.parametrize("dialect", ["neo4j", "iso-gql"])
def test_validate_reports_every_schema_issue_with_positions(dialect: str) -> None:
    result = gqlir.validate(BAD, dialect, schema=MOVIES)
    assert not result.valid
    codes = [i.code for i in result.schema_issues]
    assert codes == ["SCHEMA_UNKNOWN_LABEL", "SCHEMA_UNKNOWN_PROPERTY"]
    label, prop = result.schema_issues
    assert (label.line, label.column) == (1, 10)
    assert label.suggestions == ("Person",)
    assert prop.suggestions == ("title",)
    assert result.error is label
    assert result.errors == result.schema_issues
    assert [i["code"] for i in result.to_dict()["schema_issues"]] == codes


def test_validate_takes_a_schema_object_a_file_and_a_folder() -> None:
    good = "MATCH (p:Person)-[:ACTED_IN]->(m:Movie) RETURN m.title AS t"
    for schema in (MOVIES, MOVIES + "/schema.json", load_schema(MOVIES + "/schema.json")):
        assert gqlir.validate(good, "neo4j", schema=schema).valid
        assert not gqlir.validate(BAD, "neo4j", schema=schema).valid


def test_validate_on_spanner_checks_the_schema_too() -> None:
    result = gqlir.validate(
        "MATCH (m:Movie) RETURN m.titel AS t", "spanner", schema=MOVIES, graph="g"
    )
    assert [i.code for i in result.schema_issues] == ["SCHEMA_UNKNOWN_PROPERTY"]


def test_a_grammar_error_comes_first_and_schema_issues_follow() -> None:
    result = gqlir.validate("MATCH (n:Persn RETURN n", "neo4j", schema=MOVIES)
    assert result.error is not None and result.error.code.startswith("PARSE")
    assert result.schema_issues == ()


def test_a_missing_schema_is_an_error_not_a_pass() -> None:
    with pytest.raises(SchemaError):
        gqlir.validate("MATCH (n) RETURN n", "neo4j", schema="schemas/no-such-graph")


def test_without_a_schema_nothing_is_checked() -> None:
    assert gqlir.validate(BAD, "neo4j").valid


# -- emitter options ----------------------------------------------------------------------------

Q = "MATCH (a:Person) RETURN a.name AS n"


def test_graph_names_the_target_graph() -> None:
    assert gqlir.transpile(Q, "neo4j", "spanner", graph="movies") == "GRAPH movies " + Q
    assert gqlir.transpile(Q, "neo4j", "iso-gql", graph="movies").startswith("USE movies ")
    query = gqlir.parse(Q)
    assert gqlir.emit(query, "spanner", graph="movies") == "GRAPH movies " + Q


def test_graph_of_a_spanner_source_reaches_any_target() -> None:
    assert gqlir.transpile(Q, "spanner", "spanner", graph="g") == "GRAPH g " + Q
    assert gqlir.transpile(Q, "spanner", "neo4j", graph="g") == "USE g " + Q


def test_union_to_spanner_names_the_graph_once_per_branch() -> None:
    union = "MATCH (a) RETURN a.name AS n UNION MATCH (b) RETURN b.title AS n"
    out = gqlir.transpile(union, "neo4j", "spanner", graph="g")
    assert out.startswith("GRAPH g ") and "UNION" in out


def test_pretty_and_spanner_elements() -> None:
    assert (
        gqlir.transpile(Q, "neo4j", "neo4j", pretty=True) == "MATCH (a:Person)\nRETURN a.name AS n"
    )
    out = gqlir.transpile(
        "MATCH (a) RETURN a", "neo4j", "spanner", graph="g", spanner_elements="to_json"
    )
    assert "SAFE_TO_JSON(a)" in out
    with pytest.raises(gqlir.UnsupportedError):
        gqlir.transpile("MATCH (a) RETURN a", "neo4j", "spanner", graph="g")


@pytest.mark.parametrize(
    ("write", "options", "taken"),
    [
        ("neo4j", {"graph": "g"}, "pretty"),
        ("iso-gql", {"spanner_elements": "to_json"}, "pretty, graph, rename_variables"),
        ("sql:duckdb", {"graph": "g"}, "pretty"),
        ("spanner", {"colour": "red"}, "pretty, graph, spanner_elements, rename_variables"),
    ],
)
def test_an_option_the_target_does_not_take_names_the_ones_it_takes(
    write: str, options: dict[str, object], taken: str
) -> None:
    with pytest.raises(DialectError) as info:
        gqlir.transpile(Q, "neo4j", write, **options)  # type: ignore[arg-type]
    assert info.value.code == "EMIT_OPTION"
    assert info.value.message.endswith("it takes " + taken)
    assert repr(next(iter(options))) in info.value.message
    assert gqlir.emit_options(write) == tuple(taken.split(", "))


def test_cli_translate_goes_through_the_same_options(capsys: pytest.CaptureFixture[str]) -> None:
    from gqlir.cli import main

    assert main(["translate", "-f", "neo4j", "-t", "spanner", "-g", "g", Q]) == 0
    assert capsys.readouterr().out.strip() == "GRAPH g " + Q
    assert main(["translate", "-f", "neo4j", "-t", "neo4j", "-g", "g", Q]) != 0
    assert "EMIT_OPTION" in capsys.readouterr().err


def test_load_schema_takes_every_form_a_schema_comes_in(tmp_path: Path) -> None:
    from gqlir.schema import write_schema

    folder = ROOT / "schemas" / "movies"
    schema = load_schema(folder)
    assert load_schema(folder / "graph") == schema == load_schema(folder / "schema.json")
    ddl = tmp_path / "movies.cypher"
    ddl.write_text(write_schema(schema, "neo4j", lossy=True).text)
    again = load_schema(ddl)
    assert {n.label for n in again.node_types} == {n.label for n in schema.node_types}
    with pytest.raises(SchemaError, match=r"no such graph folder|cannot read"):
        load_schema(tmp_path / "nowhere")


def test_dir_shows_the_public_names_only() -> None:
    from gqlir import metrics

    assert dir(gqlir) == sorted(gqlir.__all__)
    assert set(metrics.__all__) == set(metrics._EXPORTS)
    for name in metrics.__all__:
        assert getattr(metrics, name) is not None


def test_dialect_names_for_editors_are_the_ones_gqlir_knows() -> None:
    from typing import get_args

    from gqlir.dialect import DialectName, _raw_specs

    names = set(get_args(DialectName))
    assert set(_raw_specs()) <= names  # every dialect, by its own name
    for name in names:
        assert gqlir.get_dialect(name).name.split(":")[0] == name.split(":")[0]
