"""The SQL test set (corpus/sql): at least 150 queries over at least three schemas with data;
at least 90 % read into the IR; every other one refused with the construct the corpus names;
every translation gives SQLite's result on the reference evaluator, and so does every Cypher,
ISO GQL and SQL text written from it (read back in its dialect) unless that target refuses it
with an UnsupportedError. One test per schema file, so pytest-xdist can spread them."""

from __future__ import annotations

from pathlib import Path

import pytest

from gqlir.sqlcorpus import ROUND_TRIP, TARGETS, Verdict, check_all, read_corpus

CORPUS = Path(__file__).resolve().parent.parent / "corpus" / "sql"
FILES = sorted(CORPUS.glob("*.jsonl"))


def test_the_test_set_is_large_and_varied() -> None:
    entries = read_corpus(str(CORPUS))
    assert len(entries) >= 150
    assert len({e.schema for e in entries}) >= 3
    assert len({e.id for e in entries}) == len(entries)
    translated = [e for e in entries if e.expect == "ok"]
    assert len(translated) >= 0.9 * len(entries)
    sql = " ".join(e.sql.upper() for e in entries)
    for construct in ("JOIN", "LEFT JOIN", "GROUP BY", "HAVING", "EXISTS", " IN (SELECT",
                      "UNION", "INTERSECT", "EXCEPT", "WITH RECURSIVE", "DISTINCT", "CASE"):
        assert construct in sql, construct


def _problems(verdicts: list[Verdict]) -> list[str]:
    out = []
    for v in verdicts:
        if not v.as_expected:
            out.append(f"{v.entry.id}: expected {v.entry.expect} {v.entry.construct or ''}, got "
                       f"{v.status} {v.construct or ''} {v.message or ''}")
            continue
        for target in ("ir", *TARGETS, ROUND_TRIP):
            got = v.agree.get(target)
            if got is None or got is True or str(got).startswith("unsupported"):
                continue
            out.append(f"{v.entry.id} [{target}]: {str(got)[:300]}\n  {v.entry.sql}\n  "
                       f"{v.texts.get(target, '')}")
    return out


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_translations_give_sqlites_results(path: Path) -> None:
    verdicts = check_all(read_corpus(str(path)))
    problems = _problems(verdicts)
    assert not problems, "\n".join(problems)
    # the graph targets write most of the set (refusals are named constructs)
    for target in TARGETS:
        written = sum(1 for v in verdicts if v.agree.get(target) is True)
        assert written >= 0.8 * len(verdicts), target
