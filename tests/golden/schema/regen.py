"""Rewrite the golden files of tests/test_schema_formats.py (review the diff before committing).

    python tests/golden/schema/regen.py

For each format F: ``<F>.txt`` is the fixpoint text (source.json written in F, read back, and
written again), ``<F>.lost`` the losses of writing source.json in F and ``<F>.notes`` the
differences that lose nothing (additions, same-meaning defaults, what F leaves out by design).
"""

from __future__ import annotations

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", ".."))

from gqlir.schema import load_schema  # noqa: E402
from gqlir.schema.formats import read, write  # noqa: E402

FORMATS = [
    "gqlir",
    "cypherbench",
    "tugraph",
    "tugraph:procedures",
    "spanner",
    "gql",
    "sql:sqlite",
    "sql:duckdb",
    "sql:postgres",
    "sql:oracle",
    "sqlpgq",
    "sqlpgq:oracle",
    "sqlpgq:duckdb",
    "sqlpgq:postgres",
    "neo4j",
    "kuzu",
    "prompt",
    "prompt:cypherbench",
]


def file_stem(fmt: str) -> str:
    return fmt.replace(":", "_")


def main() -> None:
    source = load_schema(os.path.join(HERE, "source.json"))
    for fmt in FORMATS:
        first = write(source, fmt, lossy=True)
        fixpoint = write(read(first.text, fmt, name=source.name), fmt).text
        with open(
            os.path.join(HERE, file_stem(fmt) + ".txt"), "w", encoding="utf-8", newline="\n"
        ) as fh:
            fh.write(fixpoint)
        for ext, lines in ((".lost", first.report.lines()), (".notes", first.report.note_lines())):
            with open(
                os.path.join(HERE, file_stem(fmt) + ext), "w", encoding="utf-8", newline="\n"
            ) as fh:
                fh.write("".join(line + "\n" for line in lines))


if __name__ == "__main__":
    main()
