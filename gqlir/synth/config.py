"""What a synthesis run is asked to do, and where its inputs are."""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field

from ..schema.model import SchemaGraph
from .emitting import DEFAULT_DIALECTS
from .errors import SynthError
from .library import LIBRARIES


@dataclass
class SynthConfig:
    """``schemas``: graph folders (``schema.json`` and ``graph/``, as in ``schemas/``) or
    schema files with ``graphs`` given; ``n``: verified items per schema."""

    schemas: list[str]
    graphs: list[str | None] = field(default_factory=list)
    engine: str = "reference"
    libraries: list[str] = field(default_factory=lambda: list(LIBRARIES))
    n: int = 1000
    seed: int = 7
    dialects: list[str] = field(default_factory=lambda: list(DEFAULT_DIALECTS))
    timeout: float = 2.0
    max_rows: int = 50
    allow_empty: bool = False
    dedup_results: bool = False
    mix: dict[str, dict[str, float]] = field(default_factory=dict)
    # the engines that run each dialect's texts (``--verify-engine`` values, .verify), whether
    # they run at all, and whether items an engine disagrees with are kept (marked)
    verify_engines: list[str] = field(default_factory=list)
    verify: bool = True
    keep_disagreements: bool = False
    max_failures: int = 60  # consecutive failed attempts before a template is set aside
    max_attempts_per_item: int = 40

    def fingerprint(self) -> str:
        """The settings that decide the dataset (a resumed run must have the same). A server's
        URL is not one of them: a resumed run may reach the same engine at another port."""
        from .verify import parse_routes

        data = asdict(self)
        routes = parse_routes(self.verify_engines)
        data["verify_engines"] = {d: r.describe() for d, r in sorted(routes.items())}
        return json.dumps(data, sort_keys=True)


def resolve_graph(schema: str, graph: str | None) -> tuple[SchemaGraph, str, str]:
    """(schema, graph folder, dataset name) of one ``--schema``/``--graph`` pair."""
    from ..schema import load_schema

    path = schema
    if os.path.isdir(schema):
        path = os.path.join(schema, "schema.json")
        graph = graph or os.path.join(schema, "graph")
    if not os.path.isfile(path):
        raise SynthError(f"{schema}: no schema file (a folder with schema.json, or a file)")
    if graph is None or not os.path.isdir(graph):
        raise SynthError(f"{schema}: no graph folder: give --graph")
    loaded = load_schema(path)
    name = loaded.name or os.path.basename(os.path.normpath(os.path.dirname(path)))
    return loaded, graph, name


def parse_mix(text: str) -> dict[str, dict[str, float]]:
    """``difficulty=easy:1,medium:2`` (or ``pattern=…``, ``library=…``) as weights."""
    key, sep, rest = text.partition("=")
    if not sep or key not in ("difficulty", "pattern", "library"):
        raise SynthError(f"--mix {text!r}: expected difficulty=…, pattern=… or library=…")
    weights: dict[str, float] = {}
    for part in rest.split(","):
        name, sep, weight = part.rpartition(":")
        try:
            weights[name.replace("-", " ") if key == "difficulty" else name] = float(weight)
        except ValueError:
            raise SynthError(f"--mix {text!r}: {part!r} is not NAME:WEIGHT") from None
        if not sep or not name:
            raise SynthError(f"--mix {text!r}: {part!r} is not NAME:WEIGHT")
    return {key: weights}


def quotas(mix: dict[str, dict[str, float]], n: int) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for key, weights in mix.items():
        total = sum(weights.values()) or 1.0
        out[key] = {name: round(n * w / total) for name, w in weights.items()}
    return out
