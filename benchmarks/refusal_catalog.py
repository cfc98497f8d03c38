"""The refusal catalogue (docs/refusals.md): every construct id the translators refuse when the
openCypher TCK's valid queries are written in each target, with how often, an example message,
the targets that refuse it, and per target the rewrite the refusal carries or, where no rewrite
keeps the meaning, why (gqlir/refusal_notes.py).

    python benchmarks/refusal_catalog.py                 # print the table
    python benchmarks/refusal_catalog.py --write docs/refusals.md

tests/test_refusals.py checks that each id met by the golden translation corpus is listed and
that every id has a rewrite or a reason.
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
from gqlir.refusal_notes import why_none

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
The last column gives, per target, the rewrite the refusal suggests (`rewrite:`, also in the
error's `rewrite` field) or why no rewrite keeps the meaning (`none:`); both come from where
the refusal is raised or from `gqlir/refusal_notes.py`. A construct gqlir can write itself with
the same meaning is not refused at all (the lowering passes in `gqlir/passes/`).
"""

#: The text of a catalogue row with neither a rewrite nor a reason (tests fail on it).
MISSING = "MISSING: add a rewrite or a reason to gqlir/refusal_notes.py"


Entry = tuple[Counter[str], str, dict[str, str]]


def catalogue() -> dict[str, Entry]:
    """id -> (refusals per target, an example construct and message, per target the rewrite
    or why there is none)."""
    queries = tck.valid_queries(tck.default_tck_dir())
    found: dict[str, Counter[str]] = defaultdict(Counter)
    example: dict[str, str] = {}
    notes: dict[str, dict[str, str]] = defaultdict(dict)
    for target in TARGETS:
        options = {"graph": "g"} if target in ("spanner", "iso-gql", "tugraph-gql") else {}
        for text in queries:
            try:
                gqlir.transpile(text, "neo4j", target, **options)  # type: ignore[arg-type]
            except UnsupportedError as exc:
                found[exc.id][target] += 1
                message = exc.message.splitlines()[0].split(" (rewrite: ")[0]
                example.setdefault(exc.id, f"{exc.construct}: {message}")
                if exc.rewrite:
                    notes[exc.id].setdefault(target, f"rewrite: {exc.rewrite}")
            except GqlirError:
                continue
    for key, per_target in found.items():
        for target in per_target:
            reason = why_none(key, target)
            notes[key].setdefault(target, f"none: {reason}" if reason else MISSING)
    return {k: (found[k], example[k], notes[k]) for k in sorted(found)}


def note_cell(notes: dict[str, str]) -> str:
    """The targets' notes, those with the same text together (the targets named unless all
    share one text)."""
    by_text: dict[str, list[str]] = defaultdict(list)
    for target in sorted(notes):
        by_text[notes[target]].append(target)
    if len(by_text) == 1:
        return next(iter(by_text))
    return "; ".join(f"{', '.join(ts)}: {text}" for text, ts in by_text.items())


def table(cat: dict[str, Entry]) -> str:
    lines = [
        "| id | refusals | targets | example | rewrite / why none |",
        "|---|---|---|---|---|",
    ]
    for key, (per_target, text, notes) in cat.items():
        targets = ", ".join(sorted(per_target))
        cell = text.replace("|", "\\|")
        note = note_cell(notes).replace("|", "\\|")
        lines.append(f"| `{key}` | {sum(per_target.values())} | {targets} | {cell} | {note} |")
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
