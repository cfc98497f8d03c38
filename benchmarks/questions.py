"""The question check of issue 27 at full size: ``gqlir synth --n 500`` on every example
schema, then, per level, the questions that show a variable, a relationship-type spelling or a
snake_case/camelCase identifier (bad) and those that leave out a literal, a node label or a
relationship type of their query (missing). Exits 1 if any count is not zero.

    python benchmarks/questions.py [--n 500] [--seed 7]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import gqlir  # noqa: E402
from gqlir.schema import load_schema  # noqa: E402
from gqlir.synth import SynthConfig, synthesize  # noqa: E402
from gqlir.synth.wording import bad_tokens, missing  # noqa: E402

EXAMPLES = ("biomedical", "bookstore", "encyclopedia", "finance", "movies", "social")


def check(schema: str, n: int, seed: int, out: str) -> tuple[int, Counter, Counter]:
    config = SynthConfig([str(ROOT / "schemas" / schema)], n=n, seed=seed)
    items, _ = synthesize(config, str(Path(out) / schema), fresh=True, rewriters=[])
    graph = load_schema(str(ROOT / "schemas" / schema / "schema.json"))
    bad: Counter = Counter()
    lost: Counter = Counter()
    for item in items:
        query = gqlir.parse(item["queries"]["neo4j"])
        for level, text in item["questions"].items():
            if bad_tokens(text, query, graph):
                bad[level] += 1
                print(f"bad {schema} {level}: {text}", file=sys.stderr)
            if missing(text, query, graph):
                lost[level] += 1
                print(f"missing {schema} {level}: {text}", file=sys.stderr)
    return len(items), bad, lost


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=500)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    failed = False
    with tempfile.TemporaryDirectory() as out:
        print("| schema | items | questions | bad | missing |")
        print("|---|---|---|---|---|")
        for schema in EXAMPLES:
            items, bad, lost = check(schema, args.n, args.seed, out)
            levels = 4 * items
            print(f"| {schema} | {items} | {levels} | {sum(bad.values())} | {sum(lost.values())} |")
            failed |= bool(bad or lost)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
