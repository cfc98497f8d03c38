"""The dialect acceptance benchmark (benchmarks/dialect_acceptance.py): it finds every corpus
directory by itself, reads each in the right dialect, and writes its table into a file between
the markers only."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
_SPEC = importlib.util.spec_from_file_location(
    "dialect_acceptance", ROOT / "benchmarks" / "dialect_acceptance.py"
)
assert _SPEC is not None and _SPEC.loader is not None
bench = importlib.util.module_from_spec(_SPEC)
sys.modules[_SPEC.name] = bench  # dataclasses look their module up there
_SPEC.loader.exec_module(bench)


@pytest.mark.parametrize(
    ("directory", "dialect"),
    [
        ("iso-gql", "iso-gql"),
        ("tugraph-gql", "tugraph-gql"),
        ("gql", "iso-gql"),  # an alias
        ("sqlpgq-duckpgq", "sqlpgq"),  # a form of a dialect
        ("neo4j4", "neo4j4"),
        ("no-such-thing", None),
    ],
)
def test_a_corpus_directory_names_its_dialect(directory: str, dialect: str | None) -> None:
    assert bench.dialect_of(directory) == dialect


def test_every_corpus_directory_with_verdicts_is_a_row(tmp_path: Path, monkeypatch) -> None:
    corpus = tmp_path / "corpus"
    for name, lines in {
        "iso-gql": [
            {"query": "MATCH (n) RETURN n", "valid": True},
            {"query": "MATCH (n RETURN n", "valid": False},
        ],
        "sqlpgq-extra": [{"query": "MATCH (n) RETURN n", "valid": True, "dialect": "iso-gql"}],
        "translations": [{"source": "MATCH (n) RETURN n", "expected": {}}],
    }.items():
        (corpus / name).mkdir(parents=True)
        text = "".join(json.dumps(line) + "\n" for line in lines)
        (corpus / name / "a.jsonl").write_text(text, encoding="utf-8")
    monkeypatch.setattr(bench, "ROOT", tmp_path)
    table, notes = bench.table()
    rows = table.splitlines()[2:]
    assert rows == [
        "| iso-gql | 1/1 (100.0 %) | 1/1 | 1/1 (100.0 %) | yes |",
        "| sqlpgq-extra (iso-gql) | 1/1 (100.0 %) | 1/1 | 0/0 (–) | yes |",
    ]
    assert notes == []


def test_the_table_is_written_between_the_markers_only(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    readme.write_text(
        f"before\n{bench.START_MARKER}\nold\n{bench.END_MARKER}\nafter\n", encoding="utf-8"
    )
    assert bench.write(readme, "| new |") == 0
    text = readme.read_text(encoding="utf-8")
    assert text.startswith("before\n" + bench.START_MARKER)
    assert "| new |" in text and "old" not in text
    assert text.endswith(bench.END_MARKER + "\nafter\n")
    bare = tmp_path / "bare.md"
    bare.write_text("no markers\n", encoding="utf-8")
    assert bench.write(bare, "| new |") == 2
    assert bare.read_text(encoding="utf-8") == "no markers\n"
