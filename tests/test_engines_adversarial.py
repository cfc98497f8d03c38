"""Adversarial queries under read-only runs with a timeout and a memory budget, on every engine
that runs on this machine: random mixes of huge UNWINDs and recursive CTEs, Cartesian products,
writes, file functions and commands, settings and procedure calls. Whatever the mix, the graph
is unchanged afterwards, no file appears outside the engine's own folders, every query gets a
result or an EngineError with a stable code, and the engine stays usable. ``make fuzz`` runs
it with more examples (GQLIR_FUZZ_EXAMPLES)."""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gqlir.engines import canonical_key, open_engine
from gqlir.errors import EngineError, GqlirError
from gqlir.metrics.harness import EvalConfig, run_evaluation
from gqlir.schema import load_schema

ROOT = Path(__file__).resolve().parent.parent
GRAPH = ROOT / "schemas" / "movies"
# each example runs up to three queries that may each take a timeout: a four-hundredth of the
# fuzz run's count (50 per engine for make fuzz's 20,000) fits its ten minutes
EXAMPLES = max(8, int(os.environ.get("GQLIR_FUZZ_EXAMPLES", "0")) // 400)
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
CODES = {"READ_ONLY", "TIMEOUT", "MEMORY_EXCEEDED", "ENGINE_CRASHED", "ENGINE"}
#: gqlir's own refusal of a text it cannot read, which a read-only run gives before any engine
#: sees the text (a Kuzu text with REMOVE, a clause Kuzu does not have)
READ_REFUSALS = {"UNSUPPORTED", "PARSE_UNEXPECTED", "PARSE_INVALID"}
CYPHER_ENGINES = ("reference", "kuzu", "grafeo", "arcadedb", "falkordb")
SQL_ENGINES = ("sqlite", "duckdb", "postgres")

# {out} is a folder no engine owns: nothing may ever appear there
CYPHER_PARTS = (
    "UNWIND range(1, 300000000) AS huge",
    "MATCH (a), (b), (c)",
    "MATCH (a:Person)-[*1..6]-(b)",
    "CREATE (:Intruder {k: 1})",
    "MATCH (n) DETACH DELETE n",
    "MATCH (n:Movie) SET n.title = 'x'",
    "MATCH (n:Movie) REMOVE n.title",
    "MERGE (:Intruder {k: 2})",
    "LOAD CSV FROM 'file://{out}/in.csv' AS row",
    "CALL apoc.export.csv.all('{out}/all.csv', {})",
    "CALL db.labels() YIELD label",
    "COPY Person TO '{out}/person.csv'",
    "EXPORT DATABASE '{out}/db'",
    "LOAD FROM '{out}/in.csv'",
    "CALL threads=1",
    "WITH 1 AS one",
    "FOREACH (i IN [1] | CREATE (:Intruder))",
)
CYPHER_ENDS = ("RETURN count(*) AS n", "RETURN 1 AS n", "", "RETURN apoc.text.join(['a'], ',')")
SQL_QUERIES = (
    "SELECT count(*) FROM movie a, movie b, movie c, movie d",
    "WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r) SELECT count(*) FROM r",
    "SELECT * FROM read_csv('{out}/in.csv')",
    "SELECT * FROM '{out}/in.csv'",
    "COPY (SELECT 1) TO '{out}/copy.csv'",
    "COPY movie TO '{out}/movie.csv'",
    "EXPORT DATABASE '{out}/db'",
    "ATTACH '{out}/other.db' AS other",
    "SELECT pg_read_file('/etc/hostname')",
    "SELECT * FROM pg_ls_dir('.')",
    "SELECT load_extension('{out}/x')",
    "SELECT getenv('HOME')",
    "DELETE FROM movie",
    "UPDATE movie SET title = 'x'",
    "INSERT INTO movie (title) VALUES ('x')",
    "DROP TABLE movie",
    "CREATE TABLE intruder (k INTEGER)",
    "PRAGMA query_only = OFF",
    "SET threads = 1",
    "SELECT count(*) FROM movie",
)


def _cypher(out: str) -> st.SearchStrategy[str]:
    parts = st.lists(st.sampled_from(CYPHER_PARTS), min_size=1, max_size=3)
    return st.builds(
        lambda ps, end: " ".join([*ps, end]).strip().replace("{out}", out),
        parts,
        st.sampled_from(CYPHER_ENDS),
    )


def _sql(out: str) -> st.SearchStrategy[str]:
    one = st.sampled_from(SQL_QUERIES).map(lambda q: q.replace("{out}", out))
    return st.one_of(one, st.lists(one, min_size=2, max_size=3).map("; ".join))


def _snapshot(engine: Any) -> Counter:
    """The whole graph as a bag of canonical rows (nodes and relationships, or every table)."""
    if engine.name in SQL_ENGINES:
        from gqlir.schema.relational import to_relational

        tables, _ = to_relational(engine.schema)
        rows: Counter = Counter()
        for t in tables.tables:
            table = engine.run(f'SELECT * FROM "{t.name}"', timeout=60)
            rows.update((t.name, *(canonical_key(v) for v in row)) for row in table.rows)
        return rows
    dialect = "kuzu" if engine.name == "kuzu" else "neo4j"
    nodes = engine.run("MATCH (n) RETURN n", dialect=dialect, timeout=60)
    rels = engine.run("MATCH ()-[r]->() RETURN r", dialect=dialect, timeout=60)
    return Counter(tuple(canonical_key(v) for v in r) for r in nodes.rows + rels.rows)


@pytest.fixture(scope="module")
def outside(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("outside")
    (folder / "in.csv").write_text("a,b\n1,2\n")
    return folder


@pytest.fixture(scope="module")
def bounded(request: pytest.FixtureRequest, outside: Path) -> Any:
    """``bounded(name)``: the engine in a worker with a memory budget, the movies graph loaded,
    and the graph's snapshot."""
    opened: dict[str, tuple[Any, Counter]] = {}

    def get(name: str) -> tuple[Any, Counter]:
        if name not in opened:
            options: dict[str, Any] = {}
            if name == "postgres":
                server = request.getfixturevalue("postgres_server")
                options = {"url": server.url, "schema": "adversarial", "fresh": True}
            engine = open_engine(name, max_memory=1 << 30, **options)
            engine.load(load_schema(str(GRAPH / "schema.json")), str(GRAPH / "graph"))
            opened[name] = (engine, _snapshot(engine))
        return opened[name]

    yield get
    for engine, _ in opened.values():
        engine.close()


def _check(engine: Any, before: Counter, queries: list[str], dialect: str, out: Path) -> None:
    for query in queries:
        try:
            engine.run(query, dialect=dialect, timeout=1, row_cap=100, read_only=True)
        except EngineError as exc:
            assert exc.code in CODES, (query, exc.code, exc.message)
        except GqlirError as exc:  # gqlir's own parser is the reference engine's
            assert exc.code.startswith(("PARSE", "UNSUPPORTED", "SEMANTIC")), (query, exc.code)
    assert sorted(p.name for p in out.iterdir()) == ["in.csv"], queries
    assert _snapshot(engine) == before, queries


@pytest.mark.parametrize("name", CYPHER_ENGINES)
def test_adversarial_graph_queries_read_only(bounded: Any, outside: Path, name: str) -> None:
    engine, before = bounded(name)
    dialect = "kuzu" if name == "kuzu" else "neo4j"

    @FUZZ
    @given(st.lists(_cypher(str(outside)), min_size=1, max_size=3))
    def run(queries: list[str]) -> None:
        _check(engine, before, queries, dialect, outside)

    run()


@pytest.mark.parametrize("name", SQL_ENGINES)
def test_adversarial_sql_read_only(bounded: Any, outside: Path, name: str) -> None:
    engine, before = bounded(name)

    @FUZZ
    @given(st.lists(_sql(str(outside)), min_size=1, max_size=3))
    def run(queries: list[str]) -> None:
        _check(engine, before, queries, engine.dialects[0], outside)

    run()


@pytest.mark.parametrize("name", ["kuzu", "duckdb"])
def test_an_adversarial_eval_run_records_every_item_and_finishes(
    tmp_path: Path, outside: Path, name: str
) -> None:
    queries = (
        [p.replace("{out}", str(outside)) + " RETURN 1 AS n" for p in CYPHER_PARTS]
        if name == "kuzu"
        else [q.replace("{out}", str(outside)) for q in SQL_QUERIES]
    )
    dialect = "kuzu" if name == "kuzu" else "sql:duckdb"
    gold, pred = tmp_path / "gold.jsonl", tmp_path / "pred.jsonl"
    gold.write_text(
        "".join(json.dumps({"id": f"q{i}", "query": q}) + "\n" for i, q in enumerate(queries))
    )
    pred.write_text(gold.read_text())
    config = EvalConfig(
        gold=str(gold),
        pred=str(pred),
        out=str(tmp_path / "out"),
        engine=name,
        dialect=dialect,
        graph=str(GRAPH),
        timeout=1,
        max_memory=1 << 30,
        psjs=False,
        jobs=2,
    )
    run = run_evaluation(config)
    assert run.complete and run.evaluated == len(queries)
    records = [json.loads(x) for x in (tmp_path / "out" / "results.jsonl").read_text().splitlines()]
    assert sorted(r["id"] for r in records) == sorted(f"q{i}" for i in range(len(queries)))
    for r in records:
        assert r["status"]["pred"] == "ok" or r["status"]["pred"] in CODES | READ_REFUSALS, r
    assert sorted(p.name for p in outside.iterdir()) == ["in.csv"]
