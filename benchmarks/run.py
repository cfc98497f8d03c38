"""Benchmark gqlir against peer parsers on the openCypher TCK's valid queries (``make bench``).

Measures, side by side in one run and on one query list (the TCK's unique syntactically valid
queries, see ``gqlir.conformance.valid_queries``):

* gqlir parse to IR (``gqlir.parse.parse``, dialect ``neo4j``) and translate
  (``gqlir.transpile`` neo4j → opencypher9 and neo4j → iso-gql);
* the peers graphglot, cypherast and antlr4-cypher, from their own venv ``benchmarks/.peers``;
* the time of ``import gqlir`` in a fresh interpreter.

Every tool runs in its own subprocess (``peer_worker.py``): warm-up pass, then the median of up
to ``--passes`` timed passes. Results go to stdout as a table and to
``benchmarks/results/latest.json``. Nothing here asserts a timing: machines are noisy, and the
figures are for reading, not for failing a build.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

PEERS_VENV = HERE / ".peers"
WORKER = HERE / "peer_worker.py"

GQLIR_TOOLS = ("gqlir-parse", "gqlir-translate-opencypher9", "gqlir-translate-iso-gql")
PEER_TOOLS = (
    "graphglot-parse",
    "cypherast-parse",
    "antlr4-cypher-parse",
    "graphglot-translate",
    "cypherast-translate",
)
# Which gqlir measurement each peer is compared with (same task, same target family).
COMPARE_WITH = {
    "graphglot-parse": "gqlir-parse",
    "cypherast-parse": "gqlir-parse",
    "antlr4-cypher-parse": "gqlir-parse",
    "graphglot-translate": "gqlir-translate-iso-gql",  # neo4j → fullgql
    "cypherast-translate": "gqlir-translate-opencypher9",  # neo4j5 → opencypher9
}
DESCRIPTION = {
    "gqlir-parse": "parse neo4j → IR",
    "gqlir-translate-opencypher9": "translate neo4j → opencypher9",
    "gqlir-translate-iso-gql": "translate neo4j → iso-gql",
    "graphglot-parse": "parse neo4j → AST",
    "cypherast-parse": "parse neo4j5 → AST",
    "antlr4-cypher-parse": "parse tree, SLL→LL",
    "graphglot-translate": "translate neo4j → fullgql",
    "cypherast-translate": "translate neo4j5 → opencypher9",
}
# The design's performance targets (design.md §7), reported as met / not met.
TARGET_PARSE_QPS = 5000
TARGET_PARSE_VS_GRAPHGLOT = 10
TARGET_TRANSLATE_QPS = 3000
TARGET_IMPORT_SECONDS = 0.3


def _log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def _gqlir_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    return env


def measure_import(repeats: int) -> dict[str, Any]:
    """Seconds to ``import gqlir`` in fresh interpreters (interpreter start-up excluded)."""
    code = "import time; t = time.perf_counter(); import gqlir; print(time.perf_counter() - t)"
    times: list[float] = []
    for _ in range(repeats):
        proc = subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            cwd=ROOT,
            env=_gqlir_env(),
            timeout=120,
            check=False,
        )
        if proc.returncode != 0:
            return {"available": False, "error": proc.stderr.strip().splitlines()[-1:]}
        times.append(float(proc.stdout.strip()))
    return {
        "available": True,
        "median_seconds": statistics.median(times),
        "min_seconds": min(times),
        "runs": times,
    }


def ensure_peers(setup: bool) -> Path | None:
    """The peers' interpreter, creating ``benchmarks/.peers`` first when allowed."""
    python = PEERS_VENV / "bin" / "python"
    if not python.exists() and setup:
        _log("creating benchmarks/.peers (benchmarks/setup_peers.sh) ...")
        # Build the peers' venv on the interpreter running this benchmark: one Python version
        # for gqlir and the peers.
        env = {**os.environ, "GQLIR_PYTHON": getattr(sys, "_base_executable", sys.executable)}
        proc = subprocess.run(
            ["bash", str(HERE / "setup_peers.sh"), str(PEERS_VENV)], check=False, env=env
        )
        if proc.returncode != 0:
            _log("warning: setup_peers.sh failed; peers will be skipped")
    return python if python.exists() else None


