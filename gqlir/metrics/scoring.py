"""Every per-item metric of one evaluated item, as the record the harness writes.

The record keeps the texts (corpus-level Google-BLEU is recomputed from them), the outcome of
each run, and ``metrics``: ``grammar``, ``jaro_winkler``, ``ir_similarity``, ``ex``,
``executable``, ``psjs``, ``jaccard``, ``f1``, ``boolean``, ``numeric`` and, for management
sessions, ``step_accuracy``. A metric that does not apply to the item is absent or None.
"""

from __future__ import annotations

import decimal
from dataclasses import dataclass
from typing import Any

from ..errors import GqlirError
from .difficulty import classify
from .execution import ExecutionPolicy, Result, execution_score, get_policy
from .formats import GoldItem, Prediction
from .grammar import grammar_score
from .numeric import step_accuracy
from .peers import PeerCrash
from .presets import PRESETS, Preset
from .provenance import psjs
from .runner import decode_table
from .sets import answer_set, jaccard, precision_recall_f1
from .similarity import ir_similarity
from .text import clean_query_text, jaro_winkler

__all__ = ["ScoringSettings", "answer_rows", "score_item"]


@dataclass(frozen=True, slots=True)
class ScoringSettings:
    policy: ExecutionPolicy
    grammar: str = "strict"
    psjs: bool = True
    preset: Preset = PRESETS["default"]


def answer_rows(answer: Any) -> Result:
    """A given answer (NGDBench ``answer``, or a prediction's) as rows: a list of objects is
    one row per object (values in key order), a list of lists one row per list, a list of
    scalars one row each, a scalar one row."""
    if not isinstance(answer, list):
        answer = [answer]
    rows = []
    for a in answer:
        if isinstance(a, dict):
            rows.append(tuple(a.values()))
        elif isinstance(a, list):
            rows.append(tuple(a))
        else:
            rows.append((a,))
    return Result(rows, len(rows[0]) if rows else 0)


def _single(result: Result | None) -> Any:
    if result is None or len(result.rows) != 1 or result.columns != 1:
        return None
    return result.rows[0][0]


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float, decimal.Decimal)) and not isinstance(v, bool)


def _orders(text: str | None, result: Result | None, policy: ExecutionPolicy) -> bool:
    if policy.order_from == "text":
        return bool(text and "order by" in text.lower())
    return bool(result and result.ordered)


def _text_metrics(item: GoldItem, pred_text: str | None, dialect: str, settings) -> dict:
    preset = settings.preset
    clean = preset.text_clean or clean_query_text
    out: dict[str, Any] = {
        "grammar": grammar_score(
            pred_text,
            preset.grammar_dialect or dialect,
            gold=item.query,
            convention=settings.grammar,
            clean=clean,
        ),
        "jaro_winkler": jaro_winkler(clean(pred_text), clean(item.query)),
    }
    try:
        out["ir_similarity"] = ir_similarity(pred_text or "", item.query, dialect)
    except GqlirError:
        from .grammar import parses

        out["ir_similarity"] = 0.0 if parses(item.query, dialect) else None
    except RecursionError:
        out["ir_similarity"] = None
    return out


def _classification(item: GoldItem, dialect: str) -> dict[str, Any]:
    try:
        c = classify(item.query, dialect)
    except (GqlirError, RecursionError):
        return {"difficulty_ir": None, "match_ir": None, "return_ir": None}
    return {
        "difficulty_ir": c.level,
        "difficulty_reasons": c.reasons,
        "match_ir": c.match_category,
        "return_ir": c.return_category,
    }


