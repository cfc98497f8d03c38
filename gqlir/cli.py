"""The ``gqlir`` command line: ``validate``, ``translate``, ``parse``, ``dialects``, ``run``,
``load`` and ``tck``.

The CLI is a thin shell over the public API (:func:`gqlir.validate`, :func:`gqlir.transpile`,
:func:`gqlir.parse`) so that a verdict on the command line is the verdict a library user gets.
It imports the compiler only inside the command that needs it, so ``gqlir --help`` and
``gqlir dialects`` stay fast.

Where things go, so that scripts can rely on it:

* results go to stdout (or ``--output``): the translation, the verdict, or in batch mode one JSON
  line per input line, in input order; a query's own error is part of its result;
* run-level failures (bad arguments, unknown dialect, unreadable input, a bug in gqlir), the batch
  summary and the progress bar go to stderr; with ``--json`` the failures and the summary are JSON.

Exit codes:

====  =====================================================================================
0     every query is valid / translated (or the command succeeded)
1     at least one query is invalid, unsupported in the target, or a batch line is malformed
2     usage error: bad arguments, unknown dialect, no query, unreadable input, unwritable output
3     internal error: an exception outside the GqlirError hierarchy, i.e. a bug in gqlir
130   interrupted (Ctrl-C)
141   the reader of stdout went away early (e.g. ``| head``), as for any Unix tool
====  =====================================================================================
"""

from __future__ import annotations

import argparse
import json
import os
import stat
import sys
import time
from collections import Counter, deque
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field, replace
from functools import partial
from importlib import import_module
from typing import IO, TYPE_CHECKING, Any, NoReturn, Self

from .budget import memory_size
from .cliargs import add_common_arguments
from .errors import DialectError, GqlirError, ParseError, SchemaError, UnsupportedError
from .jsonl import dumps, field_path, read_line, text_at
from .optional import MissingDependencyError
from .progress import failure_code

if TYPE_CHECKING:
    from .dialect import Dialect

EXIT_OK = 0
EXIT_INVALID = 1
EXIT_USAGE = 2
EXIT_INTERNAL = 3
EXIT_INTERRUPTED = 130
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE, what a reader closing the pipe early gives C tools

# Statuses of a batch record. ``input_error`` and ``internal_error`` exist in both commands.
OK, UNSUPPORTED, PARSE_ERROR = "ok", "unsupported", "parse_error"
VALID, INVALID = "valid", "invalid"
INPUT_ERROR, INTERNAL_ERROR = "input_error", "internal_error"
_STATUS_ORDER = (OK, VALID, UNSUPPORTED, PARSE_ERROR, INVALID, INPUT_ERROR, INTERNAL_ERROR)

# How many malformed-line messages the summary repeats on stderr (all are in the output records).
_MAX_LISTED_INPUT_ERRORS = 20
# Source lines longer than this are shown as a window around the caret.
_SNIPPET_WIDTH = 120


