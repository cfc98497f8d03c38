"""Management sessions (NGDBench's dynamic data management task): batches of K writes, each
followed by a validation query, generated from templates over the IR, written in every dialect
that can express them, with the gold validation answers recorded by the reference evaluator.

A session starts from the graph folder's state; its steps are planned against the graph as it
is after the previous steps (the evaluator runs each write), so every write keeps the graph
valid against its schema. Output directory (docs/graphgen.md, "Management sessions"):

* ``sessions.jsonl``: one session a line, ``{"id", "operation", "steps": [{"index",
  "operation", "template", "description", "write": {"texts", "unsupported"}, "validation":
  {"texts", "unsupported"}, "answer": {"columns", "rows", "ordered"}}]}``; answers are
  JSON-safe and lossless (:func:`gqlir.metrics.values.encode`);
* ``manifest.json``: the seed and every setting, the graph's digest, and the unsupported
  constructs per dialect;
* ``schema.json``: the schema, so the directory replays on its own with the graph folder.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..engines.reference import ReferenceEngine
from ..errors import GqlirError
from ..metrics.values import encode
from ..schema.model import SchemaGraph
from .errors import GraphGenError
from .seeds import stream
from .session_dialects import DIALECTS, SOURCE_DIALECT, emit_everywhere
from .session_state import SessionState
from .session_templates import OPERATIONS, plan_step

FORMAT = "gqlir-sessions"
VERSION = 1
SESSION_KINDS = (*OPERATIONS, "mixed")


@dataclass(slots=True)
class SessionsResult:
    """What :func:`generate_sessions` wrote."""

    out: str
    sessions: int
    steps: int
    operations: dict[str, int]
    unsupported: dict[str, dict[str, int]] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "out": self.out,
            "sessions": self.sessions,
            "steps": self.steps,
            "operations": self.operations,
            "unsupported": self.unsupported,
        }


def answer_data(table: Any) -> dict[str, Any]:
    """A result table as JSON-safe, lossless data."""
    return {
        "columns": list(table.columns),
        "rows": [[encode(v) for v in row] for row in table.rows],
        "ordered": bool(table.ordered),
    }


def graph_digest(directory: str) -> str:
    """SHA-256 over a graph folder's files (names and bytes), so a replay can tell it starts
    from the graph the sessions were made for."""
    digest = hashlib.sha256()
    for root, dirs, files in os.walk(directory):
        dirs.sort()
        for name in sorted(files):
            path = os.path.join(root, name)
            digest.update(os.path.relpath(path, directory).replace(os.sep, "/").encode() + b"\0")
            with open(path, "rb") as fh:
                for chunk in iter(lambda: fh.read(1 << 20), b""):
                    digest.update(chunk)
    return "sha256:" + digest.hexdigest()


def load_reference(schema: SchemaGraph, graph: str) -> ReferenceEngine:
    """The graph folder in the reference evaluator (the state every session starts from)."""
    engine = ReferenceEngine()
    try:
        engine.load(schema, graph)
    except GqlirError as exc:
        raise GraphGenError(f"cannot load the graph {graph}: {exc.message}") from None
    return engine


def generate_sessions(
    schema: SchemaGraph,
    graph: str,
    out: str,
    *,
    sessions: int = 6,
    steps: int = 5,
    seed: int = 0,
    operations: Sequence[str] | None = None,
    dialects: Sequence[str] = DIALECTS,
) -> SessionsResult:
    """Generate ``sessions`` sessions of ``steps`` steps for the graph folder ``graph`` into
    ``out``. Session *i* is of kind ``operations[i % len(operations)]`` (default: create,
    merge, set, remove, delete, mixed); the same arguments give byte-identical files."""
    kinds = tuple(operations or SESSION_KINDS)
    for kind in kinds:
        if kind not in SESSION_KINDS:
            raise GraphGenError(f"unknown operation {kind!r}; known: {', '.join(SESSION_KINDS)}")
    if sessions < 1 or steps < 1:
        raise GraphGenError("--sessions and --steps must be positive")
    if SOURCE_DIALECT not in dialects:
        dialects = (SOURCE_DIALECT, *dialects)
    base = load_reference(schema, graph)
    records = [
        _session(schema, base, i, kinds[i % len(kinds)], steps, seed, tuple(dialects))
        for i in range(sessions)
    ]
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "sessions.jsonl"), "w", encoding="utf-8", newline="\n") as fh:
        for record in records:
            fh.write(json.dumps(record, ensure_ascii=False, sort_keys=True) + "\n")
    with open(os.path.join(out, "schema.json"), "w", encoding="utf-8", newline="\n") as fh:
        fh.write(schema.to_json() + "\n")
    result = _summary(out, records)
    manifest = {
        "format": FORMAT,
        "version": VERSION,
        "schema": schema.name,
        "graph": os.path.abspath(graph),
        "graph_digest": graph_digest(graph),
        "seed": seed,
        "sessions": sessions,
        "steps": steps,
        "operations": list(kinds),
        "source_dialect": SOURCE_DIALECT,
        "dialects": list(dialects),
        "gold_engine": "reference",
        "counts": {"operations": result.operations, "unsupported": result.unsupported},
    }
    with open(os.path.join(out, "manifest.json"), "w", encoding="utf-8", newline="\n") as fh:
        fh.write(json.dumps(manifest, ensure_ascii=False, indent=1, sort_keys=True) + "\n")
    return result


def _session(
    schema: SchemaGraph,
    base: ReferenceEngine,
    index: int,
    kind: str,
    steps: int,
    seed: int,
    dialects: tuple[str, ...],
) -> dict[str, Any]:
    rng = stream(seed, "session", schema.name, index)
    engine = ReferenceEngine(base.graph.copy())
    sid = f"{schema.name or 'graph'}-{index + 1:04d}"
    out: list[dict[str, Any]] = []
    for t in range(steps):
        operation = rng.choice(OPERATIONS) if kind == "mixed" else kind
        planned = plan_step(SessionState(schema, engine.graph), operation, rng)
        if planned is None:
            raise GraphGenError(
                f"session {sid} step {t + 1}: no {operation} step applies to the graph "
                f"(schema {schema.name!r}); choose other --operations"
            )
        write_texts, write_refused = emit_everywhere(planned.write, schema, dialects)
        check_texts, check_refused = emit_everywhere(planned.validation, schema, dialects)
        try:
            engine.run(write_texts[SOURCE_DIALECT], dialect=SOURCE_DIALECT)
            answer = engine.run(check_texts[SOURCE_DIALECT], dialect=SOURCE_DIALECT, read_only=True)
        except (GqlirError, KeyError) as exc:
            raise GraphGenError(
                f"session {sid} step {t + 1} ({planned.template}) failed on the reference "
                f"evaluator: {exc}"
            ) from None
        out.append(
            {
                "index": t + 1,
                "operation": planned.operation,
                "template": planned.template,
                "description": planned.description,
                "write": {"texts": write_texts, "unsupported": write_refused},
                "validation": {"texts": check_texts, "unsupported": check_refused},
                "answer": answer_data(answer),
            }
        )
    return {"id": sid, "operation": kind, "steps": out}


def _summary(out: str, records: list[dict[str, Any]]) -> SessionsResult:
    operations: Counter[str] = Counter()
    unsupported: dict[str, Counter[str]] = {}
    for record in records:
        for step in record["steps"]:
            operations[step["operation"]] += 1
            for part in ("write", "validation"):
                for dialect, why in step[part]["unsupported"].items():
                    unsupported.setdefault(dialect, Counter())[f"{part}: {why['construct']}"] += 1
    return SessionsResult(
        out,
        len(records),
        sum(operations.values()),
        dict(sorted(operations.items())),
        {d: dict(sorted(c.items())) for d, c in sorted(unsupported.items())},
    )


def read_sessions(directory: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The manifest and the sessions of a session directory."""
    try:
        with open(os.path.join(directory, "manifest.json"), encoding="utf-8") as fh:
            manifest = json.load(fh)
        with open(os.path.join(directory, "sessions.jsonl"), encoding="utf-8") as fh:
            records = [json.loads(line) for line in fh if line.strip()]
    except OSError as exc:
        raise GraphGenError(
            f"{directory}: not a session directory ({exc.strerror or exc}); "
            "make one with 'gqlir graph sessions'"
        ) from None
    except json.JSONDecodeError as exc:
        raise GraphGenError(f"{directory}: malformed session files ({exc.msg})") from None
    if manifest.get("format") != FORMAT:
        raise GraphGenError(f"{directory}/manifest.json is not a {FORMAT} manifest")
    return manifest, records


__all__ = [
    "SESSION_KINDS",
    "SessionsResult",
    "answer_data",
    "generate_sessions",
    "graph_digest",
    "load_reference",
    "read_sessions",
]
