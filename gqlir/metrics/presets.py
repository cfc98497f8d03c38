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
from dataclasses import dataclass
from typing import Literal

from .errors import MetricsError

__all__ = [
    "PRESETS",
    "Preset",
    "driver_clean_query",
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
    clean_gold: Callable[[str | None], str | None] = _same
    clean_pred: Callable[[str | None], str | None] = _same
    bleu_keeps_prefix: bool = False  # Google-BLEU on texts that keep ``GRAPH g`` / ``USE g``
    psjs: Literal["ir", "regex"] = "ir"
    identical_shortcut: bool = False  # identical texts score EX and PSJS 1 without running
    report: Literal["gqlir", "text2gql-bench", "cypherbench"] = "gqlir"


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
