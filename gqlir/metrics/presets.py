"""Evaluation presets: gqlir's own scores, or a benchmark's, reproduced to the last digit.

A preset fixes everything around the metric functions that decides a benchmark's number: how
texts are cleaned before anything runs, the EX policy, the grammar convention and how its
per-item scores are averaged, which texts Google-BLEU sees, how PSJS is built, the
identical-text shortcut, and how the benchmark prints its figures. Each compat preset names
the script and commit it follows; docs/metrics.md lists every difference from ``default``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Literal

from .errors import MetricsError

__all__ = [
    "PRESETS",
    "Preset",
    "contrib_extract_query",
    "driver_clean_query",
    "driver_e5fc112a_clean_query",
    "get_preset",
    "strip_end_of_turn",
]

_FENCE_OPEN = re.compile(r"^```(?:cypher|gql|sql|iso-gql)?\s*", re.IGNORECASE)
_FENCE_CLOSE = re.compile(r"\s*```$")
_END_OF_TURN = "<end_of_turn>"


def driver_clean_query(text: str | None) -> str:
    """Text2GraphQuery-Driver's ``clean_query`` (run on gold and predicted texts before every
    metric): drop an opening Markdown fence (optionally tagged cypher/gql/sql/iso-gql) and a
    closing one, newlines become spaces, strip; no text becomes ``""``."""
    if not text or not isinstance(text, str):
        return ""
    text = _FENCE_OPEN.sub("", text.strip())
    text = _FENCE_CLOSE.sub("", text.strip())
    return text.replace("\n", " ").strip()


_THINK = re.compile(r"<think>.*?</think>", re.DOTALL)
_THINK_CONTRIB = re.compile(r"<think>.*?</think>\s*", re.DOTALL | re.IGNORECASE)
_CONTRIB_FENCE = re.compile(r"```(?:cypher|gql|sql|sql_pgq)\s*(.*?)```", re.DOTALL | re.IGNORECASE)
_ANY_FENCE = re.compile(r"```\s*(.*?)```", re.DOTALL)


def driver_e5fc112a_clean_query(text: str | None) -> str:
    """``clean_query`` of the Driver at TuGraph-family e5fc112a: drop ``<think>…</think>``;
    the body of the first ```` ```cypher ```` fence, else of the first ```` ```gql ```` fence
    (lower case only, anywhere in the text); newlines become spaces, strip. Any other fence
    stays in the text."""
    if not isinstance(text, str):
        return ""
    text = _THINK.sub("", text.replace("<think>\n\n</think>\n\n", ""))
    for tag in ("cypher", "gql"):
        m = re.search(rf"```{tag}(.*?)```", text, re.DOTALL)
        if m:
            return m.group(1).replace("\n", " ").strip()
    return text.replace("\n", " ").strip()


def contrib_extract_query(text: str | None) -> str:
    """``extract_query_text`` of the contrib ``evaluate_gql.py`` (the texts its grammar,
    similarity and Google-BLEU read): drop ``<think>…</think>``; the body of the first fence
    tagged cypher/gql/sql/sql_pgq (any case), else of the first fence; remove any ``` left;
    every run of whitespace (``\\r`` too) becomes one space; strip; nothing left is
    ``"no out"``."""
    text = _THINK_CONTRIB.sub("", "" if text is None else str(text)).strip()
    m = _CONTRIB_FENCE.search(text) or _ANY_FENCE.search(text)
    if m:
        text = m.group(1)
    return re.sub(r"\s+", " ", text.replace("```", "")).strip() or "no out"


def contrib_ea_gql_text(text: str | None) -> str:
    """``ea_gql.py``'s cleaning of both texts before they run: newlines become spaces, strip
    (no fence is removed: a fenced prediction fails on Spanner and scores 0)."""
    return (text or "").replace("\n", " ").strip()


def strip_end_of_turn(text: str | None) -> str | None:
    """CypherBench's ``compute_metrics``: a prediction ending with ``<end_of_turn>`` loses it
    (and the whitespace before it)."""
    if text and text.endswith(_END_OF_TURN):
        return text[: -len(_END_OF_TURN)].strip()
    return text


def _same(text: str | None) -> str | None:
    return text


@dataclass(frozen=True, slots=True)
class Preset:
    """What a run's scores follow (see the module docstring)."""

    name: str
    follows: str
    policy: str
    grammar: Literal["strict", "text2gql", "benchmark"]
    grammar_raw_mean: bool = False  # average per-item grammar scores with −1 kept
    grammar_skip_unparsed_gold: bool = False  # average over items whose gold parses only
    grammar_dialect: str | None = None  # the grammar every item is judged by (else per dialect)
    # the text grammar, Jaro-Winkler and Google-BLEU read, instead of the GRAPH/USE-stripped
    # cleaning (the contrib scripts score their own extraction of the raw texts)
    text_clean: Callable[[str | None], str] | None = None
    bleu_reads_text_clean: bool = False  # Google-BLEU on ``text_clean``'s texts
    clean_gold: Callable[[str | None], str | None] = _same
    clean_pred: Callable[[str | None], str | None] = _same
    bleu_keeps_prefix: bool = False  # Google-BLEU on texts that keep ``GRAPH g`` / ``USE g``
    psjs: Literal["ir", "regex"] = "ir"
    identical_shortcut: bool = False  # identical texts score EX and PSJS 1 without running
    report: Literal[
        "gqlir", "text2gql-bench", "text2gql-bench@e5fc112a", "text2gql-contrib", "cypherbench"
    ] = "gqlir"


