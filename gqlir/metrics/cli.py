"""``gqlir eval``: the evaluation harness on the command line.

Exit codes: 0 the run finished (every item scored, or ``--limit`` reached), 1 the run failed
(unreadable input, engine or graph problem, an output folder of other settings); a wrong
prediction is a score, never an error.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from ..budget import memory_size
from ..errors import GqlirError
from ..progress import ProgressLine, report_failure

__all__ = ["add_commands", "cmd_eval"]

_EPILOG = """\
examples:
  gqlir eval --gold tests/data/eval/gold.jsonl --pred tests/data/eval/pred.jsonl \\
      --engine reference --graph schemas/movies --out runs/movies
  gqlir eval --gold cypherbench_test.json --pred result.json --engine neo4j \\
      --url bolt://localhost:7687 --preset cypherbench --out runs/cb
  gqlir eval --gold text2gql_test.json --pred cypher_zeroshot_g.json --dialect iso-gql \\
      --engine reference --graph g/ --preset text2gql-bench --level level_1 --out runs/t2g

Writes OUT/results.jsonl (one record per item, appended as items finish; rerunning the same
command resumes), OUT/summary.json, OUT/summary.md and OUT/report.html. Presets: default
(gqlir's scores), text2gql-bench[@driver], text2gql-bench@driver-spanner,
text2gql-bench@contrib-spanner, text2gql-bench@contrib-tugraph, text2gql-bench@e5fc112a,
cypherbench[@7c9c68dd] (each benchmark's own numbers). Policies: default, set, bag,
ordered-if-gold, ordered-if-either, test-suite, text2gql, text2gql@spanner,
text2gql-spanner, text2gql-tugraph, text2gql@e5fc112a, cypherbench (docs/metrics.md defines
each).
"""


def add_commands(sub: Any) -> None:
    """Add ``eval`` to the ``gqlir`` subcommands."""
    from .formats import FORMATS, TEXT2GQL_LEVELS
    from .presets import PRESETS

    p = sub.add_parser(
        "eval",
        help="score predicted queries against gold queries (EX, PSJS, grammar, BLEU …)",
        description="Run gold and predicted queries read-only on an engine and compute every "
        "metric, with breakdowns and an HTML report.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--gold", required=True, metavar="GOLD", help="gold items (JSONL or JSON)")
    p.add_argument("--pred", required=True, metavar="PRED", help="predictions (JSONL, JSON, .txt)")
    p.add_argument("-o", "--out", required=True, metavar="DIR", help="output folder")
    p.add_argument("-e", "--engine", default="reference", metavar="E", help="engine (reference)")
    p.add_argument("-d", "--dialect", metavar="D", help="dialect of items that name none (neo4j)")
    p.add_argument(
        "-g", "--graph", metavar="DIR", help="graph folder to load (schema.json, graph/)"
    )
    p.add_argument(
        "--graph-name",
        metavar="NAME",
        help="the graph Spanner queries without a GRAPH clause read (Text2GQL-Bench's driver "
        "adds GRAPH NAME to its Spanner corpora)",
    )
    p.add_argument(
        "--timeout",
        type=float,
        metavar="S",
        help="per query (default: 30 s for gold queries, a prediction 10x its gold's time, "
        "at least 1 s)",
    )
    p.add_argument(
        "--max-memory",
        type=memory_size,
        metavar="SIZE",
        help="memory budget of each engine worker, e.g. 2G or 512M (a quarter of the "
        "machine's memory, shared by the jobs)",
    )
    p.add_argument("--row-cap", type=int, default=100_000, metavar="N", help="rows read per query")
    p.add_argument("-j", "--jobs", type=int, default=1, metavar="N", help="worker processes (1)")
    p.add_argument(
        "--preset",
        default="default",
        choices=tuple(PRESETS),
        help="whose scores: gqlir's (default) or a benchmark's, to the last digit",
    )
    p.add_argument("--policy", metavar="P", help="EX policy (default: the preset's)")
    p.add_argument(
        "--grammar",
        choices=("strict", "text2gql", "benchmark"),
        help="grammar convention (default: the preset's)",
    )
    p.add_argument("--format", dest="gold_format", default="auto", choices=FORMATS)
    p.add_argument(
        "--gold-field",
        metavar="KEY",
        help="the key of a Text2GQL-Bench record holding the gold query (as the contrib "
        "scripts' --gold-field / --gold-key; default: the first key the Driver tries)",
    )
    p.add_argument("--pred-format", default="auto", choices=FORMATS)
    p.add_argument(
        "--level",
        action="append",
        choices=TEXT2GQL_LEVELS,
        help="Text2GQL-Bench question level(s) to score (default: initial)",
    )
    p.add_argument("--no-psjs", action="store_true", help="skip provenance (PSJS) queries")
    p.add_argument("--psjs-edges", action="store_true", help="PSJS over nodes and edges")
    p.add_argument("--limit", type=int, metavar="N", help="score at most N new items, then stop")
    p.add_argument("--fresh", action="store_true", help="discard earlier results in OUT")
    p.add_argument(
        "--export", choices=("cypherbench", "text2gql", "ngdbench"), help="also write this layout"
    )
    for name, text in (
        ("--url", "server address"),
        ("--user", "user name"),
        ("--password", "password"),
        ("--database", "database"),
        ("--path", "database folder of an embedded engine"),
    ):
        p.add_argument(name, metavar="X", help=text)
    p.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")
    p.add_argument("--json", action="store_true", help="print the run summary as JSON")
    p.add_argument("--debug", action="store_true", help="let internal errors raise")
    p.set_defaults(handler=cmd_eval)


def _engine_options(args: argparse.Namespace) -> dict[str, Any]:
    keys = ("url", "user", "password", "database", "path")
    opts = {k: getattr(args, k) for k in keys if getattr(args, k) is not None}
    if args.engine in ("spanner",) and "url" in opts:
        opts["endpoint"] = opts.pop("url")
    return opts


def _progress(line: ProgressLine) -> Any:
    def show(done: int, total: int) -> None:
        line.show(f"gqlir eval: {done}/{total}")

    return show


def cmd_eval(args: argparse.Namespace) -> int:
    from .harness import EvalConfig, run_evaluation
    from .report import format_table

    config = EvalConfig(
        gold=args.gold,
        pred=args.pred,
        out=args.out,
        engine=args.engine,
        engine_options=_engine_options(args),
        dialect=args.dialect,
        graph=args.graph,
        graph_name=args.graph_name,
        timeout=args.timeout,
        max_memory=args.max_memory,
        row_cap=args.row_cap,
        jobs=args.jobs,
        policy=args.policy,
        grammar=args.grammar,
        preset=args.preset,
        gold_format=args.gold_format,
        pred_format=args.pred_format,
        levels=tuple(args.level or ("initial",)),
        gold_field=args.gold_field,
        psjs=not args.no_psjs,
        psjs_edges=args.psjs_edges,
        limit=args.limit,
        fresh=args.fresh,
        export=args.export,
    )
    line = ProgressLine(args.quiet)
    try:
        run = run_evaluation(config, _progress(line))
    except GqlirError as exc:
        line.end()
        return report_failure("eval", exc, as_json=args.json)
    line.end()
    if args.json:
        data = run.to_dict()
        print(json.dumps(data, ensure_ascii=False, default=str))
    else:
        print(format_table(run.summary))
        state = "complete" if run.complete else "partial (rerun to resume)"
        print(
            f"{run.total} items: {run.resumed} held from before, {run.evaluated} scored now, "
            f"{run.gold_cache_hits} gold results from the cache; {state}; {run.seconds:.1f} s; "
            f"report: {run.out}/report.html"
        )
    return 0
