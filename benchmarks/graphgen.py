"""Generate a large graph for an example schema, then validate it and load it into an embedded
engine, printing time and peak memory of each step (not run in CI).

    PYTHONPATH=. python benchmarks/graphgen.py                       # 1,000,000 edges, finance
    PYTHONPATH=. python benchmarks/graphgen.py --edges 200000 --engine kuzu --keep /tmp/g

Peak memory is the process's maximum resident set size (``resource.getrusage``), read after
each step: generation runs first, so the first figure is generation's own peak (interpreter and
imports included); the later figures include whatever the validator and the engine loader hold.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from gqlir.engines.registry import open_engine
from gqlir.graphgen import generate
from gqlir.schema import load_schema
from gqlir.schema.graphdata import validate_graph


def peak_mib() -> float:
    kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    return kib / 1024


def size_mib(directory: str) -> float:
    total = 0
    for root, _, files in os.walk(directory):
        total += sum(os.path.getsize(os.path.join(root, f)) for f in files)
    return total / (1 << 20)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--schema", default="schemas/finance/schema.json")
    ap.add_argument("--edges", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--layout", choices=("jsonl", "csv"), default="jsonl")
    ap.add_argument("--engine", default="duckdb", help="embedded engine to load into")
    ap.add_argument("--keep", metavar="DIR", help="write here and keep it (default: a temp dir)")
    args = ap.parse_args()

    schema = load_schema(args.schema)
    out = args.keep or tempfile.mkdtemp(prefix="gqlir-graphgen-")
    print(f"schema {schema.name}: {args.edges:,} edges, seed {args.seed}, into {out}")
    start_rss = peak_mib()
    t = time.perf_counter()
    result = generate(schema, out, seed=args.seed, target_edges=args.edges, layout=args.layout)
    gen_s = time.perf_counter() - t
    gen_rss = peak_mib()
    print(
        f"generate: {result.node_total:,} nodes, {result.edge_total:,} edges, "
        f"{size_mib(out):,.0f} MiB on disk in {gen_s:.1f} s "
        f"({result.edge_total / gen_s:,.0f} edges/s); peak RSS {gen_rss:,.0f} MiB "
        f"({start_rss:,.0f} MiB before)"
    )
    t = time.perf_counter()
    report = validate_graph(out, schema, max_issues=20)
    val_s = time.perf_counter() - t
    verdict = "valid" if report.ok else f"{len(report.issues)} problem(s): {report.issues[:3]}"
    print(f"validate: {verdict} in {val_s:.1f} s; peak RSS so far {peak_mib():,.0f} MiB")
    t = time.perf_counter()
    engine = open_engine(args.engine)
    try:
        counts = engine.load(schema, out)
    finally:
        engine.close()
    load_s = time.perf_counter() - t
    print(
        f"load into {args.engine}: {sum(counts.values()):,} rows/records in {load_s:.1f} s; "
        f"peak RSS so far {peak_mib():,.0f} MiB"
    )
    if not args.keep:
        shutil.rmtree(out, ignore_errors=True)
    return 0 if report.ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
