"""The programs of examples/library run as a user runs them, and type-check under mypy --strict
against gqlir's public API."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples" / "library"


def _run(*args: str, cwd: Path = ROOT) -> str:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, env=env, cwd=cwd, timeout=300
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_eval_loop_scores_and_explains_each_prediction() -> None:
    out = _run(str(EXAMPLES / "eval_loop.py"))
    assert "execution accuracy: 4/8 {'correct': 4, 'invalid': 3, 'wrong': 1}" in out
    assert (
        "4: invalid [SCHEMA_UNKNOWN_LABEL] unknown node label Persn (did you mean 'Person'?)" in out
    )
    assert "7: invalid [PARSE_UNEXPECTED]" in out
    assert "3: wrong answer: row 0: ('" in out and "(('str'" not in out


def test_corpus_converter_counts_refusals_per_target(tmp_path: Path) -> None:
    target = tmp_path / "out.jsonl"
    out = _run(str(EXAMPLES / "convert_corpus.py"), str(target), cwd=tmp_path)
    assert "iso-gql: 11/12 converted" in out
    assert "spanner: 11/12 converted" in out
    assert "refused 1x: graph-element-in-result" in out
    # one construct, one id, whichever target refuses it
    assert out.count("refused 1x: regular-expression-match") == 2
    records = [json.loads(line) for line in target.read_text().splitlines()]
    assert len(records) == 12
    assert records[0]["spanner"] == "GRAPH movies MATCH (m:Movie) RETURN m.title AS title"
    assert records[7]["spanner"] is None and records[7]["iso-gql"] is not None


def test_schema_prompt_lists_the_schema_and_rejects_with_suggestions() -> None:
    out = _run(str(EXAMPLES / "schema_prompt.py"))
    assert "  (:Person)-[:ACTED_IN {roles LIST<STRING>}]->(:Movie)" in out
    assert "ok: MATCH (p:Person)-[:ACTED_IN]->(m:Movie)" in out
    assert "[SCHEMA_WRONG_DIRECTION]" in out
    assert "[SCHEMA_UNKNOWN_REL_TYPE] unknown relationship type ACTS_IN" in out
    assert out.rstrip().endswith("-> ACTED_IN")


def _mypy(*args: str) -> subprocess.CompletedProcess[str]:
    pytest.importorskip("mypy")
    env = dict(os.environ, MYPYPATH=str(ROOT))
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--follow-imports=silent",
            "--no-incremental",
            *args,
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=600,
    )


def test_examples_type_check_strictly() -> None:
    proc = _mypy(str(EXAMPLES))
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_the_public_entry_points_have_precise_types(tmp_path: Path) -> None:
    names = [
        "gqlir.parse",
        "gqlir.emit",
        "gqlir.transpile",
        "gqlir.validate",
        "gqlir.get_dialect",
        "gqlir.emit_options",
        "gqlir.ir.from_json",
        "gqlir.ir.Match.from_json",
        "gqlir.engines.open_engine",
        "gqlir.api.check_query",
        "gqlir.schema.load_schema",
        "gqlir.metrics.Scorer",
        "gqlir.metrics.Scorer.score",
        "gqlir.metrics.execution_match",
        "gqlir.metrics.google_bleu",
        "gqlir.metrics.jaro_winkler",
        "gqlir.metrics.psjs",
        "gqlir.metrics.grammar_score",
    ]
    program = tmp_path / "user_program.py"
    program.write_text(
        "import gqlir\nimport gqlir.api\nimport gqlir.ir\nimport gqlir.engines\nimport gqlir.schema\n"
        "import gqlir.metrics\n" + "".join(f"reveal_type({n})\n" for n in names)
    )
    proc = _mypy(str(program))
    revealed = [line for line in proc.stdout.splitlines() if "Revealed type" in line]
    assert len(revealed) == len(names), proc.stdout
    for name, line in zip(names, revealed):
        # an engine's constructor options differ by engine: the one Any a user may pass
        signature = line.split("Revealed type is ")[1].replace("**options: Any", "")
        assert "Any" not in signature, (name, line)
