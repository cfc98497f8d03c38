"""Measure one parser or translator on a query file, in a process of its own, and print JSON.

Usage: ``python peer_worker.py QUERIES.json TOOL [--passes N] [--budget S] [--tracemalloc]``

Each tool runs in a fresh interpreter so that nothing it imports or caches can help or hurt
another tool, and so that ``ru_maxrss`` is the tool's own peak. Peers run with the interpreter
of ``benchmarks/.peers`` (their own dependencies); gqlir's tools run with gqlir's interpreter.
Only the standard library is imported here besides the tool itself.

Protocol: one warm-up pass (which also counts accepted queries: acceptance is deterministic),
then timed passes until ``--passes`` are done or ``--budget`` seconds of timed passes have been
spent (at least one). The reported time is the **median** timed pass, robust to a noisy pass
without rewarding a lucky one. Throughput is all queries over that time, rejected ones included.
"""

from __future__ import annotations

import argparse
import gc
import json
import resource
import statistics
import sys
import time
import traceback
from collections import Counter
from collections.abc import Callable
from typing import Any

Runner = Callable[[str], object]


def _rss_bytes() -> int:
    """Peak resident set size of this process so far (Linux reports KiB)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak if sys.platform == "darwin" else peak * 1024


# ---------------------------------------------------------------------------------------------
# Tools. Each factory imports its tool and returns (version, callable raising on rejection).
# ---------------------------------------------------------------------------------------------


def _gqlir_parse() -> tuple[str, Runner]:
    """The public ``gqlir.parse`` (text → IR); a ``gqlir.parse`` module's ``parse`` if that is
    what the installed layout has."""
    import importlib

    import gqlir

    parse = getattr(gqlir, "parse", None)
    if not callable(parse):
        parse = importlib.import_module("gqlir.parse").parse
    return _gqlir_version(), lambda q: parse(q, dialect="neo4j")


def _gqlir_translate(write: str) -> Callable[[], tuple[str, Runner]]:
    def factory() -> tuple[str, Runner]:
        from gqlir import transpile

        return _gqlir_version(), lambda q: transpile(q, read="neo4j", write=write)

    return factory


def _gqlir_version() -> str:
    try:
        from importlib.metadata import version

        return version("gqlir")
    except Exception:
        return "checkout"


def _graphglot_parse() -> tuple[str, Runner]:
    import graphglot
    from graphglot.dialect import Dialect

    neo4j = Dialect.get_or_raise("neo4j")
    return graphglot.__version__, neo4j.parse


def _graphglot_translate() -> tuple[str, Runner]:
    """neo4j → fullgql, the same steps as graphglot's own ``gg transpile`` command."""
    import graphglot
    from graphglot.dialect import Dialect
    from graphglot.transformations import materialize_implementation_defaults

    read, write = Dialect.get_or_raise("neo4j"), Dialect.get_or_raise("fullgql")

    def run(q: str) -> list[str]:
        result = read.validate(q)
        if not result.success:
            raise ValueError("; ".join(d.message for d in result.all_diagnostics) or "invalid")
        exprs = read.transform(result.expressions)
        for e in exprs:
            materialize_implementation_defaults(e, source=read, target=write)
        out = [write.generate(e, copy=False) for e in exprs]
        write.validate_output(out)
        return out

    return graphglot.__version__, run


def _cypherast_parse() -> tuple[str, Runner]:
    from importlib.metadata import version

    import cypherast

    return version("cypherast"), lambda q: cypherast.parse(q, read="neo4j5")


def _cypherast_translate() -> tuple[str, Runner]:
    from importlib.metadata import version

    import cypherast

    return version("cypherast"), lambda q: cypherast.transpile(q, from_="neo4j5", to_="opencypher9")


def _antlr4_cypher() -> tuple[str, Runner]:
    """grammars-v4 Cypher via ANTLR, two-stage: SLL with bail-out, then full LL on failure.

    SLL is much faster and almost always right; when it bails, the query is re-parsed with LL and
    the default strategy so that SLL's rare false rejections do not count. A new lexer and parser
    per query is the normal ANTLR usage: the DFA cache is shared by class and survives.
    """
    from importlib.metadata import version

    from antlr4 import CommonTokenStream, InputStream
    from antlr4.atn.PredictionMode import PredictionMode
    from antlr4.error.ErrorListener import ErrorListener
    from antlr4.error.Errors import ParseCancellationException
    from antlr4.error.ErrorStrategy import BailErrorStrategy, DefaultErrorStrategy
    from antlr4_cypher import CypherLexer, CypherParser

    class Reject(Exception):
        pass

    class Raising(ErrorListener):
        def syntaxError(self, recognizer, offendingSymbol, line, column, msg, e):
            raise Reject(f"{line}:{column} {msg}")

    raising = Raising()

    def run(q: str) -> object:
        lexer = CypherLexer(InputStream(q))
        lexer.removeErrorListeners()
        lexer.addErrorListener(raising)
        tokens = CommonTokenStream(lexer)
        parser = CypherParser(tokens)
        parser.removeErrorListeners()
        parser._interp.predictionMode = PredictionMode.SLL
        parser._errHandler = BailErrorStrategy()
        try:
            return parser.script()
        except ParseCancellationException:
            tokens.seek(0)
            parser.reset()
            parser.addErrorListener(raising)
            parser._interp.predictionMode = PredictionMode.LL
            parser._errHandler = DefaultErrorStrategy()
            return parser.script()

    return version("antlr4-cypher"), run


