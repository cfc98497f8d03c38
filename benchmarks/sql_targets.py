"""How many of the typical Text-to-Cypher queries (corpus/cypher-sql/typical.jsonl) each SQL
target writes, and why it refuses the others.

    python benchmarks/sql_targets.py [--why]

tests/test_sql_targets.py checks that every translation gives the reference evaluator's
answer on SQLite, DuckDB and PostgreSQL.
"""

from __future__ import annotations

import argparse
import importlib.util
import os

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location(
    "regen", os.path.join(HERE, "..", "tests", "golden", "sql", "regen.py")
)
regen = importlib.util.module_from_spec(_spec)  # type: ignore[arg-type]
_spec.loader.exec_module(regen)  # type: ignore[union-attr]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--why", action="store_true", help="list each refusal's construct")
    args = parser.parse_args()
    entries = regen.typical()
    for target in regen.TARGETS:
        refused = [(e["id"], regen.translation(e, target)) for e in entries]
        refused = [(i, t) for i, t in refused if t.startswith("REFUSED: ")]
        print(f"{target:16} {len(entries) - len(refused)}/{len(entries)}")
        if args.why:
            for i, t in refused:
                print(f"    {i}: {t.removeprefix('REFUSED: ')}")


if __name__ == "__main__":
    main()
