"""The compat presets against the benchmarks' own definitions: for each metric and preset a
table of (input, the value the benchmark's script gives), worked out from its code
(docs/metrics.md, "Presets")."""

from __future__ import annotations

import json
import os
from decimal import Decimal

import pytest

from gqlir.engines.base import EdgeValue, NodeValue, PathValue
from gqlir.eval import temporal as tm
from gqlir.metrics.execution import Result, execution_match, execution_score, get_policy
from gqlir.metrics.formats import GoldItem, export_results, read_gold, read_predictions
from gqlir.metrics.grammar import grammar_score, grammar_validity
from gqlir.metrics.harness import EvalConfig, run_evaluation
from gqlir.metrics.peers import PeerCrash
from gqlir.metrics.presets import (
    contrib_ea_gql_text,
    contrib_extract_query,
    driver_clean_query,
    driver_e5fc112a_clean_query,
    get_preset,
    strip_end_of_turn,
)
from gqlir.metrics.provenance_regex import provenance_query
from gqlir.metrics.runner import prediction_timeout
from gqlir.metrics.scoring import ScoringSettings, _text_metrics
from gqlir.metrics.summary import summarize

DATA = os.path.join(os.path.dirname(__file__), "data", "eval_compat")
ROOT = os.path.dirname(os.path.dirname(__file__))

# -- text cleaning ----------------------------------------------------------------------------------

# Text2GraphQuery-Driver utils.clean_query: opening fence (optionally tagged), closing fence,
# newlines to spaces, strip; no text -> ""
DRIVER_CLEAN = [
    ("```cypher\nMATCH (n) RETURN n\n```", "MATCH (n) RETURN n"),
    ("```GQL MATCH (n) RETURN n```", "MATCH (n) RETURN n"),
    ("```\nMATCH (n)\nRETURN n\n```  ", "MATCH (n) RETURN n"),
    ("```python\nMATCH (n) RETURN n```", "python MATCH (n) RETURN n"),
    ("GRAPH g MATCH (n) RETURN n", "GRAPH g MATCH (n) RETURN n"),
    ("Here: ```cypher MATCH (n) RETURN n```", "Here: ```cypher MATCH (n) RETURN n"),
    ("", ""),
    (None, ""),
]


@pytest.mark.parametrize(("text", "peer"), DRIVER_CLEAN)
def test_driver_clean_query(text, peer):
    assert driver_clean_query(text) == peer


# CypherBench evaluate.compute_metrics: a trailing <end_of_turn> and the space before it
END_OF_TURN = [
    ("MATCH (n) RETURN n<end_of_turn>", "MATCH (n) RETURN n"),
    ("MATCH (n) RETURN n \n<end_of_turn>", "MATCH (n) RETURN n"),
    ("MATCH (n) RETURN n<end_of_turn> ", "MATCH (n) RETURN n<end_of_turn> "),
    ("<end_of_turn>MATCH (n) RETURN n", "<end_of_turn>MATCH (n) RETURN n"),
]


@pytest.mark.parametrize(("text", "peer"), END_OF_TURN)
def test_strip_end_of_turn(text, peer):
    assert strip_end_of_turn(text) == peer


# -- execution accuracy: value identity ---------------------------------------------------------------

NODE = NodeValue("1", ("Person",), {"name": "Ann", "born": 1970})
OTHER = NodeValue("2", ("Person",), {"name": "Bob"})
EDGE = EdgeValue("9", "KNOWS", "1", "2", {"since": 2001})
EDGE_2 = EdgeValue("8", "KNOWS", "1", "2", {"since": 1999})
PATH = PathValue((NODE, OTHER), (EDGE,))
DATE = tm.parse_temporal("date", "2020-01-02")
DATETIME = tm.parse_temporal("datetime", "2020-01-02T03:04:05Z")
NAN = float("nan")

