"""Whether an engine's error is the error a TCK scenario expects.

The TCK tells compile-time errors (the query is refused before it runs) from runtime errors.
Each engine reveals the phase differently:

* **neo4j**: the query is asked again under ``EXPLAIN``, which compiles without running: if that
  fails too the error is a compile-time one, else a runtime one. At runtime the status code's
  last part is also the TCK's error type (``Neo.ClientError.Statement.TypeError``);
* **grafeo**: codes ``GRAFEO-Q001`` (syntax) and ``GRAFEO-Q002`` (semantic) are compile-time,
  every other code a runtime error;
* **arcadedb**: ``CommandParsingException`` is compile-time; ``CommandSemanticException`` is
  raised in both phases, so it is accepted for either (counted as ``unclassified``); any other
  exception is a runtime error;
* **kuzu**: ``Parser exception`` and ``Binder exception`` are compile-time, ``Runtime
  exception`` a runtime error, anything else unclassified;
* **falkordb**: as for Neo4j, the query is planned again with ``GRAPH.EXPLAIN``: an error there
  too is a compile-time one, else a runtime one (FalkorDB's errors carry no type).

An error of the expected phase (or an unclassified one) passes; ``any time`` accepts any error.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["ErrorMatch", "error_phase", "match_error"]

COMPILE = "compile time"
RUNTIME = "runtime"
UNCLASSIFIED = "unclassified"

#: the TCK's runtime error types as Neo4j's status codes name them
_NEO4J_TYPES = {
    "TypeError": "TypeError",
    "ArgumentError": "ArgumentError",
    "ArithmeticError": "ArithmeticError",
    "EntityNotFound": "EntityNotFound",
    "ConstraintVerificationFailed": "ConstraintValidationFailed",
    "SemanticError": "SemanticError",
}


@dataclass(frozen=True, slots=True)
class ErrorMatch:
    accepted: bool
    phase: str  # compile time | runtime | unclassified
    reason: str = ""
    detail_matched: bool | None = None


def error_phase(engine: str, exc: Any, compiles: bool | None) -> str:
    """The phase of an engine error (see the module text for each engine's rule)."""
    code = str(getattr(exc, "engine_code", None) or "")
    message = str(getattr(exc, "message", exc))
    if engine in ("neo4j", "falkordb") and compiles is not None:
        return RUNTIME if compiles else COMPILE
    if engine == "grafeo" and code.startswith("GRAFEO-"):
        return COMPILE if code in ("GRAFEO-Q001", "GRAFEO-Q002") else RUNTIME
    if engine == "arcadedb" and code:
        if code == "CommandParsingException":
            return COMPILE
        return UNCLASSIFIED if code == "CommandSemanticException" else RUNTIME
    if engine == "kuzu":
        if "Parser exception" in message or "Binder exception" in message:
            return COMPILE
        if "Runtime exception" in message:
            return RUNTIME
    return UNCLASSIFIED


def match_error(engine: str, exc: Any, expected: Any, compiles: bool | None) -> ErrorMatch:
    """Whether ``exc`` (an EngineError) is the error ``expected`` (a TckOutcome) describes."""
    phase = error_phase(engine, exc, compiles)
    want = f"{expected.error_type} at {expected.error_phase} ({expected.error_detail})"
    message = str(getattr(exc, "message", exc)).replace("\n", " ")[:200]
    if expected.error_phase != "any time" and phase not in (UNCLASSIFIED, expected.error_phase):
        return ErrorMatch(False, phase, f"expected {want}, engine failed at {phase}: {message}")
    if engine == "neo4j" and phase == RUNTIME and expected.error_type in _NEO4J_TYPES:
        code = str(getattr(exc, "engine_code", None) or "")
        if code.rsplit(".", 1)[-1] != _NEO4J_TYPES[expected.error_type]:
            return ErrorMatch(False, phase, f"expected {want}, got {code}: {message}")
    return ErrorMatch(True, phase)
