"""Reading and writing the benchmarks' own layouts, so their data and predictions can be
scored directly (docs/metrics.md shows each layout).

* ``gqlir``: JSONL, gold ``{"id", "query", "dialect"?, "domain"?, "level"?, "difficulty"?,
  "question"?, "answer"?, "steps"?}``, predictions ``{"id", "query"}`` (or ``"answer"`` /
  ``"steps"`` for answer-level predictions);
* ``text2gql``: Text2GQL-Bench dataset records ``{"id"|"instance_id", "database",
  "initial_question", <gold>, "level_1", "level_2", "level_3", "external_knowledge",
  "difficulty", "source"}`` with the gold under the first key the Driver's ``run_pipeline``
  tries (``gold_query``, ``initial_sql``, ``initial_gql``, ``initial_cypher``, ``SQL``,
  ``sql``, ``gql_query``, ``gql``); predictions as the Driver writes them (the same records
  with ``initial_query``, ``level_1_query`` … ``level_3_external_knowledge_query``), as its
  contrib scripts read them (``generated_query`` beside ``gql`` / ``initial_gql``), one query
  per line of a text file in the dataset's order (an empty line is no prediction), or gqlir
  JSONL;
* ``cypherbench``: a JSON list of ``Nl2CypherSample`` objects (``qid``, ``graph``,
  ``gold_cypher``, ``nl_question``, ``from_template{match_category, return_pattern_id}``,
  ``pred_cypher``); the same file carries the predictions;
* ``ngdbench``: query records ``{"template_id", "template_type", "query", "parameters",
  "answer"}`` and management batches ``{"template": {"query": [...]}, "validation":
  [{"query", "answer", "index"}]}`` (a session, scored step by step on answers).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ..jsonl import dumps, read_line
from .errors import MetricsError

__all__ = [
    "FORMATS",
    "TEXT2GQL_LEVELS",
    "GoldItem",
    "Prediction",
    "detect_format",
    "export_results",
    "read_gold",
    "read_predictions",
    "read_records",
]

FORMATS = ("auto", "gqlir", "text2gql", "cypherbench", "ngdbench")
TEXT2GQL_LEVELS = ("initial", "level_1", "level_2", "level_3", "level3_with_ext")

# the Driver's run_pipeline: gold keys in the order it tries them, prediction key per level
_DRIVER_GOLD_KEYS = (
    "gold_query",
    "initial_sql",
    "initial_gql",
    "initial_cypher",
    "SQL",
    "sql",
    "gql_query",
    "gql",
)
_DRIVER_LEVEL_KEYS = {
    "initial": "initial_query",
    "level_1": "level_1_query",
    "level_2": "level_2_query",
    "level_3": "level_3_query",
    "level3_with_ext": "level_3_external_knowledge_query",
}
# the contrib scripts (ea_gql.py, evaluate_gql.py): prediction keys, and gold keys in order
_CONTRIB_PRED_KEYS = ("generated_query", "predict", "prediction", "output", "pred")
_CONTRIB_GOLD_KEYS = ("gql", "gold", "initial_gql", "reference", "label", "ground_truth")

# CypherBench aggregates these RETURN patterns as one (its evaluate.py)
_CYPHERBENCH_COMBINED = {"n_prop", "n_name_prop", "n_prop_distinct", "n_prop_array_distinct"}


@dataclass(slots=True)
class GoldItem:
    """One item to score. ``answer`` is a gold answer given by the dataset (NGDBench);
    ``steps`` the gold answers of a management session."""

    id: str
    query: str
    dialect: str | None = None
    question: str | None = None
    domain: str | None = None
    level: str | None = None
    difficulty: str | None = None
    match_category: str | None = None
    return_category: str | None = None
    answer: Any = None
    steps: list[Any] | None = None
    source: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True)
class Prediction:
    id: str
    query: str | None = None
    answer: Any = None
    steps: list[Any] | None = None


def _bad(path: str, message: str) -> MetricsError:
    return MetricsError(f"{path}: {message}", code="METRICS_INPUT")


def read_records(path: str) -> list[dict[str, Any]]:
    """The JSON objects of a ``.jsonl`` file (one per line) or a ``.json`` file (a list, or an
    object holding one list)."""
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except OSError as exc:
        raise _bad(path, f"cannot read: {exc.strerror or exc}") from None
    stripped = text.lstrip()
    if stripped.startswith("[") or (path.endswith(".json") and stripped.startswith("{")):
        data, problem, _ = read_line(text)
        if problem is not None:
            raise _bad(path, problem)
        if isinstance(data, dict):
            lists = [v for v in data.values() if isinstance(v, list)]
            if len(lists) != 1:
                raise _bad(path, "a JSON object must hold exactly one list of records")
            data = lists[0]
        records = data
    else:
        records = []
        for number, line in enumerate(text.split("\n"), 1):
            value, problem, _ = read_line(line)
            if problem == "blank line":
                continue  # not a record: items, not lines, are what a run scores
            if problem is not None:
                raise _bad(path, f"line {number}: {problem}")
            records.append(value)
    if not all(isinstance(r, dict) for r in records):
        raise _bad(path, "every record must be a JSON object")
    return records


def detect_format(records: list[dict[str, Any]]) -> str:
    """The layout of ``records`` by their keys."""
    if not records:
        return "gqlir"
    keys = set(records[0])
    if "gold_cypher" in keys or "qid" in keys:
        return "cypherbench"
    if keys & {*_DRIVER_GOLD_KEYS, *_CONTRIB_PRED_KEYS} - {"pred", "query"}:
        return "text2gql"
    if "template_id" in keys or ("validation" in keys and "template" in keys):
        return "ngdbench"
    return "gqlir"


def _text2gql_question(record: dict[str, Any], level: str) -> str | None:
    if level == "initial":
        return record.get("initial_question")
    if level == "level3_with_ext":
        ext = record.get("external_knowledge")
        base = record.get("level_3") or ""
        return f"{base} {ext}".strip() if ext else base
    return record.get(level)


def _first(record: dict[str, Any], keys: Iterable[str]) -> Any:
    return next((record[k] for k in keys if record.get(k)), None)


def _text2gql_id(record: dict[str, Any], index: int) -> str:
    return str(_first(record, ("id", "instance_id")) or index)


def _text2gql_gold(record: dict[str, Any], field: str | None = None) -> str:
    if field is not None:
        return str(record.get(field) or "")
    keys = _CONTRIB_GOLD_KEYS if "generated_query" in record else _DRIVER_GOLD_KEYS
    return str(_first(record, keys) or "")


def _text2gql_items(
    records: list[dict[str, Any]], levels: Iterable[str], gold_field: str | None = None
) -> Iterator[GoldItem]:
    levels = list(levels)
    for index, r in enumerate(records):
        for level in levels:
            base = _text2gql_id(r, index)
            yield GoldItem(
                id=base if len(levels) == 1 else f"{base}:{level}",
                query=_text2gql_gold(r, gold_field),
                question=_text2gql_question(r, level),
                domain=r.get("database"),
                level=level,
                difficulty=r.get("difficulty"),
                source=r,
            )


def _cypherbench_items(records: list[dict[str, Any]]) -> Iterator[GoldItem]:
    for index, r in enumerate(records):
        template = r.get("from_template") or {}
        ret = template.get("return_pattern_id")
        yield GoldItem(
            id=str(r.get("qid", index)),
            query=str(r.get("gold_cypher") or ""),
            dialect="neo4j",
            question=r.get("nl_question"),
            domain=r.get("graph"),
            match_category=template.get("match_category"),
            return_category="n_prop_combined" if ret in _CYPHERBENCH_COMBINED else ret,
            source=r,
        )


def _ngdbench_items(records: list[dict[str, Any]]) -> Iterator[GoldItem]:
    for index, r in enumerate(records):
        if "validation" in r:
            steps = sorted(r["validation"], key=lambda v: v.get("index", 0))
            yield GoldItem(
                id=f"session#{index}",
                query=str(steps[0].get("query", "")) if steps else "",
                level="management",
                steps=[s.get("answer") for s in steps],
                source=r,
            )
            continue
        yield GoldItem(
            id=f"{r.get('template_id', 'query')}#{index}",
            query=str(r.get("query") or ""),
            level=r.get("template_type"),
            answer=r.get("answer"),
            source=r,
        )


def _gqlir_items(records: list[dict[str, Any]], path: str) -> Iterator[GoldItem]:
    for index, r in enumerate(records):
        if "query" not in r and "steps" not in r:
            raise _bad(path, f"record {index + 1} has no 'query'")
        yield GoldItem(
            id=str(r.get("id", index)),
            query=str(r.get("query") or ""),
            dialect=r.get("dialect"),
            question=r.get("question"),
            domain=r.get("domain"),
            level=r.get("level"),
            difficulty=r.get("difficulty"),
            match_category=r.get("match_category"),
            return_category=r.get("return_category"),
            answer=r.get("answer"),
            steps=r.get("steps"),
            source=r,
        )


def read_gold(
    path: str,
    fmt: str = "auto",
    *,
    levels: Iterable[str] = ("initial",),
    gold_field: str | None = None,
) -> tuple[list[GoldItem], str]:
    """The gold items of a file and the format they were read as. ``gold_field`` names the
    key of a Text2GQL-Bench record that holds the gold query (each contrib script reads its
    own: ``ea_cypher.py --gold-field``, default ``initial_gql``; ``evaluate_gql.py`` one key
    for the whole file, inferred from its first record that has one); without it, the first
    key the Driver (or, for a contrib pair, ``ea_gql.py``) tries."""
    records = read_records(path)
    if fmt == "auto":
        fmt = detect_format(records)
    if fmt == "text2gql":
        unknown = [x for x in levels if x not in TEXT2GQL_LEVELS]
        if unknown:
            raise _bad(path, f"unknown question level {unknown[0]!r}: {', '.join(TEXT2GQL_LEVELS)}")
        items = list(_text2gql_items(records, levels, gold_field))
    elif fmt == "cypherbench":
        items = list(_cypherbench_items(records))
    elif fmt == "ngdbench":
        items = list(_ngdbench_items(records))
    elif fmt == "gqlir":
        items = list(_gqlir_items(records, path))
    else:
        raise _bad(path, f"unknown format {fmt!r}; known: {', '.join(FORMATS)}")
    seen: set[str] = set()
    for item in items:
        if item.id in seen:
            raise _bad(path, f"duplicate item id {item.id!r}")
        seen.add(item.id)
    return items, fmt


def read_predictions(path: str, gold: list[GoldItem], fmt: str = "auto") -> dict[str, Prediction]:
    """Predictions by item id. A ``.txt`` file holds one query per line in the gold items'
    order (Text2GQL-Bench's Driver layout)."""
    if path.endswith(".txt"):
        try:
            with open(path, encoding="utf-8") as fh:
                lines = fh.read().split("\n")
        except OSError as exc:
            raise _bad(path, f"cannot read: {exc.strerror or exc}") from None
        if lines and lines[-1] == "":
            lines.pop()
        return {g.id: Prediction(g.id, lines[i]) for i, g in enumerate(gold) if i < len(lines)}
    records = read_records(path)
    if fmt == "auto":
        fmt = detect_format(records)
    out: dict[str, Prediction] = {}
    if fmt == "cypherbench":
        for index, r in enumerate(records):
            qid = str(r.get("qid", index))
            out[qid] = Prediction(qid, r.get("pred_cypher"))
        return out
    if fmt == "text2gql":
        return _text2gql_predictions(records, gold)
    for index, r in enumerate(records):
        key = str(r.get("id", r.get("instance_id", index)))
        query = r.get("query", r.get("pred", r.get("pred_query")))
        out[key] = Prediction(key, query, r.get("answer"), r.get("steps"))
    return out


def _text2gql_predictions(
    records: list[dict[str, Any]], gold: list[GoldItem]
) -> dict[str, Prediction]:
    """The Driver's outputs (one ``<level>_query`` per level) or a contrib script's input (one
    ``generated_query``), matched to the gold items by record id and level."""
    levels = {g.level for g in gold}
    out: dict[str, Prediction] = {}
    for index, r in enumerate(records):
        base = _text2gql_id(r, index)
        for level in levels:
            key = base if len(levels) == 1 else f"{base}:{level}"
            if _DRIVER_LEVEL_KEYS.get(level or "") in r:
                out[key] = Prediction(key, r[_DRIVER_LEVEL_KEYS[level or ""]])
            elif any(k in r for k in _CONTRIB_PRED_KEYS):
                out[key] = Prediction(key, _first(r, _CONTRIB_PRED_KEYS))
    return out


# the benchmark's metric names for gqlir's
_EXPORT_METRICS = {
    "cypherbench": {"execution_accuracy": "ex", "psjs": "psjs", "executable": "executable"},
    "text2gql": {"ea": "ex", "grammar": "grammar", "similarity": "jaro_winkler"},
}


def _export_record(r: dict[str, Any], fmt: str) -> dict[str, Any]:
    metrics = {name: r["metrics"].get(ours) for name, ours in _EXPORT_METRICS[fmt].items()}
    if fmt == "cypherbench":
        # its Nl2CypherSample holds metrics as dict[str, float]: a metric the item has no
        # value for (a gold failure left out of EX) is left out, never null
        metrics = {k: v for k, v in metrics.items() if v is not None}
        base = r.get("source") or {"qid": r["id"], "gold_cypher": r.get("gold")}
        return {**base, "pred_cypher": r.get("pred"), "metrics": metrics}
    return {
        "instance_id": r["id"],
        "gold_query": r.get("gold"),
        "pred_query": r.get("pred"),
        "metrics": metrics,
    }


def export_results(results: list[dict[str, Any]], fmt: str, path: str) -> None:
    """Write per-item results in a benchmark's own result layout (NGDBench and gqlir: the
    records as JSONL)."""
    if fmt in _EXPORT_METRICS:
        data: Any = [_export_record(r, fmt) for r in results]
    elif fmt in ("ngdbench", "gqlir"):
        data = None
    else:
        raise MetricsError(f"unknown export format {fmt!r}", code="METRICS_INPUT")
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as fh:
        if data is None:
            for r in results:
                fh.write(dumps(r) + "\n")
        else:
            json.dump(data, fh, ensure_ascii=False, indent=1)
    os.replace(tmp, path)
