"""How many of the equivalence test's generated queries each target dialect can express.

The property test (tests/test_eval_equivalence.py) compares results only where a translation
exists; this prints, for the same generator and example count, how many queries translate to
each target, so that the number of comparisons per dialect pair is known.

    python benchmarks/equivalence_coverage.py [--examples 700]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from hypothesis import HealthCheck, given, settings  # noqa: E402
from test_eval_equivalence import TARGETS, _write, queries  # noqa: E402

import gqlir  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=700)
    args = parser.parse_args(argv)
    counts: Counter[str] = Counter()
    total = [0]

    @settings(
        max_examples=args.examples,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(query=queries())
    def count(query: str) -> None:
        total[0] += 1
        source = gqlir.parse(query, "neo4j")
        for target in TARGETS:
            try:
                _write(source, target)
            except gqlir.UnsupportedError:
                continue
            counts[target] += 1

    count()
    print(f"{total[0]} generated queries")
    for target in TARGETS:
        print(f"  {target:15} {counts[target]:5} translate")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
