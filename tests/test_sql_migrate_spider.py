"""Migrating Spider-shaped SQLite databases: foreign keys match their rows as SQLite's own join
does (type affinity: a TEXT key '1' refers to INTEGER 1), composite keys, tables without a
primary key, self references; references to no row stop the migration or, with
``--on-dangling skip``, are left out and listed. SQLite itself is the judge of every match."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import gqlir
from gqlir.cli import main
from gqlir.engines.reference import reference_graph
from gqlir.errors import SchemaError
from gqlir.eval import evaluate
from gqlir.migrate import migrate
from gqlir.sqlaffinity import column_affinity, comparison_converters
from gqlir.sqlcorpus import normalise
from gqlir.sqlmapping import mapping_for

DECLARED = ["INT", "INTEGER", "TEXT", "VARCHAR(20)", "", "BLOB", "REAL", "NUMERIC", "DECIMAL(5,2)"]
NUMBERS_IN_TEXT = st.sampled_from(
    ["1", " 1", "1 ", "+1", "01", "1.0", "1.5", "3.0e+5", "1e3", ".5", "1abc", "0x1", "abc", ""]
)
VALUES = st.one_of(st.integers(-3, 3), st.sampled_from([1.0, 1.5, 300000.0]), NUMBERS_IN_TEXT)


@given(
    st.sampled_from(DECLARED),
    st.sampled_from(DECLARED),
    st.lists(VALUES, min_size=1, max_size=4),
    st.lists(VALUES, min_size=1, max_size=4),
)
def test_affinity_matches_what_sqlite_joins(
    key_type: str, fk_type: str, keys: list, refs: list
) -> None:
    con = sqlite3.connect(":memory:")
    con.execute(f'CREATE TABLE p (k "{key_type}")' if key_type else "CREATE TABLE p (k)")
    con.execute(f'CREATE TABLE c (r "{fk_type}")' if fk_type else "CREATE TABLE c (r)")
    con.executemany("INSERT INTO p VALUES (?)", [(k,) for k in keys])
    con.executemany("INSERT INTO c VALUES (?)", [(r,) for r in refs])
    joined = set(con.execute("SELECT c.rowid, p.rowid FROM c JOIN p ON c.r = p.k").fetchall())
    stored_keys = con.execute("SELECT rowid, k FROM p").fetchall()
    stored_refs = con.execute("SELECT rowid, r FROM c").fetchall()
    to_ref, to_key = comparison_converters(column_affinity(fk_type), column_affinity(key_type))
    mine = {(ci, pi) for ci, r in stored_refs for pi, k in stored_keys if to_ref(r) == to_key(k)}
    assert mine == joined


def _db(path: Path, script: str) -> str:
    con = sqlite3.connect(path)
    con.executescript(script)
    con.commit()
    con.close()
    return str(path)


CONCERT_SINGER = """
CREATE TABLE stadium (Stadium_ID int, Location text, Name text, PRIMARY KEY (Stadium_ID));
CREATE TABLE singer (Singer_ID int, Name text, Mentor_ID int, PRIMARY KEY (Singer_ID),
    FOREIGN KEY (Mentor_ID) REFERENCES singer (Singer_ID));
CREATE TABLE concert (concert_ID int, concert_Name text, Stadium_ID text, Year text,
    PRIMARY KEY (concert_ID), FOREIGN KEY (Stadium_ID) REFERENCES stadium (Stadium_ID));
CREATE TABLE singer_in_concert (concert_ID int, Singer_ID text,
    PRIMARY KEY (concert_ID, Singer_ID),
    FOREIGN KEY (concert_ID) REFERENCES concert (concert_ID),
    FOREIGN KEY (Singer_ID) REFERENCES singer (Singer_ID));
CREATE TABLE tour (Country text, Season int, Leg text, PRIMARY KEY (Country, Season));
CREATE TABLE tour_date (Country text, Season text, Day text,
    FOREIGN KEY (Country, Season) REFERENCES tour (Country, Season));
INSERT INTO stadium VALUES (1, 'Raith', 'Stark''s Park'), (2, 'Ayr', 'Somerset Park');
INSERT INTO singer VALUES (1, 'Joe', NULL), (2, 'Ann', 1), (3, 'Tim', 2);
INSERT INTO concert VALUES (1, 'Auditions', '1', '2014'), (2, 'Super', ' 2', '2014'),
    (3, 'Home', '1.0', '2015');
INSERT INTO singer_in_concert VALUES (1, '2'), (1, '3'), (2, '1'), (3, '+3');
INSERT INTO tour VALUES ('NO', 2014, 'north'), ('SE', 2015, 'east');
INSERT INTO tour_date VALUES ('NO', '2014', 'mon'), ('NO', '2014', 'tue'), ('SE', '2015', 'fri');
"""

QUERIES = [
    "SELECT T2.Name, count(*) FROM concert AS T1 JOIN stadium AS T2 "
    "ON T1.Stadium_ID = T2.Stadium_ID GROUP BY T2.Stadium_ID",
    "SELECT T3.Name FROM singer_in_concert AS T1 JOIN concert AS T2 ON T1.concert_ID = "
    "T2.concert_ID JOIN singer AS T3 ON T1.Singer_ID = T3.Singer_ID WHERE T2.Year = '2014'",
    "SELECT T1.Name, T2.Name FROM singer AS T1 JOIN singer AS T2 ON T1.Mentor_ID = T2.Singer_ID",
    "SELECT count(*) FROM tour_date AS T1 JOIN tour AS T2 "
    "ON T1.Country = T2.Country AND T1.Season = T2.Season WHERE T2.Leg = 'north'",
]


def test_a_spider_database_migrates_and_its_queries_agree(tmp_path: Path) -> None:
    db = _db(tmp_path / "concert_singer.sqlite", CONCERT_SINGER)
    out = tmp_path / "graph"
    report = migrate(db, str(out))
    assert report.checked and not report.skipped
    assert report.matched_by_affinity == {"HAS_STADIUM": 3, "singer_in_concert": 4, "COUNTRY": 3}
    mapping = mapping_for(str(out))
    graph = reference_graph(str(out / "graph"), mapping.schema)
    con = sqlite3.connect(db)
    for sql in QUERIES:
        expected = normalise(con.execute(sql).fetchall(), False)
        got = evaluate(gqlir.parse(sql, "sql:sqlite", schema=mapping), graph)
        assert normalise(got.rows, False) == expected, sql


def test_dangling_references_stop_or_are_skipped_and_listed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = _db(
        tmp_path / "d.sqlite",
        CONCERT_SINGER
        + "INSERT INTO concert VALUES (4, 'Gone', '9', '2016');"
        + "INSERT INTO singer_in_concert VALUES (4, '7');",
    )
    with pytest.raises(SchemaError, match=r"\('9',\) points to no row.*--on-dangling skip"):
        migrate(db, str(tmp_path / "fail"))
    assert main(["migrate", db, "--out", str(tmp_path / "skip"), "--on-dangling", "skip"]) == 1
    err = capsys.readouterr().err
    assert "skipped: table concert, row 4: the HAS_STADIUM reference ('9',)" in err
    assert "skipped: table singer_in_concert, row 5" in err
    report = migrate(db, str(tmp_path / "json"), on_dangling="skip")
    assert report.checked and not report.to_dict()["lossless"]
    assert [(s["table"], s["row"], s["values"]) for s in report.skipped] == [
        ("concert", 4, ["9"]),
        ("singer_in_concert", 5, ["7"]),
    ]
    assert json.dumps(report.to_dict())  # the report is data
