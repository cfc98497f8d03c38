"""The example domains under schemas/: each graph validates against its schema, and the
committed files are exactly what the seeded generator produces."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from gqlir.schema import load_schema
from gqlir.schema.graphdata import detect_layout, validate_graph

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "schemas")
EXAMPLES = sorted(
    d for d in os.listdir(ROOT) if os.path.exists(os.path.join(ROOT, d, "schema.json"))
)


def test_six_domains_in_every_layout() -> None:
    assert EXAMPLES == ["biomedical", "bookstore", "encyclopedia", "finance", "movies", "social"]
    layouts = {detect_layout(os.path.join(ROOT, d, "graph")) for d in EXAMPLES}
    assert layouts == {"jsonl", "csv", "parquet"}


@pytest.mark.parametrize("name", EXAMPLES)
def test_example_graph_is_valid(name: str) -> None:
    if name == "finance":
        pytest.importorskip("pyarrow")
    schema = load_schema(os.path.join(ROOT, name, "schema.json"))
    report = validate_graph(os.path.join(ROOT, name, "graph"), schema)
    assert report.ok, [str(i) for i in report.issues[:10]]
    nodes, edges = sum(report.nodes.values()), sum(report.edges.values())
    assert 300 <= nodes <= 5000 and edges >= nodes
    assert set(report.nodes) == set(schema.node_labels)
    assert set(report.edges) == set(schema.edge_labels)


def test_generator_reproduces_the_committed_files() -> None:
    pytest.importorskip("pyarrow")
    script = os.path.join(HERE, "..", "scripts", "gen_example_graphs.py")
    done = subprocess.run(
        [sys.executable, script, "--check"], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stdout + done.stderr