class UsageError(Exception):
    """A problem with how gqlir was invoked, not with a query: exit code 2."""

    def __init__(self, message: str, usage: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.usage = usage


# -- argument parsing ----------------------------------------------------------------------------


class _ArgumentParser(argparse.ArgumentParser):
    """argparse that raises instead of exiting, so ``main`` can honour ``--json`` and return."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message, self.format_usage())


_FORMATTER = argparse.RawDescriptionHelpFormatter

_MAIN_EPILOG = """\
examples:
  gqlir translate --from neo4j --to iso-gql "MATCH (a)-[:KNOWS*1..3]->(b) RETURN b.name"
  gqlir validate --dialect neo4j "MATCH (n:Person) RETURN n.name AS name"
  gqlir translate --from neo4j --to spanner --input corpus.jsonl --output out.jsonl
  gqlir dialects

exit codes:
  0    every query valid / translated
  1    some query invalid, unsupported, or a batch line malformed
  2    usage error, unknown dialect, unreadable input or unwritable output
  3    internal error (a bug in gqlir: please report it with the query)
  130  interrupted
  141  stdout closed early by its reader (e.g. | head)
"""

_BATCH_HELP = """\
batch mode (--input FILE.jsonl, or - for stdin):
  one JSON object per line with a "query" string (--field NAME reads another
  field; a dotted path such as gold.query a nested one); every other field is
  carried through to the output line, in input order. Output lines = input lines:
  a blank or malformed line (not strict JSON, not an object, no query string) becomes a
  record with "status": "input_error" and an "error" naming the line number; the
  run goes on. The output is strict JSON. A summary goes to stderr
  (--json: as one JSON object); a progress bar too when stderr is a terminal.
"""

_VALIDATE_EPILOG = (
    """\
examples:
  gqlir validate --dialect neo4j "MATCH (n:Person) RETURN n.name AS name"
  echo "MATCH (n RETURN n" | gqlir validate --dialect neo4j --json
  gqlir validate --dialect iso-gql --input queries.jsonl --output checked.jsonl

output:
  single query: "valid" on stdout, or the error with line:column and a caret
  on stderr; --json prints {"valid", "dialect", "error"} on stdout.
  batch: each input object plus "valid" (true/false) and, if invalid, "error"
  {code, message, line, column, ...}.

"""
    + _BATCH_HELP
)

_TRANSLATE_EPILOG = (
    """\
examples:
  gqlir translate --from neo4j --to opencypher9 "MATCH (a)-[:R*1..3]->(b) RETURN b"
  gqlir translate --from neo4j --to iso-gql --json "MATCH (n) RETURN n"
  gqlir translate --from neo4j --to spanner --input corpus.jsonl --output out.jsonl
  gqlir translate --from sql:sqlite --to iso-gql --schema schemas/bookstore \
      "SELECT T2.name FROM book AS T1 JOIN publisher AS T2 ON T1.publisher_id = T2.publisher_id"

SQL (sql:<sqlglot dialect>, sqlpgq[:flavour]) maps tables to node and edge types through
--schema: a graph folder (its source.sql, else its schema.json), a schema or DDL file, or a
SQLite or DuckDB database file.

output:
  single query: the translation on stdout, or the error on stderr; --json prints
  {"status", "from", "to", "translation", "error"} on stdout.
  batch: each input object plus "status" (ok | unsupported | parse_error |
  input_error | internal_error), "translation" (null unless ok) and "error".
  The summary counts statuses and, for "unsupported", each construct.

"""
    + _BATCH_HELP
)

_PARSE_EPILOG = """\
examples:
  gqlir parse --dialect neo4j "MATCH (n:Person) WHERE n.age > 30 RETURN n.name"
  gqlir parse --dialect iso-gql --json "MATCH (n) RETURN n"

Prints the Graph-IR the query parses to (a debugging aid; the tree's shape may
change between versions). --json prints it as nested {"node": Type, field: ...}.
"""

_DIALECTS_EPILOG = """\
examples:
  gqlir dialects                  one line per dialect
  gqlir dialects neo4j spanner    every capability of these dialects
  gqlir dialects --capabilities   every capability of every dialect
  gqlir dialects --json           all of it as data

SQL dialects take a sqlglot dialect after a colon: sql:sqlite, sql:postgres, ...
"""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``gqlir`` command (exposed for docs and tests)."""
    from . import __version__

    parser = _ArgumentParser(
        prog="gqlir",
        description="gqlir: a multi-dialect graph query compiler "
        "(Cypher, ISO GQL, Spanner Graph, TuGraph, Kuzu, SQL, SQL/PGQ).",
        epilog=_MAIN_EPILOG,
        formatter_class=_FORMATTER,
    )
    parser.add_argument("--version", action="version", version=f"gqlir {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser(
        "validate",
        help="check that queries are valid in a dialect",
        description="Check that queries are valid in a dialect.",
        epilog=_VALIDATE_EPILOG,
        formatter_class=_FORMATTER,
    )
    p.add_argument("-d", "--dialect", required=True, metavar="D", help="the dialect to check")
    p.add_argument(
        "-s",
        "--schema",
        metavar="SCHEMA",
        help="also check labels, relationship types, properties and directions against this "
        "schema (gqlir schema JSON, or any format 'gqlir schema convert' reads)",
    )
    _add_graph_name_argument(
        p,
        "the property graph a Spanner query without a GRAPH clause reads (Text2GQL-Bench's "
        "Spanner corpora have none)",
    )
    p.add_argument(
        "--check",
        choices=("zetasql",),
        help="also ask an outside front end: zetasql (Google's ZetaSQL, for --dialect spanner; "
        "it parses, and with --schema analyses against the schema's Spanner catalog)",
    )
    _add_query_arguments(p)
    _add_common_arguments(p)
    p.set_defaults(handler=_cmd_validate)

    p = sub.add_parser(
        "translate",
        help="translate queries from one dialect to another",
        description="Translate queries from one dialect to another, or report why not.",
        epilog=_TRANSLATE_EPILOG,
        formatter_class=_FORMATTER,
    )
    p.add_argument("-f", "--from", dest="source", required=True, metavar="A", help="source dialect")
    p.add_argument("-t", "--to", dest="target", required=True, metavar="B", help="target dialect")
    p.add_argument(
        "-s",
        "--schema",
        metavar="PATH",
        help="the table mapping for SQL source or target dialects (a graph folder, a schema or "
        "DDL file, or a database file); for GQL targets, the property types of the graph",
    )
    _add_graph_name_argument(
        p,
        "the property graph's name: what a GQL-family translation names (Spanner: GRAPH NAME; "
        "the others: USE NAME), and what a Spanner source without a GRAPH clause reads",
    )
    p.add_argument(
        "--spanner-elements",
        choices=("refuse", "to_json"),
        default="refuse",
        help="a node, edge or path in the result of a target that cannot return one (Spanner): "
        "refused (default), or returned as its JSON (SAFE_TO_JSON), which changes its type",
    )
    p.add_argument(
        "--explain",
        action="store_true",
        help="also print (to stderr) which lowering passes changed the query for the target",
    )
    _add_query_arguments(p)
    _add_common_arguments(p)
    p.set_defaults(handler=_cmd_translate)

    p = sub.add_parser(
        "migrate",
        help="turn a relational database into a graph folder",
        description="Migrate a relational database (a SQLite or DuckDB file, or a postgresql:// "
        "URL) into a graph folder (schema.json, source.sql, graph/) by the relational mapping, "
        "and check that every table's rows come back from the graph.",
        epilog="examples:\n  gqlir migrate spider/concert_singer.sqlite --out graphs/concert_singer\n"
        "  gqlir translate --from sql:sqlite --to neo4j --schema graphs/concert_singer \\\n"
        '      "SELECT count(*) FROM singer"\n',
        formatter_class=_FORMATTER,
    )
    p.add_argument("source", metavar="SOURCE", help="the database: a file or a postgresql:// URL")
    p.add_argument("-o", "--out", required=True, metavar="DIR", help="the graph folder to write")
    p.add_argument("--name", metavar="NAME", help="the graph's name (default: the file's name)")
    p.add_argument(
        "--layout",
        choices=("jsonl", "csv", "parquet"),
        default="jsonl",
        help="graph data layout (default: jsonl, which keeps every value exactly)",
    )
    p.add_argument(
        "--on-dangling",
        choices=("fail", "skip"),
        default="fail",
        help="a foreign key that points to no row: stop (default), or leave that edge out and "
        "list it in the report",
    )
    _add_common_arguments(p)
    p.set_defaults(handler=_cmd_migrate)

    p = sub.add_parser(
        "parse",
        help="print the Graph-IR of a query (debugging)",
        description="Parse a query and print its Graph-IR.",
        epilog=_PARSE_EPILOG,
        formatter_class=_FORMATTER,
    )
    p.add_argument("-d", "--dialect", required=True, metavar="D", help="the query's dialect")
    p.add_argument("query", nargs="?", metavar="QUERY", help="the query text ('-' = stdin)")
    _add_common_arguments(p)
    p.set_defaults(handler=_cmd_parse)

    p = sub.add_parser(
        "dialects",
        help="list the dialects and their capabilities",
        description="List the dialects gqlir knows (from dialects/*.toml) and their capabilities.",
        epilog=_DIALECTS_EPILOG,
        formatter_class=_FORMATTER,
    )
    p.add_argument("names", nargs="*", metavar="NAME", help="show every capability of these")
    p.add_argument(
        "-c", "--capabilities", action="store_true", help="every capability of every dialect"
    )
    p.add_argument(
        "--probe",
        action="store_true",
        help="check NAME's facts on --engine E with small queries and print what the engine "
        "contradicts (Cypher dialects, iso-gql, sql:<flavour>)",
    )
    p.add_argument("-e", "--engine", metavar="E", help="the engine --probe runs on")
    _add_engine_arguments(p)
    _add_common_arguments(p)
    p.set_defaults(handler=_cmd_dialects)
    _add_evaluator_commands(sub)
    _add_schema_commands(sub)
    for module in _COMMAND_MODULES:
        import_module(module).add_commands(sub)
    return parser


#: Commands that live with their subsystem: each module has ``add_commands(subparsers)``.
_COMMAND_MODULES = ("gqlir.metrics.cli", "gqlir.rdf.cli", "gqlir.synth.cli")


def _add_query_arguments(p: argparse.ArgumentParser) -> None:
    """QUERY or a JSONL batch, and where results go."""
    p.add_argument(
        "query",
        nargs="?",
        metavar="QUERY",
        help="the query text; '-' or omitted reads it from stdin (when stdin is not a terminal)",
    )
    p.add_argument(
        "-i", "--input", metavar="IN.jsonl", help="batch mode: read JSONL records ('-' = stdin)"
    )
    p.add_argument(
        "--field",
        default="query",
        metavar="NAME",
        help="batch mode: the field holding the query, a dotted path for a nested one "
        "(e.g. source, gold.query; default: query)",
    )
    p.add_argument("-o", "--output", metavar="OUT", help="write results here, not stdout")
    p.add_argument(
        "-q", "--quiet", action="store_true", help="no summary and no progress bar in batch mode"
    )
    p.add_argument(
        "-j",
        "--jobs",
        type=_jobs,
        default=1,
        metavar="N",
        help="batch mode: worker processes (0: one per core; default 1); output order is kept",
    )


def _jobs(text: str) -> int:
    """--jobs N: a count of worker processes, 0 for every core."""
    from .workers import default_jobs

    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of jobs: {text!r}") from None
    if n < 0:
        raise argparse.ArgumentTypeError("--jobs must be 0 (every core) or more")
    return n or default_jobs()


def _add_graph_name_argument(p: argparse.ArgumentParser, help_text: str) -> None:
    """-g/--graph NAME, also spelled --graph-name (the spelling run and eval take, whose
    --graph is a graph folder)."""
    p.add_argument("-g", "--graph", "--graph-name", dest="graph", metavar="NAME", help=help_text)


_add_common_arguments = add_common_arguments


# -- reference evaluator: run and tck ----------------------------------------------------------

_RUN_EPILOG = """\
examples:
  gqlir run --graph social.json "MATCH (p:Person) RETURN p.name AS name"
  gqlir run --graph g.json --param min=30 --json "MATCH (p) WHERE p.age > $min RETURN p"
  gqlir run --dialect iso-gql --graph g.json "MATCH (a)-[e]->(b) RETURN a, e, b"

The graph: a JSON file {"nodes": [{"id", "labels", "properties"}], "edges": [{"id",
"type", "source", "target", "properties"}]}, or a graph directory (docs/graph-format.md).
Writes change the in-memory copy only, unless --save FILE writes the graph back out as
JSON. Exit code 1 when the query fails.

engines:
  gqlir run --engine kuzu --graph schemas/movies --read-only --timeout 5 \\
      "MATCH (m:Movie) RETURN m.title AS t ORDER BY t LIMIT 3"
  gqlir run --engine sqlite --graph schemas/finance --json 'SELECT count(*) FROM "Person"'
  gqlir run --engine neo4j --url bolt://localhost:7687 --dialect iso-gql "MATCH (n) RETURN n"
"""

_TCK_EPILOG = """\
examples:
  gqlir tck ../shared/tck/features
  gqlir tck ../shared/tck --area expressions/temporal --json
  gqlir tck ../shared/tck/features --to iso-gql
  gqlir tck ../shared/tck/features --engine arcadedb --area clauses/match
  gqlir tck ../shared/tck/features --engine neo4j --url bolt://127.0.0.1:7687
  gqlir tck ../shared/tck/features/clauses/create/Create1.feature --engine grafeo --to iso-gql

Runs every scenario of a folder of openCypher TCK features through the parser and the
reference evaluator; prints the pass rate by feature area and every failure's reason
(--json: {total, refused, passed, failed, pass_rate, areas, failure_reasons, failures}). With
--to, each query is translated first and the translation runs under its dialect's semantics.
Exit code 1
when the pass rate is below --min-rate (default: any failure).
"""


def _add_evaluator_commands(sub: Any) -> None:
    p = sub.add_parser(
        "run",
        help="run a query with the reference evaluator or on an engine",
        description="Run a query on an in-memory graph with gqlir's reference evaluator, or "
        "on a real engine (--engine).",
        epilog=_RUN_EPILOG + "\n" + _ENGINE_RUN_NOTE,
        formatter_class=_FORMATTER,
    )
    p.add_argument("query", nargs="?", metavar="QUERY", help="the query text ('-' = stdin)")
    p.add_argument(
        "-d",
        "--dialect",
        default=None,
        metavar="D",
        help="the query's dialect (default: neo4j for the reference engine, else the engine's "
        "own); another dialect is translated through the IR",
    )
    p.add_argument(
        "-e",
        "--engine",
        default="reference",
        metavar="E",
        help="reference (default), grafeo, arcadedb, kuzu, sqlite, duckdb, postgres, neo4j, "
        "tugraph, spanner, or 'default' (the embedded engine of the dialect)",
    )
    p.add_argument(
        "-g", "--graph", metavar="PATH", help="graph JSON file or directory (default: empty)"
    )
    p.add_argument(
        "--graph-name",
        metavar="NAME",
        help="the property graph a Spanner query without a GRAPH clause reads",
    )
    p.add_argument(
        "-p", "--param", action="append", default=[], metavar="NAME=JSON", help="a parameter"
    )
    p.add_argument("--save", metavar="FILE.json", help="write the graph after the query here")
    _add_engine_arguments(p)
    p.add_argument(
        "--read-only",
        action="store_true",
        help="refuse any write (the graph is unchanged afterwards)",
    )
    p.add_argument("--timeout", type=float, metavar="S", help="stop the query after S seconds")
    p.add_argument(
        "--max-memory",
        type=memory_size,
        metavar="SIZE",
        help="stop the query when the engine uses more memory (e.g. 2G, 512M)",
    )
    p.add_argument("--row-cap", type=int, metavar="N", help="return at most N rows")
    _add_common_arguments(p)
    p.set_defaults(handler=_cmd_run)
    _add_load_command(sub)

    p = sub.add_parser(
        "tck",
        help="run openCypher TCK features through the parser and the reference evaluator",
        description="Run TCK-style Gherkin features and report the pass rate by area.",
        epilog=_TCK_EPILOG,
        formatter_class=_FORMATTER,
    )
    p.add_argument(
        "directory", metavar="DIR", help="a features folder (or a TCK root, or one .feature file)"
    )
    p.add_argument("-a", "--area", action="append", default=[], help="only this area (repeatable)")
    p.add_argument(
        "-d",
        "--dialect",
        default="neo4j",
        metavar="D",
        help="dialect of the queries (with --engine: the engine's own dialect sends them to it "
        "untranslated, e.g. --engine falkordb --dialect falkordb)",
    )
    p.add_argument(
        "-t",
        "--to",
        dest="target",
        metavar="T",
        help="translate each query into T and run the translation (the expected results then "
        "check the translation; queries T cannot express are not run)",
    )
    p.add_argument(
        "--spanner-elements",
        choices=("refuse", "to_json"),
        default="refuse",
        help="with --to spanner: graph elements in a result refused (default) or returned as "
        "SAFE_TO_JSON, whose JSON is read back into the element for the comparison",
    )
    p.add_argument(
        "-e",
        "--engine",
        metavar="E",
        help="run each scenario on engine E (neo4j, arcadedb, grafeo, kuzu, falkordb) instead of the "
        "reference evaluator, on a database emptied before each scenario",
    )
    p.add_argument(
        "--url",
        help="the engine's server (neo4j: a Bolt URL, default scripts/neo4j-local; falkordb: "
        "redis://… or unix://…, default a private server)",
    )
    p.add_argument("--min-rate", type=float, default=1.0, help="pass rate below which to exit 1")
    _add_common_arguments(p)
    p.set_defaults(handler=_cmd_tck)


def _params(items: list[str]) -> dict[str, Any]:
    """``--param NAME=JSON`` values; a bare word is a string."""
    params: dict[str, Any] = {}
    for item in items:
        name, sep, raw = item.partition("=")
        if not sep or not name:
            raise UsageError(f"--param needs NAME=JSON, not {item!r}")
        try:
            params[name] = json.loads(raw)
        except json.JSONDecodeError:
            params[name] = raw
        except ValueError:  # an integer beyond Python's conversion limit
            raise UsageError(f"--param {name}: an integer in the value is too long") from None
    return params


def _cmd_run(args: argparse.Namespace) -> int:
    from .eval import Graph, run
    from .eval.result import json_value

    if _needs_engines(args):
        return _cmd_run_engine(args)
    args.dialect = args.dialect or "neo4j"
    params = _params(args.param)
    try:
        graph = Graph.load(args.graph) if args.graph else Graph()
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise UsageError(f"cannot load the graph {args.graph}: {exc}") from None
    text = _named_graph(_single_query(args.query), args.dialect, args.graph_name)
    try:
        result = run(text, graph, params, dialect=args.dialect)
    except GqlirError as exc:
        if exc.text is None:
            exc.text = text
        _print_error(exc, args.json)
        return failure_code(exc)
    if args.save:
        try:
            graph.save(args.save)
        except OSError as exc:
            raise UsageError(f"cannot write {args.save}: {exc}") from None
    if args.json:
        data = {
            "columns": result.columns,
            "rows": [[json_value(v) for v in row] for row in result.rows],
            "ordered": result.ordered,
            "side_effects": result.side_effects,
        }
        print(json.dumps(data, ensure_ascii=False))
    else:
        print(result.format_table())
    return EXIT_OK


def _named_graph(text: str, dialect: str, graph: str | None) -> str:
    """``text`` with the GRAPH clause ``--graph-name`` supplies, where the dialect needs one."""
    from .api import with_graph

    try:
        return with_graph(text, dialect, graph)
    except DialectError as exc:
        raise UsageError(str(exc)) from None


def _cmd_tck(args: argparse.Namespace) -> int:
    from .conformance.runner import format_report, run_tck
    from .conformance.tck import TckFormatError
    from .dialect import get_dialect

    if not os.path.exists(args.directory):
        raise UsageError(f"no such folder or file: {args.directory}")
    for name in (args.dialect, args.target):
        if name is not None:
            get_dialect(name)  # an unknown dialect is a usage error, not 2,000 failures
    try:
        if args.engine:
            from .conformance.engine_runner import format_engine_report, run_engine_tck

            report = run_engine_tck(
                args.directory,
                args.engine,
                url=args.url,
                target=args.target,
                areas=args.area,
                source=args.dialect,
            )
            text = format_engine_report(report, args.engine)
        else:
            report = run_tck(
                args.directory,
                areas=args.area,
                dialect=args.dialect,
                target=args.target,
                elements=args.spanner_elements,
            )
            text = format_report(report)
    except TckFormatError as exc:
        raise UsageError(f"cannot read the features: {exc}") from None
    if args.json:
        print(json.dumps(report.summary(), ensure_ascii=False))
    else:
        print(text)
    rate = report.passed / report.total if report.total else 1.0
    return EXIT_OK if rate >= args.min_rate else EXIT_INVALID


# -- engines: load and run --engine -----------------------------------------------------------

_LOAD_EPILOG = """\
examples:
  gqlir load --engine neo4j --url bolt://localhost:7687 --user neo4j --graph schemas/movies
  gqlir load --engine kuzu --path movies.kuzu --graph schemas/movies
  gqlir load --engine postgres --url postgresql://me@localhost/db --graph schemas/finance

A graph is a folder with schema.json and graph/ (as in schemas/), or a graph directory
with a schema.json beside it. Servers take --url (or GQLIR_BOLT_URI, GQLIR_POSTGRES_URL,
SPANNER_EMULATOR_HOST ...) and credentials from options or the environment
(GQLIR_BOLT_USER, GQLIR_BOLT_PASSWORD); embedded engines take --path to keep the database.
Prints the number of elements (rows) loaded per label (table); --json as an object.
"""

_ENGINE_RUN_NOTE = """\
With --engine other than reference (or --read-only, --timeout, --row-cap), the query runs on
a real engine. With --graph, an embedded engine starts fresh with that graph loaded (a
folder with schema.json and graph/, as in schemas/); a server runs the query on what it
holds (load it with 'gqlir load'). --json prints {"columns", "rows", "ordered"}; a refused
or failed query exits 1 with the error (code, message, engine_code).
"""


def _add_engine_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--url",
        metavar="URL",
        help="server address: bolt://…, postgresql://…, redis://… or unix://… (FalkorDB; "
        "default: a private server), or host:port of a Spanner endpoint (default from the "
        "environment)",
    )
    p.add_argument("--user", metavar="NAME", help="user name (default: GQLIR_BOLT_USER)")
    p.add_argument(
        "--password",
        metavar="PW",
        help="password (prefer GQLIR_BOLT_PASSWORD: command lines are visible)",
    )
    p.add_argument(
        "--database", metavar="DB", help="database (Bolt, Spanner), graph key (FalkorDB)"
    )
    p.add_argument("--project", metavar="P", help="Spanner project")
    p.add_argument("--instance", metavar="I", help="Spanner instance")
    p.add_argument(
        "--path",
        metavar="DIR",
        help="database folder or file of an embedded engine (default: temporary)",
    )
    p.add_argument("--schema-name", metavar="NAME", help="PostgreSQL schema (default gqlir)")


