"""The synthesis loop for one schema: pick a template, bind it on the graph, instantiate,
emit in every dialect, execute, filter, run every text on its dialect's engine, label, ask;
until enough items are verified.

Every attempt draws from its own generator, seeded by (seed, schema, attempt number), so a
run is the same whatever happened before (and a resumed run continues the same sequence).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .. import ir
from ..errors import GqlirError
from ..schema.model import SchemaGraph
from .binder import Binder, Binding, Unbindable
from .config import SynthConfig, quotas
from .emitting import emit_all
from .execute import Executor
from .graphindex import GraphIndex
from .instantiate import substitute
from .labels import canonical_form, labels
from .library import Template
from .questions import questions
from .rewriters import Rewriter, RewriteRequest
from .verify import Verifier

#: dropped disagreements kept in full per schema (all are counted)
DISAGREEMENT_EXAMPLES = 50


@dataclass
class SchemaState:
    """Where the run on one schema stands (saved so an interrupted run can continue)."""

    attempts: int = 0
    cursor: int = 0
    failures: dict[str, int] = field(default_factory=dict)
    exhausted: list[str] = field(default_factory=list)
    accepted: int = 0
    done: bool = False
    drops: dict[str, int] = field(default_factory=dict)
    # candidates dropped because an engine disagreed with the gold: "dialect|engine" -> count,
    # and the first of them in full (the card shows them)
    disagreed: dict[str, int] = field(default_factory=dict)
    disagreements: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass
class Candidate:
    template: Template
    binding: Binding
    query: ir.Query
    anti: ir.Query | None


class SchemaRun:
    def __init__(
        self,
        name: str,
        schema: SchemaGraph,
        index: GraphIndex,
        executor: Executor,
        templates: list[Template],
        config: SynthConfig,
        rewriters: list[Rewriter],
        verifier: Verifier | None = None,
    ) -> None:
        self.name, self.schema, self.index = name, schema, index
        self.verifier = verifier
        self.executor, self.config, self.rewriters = executor, config, rewriters
        binders = [Binder(t, schema, index) for t in sorted(templates, key=lambda t: t.id)]
        self.not_applicable = sorted(b.template.id for b in binders if not b.assignments)
        self.realism_drops: dict[str, int] = {}
        for b in binders:
            for kind, count in b.dropped.items():
                self.realism_drops[kind] = self.realism_drops.get(kind, 0) + count
        self.binders = [b for b in binders if b.assignments]
        random.Random(f"{config.seed}:{name}:order").shuffle(self.binders)
        self.seen: set[str] = set()
        self.results: set[str] = set()
        self.filled: dict[str, dict[str, int]] = {}
        self.quotas = quotas(config.mix, config.n)

    # -- bookkeeping --------------------------------------------------------------------------
    def restore(self, items: list[dict[str, Any]]) -> None:
        for item in items:
            self.seen.add(item["_key"])
            self.results.add(item["_result_key"])
            self.count_bucket(item)

    def count_bucket(self, item: dict[str, Any]) -> None:
        for key in self.quotas:
            bucket = self.filled.setdefault(key, {})
            bucket[item[key]] = bucket.get(item[key], 0) + 1

    def bucket_full(self, item: dict[str, Any]) -> bool:
        for key, quota in self.quotas.items():
            if self.filled.get(key, {}).get(item[key], 0) >= quota.get(item[key], 0):
                return True
        return False

    def next_binder(self, state: SchemaState) -> Binder | None:
        for _ in range(len(self.binders)):
            binder = self.binders[state.cursor % len(self.binders)]
            state.cursor = (state.cursor + 1) % len(self.binders)
            if binder.template.id not in state.exhausted:
                return binder
        return None

    @staticmethod
    def drop(state: SchemaState, reason: str, template: str, limit: int) -> None:
        state.drops[reason] = state.drops.get(reason, 0) + 1
        state.failures[template] = state.failures.get(template, 0) + 1
        if state.failures[template] >= limit and template not in state.exhausted:
            state.exhausted.append(template)

    # -- one attempt --------------------------------------------------------------------------
    def attempt(self, state: SchemaState) -> dict[str, Any] | None:
        """One candidate: the item if it was verified, else None (the reason is counted)."""
        binder = self.next_binder(state)
        if binder is None:
            state.done = True
            return None
        t = binder.template
        rng = random.Random(f"{self.config.seed}:{self.name}:{state.attempts}")
        state.attempts += 1
        try:
            binding, _ = binder.bind(rng)
        except Unbindable:
            self.drop(state, "no binding", t.id, self.config.max_failures)
            return None
        query = substitute(t.query, binding, self.schema)
        anti = substitute(t.anti_query, binding, self.schema) if t.anti_query else None
        key = canonical_form(query)
        if key in self.seen:
            self.drop(state, "duplicate", t.id, self.config.max_failures)
            return None
        label = {"library": t.library, "pattern": t.pattern, **labels(query)}
        if self.quotas and self.bucket_full(label):
            self.drop(state, "mix quota", t.id, self.config.max_failures)
            return None
        item, reason = self.verify(Candidate(t, binding, query, anti), label)
        if item is None:
            self.drop(state, reason, t.id, self.config.max_failures)
            return None
        if self.config.dedup_results and item["_result_key"] in self.results:
            self.drop(state, "same result", t.id, self.config.max_failures)
            return None
        if not self.confirm(item, state):
            self.drop(state, "engine disagreement", t.id, self.config.max_failures)
            return None
        self.seen.add(key)
        self.results.add(item["_result_key"])
        self.count_bucket(item)
        state.failures[t.id] = 0
        state.accepted += 1
        item["id"] = f"{self.name}-{state.accepted:05d}"
        item["_key"] = key
        self.ask(item, query)
        return item

    def run_query(self, query: ir.Query) -> tuple[Any, str]:
        try:
            table = self.executor.run(query, self.config.timeout, self.config.max_rows)
        except GqlirError as exc:
            return None, "timeout" if exc.code == "TIMEOUT" else "engine error"
        if table.truncated:
            return None, "too many rows"
        values = [v for row in table.rows for v in row]
        if not table.rows and not self.config.allow_empty:
            return None, "empty"
        if table.rows and all(v is None for v in values):
            return None, "all null"
        return table, ""

    def verify(self, c: Candidate, label: dict[str, Any]) -> tuple[dict[str, Any] | None, str]:
        table, reason = self.run_query(c.query)
        if table is None:
            return None, reason
        anti_table = None
        if c.anti is not None:
            anti_table, reason = self.run_query(c.anti)
            if anti_table is None:
                return None, f"anti-query {reason}"
        texts, refused = emit_all(c.query, self.config.dialects, self.schema)
        for dialect, why in c.template.excluded.items():
            if dialect in texts:
                del texts[dialect]
                refused[dialect] = why
        if not texts:
            return None, "no dialect"
        result = canonical_result(table)
        item: dict[str, Any] = {
            "id": "",
            "schema": self.name,
            "domain": self.name,
            "library": c.template.library,
            "template": c.template.id,
            "pattern": c.template.pattern,
            "return_pattern": c.template.return_pattern,
            "aggregation": c.template.aggregation,
            "question": "",
            "questions": {},
            "queries": texts,
            "unsupported": refused,
            **{k: v for k, v in label.items() if k not in ("library", "pattern")},
            "result": result,
            "rows": len(table.rows),
            "bindings": c.binding.to_dict(),
        }
        if c.anti is not None and anti_table is not None:
            anti_texts, anti_refused = emit_all(c.anti, self.config.dialects, self.schema)
            item["anti_queries"] = anti_texts
            item["anti_unsupported"] = anti_refused
            item["anti_result"] = canonical_result(anti_table)
        item["_result_key"] = f"{c.template.id}|{json.dumps(result['rows'], sort_keys=True)}"
        item["_check"] = (c.query, table, c.anti, anti_table)
        return item, ""

    def confirm(self, item: dict[str, Any], state: SchemaState) -> bool:
        """Run the item's texts on their engines and record what each answered; False when an
        engine disagrees and such items are dropped (they are counted, and the first kept in
        full, for the card)."""
        query, table, anti, anti_table = item.pop("_check")
        if self.verifier is None:
            return True
        checks = [("verified", "queries", "unsupported", query, table)]
        if anti is not None and anti_table is not None:
            checks.append(("anti_verified", "anti_queries", "anti_unsupported", anti, anti_table))
        disagreeing = []
        for key, texts, refused, q, gold in checks:
            item[key] = self.verifier.check(item[texts], item[refused], gold, q)
            for dialect, record in item[key].items():
                if record["status"] == "disagrees":
                    disagreeing.append((dialect, record, item[texts][dialect]))
        if not disagreeing or self.config.keep_disagreements:
            return True
        for dialect, record, text in disagreeing:
            key = f"{dialect}|{record['engine']}"
            state.disagreed[key] = state.disagreed.get(key, 0) + 1
            if len(state.disagreements) < DISAGREEMENT_EXAMPLES:
                state.disagreements.append(
                    {
                        "template": item["template"],
                        "dialect": dialect,
                        "engine": record["engine"],
                        "difference": record["difference"],
                        "text": text,
                    }
                )
        return False

    def ask(self, item: dict[str, Any], query: ir.Query) -> None:
        asked = questions(query, self.schema, self.config.seed)
        item["question"] = asked["cypherbench"]
        item["questions"] = dict(asked)
        request = RewriteRequest(
            query, item["queries"].get("neo4j", ""), asked["logical"], self.name
        )
        for rewriter in self.rewriters:
            item["questions"].update(rewriter.rewrite(request))

    def run(
        self,
        state: SchemaState,
        accept: Callable[[dict[str, Any]], None],
        checkpoint: Callable[[], None],
        progress: Callable[[SchemaState], None] | None = None,
    ) -> None:
        limit = self.config.n * self.config.max_attempts_per_item
        while not state.done and state.accepted < self.config.n and state.attempts < limit:
            item = self.attempt(state)
            if item is not None:
                accept(item)
            if state.attempts % 20 == 0 or item is not None:
                checkpoint()
                if progress is not None:
                    progress(state)
        state.done = True
        checkpoint()
        if progress is not None:
            progress(state)


def canonical_result(table: Any) -> dict[str, Any]:
    """The table as JSON data; the rows of an unordered answer in a canonical order, so that
    the stored answer does not depend on the order an engine happened to produce."""
    data = table.to_data()
    if not data["ordered"]:
        data["rows"].sort(key=lambda row: tuple(_order_key(v) for v in row))
    return data


def _order_key(v: Any) -> tuple[Any, ...]:
    """A total order over JSON values: null < booleans < numbers < strings < lists < objects;
    1 before 1.0, and -0.0 and 0.0 apart (by their text), so equal keys mean equal values."""
    if v is None:
        return (0,)
    if isinstance(v, bool):
        return (1, v)
    if isinstance(v, int):
        return (2, v, 0, "")
    if isinstance(v, float):
        return (2, v, 1, repr(v))
    if isinstance(v, str):
        return (3, v)
    if isinstance(v, list):
        return (4, tuple(_order_key(x) for x in v))
    return (5, tuple((str(k), _order_key(x)) for k, x in sorted(v.items())))
