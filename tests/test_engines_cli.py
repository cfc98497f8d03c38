"""``gqlir load`` and ``gqlir run --engine``: exit codes and the JSON result table."""

from __future__ import annotations

import json
import os
from typing import Any

import pytest

from gqlir.cli import main

FINANCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "schemas", "finance")


def _run(capsys: Any, *argv: str) -> tuple[int, Any]:
    code = main(list(argv))
    out = capsys.readouterr().out
    return code, json.loads(out) if out.strip() else None


def test_run_on_an_embedded_engine_with_a_graph(capsys: Any) -> None:
    code, data = _run(
        capsys,
        "run",
        "--engine",
        "kuzu",
        "--graph",
        FINANCE,
        "--json",
        "--dialect",
        "neo4j",
        "--timeout",
        "10",
        "MATCH (p:Person) RETURN count(p) AS c ORDER BY c",
    )
    assert code == 0
    assert data == {"columns": ["c"], "rows": [[300]], "ordered": True}


def test_run_on_falkordb_with_a_graph_and_its_guarantees(capsys: Any) -> None:
    """FalkorDB's private server: a graph loaded, a Cypher query translated and run read-only
    with a timeout and a memory budget (the server's), a write refused."""
    code, data = _run(
        capsys,
        "run",
        "--engine",
        "falkordb",
        "--graph",
        FINANCE,
        "--json",
        "--dialect",
        "neo4j",
        "--read-only",
        "--timeout",
        "10",
        "--max-memory",
        "256M",
        "MATCH (p:Person)-[:own]->(a:Account) RETURN count(*) AS c ORDER BY c",
    )
    assert code == 0
    assert data == {"columns": ["c"], "rows": [[481]], "ordered": True}  # as on the reference
    code, data = _run(
        capsys,
        "run",
        "--engine",
        "falkordb",
        "--json",
        "--read-only",
        "MATCH (n) DETACH DELETE n",
    )
    assert code == 1 and data["error"]["code"] == "READ_ONLY"


def test_a_refused_write_exits_non_zero_with_the_error(capsys: Any) -> None:
    code, data = _run(
        capsys,
        "run",
        "--engine",
        "sqlite",
        "--graph",
        FINANCE,
        "--read-only",
        "--json",
        'DELETE FROM "Person"',
    )
    assert code == 1 and data["error"]["code"] == "READ_ONLY"


def test_engine_errors_carry_the_engine_code(capsys: Any) -> None:
    code, data = _run(capsys, "run", "--engine", "duckdb", "--json", "SELEC 1")
    assert code == 1 and data["error"]["engine_code"] == "ParserException"


def test_default_engine_and_load(capsys: Any, tmp_path: Any) -> None:
    code, data = _run(
        capsys,
        "run",
        "--engine",
        "default",
        "--dialect",
        "iso-gql",
        "--graph",
        FINANCE,
        "--json",
        "MATCH (l:Loan) RETURN count(*) AS n",
    )
    assert code == 0 and data["rows"] == [[150]]
    db = str(tmp_path / "g.duckdb")
    code, data = _run(
        capsys, "load", "--engine", "duckdb", "--path", db, "--graph", FINANCE, "--json"
    )
    assert code == 0 and data["loaded"]["Person"] == 300
    code, data = _run(
        capsys,
        "run",
        "--engine",
        "duckdb",
        "--path",
        db,
        "--json",
        'SELECT count(*) AS n FROM "Loan"',
    )
    assert code == 0 and data["rows"] == [[150]]


def test_servers_need_an_address(capsys: Any, monkeypatch: Any) -> None:
    monkeypatch.delenv("GQLIR_POSTGRES_URL", raising=False)
    code, data = _run(capsys, "run", "--engine", "postgres", "--json", "SELECT 1")
    assert code == 1 and data["error"]["code"] == "ENGINE_CONFIG"


def test_the_reference_engine_keeps_its_own_output(capsys: Any) -> None:
    code, data = _run(capsys, "run", "--json", "RETURN 1 AS x")
    assert code == 0 and data["rows"] == [[1]] and "side_effects" in data


def test_a_sql_engine_given_cypher_says_which_dialect_translates_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    graph = ["--engine", "sqlite", "--graph", "schemas/bookstore"]
    cypher = "MATCH (a:author) RETURN a.name AS name LIMIT 2"
    assert main(["run", *graph, cypher]) == 1
    err = capsys.readouterr().err
    assert "syntax error" in err and "--dialect neo4j translates it to sql:sqlite" in err
    assert main(["run", *graph, "SELECT nme FROM author"]) == 1
    assert "hint" not in capsys.readouterr().err  # SQL that fails on its own gets no hint
    assert main(["run", *graph, "--dialect", "neo4j", cypher]) == 0


def test_arcadedb_writes_nothing_into_the_users_folder_or_terminal(tmp_path: Any) -> None:
    """Its JVM's start-up notice, its polyglot warning and its ./log folder stay out."""
    import subprocess
    import sys

    schemas = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "schemas", "movies")
    done = subprocess.run(
        [sys.executable, "-m", "gqlir", "run", "--engine", "arcadedb", "--graph", schemas]
        + ["MATCH (n:Movie) RETURN count(n) AS c"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0 and "(1 row)" in done.stdout
    assert done.stderr == ""
    assert os.listdir(tmp_path) == []
