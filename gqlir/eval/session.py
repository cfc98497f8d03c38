"""GQL requests of several statements: session settings, transactions, and the queries between
them.

The evaluator holds one graph, so ``SESSION SET GRAPH``/``SCHEMA`` select it; a time zone or a
parameter set for the session applies to the statements after it; ``START TRANSACTION``
remembers the graph so that ``ROLLBACK`` can restore it, and ``READ ONLY`` makes every write
until ``COMMIT`` an error. Catalog statements (CREATE GRAPH …) are not modelled: the evaluator
has no catalog.
"""

from __future__ import annotations

from typing import Any

from .. import ir
from ..errors import EvaluationError
from .runtime import Row, Runtime, unsupported
from .temporal import UTC, Zone

__all__ = ["run_statement"]

Outcome = tuple[list[str], list[Row], bool]


def run_statement(rt: Runtime, statement: ir.Statement) -> Outcome:
    """Run one statement; a request returns the result of its last query."""
    if isinstance(statement, ir.Query):
        return rt.interpreter.run(statement)
    if isinstance(statement, ir.Program):
        outcome: Outcome = ([], [], False)
        for part in statement.statements:
            result = run_statement(rt, part)
            if isinstance(part, (ir.Query, ir.Program)):
                outcome = result
        return outcome
    _session(rt, statement)
    return [], [], False


def _session(rt: Runtime, s: ir.Statement) -> None:
    if isinstance(s, ir.StartTransaction):
        # A read-only transaction cannot change the graph: the graph is its own savepoint.
        rt.savepoint = rt.graph if s.read_only else rt.graph.copy()
        rt.read_only = s.read_only
    elif isinstance(s, ir.Commit):
        rt.savepoint = None
        rt.read_only = False
    elif isinstance(s, ir.Rollback):
        if rt.savepoint is None:
            raise EvaluationError("ROLLBACK without a transaction", category="SyntaxError")
        if rt.savepoint is not rt.graph:
            rt.graph.restore(rt.savepoint)
        rt.savepoint = None
        rt.read_only = False
    elif isinstance(s, ir.SessionSetTimeZone):
        rt.zone = Zone.parse(s.zone)
    elif isinstance(s, ir.SessionSetParameter):
        if not (s.if_not_exists and s.name in rt.parameters):
            rt.parameters[s.name] = rt.eval(s.value, {})
    elif isinstance(s, ir.SessionReset):
        _reset(rt, s)
    elif isinstance(s, (ir.SessionSetGraph, ir.SessionSetSchema, ir.SessionClose)):
        return  # one graph, no schemas: nothing to select or close
    else:
        raise unsupported(f"the statement {type(s).__name__}")


def _reset(rt: Runtime, s: ir.SessionReset) -> None:
    target = s.target
    params: Any = rt.parameters
    if target in (ir.SessionResetTarget.ALL, ir.SessionResetTarget.PARAMETERS):
        params.clear()
    if target in (ir.SessionResetTarget.ALL, ir.SessionResetTarget.CHARACTERISTICS):
        rt.zone = UTC
    if target is ir.SessionResetTarget.TIME_ZONE:
        rt.zone = UTC
    if target is ir.SessionResetTarget.PARAMETER and s.parameter is not None:
        params.pop(s.parameter, None)