# (gold value, predicted value, text2gql Driver, CypherBench, gqlir default); "crash": the
# benchmark's run stops (CypherBench: a gold value to_hashable cannot take, or a comparison
# that raises)
VALUES = [
    (True, 1, True, True, False),
    (False, 0.0, True, True, False),
    (1, 1.0, True, True, True),
    (0.1 + 0.2, 0.3, True, False, True),
    (NODE, {"name": "Ann", "born": 1970}, True, True, False),
    (NODE, NodeValue("7", ("Other",), {"name": "Ann", "born": 1970}), True, True, False),
    (EDGE, EDGE_2, True, "crash", False),
    (PATH, PATH, True, False, True),  # the prediction fails to_hashable first: 0
    (DATE, "2020-01-02", True, True, False),
    (DATETIME, DATETIME, True, False, True),
    (DATETIME, 1, False, "crash", False),  # the gold fails to_hashable: its run stops
    (NAN, NAN, True, False, True),
    (NAN, "NaN", True, False, False),
    (Decimal("0.1000000001"), 0.1000000001, False, "crash", True),
    ([1, 2], [2, 1], False, True, False),
    ([1, "a"], [1, "a"], True, False, True),
    ({"a": 1, "b": [2, 1]}, {"b": [1, 2], "a": 1}, False, True, False),
    (b"\x01", "01", True, "crash", True),
]


def _outcome(gold, pred, policy):
    try:
        return execution_match([(gold,)], [(pred,)], policy)
    except PeerCrash:
        return "crash"


@pytest.mark.parametrize(("gold", "pred", "driver", "cypherbench", "default"), VALUES)
def test_value_identity_per_preset(gold, pred, driver, cypherbench, default):
    assert _outcome(gold, pred, "text2gql") == driver
    assert _outcome(gold, pred, "cypherbench") == cypherbench
    assert _outcome(gold, pred, "default") == default


def test_cypherbench_prediction_values_it_cannot_hash_score_zero():
    # the prediction's to_hashable raises TypeError inside its try: EX 0, the run goes on
    assert execution_match([(1,)], [(DATETIME,)], "cypherbench") is False
    assert execution_match([(1,)], [(PATH,)], "cypherbench") is False


# (gold rows, predicted rows, gold orders, prediction orders, Driver, CypherBench)
ROWS = [
    # the Driver orders by the prediction's text, CypherBench by the gold's
    ([(1,), (2,)], [(2,), (1,)], True, False, True, False),
    ([(1,), (2,)], [(2,), (1,)], False, True, False, True),
    # CypherBench permutes columns, the Driver does not
    ([(1, "a")], [("a", 1)], False, False, False, True),
    # duplicates count in both
    ([(1,), (1,)], [(1,)], False, False, False, False),
    ([], [], False, False, True, True),
    ([], [(1,)], False, False, False, False),
    ([(1, 2)], [(1,)], False, False, False, False),
]


@pytest.mark.parametrize(("gold", "pred", "g_ord", "p_ord", "driver", "cypherbench"), ROWS)
def test_rows_per_preset(gold, pred, g_ord, p_ord, driver, cypherbench):
    width = lambda rows: len(rows[0]) if rows else 1  # noqa: E731
    g, p = Result(gold, width(gold), g_ord), Result(pred, width(pred), p_ord)
    assert execution_match(g, p, "text2gql") == driver
    assert execution_match(g, p, "cypherbench") == cypherbench


def test_relationship_end_nodes_carry_properties_returned_elsewhere():
    # .data() builds the end nodes from the whole result's graph
    gold = [(NODE, EDGE)]
    pred = [({"name": "Ann", "born": 1970}, ({"name": "Ann", "born": 1970}, "KNOWS", {}))]
    assert execution_match(gold, pred, "text2gql") is True


def test_gold_failures_per_preset():
    assert execution_score(None, [(1,)], "text2gql") == 0.0
    assert execution_score(None, [(1,)], "default") is None
    with pytest.raises(PeerCrash):
        execution_score(None, [(1,)], "cypherbench")


# -- PSJS: CypherBench's provenance query built from text ---------------------------------------------

