"""Edge drawing: cardinality and participation honoured exactly, degree distributions shaped as
configured, symmetric types stored once, implied edges present, self-loops avoided."""

from __future__ import annotations

import statistics
from collections import Counter
from pathlib import Path

import pytest

from gqlir.graphgen import generate
from gqlir.schema.graphdata import iter_edges, iter_nodes, validate_graph
from gqlir.schema.model import SchemaGraph


def schema_from(edges: list[dict], nodes: list[str] = ("A", "B")) -> SchemaGraph:
    return SchemaGraph.from_dict(
        {
            "name": "t",
            "nodes": [
                {"label": n, "key": ["id"], "properties": [{"name": "id", "type": "INT64"}]}
                for n in nodes
            ],
            "edges": edges,
        }
    )


def run(tmp_path: Path, schema: SchemaGraph, config: dict) -> tuple[list, dict]:
    generate(schema, str(tmp_path), config, seed=3)
    report = validate_graph(str(tmp_path), schema)
    assert report.ok, [str(i) for i in report.issues[:5]]
    types = {n.id: n.labels[0] for _, n in iter_nodes(str(tmp_path))}
    return [e for _, e in iter_edges(str(tmp_path))], types


@pytest.mark.parametrize("card", ["1:1", "n:1", "1:n"])
@pytest.mark.parametrize("part", [None, "source", "target"])
def test_cardinality_and_participation_hold_exactly(
    card: str, part: str | None, tmp_path: Path
) -> None:
    edge = {"label": "R", "endpoints": [["A", "B"]], "cardinality": card}
    if part:
        edge["participation"] = {part: "total"}
    counts = {"A": 300, "B": 300}
    if card == "n:1" and part == "target":
        counts["A"] = 500  # every B needs its own source
    if card == "1:n" and part == "source":
        counts["B"] = 500
    config = {"nodes": {k: {"count": v} for k, v in counts.items()}}
    edges, _ = run(tmp_path, schema_from([edge]), config)
    out = Counter(e.source for e in edges)
    into = Counter(e.target for e in edges)
    if card in ("1:1", "n:1"):
        assert max(out.values()) == 1
    if card in ("1:1", "1:n"):
        assert max(into.values()) == 1
    if part == "source":
        assert len(out) == counts["A"]
    if part == "target":
        assert len(into) == counts["B"]


def test_one_to_one_over_one_type_has_no_self_loops(tmp_path: Path) -> None:
    edge = {
        "label": "NEXT",
        "endpoints": [["A", "A"]],
        "cardinality": "1:1",
        "participation": {"source": "total"},
    }
    edges, _ = run(tmp_path, schema_from([edge], ["A"]), {"nodes": {"A": {"count": 101}}})
    assert len(edges) == 101
    assert all(e.source != e.target for e in edges)


def test_fixed_degree_is_exact(tmp_path: Path) -> None:
    edge = {"label": "R", "endpoints": [["A", "B"]], "cardinality": "n:m"}
    config = {
        "nodes": {"A": {"count": 200}, "B": {"count": 50}},
        "edges": {"R": {"degree": {"dist": "fixed", "value": 4}}},
    }
    edges, _ = run(tmp_path, schema_from([edge]), config)
    assert set(Counter(e.source for e in edges).values()) == {4}


def test_power_law_degrees_have_hubs_and_poisson_do_not(tmp_path: Path) -> None:
    edge = {"label": "R", "endpoints": [["A", "B"]], "cardinality": "n:m"}
    base = {"nodes": {"A": {"count": 2000}, "B": {"count": 2000}}}
    power, _ = run(
        tmp_path / "p",
        schema_from([edge]),
        base | {"edges": {"R": {"count": 12000, "degree": {"dist": "power_law", "exponent": 2.1}}}},
    )
    pois, _ = run(
        tmp_path / "q",
        schema_from([edge]),
        base
        | {
            "edges": {
                "R": {
                    "count": 12000,
                    "degree": {"dist": "poisson"},
                    "popularity": {"dist": "uniform"},
                }
            }
        },
    )
    assert len(power) == len(pois) == 12000  # exact totals
    cp, cq = Counter(e.source for e in power), Counter(e.source for e in pois)
    dp = [cp.get(i, 0) for i in range(1, 2001)]
    dq = [cq.get(i, 0) for i in range(1, 2001)]
    assert max(dp) > 8 * statistics.mean(dp)  # hubs
    assert max(dq) < 3.5 * statistics.mean(dq)
    # Poisson: variance close to the mean (6)
    assert statistics.pvariance(dq) == pytest.approx(6, rel=0.25)


