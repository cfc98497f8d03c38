"""NGDBench's answer-set metrics: Jaccard, precision, recall, F1 and Boolean accuracy.

Answers are sets (duplicates do not count): for query results, :func:`answer_set` makes one
from a table's rows under the same value rules as execution accuracy.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from .errors import MetricsError
from .values import DEFAULT_RULES, ValueRules, row_key

__all__ = [
    "answer_set",
    "boolean_accuracy",
    "f1",
    "jaccard",
    "precision_recall_f1",
]


def answer_set(rows: Iterable[Sequence[Any]], rules: ValueRules = DEFAULT_RULES) -> set[Any]:
    """The set of a result's rows (one-column rows as the bare value's key)."""
    out = set()
    for row in rows:
        key = row_key(tuple(row), rules)
        out.add(key[0] if len(key) == 1 else key)
    return out


def jaccard(pred: set[Any], gold: set[Any], *, both_empty: float = 1.0) -> float:
    """|A ∩ G| / |A ∪ G|; ``both_empty`` when both sets are empty (NGDBench's reading: two
    empty answers agree, 1)."""
    union = len(pred | gold)
    return len(pred & gold) / union if union else both_empty


def precision_recall_f1(pred: set[Any], gold: set[Any]) -> tuple[float, float, float]:
    """P = |A ∩ G| / |A|, R = |A ∩ G| / |G|, F1 = 2PR / (P + R). Conventions for empty sets:
    both empty is (1, 1, 1); an empty prediction has P = 1 and R = 0 (unless G is empty);
    F1 = 0 when P + R = 0."""
    if not pred and not gold:
        return 1.0, 1.0, 1.0
    hit = len(pred & gold)
    p = hit / len(pred) if pred else 1.0
    r = hit / len(gold) if gold else 1.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def f1(pred: set[Any], gold: set[Any]) -> float:
    return precision_recall_f1(pred, gold)[2]


def boolean_accuracy(preds: Sequence[bool | None], golds: Sequence[bool]) -> float:
    """(1/N) Σ 1[ŷ_i = y_i] over candidate verdicts; a missing verdict (None) is wrong."""
    if len(preds) != len(golds):
        raise MetricsError(f"{len(preds)} verdicts for {len(golds)} items", code="METRICS_LENGTH")
    if not golds:
        return 0.0
    return sum(p is not None and bool(p) == bool(g) for p, g in zip(preds, golds)) / len(golds)
