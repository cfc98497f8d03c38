"""How much of each dialect's documented syntax ``gqlir validate`` accepts (issue 22).

Reads every ``corpus/<dialect>/*.jsonl`` whose directory names a dialect and whose lines carry a
``query`` and a ``valid`` flag (the queries written from that dialect's own documentation, each
with its ``source``), validates each query in that dialect, and prints one Markdown row per
dialect: valid queries accepted, invalid ones rejected (each with a position), and the first few
misjudged queries with gqlir's verdict. The acceptance target is 95 % of the valid queries.

    python benchmarks/dialect_acceptance.py                   # every dialect corpus
    python benchmarks/dialect_acceptance.py --dialect neo4j4 --show 10
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gqlir import validate  # noqa: E402
from gqlir.dialect import all_dialects  # noqa: E402

TARGET = 0.95


@dataclass
class Tally:
    valid: int = 0
    accepted: int = 0
    invalid: int = 0
    rejected: int = 0
    misjudged: list[str] = field(default_factory=list)

    def row(self, dialect: str) -> str:
        accepted = f"{self.accepted}/{self.valid} ({_pct(self.accepted, self.valid)})"
        rejected = f"{self.rejected}/{self.invalid} ({_pct(self.rejected, self.invalid)})"
        ok = "yes" if self.valid and self.accepted >= TARGET * self.valid else "no"
        return f"| {dialect} | {accepted} | {rejected} | {ok} |"


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f} %" if whole else "–"


def corpus_entries(dialect: str) -> list[dict]:
    """The entries of ``corpus/<dialect>/`` that say whether they are valid."""
    out = []
    for path in sorted((ROOT / "corpus" / dialect).glob("*.jsonl")):
        with path.open(encoding="utf-8") as fh:
            for line in fh:
                if line.strip():
                    entry = json.loads(line)
                    if isinstance(entry.get("query"), str) and isinstance(entry.get("valid"), bool):
                        out.append(entry)
    return out


def measure(dialect: str, entries: list[dict]) -> Tally:
    tally = Tally()
    for entry in entries:
        result = validate(entry["query"], dialect)
        if entry["valid"]:
            tally.valid += 1
            tally.accepted += result.valid
        else:
            tally.invalid += 1
            # a rejection counts only when it says where the problem is
            placed = result.error is not None and result.error.line is not None
            tally.rejected += not result.valid and placed
        if result.valid != entry["valid"]:
            verdict = "accepted" if result.valid else str(result.error).splitlines()[0]
            tally.misjudged.append(f"{entry['query']!r}: {verdict}")
    return tally


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dialect", action="append", help="only this dialect (repeatable)")
    parser.add_argument("--show", type=int, default=3, help="misjudged queries shown per dialect")
    args = parser.parse_args(argv)
    names = args.dialect or [d.name for d in all_dialects()]
    print("| dialect | valid queries accepted | invalid queries rejected | ≥ 95 % |")
    print("| --- | --- | --- | --- |")
    notes = []
    for name in names:
        entries = corpus_entries(name)
        if not entries:
            continue
        tally = measure(name, entries)
        print(tally.row(name))
        notes.extend(f"  {name}: {m}" for m in tally.misjudged[: args.show])
    if notes:
        print("\nmisjudged:")
        print("\n".join(notes))
    return 0


if __name__ == "__main__":
    sys.exit(main())
