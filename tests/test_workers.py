"""Batch mode on several cores: the same output, in the same order, and nothing lost when a
worker process dies."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from gqlir.cli import main
from gqlir.workers import ordered_map

ROOT = Path(__file__).resolve().parent.parent


def _square_or_die(n: int) -> int:
    if n == 13:
        os._exit(9)  # a worker that dies, as a crash in a C extension would
    return n * n


def test_results_come_in_input_order_and_a_dying_worker_costs_one_item() -> None:
    got = list(ordered_map(_square_or_die, range(200), jobs=2, on_crash=lambda n: -n, chunk=7))
    assert got == [-13 if n == 13 else n * n for n in range(200)]


def test_an_empty_input_gives_nothing() -> None:
    assert list(ordered_map(_square_or_die, [], jobs=2, on_crash=lambda n: n)) == []


@pytest.mark.parametrize("command", ["translate", "validate"])
def test_jobs_give_the_single_process_output(
    tmp_path: Path, command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    queries = [
        json.loads(line)["source"]
        for line in (ROOT / "corpus" / "gql" / "from_cypher.jsonl").read_text().splitlines()
        if line.strip()
    ][:300]
    lines = [json.dumps({"id": i, "query": q}) for i, q in enumerate(queries)]
    lines[5] = "{not json"
    lines.insert(9, "")
    source = tmp_path / "in.jsonl"
    source.write_text("\n".join(lines) + "\n")
    args = [command, "--input", str(source), "--quiet"]
    args += (
        ["--from", "neo4j", "--to", "iso-gql"] if command == "translate" else ["--dialect", "neo4j"]
    )
    outputs = []
    for jobs in ("1", "2"):
        out = tmp_path / f"out{jobs}.jsonl"
        main([*args, "--jobs", jobs, "--output", str(out)])
        outputs.append(out.read_text())
    assert outputs[0] == outputs[1]
    assert len(outputs[0].splitlines()) == len(lines)
