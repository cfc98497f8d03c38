"""``gqlir synth``: build a verified text-to-query dataset from schemas and their graphs.

Exit codes: 0 the dataset was written, 1 the run failed (bad schema or graph, engine problem,
an output folder holding a run of other settings), 130 interrupted (rerun the same command to
continue where it stopped).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from ..errors import GqlirError
from ..progress import ProgressLine, report_failure
from ..schema.folders import resolve_graph_folder
from .errors import SynthError

__all__ = ["add_commands", "cmd_synth"]

_EPILOG = """\
examples:
  gqlir synth --graph schemas/finance --n 1000 --seed 7 --out data/finance
  gqlir synth --graph schemas/movies --graph schemas/social --graph schemas/bookstore \\
      --templates cypherbench,ngdbench,extras --n 500 --out data/three
  gqlir synth --graph g/ --schema s.json --mix difficulty=easy:1,medium:1,hard:1,extra-hard:1 \\
      --out data/mixed
  gqlir synth --graph schemas/movies --n 100 --verify-engine neo4j=bolt://127.0.0.1:7687 \\
      --out data/movies

Every text is run on its dialect's engine (kuzu on Kuzu, iso-gql, neo4j and opencypher9 on
grafeo, sql:sqlite on SQLite, sql on DuckDB, spanner through ZetaSQL and the reference
evaluator); each item records which engine confirmed its answer per dialect.