def _result_metrics(gold: Result | None, pred: Result | None, policy: ExecutionPolicy) -> dict:
    try:
        out: dict[str, Any] = {"ex": execution_score(gold, pred, policy)}
    except PeerCrash as exc:
        # the benchmark's run stops here; 0 is what it would have to record, and it is counted
        out = {"ex": 0.0, "crash": str(exc)}
    if gold is None or pred is None:
        if gold is not None:
            out.update(jaccard=0.0, f1=0.0)
        return out
    gold_set, pred_set = answer_set(gold.rows, policy.values), answer_set(pred.rows, policy.values)
    out["jaccard"] = jaccard(pred_set, gold_set)
    out["f1"] = precision_recall_f1(pred_set, gold_set)[2]
    g, p = _single(gold), _single(pred)
    if isinstance(g, bool):
        out["boolean"] = 1.0 if isinstance(p, bool) and p == g else 0.0
    elif _is_number(g):
        out["numeric"] = {"gold": float(g), "pred": float(p) if _is_number(p) else None}
    return out


def _not_run(key: str, pred: Prediction | None) -> str:
    if key == "gold":
        return "not run"
    return "missing" if pred is None else "empty"


def score_item(
    item: GoldItem,
    pred: Prediction | None,
    outcome: dict[str, Any],
    dialect: str,
    settings: ScoringSettings,
) -> dict[str, Any]:
    """The result record of ``item`` given the run ``outcome`` (:func:`~.runner.run_task`'s
    data, gold parts possibly from the cache)."""
    policy = get_policy(settings.policy)
    pred_text = pred.query if pred is not None else None
    record: dict[str, Any] = {
        "id": item.id,
        "dialect": dialect,
        "domain": item.domain,
        "level": item.level,
        "difficulty": item.difficulty,
        "match_category": item.match_category,
        "return_category": item.return_category,
        "gold": item.query,
        "pred": pred_text,
    }
    if item.steps is not None:
        got = (pred.steps if pred is not None else None) or []
        record["metrics"] = {"step_accuracy": step_accuracy(got, item.steps)}
        return record
    record.update(_classification(item, dialect))
    answers_only = pred is not None and pred.query is None and pred.answer is not None
    metrics = {}
    if item.query and not answers_only:
        metrics = _text_metrics(item, pred_text, dialect, settings)
    status: dict[str, Any] = {}
    results: dict[str, Result | None] = {}
    for key, given in (("gold", item.answer), ("pred", pred.answer if pred else None)):
        run = outcome.get(key)
        if given is not None:
            results[key], status[key] = answer_rows(given), "given"
        elif run is not None:
            table = decode_table(run)
            text = item.query if key == "gold" else pred_text
            if table is not None:
                table = Result(table.rows, table.columns, _orders(text, table, policy))
            results[key] = table
            status[key] = "ok" if run.get("ok") else run.get("code")
            if not run.get("ok"):
                record.setdefault("errors", {})[key] = run.get("message")
            record.setdefault("seconds", {})[key] = run.get("seconds")
            record.setdefault("rows", {})[key] = len(run.get("rows", ()))
        else:
            results[key], status[key] = None, _not_run(key, pred)
    record["status"] = status
    metrics.update(_result_metrics(results["gold"], results["pred"], policy))
    crash = metrics.pop("crash", None)
    if crash is not None:
        record["crash"] = crash
    metrics["executable"] = 1.0 if status.get("pred") in ("ok", "given") else 0.0
    if settings.psjs and "gold_provenance" in outcome:
        metrics["psjs"] = _psjs(outcome, settings.preset)
    if settings.preset.identical_shortcut and pred_text == item.query:
        metrics["ex"] = 1.0
        metrics["psjs"] = 1.0 if settings.psjs else metrics.get("psjs")
        record.pop("crash", None)
    record["metrics"] = metrics
    return record


def _psjs(outcome: dict[str, Any], preset: Preset) -> float | None:
    """gqlir's PSJS: None when the gold provenance query fails, 0 for a failing prediction;
    CypherBench's (``regex``): 0 when either provenance query fails."""
    g, p = outcome["gold_provenance"], outcome.get("pred_provenance") or {}
    if preset.psjs == "regex" and not (g.get("ok") and p.get("ok")):
        return 0.0
    if not g.get("ok"):
        return None
    return psjs(set(g["ids"]), set(p.get("ids", ()))) if p.get("ok") else 0.0