# (query, the provenance query CypherBench's get_ps_cypher writes)
PS_QUERIES = [
    (
        "MATCH (p:Person)-[:ACTED_IN]->(:Movie {title: 'X'}) RETURN p.name",
        "MATCH (p:Person)-[rtmp0:ACTED_IN]->(ntmp0:Movie {title: 'X'}) WITH "
        "collect(distinct elementId(ntmp0)) + collect(distinct elementId(p)) AS elemIds "
        "UNWIND elemIds AS elemId RETURN elemId AS elemId",
    ),
    ("OPTIONAL MATCH (n:Person) RETURN n", "UNWIND [] AS elemId RETURN elemId AS elemId"),
    ("match (n:Person) return n", "UNWIND [] AS elemId RETURN elemId AS elemId"),
    (
        "MATCH (n:Person) WHERE n.name STARTS WITH 'A' RETURN n",
        # "WITH 'A'" is a clause without " as ": WITH *, then dropped as trailing
        "MATCH (n:Person) WHERE n.name STARTS WITH collect(distinct elementId(n)) "
        "AS elemIds UNWIND elemIds AS elemId RETURN elemId AS elemId",
    ),
    (
        "MATCH (n:Person) WITH n, count(*) AS c RETURN n",
        "MATCH (n:Person) WITH collect(distinct elementId(n)) AS elemIds UNWIND elemIds "
        "AS elemId RETURN elemId AS elemId",
    ),
    (
        "MATCH (a:Person)-[:KNOWS*1..2]->(b) RETURN b",
        "MATCH (a:Person)-[rtmp0:KNOWS*1..2]->(b) WITH collect(distinct elementId(a)) + "
        "collect(distinct elementId(b)) AS elemIds UNWIND elemIds AS elemId RETURN elemId "
        "AS elemId",
    ),
    (
        "MATCH (u:User)-[r:RATED]->(m:Movie) RETURN u.name m.title",
        "MATCH (u:User)-[r:RATED]->(m:Movie) WITH collect(distinct elementId(m)) + "
        "collect(distinct elementId(u)) AS elemIds UNWIND elemIds AS elemId RETURN elemId "
        "AS elemId",
    ),
    (
        "CALL { MATCH (n:A) RETURN n UNION MATCH (n:B) RETURN n } RETURN n",
        "MATCH (n:A) WITH collect(distinct elementId(n)) AS elemIds UNWIND elemIds AS elemId "
        "RETURN elemId AS elemId UNION MATCH (n:B) WITH collect(distinct elementId(n)) AS "
        "elemIds UNWIND elemIds AS elemId RETURN elemId AS elemId",
    ),
]


@pytest.mark.parametrize(("query", "peer"), PS_QUERIES)
def test_cypherbench_provenance_query(query, peer):
    assert provenance_query(query) == peer


# -- grammar ------------------------------------------------------------------------------------------

# (prediction, dialect, Text2GQL-Bench's ANTLR verdict: Lcypher for Cypher, OpenGQL for GQL)
GRAMMAR = [
    ("MATCH (n:Start) RETURN n", "neo4j", 0),
    ("MATCH (n:Person) RETURN n", "neo4j", 1),
    ("RETURN 0o777", "neo4j", 0),
    ("RETURN 0777", "neo4j", 1),
    ("MATCH (n) RETURN n ORDER BY n.x OFFSET 1", "neo4j", 0),
    ("MATCH (n) RETURN n OFFSET 1", "neo4j", 0),
    ("MATCH (n) RETURN n ORDER BY n.x SKIP 1", "neo4j", 1),
    ("MATCH p = shortestPath((a)-[*]-(b)) RETURN p", "neo4j", 0),
    ("MATCH (a) WITH 'def' RETURN a", "neo4j", 1),
    ("MATCH (a {name: 'START'}) RETURN a", "neo4j", 1),
    ("MATCH (`delimited id`) RETURN 1", "iso-gql", 0),
    ('MATCH ("quoted var":Person) RETURN 1', "iso-gql", 0),
    ('MATCH (n:Person) WHERE n.name = upper("x") RETURN n', "iso-gql", 1),
    ("MATCH (n:Person) RETURN n", "iso-gql", 1),
]


