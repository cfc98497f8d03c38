"""Missing optional packages: one error (MISSING_DEPENDENCY) with the install command, and exit
code 2 on the command line, wherever gqlir needs one. Each package is made unimportable for
the test (``sys.modules[name] = None`` makes ``import name`` raise ImportError)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

import gqlir
from gqlir.cli import main
from gqlir.optional import MissingDependencyError, require

ROOT = Path(__file__).resolve().parents[1]
RDF = ROOT / "tests" / "data" / "rdf"
SCHEMAS = ROOT / "schemas"


def block(monkeypatch: pytest.MonkeyPatch, *names: str) -> None:
    """Make packages unimportable, with their submodules an earlier test may have imported (a
    package that is not installed has none)."""
    for name in names:
        monkeypatch.setitem(sys.modules, name, None)
        for key in [k for k in sys.modules if k.startswith(name + ".")]:
            monkeypatch.setitem(sys.modules, key, None)


def missing(err: str, package: str, extra: str) -> bool:
    """Whether ``err`` is the one message form: what is missing and the command that brings it."""
    return f"needs {package}, which is not installed: pip install 'gqlir[{extra}]'" in err


def test_require_imports_or_names_the_package_and_extra(monkeypatch) -> None:
    assert require("json", extra="x", purpose="y") is json
    block(monkeypatch, "pg8000.dbapi")
    with pytest.raises(MissingDependencyError) as info:
        require("pg8000.dbapi", extra="engines", purpose="reading a PostgreSQL database")
    err = info.value
    assert isinstance(err, gqlir.GqlirError) and err.code == "MISSING_DEPENDENCY"
    assert (err.package, err.extra, err.install) == (
        "pg8000",
        "engines",
        "pip install 'gqlir[engines]'",
    )
    assert err.message.startswith("reading a PostgreSQL database needs pg8000")


@pytest.mark.parametrize("package", ["pint", "pyoxigraph"])
def test_rdf2pg_without_its_packages(package: str, monkeypatch, tmp_path, capsys) -> None:
    block(monkeypatch, package)
    out = tmp_path / "g"
    args = ["rdf2pg", "-m", str(RDF / "sample_mapping.json"), "--rdf", str(RDF / "sample.ttl")]
    assert main([*args, "-o", str(out)]) == 2
    assert missing(capsys.readouterr().err, package, "rdf")
    assert not out.exists()
    assert main([*args, "-o", str(out), "--json"]) == 2
    assert json.loads(capsys.readouterr().out)["error"]["code"] == "MISSING_DEPENDENCY"


def test_sql_without_sqlglot(monkeypatch, capsys) -> None:
    block(monkeypatch, "sqlglot")
    social = str(SCHEMAS / "social")
    query = "MATCH (p:Person) RETURN p.name AS name"
    assert main(["translate", "--from", "neo4j", "--to", "sql:duckdb", "-s", social, query]) == 2
    assert missing(capsys.readouterr().err, "sqlglot", "sql")
    # a text that could not be checked is not "invalid"
    assert main(["validate", "--dialect", "sql:duckdb", "SELECT 1"]) == 2
    assert missing(capsys.readouterr().err, "sqlglot", "sql")
    with pytest.raises(MissingDependencyError):
        gqlir.validate("SELECT 1", "sql:duckdb")
    assert main(["schema", "convert", str(SCHEMAS / "movies"), "--to", "sql:sqlite"]) == 2
    assert missing(capsys.readouterr().err, "sqlglot", "sql")


def test_sql_engine_without_sqlglot_says_how_to_install_it(monkeypatch, capsys) -> None:
    block(monkeypatch, "sqlglot")
    for engine in ("sqlite", "duckdb"):
        args = ["--engine", engine, "--graph", str(SCHEMAS / "finance")]
        assert main(["run", *args, "SELECT 1"]) == 2
        assert missing(capsys.readouterr().err, "sqlglot", "sql")
    assert main(["load", "--engine", "sqlite", "--graph", str(SCHEMAS / "finance")]) == 2
    assert missing(capsys.readouterr().err, "sqlglot", "sql")


def test_parquet_graphs_without_pyarrow(monkeypatch, capsys) -> None:
    block(monkeypatch, "pyarrow")
    finance = str(SCHEMAS / "finance")
    assert main(["run", "--graph", finance, "MATCH (n) RETURN count(n) AS c"]) == 2
    assert missing(capsys.readouterr().err, "pyarrow", "engines")
    assert main(["graph", "validate", os.path.join(finance, "graph")]) == 2
    assert missing(capsys.readouterr().err, "pyarrow", "engines")


def test_live_schemas_and_databases_without_their_drivers(monkeypatch, capsys) -> None:
    block(monkeypatch, "neo4j", "pg8000")
    assert main(["schema", "convert", "bolt://127.0.0.1:1", "--to", "gqlir"]) == 2
    assert missing(capsys.readouterr().err, "neo4j", "engines")
    out = "never-written"
    assert main(["migrate", "postgresql://127.0.0.1:1/db", "-o", out]) == 2
    assert missing(capsys.readouterr().err, "pg8000", "engines")
    assert not os.path.exists(out)


def test_synth_without_pyarrow_leaves_parquet_out_of_the_card(
    monkeypatch, tmp_path, capsys
) -> None:
    """items.parquet repeats items.jsonl in another layout: the dataset is whole without it, so
    synthesis goes on, and neither the card nor the folder claims it."""
    block(monkeypatch, "pyarrow")
    out = tmp_path / "d"
    args = ["synth", "--schema", str(SCHEMAS / "bookstore"), "--n", "2", "--out", str(out)]
    assert main([*args, "-q", "--templates", "cypherbench", "--timeout", "0.5"]) == 0
    assert missing(capsys.readouterr().err, "pyarrow", "engines")
    assert (out / "items.jsonl").is_file() and not (out / "items.parquet").exists()
    card = (out / "README.md").read_text(encoding="utf-8")
    assert "items.jsonl" in card and "items.parquet" not in card
