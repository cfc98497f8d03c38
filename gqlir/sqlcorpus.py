"""Check a corpus of SQL queries: translated, refused with a reason, and agreeing on data.

A corpus is JSON lines (``corpus/sql/*.jsonl``), one query per line::

    {"id": "bookstore-012", "schema": "schemas/bookstore", "sql": "SELECT …",
     "expect": "ok" | "unsupported", "construct": "<expected construct when refused>",
     "ordered": true}

``schema`` is a graph folder (relative to the corpus file's repository root or absolute): its
mapping reads the SQL (:func:`gqlir.sqlmapping.mapping_for`) and its data fills both an
in-memory SQLite database (through the mapping) and the reference evaluator's graph. For each
query :func:`check` runs the SQL on SQLite, reads it into the IR, evaluates the IR, writes it
in each graph target, reads that text back in the target and evaluates it again: every result
must equal SQLite's (as a list when the entry is ``ordered``, else as a bag; numbers compared
to 6 decimal places, booleans as SQLite's 0/1). ``benchmarks/translate_sql.py`` prints the
figures; ``tests/test_sql_corpus.py`` asserts them.
"""

from __future__ import annotations

import json
import math
import os
import sqlite3
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from .errors import GqlirError, UnsupportedError

__all__ = ["Entry", "Fixture", "Verdict", "check", "read_corpus"]

#: The graph dialects each translation is written in, read back and evaluated.
TARGETS = ("neo4j", "iso-gql")
#: The round trip back to SQL: the IR written as SQLite SQL and run on the same database.
ROUND_TRIP = "sql:sqlite"


@dataclass(frozen=True)
class Entry:
    id: str
    schema: str
    sql: str
    dialect: str = "sql:sqlite"
    expect: str = "ok"
    construct: str | None = None
    ordered: bool = False
    note: str = ""


def read_corpus(path: str) -> list[Entry]:
    """The entries of a corpus file, or of every ``*.jsonl`` file in a folder (sorted)."""
    if os.path.isdir(path):
        out: list[Entry] = []
        for name in sorted(os.listdir(path)):
            if name.endswith(".jsonl"):
                out.extend(read_corpus(os.path.join(path, name)))
        return out
    root = _repository_root(path)
    entries = []
    with open(path, encoding="utf-8") as fh:
        for n, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            rec = json.loads(line)
            schema = rec["schema"]
            if not os.path.isabs(schema):
                schema = os.path.join(root, schema)
            fields = {k: rec[k] for k in Entry.__dataclass_fields__ if k in rec}
            fields["schema"] = schema
            try:
                entries.append(Entry(**fields))
            except TypeError as exc:
                raise ValueError(f"{path}:{n}: {exc}") from None
    return entries


def _repository_root(path: str) -> str:
    """The folder above ``corpus/`` (schema paths in a corpus are relative to it)."""
    here = os.path.dirname(os.path.abspath(path))
    probe = here
    while True:
        if os.path.isdir(os.path.join(probe, "schemas")):
            return probe
        parent = os.path.dirname(probe)
        if parent == probe:
            return here
        probe = parent


class Fixture:
    """One graph folder loaded into SQLite through its mapping, into the reference evaluator,
    and into each embedded graph engine named in ``engines`` (:mod:`gqlir.engines`)."""

    def __init__(self, folder: str, engines: tuple[str, ...] = ()) -> None:
        from .engines.reference import reference_graph
        from .migrate import load_tables
        from .sqlmapping import mapping_for

        self.folder = folder
        self.mapping = mapping_for(folder)
        self.sqlite = sqlite3.connect(":memory:")
        load_tables(self.sqlite, self.mapping, os.path.join(folder, "graph"), "sqlite")
        self.graph = reference_graph(os.path.join(folder, "graph"), self.mapping.schema)
        self.engines: dict[str, Any] = {}
        for name in engines:
            from .engines import open_engine

            engine = open_engine(name)
            engine.load(self.mapping.schema, os.path.join(folder, "graph"))
            self.engines[name] = engine

    def close(self) -> None:
        for engine in self.engines.values():
            engine.close()
        self.sqlite.close()

    def sql_rows(self, sql: str) -> list[tuple[Any, ...]]:
        cur = self.sqlite.execute(sql)
        return [tuple(r) for r in cur.fetchall()]


