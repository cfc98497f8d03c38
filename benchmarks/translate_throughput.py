"""Translation throughput over the openCypher TCK (or another set of Cypher queries), and a
snapshot of every output.

Every unique valid TCK query is parsed once as Neo4j Cypher; the timed part translates the
parsed queries into each target (``gqlir.api.translate``, with its fold-and-retry), best of
``--repeat`` runs, in CPU time of this process (the machine is shared: wall time is not).
Spanner is written for a graph named ``g`` (its queries must name one). ``--queries FILE``
times a JSON-lines file of ``{"query": …}`` records instead of the TCK:
``benchmarks/data/synth_queries.jsonl`` holds 900 queries ``gqlir synth`` made from the six
example graphs (``schemas/``; n=150 each, seed 7), the questions a Text2GQL dataset asks,
where the TCK is mostly conformance edge cases. ``--snapshot FILE`` writes every output (or
refusal, with its construct and message) as JSON lines, so two versions of the compiler can be compared output by output
(``--compare FILE``).

    python benchmarks/translate_throughput.py                      # iso-gql rate
    python benchmarks/translate_throughput.py --to iso-gql --to neo4j --snapshot /tmp/a.jsonl
    python benchmarks/translate_throughput.py --all --compare /tmp/a.jsonl
    python benchmarks/translate_throughput.py --all --queries benchmarks/data/synth_queries.jsonl
    python benchmarks/translate_throughput.py --to iso-gql --groups   # where the time goes
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

# (GQLIR_TREE: time another checkout of gqlir with this script; see throughput_ab.py)
sys.path.insert(0, os.environ.get("GQLIR_TREE") or str(Path(__file__).resolve().parent.parent))

import gqlir
from gqlir.api import translate
from gqlir.conformance import tck
from gqlir.errors import GqlirError, UnsupportedError

ALL = ("iso-gql", "spanner", "tugraph-gql", "neo4j", "opencypher9", "kuzu", "tugraph-cypher")


def outputs(trees: list[tuple[str, object]], target: str) -> dict[str, str]:
    """Each query's translation into ``target``, or the construct it is refused for."""
    out: dict[str, str] = {}
    options = {"graph": "g"} if target == "spanner" else {}
    for text, tree in trees:
        try:
            out[text] = translate(tree, "neo4j", target, **options)  # type: ignore[arg-type]
        except UnsupportedError as exc:
            out[text] = f"REFUSED {exc.construct}: {exc.message}"
        except GqlirError as exc:
            out[text] = f"ERROR {exc.code}: {exc.message}"
    return out


def groups(trees: list[tuple[str, object]], target: str) -> dict[str, list[tuple[str, object]]]:
    """The queries by how their translation goes (found once, untimed): written at the first
    try, refused at it, or refused and tried again with their constants folded."""
    from gqlir.api import emit

    options = {"graph": "g"} if target == "spanner" else {}
    out: dict[str, list[tuple[str, object]]] = {"at once": [], "refused": [], "folded": []}
    for text, tree in trees:
        tries: list[None] = []

        def writer(query: object, tries: list[None] = tries) -> str:
            tries.append(None)
            return emit(query, target, **options)  # type: ignore[arg-type]

        try:
            translate(tree, "neo4j", target, writer=writer, **options)  # type: ignore[arg-type]
            refused = False
        except GqlirError:
            refused = True
        key = "folded" if len(tries) > 1 else "refused" if refused else "at once"
        out[key].append((text, tree))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tck", help="TCK features directory")
    parser.add_argument("--queries", metavar="FILE", help='JSON lines of {"query": …} to time')
    parser.add_argument("--to", action="append", help="target dialect (repeatable)")
    parser.add_argument("--all", action="store_true", help="every GQL and Cypher target")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs (best is kept)")
    parser.add_argument("--snapshot", metavar="FILE", help="write every output as JSON lines")
    parser.add_argument("--compare", metavar="FILE", help="list outputs that differ from FILE")
    parser.add_argument(
        "--groups",
        action="store_true",
        help="also time apart the queries written at once, refused, and retried folded",
    )
    args = parser.parse_args(argv)
    if args.queries:
        with open(args.queries, encoding="utf-8") as fh:
            texts = [json.loads(line)["query"] for line in fh if line.strip()]
    else:
        tck_dir = args.tck or tck.default_tck_dir()
        if tck_dir is None:
            print("openCypher TCK not found: pass --tck or set GQLIR_TCK_DIR", file=sys.stderr)
            return 2
        texts = list(tck.valid_queries(tck_dir))
    targets = ALL if args.all else tuple(args.to or ("iso-gql",))
    trees = []
    for text in texts:
        try:
            trees.append((text, gqlir.parse(text, "neo4j")))
        except GqlirError:
            continue
    results: dict[str, dict[str, str]] = {}
    for target in targets:
        best = float("inf")
        for _ in range(max(1, args.repeat)):
            started = time.process_time()
            results[target] = outputs(trees, target)
            best = min(best, time.process_time() - started)
        print(f"{target}: {len(trees)} queries in {best:.3f} s, {len(trees) / best:,.0f} queries/s")
        if args.groups:
            for name, members in groups(trees, target).items():
                best = float("inf")
                for _ in range(max(1, args.repeat)):
                    started = time.process_time()
                    outputs(members, target)
                    best = min(best, time.process_time() - started)
                print(f"  {name}: {len(members)} queries in {best:.3f} s")
    if args.snapshot:
        with open(args.snapshot, "w", encoding="utf-8") as fh:
            for target, outs in results.items():
                for text, out in outs.items():
                    fh.write(json.dumps({"to": target, "query": text, "out": out}) + "\n")
    if args.compare:
        differ = 0
        with open(args.compare, encoding="utf-8") as fh:
            for line in fh:
                row = json.loads(line)
                now = results.get(row["to"], {}).get(row["query"])
                if now is not None and now != row["out"]:
                    differ += 1
                    print(f"--- {row['to']}: {row['query']!r}\n  was: {row['out']}\n  now: {now}")
        print(f"{differ} outputs differ from {args.compare}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