@pytest.mark.parametrize(("pred", "dialect", "peer"), GRAMMAR)
def test_grammar_as_the_benchmark_grammars(pred, dialect, peer):
    gold = "MATCH (n) RETURN n"
    assert grammar_score(pred, dialect, gold=gold, convention="benchmark") == peer


def test_grammar_gold_that_does_not_parse_scores_minus_one():
    assert (
        grammar_score("MATCH (n) RETURN n", "neo4j", gold="MATCH (", convention="benchmark") == -1
    )


# (per-item scores, the Driver's pipeline mean (raw), evaluation.py's printed Σ max(g,0)/N)
GRAMMAR_MEANS = [([-1, 1, 1], 1 / 3, 2 / 3), ([1, 0], 0.5, 0.5), ([-1, -1], -1.0, 0.0)]


@pytest.mark.parametrize(("scores", "raw", "clamped"), GRAMMAR_MEANS)
def test_grammar_means(scores, raw, clamped):
    assert grammar_validity(scores, raw=True) == pytest.approx(raw)
    assert grammar_validity(scores) == pytest.approx(clamped)


def _record(gold, pred, grammar=1):
    return {"gold": gold, "pred": pred, "metrics": {"grammar": grammar, "jaro_winkler": 1.0}}


def test_bleu_keeps_the_graph_prefix_in_the_driver_preset():
    records = [_record("GRAPH g MATCH (n) RETURN n", "MATCH (n) RETURN n")]
    kept = summarize(records, get_preset("text2gql-bench"))["overall"]["google_bleu"]
    stripped = summarize(records)["overall"]["google_bleu"]
    assert stripped == 1.0
    # the prediction's 18 n-grams (6 tokens, n = 1..4) all match; the gold has 26 (8 tokens)
    assert kept == pytest.approx(18 / 26)


def test_benchmark_figures_as_printed():
    records = [_record("MATCH (n) RETURN n", "MATCH (n) RETURN n", g) for g in (-1, 1, 1)]
    for r, ex in zip(records, (0.0, 1.0, 0.0)):
        r["metrics"]["ex"] = ex
    figures = summarize(records, get_preset("text2gql-bench"))["benchmark"]
    assert figures["printed"] == "EA 33.33% | Grammar 0.3333 | Similarity 1.0000 | BLEU 1.0000"


# -- timeouts -----------------------------------------------------------------------------------------

TIMEOUTS = [
    ({"ok": True, "seconds": 0.01}, 30.0, True, 1.0),
    ({"ok": True, "seconds": 0.4}, 30.0, True, 4.0),
    ({"ok": True, "seconds": 10.0}, 30.0, True, 30.0),
    ({"ok": False, "seconds": 0.01}, 30.0, True, 30.0),
    ({"ok": True, "seconds": 0.01}, 5.0, False, 5.0),
]


@pytest.mark.parametrize(("gold", "cap", "proportional", "limit"), TIMEOUTS)
def test_prediction_timeout(gold, cap, proportional, limit):
    task = {"timeout": cap, "proportional": proportional}
    assert prediction_timeout(gold, task) == pytest.approx(limit)


# -- files as the benchmarks ship them ----------------------------------------------------------------


def test_driver_dataset_with_gql_query_and_instance_id():
    gold, fmt = read_gold(os.path.join(DATA, "driver_dataset.json"))
    assert fmt == "text2gql"
    assert [(g.id, g.query) for g in gold] == [
        ("t1", "MATCH (m:Movie) WHERE m.released = 2014 RETURN m.title"),
        ("t2", "MATCH (u:User) RETURN count(u)"),
    ]


def test_driver_output_with_level_query_fields():
    path = os.path.join(DATA, "driver_output.json")
    gold, _ = read_gold(path, levels=("initial", "level_1"))
    preds = read_predictions(path, gold)
    assert preds["t1:initial"].query.startswith("```cypher")
    assert preds["t1:level_1"].query == "MATCH (m:Movie {released: 2014}) RETURN m.title"
    assert preds["t2:level_1"].query == ""
    assert gold[0].query == "MATCH (m:Movie) WHERE m.released = 2014 RETURN m.title"