def test_zipf_popularity_skews_targets(tmp_path: Path) -> None:
    edge = {"label": "R", "endpoints": [["A", "B"]], "cardinality": "n:m"}
    config = {
        "nodes": {"A": {"count": 1000}, "B": {"count": 500}},
        "edges": {
            "R": {
                "count": 5000,
                "degree": {"dist": "fixed", "value": 5},
                "popularity": {"dist": "zipf", "s": 1.1},
            }
        },
    }
    edges, _ = run(tmp_path, schema_from([edge]), config)
    top = Counter(e.target for e in edges).most_common()
    assert top[0][1] > 15 * top[len(top) // 2][1]


def test_symmetric_edges_are_stored_once(tmp_path: Path) -> None:
    edge = {"label": "KNOWS", "endpoints": [["A", "A"]], "cardinality": "n:m", "symmetric": True}
    config = {"nodes": {"A": {"count": 300}}, "edges": {"KNOWS": {"count": 3000}}}
    edges, _ = run(tmp_path, schema_from([edge], ["A"]), config)
    pairs = [frozenset((e.source, e.target)) for e in edges]
    assert len(edges) == 3000 and len(set(pairs)) == 3000
    assert all(e.source != e.target for e in edges)


def test_implied_edges_are_drawn(tmp_path: Path) -> None:
    edges_spec = [
        {
            "label": "CAPITAL",
            "endpoints": [["A", "B"]],
            "cardinality": "1:1",
            "participation": {"target": "total"},
            "implies": ["IN"],
        },
        {
            "label": "IN",
            "endpoints": [["A", "B"]],
            "cardinality": "n:1",
            "participation": {"source": "total"},
        },
        {"label": "LIKES", "endpoints": [["A", "B"]], "cardinality": "n:m", "implies": ["SEES"]},
        {"label": "SEES", "endpoints": [["A", "B"]], "cardinality": "n:m"},
    ]
    config = {
        "nodes": {"A": {"count": 400}, "B": {"count": 40}},
        "edges": {"LIKES": {"count": 900}, "SEES": {"count": 1000}},
    }
    edges, _ = run(tmp_path, schema_from(edges_spec), config)  # the validator checks entailment
    by_type = Counter(e.type for e in edges)
    assert by_type["CAPITAL"] == 40 and by_type["IN"] == 400


def test_self_loops_avoided_in_many_to_many_over_one_type(tmp_path: Path) -> None:
    edge = {
        "label": "F",
        "endpoints": [["A", "A"]],
        "cardinality": "n:m",
        "participation": {"target": "total"},
    }
    config = {"nodes": {"A": {"count": 100}}, "edges": {"F": {"count": 1500}}}
    edges, _ = run(tmp_path, schema_from([edge], ["A"]), config)
    assert not [e for e in edges if e.source == e.target]
    assert len({e.target for e in edges}) == 100


def test_multi_pair_types_spread_over_their_pairs(tmp_path: Path) -> None:
    edges_spec = [
        {
            "label": "OWN",
            "endpoints": [["A", "C"], ["B", "C"]],
            "cardinality": "1:n",
            "participation": {"target": "total"},
        }
    ]
    config = {
        "nodes": {"A": {"count": 100}, "B": {"count": 100}, "C": {"count": 300}},
        "edges": {"OWN": {"pairs": {"A->C": 1, "B->C": 2}}},
    }
    edges, types = run(tmp_path, schema_from(edges_spec, ["A", "B", "C"]), config)
    owners = Counter(types[e.source] for e in edges)
    assert owners["A"] + owners["B"] == 300
    assert owners["B"] == pytest.approx(2 * owners["A"], abs=2)
