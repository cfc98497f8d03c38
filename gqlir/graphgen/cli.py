"""``gqlir graph generate | perturb | restore | answers | sessions | replay | score``: the graph
construction commands, added to the ``graph`` command group by :func:`add_commands`."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Any

from ..progress import ProgressLine
from ..schema.folders import resolve_graph_folder
from .errors import GraphGenError

_FORMATTER = argparse.RawDescriptionHelpFormatter

_GENERATE_EPILOG = """\
examples:
  gqlir graph generate --schema schemas/finance --edges 100000 --seed 7 --out /tmp/fin
  gqlir graph generate --schema schemas/movies --config movies-gen.json --out /tmp/movies
  gqlir graph generate --schema S --config /tmp/fin/graphgen.json --out /tmp/fin2  # same bytes

The output directory holds the graph (nodes.jsonl and edges.jsonl, or nodes/ and edges/ CSV
files), schema.json, graphgen.json (every choice and the seed: generating from it again gives
the same files) and manifest.json (counts per type). See docs/graphgen.md.
"""

_PERTURB_EPILOG = """\
examples:
  gqlir graph perturb /tmp/fin --seed 3 --out /tmp/fin-observed
  gqlir graph perturb /tmp/fin --seed 3 --config noise.json --out /tmp/fin-observed

