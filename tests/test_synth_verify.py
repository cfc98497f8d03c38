"""Every synthesized text on its own dialect's engine (gqlir.synth.verify): the record each item
keeps per dialect, the answer comparison, disagreements marked and counted (never lost), and
the dataset card's verification table."""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from typing import Any

import pytest

from gqlir.engines.base import ResultTable
from gqlir.eval import temporal as tm
from gqlir.synth import SynthConfig, SynthError, synthesize
from gqlir.synth import verify as verify_mod
from gqlir.synth.agreement import difference
from gqlir.synth.verify import NO_ENGINE, SPANNER_CHECK, parse_routes, plan

DIALECTS = ["kuzu", "iso-gql", "sql:sqlite", "spanner", "sqlpgq", "tugraph-gql"]
ENGINE_OF = {"kuzu": "kuzu", "iso-gql": "grafeo", "sql:sqlite": "sqlite", "spanner": SPANNER_CHECK}


def _config(**kw: Any) -> SynthConfig:
    base: dict[str, Any] = dict(n=12, seed=7, timeout=10.0, dialects=list(DIALECTS))
    return SynthConfig(["schemas/finance"], **{**base, **kw})


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, list[dict[str, Any]], Any]:
    out = str(tmp_path_factory.mktemp("verify") / "finance")
    items, stats = synthesize(_config(), out, rewriters=[])
    return out, items, stats


def test_every_item_records_each_dialect(small) -> None:
    _, items, _ = small
    assert len(items) == 12
    confirmed: Counter = Counter()
    for item in items:
        record = item["verified"]
        # every requested dialect has a record: a text's check, or the writer's refusal
        assert set(record) == set(DIALECTS), item["id"]
        for dialect, r in record.items():
            if dialect in item["unsupported"]:
                assert r == {"status": "refused", "reason": item["unsupported"][dialect]}
                continue
            if dialect in ("sqlpgq", "tugraph-gql"):
                assert r == {"status": "no engine", "reason": NO_ENGINE[dialect]}
                continue
            assert r["status"] in ("confirmed", "engine error"), (item["id"], dialect, r)
            assert r["engine"] == ENGINE_OF[dialect]
            if r["status"] == "confirmed":
                confirmed[dialect] += 1
            else:
                assert r["code"] and r["message"]
    # Kuzu and SQLite texts did run, and answered as the gold
    for dialect in ("kuzu", "iso-gql", "sql:sqlite", "spanner"):
        assert confirmed[dialect] >= len(items) // 2, (dialect, confirmed)


def test_a_confirmation_is_the_engines_own_answer(small) -> None:
    """What the record says, checked again outside the pipeline: the Kuzu text of a confirmed
    item, run on Kuzu, gives the stored result."""
    from gqlir.engines import open_engine
    from gqlir.schema import load_schema

    _, items, _ = small
    item = next(i for i in items if i["verified"]["kuzu"]["status"] == "confirmed")
    with open_engine("kuzu") as kuzu:
        kuzu.load(load_schema("schemas/finance/schema.json"), "schemas/finance/graph")
        table = kuzu.run(item["queries"]["kuzu"], dialect="kuzu", timeout=10)
    got = table.to_data()["rows"]
    gold = item["result"]["rows"]
    assert sorted(map(json.dumps, got)) == sorted(map(json.dumps, gold))


def test_the_card_reports_each_dialects_engine(small) -> None:
    out, items, _ = small
    with open(os.path.join(out, "README.md"), encoding="utf-8") as fh:
        card = fh.read()
    assert "## Verification on each dialect's engine" in card
    with open(os.path.join(out, "stats.json"), encoding="utf-8") as fh:
        stats = json.load(fh)
    table = stats["verification"]
    for dialect in DIALECTS:
        row = table[dialect]
        n = sum(row[s] for s in ("confirmed", "disagrees", "engine error", "refused", "no engine"))
        # one check per text: the query's, and a judge item's anti-query's
        assert n == len(items) + sum("anti_verified" in i for i in items), dialect
    assert table["kuzu"]["engine"] == "kuzu"
    assert table["kuzu"]["confirmed by"] == {"kuzu": table["kuzu"]["confirmed"]}
    assert table["sqlpgq"]["engine"] == "none"
    assert "| kuzu | kuzu | kuzu " in card


