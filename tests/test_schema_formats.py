"""Schema formats: golden files, round trips, and loss reports.

For every format F, tests/golden/schema/F.txt is what F can say of source.json (regenerate with
tests/golden/schema/regen.py and review the diff), F.lost lists what it cannot, and F.notes what
changes without loss.
"""

from __future__ import annotations

import importlib.util
import os

import pytest

from gqlir.errors import SchemaError
from gqlir.schema import SchemaGraph, load_schema
from gqlir.schema.formats import detect_format, format_names, parse_format, prompt, read, write

HERE = os.path.dirname(os.path.abspath(__file__))
GOLDEN = os.path.join(HERE, "golden", "schema")
ROOT = os.path.join(HERE, "..", "schemas")
_spec = importlib.util.spec_from_file_location("regen", os.path.join(GOLDEN, "regen.py"))
_regen = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_regen)  # the golden files' format list and file names
EXAMPLES = sorted(
    d for d in os.listdir(ROOT) if os.path.exists(os.path.join(ROOT, d, "schema.json"))
)
FORMATS = _regen.FORMATS


def golden(fmt: str, ext: str) -> str:
    with open(os.path.join(GOLDEN, _regen.file_stem(fmt) + ext), encoding="utf-8") as fh:
        return fh.read()


@pytest.fixture(scope="module")
def source() -> SchemaGraph:
    return load_schema(os.path.join(GOLDEN, "source.json"))


@pytest.mark.parametrize("fmt", FORMATS)
def test_golden_read_write_read(fmt: str, source: SchemaGraph) -> None:
    text = golden(fmt, ".txt")
    first = read(text, fmt, name=source.name)
    again = write(first, fmt)  # lossless: the golden text says only what the format can say
    assert again.text == text
    assert not again.report
    assert read(again.text, fmt, name=source.name) == first


@pytest.mark.parametrize("fmt", FORMATS)
def test_writing_the_source_loses_exactly_what_the_golden_lists(
    fmt: str, source: SchemaGraph
) -> None:
    result = write(source, fmt, lossy=True)
    assert result.report.lines() == golden(fmt, ".lost").splitlines()
    assert result.report.note_lines() == golden(fmt, ".notes").splitlines()
    assert read(result.text, fmt, name=source.name) == read(
        golden(fmt, ".txt"), fmt, name=source.name
    )


@pytest.mark.parametrize("fmt", [f for f in FORMATS if golden(f, ".lost")])
def test_loss_is_an_error_unless_lossy(fmt: str, source: SchemaGraph) -> None:
    with pytest.raises(SchemaError) as info:
        write(source, fmt)
    assert info.value.code == "SCHEMA_LOSSY"
    assert info.value.report.lines() == golden(fmt, ".lost").splitlines()  # type: ignore[attr-defined]
    assert "cannot express" in info.value.message
    assert "lossy=True to write it anyway" in info.value.message
    assert "--lossy" not in info.value.message  # the CLI says its own flag


def test_a_prompt_keeps_what_a_model_reads(source: SchemaGraph) -> None:
    result = write(source, "prompt")  # no lossy=True: nothing a prompt carries is lost
    back = read(result.text, "prompt", name=source.name)
    assert back.description == source.description
    for label in source.node_labels:
        node, again = source.node(label), back.node(label)
        assert node is not None and again is not None
        assert (again.description, again.extra_labels) == (node.description, node.extra_labels)
        for p in node.properties:
            q = again.prop(p.name)
            assert q is not None and (q.type, q.required, q.unit) == (p.type, p.required, p.unit)
    assert {c.aspect for c in result.report.notes} <= prompt.OMITS[None]
    assert not {"description", "unit", "required", "extra_labels", "type"} & prompt.OMITS[None]


def test_a_description_on_several_lines_is_a_loss_in_a_prompt(source: SchemaGraph) -> None:
    schema = source.replace(description="line one\nline two")
    with pytest.raises(SchemaError) as info:
        write(schema, "prompt")
    assert info.value.report.lines() == [  # type: ignore[attr-defined]
        "graph: description line one\nline two -> line one line two"
    ]


def test_additions_and_same_meaning_defaults_are_notes(source: SchemaGraph) -> None:
    tag = write(source, "sql:sqlite", lossy=True).report
    assert "node Tag: keys () -> (id) (added)" in tag.note_lines()
    assert "node Tag.id: property absent -> declared (added)" in tag.note_lines()
    assert not any("Tag" in line for line in tag.lines())
    spanner = write(source, "spanner", lossy=True).report
    assert "edge STOCKS: cardinality n:m -> (none) (same meaning)" in spanner.note_lines()
    assert not any("cardinality" in line for line in spanner.lines())


@pytest.mark.parametrize("example", EXAMPLES)
def test_every_bundled_schema_writes_as_a_prompt_without_lossy(example: str) -> None:
    schema = load_schema(os.path.join(ROOT, example, "schema.json"))
    assert not write(schema, "prompt").report


def test_gqlir_json_expresses_everything(source: SchemaGraph) -> None:
    assert not write(source, "gqlir").report
    assert SchemaGraph.from_json(source.to_json()) == source