Writes OUT/items.jsonl (and items.parquet), OUT/README.md (the dataset card), OUT/splits/,
OUT/exports/ (Text2GQL-Bench, CypherBench, NGDBench layouts), OUT/plots/. An interrupted run
keeps its state in OUT/.partial/: the same command continues it. Set GQLIR_LLM_URL and
GQLIR_LLM_MODEL (and GQLIR_LLM_KEY) to add verified LLM paraphrases.
"""


def add_commands(sub: Any) -> None:
    """Add ``synth`` to the ``gqlir`` subcommands."""
    p = sub.add_parser(
        "synth",
        help="synthesize verified (question, query) pairs in every dialect from a graph",
        description="Instantiate query templates on a schema and its graph, verify every "
        "query on an engine, and write a labelled dataset in every dialect.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "--graph",
        action="append",
        metavar="G",
        help="graph folder (schema.json and graph/, as in schemas/); repeat for several",
    )
    p.add_argument(
        "--schema",
        action="append",
        metavar="S",
        help="schema file or graph folder, instead of the graph folder's own; repeat for several",
    )
    p.add_argument("-e", "--engine", default="reference", metavar="E", help="engine (reference)")
    p.add_argument(
        "--templates",
        default="cypherbench,ngdbench,extras",
        metavar="LIBS",
        help="template libraries or .toml files, comma-separated",
    )
    p.add_argument("--n", type=int, default=1000, metavar="N", help="items per schema (1000)")
    p.add_argument("--seed", type=int, default=7, metavar="N", help="random seed (7)")
    p.add_argument("-o", "--out", required=True, metavar="DIR", help="output folder")
    p.add_argument("--dialects", metavar="LIST", help="dialects to write, comma-separated")
    p.add_argument("--timeout", type=float, default=2.0, metavar="S", help="per query (2 s)")
    p.add_argument("--max-rows", type=int, default=50, metavar="N", help="drop above (50)")
    p.add_argument("--allow-empty", action="store_true", help="keep queries with no rows")
    p.add_argument("--dedup-results", action="store_true", help="one item per template+result")
    p.add_argument("--mix", action="append", metavar="KEY=NAME:W,…", help="target mix")
    p.add_argument(
        "--verify-engine",
        action="append",
        metavar="D=E",
        help="the engine that runs dialect D's texts: an engine name, a URL (neo4j=bolt://…), "
        "neo4j=local (scripts/neo4j-local) or none; repeat for several (defaults: docs/synth.md)",
    )
    p.add_argument("--no-verify", action="store_true", help="run no text on its dialect's engine")
    p.add_argument(
        "--keep-disagreements",
        action="store_true",
        help="keep items an engine disagrees with, marked (dropped and counted by default)",
    )
    p.add_argument("--fresh", action="store_true", help="discard an unfinished run in OUT")
    p.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        help="no progress on stderr (on a terminal a live line; elsewhere one summary line)",
    )
    p.add_argument("--json", action="store_true", help="print the run's statistics as JSON")
    p.set_defaults(handler=cmd_synth)


def _progress(line: ProgressLine) -> Any:
    start = time.monotonic()

    def show(schema: str, state: Any, n: int) -> None:
        rate = state.accepted / max(time.monotonic() - start, 1e-9) * 60
        line.show(
            f"gqlir synth: {schema} {state.accepted}/{n} items, "
            f"{state.attempts} candidates, {rate:.0f} items/min"
        )

    return show


def _schemas_and_graphs(
    schemas: list[str], graphs: list[str]
) -> tuple[list[str], list[str | None]]:
    """Pairs of (schema, graph data directory): every ``--graph`` is a graph folder whose own
    schema is used unless ``--schema`` names one (in the same order)."""
    if not schemas and not graphs:
        raise SynthError("give --graph (a graph folder, as in schemas/) or --schema")
    if len(schemas) > len(graphs) and graphs:
        raise SynthError("give one --graph per --schema, or graph folders alone")
    folders = [resolve_graph_folder(g, s) for g, s in zip(graphs, schemas + [None] * len(graphs))]
    if not schemas:
        return [f.require_schema() for f in folders], [f.data for f in folders]
    return schemas, [f.data for f in folders]


def _confirmations(items: list[dict[str, Any]], stats: dict[str, Any], dialects: list[str]) -> str:
    """One line: per dialect, the texts its engine confirmed (and disagreements)."""
    from .card import verification

    parts = []
    for d, row in verification(items, stats, dialects).items():
        if row["engine"] == "none":
            parts.append(f"{d} -")
            continue
        texts = sum(row[s] for s in ("confirmed", "disagrees", "engine error", "no engine"))
        part = f"{d} {row['confirmed']}/{texts} ({row['engine']})"
        dropped = row["dropped for disagreement"] + row["disagrees"]
        parts.append(part + (f", {dropped} disagreed" if dropped else ""))
    return "confirmed on their engines: " + ", ".join(parts)


def cmd_synth(args: argparse.Namespace) -> int:
    from .config import SynthConfig, parse_mix
    from .emitting import DEFAULT_DIALECTS
    from .run import synthesize

    line = ProgressLine(args.quiet)
    try:
        mix: dict[str, dict[str, float]] = {}
        for text in args.mix or ():
            mix.update(parse_mix(text))
        schemas, graphs = _schemas_and_graphs(args.schema or [], args.graph or [])
        config = SynthConfig(
            schemas=schemas,
            graphs=graphs,
            engine=args.engine,
            libraries=[x.strip() for x in args.templates.split(",") if x.strip()],
            n=args.n,
            seed=args.seed,
            dialects=args.dialects.split(",") if args.dialects else list(DEFAULT_DIALECTS),
            timeout=args.timeout,
            max_rows=args.max_rows,
            allow_empty=args.allow_empty,
            dedup_results=args.dedup_results,
            mix=mix,
            verify_engines=list(args.verify_engine or ()),
            verify=not args.no_verify,
            keep_disagreements=args.keep_disagreements,
        )
        items, stats = synthesize(config, args.out, fresh=args.fresh, progress=_progress(line))
    except GqlirError as exc:
        line.end()
        return report_failure("synth", exc, as_json=args.json)
    line.end()
    if args.json:
        print(json.dumps({"items": len(items), **stats}, ensure_ascii=False, default=str))
    else:
        for name, why in stats.get("not_written", {}).items():
            print(f"gqlir synth: {name} is not written: {why}", file=sys.stderr)
        per = ", ".join(f"{k}: {v['items']}" for k, v in sorted(stats["schemas"].items()))
        print(f"{len(items)} verified items ({per}); dataset card: {args.out}/README.md")
        print(_confirmations(items, stats, config.dialects))
    return 0