DIR2 receives the observed graph (JSON lines), noise.jsonl (every removal, addition and change,
with ids and old/new values), perturb.json (the ratios and options used) and schema.json.
Families and default ratios (NGDBench's profile): missing_edges 0.05, false_edges 0.1,
relation_type_noise 0.1, node_type_noise 0.1, name_typos 0.2, numeric_noise 0.1,
string_noise 0.1.
"""

_RESTORE_EPILOG = """\
example:
  gqlir graph restore /tmp/fin-observed --out /tmp/fin-restored

Undoes every change in DIR2/noise.jsonl and writes the clean graph (JSON lines); when the clean
graph was JSON lines, its SHA-256 digest from the log is checked against the result.
"""

_ANSWERS_EPILOG = """\
example:
  gqlir graph answers --clean /tmp/fin --observed /tmp/fin-observed --queries gold.jsonl \\
      --out answers.jsonl

Each gold item is a JSON object with "query" (or "text"), optional "dialect" (default neo4j) and
"id". Both graphs are loaded into the reference evaluator; each item is marked consistent or
inconsistent, and answers larger than --max-rows become Boolean verification items.
"""

_SESSIONS_EPILOG = """\
examples:
  gqlir graph sessions --graph schemas/movies --sessions 12 \\
      --steps 5 --seed 7 --out /tmp/movies-sessions
  gqlir graph sessions --graph schemas/finance --sessions 4 \\
      --steps 5 --operations create,delete --out /tmp/fin-sessions

Session i is a batch of --steps writes of kind create, merge, set, remove, delete or mixed (in
turn, or --operations), each followed by a validation query; every statement is written in
every dialect that can express it (the others are listed as unsupported with the construct),
and the gold validation answers come from the reference evaluator. DIR receives
sessions.jsonl, manifest.json and schema.json; the same arguments give the same bytes.
"""

_REPLAY_EPILOG = """\
examples:
  gqlir graph replay /tmp/movies-sessions --engine kuzu
  gqlir graph replay /tmp/movies-sessions --engine grafeo --dialect iso-gql --out grafeo.jsonl

Each session starts from the graph folder the sessions were made for (--graph to point at a
copy): a fresh engine is loaded for every session. Writes run with writes allowed, validation
queries read-only; each answer is compared with the gold one. Exit status 0 when every step
agrees, 1 when any differs, fails or cannot be expressed in the engine's dialects.
"""

_SCORE_EPILOG = """\
example:
  gqlir graph score /tmp/movies-sessions --pred predictions.jsonl

A prediction is a JSON line {"id": <session id>, "steps": [answer, ...]}; an answer is a table
{"columns", "rows"}, a list of rows, a list of values, or one value. Prints the step accuracy
of each session and the session accuracy (their mean), overall and per session kind.
"""


def add_commands(sub: Any) -> None:
    """Add ``generate``, ``perturb``, ``restore``, ``answers``, ``sessions``, ``replay`` and
    ``score`` to the ``graph`` group's subparsers ``sub``."""
    from ..cliargs import add_common_arguments as _common  # --json and --debug, as elsewhere

    p = sub.add_parser(
        "generate",
        help="fill a schema with a synthetic graph",
        description="Generate a graph for a schema: seeded, streamed to disk.",
        epilog=_GENERATE_EPILOG,
        formatter_class=_FORMATTER,
    )
    p.add_argument("-s", "--schema", required=True, metavar="S", help="schema file or graph folder")
    p.add_argument("--edges", type=int, metavar="N", help="how many edges (the target total)")
    p.add_argument("-c", "--config", metavar="C", help="generation config (JSON or TOML)")
    p.add_argument("--seed", type=int, metavar="K", help="the seed (default: the config's, or 0)")
    p.add_argument("--layout", choices=("jsonl", "csv"), help="graph data layout (default jsonl)")
    p.add_argument("-o", "--out", required=True, metavar="DIR", help="output directory")
    _common(p)
    p.set_defaults(handler=_cmd_generate)

    p = sub.add_parser(
        "perturb",
        help="make a noisy observed graph and its noise log",
        description="Perturb a clean graph into an observed graph, logging every change.",
        epilog=_PERTURB_EPILOG,
        formatter_class=_FORMATTER,
    )
    p.add_argument("directory", metavar="DIR", help="the clean graph (a graph folder)")
    p.add_argument("--seed", type=int, metavar="K", help="the seed (default: the config's, or 0)")
    p.add_argument("-c", "--config", metavar="C", help="perturbation config (JSON or TOML)")
    p.add_argument("-s", "--schema", metavar="S", help="default: the graph folder's schema.json")
    p.add_argument("-o", "--out", required=True, metavar="DIR2", help="output directory")
    _common(p)
    p.set_defaults(handler=_cmd_perturb)

    p = sub.add_parser(
        "restore",
        help="restore the clean graph from an observed graph and its noise log",
        epilog=_RESTORE_EPILOG,
        formatter_class=_FORMATTER,
    )
    p.add_argument("directory", metavar="DIR2", help="the observed graph directory")
    p.add_argument("--log", metavar="FILE", help="the noise log (default: DIR2/noise.jsonl)")
    p.add_argument("-o", "--out", required=True, metavar="DIR", help="output directory")
    _common(p)
    p.set_defaults(handler=_cmd_restore)

    p = sub.add_parser(
        "answers",
        help="gold answers on the clean and observed graphs (consistent / inconsistent)",
        epilog=_ANSWERS_EPILOG,
        formatter_class=_FORMATTER,
    )
    p.add_argument("--clean", required=True, metavar="DIR", help="the clean graph directory")
    p.add_argument("--observed", required=True, metavar="DIR2", help="the observed graph")
    p.add_argument("-q", "--queries", required=True, metavar="FILE", help="gold items (JSONL)")
    p.add_argument("-o", "--out", required=True, metavar="FILE", help="result records (JSONL)")
    p.add_argument("-s", "--schema", metavar="S", help="default: the clean graph's schema.json")
    p.add_argument("--seed", type=int, default=0, metavar="K", help="seed of the sampling")
    p.add_argument("--max-rows", type=int, default=20, metavar="N", help="larger -> Boolean items")
    p.add_argument("--timeout", type=float, default=60.0, metavar="S", help="per query")
    _common(p)
    p.set_defaults(handler=_cmd_answers)
    _add_session_commands(sub, _common)


def _add_session_commands(sub: Any, common: Any) -> None:
    p = sub.add_parser(
        "sessions",
        help="management sessions: batches of writes with validation queries",
        description="Generate management sessions for a graph folder, with gold answers.",
        epilog=_SESSIONS_EPILOG,
        formatter_class=_FORMATTER,
    )
    p.add_argument("-g", "--graph", required=True, metavar="G", help="the graph folder")
    p.add_argument("-s", "--schema", metavar="S", help="default: the graph folder's schema.json")
    p.add_argument("--sessions", type=int, default=6, metavar="N", help="how many (default 6)")
    p.add_argument("--steps", type=int, default=5, metavar="K", help="steps each (default 5)")
    p.add_argument("--seed", type=int, default=0, metavar="K", help="the seed (default 0)")
    p.add_argument("--operations", metavar="LIST", help="comma-separated session kinds")
    p.add_argument("-o", "--out", required=True, metavar="DIR", help="output directory")
    common(p)
    p.set_defaults(handler=_cmd_sessions)

    p = sub.add_parser(
        "replay",
        help="replay management sessions on an engine and compare with the gold answers",
        epilog=_REPLAY_EPILOG,
        formatter_class=_FORMATTER,
    )
    p.add_argument("directory", metavar="DIR", help="a session directory")
    p.add_argument("-e", "--engine", default="reference", metavar="E", help="default reference")
    p.add_argument("-d", "--dialect", metavar="D", help="run the texts of this dialect")
    p.add_argument("-g", "--graph", metavar="G", help="the graph folder (default: the manifest's)")
    p.add_argument("--timeout", type=float, default=60.0, metavar="S", help="per statement")
    p.add_argument("-o", "--out", metavar="FILE", help="step outcomes (JSON lines)")
    common(p)
    p.set_defaults(handler=_cmd_replay)

    p = sub.add_parser(
        "score",
        help="step-wise accuracy of predicted validation answers",
        epilog=_SCORE_EPILOG,
        formatter_class=_FORMATTER,
    )
    p.add_argument("directory", metavar="DIR", help="a session directory")
    p.add_argument("-p", "--pred", required=True, metavar="FILE", help="predictions (JSONL)")
    common(p)
    p.set_defaults(handler=_cmd_score)


# -- helpers -------------------------------------------------------------------------------------


def load_schema_arg(path: str) -> Any:
    """A schema from a file in any format gqlir reads, or from a graph folder's schema.json."""
    from ..schema.formats import detect_format, read

    if os.path.isdir(path):
        path = os.path.join(path, "schema.json")
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except OSError as exc:
        raise GraphGenError(f"cannot read the schema {path!r}: {exc.strerror or exc}") from None
    fmt = detect_format(text)
    if fmt is None:
        raise GraphGenError(f"cannot tell the format of the schema {path!r}")
    name = os.path.basename(os.path.dirname(os.path.abspath(path)))
    return read(text, fmt, name=name)


def _graph(path: str, schema: str | None) -> tuple[str, Any]:
    """The data directory and the loaded schema of the graph ``path`` (a graph folder, or its
    data directory with the schema in or beside it; ``schema`` overrides)."""
    folder = resolve_graph_folder(path, schema)
    return folder.data, load_schema_arg(folder.require_schema())


def _report(args: argparse.Namespace, data: dict[str, Any], text: str) -> None:
    if args.json:
        print(json.dumps(data, ensure_ascii=False))
    else:
        print(text, file=sys.stderr)


def _need_dir(path: str) -> None:
    if not os.path.isdir(path):
        raise GraphGenError(f"{path!r} is not a directory")


# -- commands ------------------------------------------------------------------------------------


def _cmd_generate(args: argparse.Namespace) -> int:
    from .config import read_config
    from .generator import generate

    if args.edges is None and args.config is None:
        raise GraphGenError("say how large: --edges N, or --config C with counts or target_edges")
    if args.edges is not None and args.edges <= 0:
        raise GraphGenError("--edges must be a positive number")
    schema = load_schema_arg(args.schema)
    config = read_config(args.config) if args.config else None
    start = time.perf_counter()
    # Off a terminal the command's own summary line is the whole report: no progress there.
    line = ProgressLine(quiet=args.json or not sys.stderr.isatty())

    def progress(written: int, planned: int) -> None:
        share = f" ({min(100, 100 * written // planned)}%)" if planned else ""
        line.show(f"generate: {written:,} of {planned:,} records written{share}")

    try:
        result = generate(
            schema,
            args.out,
            config,
            seed=args.seed,
            target_edges=args.edges,
            layout=args.layout,
            progress=progress,
        )
    finally:
        line.end()
    took = time.perf_counter() - start
    data = result.to_dict() | {"seconds": round(took, 3)}
    _report(
        args,
        data,
        f"{args.out}: {result.node_total:,} nodes, {result.edge_total:,} edges "
        f"(seed {result.config['seed']}) in {took:.1f} s",
    )
    return 0


def _cmd_perturb(args: argparse.Namespace) -> int:
    from .config import read_document
    from .perturbation import perturb

    data, schema = _graph(args.directory, args.schema)
    config = read_document(args.config) if args.config else None
    result = perturb(data, args.out, schema, config, seed=args.seed)
    lines = [f"{args.out}: observed graph and noise log (seed {result.config['seed']})"]
    lines += [
        f"  {family}: {n:,} of {result.targets[family]:,} targeted"
        for family, n in result.changes.items()
    ]
    _report(args, result.to_dict(), "\n".join(lines))
    return 0


def _cmd_restore(args: argparse.Namespace) -> int:
    from .noiselog import restore

    _need_dir(args.directory)
    result = restore(args.directory, args.out, log=args.log)
    if result.verified is None:
        note = "no digest logged"
    elif result.verified:
        note = "matches the clean graph's digest"
    else:
        note = "DIFFERS from the logged digest"
    _report(
        args,
        result.to_dict(),
        f"{args.out}: {result.nodes:,} nodes, {result.edges:,} edges restored; {note}",
    )
    return 0 if result.verified is not False else 1


def _cmd_answers(args: argparse.Namespace) -> int:
    from .answers import noise_answers, read_items, write_results

    clean, schema = _graph(args.clean, args.schema)
    observed = resolve_graph_folder(args.observed).data
    items = read_items(args.queries)
    records = noise_answers(
        items,
        clean,
        observed,
        schema,
        seed=args.seed,
        max_rows=args.max_rows,
        timeout=args.timeout,
    )
    counts = write_results(records, args.out)
    _report(
        args,
        counts | {"out": args.out},
        f"{args.out}: {counts['consistent']} consistent, {counts['inconsistent']} inconsistent, "
        f"{counts['error']} failed",
    )
    return 0


def _cmd_sessions(args: argparse.Namespace) -> int:
    from .sessions import generate_sessions

    data, schema = _graph(args.graph, args.schema)
    kinds = (
        [k.strip() for k in args.operations.split(",") if k.strip()] if args.operations else None
    )
    start = time.perf_counter()
    result = generate_sessions(
        schema,
        data,
        args.out,
        sessions=args.sessions,
        steps=args.steps,
        seed=args.seed,
        operations=kinds,
    )
    took = time.perf_counter() - start
    lines = [f"{args.out}: {result.sessions} sessions, {result.steps} steps in {took:.1f} s"]
    lines += [f"  {op}: {n} steps" for op, n in result.operations.items()]
    lines += [
        f"  unsupported in {dialect}: " + ", ".join(f"{c} ({n})" for c, n in why.items())
        for dialect, why in result.unsupported.items()
    ]
    _report(args, result.to_dict() | {"seconds": round(took, 3)}, "\n".join(lines))
    return 0


def _cmd_replay(args: argparse.Namespace) -> int:
    from .replay import replay, write_report

    _need_dir(args.directory)
    graph = resolve_graph_folder(args.graph).data if args.graph else None
    report = replay(
        args.directory, args.engine, graph=graph, dialect=args.dialect, timeout=args.timeout
    )
    if args.out:
        write_report(report, args.out)
    counts = report.counts
    lines = [
        f"{args.directory} on {args.engine}: "
        + ", ".join(f"{n} {status}" for status, n in counts.items() if n)
        + f" ({len(report.sessions)} sessions in {report.seconds:.1f} s)"
    ]
    for session in report.sessions:
        for step in session["steps"]:
            if step["status"] in ("differ", "error", "unsupported"):
                lines.append(
                    f"  {session['id']} step {step['index']}: {step['status']}: "
                    f"{step.get('reason')}"
                )
    _report(args, report.to_dict(), "\n".join(lines))
    return 0 if report.identical else 1


def _cmd_score(args: argparse.Namespace) -> int:
    from .session_scoring import read_predictions, score_sessions
    from .sessions import read_sessions

    _need_dir(args.directory)
    _, sessions = read_sessions(args.directory)
    scores = score_sessions(sessions, read_predictions(args.pred))
    lines = [
        f"session accuracy {scores['session_accuracy']:.4f} over {scores['sessions']} sessions"
    ]
    lines += [f"  {kind}: {acc:.4f}" for kind, acc in scores["by_operation"].items()]
    _report(args, scores, "\n".join(lines))
    return 0


__all__ = ["add_commands", "load_schema_arg"]
