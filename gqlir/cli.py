"""The ``gqlir`` command line: ``validate``, ``translate``, ``parse`` and ``dialects``.

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
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from functools import partial
from typing import IO, TYPE_CHECKING, Any, NoReturn, Self

from .errors import DialectError, GqlirError, ParseError, UnsupportedError

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
  one JSON object per line with a "query" string; every other field is carried
  through to the output line, in input order. A malformed line (not JSON, not an
  object, no "query" string) becomes a record with "status": "input_error" and an
  "error" naming the line number; the run goes on. A summary goes to stderr
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
    _add_query_arguments(p)
    _add_common_arguments(p)
    p.set_defaults(handler=_cmd_translate)

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
    _add_common_arguments(p)
    p.set_defaults(handler=_cmd_dialects)
    return parser


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
    p.add_argument("-o", "--output", metavar="OUT", help="write results here, not stdout")
    p.add_argument(
        "-q", "--quiet", action="store_true", help="no summary and no progress bar in batch mode"
    )


def _add_common_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="print results and errors as JSON")
    p.add_argument(
        "--debug",
        action="store_true",
        help="let internal errors raise with a traceback (for gqlir developers)",
    )


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
        lines.append(f"  construct: {exc.construct} (target dialect: {exc.dialect})")
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
    """One non-blank line of a JSONL input: its number, raw size, and the record or the problem."""

    number: int
    size: int
    record: dict[str, Any] | None = None
    problem: str | None = None
    column: int | None = None


def _read_jsonl(stream: IO[Any]) -> Iterator[_Line]:
    """Records of a JSONL stream; a bad line becomes a :class:`_Line` with a ``problem``.

    Bytes are split on ``\\n`` only and decoded line by line, so one undecodable or malformed
    line cannot disturb its neighbours (text mode would also split on U+2028 inside strings).
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
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as exc:
            yield _Line(number, size, problem=f"not valid JSON ({exc.msg})", column=exc.colno)
            continue
        except RecursionError:
            yield _Line(number, size, problem="JSON nested too deeply")
            continue
        if not isinstance(value, dict):
            kind = _JSON_KINDS.get(type(value), "null")
            yield _Line(number, size, problem=f"expected a JSON object, got {kind}")
            continue
        if "query" not in value:
            yield _Line(number, size, record=value, problem='no "query" field')
            continue
        if not isinstance(value["query"], str):
            yield _Line(number, size, record=value, problem='"query" is not a string')
            continue
        yield _Line(number, size, record=value)


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


def _validate_one(text: str, dialect: Dialect) -> _Outcome:
    from .api import validate

    result = validate(text, dialect.name)
    if result.valid:
        return _Outcome(VALID, {"valid": True})
    err = result.error
    return _Outcome(INVALID, {"valid": False}, err.to_dict() if err else None, exc=err)


def _translate_one(text: str, source: Dialect, target: Dialect) -> _Outcome:
    """Classify by error type: UnsupportedError means the target cannot say it; any other
    GqlirError from the pipeline means the source text is not a query of the source dialect."""
    from .api import transpile

    try:
        out = transpile(text, source.name, target.name)
    except UnsupportedError as exc:
        fields = {"status": UNSUPPORTED, "translation": None}
        return _Outcome(UNSUPPORTED, fields, exc.to_dict(), construct=exc.construct, exc=exc)
    except DialectError:
        raise  # a configuration problem (e.g. a bad sql:<flavour>), not this query's fault
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
    run = partial(_validate_one, dialect=dialect)
    if args.input is not None:
        return _run_batch(
            args,
            run,
            reserved=("valid", "status", "error"),
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
        _write_single(args, _json_line(data))
    elif outcome.status == VALID:
        _write_single(args, f"valid ({dialect.name})")
    else:
        assert outcome.exc is not None
        print(_format_error(outcome.exc), file=sys.stderr)
    return EXIT_OK if outcome.status == VALID else EXIT_INVALID


def _cmd_translate(args: argparse.Namespace) -> int:
    from .dialect import get_dialect

    source = get_dialect(args.source)
    target = get_dialect(args.target)
    run = partial(_translate_one, source=source, target=target)
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
    if args.json:
        data: dict[str, Any] = {
            "status": outcome.status,
            "from": source.name,
            "to": target.name,
            "translation": outcome.fields.get("translation"),
        }
        if outcome.error:
            data["error"] = outcome.error
        _write_single(args, _json_line(data))
    elif outcome.status == OK:
        _write_single(args, outcome.fields["translation"])
    else:
        assert outcome.exc is not None
        print(_format_error(outcome.exc), file=sys.stderr)
    return EXIT_OK if outcome.status == OK else EXIT_INVALID


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


def _cmd_dialects(args: argparse.Namespace) -> int:
    from dataclasses import asdict

    from .dialect import all_dialects, get_dialect

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
    tally = _Tally()
    started = time.monotonic()
    with ExitStack() as stack:
        stream, size = _open_input(args.input, stack)
        out = _open_output(args.output, args.input, stack)
        _process(args, run, stream, out, size, reserved, failed, title, tally)
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
    stream: IO[Any],
    out: IO[str],
    size: int | None,
    reserved: tuple[str, ...],
    failed: dict[str, Any],
    title: str,
    tally: _Tally,
) -> None:
    """The batch loop: one output line per non-blank input line, whatever the line holds."""
    try:
        with _Progress(enabled=not args.quiet, total=size, title=title) as progress:
            for line in _read_jsonl(stream):
                tally.total += 1
                if line.problem is not None:
                    outcome = _input_error(line, failed)
                    tally.input_errors.append(outcome.error["message"] if outcome.error else "")
                else:
                    assert line.record is not None
                    outcome = _guarded(run, line.record["query"], args.debug, failed)
                tally.statuses[outcome.status] += 1
                if outcome.construct:
                    tally.constructs[outcome.construct] += 1
                out.write(_record_line(line.record, outcome, reserved))
                progress.advance(line.size, tally.total)
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise UsageError(f"I/O error: {exc.strerror or exc}") from None


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
    """One JSONL line. U+2028/U+2029 are escaped because some line readers split on them."""
    text = json.dumps(data, ensure_ascii=False)
    if "\u2028" in text or "\u2029" in text:
        text = text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    return text + "\n"


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
