"""How far the openCypher TCK can translate to Spanner with exact meaning, and what stands between.

For every valid TCK query refused for ``spanner`` (``benchmarks/translate_tck.py``), this finds
what no translation can give the same meaning to, whatever the construct the refusal named first:

* a write (Spanner's GQL reads only: https://cloud.google.com/spanner/docs/reference/
  standard-sql/graph-intro; its graphs are changed with DML on the tables);
* a result value of a type Spanner has no type for: Cypher's local datetime, local time and
  zoned time, a datetime whose offset or zone is not UTC (a TIMESTAMP keeps the instant and
  loses them), a map, a list of lists
  (https://cloud.google.com/spanner/docs/reference/standard-sql/data-types: DATE, TIMESTAMP,
  INTERVAL, no DATETIME or TIME, no MAP, "an ordered list of zero or more elements of
  non-array values"); the result is the one the reference evaluator gives the query on its
  scenario's graph;
* a property the query reads whose stored value (on the scenario's graph) has such a type;
* an unbounded quantifier (Spanner requires an upper bound:
  https://cloud.google.com/spanner/docs/reference/standard-sql/graph-patterns, quantified path
  patterns);
* with graph elements refused (the default), a node, edge or path in the result.

The rest are refused for constructs another lowering could still write. The ceiling is the
translated queries plus that rest.

    python benchmarks/spanner_ceiling.py                         # graph elements refused
    python benchmarks/spanner_ceiling.py --spanner-elements to_json
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from translate_tck import translate_all  # type: ignore[import-not-found]

from gqlir import api
from gqlir.conformance import tck
from gqlir.conformance.runner import read_tck
from gqlir.conformance.values import parse_value
from gqlir.errors import GqlirError
from gqlir.eval import Graph, evaluate
from gqlir.eval import temporal as tm
from gqlir.eval.graph import Node, Relationship
from gqlir.eval.values import Path as GraphPath
from gqlir.ir.analysis import writes_data

#: result value types Spanner has no type for, by the name reported
_NO_TYPE = {
    tm.LocalDateTime: "local datetime value",
    tm.LocalTime: "local time value",
    tm.Time: "zoned time value",
}


def _value_blockers(value: Any, elements: str, out: set[str], depth: int = 0) -> None:
    kind = _NO_TYPE.get(type(value))
    if kind is not None:
        out.add(kind)
    elif isinstance(value, tm.DateTime):
        if value.offset != 0 or value.zone not in (None, "Z", "UTC"):
            out.add("datetime value with an offset or zone")
    elif isinstance(value, dict):
        out.add("map value")
    elif isinstance(value, (Node, Relationship, GraphPath)):
        if elements == "refuse":
            out.add("graph element in result")
    elif isinstance(value, list):
        if depth >= 1:
            out.add("list of lists")
        for item in value:
            _value_blockers(item, elements, out, depth + 1)


def _scenarios() -> dict[str, Any]:
    """The first scenario of each query (the one whose graph its result is taken on)."""
    found: dict[str, Any] = {}
    for scenario in read_tck(None):
        found.setdefault(scenario.query, scenario)
    return found


def blockers(query: str, refusal: str, scenario: Any, elements: str) -> set[str]:
    """What no Spanner text can express with the query's meaning (empty: none found)."""
    out: set[str] = set()
    if refusal == "unbounded quantifier":
        out.add("unbounded quantifier")
    try:
        statement = api.parse(query, "neo4j")
    except GqlirError:
        return out
    if writes_data(statement):
        out.add("write")
        return out
    if scenario is None or scenario.problem is not None:
        return out
    graph = Graph()
    try:
        for setup in scenario.setup_queries:
            evaluate(api.parse(setup, "neo4j"), graph)
        params = {k: parse_value(v) for k, v in scenario.parameters.items()}
        result = evaluate(statement, graph, params)
    except Exception:  # an expected error, or a value the evaluator does not read: no result
        return out
    for row in result.rows:
        for value in row:
            _value_blockers(value, elements, out)
    # a property the query reads whose stored value Spanner has no type for
    for element in (*graph.nodes.values(), *graph.relationships.values()):
        for key, value in element.properties.items():
            stored: set[str] = set()
            _value_blockers(value, "to_json", stored)
            if stored and re.search(rf"\.\s*`?{re.escape(key)}\b", query):
                out.add("stored value of a type Spanner lacks")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--spanner-elements", choices=("refuse", "to_json"), default="refuse")
    args = parser.parse_args(argv)
    tck_dir = tck.default_tck_dir()
    if tck_dir is None:
        print("openCypher TCK not found: set GQLIR_TCK_DIR", file=sys.stderr)
        return 2
    queries = tck.valid_queries(tck_dir)
    outcome = translate_all(queries, ["spanner"], spanner_elements=args.spanner_elements)["spanner"]
    scenarios = _scenarios()
    blocked: Counter[str] = Counter()
    blocked_by_refusal: Counter[str] = Counter()
    open_by_refusal: Counter[str] = Counter()
    for query, refusal in outcome.refused.items():
        found = blockers(query, refusal, scenarios.get(query), args.spanner_elements)
        if found:
            # one reason per query, the first in this order
            for reason in (
                "write",
                "graph element in result",
                "unbounded quantifier",
                "local datetime value",
                "datetime value with an offset or zone",
                "zoned time value",
                "local time value",
                "map value",
                "list of lists",
                "stored value of a type Spanner lacks",
            ):
                if reason in found:
                    blocked[reason] += 1
                    break
            blocked_by_refusal[refusal] += 1
        else:
            open_by_refusal[refusal] += 1
    total = outcome.total
    done = len(outcome.translated)
    still_open = sum(open_by_refusal.values())
    print(f"spanner (graph elements: {args.spanner_elements}), {total} valid TCK queries")
    print(f"  translated:                 {done:5d} ({done / total:.1%})")
    print(f"  refused, no exact spelling: {sum(blocked.values()):5d}")
    for reason, n in blocked.most_common():
        print(f"      {n:5d}  {reason}")
    print(f"  refused, could be written:  {still_open:5d}")
    for refusal, n in open_by_refusal.most_common():
        print(f"      {n:5d}  {refusal}")
    ceiling = done + still_open
    print(f"  ceiling with exact meaning: {ceiling:5d} ({ceiling / total:.1%})")
    print("  refusal ids of the blocked queries:")
    for refusal, n in blocked_by_refusal.most_common():
        print(f"      {n:5d}  {refusal}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
