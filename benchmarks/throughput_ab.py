"""Translation throughput of this checkout against another one, alternating runs.

The machine is shared, so one run of each side says little: this runs
``translate_throughput.py`` (this checkout's script, with ``GQLIR_TREE`` pointing it at each
tree in turn) ``--rounds`` times for each side, alternating, and prints for each target the
median CPU queries/s of each side and their ratio (this checkout over the other).

    git worktree add --detach /tmp/base 0b2bd39
    python benchmarks/throughput_ab.py /tmp/base --to iso-gql --to tugraph-gql
    python benchmarks/throughput_ab.py /tmp/base --all --queries benchmarks/data/synth_queries.jsonl
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
RATE = re.compile(r"^(\S+): \d+ queries in [\d.]+ s, ([\d,]+) queries/s$")


def rates(tree: Path, args: list[str]) -> dict[str, float]:
    """Each target's queries/s, from one run of translate_throughput.py on ``tree``."""
    env = {**os.environ, "GQLIR_TREE": str(tree)}
    run = subprocess.run(
        [sys.executable, str(HERE / "translate_throughput.py"), *args],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    found = {}
    for line in run.stdout.splitlines():
        match = RATE.match(line)
        if match:
            found[match.group(1)] = float(match.group(2).replace(",", ""))
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("other", type=Path, help="the other checkout (its repository root)")
    parser.add_argument("--rounds", type=int, default=4, help="runs of each side (alternating)")
    args, passed = parser.parse_known_args(argv)
    passed = [*passed, "--repeat", "3"] if "--repeat" not in passed else passed
    mine = HERE.parent
    seen: dict[Path, dict[str, list[float]]] = {args.other: {}, mine: {}}
    for _ in range(args.rounds):
        for tree in (args.other, mine):
            for target, rate in rates(tree, passed).items():
                seen[tree].setdefault(target, []).append(rate)
    for target, other in seen[args.other].items():
        before = statistics.median(other)
        now = statistics.median(seen[mine].get(target, [0.0]))
        print(f"{target:16s} other {before:8,.0f}  this {now:8,.0f}  ratio {now / before:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
