"""Mapping files: what a valid one says, and that every bad one is a MappingError naming the
JSON path and pointing at the line and column of the offending value; bad RDF files likewise."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from gqlir.rdf import (
    MappingError,
    RdfDataError,
    SparqlError,
    load_mapping,
    open_source,
    parse_mapping,
)
from gqlir.rdf.jsontext import locate, parse_path_text, path_text

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "rdf"
SAMPLE_MAPPING = json.loads((DATA / "sample_mapping.json").read_text(encoding="utf-8"))


def test_the_sample_mapping_reads(tmp_path: Path) -> None:
    m = load_mapping(str(DATA / "sample_mapping.json"))
    assert [n.label for n in m.nodes] == ["Company", "Country", "Person"]  # fetch order
    assert m.node("Person").linked_by == ("HAS_CEO",)
    assert m.units["http://www.wikidata.org/entity/Q3710"] == "foot"
    assert m.languages == ("en", "fr")
    height = next(s for s in m.node("Person").properties if s.name == "height")
    assert (height.shape, height.unit, height.predicate) == ("quantity", "cm", "P2048")
    year = next(s for s in m.node("Person").properties if s.name == "birth_year")
    assert (year.shape, year.min_precision) == ("time", 9)
    assert m.schema.node("Person").prop("height").unit == "cm"


def test_the_wikidata_example_mappings_read() -> None:
    for path in sorted((ROOT / "examples" / "rdf").glob("*.json")):
        m = load_mapping(str(path))
        assert m.model == "wikidata" and m.nodes and m.edges, path


def test_json_paths_locate_values() -> None:
    text = '{"a": [1, {"b": "x"}], "c": {"d": [true]}}'
    assert text[locate(text, ["a", 1, "b"]) :].startswith('"b"')
    assert text[locate(text, ["a", 1]) :].startswith('"b"')  # an object: its first key
    assert text[locate(text, ["c", "d", 0]) :].startswith("true")
    assert locate(text, ["a", 5]) is None and locate(text, ["zz"]) is None
    assert parse_path_text(path_text(["nodes", 2, "rdf", "class", 0])) == [
        "nodes",
        2,
        "rdf",
        "class",
        0,
    ]


def _edit(change) -> str:
    """The sample mapping with ``change`` applied to a copy, as indented JSON text."""
    doc = copy.deepcopy(SAMPLE_MAPPING)
    change(doc)
    return json.dumps(doc, indent=2, ensure_ascii=False)


def _set(path: list[Any], value: Any):
    def change(doc: dict[str, Any]) -> None:
        target = doc
        for step in path[:-1]:
            target = target[step]
        target[path[-1]] = value

    return change


def _delete(path: list[Any]):
    def change(doc: dict[str, Any]) -> None:
        target = doc
        for step in path[:-1]:
            target = target[step]
        del target[path[-1]]

    return change


NODE0 = ["nodes", 0]
PERSON = ["nodes", 1]
EDGE0 = ["edges", 0]

BAD = [
    # (what is wrong, the change, words of the message, text on the line the caret is on)
    ("format", _set(["format"], "gqlir-schema"), "'format' must be", '"format"'),
    ("unknown field", _set([*NODE0, "rdf", "clas"], "wd:Q5"), "unknown field 'clas'", '"clas"'),
    (
        "unknown prefix",
        _set([*NODE0, "rdf", "class"], "foo:Q5"),
        "unknown prefix in 'foo:Q5'",
        "foo:Q5",
    ),
    (
        "schema type",
        _set([*NODE0, "properties", 2, "type"], "INTEGER"),
        "unknown type",
        '"name": "founded"',
    ),
    (
        "linked_by to nothing",
        _set([*PERSON, "rdf", "linked_by"], ["FOUNDED"]),
        "'FOUNDED' is not an edge type",
        '"FOUNDED"',
    ),
    (
        "linked_by to an edge that does not touch the type",
        _set([*PERSON, "rdf", "linked_by"], ["LOCATED_IN"]),
        "does not connect Person",
        '"LOCATED_IN"',
    ),
    (
        "no class and no linked_by",
        _set([*NODE0, "rdf"], {"subclasses": True}),
        "needs a 'class', 'linked_by', or both",
        '"rdf"',
    ),
    (
        "a property without rdf",
        _delete([*NODE0, "properties", 2, "rdf"]),
        "property 'founded' has no 'rdf' block",
        '"name": "founded"',
    ),
    (
        "a wdt: predicate in the wikidata model",
        _set([*NODE0, "properties", 2, "rdf", "predicate"], "wdt:P571"),
        "a predicate is a property id",
        "wdt:P571",
    ),
    (
        "an unknown unit",
        _set(["rdf", "units", "wd:Q3710"], "smoots"),
        "'smoots' is not a unit pint knows",
        "smoots",
    ),
    (
        "a target unit pint does not know",
        _set([*PERSON, "properties", 4, "unit"], "cubits-ish"),
        "is not a unit pint knows",
        "cubits-ish",
    ),
    (
        "year on a string",
        _set([*NODE0, "properties", 1, "rdf"], {"predicate": "P571", "year": True}),
        "'year' fills an integer property",
        '"year"',
    ),
    (
        "both predicate and from",
        _set([*NODE0, "properties", 0, "rdf"], {"from": "id", "predicate": "P1"}),
        "either 'predicate' or 'from'",
        '"rdf"',
    ),
    (
        "from on a number",
        _set([*NODE0, "properties", 4, "rdf"], {"from": "label"}),
        "fills a STRING property",
        '"from"',
    ),
    (
        "a type RDF cannot fill",
        _set([*NODE0, "properties", 2, "type"], "POINT"),
        "POINT cannot be filled from RDF",
        '"type": "POINT"',
    ),
    (
        "an edge without endpoints",
        _set(["edges", 2, "endpoints"], []),
        "needs endpoints",
        '"label": "CITIZEN_OF"',
    ),
    (
        "an edge property without qualifier",
        _set([*EDGE0, "properties", 0, "rdf"], {"predicate": "P580"}),
        "unknown field 'predicate'",
        '"predicate": "P580"',
    ),
    ("a bad rank", _set([*EDGE0, "rdf", "rank"], "best"), "'rank' must be one of", '"rank"'),
    (
        "a language that is not a tag",
        _set(["rdf", "labels", "languages"], ["en", 'fr") || true || ("']),
        "is not a language tag",
        "true",
    ),
    ("a page size of 0", _set(["rdf", "page_size"], 0), "at least 1", '"page_size"'),
    ("a string page size", _set(["rdf", "page_size"], "9"), "must be an integer", '"page_size"'),
    (
        "min_precision on a number",
        _set([*NODE0, "properties", 4, "rdf", "min_precision"], 9),
        "applies to dates and years",
        '"min_precision"',
    ),
    (
        "a linked_by cycle",
        _set([*NODE0, "rdf", "linked_by"], ["HAS_CEO"]),
        "depend on each other in a cycle",
        '"linked_by"',
    ),
]


@pytest.mark.parametrize(("case", "change", "words", "line_text"), BAD, ids=[b[0] for b in BAD])
def test_a_bad_mapping_is_an_error_at_its_place(case, change, words, line_text) -> None:
    text = _edit(change)
    with pytest.raises(MappingError) as info:
        parse_mapping(text, "m.json")
    err = info.value
    assert words in err.message, err.message
    assert err.message.startswith("m.json: ")
    assert err.line is not None, f"{case}: no position in {err.message!r}"
    line = text.splitlines()[err.line - 1]
    assert line_text in line, f"{case}: caret on {line!r}"
    assert "^" in str(err)  # the snippet


PLAIN_BASE = {
    "format": "gqlir-rdf-mapping",
    "rdf": {"model": "plain", "prefixes": {"ex": "http://example.org/"}},
    "nodes": [
        {
            "label": "A",
            "rdf": {"class": "ex:A"},
            "properties": [{"name": "w", "type": "FLOAT64", "unit": "kg", "rdf": {}}],
        }
    ],
    "edges": [],
}


@pytest.mark.parametrize(
    ("rdf", "words"),
    [
        ({"predicate": "ex:w"}, "needs 'source_unit'"),
        ({"predicate": "ex:w", "source_unit": "g", "rank": "highest"}, "wikidata"),
        ({"predicate": "ex:w", "source_unit": "litre"}, None),
    ],
)
def test_plain_model_rules(rdf: dict[str, Any], words: str | None) -> None:
    doc = copy.deepcopy(PLAIN_BASE)
    doc["nodes"][0]["properties"][0]["rdf"] = rdf
    text = json.dumps(doc, indent=1)
    if words is None:  # litre -> kg is a conversion failure at run time, not a mapping error
        assert parse_mapping(text).node("A").properties[0].source_unit == "litre"
        return
    with pytest.raises(MappingError, match=words):
        parse_mapping(text)


def test_invalid_json_points_at_the_syntax_error() -> None:
    text = '{\n  "format": "gqlir-rdf-mapping",\n  "nodes": [,]\n}'
    with pytest.raises(MappingError) as info:
        parse_mapping(text, "m.json")
    assert "not valid JSON" in info.value.message
    assert (info.value.line, info.value.column) == (3, 13)


def test_duplicate_keys_are_refused() -> None:
    with pytest.raises(MappingError, match="appears twice"):
        parse_mapping('{"format": "gqlir-rdf-mapping", "format": "x"}')


def test_an_unreadable_mapping_file(tmp_path: Path) -> None:
    with pytest.raises(MappingError, match="cannot read"):
        load_mapping(str(tmp_path / "missing.json"))


def test_bad_turtle_points_at_the_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.ttl"
    bad.write_text(
        '@prefix ex: <http://example.org/> .\nex:a ex:p "ok" .\nex:b ex:p "unterminated .\n',
        encoding="utf-8",
    )
    with pytest.raises(RdfDataError) as info:
        open_source(rdf_files=[str(bad)])
    assert info.value.message.startswith(f"{bad}: not valid")
    assert info.value.line == 3
    assert "unterminated" in str(info.value)


def test_bad_ntriples_and_unknown_files(tmp_path: Path) -> None:
    bad = tmp_path / "bad.nt"
    bad.write_text("<http://a> <http://b> .\n", encoding="utf-8")
    with pytest.raises(RdfDataError, match="not valid"):
        open_source(rdf_files=[str(bad)])
    odd = tmp_path / "data.xyz"
    odd.write_text("", encoding="utf-8")
    with pytest.raises(RdfDataError, match="unknown RDF file extension"):
        open_source(rdf_files=[str(odd)])
    with pytest.raises(RdfDataError, match="cannot read"):
        open_source(rdf_files=[str(tmp_path / "missing.ttl")])


def test_an_iri_that_could_end_early_is_never_written_into_a_query() -> None:
    from gqlir.rdf.terms import sparql_iri

    assert sparql_iri("http://www.wikidata.org/entity/Q5") == "<http://www.wikidata.org/entity/Q5>"
    with pytest.raises(SparqlError):
        sparql_iri("http://x> } DELETE WHERE { ?s ?p ?o")
