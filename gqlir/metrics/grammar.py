"""Grammar validity of predicted queries, per dialect.

Two conventions:

* ``strict`` (gqlir's default): a prediction scores 1 when :func:`gqlir.validate` accepts it
  in the dialect (its grammar accepts the text **and** the dialect can express every construct
  in it), else 0, whatever the gold query is; a gold query that is not valid is reported as a
  dataset problem, not scored into the prediction.
* ``text2gql`` (Text2GQL-Bench's Driver): both texts are cleaned
  (:func:`~.text.clean_query_text`); the gold query is parsed first and, if it does not parse,
  the item scores −1; otherwise the prediction scores 1 if it parses, else 0 (grammar only).
  The aggregate is Σ max(g_i, 0) / N: items with an unparseable gold query stay in the
  denominator as 0 (the ``text2gql-bench`` preset averages the raw scores, −1 included, as
  the Driver's pipeline does: :func:`grammar_validity`).
* ``benchmark`` (the ``text2gql-bench`` preset): as ``text2gql``, but the parser is the one
  the Driver picks (OpenGQL for GQL dialects, TuGraph's Lcypher for Cypher ones: gqlir's
  ``iso-gql`` and ``tugraph-cypher`` follow them), and a semantic rule those ANTLR grammars do
  not have is not held against a query (:mod:`.grammar_peers`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal

from ..errors import GqlirError, SemanticError
from .text import clean_query_text

__all__ = ["Convention", "grammar_score", "grammar_validity", "parses"]

Convention = Literal["strict", "text2gql", "benchmark"]


def parses(text: str, dialect: str) -> bool:
    """Whether the dialect's grammar accepts ``text`` (no feature check)."""
    from ..api import parse

    try:
        parse(text, dialect)
    except GqlirError:
        return False
    return True


def _benchmark_parses(text: str, dialect: str) -> bool:
    from ..api import parse
    from .grammar_peers import benchmark_dialect

    try:
        parse(text, benchmark_dialect(dialect))
    except SemanticError:
        return True  # a semantic rule (an unaliased WITH expression), not the grammar
    except GqlirError:
        return False
    return True


def _valid(text: str, dialect: str) -> bool:
    from ..api import validate

    return validate(text, dialect).valid


def grammar_score(
    pred: str | None,
    dialect: str,
    *,
    gold: str | None = None,
    convention: Convention = "strict",
    clean: Callable[[str | None], str] = clean_query_text,
) -> int:
    """One item's score: 1 or 0, or −1 under ``text2gql`` / ``benchmark`` when ``gold`` does
    not parse; ``clean`` gives the texts those two conventions parse (by default the Driver's
    GRAPH/USE-stripped text)."""
    if convention in ("text2gql", "benchmark"):
        check = parses if convention == "text2gql" else _benchmark_parses
        if gold is not None and not check(clean(gold), dialect):
            return -1
        return int(check(clean(pred), dialect))
    if not pred:
        return 0
    return int(_valid(pred, dialect))


def grammar_validity(
    scores: Sequence[int], *, raw: bool = False, skip_unparsed_gold: bool = False
) -> float:
    """Σ max(g_i, 0) / N over every item (0 for none); with ``raw``, Σ g_i / N, −1 included,
    as Text2GraphQuery-Driver's ``ExternalMetric`` averages the per-item log; with
    ``skip_unparsed_gold``, the mean of the items whose gold parses (−1 items left out), as
    the Driver's ``ExternalMetric._parse_log_score`` did at TuGraph-family e5fc112a."""
    if skip_unparsed_gold:
        scores = [s for s in scores if s >= 0]
    if not scores:
        return 0.0
    return sum(s if raw else max(s, 0) for s in scores) / len(scores)
