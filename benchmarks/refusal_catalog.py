"""The refusal catalogue (docs/refusals.md): every construct id the translators refuse when the
openCypher TCK's valid queries are written in each target, with how often, an example message
and the targets that refuse it.

    python benchmarks/refusal_catalog.py                 # print the table
    python benchmarks/refusal_catalog.py --write docs/refusals.md

tests/test_refusals.py checks that each id met by the golden translation corpus is listed.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import gqlir
from gqlir.conformance import tck
from gqlir.errors import GqlirError, UnsupportedError

TARGETS = (
    "opencypher9", "iso-gql", "spanner", "tugraph-gql", "tugraph-cypher", "kuzu", "falkordb",
    "sql:sqlite", "sql:duckdb", "sql:postgres",
)  # fmt: skip
MARK = "<!-- refusal catalogue: python benchmarks/refusal_catalog.py --write docs/refusals.md -->"
HEAD = """# Refusals

A translation that cannot keep a query's meaning in its target refuses it with an
`UnsupportedError`. Its `construct` says in words what is refused; its `id` (here) is the stable
name for reports and tools, the same whichever target or emitter refuses it
(`gqlir.refusals.refusal_id`). `exc.all_refusals()` lists every refused construct of a query, not
only the first, and `gqlir translate` prints them all.

The table lists the ids met when the openCypher TCK's valid queries are written in each target
(count: refusals over all targets; SQL targets read a table per label, without `--schema`).
"""


def catalogue() -> dict[str, tuple[Counter[str], str]]:
    """id -> (refusals per target, an example construct and message)."""
    queries = tck.valid_queries(tck.default_tck_dir())
    found: dict[str, Counter[str]] = defaultdict(Counter)
    example: dict[str, str] = {}
    for target in TARGETS:
        options = {"graph": "g"} if target in ("spanner", "iso-gql", "tugraph-gql") else {}
        for text in queries:
            try:
                gqlir.transpile(text, "neo4j", target, **options)  # type: ignore[arg-type]
            except UnsupportedError as exc:
                found[exc.id][target] += 1
                example.setdefault(exc.id, f"{exc.construct}: {exc.message.splitlines()[0]}")
            except GqlirError:
                continue
    return {k: (found[k], example[k]) for k in sorted(found)}


def table(cat: dict[str, tuple[Counter[str], str]]) -> str:
    lines = ["| id | refusals | targets | example |", "|---|---|---|---|"]
    for key, (per_target, text) in cat.items():
        targets = ", ".join(sorted(per_target))
        cell = text.replace("|", "\\|")
        lines.append(f"| `{key}` | {sum(per_target.values())} | {targets} | {cell} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", metavar="FILE", help="write the catalogue page")
    args = parser.parse_args()
    text = table(catalogue())
    if args.write:
        Path(args.write).write_text(f"{HEAD}\n{MARK}\n\n{text}", encoding="utf-8")
    else:
        print(text, end="")


if __name__ == "__main__":
    main()
