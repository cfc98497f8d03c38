"""The dataset in the benchmarks' own layouts (the ones :mod:`gqlir.metrics.formats` reads):
Text2GQL-Bench records, CypherBench ``Nl2CypherSample`` objects and NGDBench query records,
and the train / dev / test splits."""

from __future__ import annotations

import hashlib
import json
from typing import Any


def _rows_as_records(result: dict[str, Any]) -> list[dict[str, Any]]:
    return [dict(zip(result["columns"], row)) for row in result["rows"]]


def text2gql(items: list[dict[str, Any]], dialect: str = "iso-gql") -> list[dict[str, Any]]:
    """Text2GQL-Bench records; the gold query in ``dialect`` (Cypher where it is refused)."""
    out = []
    for item in items:
        queries = item["queries"]
        gold = queries.get(dialect) or queries.get("neo4j") or next(iter(queries.values()))
        qs = item["questions"]
        out.append(
            {
                "id": item["id"],
                "database": item["schema"],
                "initial_question": item["question"],
                "gold_query": gold,
                "level_1": qs.get("syntactic"),
                "level_2": qs.get("logical"),
                "level_3": qs.get("business") or qs.get("logical"),
                "external_knowledge": "",
                "difficulty": item["difficulty"],
                "source": f"gqlir-synth:{item['template']}",
            }
        )
    return out


def cypherbench(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for item in items:
        if "neo4j" not in item["queries"]:
            continue
        out.append(
            {
                "qid": item["id"],
                "graph": item["schema"],
                "gold_cypher": item["queries"]["neo4j"],
                "gold_match_cypher": None,
                "nl_question": item["question"],
                "nl_question_raw": item["question"],
                "answer_json": json.dumps(_rows_as_records(item["result"]), ensure_ascii=False),
                "from_template": {
                    "match_category": item["match_category"],
                    "match_cypher": None,
                    "return_pattern_id": item["return_pattern"] or item["return_category"],
                    "return_cypher": None,
                },
            }
        )
    return out


def ngdbench(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for item in items:
        if "neo4j" not in item["queries"]:
            continue
        record = {
            "template_id": f"{item['pattern']}_{item['template'].rsplit('/', 1)[-1]}",
            "template_type": item["pattern"],
            "query": item["queries"]["neo4j"],
            "parameters": item["bindings"],
            "answer": _rows_as_records(item["result"]),
        }
        if "anti_result" in item:
            record["anti_query"] = item["anti_queries"].get("neo4j")
            record["anti_answer"] = _rows_as_records(item["anti_result"])
        out.append(record)
    return out


def split_of(item: dict[str, Any], schemas: list[str], seed: int) -> str:
    """By schema (domain) when there are three or more: whole domains are held out; with
    fewer, by a hash of the item id (80 / 10 / 10)."""
    if len(schemas) >= 3:
        ranked = sorted(schemas, key=lambda s: hashlib.sha256(f"{seed}:{s}".encode()).hexdigest())
        test, dev = ranked[0], ranked[1]
        return "test" if item["schema"] == test else "dev" if item["schema"] == dev else "train"
    bucket = int(hashlib.sha256(f"{seed}:{item['id']}".encode()).hexdigest(), 16) % 10
    return "test" if bucket == 0 else "dev" if bucket == 1 else "train"