def _add_load_command(sub: Any) -> None:
    p = sub.add_parser(
        "load",
        help="load a graph (schema and data) into an engine",
        description="Create the schema a graph needs in an engine and load its data.",
        epilog=_LOAD_EPILOG,
        formatter_class=_FORMATTER,
    )
    p.add_argument("-e", "--engine", required=True, metavar="E", help="the engine")
    p.add_argument("-g", "--graph", required=True, metavar="PATH", help="the graph folder")
    _add_engine_arguments(p)
    _add_common_arguments(p)
    p.set_defaults(handler=_cmd_load)


def _needs_engines(args: argparse.Namespace) -> bool:
    """Whether ``run`` goes through gqlir.engines (the reference evaluator's own path keeps its
    side-effect counters and --save)."""
    if args.engine != "reference":
        return True
    if args.read_only or args.timeout is not None or args.row_cap is not None:
        return True
    if args.max_memory is not None:
        return True
    return bool(args.graph) and os.path.isdir(args.graph) and _graph_folder(args.graph) is not None


def _graph_folder(path: str) -> tuple[str, str] | None:
    """(schema file, data directory) of a graph folder, or None."""
    from .schema.folders import resolve_graph_folder

    try:
        folder = resolve_graph_folder(path)
    except SchemaError:
        return None
    return (folder.schema, folder.data) if folder.schema else None


def _engine_options(args: argparse.Namespace, name: str) -> dict[str, Any]:
    opts: dict[str, Any] = {}
    if name in ("neo4j", "tugraph"):
        opts = {
            "url": args.url,
            "user": args.user,
            "password": args.password,
            "database": args.database,
        }
    elif name == "falkordb":
        # a running FalkorDB (redis://host:port, unix:///path) and its graph key; without a
        # URL gqlir starts a private server
        opts = {"url": args.url, "graph": args.database}
    elif name == "postgres":
        opts = {"url": args.url}
        if args.schema_name:
            opts["schema"] = args.schema_name
    elif name == "spanner":
        opts = {
            "project": args.project,
            "instance": args.instance,
            "database": args.database,
            "endpoint": args.url,
        }
    elif args.path and name != "reference":
        opts = {"path": args.path}
    return {k: v for k, v in opts.items() if v is not None}