class _Reversing:
    """An engine with an injected quirk: it returns the rows of an ordered answer backwards."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def run(self, *args: Any, **kw: Any) -> ResultTable:
        table = self.inner.run(*args, **kw)
        if table.ordered and len({tuple(map(repr, r)) for r in table.rows}) > 1:
            table.rows = table.rows[::-1]
        return table


@pytest.fixture
def quirky_kuzu(monkeypatch: pytest.MonkeyPatch) -> None:
    opened = verify_mod._Engine._open

    def _open(self: Any, graph: str) -> None:
        opened(self, graph)
        if self.name == "kuzu":
            self.engine = _Reversing(self.engine)

    monkeypatch.setattr(verify_mod._Engine, "_open", _open)


def test_a_disagreement_is_counted_when_dropped(tmp_path, quirky_kuzu) -> None:
    out = str(tmp_path / "dropped")
    items, stats = synthesize(_config(n=20, dialects=["kuzu"]), out, rewriters=[])
    dropped = stats["disagreed"].get("kuzu|kuzu", 0)
    assert dropped > 0 and stats["drops"]["engine disagreement"] == dropped
    assert all(i["verified"]["kuzu"]["status"] != "disagrees" for i in items)
    example = stats["disagreements"][0]
    assert example["engine"] == "kuzu" and example["text"] and "row 0" in example["difference"]
    with open(os.path.join(out, "stats.json"), encoding="utf-8") as fh:
        assert json.load(fh)["verification"]["kuzu"]["dropped for disagreement"] == dropped
    with open(os.path.join(out, "README.md"), encoding="utf-8") as fh:
        card = fh.read()
    assert "Disagreements:" in card and f"dropped: finance {example['template']}" in card


def test_a_disagreement_is_marked_when_kept(tmp_path, quirky_kuzu) -> None:
    out = str(tmp_path / "kept")
    config = _config(n=20, dialects=["kuzu"], keep_disagreements=True)
    items, stats = synthesize(config, out, rewriters=[])
    marked = [i for i in items if i["verified"]["kuzu"]["status"] == "disagrees"]
    assert marked and not stats["disagreed"] and "engine disagreement" not in stats["drops"]
    for item in marked:
        assert item["result"]["ordered"] and item["verified"]["kuzu"]["engine"] == "kuzu"
    with open(os.path.join(out, "stats.json"), encoding="utf-8") as fh:
        assert json.load(fh)["verification"]["kuzu"]["disagrees"] == len(marked)
    with open(os.path.join(out, "README.md"), encoding="utf-8") as fh:
        assert f"kept: {marked[0]['id']}" in fh.read()


def test_comparison_as_the_harness_compares() -> None:
    gold = ResultTable(["n", "k"], [("a", 1), ("b", 2)])
    assert difference(gold, ResultTable(["x", "y"], [("b", 2.0), ("a", 1)])) is None
    assert difference(gold, ResultTable(["n", "k"], [("a", 1), ("b", 3)])) is not None
    ordered = ResultTable(["n"], [("a",), ("b",)], ordered=True)
    assert "row 0" in difference(ordered, ResultTable(["n"], [("b",), ("a",)]))
    capped = ResultTable(["n"], [("a",), ("b",)], truncated=True)
    assert difference(ResultTable(["n"], [("a",), ("b",)]), capped) is not None


def test_an_untyped_engines_values_are_read_as_the_golds_types() -> None:
    """SQLite answers a boolean as 1 and an instant as its ISO text: not a different answer;
    another number or another instant is."""
    when = tm.parse_temporal("datetime", "2024-01-02T03:04:05+01:00")
    gold = ResultTable(["b", "t"], [(True, when)])
    sqlite = ResultTable(["b", "t"], [(1, "2024-01-02T02:04:05Z")])
    assert difference(gold, sqlite, untyped=True) is None
    assert difference(gold, sqlite) is not None
    assert difference(gold, ResultTable(["b", "t"], [(2, "2024-01-02T02:04:05Z")]), untyped=True)
    later = ResultTable(["b", "t"], [(1, "2024-01-02T03:04:05Z")])
    assert difference(gold, later, untyped=True) is not None
    # an engine without zoned date-times (FalkorDB) answers the UTC local date-time
    utc = tm.parse_temporal("localdatetime", "2024-01-02T02:04:05")
    assert difference(gold, ResultTable(["b", "t"], [(True, utc)]), untyped=True) is None
    other = tm.parse_temporal("localdatetime", "2024-01-02T03:04:05")
    assert difference(gold, ResultTable(["b", "t"], [(True, other)]), untyped=True) is not None


def test_routes_from_the_command_line() -> None:
    routes = parse_routes(["neo4j=bolt://127.0.0.1:7687", "opencypher9=none", "sql=sqlite"])
    assert routes["neo4j"].engine == "neo4j" and routes["neo4j"].url == "bolt://127.0.0.1:7687"
    assert routes["opencypher9"].engine == "" and "none" in routes["opencypher9"].reason
    assert routes["sql"].engine == "sqlite"
    named = parse_routes(["opencypher9=neo4j@bolt://h:1"])["opencypher9"]
    assert (named.engine, named.url) == ("neo4j", "bolt://h:1")
    assert parse_routes(["neo4j=local"])["neo4j"].local
    for bad in ("kuzu=local", "kuzu=nosuchengine", "kuzu", "nodialect=kuzu", "kuzu=bolt://h:1"):
        with pytest.raises(SynthError):
            parse_routes([bad])
    planned = plan(["kuzu", "sqlpgq", "sql"], routes)
    assert planned["kuzu"].engine == "kuzu" and planned["sql"].engine == "sqlite"
    assert planned["sqlpgq"].engine == "" and "duckpgq" in planned["sqlpgq"].reason
    assert all(not r.engine for r in plan(["kuzu"], {}, enabled=False).values())


def test_no_verify_records_why(tmp_path) -> None:
    items, _ = synthesize(_config(n=3, dialects=["kuzu"], verify=False), None, rewriters=[])
    for item in items:
        assert item["verified"]["kuzu"]["status"] in ("no engine", "refused")


def test_neo4j_texts_on_a_real_neo4j(neo4j_server, tmp_path) -> None:
    """neo4j=URL: the Neo4j texts run on Neo4j (scripts/neo4j-local), which must be empty and
    is emptied again after the run."""
    from gqlir.engines import open_engine

    with open_engine("neo4j", url=neo4j_server) as neo4j:  # other tests share the server
        neo4j.run("MATCH (n) DETACH DELETE n", dialect="neo4j", timeout=60)
    config = _config(n=6, dialects=["neo4j"], verify_engines=[f"neo4j={neo4j_server}"])
    items, stats = synthesize(config, None, rewriters=[])
    records = [i["verified"]["neo4j"] for i in items]
    assert all(r["engine"] == "neo4j" for r in records), records
    assert sum(r["status"] == "confirmed" for r in records) >= 4, records
    assert stats["verification"]["neo4j"] == "neo4j at a given URL"
    with open_engine("neo4j", url=neo4j_server) as neo4j:
        left = neo4j.run("MATCH (n) RETURN count(n) AS n", dialect="neo4j", timeout=30)
        assert left.rows == [(0,)]


def test_the_spanner_check_beside_another_gold_engine() -> None:
    """With Kuzu answering the gold, the Spanner texts still go through ZetaSQL and the
    reference evaluator (loaded for them), and agree with Kuzu's answers."""
    config = _config(n=4, engine="kuzu", dialects=["spanner"])
    items, stats = synthesize(config, None, rewriters=[])
    records = [i["verified"]["spanner"] for i in items]
    assert stats["verification"] == {"spanner": SPANNER_CHECK}
    assert (
        sum(r.get("engine") == SPANNER_CHECK and r["status"] == "confirmed" for r in records) >= 3
    )


