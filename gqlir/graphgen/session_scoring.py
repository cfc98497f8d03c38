"""Step-wise accuracy of predicted validation answers (NGDBench's L_step), with the metrics'
:func:`~gqlir.metrics.numeric.step_accuracy` and :func:`~gqlir.metrics.numeric.session_accuracy`.

A prediction file holds JSON lines ``{"id": <session id>, "steps": [answer, …]}``, one answer
per step in order. An answer is a table ``{"columns", "rows"}`` (rows as the session files
store them), a list of rows, a list of values (a one-column answer), or a single value (a
one-row, one-column answer, e.g. a count). A missing step, or a missing session, is wrong.
"""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

from ..metrics.execution import Result, execution_match
from ..metrics.numeric import session_accuracy, step_accuracy
from ..metrics.values import decode
from .errors import GraphGenError
from .replay import gold_result


def predicted_result(answer: Any, gold: dict[str, Any]) -> Result | None:
    """A predicted answer in the shape of the gold one, or None when it has no shape."""
    width = len(gold["columns"])
    ordered = bool(gold.get("ordered"))
    if isinstance(answer, dict) and "rows" in answer:
        rows = [tuple(decode(v) for v in row) for row in answer["rows"]]
        return Result(rows, len(answer.get("columns") or (rows[0] if rows else ())), ordered)
    if isinstance(answer, list):
        if width == 1 and not all(isinstance(r, list) for r in answer):
            return Result([(decode(v),) for v in answer], 1, ordered)
        if all(isinstance(r, list) for r in answer):
            rows = [tuple(decode(v) for v in r) for r in answer]
            return Result(rows, len(rows[0]) if rows else width, ordered)
        return None
    return Result([(decode(answer),)], 1, ordered)


def step_matches(pred: Any, gold: dict[str, Any]) -> bool:
    """Whether one predicted answer is the gold answer of its step."""
    result = predicted_result(pred, gold)
    return result is not None and execution_match(gold_result(gold), result, "default")


def read_predictions(path: str) -> dict[str, list[Any]]:
    """Predicted answers per session id."""
    out: dict[str, list[Any]] = {}
    try:
        with open(path, encoding="utf-8") as fh:
            for n, line in enumerate(fh, start=1):
                if not line.strip():
                    continue
                record = json.loads(line)
                if not isinstance(record, dict) or not isinstance(record.get("steps"), list):
                    raise GraphGenError(f"{path}:{n}: a prediction needs 'id' and a 'steps' list")
                out[str(record.get("id"))] = record["steps"]
    except OSError as exc:
        raise GraphGenError(f"cannot read {path}: {exc.strerror or exc}") from None
    except json.JSONDecodeError as exc:
        raise GraphGenError(f"{path}: not JSON lines ({exc.msg})") from None
    return out


def score_sessions(
    sessions: list[dict[str, Any]], predictions: dict[str, list[Any]]
) -> dict[str, Any]:
    """Step accuracy per session, session accuracy overall and per session kind."""
    pairs: list[tuple[list[Any], list[dict[str, Any]]]] = []
    per_session: dict[str, float] = {}
    by_kind: dict[str, list[tuple[list[Any], list[dict[str, Any]]]]] = defaultdict(list)
    for session in sessions:
        golds = [step["answer"] for step in session["steps"]]
        preds = predictions.get(session["id"], [])
        pair = (preds, golds)
        pairs.append(pair)
        by_kind[session["operation"]].append(pair)
        per_session[session["id"]] = step_accuracy(preds, golds, step_matches)
    return {
        "sessions": len(sessions),
        "predicted": sum(1 for s in sessions if s["id"] in predictions),
        "session_accuracy": session_accuracy(pairs, step_matches),
        "by_operation": {
            kind: session_accuracy(group, step_matches) for kind, group in sorted(by_kind.items())
        },
        "step_accuracy": per_session,
    }


__all__ = ["predicted_result", "read_predictions", "score_sessions", "step_matches"]