def test_contrib_pairs_with_generated_query():
    path = os.path.join(DATA, "contrib_pairs.json")
    gold, fmt = read_gold(path)
    preds = read_predictions(path, gold)
    assert fmt == "text2gql"
    # ea_gql.py's extract_fields: "gql" before "initial_gql"; "instance_id" when there is no "id"
    assert [(g.id, g.query) for g in gold] == [
        ("c1", "MATCH (m:Movie) WHERE m.released = 2014 RETURN m.title"),
        ("c2", "MATCH (u:User) RETURN count(u)"),
    ]
    assert preds["c2"].query == "MATCH (u:User) RETURN count(u) AS n"


def test_cypherbench_export_never_writes_null(tmp_path):
    records = [
        {
            "id": "q1",
            "gold": "g",
            "pred": "p",
            "source": {"qid": "q1"},
            "metrics": {"ex": None, "psjs": None, "executable": 1.0},
        },
    ]
    path = tmp_path / "export.json"
    export_results(records, "cypherbench", str(path))
    (item,) = json.loads(path.read_text())
    assert item["metrics"] == {"executable": 1.0}


# -- whole runs ---------------------------------------------------------------------------------------


def _run(tmp_path, gold, pred, preset, **extra):
    config = EvalConfig(
        gold=gold,
        pred=pred,
        out=str(tmp_path / preset),
        graph=os.path.join(ROOT, "schemas", "movies"),
        preset=preset,
        timeout=10.0,
        **extra,
    )
    run = run_evaluation(config)
    with open(os.path.join(config.out, "results.jsonl"), encoding="utf-8") as fh:
        return run, {r["id"]: r for r in map(json.loads, fh)}


def test_cypherbench_preset_run(tmp_path):
    path = os.path.join(DATA, "cypherbench_result.json")
    run, records = _run(tmp_path, path, path, "cypherbench", export="cypherbench")
    # q1: <end_of_turn> stripped, then identical to the gold: 1 without running either
    assert records["q1"]["pred"] == records["q1"]["gold"]
    assert records["q1"]["metrics"]["ex"] == 1.0 and records["q1"]["metrics"]["psjs"] == 1.0
    # q2: the gold fails; CypherBench's run would stop: 0, counted as a crash
    assert records["q2"]["metrics"]["ex"] == 0.0 and records["q2"]["crash"]
    # q3: a gold with STARTS WITH breaks the regex: its provenance query fails, PSJS 0
    assert records["q3"]["metrics"]["ex"] == 1.0 and records["q3"]["metrics"]["psjs"] == 0.0
    assert run.summary["benchmark"]["crashes"] == 1
    assert run.summary["benchmark"]["execution_accuracy"] == round(2 / 3, 4)
    with open(tmp_path / "cypherbench" / "export.cypherbench.json", encoding="utf-8") as fh:
        exported = json.load(fh)
    assert all(v is not None for item in exported for v in item["metrics"].values())


def test_driver_preset_run(tmp_path):
    path = os.path.join(DATA, "driver_output.json")
    run, records = _run(tmp_path, path, path, "text2gql-bench", levels=("initial",), psjs=False)
    # the fenced prediction is cleaned before it runs and before the text metrics
    assert records["t1"]["pred"] == records["t1"]["gold"]
    assert records["t1"]["metrics"]["ex"] == 1.0 and records["t1"]["metrics"]["grammar"] == 1
    assert records["t2"]["metrics"]["ex"] == 1.0
    assert run.summary["benchmark"]["EA"] == 1.0


# -- the Driver on Spanner, the contrib scripts, the Driver at e5fc112a ----------------------------------

FENCE = "`" * 3