def _open_engine(args: argparse.Namespace, name: str) -> Any:
    """The engine; a local one in a worker process when a timeout or memory budget must hold
    whatever the query does (gqlir.engines.isolated)."""
    from .dialect import get_dialect
    from .engines import open_engine
    from .engines.registry import LOCAL
    from .parser.sql import require_sqlglot

    bounded = getattr(args, "timeout", None) is not None or getattr(args, "max_memory", None)
    isolated = bool(bounded) and name.lower() in LOCAL
    engine = open_engine(
        name,
        isolated=isolated,
        max_memory=getattr(args, "max_memory", None),
        **_engine_options(args, name),
    )
    # A SQL engine loads graphs and reads queries through sqlglot: a missing sqlglot is said
    # before any work, in the words every other SQL feature uses.
    if any(get_dialect(d).family == "sql" for d in engine.dialects[:1]):
        try:
            require_sqlglot()
        except MissingDependencyError:
            engine.close()
            raise
    return engine


def _load_graph(engine: Any, path: str) -> dict[str, int]:
    from .schema import load_schema

    found = _graph_folder(path)
    if found is None:
        raise UsageError(f"{path}: not a graph folder (schema.json and graph/, as in schemas/)")
    try:
        schema = load_schema(found[0])
    except OSError as exc:
        raise UsageError(f"cannot read {found[0]}: {exc}") from None
    return engine.load(schema, found[1])


def _print_error(exc: GqlirError, as_json: bool) -> None:
    if as_json:
        print(json.dumps({"error": exc.to_dict()}, ensure_ascii=False))
    else:
        print(_format_error(exc), file=sys.stderr)


def _cmd_load(args: argparse.Namespace) -> int:
    try:
        engine = _open_engine(args, args.engine)
    except GqlirError as exc:
        _print_error(exc, args.json)
        return failure_code(exc)
    try:
        counts = _load_graph(engine, args.graph)
    except GqlirError as exc:
        _print_error(exc, args.json)
        return failure_code(exc)
    finally:
        engine.close()
    if args.json:
        print(json.dumps({"engine": args.engine, "loaded": counts}, ensure_ascii=False))
    else:
        for label, n in counts.items():
            print(f"{label}\t{n}")
    return EXIT_OK


def _cmd_run_engine(args: argparse.Namespace) -> int:
    from .engines import EMBEDDED, default_engine

    name = args.engine
    if name == "default":
        name = default_engine(args.dialect or "neo4j")
    from .engines.registry import engine_names

    if name.lower() not in engine_names():
        # as an unknown dialect is: a usage error (exit 2), with the names to choose from
        raise UsageError(f"unknown engine {name!r}; known engines: {', '.join(engine_names())}")
    if args.save:
        raise UsageError("--save works with the reference engine's JSON graphs only")
    if args.graph and name not in EMBEDDED:
        raise UsageError(f"{name} is a server: load the graph with 'gqlir load' first")
    params = _params(args.param)
    text = _single_query(args.query)
    if args.dialect is not None:
        text = _named_graph(text, args.dialect, args.graph_name)
    try:
        engine = _open_engine(args, name)
    except GqlirError as exc:
        _print_error(exc, args.json)
        return failure_code(exc)
    try:
        if args.graph:
            _load_graph(engine, args.graph)
        table = engine.run(
            text,
            dialect=args.dialect,
            parameters=params,
            timeout=args.timeout,
            row_cap=args.row_cap,
            read_only=args.read_only,
        )
    except GqlirError as exc:
        if exc.text is None and exc.offset is not None:
            exc.text = text
        _print_error(exc, args.json)
        hint = _other_dialect_hint(engine, text) if args.dialect is None else None
        if hint and not args.json:
            print(hint, file=sys.stderr)
        return failure_code(exc)
    finally:
        engine.close()
    if args.json:
        print(json.dumps(table.to_data(), ensure_ascii=False))
    else:
        print(table.format_table())
    return EXIT_OK


def _other_dialect_hint(engine: Any, text: str) -> str | None:
    """When a SQL engine fails on text that reads as a graph query, say which ``--dialect``
    translates it (the engine's own error, a syntax error at MATCH, does not)."""
    from .api import validate

    own = engine.native_dialect(None) or ""
    if not own.startswith("sql"):
        return None
    for dialect in ("neo4j", "iso-gql"):
        try:
            readable = bool(validate(text, dialect=dialect))
        except GqlirError:
            readable = False
        if readable:
            return (
                f"hint: this query reads as {dialect} text, which {engine.name} does not run; "
                f"--dialect {dialect} translates it to {own}"
            )
    return None


