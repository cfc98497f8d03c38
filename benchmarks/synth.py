"""Verified items per minute of ``gqlir synth`` (issue 9), on the finance example graph by
default, or on every example schema with ``--all``; prints per schema the items, candidates,
time, items per minute and dialect coverage.

    python benchmarks/synth.py [--n 1000] [--seed 7] [--all] [--out DIR]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gqlir.synth import SynthConfig, synthesize  # noqa: E402
from gqlir.synth.emitting import DEFAULT_DIALECTS  # noqa: E402

EXAMPLES = ("finance", "movies", "social", "bookstore", "biomedical", "encyclopedia")


def measure(schema: str, n: int, seed: int, out: str) -> dict:
    start = time.perf_counter()
    config = SynthConfig([str(ROOT / "schemas" / schema)], n=n, seed=seed)
    items, stats = synthesize(config, os.path.join(out, schema), fresh=True, rewriters=[])
    seconds = time.perf_counter() - start
    coverage = {d: sum(1 for i in items if d in i["queries"]) for d in DEFAULT_DIALECTS}
    return {
        "schema": schema,
        "items": len(items),
        "candidates": stats["schemas"][schema]["attempts"],
        "seconds": seconds,
        "per_minute": len(items) / seconds * 60,
        "coverage": coverage,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1000, help="items per schema (1000)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--all", action="store_true", help="every example schema")
    parser.add_argument("--out", help="keep the datasets here (default: a temporary folder)")
    args = parser.parse_args(argv)
    schemas = EXAMPLES if args.all else ("finance",)
    with tempfile.TemporaryDirectory() as tmp:
        out = args.out or tmp
        rows = [measure(s, args.n, args.seed, out) for s in schemas]
    print(f"{'schema':14} {'items':>6} {'cands':>6} {'seconds':>8} {'items/min':>10}  coverage")
    for r in rows:
        n = r["items"] or 1
        cov = " ".join(f"{d}={100 * k / n:.0f}%" for d, k in r["coverage"].items())
        print(
            f"{r['schema']:14} {r['items']:6} {r['candidates']:6} {r['seconds']:8.1f} "
            f"{r['per_minute']:10.0f}  {cov}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
