"""Conformance material: the openCypher TCK and the JSONL query corpora, read as data.

Kept free of the parser and the IR so that tests and benchmarks can load their inputs without
importing the rest of gqlir (and so that a broken parser cannot hide a broken corpus).
"""

from __future__ import annotations

from gqlir.conformance.tck import (
    GRAMMAR_LEVEL_DETAILS,
    SEMANTIC_DETAILS,
    TckFormatError,
    TckOutcome,
    TckProcedure,
    TckScenario,
    default_corpora_dir,
    default_tck_dir,
    grammar_error_queries,
    is_grammar_level,
    load_jsonl_corpus,
    parse_feature,
    read_tck,
    valid_queries,
)

__all__ = [
    "GRAMMAR_LEVEL_DETAILS",
    "SEMANTIC_DETAILS",
    "TckFormatError",
    "TckOutcome",
    "TckProcedure",
    "TckScenario",
    "default_corpora_dir",
    "default_tck_dir",
    "grammar_error_queries",
    "is_grammar_level",
    "load_jsonl_corpus",
    "parse_feature",
    "read_tck",
    "valid_queries",
]
