"""The packages' layering: no import cycle between packages (imports inside functions count),
lower layers never import the API, and a translation loads only the compiler."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import import_cycles  # noqa: E402

#: Packages below the API: the compiler and the evaluator.
_LOWER = (
    "gqlir.ir",
    "gqlir.analysis",
    "gqlir.dialect",
    "gqlir.errors",
    "gqlir.parser",
    "gqlir.emitter",
    "gqlir.passes",
    "gqlir.eval",
    "gqlir.schema",
    "gqlir.sqlmapping",
    "gqlir.databases",
)


def test_no_import_cycle_between_packages() -> None:
    found = import_cycles.cycles()
    assert found == [], [" -> ".join(cycle) for _, cycle in found]


def test_the_cycle_finder_finds_a_cycle() -> None:
    edges = {"a": {"b": ("a", "b", 1)}, "b": {"c": ("b", "c", 1)}, "c": {"a": ("c", "a", 1)}}
    (component,) = import_cycles.strongly_connected(edges)  # type: ignore[arg-type]
    assert component == ["a", "b", "c"]
    assert import_cycles.a_cycle(component, edges) == ["a", "b", "c", "a"]  # type: ignore[arg-type]


def test_lower_layers_never_import_the_api() -> None:
    edges, _ = import_cycles.import_graph()
    upward = {
        (source, target, site)
        for source, targets in edges.items()
        for target, site in targets.items()
        if source in _LOWER and target in ("gqlir", "gqlir.api", "gqlir.cli")
    }
    assert upward == set()


def test_translating_loads_only_the_compiler() -> None:
    program = (
        "import sys, gqlir\n"
        "gqlir.transpile('MATCH (a)-[r]->(b) RETURN b.name AS n, count(*) AS c', 'neo4j', "
        "'iso-gql')\n"
        "gqlir.transpile('MATCH (a)-[r]->(b)-[s]->(c) RETURN c.name AS n', 'neo4j', 'spanner', "
        "graph='g')\n"
        "gqlir.transpile('MATCH (a) RETURN a.x + 1 AS n', 'iso-gql', 'kuzu')\n"
        "print('\\n'.join(m for m in sys.modules if m.startswith('gqlir')))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", program],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    ).stdout.split()
    assert "gqlir.emitter.gql" in out and "gqlir.passes.pipeline" in out
    subsystems = ("rdf", "metrics", "synth", "graphgen", "engines", "conformance", "cli")
    loaded = [m for m in out if m.split(".")[1:2] and m.split(".")[1] in subsystems]
    assert loaded == []