def run_worker(
    python: Path | str,
    queries_file: Path,
    tool: str,
    args: argparse.Namespace,
    env: dict[str, str] | None,
    trace: bool,
) -> dict[str, Any]:
    cmd = [
        str(python),
        str(WORKER),
        str(queries_file),
        tool,
        "--passes",
        str(args.passes),
        "--budget",
        str(args.budget),
    ]
    if trace:
        cmd.append("--tracemalloc")
    started = time.perf_counter()
    try:
        proc = subprocess.run(
            cmd,
            capture_output=True,
            text=True,
            env=env,
            cwd=ROOT,
            timeout=args.timeout,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return {"tool": tool, "available": False, "error": f"timed out after {args.timeout} s"}
    wall = time.perf_counter() - started
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    if proc.returncode != 0 or not lines:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-3:]
        return {"tool": tool, "available": False, "error": " | ".join(tail) or "no output"}
    result = json.loads(lines[-1])
    result["wall_seconds"] = wall
    return result


def _usable(r: dict[str, Any] | None) -> bool:
    """A measurement that means something: the tool ran and accepted at least one query.

    A tool that rejects everything (say, a parser still being written) can be very fast at it;
    comparing that speed with a peer's would be meaningless.
    """
    return bool(r and r.get("available") and r.get("accepted") and r.get("qps"))


def _mib(n: int | None) -> str:
    return f"{n / 2**20:.1f}" if n else "-"


def _kib(n: int | None) -> str:
    return f"{n / 2**10:.0f}" if n is not None else "-"


def print_table(results: list[dict[str, Any]]) -> None:
    by_tool = {r["tool"]: r for r in results}
    head = (
        f"{'tool':29} {'task':32} {'accepted':>11} {'q/s':>9} {'cpu q/s':>9} {'ms/q':>7} "
        f"{'passes':>6} {'RSS MiB':>8} {'heap KiB':>8} {'gqlir/peer':>10}"
    )
    print(head)
    print("-" * len(head))
    for r in results:
        tool = r["tool"]
        if not r.get("available"):
            print(f"{tool:29} {DESCRIPTION.get(tool, ''):32} unavailable: {r.get('error', '')}")
            continue
        ratio = "-"
        ref = by_tool.get(COMPARE_WITH.get(tool, ""))
        if _usable(ref) and _usable(r):
            ratio = f"{ref['qps'] / r['qps']:.1f}x"  # type: ignore[index]
        print(
            f"{tool:29} {DESCRIPTION.get(tool, ''):32} "
            f"{r['accepted']:>5}/{r['total']:<5} {r['qps']:>9.0f} {r.get('cpu_qps') or 0:>9.0f} "
            f"{r['ms_per_query']:>7.2f} "
            f"{len(r['pass_seconds']):>6} {_mib(r.get('max_rss_bytes')):>8} "
            f"{_kib(r.get('tracemalloc_peak_bytes')):>8} {ratio:>10}"
        )