# -- entry point ---------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    """Run the ``gqlir`` command with ``argv`` (default: ``sys.argv[1:]``); return the exit code."""
    argv = sys.argv[1:] if argv is None else list(argv)
    as_json = "--json" in argv
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except UsageError as exc:
        return _report_usage(exc, as_json)
    except SystemExit as exc:  # --help and --version
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE
    if args.command is None:
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    try:
        return args.handler(args)
    except UsageError as exc:
        return _report_usage(exc, args.json)
    except GqlirError as exc:  # run-level: unknown dialect, malformed dialect file
        _report_failure(exc.to_dict(), _format_error(exc), args.json)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("gqlir: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_BROKEN_PIPE
    except Exception as exc:
        if args.debug:
            raise
        error = _internal_error_dict(exc)
        _report_failure(error, _internal_message(error["message"]), args.json)
        return EXIT_INTERNAL


def _report_usage(exc: UsageError, as_json: bool) -> int:
    if as_json:
        _report_failure({"code": "USAGE", "message": exc.message}, "", True)
    else:
        if exc.usage:
            sys.stderr.write(exc.usage)
        print(f"gqlir: error: {exc.message}", file=sys.stderr)
    return EXIT_USAGE


def _report_failure(data: dict[str, Any], text: str, as_json: bool) -> None:
    """A run-level failure on stderr: readable text, or ``{"error": ...}`` with ``--json``."""
    if as_json:
        print(json.dumps({"error": data}, ensure_ascii=False), file=sys.stderr)
    else:
        print(f"gqlir: {text}", file=sys.stderr)


def _internal_error_dict(exc: BaseException) -> dict[str, Any]:
    return {
        "code": "INTERNAL",
        "message": f"{type(exc).__name__}: {exc}",
        "line": None,
        "column": None,
    }


def _internal_message(detail: str) -> str:
    return (
        f"internal error: {detail}\n"
        "This is a bug in gqlir; please report it with the query "
        "(run with --debug for a traceback)."
    )


def _silence_stdout() -> None:
    """After the reader of a pipe went away, keep Python from failing again at shutdown."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


# -- error display -------------------------------------------------------------------------------


def _format_error(exc: GqlirError) -> str:
    """An error as a person reads it: code and message, line:column, the caret snippet, hints."""
    lines = [f"error[{exc.code}]: {exc.message}"]
    if exc.line is not None:
        lines.append(f"  --> line {exc.line}, column {exc.column}")
    snippet = exc.snippet()
    if snippet:
        source, caret = snippet.split("\n", 1)
        source, caret = _window(source, caret)
        lines.append(f"   | {source}")
        lines.append(f"   | {caret}")
    if isinstance(exc, ParseError) and not all(tok in exc.message for tok in exc.expected):
        shown = ", ".join(exc.expected[:15])
        more = f", ... ({len(exc.expected) - 15} more)" if len(exc.expected) > 15 else ""
        lines.append(f"  expected: {shown}{more}")
    if isinstance(exc, UnsupportedError):
        lines.append(f"  construct: {exc.construct} [{exc.id}] (target dialect: {exc.dialect})")
    return "\n".join(lines)


def _window(source: str, caret: str) -> tuple[str, str]:
    """Cut a long source line to a window around the caret, keeping the caret aligned."""
    if len(source) <= _SNIPPET_WIDTH:
        return source, caret
    col = len(caret) - 1
    start = max(0, min(col - _SNIPPET_WIDTH // 2, len(source) - _SNIPPET_WIDTH))
    end = start + _SNIPPET_WIDTH
    head = "..." if start else ""
    tail = "..." if end < len(source) else ""
    return head + source[start:end] + tail, " " * len(head) + caret[start:]


# -- query sources -------------------------------------------------------------------------------


def _single_query(arg: str | None) -> str:
    """QUERY itself, or stdin when QUERY is ``-`` or omitted and stdin is not a terminal."""
    if arg is not None and arg != "-":
        return arg
    stdin = sys.stdin
    if stdin is None or (arg is None and _isatty(stdin)):
        raise UsageError("no query given: pass QUERY, '-' to read stdin, or --input FILE.jsonl")
    try:
        text = stdin.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read the query from stdin: {exc}") from None
    text = text.rstrip()
    if not text:
        raise UsageError("no query given: stdin was empty")
    return text


def _isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


_JSON_KINDS = {
    list: "an array",
    str: "a string",
    int: "a number",
    float: "a number",
    bool: "true/false",
}


@dataclass
class _Line:
    """One line of a JSONL input: its number, raw size, and the record or the problem."""

    number: int
    size: int
    record: dict[str, Any] | None = None
    problem: str | None = None
    column: int | None = None
    query: str = ""


def _read_jsonl(stream: IO[Any], keys: tuple[str, ...]) -> Iterator[_Line]:
    """Records of a JSONL stream, one per line; a bad or blank line becomes a :class:`_Line`
    with a ``problem`` (its output record is an ``input_error``), so output lines = input lines.

    Bytes are split on ``\\n`` only and decoded line by line, so one undecodable or malformed
    line cannot disturb its neighbours (text mode would also split on U+2028 inside strings).
    The query is the string at ``keys`` (``--field``, a dotted path split at its dots).
    """
    for number, raw in enumerate(stream, start=1):
        size = len(raw)
        if isinstance(raw, bytes):
            if number == 1 and raw.startswith(b"\xef\xbb\xbf"):
                raw = raw[3:]
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                yield _Line(number, size, problem=f"not valid UTF-8 ({exc.reason})", column=None)
                continue
        else:
            line = raw.lstrip("\ufeff") if number == 1 else raw
        value, problem, column = read_line(line)
        if problem is not None:
            yield _Line(number, size, problem=problem, column=column)
            continue
        if not isinstance(value, dict):
            kind = _JSON_KINDS.get(type(value), "null")
            yield _Line(number, size, problem=f"expected a JSON object, got {kind}")
            continue
        query, problem = text_at(value, keys)
        if query is None:
            yield _Line(number, size, record=value, problem=problem)
            continue
        yield _Line(number, size, record=value, query=query)


def _open_input(path: str, stack: ExitStack) -> tuple[IO[Any], int | None]:
    """The input stream (closed with ``stack``) and its size in bytes when known (for progress)."""
    if path == "-":
        stdin = sys.stdin
        if stdin is None:
            raise UsageError("cannot read --input -: there is no stdin")
        buffer = getattr(stdin, "buffer", None)
        return (buffer if buffer is not None else stdin), None
    try:
        info = os.stat(path)
        size = info.st_size if stat.S_ISREG(info.st_mode) else None  # pipes have no size
        return stack.enter_context(open(path, "rb")), size
    except OSError as exc:
        raise UsageError(f"cannot read input {path!r}: {exc.strerror or exc}") from None


def _open_output(path: str | None, input_path: str | None, stack: ExitStack) -> IO[str]:
    """stdout, or the ``--output`` file (refusing to overwrite the input being read)."""
    if path is None or path == "-":
        return sys.stdout
    if input_path and input_path != "-" and os.path.exists(path):
        try:
            same = os.path.samefile(path, input_path)
        except OSError:
            same = False
        if same:
            raise UsageError(f"--output {path!r} is the input file; it would be overwritten")
    try:
        return stack.enter_context(open(path, "w", encoding="utf-8", newline="\n"))
    except OSError as exc:
        raise UsageError(f"cannot write output {path!r}: {exc.strerror or exc}") from None


# -- outcomes ------------------------------------------------------------------------------------


@dataclass
class _Outcome:
    """The result of one query: its status, the fields it adds to a record, and its error."""

    status: str
    fields: dict[str, Any]
    error: dict[str, Any] | None = None
    construct: str | None = None
    exc: GqlirError | None = None
    more: list[GqlirError] = field(default_factory=list)


def _validate_one(
    text: str,
    dialect: Dialect,
    schema: Any = None,
    check: str | None = None,
    graph: str | None = None,
) -> _Outcome:
    outcome = _validate_gqlir(text, dialect, schema, graph)
    if check is None:
        return outcome
    from .api import with_graph
    from .checks.zetasql import check as zetasql

    text = with_graph(text, dialect.name, graph)
    verdict = zetasql(text, schema)
    outcome.fields["zetasql"] = verdict.to_dict()
    if not verdict.accepted:
        rejection = verdict.error(text)
        if outcome.status == VALID:
            return _Outcome(
                INVALID, dict(outcome.fields, valid=False), rejection.to_dict(), exc=rejection
            )
        outcome.more.append(rejection)
    return outcome


def _validate_gqlir(
    text: str, dialect: Dialect, schema: Any = None, graph: str | None = None
) -> _Outcome:
    from .api import validate, with_graph

    result = validate(text, dialect.name, graph=graph)
    if result.valid and schema is not None:
        from .api import check_query

        issues = check_query(with_graph(text, dialect.name, graph), dialect.name, schema)
        if issues:
            fields = {"valid": False, "schema_issues": [i.to_dict() for i in issues]}
            first = issues[0]
            return _Outcome(INVALID, fields, first.to_dict(), exc=first, more=list(issues[1:]))
    if result.valid:
        return _Outcome(VALID, {"valid": True})
    err = result.error
    return _Outcome(INVALID, {"valid": False}, err.to_dict() if err else None, exc=err)


# How a translation from or to SQL maps tables (the ``tables`` field of --json).
SCHEMA_MODE = "schema"
VALUE_JOIN_MODE = "value-joins"
DERIVED_MODE = "derived-from-labels"
_TABLE_MODE_NOTES = {
    VALUE_JOIN_MODE: "no --schema: each table is a node label, each column a property, each "
    "join a value join (pass --schema to follow foreign keys as edges)",
    DERIVED_MODE: "no --schema: a table per label (key column id) and per relationship type "
    "(src_id, dst_id), named as in the query (pass --schema for the database's own tables)",
}


def _table_mode(source: Dialect, target: Dialect, schema: Any) -> str | None:
    """How a translation from or to SQL maps tables: through ``--schema``, or, without one,
    read off the query (:mod:`gqlir.schema.inferred`). None when neither side is SQL."""
    if source.grammar == "sql":
        return SCHEMA_MODE if schema is not None else VALUE_JOIN_MODE
    if target.grammar == "sql":
        return SCHEMA_MODE if schema is not None else DERIVED_MODE
    return None


def _translate_one(
    text: str,
    source: Dialect,
    target: Dialect,
    schema: Any = None,
    graph: str | None = None,
    elements: str = "refuse",
) -> _Outcome:
    """Classify by error type: UnsupportedError means the target cannot say it; any other
    GqlirError from the pipeline means the source text is not a query of the source dialect."""
    from .api import transpile

    try:
        named: dict[str, Any] = {"graph": graph} if graph is not None else {}
        if elements != "refuse":
            named["spanner_elements"] = elements
        out = transpile(text, source.name, target.name, schema=schema, **named)
    except UnsupportedError as exc:
        fields = {"status": UNSUPPORTED, "translation": None}
        return _Outcome(UNSUPPORTED, fields, exc.to_dict(), construct=exc.construct, exc=exc)
    except (DialectError, MissingDependencyError):
        raise  # a configuration problem (a bad sql:<flavour>, sqlglot missing), not this query's
    except GqlirError as exc:
        fields = {"status": PARSE_ERROR, "translation": None}
        return _Outcome(PARSE_ERROR, fields, exc.to_dict(), exc=exc)
    return _Outcome(OK, {"status": OK, "translation": out})


def _guarded(
    run: Callable[[str], _Outcome], text: str, debug: bool, failed: dict[str, Any]
) -> _Outcome:
    """Run one query; a bug in gqlir becomes an ``internal_error`` record, not a dead run."""
    try:
        return run(text)
    except GqlirError:
        raise
    except Exception as exc:
        if debug:
            raise
        return _Outcome(
            INTERNAL_ERROR, dict(failed, status=INTERNAL_ERROR), _internal_error_dict(exc)
        )


# -- commands ------------------------------------------------------------------------------------


def _cmd_validate(args: argparse.Namespace) -> int:
    from .dialect import get_dialect

    dialect = get_dialect(args.dialect)
    if args.check and dialect.name != "spanner":
        raise UsageError(f"--check {args.check} checks Spanner Graph text: use --dialect spanner")
    schema = _read_schema_file(args.schema, None) if args.schema else None
    run = partial(_validate_one, dialect=dialect, schema=schema, check=args.check, graph=args.graph)
    if args.input is not None:
        return _run_batch(
            args,
            run,
            reserved=("valid", "status", "error", "schema_issues", "zetasql"),
            failed={"valid": False},
            title=f"validate {dialect.name}",
            ok_status=VALID,
        )
    text = _single_query(args.query)
    outcome = _guarded(run, text, args.debug, {"valid": False})
    if outcome.status == INTERNAL_ERROR:
        return _single_internal(outcome, args)
    if args.json:
        data: dict[str, Any] = {"valid": outcome.status == VALID, "dialect": dialect.name}
        if outcome.error:
            data["error"] = outcome.error
        for key in ("schema_issues", "zetasql"):
            if key in outcome.fields:
                data[key] = outcome.fields[key]
        _write_single(args, _json_line(data))
    elif outcome.status == VALID:
        checked = f"; zetasql: {_verdict_text(outcome)}" if args.check else ""
        _write_single(args, f"valid ({dialect.name}){checked}")
    else:
        assert outcome.exc is not None
        for exc in [outcome.exc, *outcome.more]:
            print(_format_error(exc), file=sys.stderr)
        if args.check and outcome.fields["zetasql"]["accepted"]:
            print(f"zetasql: {_verdict_text(outcome)}", file=sys.stderr)
    return EXIT_OK if outcome.status == VALID else EXIT_INVALID


def _verdict_text(outcome: _Outcome) -> str:
    """ZetaSQL's acceptance as one phrase: accepted (parsed) or accepted (analysed)."""
    analysed = outcome.fields["zetasql"]["analysed"]
    return "accepted (analysed)" if analysed else "accepted (parsed)"


def _cmd_translate(args: argparse.Namespace) -> int:
    from .dialect import get_dialect

    source = get_dialect(args.source)
    target = get_dialect(args.target)
    schema = None
    if args.schema:
        from .sqlmapping import mapping_for

        schema = mapping_for(args.schema, dialect=source.sql_dialect or target.sql_dialect)
    mode = _table_mode(source, target, schema)
    if mode is not None and not args.json and mode != SCHEMA_MODE:
        print(f"gqlir translate: {_TABLE_MODE_NOTES[mode]}", file=sys.stderr)
    run = partial(
        _translate_one,
        source=source,
        target=target,
        schema=schema,
        graph=args.graph,
        elements=args.spanner_elements,
    )
    if args.input is not None:
        return _run_batch(
            args,
            run,
            reserved=("status", "translation", "error"),
            failed={"translation": None},
            title=f"translate {source.name} -> {target.name}",
            ok_status=OK,
        )
    text = _single_query(args.query)
    outcome = _guarded(run, text, args.debug, {"translation": None})
    if outcome.status == INTERNAL_ERROR:
        return _single_internal(outcome, args)
    if args.explain:
        _explain(text, source, target, schema, args.graph)
    if args.json:
        data: dict[str, Any] = {
            "status": outcome.status,
            "from": source.name,
            "to": target.name,
            "translation": outcome.fields.get("translation"),
        }
        if mode is not None:
            data["tables"] = mode
        if outcome.error:
            data["error"] = outcome.error
        if isinstance(outcome.exc, UnsupportedError):
            data["refusals"] = [r.to_dict() for r in outcome.exc.all_refusals()]
        _write_single(args, _json_line(data))
    elif outcome.status == OK:
        _write_single(args, outcome.fields["translation"])
    else:
        assert outcome.exc is not None
        refusals = (
            outcome.exc.all_refusals()
            if isinstance(outcome.exc, UnsupportedError)
            else [outcome.exc]
        )
        for exc in refusals:
            print(_format_error(exc), file=sys.stderr)
    return EXIT_OK if outcome.status == OK else EXIT_INVALID


def _explain(text: str, source: Dialect, target: Dialect, schema: Any, graph: str | None) -> None:
    """Which of the target's lowering passes (:mod:`gqlir.passes.pipeline`) change the query:
    one line per pass that runs, ``changed`` or ``unchanged``, or the refusal it raised."""
    from .api import parse
    from .passes.pipeline import lowerings

    try:
        query: Any = parse(text, source.name, schema=schema, graph=graph)
    except GqlirError:
        return  # the translation's own error is reported
    print(f"lowering for {target.name}:", file=sys.stderr)
    for lowering in lowerings(target, source):
        try:
            out = lowering.run(query, target)
        except UnsupportedError as exc:
            print(f"  {lowering.name}: refuses {exc.construct}", file=sys.stderr)
            return
        verdict = "changed" if out is not query else "unchanged"
        print(f"  {lowering.name}: {verdict} ({lowering.rule})", file=sys.stderr)
        query = out


def _cmd_migrate(args: argparse.Namespace) -> int:
    from .migrate import migrate

    report = migrate(
        args.source, args.out, name=args.name, layout=args.layout, on_dangling=args.on_dangling
    )
    if args.json:
        print(_json_line(report.to_dict()))
        return EXIT_INVALID if report.skipped else EXIT_OK
    nodes = sum(report.nodes.values())
    edges = sum(report.edges.values())
    rows = sum(report.rows.values())
    print(
        f"migrated {rows} rows of {len(report.rows)} tables into {nodes} nodes and "
        f"{edges} edges in {report.out} (every table's rows checked against the graph)"
    )
    for label, count in report.matched_by_affinity.items():
        print(
            f"note: {count} {label} reference(s) matched their row as SQLite compares them "
            "(e.g. text '1' = integer 1); the graph holds the referenced key's value",
            file=sys.stderr,
        )
    for skip in report.skipped:
        print(
            f"skipped: table {skip['table']}, row {skip['row']}: the {skip['edge']} reference "
            f"{tuple(skip['values'])} points to no row",
            file=sys.stderr,
        )
    return EXIT_INVALID if report.skipped else EXIT_OK


def _single_internal(outcome: _Outcome, args: argparse.Namespace) -> int:
    assert outcome.error is not None
    _report_failure(outcome.error, _internal_message(outcome.error["message"]), args.json)
    return EXIT_INTERNAL


def _write_single(args: argparse.Namespace, text: str) -> None:
    with ExitStack() as stack:
        out = _open_output(args.output, None, stack)
        out.write(text if text.endswith("\n") else text + "\n")


def _cmd_parse(args: argparse.Namespace) -> int:
    from .api import parse
    from .dialect import get_dialect

    dialect = get_dialect(args.dialect)
    text = _single_query(args.query)
    try:
        query = parse(text, dialect.name)
    except GqlirError as exc:
        if args.json:
            print(json.dumps({"dialect": dialect.name, "error": exc.to_dict()}, ensure_ascii=False))
        else:
            print(_format_error(exc), file=sys.stderr)
        return EXIT_INVALID
    if args.json:
        print(json.dumps({"dialect": dialect.name, "ir": _ir_to_data(query)}, ensure_ascii=False))
    else:
        print(query.dump())
    return EXIT_OK


def _ir_to_data(value: Any) -> Any:
    """A Graph-IR tree as JSON-ready data: ``{"node": type, field: value, ...}``."""
    import enum
    import math

    from .ir import Node

    if isinstance(value, Node):
        data: dict[str, Any] = {"node": type(value).__name__}
        for name, child in value.field_values():
            data[name] = _ir_to_data(child)
        return data
    if isinstance(value, (tuple, list)):
        return [_ir_to_data(v) for v in value]
    if isinstance(value, enum.Enum):
        return value.name
    if isinstance(value, dict):
        return {str(k): _ir_to_data(v) for k, v in value.items()}
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else repr(value)
    return str(value)


def _cmd_probe(args: argparse.Namespace) -> int:
    """``gqlir dialects NAME --probe --engine E``: NAME's facts as engine E shows them."""
    from .dialect import get_dialect
    from .probes import engine_differences, first_value, probe, suite_for

    if len(args.names) != 1 or not args.engine:
        raise UsageError("--probe takes one dialect NAME and --engine E")
    dialect = get_dialect(args.names[0])
    try:
        suite_for(dialect)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    with _open_engine(args, args.engine) as engine:
        native = engine.native_dialect(dialect.name)
        if native is None:
            raise UsageError(
                f"{args.engine} does not run {dialect.name} text as it is (it runs "
                f"{', '.join(engine.dialects)}): probes must reach the engine untranslated"
            )
        findings = probe(
            dialect,
            first_value(engine, dialect.name),
            differences=engine_differences(engine, dialect),
        )
    wrong = [f for f in findings if f.verdict == "contradicted"]
    if args.json:
        print(json.dumps([f.to_dict() for f in findings], ensure_ascii=False, indent=2))
    else:
        for f in findings:
            if f.verdict != "holds" or not f.fact.startswith("reserved word"):
                shown = "" if f.verdict == "holds" else f" (engine: {f.observed!r}; {f.detail})"
                print(f"{f.verdict:<14} {f.fact} = {f.declared!r}{shown}")
        held = sum(f.verdict == "holds" for f in findings)
        differs = sum(f.verdict == "engine differs" for f in findings)
        print(
            f"{dialect.name} on {args.engine}: {held} facts hold, {len(wrong)} contradicted, "
            f"{differs} recorded as the engine's own differences, "
            f"{len(findings) - held - len(wrong) - differs} without an answer",
            file=sys.stderr,
        )
    return EXIT_INVALID if wrong else EXIT_OK


def _cmd_dialects(args: argparse.Namespace) -> int:
    from dataclasses import asdict

    from .dialect import all_dialects, get_dialect

    if args.probe:
        return _cmd_probe(args)

    chosen = [get_dialect(n) for n in args.names] if args.names else all_dialects()
    if args.json:
        data = [
            {
                "name": d.name,
                "family": d.family,
                "grammar": d.grammar,
                "aliases": list(d.aliases),
                "description": d.description,
                "capabilities": _json_ready(asdict(d.capabilities)),
            }
            for d in chosen
        ]
        print(json.dumps(data, ensure_ascii=False, indent=2))
        return EXIT_OK
    if not chosen:
        print("no dialects found (the dialects/ directory is empty)", file=sys.stderr)
        return EXIT_OK
    detailed = bool(args.names) or args.capabilities
    if not detailed:
        width = max(len(d.name) for d in chosen)
        fam = max(len(d.family) for d in chosen)
        for d in chosen:
            aliases = f"  (aliases: {', '.join(d.aliases)})" if d.aliases else ""
            print(f"{d.name:<{width}}  {d.family:<{fam}}  {d.description}{aliases}")
        print("\n'gqlir dialects NAME' shows a dialect's capabilities.", file=sys.stderr)
        return EXIT_OK
    for i, d in enumerate(chosen):
        if i:
            print()
        print(f"{d.name} ({d.family}, grammar {d.grammar})")
        if d.description:
            print(f"  {d.description}")
        if d.aliases:
            print(f"  aliases: {', '.join(d.aliases)}")
        caps = asdict(d.capabilities)
        width = max(len(k) for k in caps)
        for key, value in caps.items():
            print(f"  {key:<{width}}  {_cap_text(value)}")
    return EXIT_OK


def _json_ready(value: Any) -> Any:
    if isinstance(value, tuple):
        return list(value)
    if isinstance(value, dict):
        return {k: _json_ready(v) for k, v in value.items()}
    return value


def _cap_text(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, tuple):
        return ", ".join(map(str, value)) if value else "-"
    return str(value)


# -- batch runs ----------------------------------------------------------------------------------


@dataclass
class _Tally:
    """What the summary reports: counts by status, unsupported constructs, malformed lines."""

    statuses: Counter[str] = field(default_factory=Counter)
    constructs: Counter[str] = field(default_factory=Counter)
    input_errors: list[str] = field(default_factory=list)
    total: int = 0


def _run_batch(
    args: argparse.Namespace,
    run: Callable[[str], _Outcome],
    *,
    reserved: tuple[str, ...],
    failed: dict[str, Any],
    title: str,
    ok_status: str,
) -> int:
    """Process a JSONL input line by line, writing one output line per record, in order."""
    if args.query is not None:
        raise UsageError("give either QUERY or --input, not both")
    try:
        keys = field_path(args.field)
    except ValueError as exc:
        raise UsageError(f"--field: {exc}") from None
    tally = _Tally()
    started = time.monotonic()
    with ExitStack() as stack:
        stream, size = _open_input(args.input, stack)
        out = _open_output(args.output, args.input, stack)
        _process(args, run, _read_jsonl(stream, keys), out, size, reserved, failed, title, tally)
        out.flush()
    elapsed = time.monotonic() - started
    if not args.quiet:
        _print_summary(tally, title, elapsed, args.json)
    if tally.statuses[INTERNAL_ERROR]:
        return EXIT_INTERNAL
    return EXIT_OK if tally.statuses[ok_status] == tally.total else EXIT_INVALID


def _process(
    args: argparse.Namespace,
    run: Callable[[str], _Outcome],
    lines: Iterator[_Line],
    out: IO[str],
    size: int | None,
    reserved: tuple[str, ...],
    failed: dict[str, Any],
    title: str,
    tally: _Tally,
) -> None:
    """The batch loop: one output line per input line, whatever the line holds."""
    try:
        with _Progress(enabled=not args.quiet, total=size, title=title) as progress:
            for line, outcome in _outcomes(args, run, lines, failed):
                tally.total += 1
                if line.problem is not None:
                    tally.input_errors.append(outcome.error["message"] if outcome.error else "")
                tally.statuses[outcome.status] += 1
                if outcome.construct:
                    tally.constructs[outcome.construct] += 1
                out.write(_record_line(line.record, outcome, reserved))
                progress.advance(line.size, tally.total)
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise UsageError(f"I/O error: {exc.strerror or exc}") from None


#: Distinct query texts whose outcome a batch run keeps for later identical lines (a corpus
#: repeats its queries: 5,180 distinct in Text2GQL-Bench's 178,184 lines); 0 turns reuse off.
_OUTCOME_CACHE_LIMIT = 100_000


def _outcomes(
    args: argparse.Namespace,
    run: Callable[[str], _Outcome],
    lines: Iterator[_Line],
    failed: dict[str, Any],
) -> Iterator[tuple[_Line, _Outcome]]:
    """Each line with its outcome, in input order: here, or in ``--jobs`` worker processes.
    A query text seen before gets the outcome computed for it the first time (outcomes depend
    only on the text within one run), up to ``_OUTCOME_CACHE_LIMIT`` distinct texts."""
    jobs = getattr(args, "jobs", 1)
    limit = _OUTCOME_CACHE_LIMIT
    known: dict[str, _Outcome] = {}
    if jobs <= 1:
        for line in lines:
            if line.problem is not None:
                yield line, _input_error(line, failed)
                continue
            outcome = known.get(line.query)
            if outcome is None:
                outcome = _guarded(run, line.query, args.debug, failed)
                if len(known) < limit:
                    known[line.query] = replace(outcome, exc=None, more=[])
            yield line, outcome
        return
    from .workers import ordered_map

    # Each line, and whether its text went to a worker (a repeat or a malformed line did not).
    held: deque[tuple[_Line, bool]] = deque()
    # Texts sent to a worker whose outcome will be kept: a later identical line is not sent.
    sent: set[str] = set()

    def texts() -> Iterator[str | None]:
        for line in lines:
            if line.problem is not None or line.query in sent:
                held.append((line, False))
                yield None
                continue
            if len(sent) < limit:
                sent.add(line.query)
            held.append((line, True))
            yield line.query

    work = partial(_worker_outcome, run=run, debug=args.debug, failed=failed)
    crashed = partial(_crashed_outcome, failed=failed)
    for outcome in ordered_map(work, texts(), jobs=jobs, on_crash=crashed):
        line, computed = held.popleft()
        if line.problem is not None:
            yield line, _input_error(line, failed)
        elif not computed:
            # A repeat: its first occurrence came earlier in order, so its outcome is known.
            yield line, known[line.query]
        else:
            if line.query in sent and line.query not in known:
                known[line.query] = outcome
            yield line, outcome


def _worker_outcome(
    text: str | None, run: Callable[[str], _Outcome], debug: bool, failed: dict[str, Any]
) -> _Outcome | None:
    """One record's outcome in a worker process (None for a line that holds no query); the
    exception objects stay behind: a batch record needs only the fields."""
    if text is None:
        return None
    outcome = _guarded(run, text, debug, failed)
    return replace(outcome, exc=None, more=[])


def _crashed_outcome(text: str | None, failed: dict[str, Any]) -> _Outcome:
    message = "the worker process running this query died (a crash or the memory limit)"
    error = {"code": "INTERNAL", "message": message}
    return _Outcome(INTERNAL_ERROR, dict(failed, status=INTERNAL_ERROR), error)


def _input_error(line: _Line, failed: dict[str, Any]) -> _Outcome:
    message = f"line {line.number}: {line.problem}"
    error = {"code": "INPUT", "message": message, "line": line.number, "column": line.column}
    return _Outcome(INPUT_ERROR, dict(failed, status=INPUT_ERROR), error)


def _record_line(
    record: dict[str, Any] | None, outcome: _Outcome, reserved: tuple[str, ...]
) -> str:
    """The input fields (minus stale result keys), then this run's result keys."""
    out = {k: v for k, v in (record or {}).items() if k not in reserved}
    out.update(outcome.fields)
    if outcome.error is not None:
        out["error"] = outcome.error
    return _json_line(out)


def _json_line(data: Any) -> str:
    return dumps(data) + "\n"


def _print_summary(tally: _Tally, title: str, elapsed: float, as_json: bool) -> None:
    if as_json:
        data = {
            "summary": title,
            "total": tally.total,
            "statuses": {s: tally.statuses[s] for s in _STATUS_ORDER if s in tally.statuses},
            "unsupported_constructs": dict(tally.constructs.most_common()),
            "input_errors": tally.input_errors,
            "seconds": round(elapsed, 3),
        }
        print(json.dumps(data, ensure_ascii=False), file=sys.stderr)
        return
    rate = f", {tally.total / elapsed:,.0f} queries/s" if elapsed > 0 and tally.total else ""
    noun = "query" if tally.total == 1 else "queries"
    lines = [f"{title}: {tally.total:,} {noun} in {elapsed:.2f} s{rate}"]
    width = max((len(s) for s in tally.statuses), default=0)
    for status in sorted(tally.statuses, key=_STATUS_ORDER.index):
        lines.append(f"  {status:<{width}}  {tally.statuses[status]:>8,}")
    if tally.constructs:
        lines.append("unsupported constructs:")
        cwidth = max(len(c) for c in tally.constructs)
        for construct, count in tally.constructs.most_common():
            lines.append(f"  {construct:<{cwidth}}  {count:>8,}")
    if tally.input_errors:
        lines.append("malformed input lines:")
        lines.extend(f"  {m}" for m in tally.input_errors[:_MAX_LISTED_INPUT_ERRORS])
        hidden = len(tally.input_errors) - _MAX_LISTED_INPUT_ERRORS
        if hidden > 0:
            lines.append(f"  ... and {hidden:,} more (see the input_error records)")
    print("\n".join(lines), file=sys.stderr)


class _Progress:
    """A rich progress bar on stderr, only when stderr is a terminal and rich is installed,
    so that CI logs and redirected stderr stay free of control codes."""

    _EVERY = 64  # records between redraw requests; rich itself refreshes at most 10 times/s

    def __init__(self, *, enabled: bool, total: int | None, title: str) -> None:
        self._bar: Any = None
        self._task: Any = None
        self._bytes = 0
        self._pending = 0
        if not (enabled and _isatty(sys.stderr)):
            return
        try:
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                Progress,
                SpinnerColumn,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )
        except ImportError:
            return
        self._bar = Progress(
            SpinnerColumn(),
            TextColumn("{task.description}"),
            BarColumn(),
            TextColumn("{task.percentage:>3.0f}%" if total else ""),
            TextColumn("{task.fields[records]:,} queries"),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
            console=Console(file=sys.stderr),
            transient=True,
        )
        self._task = self._bar.add_task(title, total=total, records=0)

    def __enter__(self) -> Self:
        if self._bar is not None:
            self._bar.start()
        return self

    def advance(self, nbytes: int, records: int) -> None:
        if self._bar is None:
            return
        self._bytes += nbytes
        self._pending += 1
        if self._pending >= self._EVERY:
            self._pending = 0
            self._bar.update(self._task, completed=self._bytes, records=records)

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.stop()


