"""Gold answers under noise: every gold query run on the clean and on the observed graph with the
reference evaluator, and marked *consistent* (same answer) or *inconsistent* (the noise changed
it), NGDBench's split of its noise queries; for answers too large to score as a set, Boolean
verification items ("is this row an answer?") with positives sampled from the answer and
negatives made by swapping one value of a positive row for another value of the same kind from
the graph, seeded.

A result record (one per gold item, JSON lines)::

    {"id": …, "query": …, "dialect": …, "consistent": true,
     "clean_answer": {"columns", "rows", "ordered"}, "observed_answer": {…},
     "error": null}

NGDBench calls these ``clean_answer``, ``noise_answer`` and ``same_as_cleangraph``. An answer
with more than ``max_rows`` rows is replaced by ``clean_rows`` / ``observed_rows`` counts and a
``verification`` list of ``{"columns", "candidate", "expected", "in_observed"}``.
"""

from __future__ import annotations

import json
import os
import random
from collections import defaultdict
from collections.abc import Iterable, Iterator
from typing import Any

from ..engines.base import EdgeValue, NodeValue, ResultTable, canonical_key, json_value
from ..errors import GqlirError
from ..schema.model import SchemaGraph
from .errors import GraphGenError
from .seeds import stream
from .typos import typo

DEFAULT_DIALECT = "neo4j"


def _open_reference(schema: SchemaGraph, directory: str) -> Any:
    from ..engines.registry import open_engine

    engine = open_engine("reference")
    engine.load(schema, directory)
    return engine


