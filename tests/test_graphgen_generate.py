"""Synthetic graphs for every example schema: valid, loadable, reproducible from the seed and
from the written config; exact edge totals; counts and errors of the planner."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from gqlir.engines.registry import open_engine
from gqlir.graphgen import GraphGenError, generate, resolve
from gqlir.graphgen.config import check_config, read_config
from gqlir.schema import load_schema
from gqlir.schema.graphdata import iter_edges, iter_nodes, validate_graph

SCHEMAS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "schemas")
NAMES = sorted(
    n for n in os.listdir(SCHEMAS) if os.path.isfile(os.path.join(SCHEMAS, n, "schema.json"))
)


def schema_of(name: str):
    return load_schema(os.path.join(SCHEMAS, name, "schema.json"))


def files(directory: Path) -> dict[str, bytes]:
    out = {}
    for root, _, names in os.walk(directory):
        for n in names:
            path = Path(root) / n
            out[str(path.relative_to(directory))] = path.read_bytes()
    return out


@pytest.mark.parametrize("name", NAMES)
def test_every_example_schema_validates_and_loads(name: str, tmp_path: Path) -> None:
    schema = schema_of(name)
    result = generate(schema, str(tmp_path), seed=11, target_edges=1500)
    report = validate_graph(str(tmp_path), schema)
    assert report.ok, [str(i) for i in report.issues[:5]]
    assert result.edge_total == sum(report.edges.values()) > 1000
    assert dict(report.nodes) == {k: v for k, v in result.nodes.items() if v}
    engine = open_engine("duckdb")
    try:
        counts = engine.load(schema, str(tmp_path))
    finally:
        engine.close()
    assert sum(counts.values()) > 0
    for f in ("schema.json", "graphgen.json", "manifest.json", "nodes.jsonl", "edges.jsonl"):
        assert (tmp_path / f).is_file()
    assert load_schema(str(tmp_path / "schema.json")) == schema


def test_finance_edge_total_is_exact_and_sizes_follow_the_target(tmp_path: Path) -> None:
    schema = schema_of("finance")
    result = generate(schema, str(tmp_path), seed=3, target_edges=5000)
    assert result.edge_total == 5000
    # the default of five edges per node over the node types
    assert result.node_total == 1000
    assert result.edges["own"] == result.nodes["Account"]  # 1:n, every account owned once


def test_same_seed_same_bytes_other_seed_other_bytes(tmp_path: Path) -> None:
    schema = schema_of("social")
    a, b, c = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    generate(schema, str(a), seed=5, target_edges=2000)
    generate(schema, str(b), seed=5, target_edges=2000)
    generate(schema, str(c), seed=6, target_edges=2000)
    assert files(a) == files(b)
    assert (a / "nodes.jsonl").read_bytes() != (c / "nodes.jsonl").read_bytes()
    assert (a / "edges.jsonl").read_bytes() != (c / "edges.jsonl").read_bytes()


def test_the_written_config_reproduces_the_run(tmp_path: Path) -> None:
    schema = schema_of("movies")
    first, second = tmp_path / "first", tmp_path / "second"
    generate(schema, str(first), seed=9, target_edges=1200)
    config = read_config(str(first / "graphgen.json"))
    assert config["seed"] == 9
    # every choice is written down: counts, pair weights, degree and value specs
    assert all("count" in n and "properties" in n for n in config["nodes"].values())
    assert all({"count", "mode", "anchor", "pairs"} <= set(e) for e in config["edges"].values())
    assert config["nodes"]["Person"]["properties"]["name"] == {
        "dist": "name",
        "kind": "full",
        "unique": True,
    }
    generate(schema, str(second), config)
    assert files(first) == files(second)


def test_a_partial_config_overrides_and_toml_reads(tmp_path: Path) -> None:
    schema = schema_of("movies")
    cfg = tmp_path / "gen.toml"
    cfg.write_text(
        "seed = 4\ntarget_edges = 800\n[nodes.Genre]\ncount = 12\n"
        '[nodes.Movie.properties.runtime]\ndist = "uniform"\nmin = 90\nmax = 91\n'
        '[edges.IN_GENRE]\ncount = 150\n[edges.IN_GENRE.degree]\ndist = "poisson"\n',
        encoding="utf-8",
    )
    result = generate(schema, str(tmp_path / "g"), read_config(str(cfg)))
    assert result.nodes["Genre"] == 12
    assert result.edges["IN_GENRE"] == 150
    assert result.config["edges"]["IN_GENRE"]["degree"]["mean"] > 0  # recorded
    runtimes = {
        n.properties.get("runtime")
        for _, n in iter_nodes(str(tmp_path / "g"))
        if "Movie" in n.labels
    }
    assert runtimes - {None} <= {90, 91}
    assert validate_graph(str(tmp_path / "g"), schema).ok


def test_csv_layout_streams_per_type_files_and_validates(tmp_path: Path) -> None:
    schema = schema_of("bookstore")
    generate(schema, str(tmp_path), seed=2, target_edges=600, layout="csv")
    assert sorted(os.listdir(tmp_path / "nodes")) == sorted(
        f"{n.label}.csv" for n in schema.node_types
    )
    report = validate_graph(str(tmp_path), schema)
    assert report.ok, [str(i) for i in report.issues[:5]]
    assert sum(report.edges.values()) == 600


def test_ids_are_dense_and_edges_refer_to_nodes(tmp_path: Path) -> None:
    schema = schema_of("finance")
    generate(schema, str(tmp_path), seed=1, target_edges=800)
    ids = [n.id for _, n in iter_nodes(str(tmp_path))]
    assert ids == list(range(1, len(ids) + 1))
    keys = {n.id: n.properties["id"] for _, n in iter_nodes(str(tmp_path))}
    assert all(k == v for k, v in keys.items())  # an integer key is the node id
    assert all(e.source in keys and e.target in keys for _, e in iter_edges(str(tmp_path)))


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ({"nodes": {"Nope": {"count": 1}}}, "not a node type"),
        ({"edges": {"KNOWS": {}}}, "not an edge type"),
        ({"nodes": {"Person": {"count": -1}}}, "non-negative integer"),
        (
            {"nodes": {"Person": {"properties": {"born": {"dist": "zipf", "nope": 1}}}}},
            "takes no nope",
        ),
        ({"nodes": {"Person": {"properties": {"born": {"dist": "name"}}}}}, "cannot make INT64"),
        ({"nodes": {"Person": {"properties": {"height": {"dist": "uniform"}}}}}, "no property"),
        ({"edges": {"ACTED_IN": {"degree": {"dist": "power_law", "exponent": 0.5}}}}, "above 1"),
        ({"edges": {"ACTED_IN": {"pairs": {"Movie->Person": 1}}}}, "is not one of"),
        ({"layout": "xml"}, "layout"),
    ],
)
def test_config_errors_name_the_problem(config, message: str, tmp_path: Path) -> None:
    schema = schema_of("movies")
    with pytest.raises(GraphGenError, match=message):
        check_config(config)
        generate(schema, str(tmp_path), config, seed=1, target_edges=300)


def test_counts_left_open_need_a_target(tmp_path: Path) -> None:
    with pytest.raises(GraphGenError, match="target_edges"):
        resolve(schema_of("movies"), {})


def test_too_few_edges_for_the_annotations_is_an_error(tmp_path: Path) -> None:
    schema = schema_of("social")
    fixed = {"nodes": {n.label: {"count": 50} for n in schema.node_types}}
    with pytest.raises(GraphGenError, match="too few"):
        resolve(schema, fixed, target_edges=100)


def test_manifest_counts_match_the_files(tmp_path: Path) -> None:
    schema = schema_of("encyclopedia")
    generate(schema, str(tmp_path), seed=8, target_edges=900)
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    report = validate_graph(str(tmp_path), schema)
    assert {k: v for k, v in manifest["edges"].items() if v} == dict(report.edges)
