"""The Bolt adapter on a real Neo4j Community (scripts/neo4j-local), beyond what every adapter
test checks (tests/test_engines_adapters.py runs those on Neo4j too): the launcher's life
cycle, errors carrying Neo4j's own status codes, and Neo4j's own refusal of writes in
read-only runs (its schema reader: tests/test_schema_neo4j_live.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest
from conftest import NEO4J_LOCAL

from gqlir.errors import EngineError, GqlirError


def _script(folder: str, command: str) -> subprocess.CompletedProcess[str]:
    env = os.environ | {"GQLIR_NEO4J_LOCAL_DIR": folder}
    return subprocess.run(
        [sys.executable, NEO4J_LOCAL, command], env=env, capture_output=True, text=True, timeout=900
    )


def _alive(pid: int) -> bool:
    """The process runs (a zombie waiting for init to reap it has ended)."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_launcher_replaces_a_dead_server_reuses_a_live_one_and_stops(tmp_path: Any) -> None:
    """A state file left by a server that is gone is not trusted: ``start`` starts a new one;
    a second ``start`` prints the same URL; ``stop`` ends the JVM and removes its data."""
    import neo4j

    folder = str(tmp_path / "server")
    os.makedirs(folder)
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    stale = "bolt://127.0.0.1:1"
    with open(os.path.join(folder, "state.json"), "w") as fh:
        json.dump({"pid": gone.pid, "url": stale}, fh)
    try:
        started = _script(folder, "start")
        assert started.returncode == 0, started.stderr
        url = started.stdout.splitlines()[-1]
        assert url.startswith("bolt://127.0.0.1:") and url != stale
        with neo4j.GraphDatabase.driver(url, auth=None) as driver:
            records, _, _ = driver.execute_query("RETURN 1 + 1 AS two")
            assert records[0]["two"] == 2
        again = _script(folder, "start")
        assert again.returncode == 0 and again.stdout.splitlines()[-1] == url
        with open(os.path.join(folder, "state.json")) as fh:
            pid = json.load(fh)["pid"]
        assert _alive(pid)
    finally:
        stopped = _script(folder, "stop")
    assert stopped.returncode == 0, stopped.stderr
    assert not _alive(pid)
    assert not os.path.exists(os.path.join(folder, "home"))
    assert _script(folder, "status").returncode == 1


@pytest.mark.parametrize(
    ("query", "neo4j_code"),
    [
        ("MATCH (n RETURN n", "Neo.ClientError.Statement.SyntaxError"),
        ("RETURN nope(1) AS x", "Neo.ClientError.Statement.SyntaxError"),
        ("UNWIND [1, 0] AS d RETURN 1 / d AS x", "Neo.ClientError.Statement.ArithmeticError"),
        ("UNWIND ['a', 1] AS v RETURN v * 2 AS x", "Neo.ClientError.Statement.TypeError"),
        ("RETURN $missing AS x", "Neo.ClientError.Statement.ParameterMissing"),
    ],
)
def test_errors_carry_neo4j_status_codes(loaded: Any, query: str, neo4j_code: str) -> None:
    engine = loaded("neo4j", "dense")
    with pytest.raises(EngineError) as info:
        engine.run(query)
    assert isinstance(info.value, GqlirError)
    assert info.value.code == "ENGINE" and info.value.engine_code == neo4j_code
    assert engine.run("MATCH (v:V) RETURN count(v) AS c").rows == [(12,)]


def test_read_only_run_is_refused_and_rolled_back_by_neo4j(loaded: Any) -> None:
    """A write that reaches Neo4j in a read-only run (here after a read, in one statement)
    is refused by Neo4j's READ access mode: nothing of it stays."""
    from gqlir.engines.base import Prepared

    engine = loaded("neo4j", "dense")
    text = "MATCH (v:V {id: 0}) SET v.touched = true RETURN v.id AS id"
    unchecked = Prepared(text, "neo4j", None, False, (), "neo4j")
    with pytest.raises(EngineError) as info:
        engine._execute(unchecked, {}, None, None, True)
    assert info.value.code == "READ_ONLY"
    assert info.value.engine_code == "Neo.ClientError.Statement.AccessMode"
    touched = engine.run("MATCH (v:V) WHERE v.touched IS NOT NULL RETURN count(v) AS c")
    assert touched.rows == [(0,)]


