"""Batch mode computes each distinct query text once per run and reuses its outcome for later
identical lines: the output is the one computing every line gives, in the same order."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest

import gqlir.workers
from gqlir import cli
from gqlir.cli import main

ROOT = Path(__file__).resolve().parent.parent

ARGS = {
    "translate": ["--from", "neo4j", "--to", "iso-gql"],
    "validate": ["--dialect", "neo4j"],
}


def _queries(n: int) -> list[str]:
    rows = (ROOT / "corpus" / "gql" / "from_cypher.jsonl").read_text().splitlines()
    return [json.loads(line)["source"] for line in rows if line.strip()][:n]


def _write(path: Path, queries: list[str]) -> Path:
    lines = [json.dumps({"id": i, "query": q}) for i, q in enumerate(queries)]
    lines.insert(7, "{not json")
    lines.insert(11, "")
    path.write_text("\n".join(lines) + "\n")
    return path


def _run(command: str, source: Path, out: Path, jobs: str) -> str:
    main([command, *ARGS[command], "--input", str(source), "--quiet", "--jobs", jobs,
          "--output", str(out)])  # fmt: skip
    return out.read_text()


@pytest.mark.parametrize("command", ["translate", "validate"])
@pytest.mark.parametrize("repeats", [False, True])
def test_reuse_gives_the_output_of_computing_every_line(
    tmp_path: Path, command: str, repeats: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    distinct = _queries(40)
    queries = distinct + distinct[::-1] + distinct[:10] if repeats else distinct
    source = _write(tmp_path / "in.jsonl", queries)
    cached = [_run(command, source, tmp_path / f"c{jobs}.jsonl", jobs) for jobs in ("1", "2")]
    monkeypatch.setattr(cli, "_OUTCOME_CACHE_LIMIT", 3)  # a bound reached mid-run
    bounded = [_run(command, source, tmp_path / f"b{jobs}.jsonl", jobs) for jobs in ("1", "2")]
    monkeypatch.setattr(cli, "_OUTCOME_CACHE_LIMIT", 0)
    plain = _run(command, source, tmp_path / "plain.jsonl", "1")
    assert len(plain.splitlines()) == len(queries) + 2
    assert cached == [plain, plain]
    assert bounded == [plain, plain]


def test_a_repeated_query_is_computed_once_in_one_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: Counter[str] = Counter()
    original = cli._validate_one

    def counting(text: str, *args: Any, **kwargs: Any) -> Any:
        calls[text] += 1
        return original(text, *args, **kwargs)

    monkeypatch.setattr(cli, "_validate_one", counting)
    distinct = _queries(20)
    source = _write(tmp_path / "in.jsonl", distinct * 3)
    _run("validate", source, tmp_path / "out.jsonl", "1")
    assert calls == Counter(distinct)


def test_a_repeated_query_is_sent_to_a_worker_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sent: Counter[str | None] = Counter()

    def in_process(function: Callable[[Any], Any], items: Iterable[Any], **_: Any) -> Iterator[Any]:
        for item in items:
            sent[item] += 1
            yield function(item)

    monkeypatch.setattr(gqlir.workers, "ordered_map", in_process)
    distinct = _queries(20)
    source = _write(tmp_path / "in.jsonl", distinct * 3)
    _run("translate", source, tmp_path / "out.jsonl", "2")
    texts = {text: n for text, n in sent.items() if text is not None}
    assert texts == dict(Counter(distinct))
    # The repeats and the two malformed lines are placeholders, not work.
    assert sent[None] == 2 * len(distinct) + 2
