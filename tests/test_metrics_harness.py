"""``gqlir eval`` end to end on the example dataset (tests/data/eval: gold queries over
schemas/movies; predictions that are right, wrong, invalid, slow, writing, empty or missing),
with the reference engine: the report, the breakdowns, and resuming an interrupted run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gqlir.cli import main

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "eval"
GRAPH = ROOT / "schemas" / "movies"


def _eval(out: Path, *extra: str) -> int:
    return main(
        [
            "eval",
            "--gold", str(DATA / "gold.jsonl"),
            "--pred", str(DATA / "pred.jsonl"),
            "--engine", "reference",
            "--graph", str(GRAPH),
            "--out", str(out),
            "--quiet",
            *extra,
        ]
    )  # fmt: skip


def _records(out: Path) -> list[dict]:
    return [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]


@pytest.fixture(scope="module")
def full_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("eval") / "run"
    assert _eval(out, "--json") == 0
    return out


def test_every_item_is_scored_with_its_outcome(full_run):
    by_id = {r["id"]: r for r in _records(full_run)}
    assert len(by_id) == 18
    status = {k: r["status"]["pred"] for k, r in by_id.items()}
    assert status["g06"] == "PARSE_UNEXPECTED"  # invalid
    assert status["g08"] == "TIMEOUT"  # slow
    assert status["g10"] == "READ_ONLY"  # a write, refused before it runs
    assert status["g16"] == "missing" and status["g17"] == "empty"
    ex = {k: r["metrics"]["ex"] for k, r in by_id.items()}
    assert ex["g01"] == ex["g03"] == ex["g13"] == ex["g14"] == ex["g15"] == 1.0
    assert ex["g02"] == 0.0  # no ORDER BY: other rows under LIMIT
    assert ex["g04"] == 0.0  # columns in another order (only test-suite allows it)
    assert ex["g18"] is None  # the gold query fails: excluded by default
    assert by_id["g18"]["status"]["gold"] == "ENGINE"
    assert by_id["g06"]["metrics"]["grammar"] == 0
    assert by_id["g07"]["metrics"]["psjs"] == pytest.approx(5 / 11, abs=0.2)
    assert 0 < by_id["g07"]["metrics"]["psjs"] < 1
    assert by_id["g11"]["metrics"]["jaccard"] == pytest.approx(2 / 3)  # one UNION branch of two
    assert by_id["g09"]["metrics"]["boolean"] == 0.0
    numeric = by_id["g05"]["metrics"]["numeric"]
    assert numeric["gold"] != numeric["pred"] and by_id["g05"]["metrics"]["ex"] == 0.0
    assert by_id["g08"]["difficulty_ir"] == "extra hard"


def test_summary_and_report_show_every_metric_with_breakdowns(full_run):
    summary = json.loads((full_run / "summary.json").read_text())
    overall = summary["overall"]
    records = _records(full_run)
    counted = [r["metrics"]["ex"] for r in records if r["metrics"]["ex"] is not None]
    assert overall["ex"] == pytest.approx(sum(counted) / len(counted))
    assert overall["ex_n"] == 17
    for metric in ("ex", "executable", "psjs", "grammar", "google_bleu", "jaro_winkler",
                   "ir_similarity", "jaccard", "f1", "boolean"):  # fmt: skip
        assert overall[metric] is not None, metric
    assert overall["numeric"]["n"] == 1
    for name in (
        "difficulty",
        "difficulty_ir",
        "match_ir",
        "return_ir",
        "dialect",
        "domain",
        "level",
    ):
        assert summary["breakdowns"][name], name
    assert set(summary["breakdowns"]["dialect"]) == {"neo4j", "iso-gql"}
    assert summary["breakdowns"]["difficulty"]["extra hard"]["items"] == 2
    html = (full_run / "report.html").read_text()
    assert html.count("<svg") >= 4 and "<script" not in html
    for heading in ("EX", "PSJS", "grammar", "G-BLEU", "J-W", "IR-sim", "Jaccard", "F1", "MdRE",
                    "By difficulty", "By domain", "By level", "By dialect", "g08"):  # fmt: skip
        assert heading in html, heading
    assert "| EX |" in (full_run / "summary.md").read_text()


def test_an_interrupted_run_resumes_without_redoing_items(tmp_path, full_run, capsys):
    out = tmp_path / "run"
    assert _eval(out, "--limit", "7") == 0
    first = _records(out)
    assert [r["id"] for r in first] == [f"g{i:02d}" for i in range(1, 8)]
    assert json.loads((out / "summary.json").read_text())["complete"] is False
    capsys.readouterr()
    assert _eval(out, "--json") == 0
    run = json.loads(capsys.readouterr().out)
    assert (run["resumed"], run["evaluated"], run["complete"]) == (7, 11, True)
    records = _records(out)
    assert records[:7] == first  # finished items were not redone
    assert len({r["id"] for r in records}) == 18
    same = {r["id"]: r["metrics"].get("ex") for r in _records(full_run)}
    assert {r["id"]: r["metrics"].get("ex") for r in records} == same


def test_a_line_cut_by_a_kill_is_redone_and_gold_results_come_from_the_cache(
    tmp_path, full_run, capsys
):
    out = tmp_path / "run"
    out.mkdir()
    for name in ("results.jsonl", "gold_cache.jsonl", "run.json"):
        (out / name).write_bytes((full_run / name).read_bytes())
    text = (out / "results.jsonl").read_text()
    cut = text[: text.rindex("\n", 0, len(text) - 1) + 40]  # the last record cut short
    (out / "results.jsonl").write_text(cut)
    capsys.readouterr()
    assert _eval(out, "--json") == 0
    run = json.loads(capsys.readouterr().out)
    assert (run["resumed"], run["evaluated"], run["gold_cache_hits"]) == (17, 1, 1)
    assert [r["id"] for r in _records(out)][-1] == "g18"


def test_other_settings_refuse_to_mix_with_earlier_results(tmp_path, capsys):
    out = tmp_path / "run"
    assert _eval(out, "--limit", "1", "--no-psjs") == 0
    capsys.readouterr()
    assert _eval(out, "--policy", "set", "--no-psjs") == 1
    assert "other settings (policy)" in capsys.readouterr().err
    assert _eval(out, "--policy", "set", "--no-psjs", "--fresh", "--limit", "2") == 0
    assert len(_records(out)) == 2


def test_bad_inputs_are_reported_not_raised(tmp_path, capsys):
    assert main(["eval", "--gold", str(tmp_path / "none.jsonl"), "--pred", "x", "--out",
                 str(tmp_path / "o"), "--quiet"]) == 1  # fmt: skip
    assert "cannot read" in capsys.readouterr().err
    assert _eval(tmp_path / "o2", "--policy", "nope") == 1
    assert "unknown execution policy" in capsys.readouterr().err


def test_parallel_workers_give_the_same_scores(tmp_path, full_run):
    gold = tmp_path / "gold.jsonl"
    lines = (DATA / "gold.jsonl").read_text().splitlines()
    gold.write_text("\n".join(x for x in lines if '"g08"' not in x) + "\n")  # no slow query
    out = tmp_path / "par"
    code = main(["eval", "--gold", str(gold), "--pred", str(DATA / "pred.jsonl"), "--graph",
                 str(GRAPH), "--out", str(out), "--jobs", "2", "--quiet"])  # fmt: skip
    assert code == 0
    expected = {r["id"]: r["metrics"] for r in _records(full_run) if r["id"] != "g08"}
    assert {r["id"]: r["metrics"] for r in _records(out)} == expected


def test_surrogates_in_records_are_kept_and_non_json_numbers_refused(tmp_path, capsys):
    """Lone surrogates in the gold and predicted records do not abort the run (a prediction's is
    written back as a JSON escape); NaN in a gold line is refused with its line number."""
    gold, pred = tmp_path / "gold.jsonl", tmp_path / "pred.jsonl"
    gold.write_text(
        '{"id": "s1", "query": "MATCH (m:Movie) RETURN m.title", "note": "\\udc00"}\n',
        encoding="utf-8",
    )
    pred.write_text('{"id": "s1", "query": "RETURN \'\\ud800\' AS t"}\n', encoding="utf-8")
    out = tmp_path / "run"
    code = main(["eval", "--gold", str(gold), "--pred", str(pred), "--engine", "reference",
                 "--graph", str(GRAPH), "--out", str(out), "--quiet"])  # fmt: skip
    assert code == 0, capsys.readouterr().err
    (record,) = _records(out)
    assert (
        record["pred"] == "RETURN '\ud800' AS t" and record["status"]["pred"] == "PARSE_SURROGATE"
    )
    assert "\\ud800" in (out / "report.html").read_text(encoding="utf-8")

    gold.write_text('{"id": "s1", "query": "RETURN 1 AS x", "x": NaN}\n', encoding="utf-8")
    code = main(["eval", "--gold", str(gold), "--pred", str(pred), "--out",
                 str(tmp_path / "run2"), "--quiet"])  # fmt: skip
    assert code == 1
    assert "line 1: not strict JSON (NaN is not JSON)" in capsys.readouterr().err