# contrib evaluate_gql.py extract_query_text: <think> dropped, first tagged fence (any case)
# else first fence, leftover fences removed, all whitespace runs one space, "no out" if empty
CONTRIB_EXTRACT = [
    (
        f"<think>plan</think>Here {FENCE}GQL\nMATCH (n)\r\nRETURN n{FENCE} done",
        "MATCH (n) RETURN n",
    ),
    (f"{FENCE}python\nMATCH (n) RETURN n{FENCE}", "python MATCH (n) RETURN n"),
    # the alternation tries "sql" before "sql_pgq": the tag's tail stays in the text
    (f"{FENCE}sql_pgq SELECT 1{FENCE}", "_pgq SELECT 1"),
    ("GRAPH g\nMATCH (n) RETURN n", "GRAPH g MATCH (n) RETURN n"),
    (f"MATCH (n) RETURN n {FENCE}", "MATCH (n) RETURN n"),
    ("", "no out"),
    (None, "no out"),
]


@pytest.mark.parametrize(("text", "peer"), CONTRIB_EXTRACT)
def test_contrib_extract_query(text, peer):
    assert contrib_extract_query(text) == peer


# ea_gql.py: newlines to spaces, strip, nothing else (a fence stays: the query then fails)
@pytest.mark.parametrize(
    ("text", "peer"),
    [
        (f"{FENCE}gql\nMATCH (n) RETURN n{FENCE}", f"{FENCE}gql MATCH (n) RETURN n{FENCE}"),
        (" GRAPH g\nMATCH (n) RETURN n ", "GRAPH g MATCH (n) RETURN n"),
        (None, ""),
    ],
)
def test_contrib_ea_gql_text(text, peer):
    assert contrib_ea_gql_text(text) == peer


# the Driver's clean_query at e5fc112a: lower-case cypher/gql fences anywhere, nothing else
DRIVER_E5FC112A_CLEAN = [
    (f"ok {FENCE}cypher\nMATCH (n) RETURN n{FENCE} bye", "MATCH (n) RETURN n"),
    (f"{FENCE}gql MATCH (n) RETURN n{FENCE}", "MATCH (n) RETURN n"),
    (f"{FENCE}Cypher\nMATCH (n) RETURN n{FENCE}", f"{FENCE}Cypher MATCH (n) RETURN n{FENCE}"),
    (f"{FENCE}\nMATCH (n) RETURN n\n{FENCE}", f"{FENCE} MATCH (n) RETURN n {FENCE}"),
    ("<think>x</think>MATCH (n) RETURN n", "MATCH (n) RETURN n"),
    (None, ""),
]


@pytest.mark.parametrize(("text", "peer"), DRIVER_E5FC112A_CLEAN)
def test_driver_e5fc112a_clean_query(text, peer):
    assert driver_e5fc112a_clean_query(text) == peer


OTHER_PATH = PathValue((OTHER, NODE), (EdgeValue("5", "KNOWS", "2", "1", {}),))

# (gold, pred, the Driver on Spanner, contrib ea_gql.py, contrib ea_cypher.py / the Driver at
# e5fc112a): Spanner hands a graph element over only as its JSON object (identifier, kind,
# labels, properties) and a path as a JSON array, which the client's JsonObject keeps outside
# its (empty) dict; TuGraph through Bolt hands over .data()'s maps
CONTRIB_VALUES = [
    (True, 1, True, True, True),
    (False, 0.0, True, True, True),
    (0.1 + 0.2, 0.3, True, True, True),
    (NODE, {"name": "Ann", "born": 1970}, False, False, True),
    (NODE, NodeValue("7", ("Other",), {"name": "Ann", "born": 1970}), False, False, True),
    (NODE, NodeValue("1", ("Person",), {"name": "Ann", "born": 1970}), True, True, True),
    (EDGE, EDGE_2, False, False, True),
    (PATH, OTHER_PATH, True, True, False),
    # SAFE_TO_JSON(p) as gqlir's Spanner engine hands it over: a list node, edge, node
    ([NODE, EDGE, OTHER], [OTHER, EDGE_2, NODE], True, True, False),
    # ARRAY_AGG(SAFE_TO_JSON(n)): an ARRAY of JSON objects, compared item by item
    ([NODE, OTHER], [OTHER, NODE], False, False, False),
    (DATE, "2020-01-02", True, True, True),
    (DATETIME, DATETIME, True, True, True),
    (NAN, NAN, True, True, False),
    (NAN, "NaN", True, True, False),
    (Decimal("0.1000000001"), 0.1000000001, False, False, False),
    (Decimal("0.5"), 0.5, True, True, False),
    (Decimal("0.5"), "0.5", False, False, True),
    (b"\x01", "01", True, False, False),
    ([1, 2], [2, 1], False, False, False),
    ({"a": 1, "b": [2, 1]}, {"b": [2, 1], "a": 1}, True, True, True),
]


