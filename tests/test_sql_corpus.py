"""The SQL test set (corpus/sql): at least 150 queries over at least three schemas with data;
at least 90 % read into the IR; every other one refused with the construct the corpus names;
every translation gives SQLite's result on the reference evaluator, and so does every Cypher,
ISO GQL and SQL text written from it (read back in its dialect, and the graph texts also run on
the embedded engine grafeo) unless that target refuses it with an UnsupportedError or the
engine fails on it. One test per schema file, so pytest-xdist can spread them."""

from __future__ import annotations

from pathlib import Path

import pytest

from gqlir.sqlcorpus import TARGETS, Verdict, check_all, read_corpus

CORPUS = Path(__file__).resolve().parent.parent / "corpus" / "sql"
FILES = sorted(CORPUS.glob("*.jsonl"))


def _engines() -> tuple[str, ...]:
    """grafeo, the embedded engine for Cypher and ISO GQL, when it is installed."""
    try:
        import grafeo  # noqa: F401
    except ImportError:
        return ()
    return ("grafeo",)


def test_the_test_set_is_large_and_varied() -> None:
    entries = read_corpus(str(CORPUS))
    assert len(entries) >= 150
    assert len({e.schema for e in entries}) >= 3
    assert len({e.id for e in entries}) == len(entries)
    translated = [e for e in entries if e.expect == "ok"]
    assert len(translated) >= 0.9 * len(entries)
    sql = " ".join(e.sql.upper() for e in entries)
    for construct in (
        "JOIN",
        "LEFT JOIN",
        "GROUP BY",
        "HAVING",
        "EXISTS",
        " IN (SELECT",
        "UNION",
        "INTERSECT",
        "EXCEPT",
        "WITH RECURSIVE",
        "DISTINCT",
        "CASE",
    ):
        assert construct in sql, construct


#: grafeo's documented limits (docs/engines.md, Quirks): (target@engine, its error text). Any
#: other engine error fails the test.
ENGINE_LIMITS = (
    ("neo4j@grafeo", "Expected end of query"),  # no || in its Cypher
    ("neo4j@grafeo", "Expected LParen"),  # shortestPath(…) must be named
    ("neo4j@grafeo", "takes 1 argument, got 2"),  # round(x, digits)
    ("iso-gql@grafeo", "requires at least one MATCH clause"),  # FOR-only subqueries
)


def _problems(verdicts: list[Verdict]) -> list[str]:
    out = []
    for v in verdicts:
        if not v.as_expected:
            out.append(
                f"{v.entry.id}: expected {v.entry.expect} {v.entry.construct or ''}, got "
                f"{v.status} {v.construct or ''} {v.message or ''}"
            )
            continue
        for target, got in v.agree.items():
            if got is True or str(got).startswith("unsupported"):
                continue
            if "@" in target and any(
                target.startswith(route) and limit in str(got) for route, limit in ENGINE_LIMITS
            ):
                continue  # the engine's own limits (docs/engines.md), not a wrong translation
            out.append(
                f"{v.entry.id} [{target}]: {str(got)[:300]}\n  {v.entry.sql}\n  "
                f"{v.texts.get(target, '')}"
            )
    return out


#: (file, part) pairs: each schema file's entries in parts of about 25, so that the two
#: pytest-xdist workers share the work evenly.
PARTS = [
    (path, k, n)
    for path in FILES
    for n in (max(1, round(len(read_corpus(str(path))) / 25)),)
    for k in range(n)
]


@pytest.mark.parametrize(
    ("path", "part", "parts"), PARTS, ids=[f"{p.stem}-{k}" for p, k, _ in PARTS]
)
def test_translations_give_sqlites_results(path: Path, part: int, parts: int) -> None:
    entries = read_corpus(str(path))[part::parts]
    verdicts = check_all(entries, engines=_engines())
    problems = _problems(verdicts)
    assert not problems, "\n".join(problems)
    # the graph targets write most of the set (refusals are named constructs)
    for target in TARGETS:
        written = sum(1 for v in verdicts if v.agree.get(target) is True)
        assert written >= 0.8 * len(verdicts), target