def test_embedded_engines_run_in_worker_processes() -> None:
    """A crash or a query stuck in native code cannot take the run down: Kuzu, SQLite and
    DuckDB run in worker processes (grafeo always does); the Spanner check needs none."""
    from gqlir.engines.isolated import IsolatedEngine
    from gqlir.schema import load_schema
    from gqlir.synth.verify import Verifier

    schema = load_schema("schemas/finance/schema.json")
    routes = plan(["kuzu", "sql:sqlite", "sql", "iso-gql"], {})
    verifier = Verifier(routes, schema, "schemas/finance/graph", 10.0, 50, lambda: None)
    try:
        for dialect, route in routes.items():
            engine = verifier._engine(route)
            assert isinstance(engine.engine, IsolatedEngine), dialect
            assert engine.engine.host.process.pid != os.getpid()
    finally:
        verifier.close()


def test_falkordb_texts_on_falkordb() -> None:
    """FalkorDB's texts run on FalkorDB (its own server); its zoned date-times, held as UTC
    local ones, are read as the gold's instants (finance has zoned creation times)."""
    items, stats = synthesize(_config(n=10, dialects=["falkordb"]), None, rewriters=[])
    assert stats["verification"] == {"falkordb": "falkordb"}
    records = [i["verified"]["falkordb"] for i in items]
    ran = [r for r in records if r["status"] != "refused"]
    assert all(r["engine"] == "falkordb" for r in ran), records
    assert sum(r["status"] == "confirmed" for r in ran) >= 7, records
    instants = [i for i in items if re.search(r"\d{4}-\d\d-\d\dT", json.dumps(i["result"]["rows"]))]
    assert any(i["verified"]["falkordb"]["status"] == "confirmed" for i in instants)