# -- schemas and graph data: schema convert / schema show / graph validate ----------------------

_SCHEMA_EPILOG = """\
examples:
  gqlir schema convert --from gqlir --to kuzu schemas/movies/schema.json
  gqlir schema convert --from cypherbench --to spanner nba_schema.json --output nba.sql
  gqlir schema convert --from sql:sqlite --to gqlir shop.sql --name shop
  gqlir schema convert --from gqlir --to neo4j --lossy schema.json
  gqlir schema convert --from neo4j --to gqlir bolt://127.0.0.1:7687 --user neo4j
  gqlir schema show schemas/finance/schema.json

formats: {formats}

A format that cannot express part of the schema is an error naming what would be lost;
--lossy writes it anyway and lists the losses on stderr (--json: as data, "lost" apart from
"notes"). Notes never stop a conversion: additions (a surrogate key, a default the format
writes), values that mean the same as leaving them unstated (cardinality n:m), and what a
format leaves out by design (keys and indexes in a prompt).
--from may be left out when the file says what it is (gqlir JSON, CypherBench JSON,
TuGraph JSON, CREATE GRAPH TYPE, Kuzu or Neo4j DDL, prompt text).
"""

_GRAPH_EPILOG = """\
examples:
  gqlir graph validate schemas/social/graph
  gqlir graph validate data/ --schema schema.json --json

A graph directory holds nodes.jsonl and edges.jsonl, or nodes/<Label>.csv|parquet and
edges/<TYPE>.csv|parquet (docs/graph-format.md). Without --schema, schema.json next to the
directory (or inside it) is used. Every problem is listed as file:row: field: reason;
exit code 1 when there is any.
"""


