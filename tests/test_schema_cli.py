"""The schema and graph commands, and validate --schema."""

from __future__ import annotations

import json
import os

import pytest

from gqlir.cli import main

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "schemas")
MOVIES = os.path.join(ROOT, "movies", "schema.json")
SOURCE = os.path.join(HERE, "golden", "schema", "source.json")


def test_convert_to_stdout_and_back(tmp_path, capsys) -> None:
    assert main(["schema", "convert", "--from", "gqlir", "--to", "kuzu", "--lossy", MOVIES]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("CREATE NODE TABLE Person(")
    assert "could not express" in err and "Movie.released: required yes -> no" in err
    ddl = tmp_path / "movies.cypher"
    ddl.write_text(out)
    assert (
        main(["schema", "convert", "--to", "gqlir", str(ddl), "--output", str(tmp_path / "m.json")])
        == 0
    )
    back = json.loads((tmp_path / "m.json").read_text())
    assert back["name"] == "movies" and {n["label"] for n in back["nodes"]} == {
        "Person",
        "Movie",
        "Genre",
        "User",
    }


def test_convert_refuses_to_lose(capsys) -> None:
    assert main(["schema", "convert", "--from", "gqlir", "--to", "neo4j", MOVIES]) == 1
    err = capsys.readouterr().err
    assert "neo4j cannot express" in err and "edge DIRECTED: edge type declared -> absent" in err
    assert main(["schema", "convert", "--to", "neo4j", MOVIES, "--json"]) == 1
    data = json.loads(capsys.readouterr().err)
    report = data["report"]
    assert report["format"] == "neo4j" and report["lost"]
    assert "--lossy" in data["error"]["message"] and "lossy=True" not in data["error"]["message"]


def test_lossy_message_names_the_flag(capsys) -> None:
    assert main(["schema", "convert", "--to", "spanner", MOVIES]) == 1
    err = capsys.readouterr().err
    assert "(pass --lossy to write it anyway)" in err and "lossy=True" not in err


def test_a_prompt_needs_no_lossy_and_json_lists_notes_apart(capsys) -> None:
    assert main(["schema", "convert", MOVIES, "--to", "prompt"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("Graph description: ")
    assert "could not express" not in err
    assert "node Movie: keys (title) -> () (left out by design)" in err
    assert "same meaning" not in err  # n:m written as nothing tells a reader nothing
    assert main(["schema", "convert", MOVIES, "--to", "prompt", "--json"]) == 0
    report = json.loads(capsys.readouterr().err)
    assert report["lost"] == []
    reasons = {n["reason"] for n in report["notes"]}
    assert reasons == {"left out by design", "same meaning", "wording annotation"}


def test_lossy_json_lists_lost_and_notes_separately(capsys) -> None:
    assert main(["schema", "convert", "--to", "sql:sqlite", "--lossy", "--json", SOURCE]) == 0
    report = json.loads(capsys.readouterr().err)
    lost = {(c["element"], c["aspect"]) for c in report["lost"]}
    noted = {(c["element"], c["aspect"]): c["reason"] for c in report["notes"]}
    assert ("node Member.height", "unit") in lost
    assert noted[("node Tag", "keys")] == "added"
    assert not lost & set(noted)


@pytest.mark.parametrize(
    "fmt", ["cypherbench", "tugraph", "spanner", "gql", "sql:duckdb", "sqlpgq:oracle", "prompt"]
)
def test_every_format_name_works(fmt: str, capsys) -> None:
    assert main(["schema", "convert", "--to", fmt, "--lossy", SOURCE]) == 0
    assert capsys.readouterr().out.strip()


def test_usage_errors(capsys) -> None:
    assert main(["schema", "convert", "--to", "nope", MOVIES]) == 2
    assert main(["schema", "convert", "--to", "kuzu", "/no/such/file"]) == 2
    assert main(["schema", "convert", "--from", "gql", "--to", "kuzu", MOVIES]) == 2  # not GQL text
    capsys.readouterr()


def test_show(capsys) -> None:
    assert main(["schema", "show", os.path.join(ROOT, "encyclopedia", "schema.json")]) == 0
    out = capsys.readouterr().out
    assert (
        "edge [:capitalOf] (City)->(Country)  "
        "[1:1; source partial; target total; implies locatedIn]" in out
    )
    assert "area: FLOAT64  (unit km2)" in out


def test_graph_validate(tmp_path, capsys) -> None:
    assert main(["graph", "validate", os.path.join(ROOT, "social", "graph")]) == 0
    assert "valid" in capsys.readouterr().err
    bad = tmp_path / "graph"
    bad.mkdir()
    (bad / "nodes.jsonl").write_text(
        '{"id": 1, "labels": ["Movie"], "properties": {"title": "X", "released": "1999"}}\n'
    )
    (bad / "edges.jsonl").write_text("")
    assert main(["graph", "validate", str(bad), "--schema", MOVIES, "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["issues"][0] == {
        "file": "nodes.jsonl",
        "row": 1,
        "field": "released",
        "reason": "expected INT64, got '1999'",
    }
    assert any("participation of Movie is total" in i["reason"] for i in data["issues"])


def test_validate_with_schema(capsys) -> None:
    q = "MATCH (m:Movie)-[:ACTED_IN]->(p:Persn) RETURN p.nme"
    assert main(["validate", "-d", "neo4j", "--schema", MOVIES, q]) == 1
    err = capsys.readouterr().err
    assert "SCHEMA_WRONG_DIRECTION" in err and "did you mean 'Person'" in err
    assert main(["validate", "-d", "neo4j", "--schema", MOVIES, "--json", q]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["valid"] is False
    assert [i["code"] for i in data["schema_issues"]] == [
        "SCHEMA_WRONG_DIRECTION",
        "SCHEMA_UNKNOWN_LABEL",
    ]
    assert data["schema_issues"][1]["suggestions"] == ["Person"]
    assert (
        main(["validate", "-d", "neo4j", "--schema", MOVIES, "MATCH (p:Person) RETURN p.name"]) == 0
    )


def test_validate_with_a_graph_folder_as_schema(capsys) -> None:
    folder = os.path.join(ROOT, "movies")
    assert main(["validate", "-d", "neo4j", "--schema", folder, "MATCH (m:Movi) RETURN m"]) == 1
    assert "did you mean 'Movie'" in capsys.readouterr().err


def test_validate_batch_with_schema(tmp_path, capsys) -> None:
    inp = tmp_path / "q.jsonl"
    inp.write_text(
        json.dumps({"query": "MATCH (m:Movie) RETURN m.titel", "qid": 7})
        + "\n"
        + json.dumps({"query": "MATCH (m:Movie) RETURN m.title"})
        + "\n"
    )
    assert main(["validate", "-d", "neo4j", "--schema", MOVIES, "--input", str(inp), "-q"]) == 1
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert lines[0]["qid"] == 7 and lines[0]["schema_issues"][0]["suggestions"] == ["title"]
    assert lines[1]["valid"] is True
