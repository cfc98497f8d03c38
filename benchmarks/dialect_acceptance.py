"""How much of each dialect's documented syntax ``gqlir validate`` accepts (issue 22).

Reads every ``corpus/<name>/*.jsonl`` whose lines carry a ``query`` and a ``valid`` flag (the
queries written from a dialect's own documentation, each with its ``source``), validates each
query in its dialect, and prints one Markdown row per corpus directory: valid queries accepted,
accepted ones that read back to the same IR once written in their own dialect (parse → emit →
parse; with the corpus directory's ``*.schema.json`` where it has one), invalid ones rejected
(each with a position), and the first few misjudged queries with gqlir's verdict. The
acceptance target is 95 % of the valid queries.

A corpus's dialect is the line's ``dialect`` field, else the directory's name when it names a
dialect, else the dialect whose name starts the directory's name before a ``-`` (``sqlpgq-duckpgq``
is read as ``sqlpgq``). A directory without such lines (translation corpora) is left out.

    python benchmarks/dialect_acceptance.py                   # every dialect corpus
    python benchmarks/dialect_acceptance.py --dialect neo4j4 --show 10
    python benchmarks/dialect_acceptance.py --write README.md # the table between the markers
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gqlir import emit, parse, validate  # noqa: E402
from gqlir.dialect import all_dialects, get_dialect  # noqa: E402
from gqlir.errors import GqlirError  # noqa: E402

TARGET = 0.95
START_MARKER = "<!-- dialect-acceptance:start -->"
END_MARKER = "<!-- dialect-acceptance:end -->"
COMMAND = "python benchmarks/dialect_acceptance.py --write README.md"


@dataclass
class Tally:
    valid: int = 0
    accepted: int = 0
    invalid: int = 0
    rejected: int = 0
    identical: int = 0
    misjudged: list[str] = field(default_factory=list)

    def row(self, dialect: str) -> str:
        accepted = f"{self.accepted}/{self.valid} ({_pct(self.accepted, self.valid)})"
        identical = f"{self.identical}/{self.accepted}"
        rejected = f"{self.rejected}/{self.invalid} ({_pct(self.rejected, self.invalid)})"
        ok = "yes" if self.valid and self.accepted >= TARGET * self.valid else "no"
        return f"| {dialect} | {accepted} | {identical} | {rejected} | {ok} |"


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f} %" if whole else "–"


def dialect_of(directory: str) -> str | None:
    """The dialect a corpus directory's queries are written in, by its name (see above)."""
    names = {d.name for d in all_dialects()}
    if directory in names:
        return directory
    try:
        return get_dialect(directory).name
    except (GqlirError, KeyError, ValueError):
        pass  # not a dialect's name: perhaps a dialect's name and a form (sqlpgq-duckpgq)
    prefixes = [n for n in names if directory.startswith(n + "-")]
    return max(prefixes, key=len) if prefixes else None


def corpora() -> list[str]:
    """The corpus directories, in name order."""
    return sorted(p.name for p in (ROOT / "corpus").iterdir() if p.is_dir())


def corpus_entries(directory: str) -> list[dict]:
    """The entries of ``corpus/<directory>/`` that say whether they are valid."""
    out = []
    for path in sorted((ROOT / "corpus" / directory).glob("*.jsonl")):
        with path.open(encoding="utf-8") as fh:
            for line in fh:
                if line.strip():
                    entry = json.loads(line)
                    if isinstance(entry.get("query"), str) and isinstance(entry.get("valid"), bool):
                        out.append(entry)
    return out


def round_trip(query: str, dialect: str, schema: Any = None) -> str | None:
    """None when ``query`` reads back to the same IR once written in ``dialect``; else what
    happened (the text written, or the refusal)."""
    tree = parse(query, dialect)
    try:
        text = emit(tree, dialect, schema=schema) if schema is not None else emit(tree, dialect)
        again = parse(text, dialect)
    except GqlirError as exc:
        return str(exc).splitlines()[0]
    return None if again == tree else f"written {text!r}"


def measure(dialect: str | None, entries: list[dict], schema: Any = None) -> Tally:
    tally = Tally()
    for entry in entries:
        form = str(entry.get("dialect") or dialect)
        result = validate(entry["query"], form)
        if entry["valid"]:
            tally.valid += 1
            tally.accepted += result.valid
            if result.valid:
                changed = round_trip(entry["query"], form, schema)
                tally.identical += changed is None
                if changed is not None:
                    tally.misjudged.append(f"{entry['query']!r}: not the same IR: {changed}")
        else:
            tally.invalid += 1
            # a rejection counts only when it says where the problem is
            placed = result.error is not None and result.error.line is not None
            tally.rejected += not result.valid and placed
        if result.valid != entry["valid"]:
            verdict = "accepted" if result.valid else str(result.error).splitlines()[0]
            tally.misjudged.append(f"{entry['query']!r}: {verdict}")
    return tally


def table(names: list[str] | None = None, show: int = 3) -> tuple[str, list[str]]:
    """The Markdown table over the corpus directories (all, or those of the given dialects or
    directory names) and the misjudged queries of each (at most ``show``)."""
    lines = [
        "| corpus (dialect) | valid queries accepted | accepted ones that read back the same "
        "| invalid queries rejected with a position | ≥ 95 % |",
        "| --- | --- | --- | --- | --- |",
    ]
    notes: list[str] = []
    for directory in corpora():
        dialect = dialect_of(directory)
        if names and directory not in names and dialect not in names:
            continue
        entries = corpus_entries(directory)
        schema = _schema(directory)
        if not entries or (dialect is None and not all(e.get("dialect") for e in entries)):
            continue
        # one row per form where the lines name theirs (sqlpgq:oracle, sqlpgq:duckdb …)
        forms = sorted({str(e.get("dialect") or dialect) for e in entries})
        for form in forms:
            part = [e for e in entries if str(e.get("dialect") or dialect) == form]
            tally = measure(form, part, schema)
            label = directory if directory == form else f"{directory} ({form})"
            lines.append(tally.row(label))
            notes.extend(f"  {form}: {m}" for m in tally.misjudged[:show])
    return "\n".join(lines), notes


def _schema(directory: str) -> Any:
    """The schema a corpus directory ships (corpus/spanner/fingraph.schema.json), if any."""
    found = sorted((ROOT / "corpus" / directory).glob("*.schema.json"))
    if not found:
        return None
    from gqlir.schema import load_schema

    return load_schema(str(found[0]))


def write(path: Path, text: str) -> int:
    """Replace the section between the markers of ``path`` with ``text``; 2 when the file or
    its markers are missing (they are never invented)."""
    if not path.is_file():
        print(f"{path}: no such file", file=sys.stderr)
        return 2
    content = path.read_text(encoding="utf-8")
    start, end = content.find(START_MARKER), content.find(END_MARKER)
    if start < 0 or end < start:
        print(f"{path}: markers {START_MARKER} ... {END_MARKER} not found", file=sys.stderr)
        return 2
    section = f"{START_MARKER}\n<!-- produced by: {COMMAND} -->\n{text}\n"
    path.write_text(content[:start] + section + content[end:], encoding="utf-8")
    print(f"{path}: dialect acceptance table written")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dialect", action="append", help="only this dialect or corpus")
    parser.add_argument("--show", type=int, default=3, help="misjudged queries shown per corpus")
    parser.add_argument("--write", type=Path, metavar="FILE", help="write the table into FILE")
    args = parser.parse_args(argv)
    text, notes = table(args.dialect, args.show)
    print(text)
    if notes:
        print("\nmisjudged:")
        print("\n".join(notes))
    if args.write is not None:
        return write(args.write, text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