@pytest.mark.parametrize("example", EXAMPLES)
@pytest.mark.parametrize("fmt", FORMATS)
def test_examples_round_trip(example: str, fmt: str) -> None:
    schema = load_schema(os.path.join(ROOT, example, "schema.json"))
    first = read(write(schema, fmt, lossy=True).text, fmt, name=schema.name)
    again = write(first, fmt)
    assert not again.report
    assert read(again.text, fmt, name=schema.name) == first


def test_specific_losses_are_named(source: SchemaGraph) -> None:
    neo4j = write(source, "neo4j", lossy=True).report.lines()
    assert "edge BORROWED: endpoints ((Member)->(Book)) -> ()" in neo4j
    assert "node Book.price: type DECIMAL(8,2) -> FLOAT64" in neo4j
    tug = write(source, "tugraph", lossy=True).report.lines()
    assert "node Member.last_seen: type DATETIME -> LOCAL_DATETIME" in tug  # not STRING
    spanner = write(source, "spanner", lossy=True).report.lines()
    assert "node Book.printed_at: type LOCAL_DATETIME -> DATETIME" in spanner
    assert not any("last_seen" in line for line in spanner)  # TIMESTAMP keeps a DATETIME
    kuzu = write(source, "kuzu", lossy=True).report.lines()
    assert "node Branch: keys (city, number) -> (city)" in kuzu


def test_multi_endpoint_edges_survive_the_table_formats(source: SchemaGraph) -> None:
    for fmt in ("spanner", "sqlpgq", "sql:postgres", "kuzu", "gql", "cypherbench", "tugraph"):
        back = read(write(source, fmt, lossy=True).text, fmt, name=source.name)
        edge = back.edge("INTERESTED_IN")
        assert edge is not None and {str(e) for e in edge.endpoints} == {
            "(Member)->(Book)",
            "(Member)->(Tag)",
        }, fmt


def test_golden_files_cover_every_format() -> None:
    # sql:<dialect> stands for any sqlglot dialect; the goldens pin four of them.
    named = {f for f in format_names() if f != "sql:<dialect>"}
    assert named <= set(FORMATS)
    assert {f for f in FORMATS if f.startswith("sql:")} >= {"sql:sqlite", "sql:postgres"}


def test_format_names_and_detection(source: SchemaGraph) -> None:
    assert "sqlpgq:duckdb" in format_names()
    with pytest.raises(SchemaError):
        parse_format("nope")
    with pytest.raises(SchemaError):
        parse_format("sql")
    with pytest.raises(SchemaError):
        read("CREATE TABLE t (a INT)", "sql:no_such_dialect")
    for fmt, expected in (
        ("gqlir", "gqlir"),
        ("cypherbench", "cypherbench"),
        ("tugraph", "tugraph"),
        ("gql", "gql"),
        ("kuzu", "kuzu"),
        ("neo4j", "neo4j"),
        ("spanner", "spanner"),
        ("sqlpgq", "sqlpgq"),
        ("prompt", "prompt"),
        ("tugraph:procedures", "tugraph:procedures"),
    ):
        assert detect_format(golden(fmt, ".txt")) == expected


@pytest.mark.parametrize(
    "fmt, text, where",
    [
        ("gql", "CREATE GRAPH TYPE g { (:A {x FOO}) }", "FOO"),
        (
            "kuzu",
            "CREATE NODE TABLE A(id INT64, PRIMARY KEY (id));\n"
            "CREATE REL TABLE R(FROM A TO A, x WEIRD);",
            "WEIRD",
        ),
        (
            "spanner",
            "CREATE TABLE A (\n  id INT64 NOT NULL\n) PRIMARY KEY (id);\nDROP TABLE A;",
            "DROP",
        ),
        ("neo4j", "CREATE CONSTRAINT c FOR (n:A) REQUIRE n.x IS :: FANCY;", "FANCY"),
        ("tugraph:procedures", "CALL db.createVertexLabel('A', 'id', 'id', 'INT64');", "("),
    ],
)
def test_syntax_errors_have_positions(fmt: str, text: str, where: str) -> None:
    with pytest.raises(SchemaError) as info:
        read(text, fmt)
    assert info.value.offset is not None
    assert text[info.value.offset :].startswith(where)
    assert info.value.line is not None and info.value.snippet()


def test_cypherbench_reads_its_own_files() -> None:
    data = """{"name": "nba", "entities": [{"label": "Player", "description": "A player",
      "properties": {"height_cm": "float", "position": "categorical", "drafted": "date"}},
      {"label": "Team", "properties": {}}],
      "relations": [{"label": "playsFor", "subj_label": "Player", "obj_label": "Team",
      "properties": {"start_year": "int", "end_year": "int"}}],
      "graph_info": {"relations": [{"label": "playsFor", "variants": ["playsFor#Player#Team"],
      "is_symmetric": false, "is_time_sensitive": true, "is_mandatory_subj": true,
      "is_mandatory_obj": true, "subj_cardinality": "many", "obj_cardinality": "many",
      "implied_relations": []}]}}"""
    s = read(data, "cypherbench")
    player = s.node("Player")
    assert player is not None and player.property_names == (
        "name",
        "height_cm",
        "position",
        "drafted",
    )
    assert player.prop("position").categorical  # type: ignore[union-attr]
    plays = s.edge("playsFor")
    assert plays is not None and plays.time_sensitive and plays.cardinality is not None
    assert plays.cardinality.value == "n:m"
    assert not write(s, "cypherbench").report
