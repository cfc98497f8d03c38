"""Writing a finished dataset folder: items (JSONL, Parquet when pyarrow is installed),
splits, exports, schemas, plots and the card. Everything is written in a fixed order with
sorted keys, so the same items give the same bytes."""

from __future__ import annotations

import json
import os
from collections import Counter
from typing import Any

from ..jsonl import dumps
from ..optional import MissingDependencyError, require
from . import card, exports


def _write(path: str, text: str) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8", newline="\n") as fh:
        fh.write(text)
    os.replace(tmp, path)


def _jsonl(records: list[dict[str, Any]]) -> str:
    return "".join(dumps(r, sort_keys=True) + "\n" for r in records)


def _json(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, sort_keys=True, indent=1) + "\n"


def write_parquet(path: str, items: list[dict[str, Any]]) -> None:
    """Flat columns; nested values as JSON text."""
    pq = require("pyarrow.parquet", extra="engines", purpose="writing items.parquet")
    import pyarrow as pa

    names = sorted({k for item in items for k in item})
    columns = {}
    for name in names:
        values = [item.get(name) for item in items]
        if all(v is None or isinstance(v, (str, int, bool)) for v in values):
            columns[name] = values
        else:
            columns[name] = [json.dumps(v, ensure_ascii=False, sort_keys=True) for v in values]
    pq.write_table(pa.table(columns), path)


def write_dataset(
    out: str,
    items: list[dict[str, Any]],
    stats: dict[str, Any],
    dialects: list[str],
    schemas: dict[str, Any],
) -> None:
    os.makedirs(out, exist_ok=True)
    names = sorted(schemas)
    for item in items:
        item["split"] = exports.split_of(item, names, stats["seed"])
    _write(os.path.join(out, "items.jsonl"), _jsonl(items))
    try:
        write_parquet(os.path.join(out, "items.parquet"), items)
    except MissingDependencyError as exc:
        # items.parquet holds the items of items.jsonl in another layout: the dataset is whole
        # without it, so a synthesis is not lost for it; the card and the caller say so.
        stats["not_written"] = {"items.parquet": exc.message}
    for split in ("train", "dev", "test"):
        chosen = [i for i in items if i["split"] == split]
        _write(os.path.join(out, "splits", f"{split}.jsonl"), _jsonl(chosen))
    _write(os.path.join(out, "exports", "text2gql.json"), _json(exports.text2gql(items)))
    _write(os.path.join(out, "exports", "cypherbench.json"), _json(exports.cypherbench(items)))
    _write(os.path.join(out, "exports", "ngdbench.jsonl"), _jsonl(exports.ngdbench(items)))
    for name, schema in schemas.items():
        _write(os.path.join(out, "schemas", f"{name}.json"), schema.to_json())
    for name, svg in card.plots(items, dialects).items():
        _write(os.path.join(out, "plots", name), svg)
    refusals: Counter = Counter()
    for item in items:
        for dialect, why in item["unsupported"].items():
            refusals[(dialect, why)] += 1
    stats = {**stats, "refusals": refusals}
    stats["split_method"] = (
        "by schema (whole domains held out)"
        if len(names) >= 3
        else "by a hash of the item id (80 / 10 / 10)"
    )
    _write(os.path.join(out, "README.md"), card.card(items, stats, dialects))
    summary = {k: v for k, v in stats.items() if k != "refusals"}
    summary["difficulty"] = dict(sorted(card.counts(items, "difficulty").items()))
    summary["pattern"] = dict(sorted(card.counts(items, "pattern").items()))
    summary["dialects"] = card.coverage(items, dialects)
    summary["verification"] = card.verification(items, stats, dialects)
    _write(os.path.join(out, "stats.json"), _json(summary))
