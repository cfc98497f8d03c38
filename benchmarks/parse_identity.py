"""Fingerprint every parse of a corpus, so a parser change can be shown to change no output.

Reads the corpus benchmark's distinct Cypher queries, the TCK's error queries and the
repository's GQL corpora, plus two damaged forms of each text (cut in the middle, and with a
stray ``)`` after its first word) so that errors are covered as well as parses. Each text is
parsed in each graph dialect (6 Cypher, 3 GQL) and recorded as the IR's JSON form (positions
included) or the error's class, code, message, offset and expected list.

    python benchmarks/parse_identity.py --write /tmp/before.jsonl
    python benchmarks/parse_identity.py --check /tmp/before.jsonl   # exit 1 on any difference
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

DIALECTS = (
    "neo4j",
    "neo4j4",
    "opencypher9",
    "falkordb",
    "kuzu",
    "tugraph-cypher",
    "iso-gql",
    "spanner",
    "tugraph-gql",
)

# (corpus file, fields that may hold query text)
GQL_SOURCES = (
    "corpus/iso-gql/docs.jsonl",
    "corpus/spanner/docs.jsonl",
    "corpus/tugraph-gql/docs.jsonl",
    "corpus/gql/from_cypher.jsonl",
    "corpus/gql/from_iso_gql.jsonl",
    "corpus/gql/rewrites.jsonl",
)
TEXT_FIELDS = ("query", "source", "gql", "expected", "target", "text", "cypher")


def texts() -> list[str]:
    """Every distinct text of the mix, with its damaged forms, in a fixed order."""
    from corpus import distinct_queries, records
    from gqlir.conformance import tck

    seen: dict[str, None] = dict.fromkeys(distinct_queries())
    tck_dir = tck.default_tck_dir()
    if tck_dir is not None:
        seen.update(dict.fromkeys(tck.error_queries(tck_dir)))
    for name in GQL_SOURCES:
        for record in records(name):
            for key in TEXT_FIELDS:
                value = record.get(key)
                if isinstance(value, str) and value.strip():
                    seen[value] = None
    out: dict[str, None] = {}
    for text in seen:
        out[text] = None
        out[text[: len(text) // 2]] = None
        head, sep, tail = text.partition(" ")
        out[f"{head} ){sep}{tail}"] = None
    return list(out)


def outcome(text: str, dialect: str) -> str:
    """The parse's JSON form, or the error's parts."""
    import gqlir
    from gqlir.errors import GqlirError

    try:
        tree = gqlir.parse(text, dialect)
    except GqlirError as exc:
        expected = list(getattr(exc, "expected", ()))
        parts = [type(exc).__name__, exc.code, exc.message, exc.offset, expected]
        return json.dumps({"error": parts}, ensure_ascii=False)
    try:
        return tree.to_json()
    except Exception as exc:  # a tree without a JSON form: its repr (no positions) then
        return json.dumps({"repr": repr(tree), "no_json": type(exc).__name__})


def records() -> Iterator[dict[str, object]]:
    corpus = texts()
    for dialect in DIALECTS:
        for i, text in enumerate(corpus):
            yield {"dialect": dialect, "i": i, "out": outcome(text, dialect)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    group = ap.add_mutually_exclusive_group(required=True)
    group.add_argument("--write", metavar="FILE", help="record every outcome")
    group.add_argument("--check", metavar="FILE", help="compare with a recorded run")
    args = ap.parse_args(argv)
    digest = hashlib.sha256()
    count = errors = 0
    if args.write:
        with open(args.write, "w", encoding="utf-8") as fh:
            for rec in records():
                line = json.dumps(rec, ensure_ascii=False)
                fh.write(line + "\n")
                digest.update(line.encode())
                count += 1
                errors += '"error"' in str(rec["out"])[:10]
        print(f"{count:,} outcomes ({errors:,} errors), sha256 {digest.hexdigest()[:16]}")
        return 0
    differences = 0
    with open(args.check, encoding="utf-8") as fh:
        recorded = (json.loads(line) for line in fh)
        for old, new in zip(recorded, records(), strict=True):
            count += 1
            if old != new:
                differences += 1
                if differences <= 10:
                    print(f"DIFF {old['dialect']} #{old['i']}:\n  was {old['out'][:400]}")
                    print(f"  now {new['out'][:400]}")
    print(f"{count:,} outcomes compared, {differences:,} differ")
    return 1 if differences else 0


if __name__ == "__main__":
    raise SystemExit(main())
