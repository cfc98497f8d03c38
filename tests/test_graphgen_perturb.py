"""Perturbation: reproducible byte for byte, restored exactly from the noise log, each family
changing what it says at its ratio, values kept valid where the family is not type noise."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from gqlir.graphgen import DEFAULT_RATIOS, GraphGenError, generate, perturb, restore
from gqlir.graphgen.perturbation import resolve_config
from gqlir.schema import load_schema
from gqlir.schema.graphdata import check_value, iter_edges, iter_nodes, validate_graph

SCHEMAS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "schemas")
ONLY = dict.fromkeys(DEFAULT_RATIOS, 0.0)


def schema_of(name: str):
    return load_schema(os.path.join(SCHEMAS, name, "schema.json"))


@pytest.fixture(scope="module")
def clean(tmp_path_factory) -> tuple[str, object]:
    """A finance graph shared by the tests (generation is not what they test)."""
    schema = schema_of("finance")
    out = tmp_path_factory.mktemp("clean")
    generate(schema, str(out), seed=2, target_edges=4000)
    return str(out), schema


def log_records(directory: Path) -> list[dict]:
    return [json.loads(line) for line in (directory / "noise.jsonl").read_text().splitlines()]


def test_fixed_seed_is_reproducible_byte_for_byte(clean, tmp_path: Path) -> None:
    directory, schema = clean
    perturb(directory, str(tmp_path / "a"), schema, seed=5)
    perturb(directory, str(tmp_path / "b"), schema, seed=5)
    perturb(directory, str(tmp_path / "c"), schema, seed=6)
    for name in ("nodes.jsonl", "edges.jsonl", "noise.jsonl", "perturb.json"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()
    assert (tmp_path / "a" / "noise.jsonl").read_bytes() != (
        tmp_path / "c" / "noise.jsonl"
    ).read_bytes()


@pytest.mark.parametrize("name", ["finance", "movies", "social", "biomedical", "encyclopedia"])
def test_restore_gives_the_clean_graph_exactly(name: str, tmp_path: Path) -> None:
    schema = schema_of(name)
    generate(schema, str(tmp_path / "clean"), seed=4, target_edges=1500)
    config = {"attribute_elements": ["nodes", "edges"]}
    perturb(str(tmp_path / "clean"), str(tmp_path / "obs"), schema, config, seed=8)
    assert (tmp_path / "obs" / "edges.jsonl").read_bytes() != (
        tmp_path / "clean" / "edges.jsonl"
    ).read_bytes()
    result = restore(str(tmp_path / "obs"), str(tmp_path / "back"))
    assert result.verified is True
    for f in ("nodes.jsonl", "edges.jsonl"):
        assert (tmp_path / "back" / f).read_bytes() == (tmp_path / "clean" / f).read_bytes()


def test_restore_of_a_csv_clean_graph_gives_the_same_records(tmp_path: Path) -> None:
    schema = schema_of("bookstore")
    generate(schema, str(tmp_path / "clean"), seed=4, target_edges=800, layout="csv")
    perturb(str(tmp_path / "clean"), str(tmp_path / "obs"), schema, seed=1)
    result = restore(str(tmp_path / "obs"), str(tmp_path / "back"), schema=schema)
    assert result.verified is None  # no digest for CSV
    clean_nodes = [n for _, n in iter_nodes(str(tmp_path / "clean"), schema)]
    assert sorted(clean_nodes, key=lambda n: n.id) == sorted(
        (n for _, n in iter_nodes(str(tmp_path / "back"))), key=lambda n: n.id
    )
    clean_edges = [e for _, e in iter_edges(str(tmp_path / "clean"), schema)]
    assert clean_edges == [e for _, e in iter_edges(str(tmp_path / "back"))]


@pytest.mark.parametrize("family", list(DEFAULT_RATIOS))
def test_each_family_changes_what_it_says_at_its_ratio(family: str, clean, tmp_path: Path) -> None:
    directory, schema = clean
    ratio = 0.15
    config = {"ratios": ONLY | {family: ratio}, "attribute_elements": ["nodes", "edges"]}
    result = perturb(directory, str(tmp_path), schema, config, seed=3)
    records = [r for r in log_records(tmp_path) if r["record"] not in ("header", "summary")]
    assert {r["family"] for r in records} == {family}
    changed = result.changes[family]
    assert changed == result.targets[family] > 0
    clean_edges = [e for _, e in iter_edges(directory, schema)]
    clean_nodes = {n.id: n for _, n in iter_nodes(directory, schema)}
    observed_edges = [e for _, e in iter_edges(str(tmp_path))]
    observed_nodes = {n.id: n for _, n in iter_nodes(str(tmp_path))}
    if family == "missing_edges":
        assert changed == round(ratio * len(clean_edges))
        assert len(observed_edges) == len(clean_edges) - changed
        removed = {r["clean_index"] for r in records}
        assert [e for i, e in enumerate(clean_edges) if i not in removed] == observed_edges
    elif family == "false_edges":
        assert changed == round(ratio * len(clean_edges))
        assert observed_edges[: len(clean_edges)] == clean_edges
        added = observed_edges[len(clean_edges) :]
        assert len(added) == changed
        pairs = {frozenset((e.source, e.target)) for e in clean_edges}
        assert not [e for e in added if frozenset((e.source, e.target)) in pairs]  # non-adjacent
    elif family == "relation_type_noise":
        differ = [
            i for i, (a, b) in enumerate(zip(clean_edges, observed_edges)) if a.type != b.type
        ]
        assert len(differ) == changed
        assert all(clean_edges[i].source == observed_edges[i].source for i in differ)
    elif family == "node_type_noise":
        assert changed == round(ratio * len(clean_nodes))
        moved = [i for i in clean_nodes if clean_nodes[i].labels != observed_nodes[i].labels]
        assert len(moved) == changed
        assert all(clean_nodes[i].properties == observed_nodes[i].properties for i in moved)
    else:
        for r in records:
            assert r["record"] == "set_property" and r["old"] != r["new"]
        elements = {(r["element"], r.get("node", r.get("clean_index"))) for r in records}
        assert len(elements) == changed
    if family == "name_typos":
        assert all(r["property"] in ("name", "nickname") for r in records)


def test_value_families_keep_the_graph_valid(clean, tmp_path: Path) -> None:
    directory, schema = clean
    ratios = ONLY | {
        "name_typos": 0.5,
        "numeric_noise": 0.5,
        "string_noise": 0.5,
        "false_edges": 0.2,
    }
    perturb(
        directory,
        str(tmp_path),
        schema,
        {"ratios": ratios, "attribute_elements": ["nodes", "edges"]},
        seed=4,
    )
    report = validate_graph(str(tmp_path), schema)
    assert report.ok, [str(i) for i in report.issues[:5]]
    numeric = [r for r in log_records(tmp_path) if r.get("family") == "numeric_noise"]
    assert numeric and all(r["operation"].startswith("x") for r in numeric)
    amounts = [r for r in numeric if r["property"] == "amount"]
    assert amounts and all(
        check_value(r["new"], schema.edge("transfer").prop("amount").type) is None
        for r in amounts
        if r["element"] == "edge"
    )


def test_node_type_noise_is_invalid_by_design(clean, tmp_path: Path) -> None:
    directory, schema = clean
    perturb(directory, str(tmp_path), schema, {"ratios": ONLY | {"node_type_noise": 0.1}}, seed=4)
    report = validate_graph(str(tmp_path), schema, max_issues=50)
    assert not report.ok
    assert any("has no property" in i.reason or "cannot connect" in i.reason for i in report.issues)


def test_missing_edges_leave_no_node_without_edges(tmp_path: Path) -> None:
    schema = schema_of("movies")
    generate(schema, str(tmp_path / "c"), seed=1, target_edges=600)
    perturb(
        str(tmp_path / "c"),
        str(tmp_path / "o"),
        schema,
        {"ratios": ONLY | {"missing_edges": 0.3}},
        seed=1,
    )

    def touched(d: Path) -> set:
        return {x for _, e in iter_edges(str(d)) for x in (e.source, e.target)}

    assert touched(tmp_path / "c") == touched(tmp_path / "o")


def test_log_header_and_summary(clean, tmp_path: Path) -> None:
    directory, schema = clean
    result = perturb(directory, str(tmp_path), schema, seed=9)
    records = log_records(tmp_path)
    header, summary = records[0], records[-1]
    assert header["record"] == "header" and header["seed"] == 9
    assert header["config"]["ratios"] == DEFAULT_RATIOS
    assert header["clean"]["digest"].startswith("sha256:")
    assert summary["changes"] == result.changes
    assert summary["observed"]["edges"] == sum(1 for _ in iter_edges(str(tmp_path)))
    assert json.loads((tmp_path / "perturb.json").read_text())["seed"] == 9


def test_a_log_that_does_not_belong_to_the_graph_is_refused(clean, tmp_path: Path) -> None:
    directory, schema = clean
    perturb(directory, str(tmp_path / "a"), schema, seed=1)
    perturb(directory, str(tmp_path / "b"), schema, seed=2)
    with pytest.raises(GraphGenError, match="does not match"):
        restore(str(tmp_path / "a"), str(tmp_path / "x"), log=str(tmp_path / "b" / "noise.jsonl"))


def test_ngdbench_profile_names_and_config_errors() -> None:
    cfg = resolve_config({"ratios": {"incomplete_edges": 0.2, "attribute_noise": 0.3}}, 1)
    assert cfg["ratios"]["missing_edges"] == 0.2
    assert cfg["ratios"]["numeric_noise"] == cfg["ratios"]["string_noise"] == 0.3
    with pytest.raises(GraphGenError, match="unknown noise family"):
        resolve_config({"ratios": {"typos": 0.1}}, 1)
    with pytest.raises(GraphGenError, match=r"in \[0, 1\]"):
        resolve_config({"ratios": {"false_edges": 2}}, 1)
    with pytest.raises(GraphGenError, match="unknown key"):
        resolve_config({"ratio": {}}, 1)


def test_the_observed_graph_needs_its_own_directory(clean) -> None:
    directory, schema = clean
    with pytest.raises(GraphGenError, match="own directory"):
        perturb(directory, directory, schema, seed=1)


def test_a_node_of_a_label_the_schema_lacks_is_carried_and_restored(tmp_path: Path) -> None:
    """Its name and text fields are none (it has no type to read them from); the scan once
    added a tuple to a list for it and failed with a TypeError."""
    schema = schema_of("movies")
    generate(schema, str(tmp_path / "c"), seed=1, target_edges=200)
    nodes = tmp_path / "c" / "nodes.jsonl"
    stranger = {"id": "stranger-1", "labels": ["Stranger"], "properties": {"name": "Ann Lee"}}
    with nodes.open("a", encoding="utf-8") as fh:
        fh.write(json.dumps(stranger, separators=(",", ":")) + "\n")
    perturb(str(tmp_path / "c"), str(tmp_path / "o"), schema, seed=1)
    observed = [n for _, n in iter_nodes(str(tmp_path / "o")) if n.id == "stranger-1"]
    assert [n.labels for n in observed] == [("Stranger",)]
    result = restore(str(tmp_path / "o"), str(tmp_path / "back"))
    assert result.verified is True
    assert (tmp_path / "back" / "nodes.jsonl").read_bytes() == nodes.read_bytes()