_DRIVER = Preset(
    name="text2gql-bench@driver",
    follows="Text2GraphQuery-Driver run_pipeline.py and impl/evaluation/metrics.py "
    "(TuGraph-family/text2graphquery-driver 4e08d679; the same files in ldbc's "
    "upstream to 2026-07-16, oskar-van-rest/Text2GraphQuery-Driver 303f0737)",
    policy="text2gql",
    grammar="benchmark",
    grammar_raw_mean=True,
    clean_gold=driver_clean_query,
    clean_pred=driver_clean_query,
    bleu_keeps_prefix=True,
    report="text2gql-bench",
)

# the same Driver run against Spanner (ISO GQL): its comparison sees the Spanner client's values
_DRIVER_SPANNER = replace(
    _DRIVER,
    name="text2gql-bench@driver-spanner",
    follows=_DRIVER.follows + "; impl/db_driver/spanner_driver.py rows",
    policy="text2gql@spanner",
)

# The Driver at TuGraph-family e5fc112a (2025-12): run_pipeline.py, impl/evaluation/metrics.py
_DRIVER_E5FC112A = Preset(
    name="text2gql-bench@e5fc112a",
    follows="Text2GraphQuery-Driver run_pipeline.py and impl/evaluation/metrics.py "
    "(TuGraph-family/text2graphquery-driver e5fc112a: grammar mean over items whose gold "
    "parses, sets of rows, Lcypher for every dialect)",
    policy="text2gql@e5fc112a",
    grammar="benchmark",
    grammar_skip_unparsed_gold=True,
    grammar_dialect="tugraph-cypher",  # ExternalMetric's dataset_type default 'text2cypher'
    clean_gold=driver_e5fc112a_clean_query,
    clean_pred=driver_e5fc112a_clean_query,
    text_clean=lambda t: t or "no out",
    bleu_keeps_prefix=True,
    report="text2gql-bench@e5fc112a",
)

#: What the contrib presets share (each names itself, what it follows and its policy).
_CONTRIB_COMMON = Preset(
    name="",
    follows="",
    policy="",
    grammar="benchmark",
    text_clean=contrib_extract_query,
    bleu_reads_text_clean=True,
    report="text2gql-contrib",
)

# contrib/standalone_text2graph_scripts/reference: ea_gql.py + evaluate_gql.py (Spanner)
_CONTRIB_SPANNER = replace(
    _CONTRIB_COMMON,
    name="text2gql-bench@contrib-spanner",
    follows="Text2GraphQuery-Driver contrib/standalone_text2graph_scripts/reference/"
    "ea_gql.py and evaluate_gql.py (oskar-van-rest/Text2GraphQuery-Driver 893bb36d)",
    policy="text2gql-spanner",
    clean_gold=contrib_ea_gql_text,
    clean_pred=contrib_ea_gql_text,
)

# ea_cypher.py + evaluate_gql.py --language cypher (TuGraph)
_CONTRIB_TUGRAPH = replace(
    _CONTRIB_COMMON,
    name="text2gql-bench@contrib-tugraph",
    follows="Text2GraphQuery-Driver contrib/standalone_text2graph_scripts/reference/"
    "ea_cypher.py and evaluate_gql.py (oskar-van-rest/Text2GraphQuery-Driver 893bb36d)",
    policy="text2gql-tugraph",
)

_CYPHERBENCH = Preset(
    name="cypherbench@7c9c68dd",
    follows="CypherBench cypherbench/evaluate.py and cypherbench/metrics/ "
    "(megagonlabs/cypherbench 7c9c68dd)",
    policy="cypherbench",
    grammar="strict",
    clean_pred=strip_end_of_turn,
    psjs="regex",
    identical_shortcut=True,
    report="cypherbench",
)

PRESETS: dict[str, Preset] = {
    "default": Preset(name="default", follows="gqlir", policy="default", grammar="strict"),
    "text2gql-bench": _DRIVER,
    "text2gql-bench@driver": _DRIVER,
    "text2gql-bench@driver-spanner": _DRIVER_SPANNER,
    "text2gql-bench@e5fc112a": _DRIVER_E5FC112A,
    "text2gql-bench@contrib-spanner": _CONTRIB_SPANNER,
    "text2gql-bench@contrib-tugraph": _CONTRIB_TUGRAPH,
    "cypherbench": _CYPHERBENCH,
    "cypherbench@7c9c68dd": _CYPHERBENCH,
}


def get_preset(name: str) -> Preset:
    try:
        return PRESETS[name]
    except KeyError:
        raise MetricsError(
            f"unknown preset {name!r}; known: {', '.join(PRESETS)}", code="METRICS_PRESET"
        ) from None
