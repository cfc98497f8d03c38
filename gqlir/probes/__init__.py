"""Dialect facts checked on an engine: each capability a small query can observe, run there.

A dialect file says what its engine does (``dialects/*.toml``); a translation is only as right as
those facts. :func:`probe` runs one query per observable fact on an engine, in the engine's own
text (no translation), reads what the engine answered as a fact's value, and compares it with
what the dialect declares. Reserved words are tried as bare variables: each word the engine
refuses bare must be one the dialect lists.

Each family has its suite (:func:`suite_for`): the Cypher family's (:mod:`.cypher`) reads only
literals; ISO GQL's (:mod:`.gql`) also checks the pattern forms the dialect declares on a small
graph it inserts and deletes again; SQL's (:mod:`.sql`) checks the flavour facts gqlir takes
from sqlglot and the spellings the SQL emitter writes.

An engine is one implementation of a dialect, not its definition: where an engine is known to
depart from the dialect (grafeo from ISO GQL, say), the engine records those points as its own
data (``fact_differences`` of the engine class), and a probe that finds exactly that
value says "engine differs" instead of "contradicted". A recorded difference the engine no
longer shows is a contradiction (the record is out of date).

``gqlir dialects NAME --probe --engine E`` prints the comparison for a user's engine (a new Kuzu
release, say): which facts hold, which the engine contradicts, which it could not answer.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from ..dialect import Dialect
from ..errors import GqlirError

__all__ = [
    "CYPHER_PROBES",
    "Difference",
    "Failed",
    "Finding",
    "Probe",
    "Suite",
    "first_value",
    "probe",
    "suite_for",
]

#: What an engine answered: the first row's first value, or the error it raised (a tuple of
#: those for a probe of several queries).
Answer = Any

#: ``Probe.declared`` when the fact is the dialect capability of the probe's name.
FROM_FILE: Any = object()


@dataclass(frozen=True)
class Probe:
    """A fact's probe: the query (or queries, answered as a tuple), and the fact's value an
    answer means (None: the answer means no known value). ``declared`` is the value the probe
    expects when the fact is not a capability of the dialect file (a form the file lists, a
    family rule, a sqlglot setting); ``source`` says where that value is written."""

    capability: str
    query: str | tuple[str, ...]
    reading: Callable[[Answer], object]
    declared: object = FROM_FILE
    source: str = ""


@dataclass(frozen=True)
class Finding:
    """One fact: what the dialect says, what the engine showed, and the verdict."""

    fact: str
    declared: object
    observed: object
    verdict: str  # "holds", "contradicted", "engine differs", "no answer"
    detail: str = ""

    def to_dict(self) -> dict[str, object]:
        return {
            "fact": self.fact,
            "declared": self.declared,
            "observed": self.observed,
            "verdict": self.verdict,
            "detail": self.detail,
        }


@dataclass(frozen=True)
class Difference:
    """A point where an engine departs from a dialect it runs: the value it shows for the
    fact, and the evidence (the probe query's answer, the engine's docs or source)."""

    observed: object
    evidence: str


class Failed:
    """An answer that is an error (the engine refused or failed the query)."""

    def __init__(self, message: str) -> None:
        self.message = message

    def __repr__(self) -> str:
        return f"error: {self.message}"


@dataclass(frozen=True)
class Suite:
    """A family's probes: the queries to run first and last (a graph the probes read), the
    probes of a dialect, and the bare-variable query each reserved-word check runs."""

    probes: Callable[[Dialect], tuple[Probe, ...]]
    bare: Callable[[str], str]
    escaped: Callable[[str, Dialect], str | None]
    keywords: tuple[str, ...] = ()
    setup: tuple[str, ...] = ()
    teardown: tuple[str, ...] = ()
    #: reserved words that the dialect declares by another rule than its word list (SQL:
    #: sqlglot quotes the words its flavour reserves)
    reserved: Callable[[Dialect], frozenset[str]] = field(
        default=lambda d: frozenset(d.reserved_words)
    )


def null_or(if_null: object, otherwise: dict[object, object]) -> Callable[[Answer], object]:
    """A reading: null means ``if_null``, a value its entry in ``otherwise``, an error nothing."""

    def read(answer: Answer) -> object:
        if isinstance(answer, Failed):
            return None
        if answer is None:
            return if_null
        return otherwise.get(key(answer))

    return read


def key(value: object) -> object:
    """A hashable form of an answer (lists as tuples)."""
    return tuple(key(v) for v in value) if isinstance(value, list) else value


def error_or(value_reading: Callable[[Answer], object], on_error: object) -> Callable:
    """A reading where an error means ``on_error``."""

    def read(answer: Answer) -> object:
        return on_error if isinstance(answer, Failed) else value_reading(answer)

    return read


def equals(expected: object) -> Callable[[Answer], object]:
    """A form's reading: True when the engine gives ``expected`` (floats to 9 digits), False
    when it fails or answers otherwise."""

    def read(answer: Answer) -> object:
        if isinstance(answer, Failed):
            return False
        return same(answer, expected)

    return read


def same(answer: object, expected: object) -> bool:
    """``answer`` is ``expected``: the same type and value (a float to 9 digits, from an
    integer or decimal too; a type: any non-null value of it)."""
    if isinstance(expected, float) and isinstance(answer, int | float | Decimal):
        return abs(float(answer) - expected) <= 1e-9 * max(1.0, abs(expected))
    if isinstance(expected, list) and isinstance(answer, list):
        return len(answer) == len(expected) and all(map(same, answer, expected))
    if isinstance(expected, type):  # any value of that type
        return answer is not None and isinstance(answer, expected)
    return type(answer) is type(expected) and answer == expected


def suite_for(dialect: Dialect) -> Suite:
    """The probe suite of ``dialect``'s family."""
    if dialect.family == "cypher":
        from .cypher import SUITE
    elif dialect.family == "gql" and dialect.grammar == "gql":
        from .gql import SUITE
    elif dialect.family == "sql" and dialect.grammar == "sql" and dialect.sql_dialect:
        from .sql import SUITE
    else:
        raise ValueError(
            f"no probes for {dialect.name}: probes cover the Cypher dialects, ISO GQL and "
            "SQL flavours (sql:<flavour>)"
        )
    return SUITE