def target_report(results: list[dict[str, Any]], imp: dict[str, Any]) -> list[str]:
    """design.md §7 targets against this run's figures (informational, never a failure)."""
    by = {r["tool"]: r for r in results if _usable(r)}
    lines: list[str] = []
    for r in results:
        if r["tool"] in GQLIR_TOOLS and not _usable(r):
            lines.append(f"{r['tool']}: no figure (unavailable, or accepted no query)")

    def verdict(ok: bool) -> str:
        return "met" if ok else "NOT met"

    def accepted(tool: str) -> str:
        return f"{by[tool]['accepted']}/{by[tool]['total']} accepted"

    if "gqlir-parse" in by:
        qps = by["gqlir-parse"]["qps"]
        cpu = by["gqlir-parse"].get("cpu_qps") or 0.0
        lines.append(
            f"parse ≥ {TARGET_PARSE_QPS} q/s: {qps:.0f} q/s wall, {cpu:.0f} q/s CPU "
            f"({accepted('gqlir-parse')}), {verdict(qps >= TARGET_PARSE_QPS)} (wall), "
            f"{verdict(cpu >= TARGET_PARSE_QPS)} (CPU)"
        )
        if "graphglot-parse" in by:
            ratio = qps / by["graphglot-parse"]["qps"]
            lines.append(
                f"parse ≥ {TARGET_PARSE_VS_GRAPHGLOT}x graphglot: {ratio:.1f}x, "
                f"{verdict(ratio >= TARGET_PARSE_VS_GRAPHGLOT)}"
            )
    if "gqlir-translate-iso-gql" in by:
        qps = by["gqlir-translate-iso-gql"]["qps"]
        lines.append(
            f"translate → iso-gql ≥ {TARGET_TRANSLATE_QPS} q/s: {qps:.0f} q/s "
            f"({accepted('gqlir-translate-iso-gql')}), {verdict(qps >= TARGET_TRANSLATE_QPS)}"
        )
    if imp.get("available"):
        s = imp["median_seconds"]
        lines.append(
            f"import gqlir < {TARGET_IMPORT_SECONDS} s: {s:.3f} s, "
            f"{verdict(s < TARGET_IMPORT_SECONDS)}"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="gqlir vs peer parsers on the openCypher TCK")
    ap.add_argument("--quick", action="store_true", help="a 200-query sample, 2 timed passes")
    ap.add_argument("--sample", type=int, default=None, help="use N evenly spaced queries")
    ap.add_argument(
        "--max-chars",
        type=int,
        default=None,
        help="only queries of at most N characters (e.g. 2000 leaves out the two data-setup "
        "CREATE scripts of 28 and 42 KB: the 'TCK-sized' corpus)",
    )
    ap.add_argument("--passes", type=int, default=None, help="timed passes (default 3; quick 2)")
    ap.add_argument("--budget", type=float, default=20.0, help="stop timed passes after S s")
    ap.add_argument("--timeout", type=float, default=1800.0, help="per-tool limit in seconds")
    ap.add_argument("--tools", default="", help="comma-separated subset of tools to run")
    ap.add_argument("--no-peers", action="store_true", help="measure gqlir only")
    ap.add_argument("--no-setup", action="store_true", help="do not create benchmarks/.peers")
    ap.add_argument("--tck", default=None, help="TCK features directory (else GQLIR_TCK_DIR)")
    ap.add_argument("--out", default=str(HERE / "results" / "latest.json"))
    args = ap.parse_args(argv)
    # Run as a script from a checkout: gqlir need not be installed to find the TCK queries.
    sys.path.insert(0, str(ROOT))
    from gqlir.conformance import default_tck_dir, valid_queries

    if args.passes is None:
        args.passes = 2 if args.quick else 3
    sample = args.sample if args.sample is not None else (200 if args.quick else None)

    tck = Path(args.tck) if args.tck else default_tck_dir()
    if tck is None or not tck.is_dir():
        _log("error: openCypher TCK not found (set GQLIR_TCK_DIR or pass --tck)")
        return 2
    queries = valid_queries(tck)
    corpus_size = len(queries)
    if args.max_chars is not None:
        queries = [q for q in queries if len(q) <= args.max_chars]
    if sample and sample < len(queries):
        step = len(queries) / sample
        queries = [queries[int(i * step)] for i in range(sample)]
    mean = sum(map(len, queries)) / max(1, len(queries))
    _log(
        f"{len(queries)} queries, {mean:.0f} characters on average "
        f"(of {corpus_size} unique valid TCK queries in {tck})"
    )

    wanted = [t.strip() for t in args.tools.split(",") if t.strip()]
    unknown = set(wanted) - set(GQLIR_TOOLS) - set(PEER_TOOLS)
    if unknown:
        _log(f"error: unknown tools {sorted(unknown)}")
        return 2

    def selected(tool: str) -> bool:
        return not wanted or tool in wanted

    imp = measure_import(5)
    if imp.get("available"):
        _log(f"import gqlir: {imp['median_seconds']:.3f} s (median of 5 fresh interpreters)")
    else:
        _log(f"import gqlir failed: {imp.get('error')}")

    results: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        qfile = Path(tmp) / "queries.json"
        qfile.write_text(json.dumps(queries), encoding="utf-8")

        for tool in filter(selected, GQLIR_TOOLS):
            _log(f"measuring {tool} ...")
            r = run_worker(sys.executable, qfile, tool, args, _gqlir_env(), trace=True)
            what = "parser" if tool == "gqlir-parse" else "translator"
            if not r.get("available"):
                _log(f"gqlir's {what} is unavailable ({r.get('error')}); continuing")
            elif r.get("accepted") == 0:
                _log(f"gqlir's {what} accepted no query (rejections: {r.get('reject_kinds')})")
            results.append(r)

        peers_python = None if args.no_peers else ensure_peers(not args.no_setup)
        if not args.no_peers and peers_python is None:
            _log("peers venv missing (run benchmarks/setup_peers.sh); peers skipped")
        for tool in filter(selected, PEER_TOOLS if peers_python else ()):
            _log(f"measuring {tool} ...")
            env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
            r = run_worker(peers_python, qfile, tool, args, env, trace=False)  # type: ignore[arg-type]
            if not r.get("available"):
                _log(f"peer {tool} unavailable: {r.get('error')}")
            results.append(r)

    print()
    print(
        f"{len(queries)} TCK queries, avg {sum(map(len, queries)) / len(queries):.0f} chars; "
        "q/s = median warm pass; RSS = worker peak; heap = tracemalloc peak (gqlir only)"
    )
    print_table(results)
    if imp.get("available"):
        print(
            f"\nimport gqlir: {imp['median_seconds']:.3f} s median, {imp['min_seconds']:.3f} s min"
        )
    targets = target_report(results, imp)
    if targets:
        print("\ntargets (design.md §7):")
        for line in targets:
            print(f"  {line}")

    ratios = {}
    by_tool = {r["tool"]: r for r in results if _usable(r)}
    for peer, ref in COMPARE_WITH.items():
        if peer in by_tool and ref in by_tool:
            ratios[f"{ref} / {peer}"] = by_tool[ref]["qps"] / by_tool[peer]["qps"]
    report = {
        "timestamp": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "mode": "quick" if args.quick else "full",
        "machine": {
            "python": sys.version.split()[0],
            "implementation": platform.python_implementation(),
            "platform": platform.platform(),
            "cpus": os.cpu_count(),
        },
        "corpus": {
            "source": "openCypher TCK unique syntactically valid queries",
            "tck_dir": str(tck),
            "unique_valid": corpus_size,
            "measured": len(queries),
            "max_chars": args.max_chars,
            "avg_chars": sum(map(len, queries)) / len(queries),
        },
        "method": {
            "warmup_passes": 1,
            "timed_passes_max": args.passes,
            "timed_budget_seconds": args.budget,
            "statistic": "median of timed passes",
            "peak_rss": "ru_maxrss of the worker process",
            "heap_peak": "tracemalloc peak over one extra pass (gqlir tools)",
        },
        "import_gqlir": imp,
        "results": results,
        "ratios": ratios,
        "targets": targets,
    }
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(f"\nwrote {out.relative_to(ROOT) if out.is_relative_to(ROOT) else out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
