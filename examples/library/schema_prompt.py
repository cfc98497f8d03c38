"""Build a Text2GQL prompt from a graph schema, then check candidate queries against the same
schema: each mistake with its position and the names the model probably meant.

    python examples/library/schema_prompt.py [GRAPH_FOLDER]
"""

from __future__ import annotations

import sys
from pathlib import Path

import gqlir
from gqlir.schema import SchemaGraph, load_schema

MOVIES = Path(__file__).resolve().parents[2] / "schemas" / "movies"

CANDIDATES: list[str] = [
    "MATCH (p:Person)-[:ACTED_IN]->(m:Movie) RETURN p.name AS name, m.title AS title",
    "MATCH (p:Actor)-[:ACTED_IN]->(m:Movie) RETURN m.name AS title",
    "MATCH (m:Movie)-[:ACTED_IN]->(p:Person) RETURN p.name AS name",
    "MATCH (p:Person)-[:ACTS_IN]->(m:Movie) RETURN p.name AS name",
]


def prompt(schema: SchemaGraph, question: str) -> str:
    """The schema as a model reads it: node types with properties, edge types with endpoints."""
    lines = [f"Graph {schema.name}: {schema.description or ''}".rstrip(), "Node types:"]
    for node in schema.node_types:
        props = ", ".join(f"{p.name} {p.type}" for p in node.properties)
        about = f" -- {node.description}" if node.description else ""
        lines.append(f"  (:{node.label} {{{props}}}){about}")
    lines.append("Relationship types:")
    for edge in schema.edge_types:
        props = ", ".join(f"{p.name} {p.type}" for p in edge.properties)
        for end in edge.endpoints:
            rel = f"[:{edge.label} {{{props}}}]" if props else f"[:{edge.label}]"
            lines.append(f"  (:{end.source})-{rel}->(:{end.target})")
    lines += ["", f"Write a Cypher query that answers: {question}"]
    return "\n".join(lines)


def main(folder: Path) -> int:
    schema = load_schema(str(folder / "schema.json"))
    print(prompt(schema, "Which actors played in which movies?"))
    print()
    for query in CANDIDATES:
        result = gqlir.validate(query, "neo4j", schema=schema)
        if result.valid:
            print(f"ok: {query}")
            continue
        print(f"rejected: {query}")
        for issue in result.schema_issues:
            hint = f" -> {', '.join(issue.suggestions)}" if issue.suggestions else ""
            print(f"  column {issue.column}: [{issue.code}] {issue.message}{hint}")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else MOVIES))
