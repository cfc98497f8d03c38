"""String metrics on query texts, defined exactly as the benchmarks compute them.

* :func:`google_bleu` is corpus-level GLEU (Wu et al. 2016) over the ``13a`` tokenisation, the
  figure Hugging Face's ``google_bleu`` metric reports (it runs NLTK's ``corpus_gleu`` on
  sacrebleu's ``Tokenizer13a`` tokens); Text2GQL-Bench reports it.
* :func:`jaro_winkler` is the Census ``strcmp95``-derived rule of the PyPI ``jaro-winkler``
  package (``jaro.jaro_winkler_metric``), Text2GQL-Bench's "Similarity".
* :func:`clean_query_text` is Text2GQL-Bench's pre-processing of both texts.

They are string measures: they say nothing about meaning (see :mod:`.similarity` for a
structural measure and :mod:`.execution` for results).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

__all__ = [
    "clean_query_text",
    "corpus_gleu",
    "google_bleu",
    "jaro",
    "jaro_winkler",
    "tokenize_13a",
]

# -- tokenisation ---------------------------------------------------------------------------------

# Punctuation that becomes a token of its own: every printable ASCII symbol except the
# apostrophe, comma, hyphen and period, whose treatment depends on the neighbouring digits.
_SYMBOL = re.compile(r"([\{-\~\[-\` -\&\(-\+\:-\@\/])")
_PERIOD_COMMA_AFTER_NON_DIGIT = re.compile(r"([^0-9])([\.,])")
_PERIOD_COMMA_BEFORE_NON_DIGIT = re.compile(r"([\.,])([^0-9])")
_DASH_AFTER_DIGIT = re.compile(r"([0-9])(-)")
_ENTITIES = (("&quot;", '"'), ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"))


def tokenize_13a(line: str) -> list[str]:
    """The tokens of ``line`` under mteval-v13a's rules, as sacrebleu's ``Tokenizer13a``:
    drop ``<skipped>`` and hyphenated line breaks, unescape four HTML entities (in this order),
    split off symbols, split periods and commas except between digits, split a dash after a
    digit, then split on whitespace."""
    line = line.replace("<skipped>", "").replace("-\n", "").replace("\n", " ")
    if "&" in line:
        for entity, char in _ENTITIES:
            line = line.replace(entity, char)
    line = f" {line} "
    line = _SYMBOL.sub(r" \1 ", line)
    line = _PERIOD_COMMA_AFTER_NON_DIGIT.sub(r"\1 \2 ", line)
    line = _PERIOD_COMMA_BEFORE_NON_DIGIT.sub(r" \1 \2", line)
    line = _DASH_AFTER_DIGIT.sub(r"\1 \2 ", line)
    return line.split()


# -- GLEU -----------------------------------------------------------------------------------------


def _ngram_counts(tokens: Sequence[str], min_n: int, max_n: int) -> Counter[tuple[str, ...]]:
    counts: Counter[tuple[str, ...]] = Counter()
    for n in range(min_n, max_n + 1):
        for i in range(len(tokens) - n + 1):
            counts[tuple(tokens[i : i + n])] += 1
    return counts


def corpus_gleu(
    references: Sequence[Sequence[Sequence[str]]],
    hypotheses: Sequence[Sequence[str]],
    min_len: int = 1,
    max_len: int = 4,
) -> float:
    """Corpus GLEU over token lists: Σ_i matches_i / Σ_i max(|hyp n-grams_i|, |ref n-grams_i|),
    n-grams of every length ``min_len..max_len``, counted with multiplicity (clipped matches).

    With several references for one hypothesis, the reference with the highest
    matches/total ratio counts (the first one on a tie); a pair whose hypothesis and reference
    both have no n-gram is skipped. An empty corpus scores 0."""
    if len(references) != len(hypotheses):
        from .errors import MetricsError

        raise MetricsError(
            f"{len(hypotheses)} predictions but {len(references)} references",
            code="METRICS_LENGTH",
        )
    total_match = 0
    total_all = 0
    for refs, hyp in zip(references, hypotheses):
        hyp_counts = _ngram_counts(hyp, min_len, max_len)
        hyp_total = sum(hyp_counts.values())
        best: tuple[int, int] | None = None
        for ref in refs:
            ref_counts = _ngram_counts(ref, min_len, max_len)
            n_all = max(hyp_total, sum(ref_counts.values()))
            if n_all == 0:
                continue
            match = sum((ref_counts & hyp_counts).values())
            if best is None or match / n_all > best[0] / best[1]:
                best = (match, n_all)
        if best is not None:
            total_match += best[0]
            total_all += best[1]
    return total_match / total_all if total_all else 0.0


def google_bleu(
    predictions: Sequence[str],
    references: Sequence[str] | Sequence[Sequence[str]],
    *,
    min_len: int = 1,
    max_len: int = 4,
) -> float:
    """Corpus-level Google-BLEU of predicted query texts against references (one string per
    prediction, or a list of strings when there are several), both tokenised by
    :func:`tokenize_13a`; the value Hugging Face's ``google_bleu`` gives."""
    refs = [[r] if isinstance(r, str) else list(r) for r in references]
    return corpus_gleu(
        [[tokenize_13a(r) for r in group] for group in refs],
        [tokenize_13a(p) for p in predictions],
        min_len,
        max_len,
    )


