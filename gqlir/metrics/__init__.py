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
}

__all__ = sorted(_EXPORTS)


__getattr__ = lazy_exports(__name__, _EXPORTS)
