"""Reading the schema of a live Neo4j-compatible database: on a real Neo4j Community started
by the tests (scripts/neo4j-local), and against a stand-in driver for what Community cannot
hold (node keys and property type constraints are Enterprise features), with rows shaped as
Neo4j 5 returns them.
"""

from __future__ import annotations

from typing import Any

from conftest import example

from gqlir.cli import main
from gqlir.schema import load_schema
from gqlir.schema.formats import neo4j


class _Result:
    def __init__(self, rows: list[dict[str, Any]]) -> None:
        self.rows = rows

    def data(self) -> list[dict[str, Any]]:
        return self.rows


class _Session:
    def __init__(self, answers: dict[str, list[dict[str, Any]]]) -> None:
        self.answers = answers
        self.asked: list[str] = []

    def __enter__(self) -> _Session:
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    def run(self, query: str) -> _Result:
        self.asked.append(query)
        for prefix, rows in self.answers.items():
            if query.startswith(prefix):
                return _Result(rows)
        raise AssertionError(f"unexpected query {query}")


class _Driver:
    def __init__(self, answers: dict[str, list[dict[str, Any]]]) -> None:
        self.session_ = _Session(answers)
        self.database: str | None = "unset"

    def session(self, database: str | None = None) -> _Session:
        self.database = database
        return self.session_


ANSWERS = {
    "CALL db.schema.nodeTypeProperties": [
        {
            "nodeType": ":`Person`",
            "nodeLabels": ["Person"],
            "propertyName": "name",
            "propertyTypes": ["String"],
            "mandatory": True,
        },
        {
            "nodeType": ":`Person`",
            "nodeLabels": ["Person"],
            "propertyName": "born",
            "propertyTypes": ["Long"],
            "mandatory": False,
        },
        {
            "nodeType": ":`Person`",
            "nodeLabels": ["Person"],
            "propertyName": "aliases",
            "propertyTypes": ["StringArray"],
            "mandatory": False,
        },
        {
            "nodeType": ":`Movie`",
            "nodeLabels": ["Movie"],
            "propertyName": "title",
            "propertyTypes": ["String"],
            "mandatory": True,
        },
        {
            "nodeType": ":`Movie`",
            "nodeLabels": ["Movie"],
            "propertyName": "released",
            "propertyTypes": ["Date"],
            "mandatory": False,
        },
        {
            "nodeType": ":`Movie`",
            "nodeLabels": ["Movie"],
            "propertyName": "rating",
            "propertyTypes": ["Double", "Long"],
            "mandatory": False,
        },
    ],
    "CALL db.schema.relTypeProperties": [
        {
            "relType": ":`ACTED_IN`",
            "propertyName": "roles",
            "propertyTypes": ["StringArray"],
            "mandatory": False,
        },
        {"relType": ":`DIRECTED`", "propertyName": None, "propertyTypes": None, "mandatory": False},
    ],
    "MATCH (a)-[r]->(b)": [
        {"source": ["Person"], "type": "ACTED_IN", "target": ["Movie"]},
        {"source": ["Person"], "type": "DIRECTED", "target": ["Movie"]},
    ],
    "SHOW CONSTRAINTS": [
        {
            "name": "pk",
            "type": "NODE_KEY",
            "entityType": "NODE",
            "labelsOrTypes": ["Person"],
            "properties": ["name"],
            "propertyType": None,
        },
        {
            "name": "u",
            "type": "UNIQUENESS",
            "entityType": "NODE",
            "labelsOrTypes": ["Movie"],
            "properties": ["title"],
            "propertyType": None,
        },
        {
            "name": "t",
            "type": "NODE_PROPERTY_TYPE",
            "entityType": "NODE",
            "labelsOrTypes": ["Movie"],
            "properties": ["rating"],
            "propertyType": "FLOAT",
        },
    ],
    "SHOW INDEXES": [
        {
            "name": "i",
            "type": "RANGE",
            "entityType": "NODE",
            "labelsOrTypes": ["Movie"],
            "properties": ["released"],
            "owningConstraint": None,
        },
        {
            "name": "pk",
            "type": "RANGE",
            "entityType": "NODE",
            "labelsOrTypes": ["Person"],
            "properties": ["name"],
            "owningConstraint": "pk",
        },
        {
            "name": "l",
            "type": "LOOKUP",
            "entityType": "NODE",
            "labelsOrTypes": None,
            "properties": None,
            "owningConstraint": None,
        },
    ],
}


def test_read_live_schema() -> None:
    driver = _Driver(ANSWERS)
    s = neo4j.read_live(driver, database="movies", name="movies")
    assert driver.database == "movies"
    person, movie = s.node("Person"), s.node("Movie")
    assert person is not None and movie is not None
    assert person.keys == ("name",)
    assert str(person.prop("aliases").type) == "LIST<STRING>"  # type: ignore[union-attr]
    assert str(movie.prop("released").type) == "DATE" and movie.prop("released").indexed  # type: ignore[union-attr]
    assert (
        str(movie.prop("rating").type) == "FLOAT64"
    )  # mixed values, narrowed by the type constraint
    assert movie.prop("title").unique and movie.prop("title").required  # type: ignore[union-attr]
    acted = s.edge("ACTED_IN")
    assert acted is not None and [str(e) for e in acted.endpoints] == ["(Person)->(Movie)"]
    directed = s.edge("DIRECTED")
    assert directed is not None and directed.properties == ()
    assert any(q.startswith("SHOW CONSTRAINTS") for q in driver.session_.asked)


def test_schema_convert_reads_a_live_neo4j(
    open_engine: Any, neo4j_server: str, tmp_path: Any
) -> None:
    """``gqlir schema convert --from neo4j bolt://…`` on the movies graph loaded into Neo4j:
    labels, endpoints and property types come back from the stored data; uniqueness and
    indexes from Neo4j's constraints (Community has no node keys or type constraints)."""
    engine = open_engine("neo4j")
    engine.load(*example("movies"))
    engine.run(
        "CREATE CONSTRAINT movie_title IF NOT EXISTS FOR (m:Movie) REQUIRE m.title IS UNIQUE"
    )
    engine.run("CREATE INDEX person_born IF NOT EXISTS FOR (p:Person) ON (p.born)")
    out = tmp_path / "movies.json"
    try:
        args = ["schema", "convert", "--from", "neo4j", "--to", "gqlir", neo4j_server]
        assert main([*args, "--name", "movies", "--output", str(out)]) == 0
    finally:
        engine.run("DROP CONSTRAINT movie_title IF EXISTS")
        engine.run("DROP INDEX person_born IF EXISTS")
    live = load_schema(str(out))
    assert {n.label for n in live.node_types} == {"Person", "Movie", "Genre", "User"}
    assert {e.label for e in live.edge_types} >= {"ACTED_IN", "DIRECTED", "RATED", "FOLLOWS"}
    person, movie = live.node("Person"), live.node("Movie")
    assert str(person.prop("name").type) == "STRING"
    assert str(person.prop("born").type) == "INT64" and person.prop("born").indexed
    assert str(movie.prop("languages").type) == "LIST<STRING>"
    assert movie.prop("title").unique and movie.prop("title").required
    acted = live.edge("ACTED_IN")
    assert [str(e) for e in acted.endpoints] == ["(Person)->(Movie)"]
    assert str(acted.prop("roles").type) == "LIST<STRING>"
    assert str(live.edge("RATED").prop("timestamp").type) == "DATETIME"