def probe(
    dialect: Dialect,
    run: Callable[[str], Answer],
    *,
    probes: Iterable[Probe] | None = None,
    reserved: bool = True,
    differences: Mapping[str, Difference] | None = None,
) -> list[Finding]:
    """Every fact of ``dialect`` the probes observe, as the engine behind ``run`` shows it.
    ``run(query)`` returns the first value of the first row (None for no row) and raises
    :class:`~gqlir.errors.GqlirError` when the engine fails the query. ``differences`` are
    the engine's recorded departures from the dialect (fact -> :class:`Difference`)."""
    suite = suite_for(dialect)
    known = dict(differences or {})

    def answer(query: str | tuple[str, ...]) -> Answer:
        if isinstance(query, tuple):
            return tuple(answer(q) for q in query)
        try:
            return run(query)
        except GqlirError as exc:
            return Failed(exc.message.splitlines()[0])

    for query in suite.setup:
        run(query)
    try:
        findings = []
        caps = dialect.capabilities
        chosen = suite.probes(dialect) if probes is None else tuple(probes)
        for item in chosen:
            declared = (
                getattr(caps, item.capability) if item.declared is FROM_FILE else item.declared
            )
            got = answer(item.query)
            observed = item.reading(got)
            if observed is None:
                detail = got.message if isinstance(got, Failed) else f"answered {got!r}"
                findings.append(Finding(item.capability, declared, None, "no answer", detail))
                continue
            query = item.query if isinstance(item.query, str) else " / ".join(item.query)
            if isinstance(got, Failed):
                query += f" (error: {got.message})"
            elif observed != declared:
                query += f" (answered {got!r})"
            findings.append(_verdict(item.capability, declared, observed, query, known))
        if reserved:
            findings += _reserved_words(dialect, suite, answer, known)
    finally:
        for query in suite.teardown:
            run(query)
    return findings


def _verdict(
    fact: str, declared: object, observed: object, detail: str, known: Mapping[str, Difference]
) -> Finding:
    recorded = known.get(fact)
    if recorded is not None:
        if observed == recorded.observed and observed != declared:
            return Finding(fact, declared, observed, "engine differs", recorded.evidence)
        detail = f"the engine's recorded difference ({recorded.observed!r}) is gone; {detail}"
        return Finding(fact, declared, observed, "contradicted", detail)
    verdict = "holds" if observed == declared else "contradicted"
    return Finding(fact, declared, observed, verdict, detail)


def _reserved_words(
    dialect: Dialect,
    suite: Suite,
    answer: Callable[[str], Answer],
    known: Mapping[str, Difference],
) -> list[Finding]:
    """Each keyword the engine refuses as a bare variable must be a reserved word of the dialect
    (else the emitter writes it bare); a listed word must run escaped where the dialect escapes
    variables. A listed word that also runs bare is caution, not an error: escaping is always
    safe."""
    from ..dialect import all_dialects

    listed_words = suite.reserved(dialect)
    candidates = set(suite.keywords).union(*(d.reserved_words for d in all_dialects()))
    candidates |= listed_words
    findings = []
    for word in sorted(candidates):
        if not word.isidentifier():
            continue
        listed = word in listed_words
        fact = f"reserved word {word}"
        bare = answer(suite.bare(word))
        if isinstance(bare, Failed) and not listed:
            findings.append(_verdict(fact, False, True, bare.message, known))
            continue
        if not listed:
            if fact in known:  # recorded as refused, and it runs bare now
                findings.append(_verdict(fact, False, False, "runs bare", known))
            continue
        escaped_query = suite.escaped(word, dialect)
        escaped = None if escaped_query is None else answer(escaped_query)
        if isinstance(escaped, Failed) or fact in known:  # the escaped form must run
            detail = escaped.message if isinstance(escaped, Failed) else "runs escaped"
            findings.append(_verdict(fact, True, not isinstance(escaped, Failed), detail, known))
        else:
            findings.append(Finding(fact, True, isinstance(bare, Failed), "holds"))
    return findings


def first_value(engine: Any, dialect: str, timeout: float = 20.0) -> Callable[[str], Answer]:
    """``run`` for :func:`probe` over an open gqlir engine, in its own dialect."""

    def run(query: str) -> Answer:
        table = engine.run(query, dialect=dialect, timeout=timeout)
        return table.rows[0][0] if table.rows else None

    return run


def engine_differences(engine: Any, dialect: Dialect) -> dict[str, Difference]:
    """What ``engine`` records as its departures from ``dialect`` (by the dialect's name)."""
    table = getattr(engine, "fact_differences", None) or {}
    return dict(table.get(dialect.name, {}))


def __getattr__(name: str) -> Any:
    # CYPHER_PROBES and KEYWORDS live with the Cypher suite; kept importable from here
    if name in ("CYPHER_PROBES", "KEYWORDS"):
        from . import cypher

        return getattr(cypher, name)
    raise AttributeError(name)