TOOLS: dict[str, Callable[[], tuple[str, Runner]]] = {
    "gqlir-parse": _gqlir_parse,
    "gqlir-translate-opencypher9": _gqlir_translate("opencypher9"),
    "gqlir-translate-iso-gql": _gqlir_translate("iso-gql"),
    "graphglot-parse": _graphglot_parse,
    "graphglot-translate": _graphglot_translate,
    "cypherast-parse": _cypherast_parse,
    "cypherast-translate": _cypherast_translate,
    "antlr4-cypher-parse": _antlr4_cypher,
}


# ---------------------------------------------------------------------------------------------
# Measurement
# ---------------------------------------------------------------------------------------------


def _pass(run: Runner, queries: list[str], errors: Counter[str] | None) -> tuple[float, float, int]:
    """One pass: wall seconds, CPU seconds of this process, queries accepted. CPU time is the
    steadier figure on a shared machine (it leaves out time spent waiting for a core)."""
    accepted = 0
    start = time.perf_counter()
    cpu_start = time.process_time()
    for q in queries:
        try:
            run(q)
            accepted += 1
        except RecursionError:
            if errors is not None:
                errors["RecursionError"] += 1
        except Exception as e:
            if errors is not None:
                errors[type(e).__name__] += 1
    return time.perf_counter() - start, time.process_time() - cpu_start, accepted


def measure(tool: str, queries: list[str], passes: int, budget: float, trace: bool) -> dict:
    """Warm-up pass, timed passes, optional tracemalloc pass; a JSON-ready summary."""
    out: dict[str, Any] = {"tool": tool, "total": len(queries), "available": False}
    t0 = time.perf_counter()
    try:
        version, run = TOOLS[tool]()
    except Exception as e:
        out["error"] = f"{type(e).__name__}: {e}"
        return out
    out.update(available=True, version=version, import_seconds=time.perf_counter() - t0)
    out["rss_after_import_bytes"] = _rss_bytes()
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))

    errors: Counter[str] = Counter()
    cold, _, accepted = _pass(run, queries, errors)
    out.update(cold_seconds=cold, accepted=accepted, reject_kinds=dict(errors.most_common(8)))

    times: list[float] = []
    cpu_times: list[float] = []
    spent = 0.0
    while len(times) < max(1, passes):
        gc.collect()
        seconds, cpu, _ = _pass(run, queries, None)
        times.append(seconds)
        cpu_times.append(cpu)
        spent += seconds
        if spent >= budget:
            break
    median = statistics.median(times)
    cpu_median = statistics.median(cpu_times)
    out.update(
        pass_seconds=times,
        pass_cpu_seconds=cpu_times,
        seconds=median,
        qps=len(queries) / median if median > 0 else None,
        cpu_qps=len(queries) / cpu_median if cpu_median > 0 else None,
        ms_per_query=1000 * median / len(queries) if queries else None,
        max_rss_bytes=_rss_bytes(),
    )
    if trace:
        import tracemalloc

        gc.collect()
        tracemalloc.start()
        tracemalloc.reset_peak()
        base, _ = tracemalloc.get_traced_memory()
        _pass(run, queries, None)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        out["tracemalloc_peak_bytes"] = peak - base
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("queries", help="JSON file holding a list of query strings")
    ap.add_argument("tool", choices=sorted(TOOLS))
    ap.add_argument("--passes", type=int, default=3, help="timed passes after the warm-up")
    ap.add_argument("--budget", type=float, default=30.0, help="stop timed passes after S s")
    ap.add_argument("--tracemalloc", action="store_true", help="add a tracemalloc pass")
    args = ap.parse_args(argv)
    with open(args.queries, encoding="utf-8") as fh:
        queries = json.load(fh)
    try:
        result = measure(args.tool, queries, args.passes, args.budget, args.tracemalloc)
    except Exception:
        result = {"tool": args.tool, "available": False, "error": traceback.format_exc(limit=3)}
    json.dump(result, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
