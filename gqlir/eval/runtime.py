"""What one query run shares: the graph, parameters, procedures, the statement clock, the
dialect's capabilities, and the evaluator parts that call each other (expressions call
subqueries, subqueries call patterns, patterns call expressions)."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import EvaluationError
from .graph import Graph
from .temporal import UTC, DateTime, Zone, now_utc

if TYPE_CHECKING:
    from ..dialect import Capabilities
    from .expressions import ExpressionEvaluator
    from .interpreter import Interpreter
    from .patterns import Matcher
    from .writes import Writer

Row = dict[Any, Any]
"""A binding row: variable name → value. Aggregate results computed for a projection are
stored under the :class:`gqlir.ir.Aggregate` node itself (never a string, so never a name)."""


@dataclass(frozen=True, slots=True)
class Procedure:
    """A procedure the evaluator can CALL: named input and output columns and a body that maps
    argument values to output rows."""

    name: str
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]
    body: Callable[[Sequence[Any]], list[Sequence[Any]]]


@dataclass(slots=True)
class Runtime:
    graph: Graph
    parameters: dict[str, Any]
    capabilities: Capabilities
    procedures: Mapping[str, Procedure] = field(default_factory=dict)
    now: DateTime = field(default_factory=now_utc)
    zone: Zone = UTC
    rng: random.Random = field(default_factory=lambda: random.Random(0))
    read_only: bool = False  # inside START TRANSACTION READ ONLY
    savepoint: Graph | None = None  # the graph as START TRANSACTION found it
    expressions: ExpressionEvaluator = field(init=False)
    matcher: Matcher = field(init=False)
    writer: Writer = field(init=False)
    interpreter: Interpreter = field(init=False)

    def __post_init__(self) -> None:
        from .expressions import ExpressionEvaluator
        from .interpreter import Interpreter
        from .patterns import Matcher
        from .writes import Writer

        self.expressions = ExpressionEvaluator(self)
        self.matcher = Matcher(self)
        self.writer = Writer(self)
        self.interpreter = Interpreter(self)

    def eval(self, expr: Any, row: Row) -> Any:
        return self.expressions.eval(expr, row)

    def check_writable(self) -> None:
        if self.read_only:
            raise EvaluationError(
                "a read-only transaction cannot change the graph",
                category="TransactionError",
                detail="ReadOnlyTransaction",
            )

    def parameter(self, name: str) -> Any:
        if name not in self.parameters:
            raise EvaluationError(
                f"parameter ${name} was not given",
                category="ParameterMissing",
                detail="MissingParameter",
            )
        return self.parameters[name]


def unsupported(what: str) -> EvaluationError:
    """The error for a construct the reference evaluator does not model (never a silent skip)."""
    return EvaluationError(
        f"the reference evaluator does not model {what}", category="Unsupported", detail=what
    )
