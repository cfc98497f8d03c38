"""How alike two type labels are, to pick the replacement a relation-type or node-type noise
makes: NGDBench swaps in the most semantically similar type using a sentence-embedding model;
gqlir uses a lexical measure that needs no download and gives the same answer every run."""

from __future__ import annotations

import re


def _tokens(label: str) -> set[str]:
    parts = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", label).replace("_", " ").replace("-", " ")
    return {p.lower() for p in parts.split() if p}


def _trigrams(label: str) -> set[str]:
    text = f"  {label.lower()} "
    return {text[i : i + 3] for i in range(len(text) - 2)}


def _jaccard(a: set[str], b: set[str]) -> float:
    return len(a & b) / len(a | b) if a | b else 0.0


def label_similarity(a: str, b: str) -> float:
    """In [0, 1]: the mean of word overlap (camelCase and snake_case split) and character
    trigram overlap."""
    return round(
        0.5 * _jaccard(_tokens(a), _tokens(b)) + 0.5 * _jaccard(_trigrams(a), _trigrams(b)), 6
    )


def most_similar(label: str, candidates: list[str]) -> tuple[list[str], float]:
    """The candidates tied for the highest similarity to ``label`` (in the given order), and
    that similarity."""
    best: list[str] = []
    top = -1.0
    for c in candidates:
        s = label_similarity(label, c)
        if s > top:
            best, top = [c], s
        elif s == top:
            best.append(c)
    return best, max(top, 0.0)


__all__ = ["label_similarity", "most_similar"]
