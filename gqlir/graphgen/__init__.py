"""Graph construction for benchmarks (docs/graphgen.md): synthetic graph data from a schema,
perturbation of a clean graph into an observed graph with a noise log, restoration, gold
answers under noise, and management sessions (writes with validation queries) replayed on
engines.

The names below are imported on first use, so that ``gqlir --help`` (which builds the ``graph``
commands) does not load the generator.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

_EXPORTS = {
    "generate": "generator",
    "GenerationResult": "generator",
    "resolve": "plan",
    "perturb": "perturbation",
    "PerturbResult": "perturbation",
    "DEFAULT_RATIOS": "perturbation",
    "restore": "noiselog",
    "RestoreResult": "noiselog",
    "noise_answers": "answers",
    "verification_items": "answers",
    "GraphGenError": "errors",
    "generate_sessions": "sessions",
    "read_sessions": "sessions",
    "replay": "replay",
    "ReplayReport": "replay",
    "score_sessions": "session_scoring",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'gqlir.graphgen' has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{module}"), name)
