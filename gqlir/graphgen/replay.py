"""Replaying management sessions on an engine, each session in isolation: every session starts
from the graph folder's state (a fresh engine with the folder loaded; for the reference
evaluator, a copy of the loaded graph), runs its writes with writes allowed and its validation
queries read-only, and compares each answer with the gold one.

A step's outcome is ``agree``, ``differ`` (with the difference), ``unsupported`` (the session
has no text of the statement for the engine's dialect: the construct is named), ``error``
(the engine failed: its message), or ``skipped`` (an earlier write of the session did not run,
so the engine's state is no longer the gold one).
"""

from __future__ import annotations

import json
import os
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from ..engines.base import ResultTable
from ..engines.reference import ReferenceEngine
from ..errors import GqlirError
from ..metrics.execution import Result, execution_match
from ..metrics.values import decode
from ..schema.loading import load_schema
from ..schema.model import SchemaGraph
from .errors import GraphGenError
from .sessions import answer_data, graph_digest, load_reference, read_sessions

STATUSES = ("agree", "differ", "unsupported", "error", "skipped")


@dataclass(slots=True)
class ReplayReport:
    """Step outcomes per session, and their totals."""

    engine: str
    dialect: str | None
    sessions: list[dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def counts(self) -> dict[str, int]:
        c = Counter(step["status"] for s in self.sessions for step in s["steps"])
        return {k: c.get(k, 0) for k in STATUSES}

    @property
    def identical(self) -> bool:
        """Every step ran and agreed with the gold answer."""
        counts = self.counts
        return counts["agree"] == sum(counts.values())

    def answers(self) -> dict[str, list[Any]]:
        """The engine's validation answers per session (None where a step has none)."""
        return {s["id"]: [step.get("answer") for step in s["steps"]] for s in self.sessions}

    def to_dict(self) -> dict[str, Any]:
        return {
            "engine": self.engine,
            "dialect": self.dialect,
            "counts": self.counts,
            "identical": self.identical,
            "seconds": round(self.seconds, 3),
        }


def gold_result(answer: dict[str, Any]) -> Result:
    """A stored answer as :mod:`gqlir.metrics` compares it."""
    return Result.of(_gold_table(answer))


def same_answer(gold: dict[str, Any], table: ResultTable) -> bool:
    """The engine's table is the gold answer (columns by position; rows as lists when the
    query orders, else as bags; values by the metrics' default rules)."""
    return execution_match(gold_result(gold), Result.of(table), "default")


def _text_for(
    part: dict[str, Any], engine: Any, dialect: str | None, source: str
) -> tuple[str | None, str | None, str | None]:
    """(text, its dialect, why none): the forced dialect, else the source dialect when the
    engine runs it, else the first of the engine's dialects the session has a text for."""
    texts, refused = part["texts"], part["unsupported"]
    if dialect is not None:
        wanted = [dialect]
    else:
        own = [d for d in engine.dialects if engine.native_dialect(d) is not None]
        wanted = ([source] if engine.native_dialect(source) is not None else []) + own
    for d in wanted:
        if d in texts:
            return texts[d], d, None
    reasons = [f"{d}: {refused[d]['construct']}" for d in wanted if d in refused]
    return None, None, "; ".join(reasons) or f"no text for {', '.join(wanted)}"


def replay_session(
    engine: Any,
    session: dict[str, Any],
    dialect: str | None = None,
    source: str = "neo4j",
    timeout: float | None = 60.0,
) -> dict[str, Any]:
    """Run one session's steps on ``engine`` (which holds the session's starting state) and
    compare each validation answer with the gold one."""
    steps: list[dict[str, Any]] = []
    broken: str | None = None
    for step in session["steps"]:
        out: dict[str, Any] = {"index": step["index"], "operation": step["operation"]}
        steps.append(out)
        if broken is not None:
            out |= {"status": "skipped", "reason": broken}
            continue
        text, used, why = _text_for(step["write"], engine, dialect, source)
        if text is None:
            out |= {"status": "unsupported", "reason": f"write: {why}"}
            broken = f"step {step['index']}'s write did not run"
            continue
        try:
            engine.run(text, dialect=used, timeout=timeout)
        except GqlirError as exc:
            out |= {"status": "error", "dialect": used, "reason": f"write: {exc.message}"}
            broken = f"step {step['index']}'s write failed"
            continue
        text, used, why = _text_for(step["validation"], engine, dialect, source)
        if text is None:
            out |= {"status": "unsupported", "reason": f"validation: {why}"}
            continue
        try:
            table = engine.run(text, dialect=used, timeout=timeout, read_only=True)
        except GqlirError as exc:
            out |= {"status": "error", "dialect": used, "reason": f"validation: {exc.message}"}
            continue
        out["dialect"] = used
        out["answer"] = answer_data(table)
        if same_answer(step["answer"], table):
            out["status"] = "agree"
        else:
            out["status"] = "differ"
            out["reason"] = table.difference(_gold_table(step["answer"]), columns=False)
    return {"id": session["id"], "operation": session["operation"], "steps": steps}


def _gold_table(answer: dict[str, Any]) -> ResultTable:
    rows = [tuple(decode(v) for v in row) for row in answer["rows"]]
    return ResultTable(list(answer["columns"]), rows, bool(answer.get("ordered")))


def _fresh_engines(
    name: str, schema: SchemaGraph, graph: str, options: dict[str, Any]
) -> Callable[[], Any]:
    """A function giving, for each session, an engine holding the graph folder's state: a new
    engine with the folder loaded, or for the reference evaluator a copy of the loaded graph."""
    if name == "reference" and not options:
        base = load_reference(schema, graph)
        return lambda: ReferenceEngine(base.graph.copy())

    from ..engines.registry import open_engine

    def fresh() -> Any:
        engine = open_engine(name, **options)
        try:
            engine.load(schema, graph)
        except BaseException:
            engine.close()
            raise
        return engine

    return fresh


def replay(
    directory: str,
    engine: str = "reference",
    *,
    graph: str | None = None,
    dialect: str | None = None,
    options: dict[str, Any] | None = None,
    timeout: float | None = 60.0,
    only: Iterable[str] | None = None,
    after_session: Callable[[dict[str, Any], Any], None] | None = None,
) -> ReplayReport:
    """Replay the sessions of ``directory`` on ``engine`` (an :func:`open_engine` name),
    starting each from the graph folder (default: the one the sessions were made for).
    ``after_session(result, engine)`` sees each session's engine before it is closed (to
    inspect or check the state the session left)."""
    manifest, sessions = read_sessions(directory)
    schema = load_schema(os.path.join(directory, "schema.json"))
    graph = graph or manifest["graph"]
    if not os.path.isdir(graph):
        raise GraphGenError(f"the graph folder {graph} does not exist: pass --graph")
    if graph_digest(graph) != manifest.get("graph_digest"):
        raise GraphGenError(
            f"{graph} is not the graph the sessions in {directory} were made for "
            "(its digest differs from the manifest's)"
        )
    wanted = set(only) if only is not None else None
    report = ReplayReport(engine, dialect)
    fresh = _fresh_engines(engine, schema, graph, dict(options or {}))
    start = time.perf_counter()
    for session in sessions:
        if wanted is not None and session["id"] not in wanted:
            continue
        instance = fresh()
        try:
            result = replay_session(instance, session, dialect, manifest["source_dialect"], timeout)
            report.sessions.append(result)
            if after_session is not None:
                after_session(result, instance)
        finally:
            instance.close()
    report.seconds = time.perf_counter() - start
    return report


def write_report(report: ReplayReport, path: str) -> None:
    """The step outcomes as JSON lines (one session a line), then the totals."""
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        for session in report.sessions:
            fh.write(json.dumps(session, ensure_ascii=False, sort_keys=True) + "\n")
        fh.write(json.dumps({"summary": report.to_dict()}, sort_keys=True) + "\n")


__all__ = [
    "STATUSES",
    "ReplayReport",
    "gold_result",
    "replay",
    "replay_session",
    "same_answer",
    "write_report",
]
