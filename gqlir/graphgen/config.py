"""The generation config: reading it (JSON or TOML), checking its shape, and writing the
resolved form that records every choice, so that ``generate --config written.json`` remakes the
same graph byte for byte.

The document (docs/graphgen.md)::

    {"format": "gqlir-graphgen", "version": 1, "seed": 7, "target_edges": 100000,
     "edges_per_node": 5, "layout": "jsonl",
     "nodes": {"Person": {"count": 4000, "weight": 1, "properties": {"name": {...}}}},
     "edges": {"KNOWS": {"count": 20000, "weight": 1, "pairs": {"Person->Person": 1},
                         "degree": {"dist": "power_law", "exponent": 2.3},
                         "popularity": {"dist": "zipf", "s": 0.8},
                         "fraction": 0.8, "properties": {...}}}}
"""

from __future__ import annotations

import json
import os
import tomllib
from typing import Any

from .errors import GraphGenError

FORMAT = "gqlir-graphgen"
VERSION = 1
LAYOUTS = ("jsonl", "csv")

TOP_KEYS = {
    "format",
    "version",
    "seed",
    "schema",
    "target_edges",
    "edges_per_node",
    "layout",
    "nodes",
    "edges",
}
NODE_KEYS = {"count", "weight", "properties"}
EDGE_KEYS = {
    "count",
    "weight",
    "mode",
    "anchor",
    "pairs",
    "degree",
    "popularity",
    "fraction",
    "self_loops",
    "properties",
}
DEGREE_DISTS = {"power_law": {"exponent"}, "poisson": {"mean"}, "fixed": {"value"}}
POPULARITY_DISTS = {"uniform": set(), "zipf": {"s"}}


def read_document(path: str) -> Any:
    """A JSON or (``.toml``) TOML file's data."""
    try:
        with open(path, "rb") as fh:
            raw = fh.read()
    except OSError as exc:
        raise GraphGenError(f"cannot read {path!r}: {exc.strerror or exc}") from None
    try:
        if path.endswith(".toml"):
            return tomllib.loads(raw.decode("utf-8"))
        return json.loads(raw)
    except (tomllib.TOMLDecodeError, json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise GraphGenError(
            f"{path}: not valid {'TOML' if path.endswith('.toml') else 'JSON'} ({exc})"
        ) from None


def read_config(path: str) -> dict[str, Any]:
    """A generation config file (JSON, or TOML when it ends in ``.toml``), checked."""
    data = read_document(path)
    check_config(data, os.path.basename(path))
    return data


def check_config(data: Any, where: str = "config") -> None:
    """Reject unknown keys and ill-typed values, naming the path of the problem."""
    _obj(data, TOP_KEYS, where)
    if data.get("format", FORMAT) != FORMAT:
        raise GraphGenError(f"{where}: 'format' is {data['format']!r}, expected {FORMAT!r}")
    if data.get("version", VERSION) != VERSION:
        raise GraphGenError(f"{where}: unsupported version {data['version']!r}")
    if "seed" in data and not _is_int(data["seed"]):
        raise GraphGenError(f"{where}: 'seed' must be an integer")
    if "target_edges" in data and not (_is_int(data["target_edges"]) and data["target_edges"] > 0):
        raise GraphGenError(f"{where}: 'target_edges' must be a positive integer")
    if "edges_per_node" in data and not _positive(data["edges_per_node"]):
        raise GraphGenError(f"{where}: 'edges_per_node' must be a positive number")
    if data.get("layout", "jsonl") not in LAYOUTS:
        raise GraphGenError(f"{where}: 'layout' must be one of {', '.join(LAYOUTS)}")
    for label, node in _obj(data.get("nodes", {}), None, f"{where}.nodes").items():
        here = f"{where}.nodes.{label}"
        _obj(node, NODE_KEYS, here)
        _counts(node, here)
        _obj(node.get("properties", {}), None, here + ".properties")
    for label, edge in _obj(data.get("edges", {}), None, f"{where}.edges").items():
        here = f"{where}.edges.{label}"
        _obj(edge, EDGE_KEYS, here)
        _counts(edge, here)
        _obj(edge.get("properties", {}), None, here + ".properties")
        for key, table in (("degree", DEGREE_DISTS), ("popularity", POPULARITY_DISTS)):
            if key in edge:
                _dist(edge[key], table, f"{here}.{key}")
        for pair, w in _obj(edge.get("pairs", {}), None, here + ".pairs").items():
            if "->" not in pair or not isinstance(w, (int, float)) or w < 0:
                raise GraphGenError(
                    f"{here}.pairs: {pair!r} must be 'Source->Target' with a weight >= 0"
                )
        frac = edge.get("fraction", 0.8)
        if not isinstance(frac, (int, float)) or not 0 <= frac <= 1:
            raise GraphGenError(f"{here}: 'fraction' must be a number in [0, 1]")


def _obj(value: Any, allowed: set[str] | None, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise GraphGenError(f"{where}: expected an object")
    if allowed is not None:
        unknown = set(value) - allowed
        if unknown:
            raise GraphGenError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}")
    return value


def _counts(d: dict[str, Any], where: str) -> None:
    if "count" in d and not (_is_int(d["count"]) and d["count"] >= 0):
        raise GraphGenError(f"{where}: 'count' must be a non-negative integer")
    if "weight" in d and not (isinstance(d["weight"], (int, float)) and d["weight"] >= 0):
        raise GraphGenError(f"{where}: 'weight' must be a non-negative number")


def _dist(spec: Any, table: dict[str, set[str]], where: str) -> None:
    if not isinstance(spec, dict) or spec.get("dist") not in table:
        raise GraphGenError(f"{where}: 'dist' must be one of {', '.join(table)}")
    unknown = set(spec) - {"dist"} - table[spec["dist"]]
    if unknown:
        raise GraphGenError(f"{where}: {spec['dist']} takes no {', '.join(sorted(unknown))}")
    for k, v in spec.items():
        if k != "dist" and not _positive(v):
            raise GraphGenError(f"{where}: {k!r} must be a positive number")
    if spec["dist"] == "power_law" and spec.get("exponent", 2.3) <= 1:
        raise GraphGenError(f"{where}: a power-law exponent must be above 1")


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _positive(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and v > 0


def write_config(path: str, config: dict[str, Any]) -> None:
    """The resolved config as indented JSON (stable: the same run writes the same bytes)."""
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        fh.write(json.dumps(config, indent=2, ensure_ascii=False) + "\n")


__all__ = [
    "FORMAT",
    "LAYOUTS",
    "VERSION",
    "check_config",
    "read_config",
    "read_document",
    "write_config",
]
