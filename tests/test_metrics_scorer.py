"""The in-memory scorer gives the numbers ``gqlir eval`` writes, pair by pair."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gqlir.cli import main
from gqlir.metrics.scorer import ItemScore, Scorer

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "eval"
GRAPH = ROOT / "schemas" / "movies"


def _lines(name: str) -> list[dict]:
    return [json.loads(line) for line in (DATA / name).read_text().splitlines() if line.strip()]


@pytest.mark.parametrize("preset", ["default", "text2gql-bench"])
def test_each_pair_scores_as_the_file_harness_scores_it(tmp_path: Path, preset: str) -> None:
    out = tmp_path / "run"
    args = ["eval", "--gold", str(DATA / "gold.jsonl"), "--pred", str(DATA / "pred.jsonl")]
    args += ["--graph", str(GRAPH), "--out", str(out), "--quiet", "--preset", preset]
    args += ["--timeout", "10"]
    assert main(args) == 0
    written = {
        r["id"]: r for r in map(json.loads, (out / "results.jsonl").read_text().splitlines())
    }
    preds = {p["id"]: p.get("query") for p in _lines("pred.jsonl")}
    scores: list[ItemScore] = []
    with Scorer(str(GRAPH), preset=preset, timeout=10) as scorer:
        for gold in _lines("gold.jsonl"):
            score = scorer.score(gold["query"], preds.get(gold["id"]), id=gold["id"])
            record = written[gold["id"]]
            assert score.record["metrics"] == record["metrics"], gold["id"]
            assert score.status == record["status"]
            assert score.ex == record["metrics"].get("ex")
            assert score.grammar == record["metrics"].get("grammar")
            scores.append(score)
        summary = scorer.summary(scores)
    written_summary = json.loads((out / "summary.json").read_text())
    assert summary["overall"] == written_summary["overall"]


def test_a_missing_prediction_and_a_syntax_error_are_told_apart() -> None:
    with Scorer(str(GRAPH)) as scorer:
        missing = scorer.score("MATCH (m:Movie) RETURN count(m) AS n", None)
        broken = scorer.score("MATCH (m:Movie) RETURN count(m) AS n", "MATCH (m:Movie RETURN 1")
        right = scorer.score_pairs(
            [("MATCH (m:Movie) RETURN count(m) AS n", "MATCH (:Movie) RETURN count(*) AS n")]
        )
        (right_score,) = list(right)
    assert missing.status["pred"] == "missing" and missing.ex == 0.0
    assert broken.status["pred"] == "PARSE_UNEXPECTED" and "unexpected" in broken.errors["pred"]
    assert right_score.ex == 1.0 and right_score.executable == 1.0
