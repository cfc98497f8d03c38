"""Bounded resources and crash isolation: a query that runs past its timeout in one native
call, one that allocates without bound, and one that segfaults the engine are each recorded
with a stable error code, and the engine (and an evaluation run) goes on."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gqlir.budget import default_memory_budget, parse_memory
from gqlir.cli import main
from gqlir.engines import open_engine
from gqlir.errors import EngineError

ROOT = Path(__file__).resolve().parent.parent
GRAPH = ROOT / "schemas" / "movies"
BUDGET = 1 << 30

# UNWIND of a huge range: one long native call for the reference evaluator (its asynchronous
# timeout cannot reach it) and for Kuzu (its own timeout does not stop it)
HUGE = "UNWIND range(1, 1000000000) AS i RETURN count(i) AS c"
HUGE_LIST = "UNWIND range(1, 200000000) AS i RETURN collect(i) AS c"
SEGFAULT = "RETURN 1 IN null AS a"  # kills Kuzu 0.11 in its own process


@pytest.mark.parametrize("name", ["reference", "kuzu"])
def test_a_query_stuck_in_native_code_is_stopped_and_the_engine_goes_on(name: str) -> None:
    with open_engine(name, max_memory=4 * BUDGET) as engine:
        with pytest.raises(EngineError) as info:
            engine.run(HUGE, dialect="neo4j", timeout=1, read_only=True)
        assert info.value.code in {"TIMEOUT", "MEMORY_EXCEEDED"}
        assert engine.run("RETURN 1 AS x", dialect="neo4j", timeout=5).rows == [(1,)]


@pytest.mark.parametrize(
    ("name", "query", "dialect"),
    [
        ("reference", HUGE_LIST, "neo4j"),
        ("kuzu", HUGE_LIST, "neo4j"),
        ("grafeo", HUGE_LIST, "neo4j"),
        ("duckdb", "SELECT list(range) AS c FROM range(1, 1000000000)", "sql:duckdb"),
        ("sqlite", "WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r) "
         "SELECT group_concat(i) AS c FROM r", "sql:sqlite"),
    ],
)  # fmt: skip
def test_a_query_over_the_memory_budget_is_stopped(name: str, query: str, dialect: str) -> None:
    with open_engine(name, max_memory=BUDGET // 2) as engine:
        with pytest.raises(EngineError) as info:
            engine.run(query, dialect=dialect, timeout=120, read_only=True)
        assert info.value.code == "MEMORY_EXCEEDED"
        again = "SELECT 1 AS x" if dialect.startswith("sql") else "RETURN 1 AS x"
        assert engine.run(again, dialect=dialect, timeout=5).rows == [(1,)]


def test_an_engine_crash_is_an_error_and_the_graph_is_back_for_the_next_query() -> None:
    from gqlir.schema import load_schema

    with open_engine("kuzu", isolated=True) as kuzu:
        kuzu.load(load_schema(str(GRAPH / "schema.json")), str(GRAPH / "graph"))
        count = "MATCH (m:Movie) RETURN count(m) AS n"
        before = kuzu.run(count, dialect="kuzu", timeout=10).rows
        with pytest.raises(EngineError) as info:
            kuzu.run(SEGFAULT, dialect="kuzu", timeout=10, read_only=True)
        assert info.value.code == "ENGINE_CRASHED"
        assert "SIGSEGV" in info.value.message
        assert kuzu.run(count, dialect="kuzu", timeout=10).rows == before != [(0,)]


def test_memory_sizes() -> None:
    assert parse_memory("512M") == 512 * 2**20
    assert parse_memory("1.5g") == 3 * 2**29
    assert parse_memory("2GiB") == 2 * 2**30
    assert parse_memory("4096") == 4096
    for bad in ("", "-1G", "0", "lots", "infG"):
        with pytest.raises(ValueError):
            parse_memory(bad)
    budget = default_memory_budget(2)
    assert budget is not None and budget >= 256 * 2**20


# -- gqlir eval -----------------------------------------------------------------------------------

ITEMS = [
    ("ok", "MATCH (m:Movie) WHERE m.released = 2014 RETURN m.title AS t"),
    ("crash", SEGFAULT),
    ("huge", HUGE),
    ("hungry", HUGE_LIST),
    ("after", "MATCH (p:Person) RETURN count(p) AS n"),
]


def _dataset(tmp: Path) -> tuple[Path, Path]:
    gold, pred = tmp / "gold.jsonl", tmp / "pred.jsonl"
    gold.write_text("".join(json.dumps({"id": i, "query": q}) + "\n" for i, q in ITEMS))
    pred.write_text("".join(json.dumps({"id": i, "query": q}) + "\n" for i, q in ITEMS))
    return gold, pred


def _eval(gold: Path, pred: Path, out: Path, *extra: str) -> int:
    return main(
        [
            "eval", "--gold", str(gold), "--pred", str(pred), "--out", str(out),
            "--engine", "kuzu", "--dialect", "kuzu", "--graph", str(GRAPH),
            "--timeout", "2", "--max-memory", "1G", "--no-psjs", "--quiet", *extra,
        ]
    )  # fmt: skip


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_eval_records_crashes_timeouts_and_memory_and_finishes(tmp_path: Path, jobs: str) -> None:
    gold, pred = _dataset(tmp_path)
    out = tmp_path / "run"
    # a first run stopped after the crashing item, then a rerun: both get past it
    assert _eval(gold, pred, out, "-j", jobs, "--limit", "2") == 0
    assert _eval(gold, pred, out, "-j", jobs) == 0
    records = [json.loads(x) for x in (out / "results.jsonl").read_text().splitlines()]
    status = {r["id"]: r["status"]["pred"] for r in records}
    assert sorted(status) == sorted(i for i, _ in ITEMS)
    assert status["ok"] == status["after"] == "ok"
    assert status["crash"] == "ENGINE_CRASHED"
    assert status["huge"] in {"TIMEOUT", "MEMORY_EXCEEDED"}
    assert status["hungry"] in {"TIMEOUT", "MEMORY_EXCEEDED"}
    by_id = {r["id"]: r for r in records}
    assert by_id["after"]["metrics"]["ex"] == 1.0
