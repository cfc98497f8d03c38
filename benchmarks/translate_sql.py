"""SQL → graph translation on gqlir's SQL test set (corpus/sql/*.jsonl), checked on data.

Every query runs on SQLite (the schema folder's data loaded through its relational mapping);
its IR runs on the reference evaluator over the same graph; its Cypher (neo4j) and ISO GQL
translations are read back in their dialects and evaluated again; the IR is written back as
SQLite SQL and run on the database. Printed: how many queries translate, the refusals by
construct, and how many results agree with SQLite's per target.

    python benchmarks/translate_sql.py                 # the figures
    python benchmarks/translate_sql.py --show          # also every disagreement and error
    python benchmarks/translate_sql.py --json out.json # every verdict, as data

The comparison uses gqlir's reference evaluator for the graph side (engine adapters for
embedded graph databases are separate work); values are compared after normalisation (numbers
to 6 decimal places, booleans as SQLite's 0/1), as bags unless the entry is ordered.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gqlir.sqlcorpus import ROUND_TRIP, TARGETS, Verdict, check_all, read_corpus

ROOT = Path(__file__).resolve().parent.parent


def summarise(verdicts: list[Verdict]) -> dict:
    total = len(verdicts)
    translated = [v for v in verdicts if v.status == "translated"]
    refused = Counter(v.construct for v in verdicts if v.status == "unsupported")
    errors = [v for v in verdicts if v.status == "error"]
    per_target = {}
    keys = ["ir", *TARGETS, ROUND_TRIP]
    for v in verdicts:
        keys += [k for k in v.agree if k not in keys]
    for target in keys:
        agree = sum(1 for v in translated if v.agree.get(target) is True)
        disagree = sum(1 for v in translated if v.agree.get(target) is False)
        refusals = Counter(
            str(v.agree[target]).split(": ", 1)[-1]
            for v in translated
            if isinstance(v.agree.get(target), str)
            and str(v.agree[target]).startswith("unsupported")
        )
        engine_errors = Counter(
            str(v.agree[target]).split(": ", 1)[-1][:80]
            for v in translated
            if isinstance(v.agree.get(target), str)
            and str(v.agree[target]).startswith("engine error")
        )
        failed = sum(
            1
            for v in translated
            if isinstance(v.agree.get(target), str)
            and not str(v.agree[target]).startswith(("unsupported", "engine error"))
        )
        per_target[target] = {
            "written": agree + disagree + failed,
            "agree": agree,
            "disagree": disagree,
            "failed": failed,
            "refused": dict(refusals),
            "engine_errors": dict(engine_errors),
        }
    both = sum(1 for v in translated if all(v.agree.get(t) is True for t in ("ir", *TARGETS)))
    return {
        "queries": total,
        "schemas": len({v.entry.schema for v in verdicts}),
        "translated": len(translated),
        "translated_rate": len(translated) / total if total else 0.0,
        "to_all_graph_targets": both,
        "refused": dict(refused),
        "errors": [v.entry.id for v in errors],
        "unexpected": [v.entry.id for v in verdicts if not v.as_expected],
        "targets": per_target,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", default=str(ROOT / "corpus" / "sql"))
    parser.add_argument("--show", action="store_true", help="list disagreements and errors")
    parser.add_argument("--json", metavar="FILE", help="write every verdict as JSON")
    parser.add_argument(
        "--engines",
        default="grafeo,arcadedb",
        help="embedded graph engines that also run the Cypher and GQL translations, "
        "comma-separated ('' for none; default: grafeo,arcadedb: grafeo runs ISO GQL and "
        "Cypher, ArcadeDB a Neo4j-compatible Cypher)",
    )
    args = parser.parse_args(argv)
    engines = tuple(x for x in args.engines.split(",") if x)

    start = time.perf_counter()
    verdicts = check_all(read_corpus(args.corpus), engines=engines)
    elapsed = time.perf_counter() - start
    s = summarise(verdicts)
    n = s["queries"]
    print(f"SQL test set: {n} queries over {s['schemas']} schemas ({elapsed:.1f} s)")
    print(
        f"translated to the IR: {s['translated']}/{n} ({100 * s['translated_rate']:.1f} %); "
        f"to the IR and both graph targets with the same results: {s['to_all_graph_targets']}/{n}"
        f" ({100 * s['to_all_graph_targets'] / n:.1f} %)"
    )
    print("refused (UnsupportedError) by construct:")
    for construct, count in sorted(s["refused"].items(), key=lambda kv: (-kv[1], kv[0])):
        print(f"  {count:3d}  {construct}")
    print("agreement with SQLite, per target (of the translated queries):")
    labels = {
        "ir": "IR on the reference evaluator",
        "neo4j": "Cypher (neo4j), read back, evaluated",
        "iso-gql": "ISO GQL, read back, evaluated",
        ROUND_TRIP: "SQL again (sql:sqlite), on SQLite",
    }
    for target, t in s["targets"].items():
        refused = ", ".join(f"{c} {k}" for k, c in sorted(t["refused"].items())) or "none"
        label = labels.get(target)
        if label is None:
            text, engine = target.split("@")
            label = f"{'Cypher' if text == 'neo4j' else 'ISO GQL'} on {engine}"
        line = (
            f"  {label:40s} {t['agree']:3d} agree, {t['disagree']} disagree, {t['failed']} failed"
        )
        if "@" in target:
            errors = sum(t["engine_errors"].values())
            line += f", {errors} engine errors"
        else:
            line += f"; refused: {refused}"
        print(line)
    for target, t in s["targets"].items():
        for message, count in sorted(t["engine_errors"].items(), key=lambda kv: -kv[1]):
            print(f"    {target}: {count} x {message}")
    if s["errors"]:
        print(f"errors (bugs): {', '.join(s['errors'])}")
    if s["unexpected"]:
        print(f"not as the corpus expects: {', '.join(s['unexpected'])}")
    if args.show:
        for v in verdicts:
            bad = {
                k: x
                for k, x in v.agree.items()
                if x is not True and not str(x).startswith("unsupported")
            }
            if bad or v.status == "error":
                print(f"\n{v.entry.id}: {v.entry.sql}\n  {v.status} {v.message or ''} {bad}")
    if args.json:
        Path(args.json).write_text(
            json.dumps({"summary": s, "verdicts": [v.to_dict() for v in verdicts]}, indent=1)
        )
    ok = (
        not s["errors"]
        and not s["unexpected"]
        and all(
            t["disagree"] == 0 and t["failed"] == 0
            for name, t in s["targets"].items()
            if "@" not in name  # an engine's own quirks are reported, not failures of gqlir
        )
    )
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
