"""SQL/PGQ as its engines document it (corpus/sqlpgq: the standard's form, Oracle 23ai, DuckPGQ,
PostgreSQL 19; each entry names its form in ``dialect``): every valid query is read, apart from
the few listed with the reason gqlir refuses them (``note``); every documented invalid form is
refused with a position; and parse → emit → parse in the same form is the identity."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import gqlir

ROOT = Path(__file__).resolve().parent.parent / "corpus" / "sqlpgq"
FORMS = {
    "standard": "sqlpgq",
    "oracle": "sqlpgq:oracle",
    "duckpgq": "sqlpgq:duckdb",
    "postgres": "sqlpgq:postgres",
}


def _load(form: str) -> list[dict]:
    with (ROOT / f"{form}.jsonl").open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


CORPUS = {form: _load(form) for form in FORMS}
ENTRIES = [e for entries in CORPUS.values() for e in entries]
ACCEPTED = [e for e in ENTRIES if e["valid"] and "note" not in e]
KNOWN = [e for e in ENTRIES if e["valid"] and "note" in e]
INVALID = [e for e in ENTRIES if not e["valid"]]


def _id(entry: dict) -> str:
    return str(entry["id"])


@pytest.mark.parametrize("form", FORMS)
def test_each_form_has_150_cited_valid_queries_and_95_percent_are_read(form: str) -> None:
    entries = CORPUS[form]
    valid = [e for e in entries if e["valid"]]
    assert len(valid) >= 150
    known = [e for e in valid if "note" in e]
    assert len(valid) - len(known) >= 0.95 * len(valid)
    queries = [e["query"] for e in entries]
    assert len(set(queries)) == len(queries)
    for e in entries:
        assert e["dialect"] == FORMS[form], e
        assert e["source"].startswith("https://"), e
        assert isinstance(e["valid"], bool)


@pytest.mark.parametrize("entry", ACCEPTED, ids=_id)
def test_valid_queries_are_read_and_round_trip(entry: dict) -> None:
    dialect = entry["dialect"]
    result = gqlir.validate(entry["query"], dialect)
    assert result.valid, result.error
    tree = gqlir.parse(entry["query"], dialect)
    text = gqlir.emit(tree, dialect)
    assert gqlir.parse(text, dialect) == tree, text


@pytest.mark.parametrize("entry", KNOWN, ids=_id)
def test_known_refusals_are_refused_by_name_with_a_position(entry: dict) -> None:
    """A query listed as refused is refused (once gqlir reads it, the note must go)."""
    result = gqlir.validate(entry["query"], entry["dialect"])
    assert not result.valid
    assert result.error is not None and result.error.message


@pytest.mark.parametrize("entry", INVALID, ids=_id)
def test_invalid_forms_are_refused_with_a_position(entry: dict) -> None:
    query = entry["query"]
    result = gqlir.validate(query, entry["dialect"])
    assert not result.valid
    error = result.error
    assert error is not None and error.line is not None and error.column is not None
    assert 1 <= error.column <= len(query) + 1
