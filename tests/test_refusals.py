"""Refusals as data: stable ids, every refusal of a query, the documented catalogue."""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import pytest

import gqlir
from gqlir.errors import UnsupportedError
from gqlir.refusals import refusal_id

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    ("construct", "expected"),
    [
        ("function datetime.truncate()", "function:datetime.truncate"),
        ("regex match", "regular-expression-match"),
        ("regular expression match", "regular-expression-match"),
        ("graph element in result", "graph-element-in-result"),
        ("TRAIL path mode", "trail-path-mode"),
        ("path mode TRAIL", "trail-path-mode"),
        ("CREATE/INSERT", "create-insert"),
    ],
)
def test_one_construct_has_one_id_whatever_its_wording(construct: str, expected: str) -> None:
    assert refusal_id(construct) == expected


QUERY = (
    "MATCH (a:Person)-[:KNOWS*]->(b) WHERE a.name =~ 'A(?i)' "
    "RETURN b.name AS n, datetime.truncate('day', b.t) AS d, [x IN b.l | x + 1] AS l"
)


def test_every_refused_construct_of_a_query_is_reported_with_its_position() -> None:
    with pytest.raises(UnsupportedError) as info:
        gqlir.transpile(QUERY, "neo4j", "spanner", graph="g")
    found = info.value.all_refusals()
    assert found[0] is info.value
    ids = [r.id for r in found]
    assert ids[0] == "unbounded-quantifier"
    assert {"function:datetime.truncate", "list-comprehension"} <= set(ids)
    assert len(ids) == len(set(ids))
    columns = [r.column for r in found]
    assert all(c is not None for c in columns) and columns == sorted(columns)
    for r in found:  # each points at its own construct in the text
        assert r.snippet() and QUERY[r.offset :].lower().startswith(
            {"unbounded-quantifier": "*", "function:datetime.truncate": "datetime"}.get(r.id, "")
        )


def test_a_translation_that_succeeds_has_no_refusal_and_a_lone_refusal_is_alone() -> None:
    assert gqlir.transpile("MATCH (n:A) RETURN n.x AS x", "neo4j", "iso-gql")
    with pytest.raises(UnsupportedError) as info:
        gqlir.transpile("MATCH (n:A) RETURN n", "neo4j", "spanner", graph="g")
    assert [r.id for r in info.value.all_refusals()] == ["graph-element-in-result"]


def test_the_cli_prints_every_refusal_and_json_lists_them(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from gqlir.cli import main

    assert main(["translate", "--from", "neo4j", "--to", "spanner", "--graph", "g", QUERY]) == 1
    err = capsys.readouterr().err
    assert err.count("error[UNSUPPORTED]") >= 3 and "[function:datetime.truncate]" in err
    assert (
        main(["translate", "--json", "--from", "neo4j", "--to", "spanner", "-g", "g", QUERY]) == 1
    )
    data = json.loads(capsys.readouterr().out)
    assert data["error"]["id"] == "unbounded-quantifier"
    assert data["refusals"][0]["id"] == "unbounded-quantifier"
    assert len(data["refusals"]) >= 3


def test_a_refusal_crosses_a_process_boundary() -> None:
    with pytest.raises(UnsupportedError) as info:
        gqlir.transpile("MATCH (n:A) RETURN n", "neo4j", "spanner", graph="g")
    again = pickle.loads(pickle.dumps(info.value))
    assert again.to_dict() == info.value.to_dict()


def test_the_catalogue_lists_every_id_the_golden_translations_meet() -> None:
    page = (ROOT / "docs" / "refusals.md").read_text()
    listed = {line.split("`")[1] for line in page.splitlines() if line.startswith("| `")}
    met = set()
    for line in (ROOT / "corpus" / "gql" / "from_cypher.jsonl").read_text().splitlines():
        for expected in json.loads(line)["expected"].values():
            if "refused" in expected:
                met.add(refusal_id(expected["refused"]))
    assert met <= listed, sorted(met - listed)
