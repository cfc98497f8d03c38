"""Metrics for Text2GQL / Text2Cypher evaluation, each with its exact definition
(docs/metrics.md), and the ``gqlir eval`` harness.

    gqlir.metrics.google_bleu(predictions, references) -> float   # corpus GLEU, 13a tokens
    gqlir.metrics.jaro_winkler(a, b) -> float                     # the jaro-winkler package's rule
    gqlir.metrics.execution_match(gold, pred, policy) -> bool     # EX under an explicit policy
    gqlir.metrics.psjs(gold_ids, pred_ids) -> float               # provenance Jaccard
    gqlir.metrics.grammar_score(pred, dialect, gold=..., convention=...) -> int
    gqlir.metrics.ir_similarity(pred, gold, dialect) -> float     # tree edit distance on the IR
    gqlir.metrics.classify(text, dialect) -> Classification       # difficulty and categories
    gqlir.metrics.jaccard / f1 / boolean_accuracy / mdre / msle / smape / mlre / step_accuracy

Modules: :mod:`.text`, :mod:`.values`, :mod:`.execution`, :mod:`.provenance`, :mod:`.sets`,
:mod:`.numeric`, :mod:`.grammar`, :mod:`.similarity`, :mod:`.difficulty`, :mod:`.formats`,
:mod:`.runner`, :mod:`.scoring`, :mod:`.summary`, :mod:`.harness`, :mod:`.report`,
:mod:`.cli`. Submodules load on first use, so ``import gqlir.metrics`` is cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_exports

_EXPORTS = {
    "google_bleu": "text",
    "corpus_gleu": "text",
    "tokenize_13a": "text",
    "jaro": "text",
    "jaro_winkler": "text",
    "clean_query_text": "text",
    "ValueRules": "values",
    "value_key": "values",
    "ExecutionPolicy": "execution",
    "POLICIES": "execution",
    "Result": "execution",
    "execution_match": "execution",
    "execution_score": "execution",
    "execution_accuracy": "execution",
    "provenance_ids": "provenance",
    "provenance_queries": "provenance",
    "provenance_query_texts": "provenance",
    "psjs": "provenance",
    "jaccard": "sets",
    "f1": "sets",
    "precision_recall_f1": "sets",
    "boolean_accuracy": "sets",
    "answer_set": "sets",
    "mdre": "numeric",
    "msle": "numeric",
    "smape": "numeric",
    "mlre": "numeric",
    "numeric_scores": "numeric",
    "step_accuracy": "numeric",
    "session_accuracy": "numeric",
    "grammar_score": "grammar",
    "grammar_validity": "grammar",
    "ir_similarity": "similarity",
    "tree_edit_distance": "similarity",
    "canonical_tree": "similarity",
    "classify": "difficulty",
    "query_features": "difficulty",
    "text2gql_level": "difficulty",
    "EvalConfig": "harness",
    "run_evaluation": "harness",
    "MetricsError": "errors",
    "Scorer": "scorer",
    "ItemScore": "scorer",
}

if TYPE_CHECKING:  # what the lazy names are, for type checkers
    from .difficulty import classify, query_features, text2gql_level
    from .errors import MetricsError
    from .execution import (
        POLICIES,
        ExecutionPolicy,
        Result,
        execution_accuracy,
        execution_match,
        execution_score,
    )
    from .grammar import grammar_score, grammar_validity
    from .harness import EvalConfig, run_evaluation
    from .numeric import mdre, mlre, msle, numeric_scores, session_accuracy, smape, step_accuracy
    from .provenance import provenance_ids, provenance_queries, provenance_query_texts, psjs
    from .scorer import ItemScore, Scorer
    from .sets import answer_set, boolean_accuracy, f1, jaccard, precision_recall_f1
    from .similarity import canonical_tree, ir_similarity, tree_edit_distance
    from .text import clean_query_text, corpus_gleu, google_bleu, jaro, jaro_winkler, tokenize_13a
    from .values import ValueRules, value_key

__all__ = [
    "POLICIES",
    "EvalConfig",
    "ExecutionPolicy",
    "ItemScore",
    "MetricsError",
    "Result",
    "Scorer",
    "ValueRules",
    "answer_set",
    "boolean_accuracy",
    "canonical_tree",
    "classify",
    "clean_query_text",
    "corpus_gleu",
    "execution_accuracy",
    "execution_match",
    "execution_score",
    "f1",
    "google_bleu",
    "grammar_score",
    "grammar_validity",
    "ir_similarity",
    "jaccard",
    "jaro",
    "jaro_winkler",
    "mdre",
    "mlre",
    "msle",
    "numeric_scores",
    "precision_recall_f1",
    "provenance_ids",
    "provenance_queries",
    "provenance_query_texts",
    "psjs",
    "query_features",
    "run_evaluation",
    "session_accuracy",
    "smape",
    "step_accuracy",
    "text2gql_level",
    "tokenize_13a",
    "tree_edit_distance",
    "value_key",
]


__getattr__ = lazy_exports(__name__, _EXPORTS)
