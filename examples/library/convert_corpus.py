"""Convert a corpus of Cypher queries to ISO GQL, Spanner Graph and DuckDB SQL, counting what
each target refuses (gqlir never drops meaning: a refusal names the construct, by a stable id).

    python examples/library/convert_corpus.py [OUT.jsonl]
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import gqlir

MOVIES = Path(__file__).resolve().parents[2] / "schemas" / "movies"

CORPUS: list[str] = [
    "MATCH (m:Movie) RETURN m.title AS title",
    "MATCH (m:Movie) WHERE m.released >= 2000 RETURN m.title AS title ORDER BY title LIMIT 5",
    "MATCH (p:Person)-[:ACTED_IN]->(m:Movie) RETURN p.name AS name, count(m) AS movies",
    "MATCH (p:Person)-[:DIRECTED]->(m:Movie) WHERE p.born > 1950 RETURN DISTINCT p.name AS name",
    "MATCH (a:Person)-[:ACTED_IN*1..2]-(b:Person) RETURN DISTINCT b.name AS name",
    "MATCH (m:Movie) RETURN m.title AS title, toUpper(m.title) AS upper",
    "MATCH (m:Movie) WHERE m.title =~ 'The.*' RETURN m.title AS title",
    "MATCH (m:Movie) RETURN m",
    "MATCH (p:Person) RETURN p.name AS name UNION MATCH (m:Movie) RETURN m.title AS name",
    "MATCH (p:Person) WITH p, size([(p)-[:ACTED_IN]->(m) | m]) AS n RETURN p.name AS name, n",
    "UNWIND [1, 2, 3] AS x RETURN x * 2 AS y",
    "MATCH (m:Movie) RETURN collect(m.title)[0] AS first",
]

TARGETS: dict[str, gqlir.EmitOptions] = {
    "iso-gql": {},
    "spanner": {"graph": "movies"},
    "sql:duckdb": {},
}


def main(out: Path | None) -> int:
    refusals: dict[str, Counter[str]] = {target: Counter() for target in TARGETS}
    converted: Counter[str] = Counter()
    records: list[dict[str, str | None]] = []
    for query in CORPUS:
        record: dict[str, str | None] = {"cypher": query}
        for target, options in TARGETS.items():
            try:
                text = gqlir.transpile(query, "neo4j", target, schema=MOVIES, **options)
            except gqlir.UnsupportedError as refused:
                refusals[target][refused.id] += 1
                text = None
            else:
                converted[target] += 1
            record[target] = text
        records.append(record)
    for target in TARGETS:
        print(f"{target}: {converted[target]}/{len(CORPUS)} converted")
        for refusal, n in refusals[target].most_common():
            print(f"  refused {n}x: {refusal}")
    if out is not None:
        with out.open("w", encoding="utf-8") as fh:
            for record in records:
                fh.write(json.dumps(record, ensure_ascii=False) + "\n")
        print(f"wrote {len(records)} records to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else None))
