"""The cross-dialect golden files (corpus/gql/, written by scripts/golden_gql.py): every case's
source, translated into every target, gives exactly the recorded text or the recorded refusal;
every recorded text reads back in its dialect. A TCK case's text was recorded only after the
TCK check (the translation run against the scenario's expected result) where the case lists
the target as verified; the check itself is tests/test_tck_runner.py."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from gqlir import api
from gqlir.conformance.runner import translation_writer
from gqlir.errors import UnsupportedError

GOLDEN = Path(__file__).resolve().parent.parent / "corpus" / "gql"


def _cases() -> list[dict[str, Any]]:
    cases = []
    for path in sorted(GOLDEN.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                cases.append(json.loads(line))
    return cases


CASES = _cases()


def test_there_are_at_least_300_cases_in_several_directions() -> None:
    assert len(CASES) >= 300
    assert {c["from"] for c in CASES} >= {"neo4j", "iso-gql"}
    targets = {t for c in CASES for t in c["expected"]}
    assert targets >= {"iso-gql", "spanner", "tugraph-gql", "neo4j", "opencypher9", "kuzu"}
    refusals = sum("refused" in e for c in CASES for e in c["expected"].values())
    assert refusals > 100  # the expected errors are golden too


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_golden_case(case: dict[str, Any]) -> None:
    source = case["from"]
    query = api.parse(case["source"], source)
    for target, expected in case["expected"].items():
        try:
            actual = {
                "text": api.translate(query, source, target, writer=translation_writer(target))
            }
        except UnsupportedError as exc:
            actual = {"refused": exc.construct}
        assert actual == expected, target
        if "text" in expected:
            api.parse(expected["text"], target)  # the recorded text is valid in its dialect
    assert set(case.get("verified", ())) <= {t for t, e in case["expected"].items() if "text" in e}