@pytest.mark.parametrize(("gold", "pred", "driver_spanner", "ea_gql", "ea_cypher"), CONTRIB_VALUES)
def test_value_identity_spanner_and_contrib(gold, pred, driver_spanner, ea_gql, ea_cypher):
    assert execution_match([(gold,)], [(pred,)], "text2gql@spanner") == driver_spanner
    assert execution_match([(gold,)], [(pred,)], "text2gql-spanner") == ea_gql
    assert execution_match([(gold,)], [(pred,)], "text2gql-tugraph") == ea_cypher
    assert execution_match([(gold,)], [(pred,)], "text2gql@e5fc112a") == ea_cypher


# (gold rows, predicted rows, prediction orders, Driver on Spanner, ea_gql.py, ea_cypher.py)
CONTRIB_ROWS = [
    ([(1,), (2,)], [(2,), (1,)], True, False, False, True),
    ([(1,), (2,)], [(2,), (1,)], False, True, True, True),
    ([(1,), (1,)], [(1,)], False, False, False, True),
    ([(1, "a")], [("a", 1)], False, False, False, False),
    ([], [], False, True, True, True),
    ([], [(1,)], False, False, False, False),
]


@pytest.mark.parametrize(
    ("gold", "pred", "p_ord", "driver_spanner", "ea_gql", "ea_cypher"), CONTRIB_ROWS
)
def test_rows_spanner_and_contrib(gold, pred, p_ord, driver_spanner, ea_gql, ea_cypher):
    width = lambda rows: len(rows[0]) if rows else 1  # noqa: E731
    g, p = Result(gold, width(gold), False), Result(pred, width(pred), p_ord)
    assert execution_match(g, p, "text2gql@spanner") == driver_spanner
    assert execution_match(g, p, "text2gql-spanner") == ea_gql
    assert execution_match(g, p, "text2gql-tugraph") == ea_cypher


@pytest.mark.parametrize(
    ("policy", "peer"),
    [
        ("text2gql@spanner", 0.0),
        ("text2gql-spanner", None),
        ("text2gql-tugraph", None),
        ("text2gql@e5fc112a", 0.0),
    ],
)
def test_gold_failures_spanner_and_contrib(policy, peer):
    # ea_gql.py / ea_cypher.py leave a failing gold out (correct / (total - failed_gold));
    # the Driver, then and now, counts it wrong
    assert execution_score(None, [(1,)], policy) == peer


# (per-item scores, the Driver at e5fc112a: mean of the scores >= 0)
@pytest.mark.parametrize(("scores", "peer"), [([-1, 1, 1], 1.0), ([1, 0], 0.5), ([-1, -1], 0.0)])
def test_grammar_mean_e5fc112a(scores, peer):
    assert grammar_validity(scores, skip_unparsed_gold=True) == pytest.approx(peer)
    preset = get_preset("text2gql-bench@e5fc112a")
    records = [_record("MATCH (n) RETURN n", "MATCH (n) RETURN n", g) for g in scores]
    assert summarize(records, preset)["overall"]["grammar"] == pytest.approx(peer)


def _text_scores(preset_name, gold, pred, dialect):
    preset = get_preset(preset_name)
    settings = ScoringSettings(get_policy(preset.policy), preset.grammar, False, preset)
    return _text_metrics(GoldItem("x", gold, dialect), pred, dialect, settings)


