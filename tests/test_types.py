"""mypy finds no error in gqlir outside the compiler core (parser, emitter), with the
repository's settings (pyproject.toml), and the public entry points say what they return and
accept (a user's program is checked against them)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import gqlir
from gqlir import ir

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "gqlir"
#: Checked by following imports only (their errors are not reported here); the lowering passes
#: are checked with the rest.
CORE = ("parser", "emitter")

USER_PROGRAM = """\
from typing import assert_type

import gqlir
from gqlir import ir
from gqlir.schema.relational import RelationalSchema
from gqlir.sqlmapping import SqlMapping

assert_type(gqlir.parse("CREATE INDEX FOR (n:Person) ON (n.name)"), ir.Statement)


def from_sql(text: str, mapping: SqlMapping, tables: RelationalSchema) -> None:
    gqlir.parse(text, "sql:postgres", schema=mapping)
    gqlir.transpile(text, "sql:postgres", "neo4j", schema=tables)
"""


def _clean_modules() -> list[str]:
    return sorted(
        str(p.relative_to(ROOT))
        for p in PACKAGE.rglob("*.py")
        if p.relative_to(PACKAGE).parts[0] not in CORE
    )


def test_mypy_reports_no_error_outside_the_compiler_core(tmp_path: Path) -> None:
    program = tmp_path / "user_program.py"
    program.write_text(USER_PROGRAM)
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--follow-imports=silent",
            "--warn-unused-ignores",
            "--cache-dir",
            str(tmp_path / "cache"),
            *_clean_modules(),
            str(program),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
    )
    errors = [line for line in proc.stdout.splitlines() if ": error:" in line]
    assert errors == [], proc.stdout + proc.stderr
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Success: no issues found" in proc.stdout


def test_the_clean_modules_include_every_package_outside_the_core() -> None:
    modules = _clean_modules()
    assert "gqlir/api.py" in modules and "gqlir/schema/checks.py" in modules
    assert "gqlir/passes/pipeline.py" in modules  # (the lowering passes are checked too)
    assert not any(m.startswith(("gqlir/parser/", "gqlir/emitter/")) for m in modules)


def test_parse_returns_a_statement_that_need_not_be_a_query() -> None:
    """What the annotation ``-> ir.Statement`` (once ``ir.Query``) says."""
    index = gqlir.parse("CREATE INDEX FOR (n:Person) ON (n.name)")
    assert isinstance(index, ir.CreateIndex) and not isinstance(index, ir.Query)
    assert isinstance(gqlir.parse("MATCH (n) RETURN n"), ir.Query)
