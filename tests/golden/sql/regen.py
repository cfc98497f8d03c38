"""Rewrite the golden files of tests/test_sql_targets.py (review the diff before committing).

    python tests/golden/sql/regen.py

For each target T, ``typical.<T>.txt`` holds, for each query of
corpus/cypher-sql/typical.jsonl, its id and either T's text of it or ``REFUSED: <construct>``.
"""

from __future__ import annotations

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..", "..")
sys.path.insert(0, ROOT)

from gqlir import emit, parse  # noqa: E402
from gqlir.errors import UnsupportedError  # noqa: E402
from gqlir.sqlmapping import mapping_for  # noqa: E402

TYPICAL = os.path.join(ROOT, "corpus", "cypher-sql", "typical.jsonl")
TARGETS = [
    "sql:sqlite",
    "sql:duckdb",
    "sql:postgres",
    "sql:mysql",
    "sql:tsql",
    "sqlpgq",
    "sqlpgq:duckdb",
    "sqlpgq:postgres",
]


def typical() -> list[dict]:
    with open(TYPICAL, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def translation(entry: dict, target: str) -> str:
    """The target's text of the entry's query, or ``REFUSED: <construct>``."""
    schema = os.path.join(ROOT, entry["schema"])
    try:
        return emit(parse(entry["cypher"], "neo4j"), target, schema=mapping_for(schema))
    except UnsupportedError as exc:
        return f"REFUSED: {exc.construct}"


def golden_text(target: str) -> str:
    return "".join(f"-- {e['id']}\n{translation(e, target)}\n" for e in typical())


def file_name(target: str) -> str:
    return os.path.join(HERE, f"typical.{target.replace(':', '_')}.txt")


def main() -> None:
    for target in TARGETS:
        with open(file_name(target), "w", encoding="utf-8", newline="\n") as fh:
            fh.write(golden_text(target))


if __name__ == "__main__":
    main()