# (preset, gold, prediction, dialect, the peer's grammar score)
TEXT_GRAMMAR = [
    # the Driver strips GRAPH g before parsing; evaluate_gql.py does not (OpenGQL has no prefix)
    ("text2gql-bench", "GRAPH g MATCH (n) RETURN n", "MATCH (n) RETURN n", "iso-gql", 1),
    (
        "text2gql-bench@contrib-spanner",
        "GRAPH g MATCH (n) RETURN n",
        "MATCH (n) RETURN n",
        "iso-gql",
        -1,
    ),
    (
        "text2gql-bench@contrib-spanner",
        "MATCH (n) RETURN n",
        f"{FENCE}gql\nMATCH (n) RETURN n\n{FENCE}",
        "iso-gql",
        1,
    ),
    # the Driver at e5fc112a judges every dialect by Lcypher (dataset_type defaults to cypher)
    ("text2gql-bench", "MATCH (n) RETURN n", "MATCH (a)-[e]->{1,3}(b) RETURN b", "iso-gql", 1),
    (
        "text2gql-bench@e5fc112a",
        "MATCH (n) RETURN n",
        "MATCH (a)-[e]->{1,3}(b) RETURN b",
        "iso-gql",
        0,
    ),
]


@pytest.mark.parametrize(("preset", "gold", "pred", "dialect", "peer"), TEXT_GRAMMAR)
def test_grammar_per_preset(preset, gold, pred, dialect, peer):
    assert _text_scores(preset, gold, pred, dialect)["grammar"] == peer


def test_contrib_similarity_reads_the_extracted_text():
    # evaluate_gql.py extracts the fenced query: Jaro-Winkler 1 on identical queries
    scores = _text_scores(
        "text2gql-bench@contrib-tugraph",
        "MATCH (n) RETURN n",
        f"Sure:\n{FENCE}cypher\nMATCH (n) RETURN n\n{FENCE}",
        "neo4j",
    )
    assert scores["jaro_winkler"] == 1.0


def test_contrib_bleu_reads_the_extracted_text():
    records = [_record("MATCH (n) RETURN n", f"{FENCE}cypher MATCH (n) RETURN n{FENCE}")]
    preset = get_preset("text2gql-bench@contrib-tugraph")
    assert summarize(records, preset)["overall"]["google_bleu"] == 1.0


def test_e5fc112a_printed_ea_is_zero():
    # run_pipeline.py passes db_ids=[]; ExecutionAccuracy zips over it and compares nothing
    records = [_record("MATCH (n) RETURN n", "MATCH (n) RETURN n", 1)]
    records[0]["metrics"]["ex"] = 1.0
    figures = summarize(records, get_preset("text2gql-bench@e5fc112a"))["benchmark"]
    assert figures["EA"] == 0.0 and figures["EA_compared"] == 1.0
    assert figures["printed"].startswith("EA (Acc) 0.00% | Grammar 100.00%")


def test_contrib_gold_field_per_script():
    path = os.path.join(DATA, "contrib_pairs.json")
    # ea_cypher.py --gold-field initial_gql (its default); evaluate_gql.py infers one key for
    # the file from its first record with a gold: c1 has only initial_gql, so initial_gql
    gold, _ = read_gold(path, gold_field="initial_gql")
    assert [g.query for g in gold] == [
        "MATCH (m:Movie) WHERE m.released = 2014 RETURN m.title",
        "MATCH (u:User) RETURN u",
    ]


def test_contrib_tugraph_preset_run(tmp_path):
    path = os.path.join(DATA, "contrib_pairs.json")
    run, records = _run(
        tmp_path,
        path,
        path,
        "text2gql-bench@contrib-tugraph",
        psjs=False,
        gold_field="initial_gql",
    )
    # c1 the same query; c2 count(u) against the users themselves: a mismatch
    assert records["c1"]["metrics"]["ex"] == 1.0
    assert records["c2"]["metrics"]["ex"] == 0.0
    assert run.summary["benchmark"]["EA"] == 0.5
    assert run.summary["benchmark"]["printed"].startswith("Execution Accuracy (EA): 50.00%")