def read_items(path: str) -> list[dict[str, Any]]:
    """Gold items from a JSON lines file (or a JSON list): ``query`` (or ``text``), optional
    ``dialect`` (default neo4j) and ``id``."""
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except OSError as exc:
        raise GraphGenError(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        data = json.loads(text) if text.lstrip().startswith("[") else None
        if data is None:
            data = [json.loads(line) for line in text.splitlines() if line.strip()]
    except json.JSONDecodeError as exc:
        raise GraphGenError(f"{path}: not JSON lines or a JSON list ({exc.msg})") from None
    for n, item in enumerate(data, start=1):
        if not isinstance(item, dict) or not isinstance(item.get("query", item.get("text")), str):
            raise GraphGenError(f"{path}: item {n} needs a 'query' (or 'text') string")
    return data


def noise_answers(
    items: Iterable[dict[str, Any]],
    clean: str,
    observed: str,
    schema: SchemaGraph,
    *,
    seed: int = 0,
    max_rows: int = 20,
    positives: int = 5,
    negatives: int = 5,
    timeout: float | None = 60.0,
) -> Iterator[dict[str, Any]]:
    """One result record per gold item (see the module docstring)."""
    clean_engine = _open_reference(schema, clean)
    observed_engine = _open_reference(schema, observed)
    domains = _Domains(clean_engine)
    try:
        for n, item in enumerate(items):
            text = item.get("query", item.get("text"))
            dialect = item.get("dialect") or DEFAULT_DIALECT
            out: dict[str, Any] = {"id": item.get("id", n), "query": text, "dialect": dialect}
            try:
                gold = clean_engine.run(text, dialect=dialect, read_only=True, timeout=timeout)
                seen = observed_engine.run(text, dialect=dialect, read_only=True, timeout=timeout)
            except GqlirError as exc:
                out |= {"consistent": None, "error": exc.message}
                yield out
                continue
            out["consistent"] = gold.same_as(seen)
            if len(gold.rows) > max_rows:
                rng = stream(seed, "verification", out["id"])
                out["clean_rows"] = len(gold.rows)
                out["observed_rows"] = len(seen.rows)
                out["verification"] = verification_items(
                    gold, seen, domains, rng, positives=positives, negatives=negatives
                )
            else:
                out["clean_answer"] = gold.to_data()
                out["observed_answer"] = seen.to_data()
            out["error"] = None
            yield out
    finally:
        clean_engine.close()
        observed_engine.close()


def _row_key(row: tuple[Any, ...] | list[Any]) -> tuple[Any, ...]:
    return tuple(canonical_key(v) for v in row)


class _Domains:
    """Values of the same kind as an answer column, from the clean graph: nodes with the same
    labels, edges of the same type, or the property whose values the column shares most."""

    def __init__(self, engine: Any) -> None:
        self.engine = engine
        self._nodes: dict[tuple[str, ...], list[Any]] | None = None
        self._edges: dict[str, list[Any]] | None = None
        self._props: dict[tuple[str, str], list[Any]] | None = None
        self._prop_keys: dict[tuple[str, str], set[Any]] = {}

    def _load(self) -> None:
        from ..engines.reference import canonical

        nodes: dict[tuple[str, ...], list[Any]] = defaultdict(list)
        props: dict[tuple[str, str], list[Any]] = defaultdict(list)
        for node in self.engine.graph.all_nodes():
            value = canonical(node)
            nodes[tuple(sorted(value.labels))].append(value)
            for k, v in value.properties.items():
                props[(value.labels[0] if value.labels else "", k)].append(v)
        edges: dict[str, list[Any]] = defaultdict(list)
        for rel in self.engine.graph.all_relationships():
            value = canonical(rel)
            edges[value.type].append(value)
            for k, v in value.properties.items():
                props[(value.type, k)].append(v)
        self._nodes, self._edges, self._props = nodes, edges, props

    def of(self, sample: list[Any]) -> list[Any]:
        if self._props is None:
            self._load()
        assert self._nodes is not None and self._edges is not None and self._props is not None
        first = next((v for v in sample if v is not None), None)
        if isinstance(first, NodeValue):
            return self._nodes.get(tuple(sorted(first.labels)), [])
        if isinstance(first, EdgeValue):
            return self._edges.get(first.type, [])
        wanted = {canonical_key(v) for v in sample}
        best, overlap = None, 0
        for key, values in self._props.items():
            if key not in self._prop_keys:
                self._prop_keys[key] = {canonical_key(v) for v in values}
            hit = len(wanted & self._prop_keys[key])
            if hit > overlap:
                best, overlap = key, hit
        return self._props[best] if best is not None else []


def verification_items(
    gold: ResultTable,
    seen: ResultTable,
    domains: _Domains,
    rng: random.Random,
    *,
    positives: int = 5,
    negatives: int = 5,
) -> list[dict[str, Any]]:
    """Boolean items for a large answer: sampled answer rows (expected true) and rows that are
    not answers (expected false), each with whether the observed graph's answer has it."""
    answer = {_row_key(r) for r in gold.rows}
    observed = {_row_key(r) for r in seen.rows}
    columns = list(gold.columns)

    def item(row: tuple[Any, ...] | list[Any], expected: bool) -> dict[str, Any]:
        return {
            "columns": columns,
            "candidate": [json_value(v) for v in row],
            "expected": expected,
            "in_observed": _row_key(row) in observed,
        }

    rows = list(gold.rows)
    out = [item(r, True) for r in rng.sample(rows, min(positives, len(rows)))]
    made: set[tuple[Any, ...]] = set()
    column_domains: dict[int, list[Any]] = {}
    for _ in range(40 * negatives):
        if len(made) >= negatives or not rows or not columns:
            break
        row = list(rng.choice(rows))
        c = rng.randrange(len(columns))
        if c not in column_domains:
            column_domains[c] = domains.of([r[c] for r in rng.sample(rows, min(50, len(rows)))])
        row[c] = _other_value(row[c], column_domains[c], rng)
        key = _row_key(row)
        if row[c] is None or key in answer or key in made:
            continue
        made.add(key)
        out.append(item(row, False))
    return out


def _other_value(value: Any, domain: list[Any], rng: random.Random) -> Any:
    if domain:
        return rng.choice(domain)
    if isinstance(value, bool):
        return not value
    if isinstance(value, (int, float)):
        return value + rng.choice((1, -1)) * rng.randint(1, 1000)
    if isinstance(value, str):
        made = typo(value, rng)
        return made[0] if made else value + "~"
    return None


def write_results(records: Iterable[dict[str, Any]], path: str) -> dict[str, int]:
    """Write result records as JSON lines; returns counts of consistent, inconsistent and
    failed items."""
    counts = {"consistent": 0, "inconsistent": 0, "error": 0}
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        for rec in records:
            fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
            if rec.get("consistent") is None:
                counts["error"] += 1
            else:
                counts["consistent" if rec["consistent"] else "inconsistent"] += 1
    return counts


__all__ = ["noise_answers", "read_items", "verification_items", "write_results"]