def _add_schema_commands(sub: Any) -> None:
    from .schema.formats import format_names

    schema = sub.add_parser(
        "schema",
        help="convert schemas between formats, or show one",
        description="Convert a graph schema between formats, or summarise it.",
        epilog=_SCHEMA_EPILOG.format(formats=", ".join(format_names())),
        formatter_class=_FORMATTER,
    )
    ssub = schema.add_subparsers(dest="schema_command", metavar="SUBCOMMAND")
    p = ssub.add_parser(
        "convert",
        help="convert a schema from one format to another",
        epilog=_SCHEMA_EPILOG.format(formats=", ".join(format_names())),
        formatter_class=_FORMATTER,
    )
    p.add_argument("-f", "--from", dest="source", metavar="F", help="the input's format")
    p.add_argument("-t", "--to", dest="target", required=True, metavar="G", help="output format")
    p.add_argument("file", metavar="FILE", help="the schema file ('-' = stdin; bolt://… for neo4j)")
    p.add_argument("-o", "--output", metavar="OUT", help="write here, not stdout")
    p.add_argument("--lossy", action="store_true", help="write even if something is lost")
    p.add_argument("--name", help="the graph's name, for formats that have none")
    p.add_argument("--user", help="user for a live database (default: $NEO4J_USER)")
    p.add_argument("--password", help="password for a live database (default: $NEO4J_PASSWORD)")
    _add_common_arguments(p)
    p.set_defaults(handler=_cmd_schema_convert)
    p = ssub.add_parser("show", help="summarise a schema", formatter_class=_FORMATTER)
    p.add_argument("file", metavar="FILE", help="the schema file ('-' = stdin)")
    p.add_argument("-f", "--from", dest="source", metavar="F", help="the file's format")
    p.add_argument("--name", help="the graph's name, for formats that have none")
    _add_common_arguments(p)
    p.set_defaults(handler=_cmd_schema_show)
    schema.set_defaults(handler=_cmd_schema_help, schema_parser=schema)

    graph = sub.add_parser(
        "graph",
        help="graph data: validate against a schema, generate, perturb, restore",
        description="Work with graph data directories: validate them against a schema, "
        "generate synthetic graphs from a schema, perturb a clean graph into an observed one "
        "(with a noise log), restore it, and compare gold answers on both.",
        epilog=_GRAPH_EPILOG,
        formatter_class=_FORMATTER,
    )
    gsub = graph.add_subparsers(dest="graph_command", metavar="SUBCOMMAND")
    p = gsub.add_parser(
        "validate",
        help="validate a graph directory",
        epilog=_GRAPH_EPILOG,
        formatter_class=_FORMATTER,
    )
    p.add_argument("directory", metavar="DIR", help="the graph directory")
    p.add_argument("-s", "--schema", metavar="SCHEMA", help="default: DIR/../schema.json")
    p.add_argument("--max-issues", type=int, default=1000, metavar="N", help="stop after N")
    _add_common_arguments(p)
    p.set_defaults(handler=_cmd_graph_validate)
    from .graphgen.cli import add_commands as add_graphgen_commands

    add_graphgen_commands(gsub)
    graph.set_defaults(handler=_cmd_schema_help, schema_parser=graph)


