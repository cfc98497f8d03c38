"""Profile parsing (or translating) the corpus benchmark's distinct queries with cProfile.

    python benchmarks/profile_corpus.py                    # parse neo4j → IR, by own time
    python benchmarks/profile_corpus.py --translate iso-gql --sort cumtime --top 40

One untimed pass warms the caches (tables, builders) first, so the profile shows the steady
state a batch run spends its time in.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import gqlir
from corpus import distinct_queries
from gqlir.errors import GqlirError


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--translate", metavar="TARGET", help="translate neo4j → TARGET instead")
    ap.add_argument("--sort", default="tottime", help="pstats sort key (tottime, cumtime, ...)")
    ap.add_argument("--top", type=int, default=30, help="rows to print")
    args = ap.parse_args(argv)
    queries = distinct_queries()

    def work() -> None:
        for text in queries:
            try:
                if args.translate:
                    gqlir.transpile(text, "neo4j", args.translate)
                else:
                    gqlir.parse(text, "neo4j")
            except GqlirError:
                pass  # a refused or unreadable query is part of the workload being profiled

    work()
    profile = cProfile.Profile()
    profile.runcall(work)
    pstats.Stats(profile).sort_stats(args.sort).print_stats(args.top)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