@dataclass
class Verdict:
    """What happened to one entry. ``status``: ``translated`` (read into the IR), ``unsupported``
    (an UnsupportedError), ``error`` (any other failure). ``agree`` maps ``ir`` and each target
    to ``True``/``False`` (same result as SQLite or not) or a refusal/error string."""

    entry: Entry
    status: str
    construct: str | None = None
    message: str | None = None
    agree: dict[str, Any] = field(default_factory=dict)
    texts: dict[str, str] = field(default_factory=dict)
    details: dict[str, Any] = field(default_factory=dict)

    @property
    def as_expected(self) -> bool:
        if self.entry.expect == "unsupported":
            return self.status == "unsupported" and (
                self.entry.construct is None or self.construct == self.entry.construct
            )
        return self.status == "translated" and self.agree.get("ir") is True

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.entry.id,
            "status": self.status,
            "construct": self.construct,
            "message": self.message,
            "agree": self.agree,
            "texts": self.texts,
        }


def normalise(rows: list[tuple[Any, ...]], ordered: bool) -> Any:
    """Rows in a form two engines' results can be compared in."""
    out = [tuple(_value(v) for v in r) for r in rows]
    return out if ordered else Counter(out)


def _value(v: Any) -> Any:
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "NaN"
        return round(v, 6) + 0.0
    if isinstance(v, (int, str)) or v is None:
        return v
    if hasattr(v, "isoformat"):
        return v.isoformat()
    if isinstance(v, (list, tuple)):
        return tuple(_value(x) for x in v)
    try:
        return round(float(v), 6)
    except (TypeError, ValueError):
        return str(v)


def check(entry: Entry, fixture: Fixture, targets: tuple[str, ...] = TARGETS) -> Verdict:
    """Run one entry (see the module docstring)."""
    from . import emit, parse
    from .eval import evaluate

    try:
        expected = normalise(fixture.sql_rows(entry.sql), entry.ordered)
    except sqlite3.Error as exc:
        return Verdict(entry, "error", message=f"SQLite: {exc}")
    try:
        query = parse(entry.sql, entry.dialect, schema=fixture.mapping)
    except UnsupportedError as exc:
        return Verdict(entry, "unsupported", exc.construct, exc.message)
    except GqlirError as exc:
        return Verdict(entry, "error", message=str(exc))
    verdict = Verdict(entry, "translated")

    def outcome(statement: Any, dialect: str) -> Any:
        try:
            result = evaluate(statement, fixture.graph, dialect=dialect)
        except GqlirError as exc:
            return f"evaluation error: {exc.message}"
        got = normalise(result.rows, entry.ordered)
        return True if got == expected else got

    got = outcome(query, "neo4j")
    verdict.agree["ir"] = got is True
    if got is not True:
        verdict.details["ir"] = got
    try:
        back = emit(query, ROUND_TRIP, schema=fixture.mapping)
    except UnsupportedError as exc:
        verdict.agree[ROUND_TRIP] = f"unsupported: {exc.construct}"
    else:
        verdict.texts[ROUND_TRIP] = back
        try:
            got = normalise(fixture.sql_rows(back), entry.ordered)
        except sqlite3.Error as exc:
            verdict.agree[ROUND_TRIP] = f"SQLite error: {exc}"
        else:
            verdict.agree[ROUND_TRIP] = got == expected
            if got != expected:
                verdict.details[ROUND_TRIP] = got
    for target in targets:
        try:
            text = emit(query, target)
        except UnsupportedError as exc:
            verdict.agree[target] = f"unsupported: {exc.construct}"
            continue
        verdict.texts[target] = text
        try:
            again = parse(text, target)
        except GqlirError as exc:
            verdict.agree[target] = f"reparse error: {exc.message}"
            continue
        got = outcome(again, target)
        verdict.agree[target] = got is True
        if got is not True:
            verdict.details[target] = got
        for name, engine in fixture.engines.items():
            key = f"{target}@{name}"
            try:
                table = engine.run(text, dialect=target, timeout=ENGINE_TIMEOUT, read_only=True)
            except GqlirError as exc:
                verdict.agree[key] = f"engine error: {exc.message.splitlines()[0]}"
                continue
            got = normalise(table.rows, entry.ordered)
            verdict.agree[key] = got == expected
            if got != expected:
                verdict.details[key] = got
    return verdict


#: Seconds an embedded engine may spend on one query.
ENGINE_TIMEOUT = 20.0


def check_all(
    entries: list[Entry], targets: tuple[str, ...] = TARGETS, engines: tuple[str, ...] = ()
) -> list[Verdict]:
    """Check every entry; ``engines`` also runs each graph translation on those embedded
    engines (``grafeo``, ``arcadedb`` …)."""
    fixtures: dict[str, Fixture] = {}
    out = []
    try:
        for e in entries:
            fx = fixtures.get(e.schema)
            if fx is None:
                fx = fixtures[e.schema] = Fixture(e.schema, engines)
            out.append(check(e, fx, targets))
    finally:
        for fx in fixtures.values():
            fx.close()
    return out