def _cmd_schema_help(args: argparse.Namespace) -> int:
    args.schema_parser.print_help(sys.stderr)
    return EXIT_USAGE


def _read_text(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    try:
        with open(path, encoding="utf-8") as fh:
            return fh.read()
    except OSError as exc:
        raise UsageError(f"cannot read {path!r}: {exc.strerror or exc}") from None


def _read_schema_file(path: str, fmt: str | None, name: str | None = None, args: Any = None) -> Any:
    """A SchemaGraph from a file (or a live bolt:// database), in ``fmt`` or a detected format."""
    from .schema.formats import detect_format, read

    if path.startswith(("bolt://", "bolt+s://", "neo4j://", "neo4j+s://")):
        from .schema.formats.neo4j import connect, read_live

        user = getattr(args, "user", None) or os.environ.get("NEO4J_USER")
        password = getattr(args, "password", None) or os.environ.get("NEO4J_PASSWORD")
        driver = connect(path, user, password)
        try:
            return read_live(driver, name=name or "")
        finally:
            driver.close()
    if os.path.isdir(path):
        # A graph folder (as in schemas/): its schema is schema.json.
        if name is None:
            name = os.path.basename(os.path.normpath(path))
        path = os.path.join(path, "schema.json")
    text = _read_text(path)
    if fmt is None:
        fmt = detect_format(text)
        if fmt is None:
            raise UsageError(f"cannot tell the format of {path!r}: pass --from")
    if name is None:
        name = os.path.splitext(os.path.basename(path))[0] if path != "-" else ""
    return read(text, fmt, name=name)


def _cmd_schema_convert(args: argparse.Namespace) -> int:
    from .schema.formats import write
    from .schema.report import SAME_MEANING

    schema = _read_schema_file(args.file, args.source, args.name, args)
    try:
        result = write(schema, args.target, lossy=args.lossy)
    except SchemaError as exc:
        report = getattr(exc, "report", None)
        if report is None:
            raise
        if args.json:
            error = dict(exc.to_dict(), message=report.message("--lossy"))
            data = {"error": error, "report": report.to_dict()}
            print(json.dumps(data, ensure_ascii=False), file=sys.stderr)
        else:
            print(f"gqlir: {report.message('--lossy')}", file=sys.stderr)
        return EXIT_INVALID
    _write_single(args, result.text)
    report = result.report
    if args.json:
        if report.lost or report.notes:
            print(json.dumps(report.to_dict(), ensure_ascii=False), file=sys.stderr)
        return EXIT_OK
    # Notes of the same meaning (n:m written as nothing) tell a reader nothing: --json has them.
    notes = [str(c) for c in report.notes if c.reason != SAME_MEANING]
    for title, lines in (
        (f"{args.target} could not express", report.lines()),
        (f"notes on {args.target} (not losses)", notes),
    ):
        if lines:
            print(f"gqlir: {title}:\n  " + "\n  ".join(lines), file=sys.stderr)
    return EXIT_OK


def _cmd_schema_show(args: argparse.Namespace) -> int:
    schema = _read_schema_file(args.file, args.source, args.name, args)
    if args.json:
        print(schema.to_json(), end="")
        return EXIT_OK
    out = [
        f"schema {schema.name or '(unnamed)'}: {len(schema.node_types)} node types, "
        f"{len(schema.edge_types)} edge types"
    ]
    if schema.description:
        out.append(f"  {schema.description}")
    for n in schema.node_types:
        labels = ":".join(n.labels)
        key = f" key ({', '.join(n.keys)})" if n.keys else ""
        out.append(f"node (:{labels}){key}")
        out.extend(_show_property(p) for p in n.properties)
    for e in schema.edge_types:
        ends = ", ".join(f"({p.source})->({p.target})" for p in e.endpoints) or "(any)->(any)"
        notes = [
            x
            for x in (
                e.cardinality.value if e.cardinality else None,
                f"source {e.source_participation.value}" if e.source_participation else None,
                f"target {e.target_participation.value}" if e.target_participation else None,
                "symmetric" if e.symmetric else None,
                "time-sensitive" if e.time_sensitive else None,
                f"implies {', '.join(e.implies)}" if e.implies else None,
                f"key ({', '.join(e.keys)})" if e.keys else None,
            )
            if x
        ]
        out.append(f"edge [:{e.label}] {ends}" + (f"  [{'; '.join(notes)}]" if notes else ""))
        out.extend(_show_property(p) for p in e.properties)
    print("\n".join(out))
    return EXIT_OK


def _show_property(p: Any) -> str:
    flags = [
        f
        for f, on in (
            ("required", p.required),
            ("unique", p.unique),
            ("indexed", p.indexed),
            ("categorical", p.categorical),
        )
        if on
    ]
    if p.unit:
        flags.append(f"unit {p.unit}")
    return f"  {p.name}: {p.type}" + (f"  ({', '.join(flags)})" if flags else "")


def _cmd_graph_validate(args: argparse.Namespace) -> int:
    from .schema.graphdata import validate_graph

    path = args.schema
    if path is None:
        parent = os.path.dirname(os.path.abspath(args.directory))
        for candidate in (
            os.path.join(args.directory, "schema.json"),
            os.path.join(parent, "schema.json"),
        ):
            if os.path.exists(candidate):
                path = candidate
                break
        else:
            raise UsageError("no schema.json next to or inside the graph directory: pass --schema")
    if not os.path.isdir(args.directory):
        raise UsageError(f"{args.directory!r} is not a directory")
    schema = _read_schema_file(path, None)
    report = validate_graph(args.directory, schema, max_issues=args.max_issues)
    if args.json:
        print(json.dumps(report.to_dict(), ensure_ascii=False))
    else:
        for issue in report.issues:
            print(issue)
        total_n, total_e = sum(report.nodes.values()), sum(report.edges.values())
        verdict = (
            "valid"
            if report.ok
            else f"{len(report.issues)} problem(s)"
            + (" (stopped early)" if report.truncated else "")
        )
        print(f"{args.directory}: {total_n:,} nodes, {total_e:,} edges: {verdict}", file=sys.stderr)
    return EXIT_OK if report.ok else EXIT_INVALID
