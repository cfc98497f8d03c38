"""Dialect facts checked on an engine: each capability a small query can observe, run there.

A dialect file says what its engine does (``dialects/*.toml``); a translation is only as right as
those facts. :func:`probe` runs one query per observable capability on an engine, in the
engine's own text (no translation), reads what the engine answered as a capability value, and
compares it with the dialect file. Reserved words are tried as bare variables: each one the
file lists must fail there, run escaped.

``gqlir dialects NAME --probe --engine E`` prints the comparison for a user's engine (a new Kuzu
release, say): which facts hold, which the engine contradicts, which it could not answer.

The probes here are those of the Cypher family, written in openCypher that every Cypher engine
reads; each reads only literals, so the engine needs no graph.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from .dialect import Dialect
from .errors import GqlirError

__all__ = ["CYPHER_PROBES", "Finding", "Probe", "probe"]

#: What an engine answered: the first row's first value, or the error it raised.
Answer = Any


@dataclass(frozen=True)
class Probe:
    """``capability``'s probe: the query, and the capability value an answer means (None: the
    answer means no known value)."""

    capability: str
    query: str
    reading: Callable[[Answer], object]


@dataclass(frozen=True)
class Finding:
    """One fact: what the dialect file says, what the engine showed, and the verdict."""

    fact: str
    declared: object
    observed: object
    verdict: str  # "holds", "contradicted", "no answer"
    detail: str = ""

    def to_dict(self) -> dict[str, object]:
        return {
            "fact": self.fact,
            "declared": self.declared,
            "observed": self.observed,
            "verdict": self.verdict,
            "detail": self.detail,
        }


class _Failed:
    """An answer that is an error (the engine refused or failed the query)."""

    def __init__(self, message: str) -> None:
        self.message = message


def _null_or(value: object, if_null: object, otherwise: dict[object, object]) -> Callable:
    def read(answer: Answer) -> object:
        if isinstance(answer, _Failed):
            return None
        if answer is None:
            return if_null
        return otherwise.get(_key(answer))

    return read


def _key(value: object) -> object:
    return tuple(value) if isinstance(value, list) else value


def _error_or(value_reading: Callable[[Answer], object], on_error: object) -> Callable:
    def read(answer: Answer) -> object:
        return on_error if isinstance(answer, _Failed) else value_reading(answer)

    return read


CYPHER_PROBES: tuple[Probe, ...] = (
    Probe(
        "membership_null_unknown",
        "RETURN 2 IN [1, null] AS v",
        _null_or(None, True, {False: False}),
    ),
    Probe(
        "list_equality_null_unknown",
        "RETURN [1, null] = [1, null] AS v",
        _null_or(None, True, {True: False}),
    ),
    Probe(
        "index_out_of_range_null",
        "RETURN [1, 2, 3][10] AS v",
        _error_or(lambda a: True if a is None else None, False),
    ),
    Probe(
        "list_index_base",
        "RETURN [10, 20, 30][1] AS v",
        _null_or(None, None, {20: 0, 10: 1}),
    ),
    Probe(
        "integer_division",
        "RETURN 7 / 2 AS v",
        _null_or(None, None, {3: "truncate", 3.5: "float"}),
    ),
    Probe(
        "contains_empty_true",
        "RETURN 'abc' CONTAINS '' AS v",
        _null_or(None, None, {True: True, False: False}),
    ),
    Probe(
        "simple_case_null_matches",
        "RETURN CASE 1 WHEN null THEN 1 ELSE 2 END AS v",
        _null_or(None, None, {1: True, 2: False}),
    ),
    Probe(
        "collect_keeps_nulls",
        "UNWIND [1, null] AS x RETURN collect(x) AS v",
        _null_or(None, None, {(1, None): True, (1,): False}),
    ),
    Probe(
        "sum_empty_null",
        "UNWIND [] AS x RETURN sum(x) AS v",
        _null_or(None, True, {0: False}),
    ),
    Probe(
        "nulls_sort_high",
        "UNWIND [2, null, 1] AS x RETURN x AS v ORDER BY v LIMIT 1",
        _null_or(None, False, {1: True}),
    ),
)


def probe(
    dialect: Dialect,
    run: Callable[[str], Answer],
    *,
    probes: Iterable[Probe] = CYPHER_PROBES,
    reserved: bool = True,
) -> list[Finding]:
    """Every fact of ``dialect`` the probes observe, as the engine behind ``run`` shows it.
    ``run(query)`` returns the first value of the first row (None for no row) and raises
    :class:`~gqlir.errors.GqlirError` when the engine fails the query."""

    def answer(query: str) -> Answer:
        try:
            return run(query)
        except GqlirError as exc:
            return _Failed(exc.message.splitlines()[0])

    findings = []
    caps = dialect.capabilities
    for item in probes:
        declared = getattr(caps, item.capability)
        got = answer(item.query)
        observed = item.reading(got)
        if observed is None:
            detail = got.message if isinstance(got, _Failed) else f"answered {got!r}"
            findings.append(Finding(item.capability, declared, None, "no answer", detail))
            continue
        verdict = "holds" if observed == declared else "contradicted"
        findings.append(Finding(item.capability, declared, observed, verdict, item.query))
    if reserved:
        findings += _reserved_words(dialect, answer)
    return findings


def _reserved_words(dialect: Dialect, answer: Callable[[str], Answer]) -> list[Finding]:
    """Each keyword the engine refuses as a bare variable must be a reserved word of the dialect
    (else the emitter writes it bare); a listed word must run escaped. A listed word that also
    runs bare is caution, not an error: escaping is always safe."""
    from .dialect import all_dialects

    quote = dialect.capabilities.identifier_quote
    candidates = set(KEYWORDS).union(*(d.reserved_words for d in all_dialects()))
    findings = []
    for word in sorted(candidates):
        if not word.isidentifier():
            continue
        listed = word in dialect.reserved_words
        fact = f"reserved word {word}"
        bare = answer(f"WITH 1 AS {word} RETURN {word} AS v")
        if isinstance(bare, _Failed) and not listed:
            findings.append(Finding(fact, False, True, "contradicted", bare.message))
            continue
        if not listed:
            continue
        escaped = answer(f"WITH 1 AS {quote}{word}{quote} RETURN {quote}{word}{quote} AS v")
        if isinstance(escaped, _Failed):
            findings.append(Finding(fact, True, None, "no answer", escaped.message))
        else:
            findings.append(Finding(fact, True, isinstance(bare, _Failed), "holds"))
    return findings


#: Words some Cypher or GQL engine treats as keywords, beyond the dialect files' lists (Kuzu's
#: path modes and hints, GQL's reserved words that Cypher engines may adopt).
KEYWORDS = (
    "ACYCLIC", "ANY", "HINT", "JOIN", "MULTI_JOIN", "NONE", "SINGLE", "TRAIL", "WALK",
    "SIMPLE", "SHORTEST", "GRAPH", "TABLE", "COPY", "EXPORT", "IMPORT", "PROFILE", "EXPLAIN",
    "BEGIN", "COMMIT", "ROLLBACK", "TRANSACTION", "USING", "LOAD", "INSTALL", "ATTACH",
    "DETACH", "MACRO", "SEQUENCE", "PRIMARY", "KEY", "REL", "NODE", "GROUP", "BY", "LET",
    "FILTER", "NEXT", "FINISH", "INSERT", "YIELD", "CALL",
)  # fmt: skip


def first_value(engine: Any, dialect: str, timeout: float = 20.0) -> Callable[[str], Answer]:
    """``run`` for :func:`probe` over an open gqlir engine, in its own dialect."""

    def run(query: str) -> Answer:
        table = engine.run(query, dialect=dialect, timeout=timeout)
        return table.rows[0][0] if table.rows else None

    return run
