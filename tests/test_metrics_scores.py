"""NGDBench's set and numeric metrics, step-wise accuracy, grammar conventions, and the
benchmark file layouts."""

from __future__ import annotations

import json
import math

import pytest

from gqlir.metrics import (
    MetricsError,
    boolean_accuracy,
    f1,
    grammar_score,
    grammar_validity,
    jaccard,
    mdre,
    mlre,
    msle,
    numeric_scores,
    precision_recall_f1,
    session_accuracy,
    smape,
    step_accuracy,
)
from gqlir.metrics.formats import detect_format, export_results, read_gold, read_predictions


def test_set_metrics():
    assert jaccard({1, 2, 3}, {2, 3, 4}) == pytest.approx(0.5)
    assert jaccard(set(), set()) == 1.0
    p, r, f = precision_recall_f1({1, 2}, {2, 3, 4, 5})
    assert (p, r) == (0.5, 0.25)
    assert f == pytest.approx(2 * 0.5 * 0.25 / 0.75)
    assert f1({1}, {2}) == 0.0
    assert precision_recall_f1(set(), {1}) == (1.0, 0.0, 0.0)
    assert boolean_accuracy([True, False, None, True], [True, True, False, True]) == 0.5
    with pytest.raises(MetricsError):
        boolean_accuracy([True], [True, False])


def test_numeric_metrics_by_their_formulas():
    preds, golds = [110.0, 50.0, 0.0, 3.0], [100.0, 100.0, 0.0, 1.0]
    assert mdre(preds, golds) == pytest.approx((0.1 + 0.5) / 2)  # errors 0.1, 0.5, 0, 2
    expected = sum((math.log1p(p) - math.log1p(g)) ** 2 for p, g in zip(preds, golds)) / 4
    assert msle(preds, golds) == pytest.approx(expected)
    terms = [10 / 105, 50 / 75, 0.0, 2 / 2]
    assert smape(preds, golds) == pytest.approx(sum(terms) / 4)
    assert smape(preds, golds, percent=True) == pytest.approx(sum(terms) / 4 * 100)
    # twice the truth and half the truth are the same log-ratio error
    assert mlre([200.0], [100.0]) == pytest.approx(mlre([50.0], [100.0]), rel=1e-6)
    assert mdre([1.0], [0.0]) == pytest.approx(1e6)  # zero gold: divided by eps
    with pytest.raises(MetricsError, match="MSLE"):
        msle([-1.0], [1.0])
    scores = numeric_scores([-5.0, 10.0], [5.0, 10.0])
    assert scores.undefined == 1 and scores.msle == 0.0 and scores.smape == pytest.approx(1.0)


def test_step_wise_accuracy():
    gold = [3, 4, 5, 5, 6]
    assert step_accuracy([3, 4, 9, 5, 6], gold) == 0.8
    assert step_accuracy([3, 4], gold) == 0.4  # missing steps are wrong
    assert step_accuracy([3.0, 4, 5, 5, 6, 7], gold) == 1.0  # 3.0 == 3; extra steps ignored
    assert session_accuracy([([1, 2], [1, 2]), ([0, 0], [1, 2])]) == 0.5


def test_grammar_conventions():
    good, bad = "MATCH (n) RETURN n", "MATCH (n RETURN n"
    assert grammar_score(good, "neo4j") == 1
    assert grammar_score(bad, "neo4j") == 0
    assert grammar_score(None, "neo4j") == 0
    # Text2GQL-Bench: a gold query that does not parse scores -1, counted as 0 over all items
    assert grammar_score(good, "neo4j", gold=bad, convention="text2gql") == -1
    assert (
        grammar_score("GRAPH g MATCH (n) RETURN n", "iso-gql", gold=good, convention="text2gql")
        == 1
    )
    assert grammar_validity([1, -1, 0, 1]) == 0.5
    # strict: the dialect must express every construct, not only parse it
    # (Kuzu's grammar reads a quantified path pattern, but Kuzu cannot run one)
    qpp = "MATCH (a)((x)-[:R]->(y)){1,3}(b) RETURN b"
    assert grammar_score(qpp, "neo4j") == 1
    assert grammar_score(qpp, "kuzu", gold=good, convention="text2gql") == 1
    assert grammar_score(qpp, "kuzu") == 0


