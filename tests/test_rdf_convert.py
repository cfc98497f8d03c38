"""RDF to property graph on the bundled Wikidata-shaped sample (tests/data/rdf): the golden
graph folder, what the conversion rules keep and drop, determinism over page and batch sizes,
the plain (non-statement) model, and the converted graph in engines."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gqlir.rdf import convert, load_mapping, open_source, parse_mapping
from gqlir.rdf.queries import members_query, statements_query, values_query
from gqlir.schema.graphdata import validate_graph

DATA = Path(__file__).resolve().parent / "data" / "rdf"
SAMPLE = str(DATA / "sample.ttl")
MAPPING = str(DATA / "sample_mapping.json")
EXPECTED = DATA / "expected"
GOLDEN_FILES = (
    "schema.json",
    "graph/nodes.jsonl",
    "graph/edges.jsonl",
    "report.json",
    "report.txt",
)


@pytest.fixture(scope="module")
def mapping():
    return load_mapping(MAPPING)


@pytest.fixture(scope="module")
def converted(mapping):
    source = open_source(rdf_files=[SAMPLE])
    return convert(mapping, source)


@pytest.fixture(scope="module")
def folder(converted, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("rdf") / "sample"
    converted.write(str(out))
    return out


def test_the_sample_is_what_its_generator_writes() -> None:
    script = DATA / "make_sample.py"
    proc = subprocess.run([sys.executable, str(script), "--check"], capture_output=True)
    assert proc.returncode == 0, "tests/data/rdf/sample.ttl is stale: run make_sample.py"


@pytest.mark.parametrize("name", GOLDEN_FILES)
def test_the_sample_converts_to_the_golden_folder(folder: Path, name: str) -> None:
    got = (folder / name).read_text(encoding="utf-8")
    assert got == (EXPECTED / name).read_text(encoding="utf-8"), (
        f"{name} differs from tests/data/rdf/expected (regenerate with "
        "make_sample.py --expected and review the diff)"
    )


def _nodes(conv) -> dict[str, dict]:
    return {n.id: n.properties for n in conv.nodes}


def test_dates_keep_only_the_precision_the_property_asks_for(converted) -> None:
    nodes = _nodes(converted)
    assert nodes["Company#Q9000001"]["founded"] == "1950-03-01"  # day precision
    assert "founded" not in nodes["Company#Q9000002"]  # year precision: no DATE ...
    assert nodes["Company#Q9000002"]["founded_year"] == 1989  # ... but a year
    assert "founded_year" not in nodes["Company#Q9000003"]  # century: neither
    assert nodes["Person#Q9000204"]["birth_year"] == -50  # BCE: a year, never a DATE
    dropped = converted.report.properties["Person.birth_date"].dropped
    assert dropped == {
        "a year outside the DATE range (1-9999)": 1,
        "precision year is coarser than day": 1,
    }


def test_quantities_are_converted_to_the_target_unit(converted) -> None:
    nodes = _nodes(converted)
    assert nodes["Person#Q9000201"]["height"] == 183.0  # 1.83 m, exact in decimal
    assert nodes["Person#Q9000202"]["height"] == 182.88  # 6 ft
    assert nodes["Country#Q9000302"]["area"] == pytest.approx(386.1 * 2.589988110336)
    height = converted.report.properties["Person.height"]
    assert height.converted == {"metre -> cm": 1, "foot -> cm": 1}
    assert height.dropped == {
        "cannot convert kilogram to cm": 1,
        "unit Q99999 is not listed in rdf.units": 1,
    }
    owns = {(e.source, e.target): e.properties for e in converted.edges if e.type == "OWNS"}
    assert owns[("Company#Q9000001", "Company#Q9000002")] == {"since": 2001, "share": 51.0}


def test_ranks_time_sensitive_relations_keep_history_others_the_best(converted) -> None:
    ceo = {(e.source, e.target): e.properties for e in converted.edges if e.type == "HAS_CEO"}
    # preferred current CEO and normal former CEO kept; the deprecated one is not
    assert ceo[("Company#Q9000001", "Person#Q9000201")] == {"start": "2020-01-15"}
    assert ceo[("Company#Q9000001", "Person#Q9000202")] == {"end": "2019-12-31"}
    assert not any(t == "Person#Q9000203" for _, t in ceo)
    nodes = _nodes(converted)
    assert nodes["Country#Q9000301"]["population"] == 5_000_000  # the preferred value
    assert nodes["Company#Q9000003"]["employees"] == 500
    tally = converted.report.edges["HAS_CEO"]
    assert (tally.fetched, tally.kept) == (6, 3)
    assert tally.dropped["deprecated rank"] == 1


def test_selective_fetching_takes_only_linked_people(converted) -> None:
    people = sorted(n.id for n in converted.nodes if n.labels == ("Person",))
    # not: Cy (only a deprecated CEO), Ed (CEO of a company without an en/fr label), Flo
    assert people == ["Person#Q9000201", "Person#Q9000202", "Person#Q9000204"]


def test_labels_follow_the_language_preference(converted) -> None:
    nodes = _nodes(converted)
    assert nodes["Company#Q9000001"]["name"] == "Acme Corporation"  # en before fr
    assert nodes["Company#Q9000002"]["name"] == "Globex"  # fr only
    assert "Company#Q9000004" not in nodes  # de only: dropped
    assert converted.report.nodes["Company"].dropped == {"no label in en, fr": 1}
    assert nodes["Company#Q9000001"]["industries"] == ["manufacturing", "retail"]


def test_every_dropped_value_is_counted(converted) -> None:
    report = converted.report.to_dict()
    for kind in ("nodes", "edges"):
        for name, tally in report[kind].items():
            assert tally["kept"] + sum(tally["dropped"].values()) == tally["fetched"], name
    assert report["properties"]["Company.employees"]["dropped"] == {
        "a statement of the same subject has a higher rank": 1,
        "not an integer": 1,
    }
    assert report["properties"]["Country.population"]["dropped"]["not a number"] == 1


@pytest.mark.parametrize(("page", "batch"), [(1, 1), (2, 3), (1000, 1000)])
def test_pages_and_batches_do_not_change_the_graph(mapping, converted, page, batch) -> None:
    other = convert(mapping, open_source(rdf_files=[SAMPLE]), page_size=page, batch_size=batch)
    assert (other.nodes, other.edges) == (converted.nodes, converted.edges)
    assert other.report.properties == converted.report.properties


def test_the_graph_validates_against_its_schema(folder: Path, converted) -> None:
    report = validate_graph(str(folder / "graph"), converted.schema)
    assert report.ok, [str(i) for i in report.issues]
    assert dict(report.nodes) == {"Company": 3, "Country": 2, "Person": 3}


@pytest.mark.parametrize("engine_name", ["reference", "sqlite"])
def test_the_graph_loads_into_an_engine_and_answers_queries(
    folder: Path, converted, engine_name: str
) -> None:
    from gqlir.engines.registry import open_engine

    engine = open_engine(engine_name)
    try:
        engine.load(converted.schema, str(folder / "graph"))
        table = engine.run(
            "MATCH (c:Company)-[r:HAS_CEO]->(p:Person) "
            "RETURN c.name AS company, p.name AS ceo, p.height AS cm ORDER BY company, ceo",
            dialect="neo4j",
        )
        assert [tuple(r) for r in table.rows] == [
            ("Acme Corporation", "Ada Example", 183.0),
            ("Acme Corporation", "Bo Sample", 182.88),
            ("Initech", "Di Weight", None),
        ]
        owned = engine.run(
            "MATCH (a:Company)-[o:OWNS]->(b:Company) WHERE o.share > 50 RETURN b.name AS n",
            dialect="neo4j",
        )
        assert [tuple(r) for r in owned.rows] == [("Globex",)]
    finally:
        engine.close()


def test_queries_use_subclass_paths_statements_and_value_nodes(mapping) -> None:
    company = mapping.node("Company")
    members = members_query(mapping, company)
    assert (
        "<http://www.wikidata.org/prop/direct/P31>/<http://www.wikidata.org/prop/direct/P279>* "
        "<http://www.wikidata.org/entity/Q4830453>" in members
    )
    assert members.rstrip().endswith("ORDER BY ?item")
    founded = next(s for s in company.properties if s.name == "founded")
    q = values_query(mapping, founded, ["http://www.wikidata.org/entity/Q1"])
    assert "<http://www.wikidata.org/prop/statement/value/P571>" in q
    assert "<http://wikiba.se/ontology#timePrecision>" in q
    ceo = next(e for e in mapping.edges if e.label == "HAS_CEO")
    q = statements_query(mapping, ceo, company, mapping.node("Person"))
    assert "<http://www.wikidata.org/prop/qualifier/value/P580>" in q
    assert "<http://wikiba.se/ontology#rank>" in q
    assert ceo.rank == "non_deprecated"  # time-sensitive in the schema


PLAIN_TTL = """\
@prefix ex: <http://example.org/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
ex:Novel rdfs:subClassOf ex:Book .
ex:b1 a ex:Novel ; rdfs:label "Dune"@en ; ex:pages "412" ; ex:weight "0.9" ;
    ex:author ex:frank ; ex:inPrint true .