# -- Jaro and Jaro-Winkler --------------------------------------------------------------------------


def _jaro_parts(a: str, b: str) -> tuple[str, str, int, int]:
    """(shorter, longer, matches, transpositions) as strcmp95 counts them: the shorter string
    (the first on equal lengths) is scanned left to right, each character taking the first
    unmatched equal character of the other within max(len_longer // 2 - 1, 0) positions;
    transpositions are half the out-of-order matched pairs, rounded down."""
    if len(b) < len(a):
        a, b = b, a
    window = max(len(b) // 2 - 1, 0)
    taken = [False] * len(b)
    matched_a: list[str] = []
    for i, ch in enumerate(a):
        for j in range(max(i - window, 0), min(i + window, len(b) - 1) + 1):
            if not taken[j] and b[j] == ch:
                taken[j] = True
                matched_a.append(ch)
                break
    matched_b = [ch for ch, t in zip(b, taken) if t]
    half = sum(x != y for x, y in zip(matched_a, matched_b))
    return a, b, len(matched_a), half // 2


def _jaro_of(len_a: int, len_b: int, matches: int, transpositions: int) -> float:
    if not len_a:
        return 1.0 if not len_b else 0.0
    if not matches:
        return 0.0
    m = float(matches)
    return (m / len_a + m / len_b + (matches - transpositions) / matches) / 3


def jaro(a: str, b: str) -> float:
    """Jaro similarity: (m/|a| + m/|b| + (m - t)/m) / 3 with m and t from :func:`_jaro_parts`;
    1 for two empty strings, 0 when one is empty or nothing matches. Case-sensitive."""
    short, long, m, t = _jaro_parts(a, b)
    return _jaro_of(len(short), len(long), m, t)


def jaro_winkler(a: str, b: str) -> float:
    """Jaro-Winkler as the ``jaro-winkler`` package computes it: when Jaro exceeds 0.7, add
    0.1 · p · (1 - Jaro), where p counts the leading positions (at most 4, at most the shorter
    length) whose characters are equal **and alphabetic**; no long-string adjustment."""
    short, long, m, t = _jaro_parts(a, b)
    weight = _jaro_of(len(short), len(long), m, t)
    if not (short and long and m) or weight <= 0.7:
        return weight
    prefix = 0
    for x, y in zip(short[:4], long):
        if not (x.isalpha() and x == y):
            break
        prefix += 1
    return weight + prefix * 0.1 * (1.0 - weight)


# -- Text2GQL-Bench pre-processing ----------------------------------------------------------------

_GRAPH_PREFIX = re.compile(r"^(GRAPH|USE)\s+[\w\-]+\s+", re.IGNORECASE)


def clean_query_text(text: str | None) -> str:
    """Text2GQL-Bench's cleaning of gold and predicted queries: drop a leading ``GRAPH name`` or
    ``USE name``, newlines become spaces, strip; an empty text becomes ``"no out"``."""
    if not text:
        return "no out"
    cleaned = _GRAPH_PREFIX.sub("", text).replace("\n", " ").strip()
    return cleaned or "no out"