def _write(path, records):
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return str(path)


def test_text2gql_layout_and_levels(tmp_path):
    record = {
        "id": "q1", "database": "finance", "initial_question": "q?", "gold_query": "MATCH (n) RETURN n",
        "level_1": "l1", "level_2": "l2", "level_3": "l3", "external_knowledge": "ek",
        "difficulty": "easy", "source": "x",
    }  # fmt: skip
    gold_path = _write(tmp_path / "t.jsonl", [record])
    items, fmt = read_gold(gold_path)
    assert fmt == "text2gql" and items[0].domain == "finance" and items[0].difficulty == "easy"
    items, _ = read_gold(gold_path, levels=("level_1", "level3_with_ext"))
    assert [i.id for i in items] == ["q1:level_1", "q1:level3_with_ext"]
    assert items[1].question == "l3 ek"
    preds_txt = tmp_path / "pred.txt"
    preds_txt.write_text("MATCH (m) RETURN m\n\n")
    preds = read_predictions(str(preds_txt), items)
    assert (
        preds["q1:level_1"].query == "MATCH (m) RETURN m"
        and preds["q1:level3_with_ext"].query == ""
    )
    with pytest.raises(MetricsError, match="unknown question level"):
        read_gold(gold_path, levels=("level_9",))


def test_cypherbench_layout_round_trip(tmp_path):
    sample = {
        "qid": "cb-1", "graph": "nba", "gold_cypher": "MATCH (n:Player) RETURN n.name",
        "nl_question": "players?", "from_template": {"match_category": "basic_(n)", "return_pattern_id": "n_name_prop"},
        "pred_cypher": "MATCH (p:Player) RETURN p.name",
    }  # fmt: skip
    path = tmp_path / "cb.json"
    path.write_text(json.dumps([sample]))
    items, fmt = read_gold(str(path))
    assert fmt == "cypherbench"
    assert (items[0].domain, items[0].return_category) == ("nba", "n_prop_combined")
    preds = read_predictions(str(path), items)
    assert preds["cb-1"].query == sample["pred_cypher"]
    result = {"id": "cb-1", "gold": sample["gold_cypher"], "pred": sample["pred_cypher"],
              "source": sample, "metrics": {"ex": 1.0, "psjs": 0.5, "executable": 1.0}}  # fmt: skip
    out = tmp_path / "export.json"
    export_results([result], "cypherbench", str(out))
    written = json.loads(out.read_text())[0]
    assert written["qid"] == "cb-1" and written["metrics"]["psjs"] == 0.5


def test_ngdbench_layouts(tmp_path):
    query = {"template_id": "basic_T004", "template_type": "basic", "query": "MATCH (a) RETURN a",
             "parameters": {}, "answer": [{"a": 1}]}  # fmt: skip
    batch = {"template": {"query": ["CREATE (:X)"] * 2},
             "validation": [{"query": "MATCH (x:X) RETURN count(x)", "answer": 2, "index": 1},
                            {"query": "MATCH (x:X) RETURN count(x)", "answer": 1, "index": 0}]}  # fmt: skip
    assert detect_format([batch]) == "ngdbench"
    items, fmt = read_gold(_write(tmp_path / "n.jsonl", [query, batch]))
    assert fmt == "ngdbench"
    assert items[0].answer == [{"a": 1}] and items[0].level == "basic"
    assert items[1].steps == [1, 2]  # ordered by index


def test_malformed_inputs_are_metrics_errors(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": 1, "query": "x"}\nnot json\n')
    with pytest.raises(MetricsError, match="line 2"):
        read_gold(str(bad))
    with pytest.raises(MetricsError, match="cannot read"):
        read_gold(str(tmp_path / "missing.jsonl"))
    dup = _write(tmp_path / "dup.jsonl", [{"id": "a", "query": "x"}, {"id": "a", "query": "y"}])
    with pytest.raises(MetricsError, match="duplicate"):
        read_gold(dup)
