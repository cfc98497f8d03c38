"""The reference evaluator: the meaning of the Graph-IR, executable on small in-memory graphs.

It is the oracle of gqlir's tests (a translation is right when the reference evaluator gives
the same result for the source and for the translation) and the engine behind
``gqlir run --engine reference`` and ``gqlir tck``. It is not a database: it materialises every
intermediate table and enumerates patterns exhaustively.

    >>> from gqlir.eval import Graph, run
    >>> g = Graph()
    >>> result = run("CREATE (a:P {name: 'x'}) RETURN a.name AS n", g)
    >>> result.rows, result.side_effects
    ([('x',)], {'+nodes': 1, '+labels': 1, '+properties': 1})

Where dialects give one construct different meanings, the IR states which meaning applies
(match mode, null ordering …) or the dialect's capabilities do (``integer_division``), and the
evaluator follows that: it never assumes a dialect on its own.
"""

from __future__ import annotations

import datetime as _dt
import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .graph import Graph, GraphState, Node, Relationship
from .result import Result, side_effects
from .runtime import Procedure
from .values import Path, equivalence_key

if TYPE_CHECKING:
    from .. import ir

__all__ = [
    "Graph",
    "GraphState",
    "Node",
    "Path",
    "Procedure",
    "Relationship",
    "Result",
    "evaluate",
    "run",
]


def evaluate(
    statement: ir.Statement,
    graph: Graph | None = None,
    parameters: Mapping[str, Any] | None = None,
    *,
    dialect: str = "neo4j",
    procedures: Mapping[str, Procedure] | None = None,
    clock: _dt.datetime | None = None,
    seed: int = 0,
    check: bool = True,
) -> Result:
    """Run an IR statement on ``graph`` (changed in place by writes) and return its result.

    ``dialect`` supplies the capabilities that decide dialect-dependent meanings; ``clock`` fixes
    the statement time (``date()``, ``timestamp()``) and ``seed`` the random numbers (``rand()``)
    for reproducible runs. With ``check`` the static checks run first and a query that breaks a
    compile-time rule raises :class:`gqlir.eval.check.StaticCheckError` before anything is read.
    Runtime failures raise :class:`gqlir.errors.EvaluationError`; if one does, writes already made
    stay in the graph (there are no transactions here).
    """
    from ..dialect import get_dialect
    from ..ir.analysis import writes_data
    from .check import check as static_check
    from .runtime import Runtime
    from .session import run_statement
    from .temporal import now_utc

    if check:
        static_check(statement)
    graph = graph if graph is not None else Graph()
    rt = Runtime(
        graph,
        dict(parameters or {}),
        get_dialect(dialect).capabilities,
        dict(procedures or {}),
        now=now_utc(clock),
        rng=random.Random(seed),
    )
    # The side-effect counters compare the graph before and after: only worth it for writes.
    writes = writes_data(statement)
    before = graph.state(equivalence_key) if writes else None
    columns, rows, ordered = run_statement(rt, statement)
    after = graph.state(equivalence_key) if writes else None
    return Result(
        columns,
        [tuple(r[c] for c in columns) for r in rows],
        ordered,
        side_effects(before, after) if before is not None and after is not None else {},
    )


def run(
    text: str,
    graph: Graph | None = None,
    parameters: Mapping[str, Any] | None = None,
    *,
    dialect: str = "neo4j",
    **options: Any,
) -> Result:
    """Parse ``text`` in ``dialect`` and :func:`evaluate` it."""
    from ..dialect import get_dialect
    from ..parser import parse

    return evaluate(
        parse(text, get_dialect(dialect)), graph, parameters, dialect=dialect, **options
    )
