"""Score Text2GQL predictions on the movies graph with gqlir's reference engine.

Each prediction is first validated against the schema (a failure category with a position and a
"did you mean"), then run next to its gold query; execution accuracy compares the answers.

    python examples/library/eval_loop.py [GRAPH_FOLDER]
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import gqlir
from gqlir.engines import open_engine
from gqlir.schema import load_schema

MOVIES = Path(__file__).resolve().parents[2] / "schemas" / "movies"

#: (gold, prediction) pairs as a model might write them.
PAIRS: list[tuple[str, str]] = [
    (
        "MATCH (m:Movie) WHERE m.released > 2000 RETURN m.title AS title",
        "MATCH (m:Movie) WHERE m.released > 2000 RETURN m.title AS title",
    ),
    (
        "MATCH (p:Person)-[:ACTED_IN]->(m:Movie) RETURN count(DISTINCT p) AS actors",
        "MATCH (p:Person)-[:ACTED_IN]->(:Movie) RETURN count(DISTINCT p) AS actors",
    ),
    (
        "MATCH (m:Movie) RETURN m.title AS title ORDER BY m.released LIMIT 3",
        "MATCH (m:Movie) RETURN m.title AS title ORDER BY m.released DESC LIMIT 3",
    ),
    (
        "MATCH (p:Person) WHERE p.born < 1960 RETURN p.name AS name",
        "MATCH (p:Persn) WHERE p.born < 1960 RETURN p.name AS name",
    ),
    (
        "MATCH (m:Movie) RETURN m.title AS title",
        "MATCH (m:Movie) RETURN m.titel AS title",
    ),
    (
        "MATCH (p:Person)-[:DIRECTED]->(m:Movie) RETURN p.name AS name, m.title AS title",
        "MATCH (p:Person)-[:DIRECTED]->(m:Movie) RETURN p.name AS name, m.title AS title",
    ),
    (
        "MATCH (m:Movie) RETURN count(m) AS n",
        "MATCH (m:Movie RETURN count(m) AS n",
    ),
    (
        "MATCH (m:Movie)<-[:ACTED_IN]-(p:Person) RETURN m.title AS t, count(p) AS cast",
        "MATCH (m:Movie)<-[:ACTED_IN]-(p:Person) RETURN m.title AS t, count(*) AS cast",
    ),
]


def main(folder: Path) -> int:
    schema = load_schema(str(folder / "schema.json"))
    categories: Counter[str] = Counter()
    with open_engine("reference") as engine:
        engine.load(schema, str(folder / "graph"))
        for i, (gold, pred) in enumerate(PAIRS, 1):
            check = gqlir.validate(pred, "neo4j", schema=schema)
            if not check.valid:
                for error in check.errors:
                    print(f"{i}: invalid [{error.code}] {error.message} (column {error.column})")
                categories["invalid"] += 1
                continue
            want = engine.run(gold, dialect="neo4j", timeout=10, read_only=True)
            got = engine.run(pred, dialect="neo4j", timeout=10, read_only=True)
            why = want.difference(got)
            if why is None:
                print(f"{i}: correct ({len(got.rows)} rows)")
                categories["correct"] += 1
            else:
                print(f"{i}: wrong answer: {why}")
                categories["wrong"] += 1
    total = len(PAIRS)
    print(f"execution accuracy: {categories['correct']}/{total}", dict(sorted(categories.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else MOVIES))