ex:b2 a ex:Book ; rdfs:label "Untitled" ; ex:pages "many" ; ex:author ex:anon .
ex:b3 a ex:Book ; ex:pages "10" .
ex:frank a ex:Person ; rdfs:label "Frank Herbert"@en .
ex:anon a ex:Person .
ex:x a ex:Pamphlet ; rdfs:label "not a book" .
"""

PLAIN_MAPPING = {
    "format": "gqlir-rdf-mapping",
    "name": "books",
    "rdf": {
        "model": "plain",
        "prefixes": {"ex": "http://example.org/"},
        "labels": {"languages": ["en", ""]},
        "page_size": 2,
    },
    "nodes": [
        {
            "label": "Book",
            "rdf": {"class": "ex:Book", "subclasses": True},
            "properties": [
                {"name": "title", "type": "STRING", "required": True, "rdf": {"from": "label"}},
                {"name": "pages", "type": "INT32", "rdf": {"predicate": "ex:pages"}},
                {
                    "name": "grams",
                    "type": "FLOAT64",
                    "unit": "g",
                    "rdf": {"predicate": "ex:weight", "source_unit": "kg"},
                },
                {"name": "in_print", "type": "BOOLEAN", "rdf": {"predicate": "ex:inPrint"}},
            ],
        },
        {
            "label": "Author",
            "rdf": {"linked_by": ["WROTE"], "where": [{"predicate": "rdf:type"}]},
            "properties": [{"name": "iri", "type": "STRING", "rdf": {"from": "iri"}}],
        },
    ],
    "edges": [
        {
            "label": "WROTE",
            "endpoints": [["Author", "Book"]],
            "rdf": {"predicate": "ex:author", "inverse": True},
        }
    ],
}


def test_the_plain_model_reads_triples(tmp_path: Path) -> None:
    ttl = tmp_path / "books.ttl"
    ttl.write_text(PLAIN_TTL, encoding="utf-8")
    mapping = parse_mapping(json.dumps(PLAIN_MAPPING), "books.json")
    result = convert(mapping, open_source(rdf_files=[str(ttl)]))
    nodes = {n.id: n.properties for n in result.nodes}
    assert nodes == {
        "Book#b1": {"title": "Dune", "pages": 412, "grams": 900.0, "in_print": True},
        "Book#b2": {"title": "Untitled"},
        "Author#frank": {"iri": "http://example.org/frank"},
        "Author#anon": {"iri": "http://example.org/anon"},
    }
    assert sorted((e.source, e.target) for e in result.edges) == [
        ("Author#anon", "Book#b2"),
        ("Author#frank", "Book#b1"),
    ]
    assert result.report.properties["Book.pages"].dropped == {"not a number": 1}
    assert result.report.nodes["Book"].dropped == {"no label in en, (none)": 1}
    out = tmp_path / "out"
    result.write(str(out))
    assert validate_graph(str(out / "graph"), result.schema).ok
    assert os.path.isfile(out / "report.txt")


COLLIDING_TTL = """\
@prefix a: <http://a.example/> .
@prefix b: <http://b.example/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
a:x a a:Book ; rdfs:label "one" ; a:lang "en" .
b:x a a:Book ; rdfs:label "two" ; a:lang "fr" .
"""


def test_colliding_local_names_need_full_iri_ids(tmp_path: Path) -> None:
    from gqlir.rdf import RdfError

    ttl = tmp_path / "c.ttl"
    ttl.write_text(COLLIDING_TTL, encoding="utf-8")
    doc = {
        "format": "gqlir-rdf-mapping",
        "rdf": {
            "model": "plain",
            "prefixes": {"a": "http://a.example/"},
            "labels": {"languages": [""]},
        },
        "nodes": [
            {
                "label": "Book",
                "rdf": {
                    "class": "a:Book",
                    "where": [{"predicate": "a:lang", "object": "<http://x/>"}],
                },
                "properties": [{"name": "title", "type": "STRING", "rdf": {"from": "label"}}],
            }
        ],
    }
    # a where pattern no resource matches: no books
    result = convert(parse_mapping(json.dumps(doc)), open_source(rdf_files=[str(ttl)]))
    assert result.nodes == []
    del doc["nodes"][0]["rdf"]["where"]
    with pytest.raises(RdfError, match=r"set rdf\.ids to 'iri'"):
        convert(parse_mapping(json.dumps(doc)), open_source(rdf_files=[str(ttl)]))
    doc["rdf"]["ids"] = "iri"
    result = convert(parse_mapping(json.dumps(doc)), open_source(rdf_files=[str(ttl)]))
    assert [(n.id, n.properties["title"]) for n in result.nodes] == [
        ("Book#http://a.example/x", "one"),
        ("Book#http://b.example/x", "two"),
    ]


def test_importing_gqlir_rdf_loads_neither_pint_nor_pyoxigraph() -> None:
    code = (
        "import sys, gqlir.cli, gqlir.rdf; gqlir.cli.build_parser(); "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pint', 'pyoxigraph')))"
    )
    root = Path(__file__).resolve().parents[1]
    proc = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONPATH=str(root)),
    )
    assert proc.stdout.strip() == "[]", proc.stderr


def test_a_synthesis_run_on_the_converted_graph_produces_a_dataset(folder: Path, tmp_path) -> None:
    """The converted folder is a graph folder like those in schemas/: gqlir synth reads it and
    writes verified items (the sample is small, so items may return no rows)."""
    from gqlir.synth import SynthConfig, synthesize

    config = SynthConfig(schemas=[str(folder)], n=20, seed=7, allow_empty=True)
    items, _ = synthesize(config, str(tmp_path / "dataset"))
    assert len(items) == 20
    assert all("neo4j" in item["queries"] for item in items)
    assert {"Company", "Person"} & {lab for i in items for lab in i["bindings"]["labels"].values()}
    assert (tmp_path / "dataset" / "items.jsonl").read_text().count("\n") == 20
