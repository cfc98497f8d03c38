"""Aggregating per-item result records into the run's figures and breakdowns.

Means are over the items a metric applies to (``None`` and absent values are left out: an
excluded gold failure for EX, an item without provenance for PSJS); grammar validity is
Σ max(g, 0) / N over all query items; Google-BLEU is corpus-level over the items' texts;
MdRE / MSLE / sMAPE / MLRE are computed over the items whose gold answer is one number (a
prediction that is not a number is counted in ``numeric.missing``, not guessed).

Under a compat preset (:mod:`.presets`) the grammar mean and the texts Google-BLEU reads follow
the benchmark, ``crashes`` counts the items where the benchmark's own run would have stopped,
and ``benchmark`` holds the figures as the benchmark prints them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from .grammar import grammar_validity
from .numeric import numeric_scores
from .presets import PRESETS, Preset
from .text import clean_query_text, google_bleu

__all__ = ["BREAKDOWNS", "MEAN_METRICS", "summarize"]

MEAN_METRICS = (
    "ex",
    "executable",
    "psjs",
    "jaro_winkler",
    "ir_similarity",
    "jaccard",
    "f1",
    "boolean",
    "step_accuracy",
)

# breakdown name -> record field (dataset labels, and gqlir's own classification)
BREAKDOWNS = {
    "difficulty": "difficulty",
    "difficulty_ir": "difficulty_ir",
    "match_category": "match_category",
    "match_ir": "match_ir",
    "return_category": "return_category",
    "return_ir": "return_ir",
    "dialect": "dialect",
    "domain": "domain",
    "level": "level",
}


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _bleu_text(text: str | None, preset: Preset) -> str:
    if preset.bleu_reads_text_clean and preset.text_clean is not None:
        return preset.text_clean(text)
    return (text or "") if preset.bleu_keeps_prefix else clean_query_text(text)


def _figures(records: list[dict[str, Any]], preset: Preset) -> dict[str, Any]:
    out: dict[str, Any] = {"items": len(records)}
    for name in MEAN_METRICS:
        values = [r["metrics"][name] for r in records if r["metrics"].get(name) is not None]
        out[name] = _mean(values)
        out[name + "_n"] = len(values)
    grammar = [r["metrics"]["grammar"] for r in records if "grammar" in r["metrics"]]
    out["grammar"] = (
        grammar_validity(
            grammar,
            raw=preset.grammar_raw_mean,
            skip_unparsed_gold=preset.grammar_skip_unparsed_gold,
        )
        if grammar
        else None
    )
    out["grammar_n"] = len(grammar)
    texts = [r for r in records if r.get("gold") and "grammar" in r["metrics"]]
    out["google_bleu"] = (
        google_bleu(
            [_bleu_text(r.get("pred"), preset) for r in texts],
            [_bleu_text(r["gold"], preset) for r in texts],
        )
        if texts
        else None
    )
    crashes = sum(1 for r in records if r.get("crash"))
    if crashes:
        out["crashes"] = crashes
    pairs = [r["metrics"]["numeric"] for r in records if "numeric" in r["metrics"]]
    scored = [p for p in pairs if p["pred"] is not None]
    if pairs:
        numeric = numeric_scores([p["pred"] for p in scored], [p["gold"] for p in scored])
        out["numeric"] = {**numeric.to_dict(), "missing": len(pairs) - len(scored)}
    return out


def _statuses(records: Iterable[dict[str, Any]], key: str) -> dict[str, int]:
    return dict(Counter(r.get("status", {}).get(key, "n/a") for r in records))


def _benchmark_figures(overall: dict[str, Any], preset: Preset) -> dict[str, Any] | None:
    """The overall figures under the benchmark's names, as it prints them: the Driver's EA as a
    percentage with 2 decimals and the rest with 4; CypherBench's means rounded to 4 places."""
    if preset.report == "text2gql-bench":
        ea, grammar = overall.get("ex") or 0.0, overall.get("grammar") or 0.0
        sim, bleu = overall.get("jaro_winkler") or 0.0, overall.get("google_bleu") or 0.0
        return {
            "EA": ea,
            "Grammar": grammar,
            "Similarity": sim,
            "BLEU": bleu,
            "printed": f"EA {ea:.2%} | Grammar {grammar:.4f} | Similarity {sim:.4f} | "
            f"BLEU {bleu:.4f}",
        }
    if preset.report == "text2gql-bench@e5fc112a":
        # run_pipeline.py passes db_ids=[] and ExecutionAccuracy zips over it: no item is
        # compared and EA prints 0.00% (the per-item comparisons are under "EA_compared")
        grammar = overall.get("grammar") or 0.0
        sim, bleu = overall.get("jaro_winkler") or 0.0, overall.get("google_bleu") or 0.0
        return {
            "EA": 0.0,
            "EA_compared": overall.get("ex") or 0.0,
            "Grammar": grammar,
            "Similarity": sim,
            "BLEU": bleu,
            "printed": f"EA (Acc) {0.0:.2%} | Grammar {grammar:.2%} | Similarity {sim:.4f} | "
            f"BLEU {bleu:.4f}",
        }
    if preset.report == "text2gql-contrib":
        ea, grammar = overall.get("ex") or 0.0, overall.get("grammar") or 0.0
        sim, bleu = overall.get("jaro_winkler") or 0.0, overall.get("google_bleu") or 0.0
        return {
            "EA": ea,
            "grammar": grammar,
            "similarity": sim,
            "google_bleu": bleu,
            "printed": f"Execution Accuracy (EA): {ea:.2%} | grammar {grammar:.3f} | "
            f"similarity {sim:.3f} | google_bleu {bleu}",
        }
    if preset.report == "cypherbench":
        names = {"execution_accuracy": "ex", "psjs": "psjs", "executable": "executable"}
        out = {
            k: None if overall.get(v) is None else round(overall[v], 4) for k, v in names.items()
        }
        out["crashes"] = overall.get("crashes", 0)
        return out
    return None


def summarize(records: list[dict[str, Any]], preset: Preset = PRESETS["default"]) -> dict[str, Any]:
    """``{"overall": figures, "breakdowns": {name: {value: figures}}, "status": …}`` and,
    under a compat preset, ``"preset"`` and ``"benchmark"``."""
    breakdowns: dict[str, dict[str, Any]] = {}
    for name, field in BREAKDOWNS.items():
        groups: dict[str, list[dict[str, Any]]] = {}
        for r in records:
            value = r.get(field)
            if value is not None:
                groups.setdefault(str(value), []).append(r)
        if groups:
            breakdowns[name] = {k: _figures(v, preset) for k, v in sorted(groups.items())}
    overall = _figures(records, preset)
    out = {
        "overall": overall,
        "breakdowns": breakdowns,
        "status": {"gold": _statuses(records, "gold"), "pred": _statuses(records, "pred")},
        "preset": {"name": preset.name, "follows": preset.follows},
    }
    figures = _benchmark_figures(overall, preset)
    if figures is not None:
        out["benchmark"] = figures
    return out