def test_datetimes_in_named_zones_keep_their_zone(loaded: Any) -> None:
    """The driver's ISO text keeps only the offset; the value Neo4j returns keeps the zone
    name, as the reference evaluator's does."""
    from gqlir.eval import run

    engine = loaded("neo4j", "dense")
    text = (
        "RETURN datetime('2015-07-21T21:40:32.142[Pacific/Honolulu]') AS named, "
        "datetime('2015-07-21T21:40:32.142+01:00') AS offset, "
        "datetime('2015-07-21T21:40:32.142Z') AS utc"
    )
    got = engine.run(text).rows
    assert got == run(text).rows
    assert "[Pacific/Honolulu]" in str(got[0][0]) and "[" not in str(got[0][1])


# Arguments and operands whose type is certain when the query is planned (found by the
# generated queries: Neo4j refused them on graphs where no row would evaluate them).
STATICALLY_WRONG = [
    "MATCH (a:Nope) RETURN abs(toString(a.x)) AS c",
    "MATCH (a:Nope) RETURN reverse(toString(a.x)) * 1 AS c",
    "MATCH (a:Nope) RETURN toUpper(1) AS c",
    "MATCH (a:Nope) RETURN abs(true) AS c",
    "MATCH (a:Nope) RETURN sqrt(toUpper('a')) AS c",
    "MATCH (a:Nope) RETURN trim([1]) AS c",
    "MATCH (a:Nope) RETURN reverse(1) AS c",
    "MATCH (a:Nope) RETURN -toString(a.x) AS c",
    "MATCH (a:Nope) RETURN abs(a) AS c",
    "MATCH (a:Nope) RETURN abs(CASE WHEN a.x > 1 THEN 'a' ELSE 'b' END) AS c",
    "MATCH (a:Nope) RETURN abs(coalesce(toString(a.x), 'z')) AS c",
    "MATCH (a:Nope) RETURN abs(head(['a'])) AS c",
    "MATCH (a:Nope) RETURN abs(toString(a.x) + 1) AS c",
    "MATCH (a:Nope) RETURN abs(CASE WHEN a.x > 1 THEN 'a' END) AS c",
]
# ... and ones whose type is not certain: no row, no error
NOT_CERTAIN = [
    "MATCH (a:Nope) RETURN toUpper(a.x + 1) AS c",
    "MATCH (a:Nope) RETURN abs(CASE WHEN a.x > 1 THEN 'a' ELSE 0 END) AS c",
    "MATCH (a:Nope) RETURN abs(coalesce(a.s, 'z')) AS c",
    "MATCH (a:Nope) RETURN abs(size([1])) AS c",
    "MATCH (a:Nope) RETURN abs(coalesce(null, 'z')) AS c",
    "MATCH (a:Nope) RETURN abs(CASE WHEN a.x > 1 THEN null ELSE 'a' END) AS c",
    "MATCH (a:Nope) RETURN abs(head([a.s, 1])) AS c",
]


@pytest.mark.parametrize("query", STATICALLY_WRONG + NOT_CERTAIN)
def test_the_reference_types_expressions_as_neo4j_does(loaded: Any, query: str) -> None:
    """The reference's static checks (gqlir/eval/check.py) raise where Neo4j's planner does,
    and only there."""
    from gqlir.eval import run
    from gqlir.eval.check import StaticCheckError

    engine = loaded("neo4j", "dense")
    if query in STATICALLY_WRONG:
        with pytest.raises(EngineError) as info:
            engine.run(query)
        assert "Type mismatch" in str(info.value), info.value
        with pytest.raises(StaticCheckError):
            run(query)
    else:
        assert engine.run(query).rows == run(query).rows == []
