"""Running one item's queries on an engine: the gold query, the prediction and their
provenance queries, read-only and with a timeout, as plain data that can cross a process
boundary and be cached as JSON.

The harness opens one engine per job with the graph loaded (:func:`open_loaded_engine`), in a
worker process of its own for the engines that run on this machine, and :func:`run_task` runs
a task on it.
"""

from __future__ import annotations

import os
import time
from typing import Any

from ..errors import GqlirError
from .values import decode, encode

__all__ = ["decode_table", "open_loaded_engine", "run_task"]


def open_loaded_engine(
    name: str,
    options: dict[str, Any],
    graph: str | None,
    *,
    isolated: bool = False,
    max_memory: int | None = None,
) -> Any:
    """An engine by name with the graph folder ``graph`` (``schema.json`` + data) loaded;
    ``isolated`` and ``max_memory`` as :func:`gqlir.engines.open_engine` takes them."""
    from ..engines import open_engine

    engine = open_engine(name, isolated=isolated, max_memory=max_memory, **options)
    if graph:
        try:
            from ..schema import load_schema

            schema_file = os.path.join(graph, "schema.json")
            data = os.path.join(graph, "graph")
            if not os.path.isfile(schema_file):
                schema_file = os.path.join(os.path.dirname(os.path.abspath(graph)), "schema.json")
                data = graph
            engine.load(load_schema(schema_file), data if os.path.isdir(data) else graph)
        except BaseException:
            engine.close()
            raise
    return engine


def _error(exc: BaseException) -> dict[str, Any]:
    if isinstance(exc, GqlirError):
        return {"ok": False, "code": exc.code, "message": exc.message}
    return {"ok": False, "code": "INTERNAL", "message": f"{type(exc).__name__}: {exc}"}


def _run_query(engine: Any, text: str, dialect: str | None, timeout: float, cap: int) -> dict:
    start = time.perf_counter()
    try:
        table = engine.run(text, dialect=dialect, timeout=timeout, row_cap=cap, read_only=True)
    except Exception as exc:
        out = _error(exc)
    else:
        out = {
            "ok": True,
            "columns": list(table.columns),
            "rows": [encode(list(row)) for row in table.rows],
            "ordered": bool(table.ordered),
            "truncated": bool(table.truncated),
        }
    out["seconds"] = round(time.perf_counter() - start, 4)
    return out


def _regex_provenance_ids(engine: Any, text: str, timeout: float, cap: int) -> set[str]:
    """CypherBench's provenance set: the element ids its text-built query returns."""
    from .provenance_regex import provenance_query

    table = engine.run(
        provenance_query(text), dialect="neo4j", timeout=timeout, row_cap=cap, read_only=True
    )
    return {f"n:{row[0]}" for row in table.rows}


def _run_provenance(engine: Any, text: str, dialect: str | None, task: dict, timeout: float):
    from .provenance import provenance_ids

    start = time.perf_counter()
    try:
        if task.get("psjs_mode") == "regex":
            ids = _regex_provenance_ids(engine, text, timeout, task["row_cap"])
        else:
            ids = provenance_ids(
                engine,
                text,
                dialect,
                edges=task["psjs_edges"],
                timeout=timeout,
                row_cap=task["row_cap"],
            )
    except Exception as exc:
        out = _error(exc)
    else:
        out = {"ok": True, "ids": sorted(ids)}
    out["seconds"] = round(time.perf_counter() - start, 4)
    return out


# A prediction gets this many times the gold query's own time (at least MIN_TIMEOUT seconds,
# at most the task's timeout) when the timeout is proportional: a query that is far slower
# than the answer it should give is wrong anyway, and waiting for a fixed cap makes one slow
# prediction cost more than the rest of a dataset.
TIMEOUT_FACTOR = 10.0
MIN_TIMEOUT = 1.0


def prediction_timeout(gold: dict[str, Any] | None, task: dict[str, Any]) -> float:
    """The time a prediction (or its provenance query) may take: the task's ``timeout``, or
    with ``proportional`` set, TIMEOUT_FACTOR × the gold run's seconds within
    [MIN_TIMEOUT, timeout]; a failed or missing gold run leaves the full timeout."""
    cap = task["timeout"]
    if not task.get("proportional") or not gold or not gold.get("ok"):
        return cap
    return min(cap, max(MIN_TIMEOUT, TIMEOUT_FACTOR * float(gold.get("seconds") or 0.0)))


def run_task(engine: Any, task: dict[str, Any]) -> dict[str, Any]:
    """Run what ``task`` asks for and return the outcomes. Keys of ``task``: ``id``,
    ``gold`` / ``pred`` (texts, or None when not to be run), ``gold_dialect``,
    ``pred_dialect``, ``timeout``, ``proportional`` (bool), ``cached_gold`` (the cached gold
    outcome, for its seconds), ``row_cap``, ``psjs`` (bool), ``psjs_mode`` (``ir`` or
    ``regex``), ``psjs_edges``."""
    out: dict[str, Any] = {"id": task["id"]}
    known = dict(task.get("cached_gold") or {})
    cap, rows = task["timeout"], task["row_cap"]
    if task.get("gold") is not None:
        text, dialect = task["gold"], task["gold_dialect"]
        out["gold"] = known["gold"] = _run_query(engine, text, dialect, cap, rows)
        if task["psjs"]:
            prov = _run_provenance(engine, text, dialect, task, cap)
            out["gold_provenance"] = known["gold_provenance"] = prov
    if task.get("pred") is not None:
        text, dialect = task["pred"], task["pred_dialect"]
        limit = prediction_timeout(known.get("gold"), task)
        out["pred"] = _run_query(engine, text, dialect, limit, rows)
        if task["psjs"]:
            limit = prediction_timeout(known.get("gold_provenance"), task)
            out["pred_provenance"] = _run_provenance(engine, text, dialect, task, limit)
    return out


def decode_table(data: dict[str, Any]) -> Any:
    """A :class:`~.execution.Result` from the data :func:`run_task` wrote (None for an error)."""
    from .execution import Result

    if not data.get("ok"):
        return None
    rows = [tuple(decode(r)) for r in data["rows"]]
    return Result(rows, len(data["columns"]), data.get("ordered", False))
