"""Queries as pipelines of steps, and their composition.

A :class:`LinearQuery` is a sequence of steps; each step consumes the working table of the
previous one. Cypher ``WITH`` and GQL ``RETURN … NEXT`` are the same :class:`Projection`; the
last projection of a query is its RETURN. GQL's standalone ``ORDER BY``/``OFFSET``/``LIMIT`` is a
projection of ``*`` with that ordering. Dialect defaults that change meaning (null ordering, edge
uniqueness) are explicit fields, filled in by the builder of the source dialect.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from .expr import Expr
from .node import Node
from .pattern import MatchMode, PathPattern


class Step(Node):
    __slots__ = ()


# -- reading -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Match(Step):
    patterns: tuple[PathPattern, ...]
    where: Expr | None = None
    optional: bool = False
    mode: MatchMode = MatchMode.DIFFERENT_EDGES


@dataclass(frozen=True, slots=True)
class Unwind(Step):
    """Cypher ``UNWIND list AS v`` / GQL ``FOR v IN list [WITH ORDINALITY|OFFSET i]``.

    ``index`` binds the element's position, counted from ``index_base`` (ORDINALITY: 1,
    OFFSET: 0).
    """

    source: Expr
    variable: str
    index: str | None = None
    index_base: int = 0


@dataclass(frozen=True, slots=True)
class Binding(Node):
    variable: str
    value: Expr


@dataclass(frozen=True, slots=True)
class Let(Step):
    """Adds computed columns, keeping all others (GQL/Cypher 25 ``LET``)."""

    bindings: tuple[Binding, ...]


@dataclass(frozen=True, slots=True)
class Filter(Step):
    """Keeps the rows where ``condition`` is true (GQL ``FILTER``, Cypher ``WITH … WHERE``)."""

    condition: Expr


@dataclass(frozen=True, slots=True)
class ReturnItem(Node):
    expr: Expr
    alias: str | None = None


@dataclass(frozen=True, slots=True)
class SortItem(Node):
    """One ORDER BY key. ``nulls_first`` is always explicit: the builder fills in the source
    dialect's default, so the ordering means the same whatever dialect it is emitted to."""

    expr: Expr
    descending: bool = False
    nulls_first: bool = False


@dataclass(frozen=True, slots=True)
class Projection(Step):
    """WITH / RETURN / RETURN … NEXT.

    ``star`` keeps every variable in scope (``WITH *``). ``group_by`` None means implicit
    grouping (the non-aggregate items are the keys when any item aggregates); a tuple is an
    explicit GQL ``GROUP BY`` that differs from the implicit keys. ``order_by`` may refer to
    variables of the incoming scope when the projection neither aggregates nor is DISTINCT.

    ``where`` keeps the rows it holds for, after ORDER BY/SKIP/LIMIT, with ``order_by``'s scope:
    Cypher's ``WITH … WHERE`` may read a variable the WITH drops. (A condition on the projected
    columns alone is a :class:`Filter` step after the projection instead.)
    """

    items: tuple[ReturnItem, ...] = ()
    star: bool = False
    distinct: bool = False
    group_by: tuple[Expr, ...] | None = None
    order_by: tuple[SortItem, ...] = ()
    skip: Expr | None = None
    limit: Expr | None = None
    where: Expr | None = None


@dataclass(frozen=True, slots=True)
class Finish(Step):
    """Ends the query without returning rows."""


@dataclass(frozen=True, slots=True)
class UseGraph(Step):
    """``USE g`` (Cypher, GQL); Spanner's ``GRAPH g`` prefix."""

    graph: str


@dataclass(frozen=True, slots=True)
class CallSubquery(Step):
    """``CALL (x, y) { … }``. ``imports`` None means the whole incoming scope (``CALL (*)``)."""

    query: Query
    imports: tuple[str, ...] | None = ()
    optional: bool = False
    in_transactions: InTransactions | None = None


@dataclass(frozen=True, slots=True)
class InTransactions(Node):
    rows: Expr | None = None
    on_error: str | None = None  # CONTINUE | BREAK | FAIL
    report_status: str | None = None


@dataclass(frozen=True, slots=True)
class YieldItem(Node):
    field: str
    alias: str | None = None


@dataclass(frozen=True, slots=True)
class ProcedureCall(Step):
    """``CALL ns.proc(args) YIELD a AS b WHERE …``. ``args`` None: implicit arguments
    (standalone call without parentheses); ``yields`` None: no YIELD; ``yield_star``: YIELD *."""

    name: str
    args: tuple[Expr, ...] | None
    yields: tuple[YieldItem, ...] | None = None
    yield_star: bool = False
    where: Expr | None = None
    optional: bool = False


@dataclass(frozen=True, slots=True)
class LoadCsv(Step):
    source: Expr
    variable: str
    with_headers: bool = False
    field_terminator: str | None = None


# -- writing -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Create(Step):
    """Cypher CREATE, Neo4j INSERT and GQL INSERT."""

    patterns: tuple[PathPattern, ...]


@dataclass(frozen=True, slots=True)
class SetProperty(Node):
    subject: Expr
    key: str
    value: Expr


@dataclass(frozen=True, slots=True)
class SetDynamicProperty(Node):
    """``SET n[key] = value``."""

    subject: Expr
    key: Expr
    value: Expr


@dataclass(frozen=True, slots=True)
class SetProperties(Node):
    """``SET n = map`` (replace all) or ``SET n += map`` (merge)."""

    variable: str
    value: Expr
    merge: bool = False


@dataclass(frozen=True, slots=True)
class SetLabels(Node):
    variable: str
    labels: tuple[str, ...]


SetItem = SetProperty | SetDynamicProperty | SetProperties | SetLabels


@dataclass(frozen=True, slots=True)
class SetClause(Step):
    items: tuple[SetItem, ...]


@dataclass(frozen=True, slots=True)
class RemoveProperty(Node):
    subject: Expr
    key: str


@dataclass(frozen=True, slots=True)
class RemoveLabels(Node):
    variable: str
    labels: tuple[str, ...]


RemoveItem = RemoveProperty | RemoveLabels


@dataclass(frozen=True, slots=True)
class Remove(Step):
    items: tuple[RemoveItem, ...]


@dataclass(frozen=True, slots=True)
class Delete(Step):
    targets: tuple[Expr, ...]
    detach: bool = False


@dataclass(frozen=True, slots=True)
class MergeAction(Node):
    on_create: bool  # False: ON MATCH
    items: tuple[SetItem, ...]


@dataclass(frozen=True, slots=True)
class Merge(Step):
    pattern: PathPattern
    actions: tuple[MergeAction, ...] = ()


@dataclass(frozen=True, slots=True)
class Foreach(Step):
    variable: str
    source: Expr
    body: tuple[Step, ...]


# -- lowered forms (only a lowering pass builds them, for a printer; never read or evaluated) ----


@dataclass(frozen=True, slots=True)
class RefusedStep(Step):
    """``step``, which a lowering pass found the target cannot say with its meaning (``node``
    is the refused part of it): the printer refuses it (``construct``, ``message``,
    ``rewrite``) where it reaches the step, so a query's first refusal stays the first refused
    construct in writing order (as :class:`~gqlir.ir.expr.Untranslatable` for expressions)."""

    step: Step
    node: Node
    construct: str
    message: str = ""
    rewrite: str = ""


@dataclass(frozen=True, slots=True)
class ScopeNote(Step):
    """What a lowering knows of the variables in scope that the steps it wrote do not show:
    ``hidden`` are its helper variables, which no later step reads and a ``*`` leaves out;
    ``kinds`` the kinds (``node``, ``edge``) of variables it bound through an expression whose
    type is not followed. Written as nothing."""

    hidden: tuple[str, ...] = ()
    kinds: tuple[tuple[str, str], ...] = ()


# -- composition ---------------------------------------------------------------------------------


class Statement(Node):
    """Anything a dialect's text can hold: a query, or a schema / catalog command."""

    __slots__ = ()


class Query(Statement):
    __slots__ = ()


@dataclass(frozen=True, slots=True)
class LinearQuery(Query):
    steps: tuple[Step, ...]


class SetOp(enum.Enum):
    UNION = "UNION"
    EXCEPT = "EXCEPT"
    INTERSECT = "INTERSECT"
    OTHERWISE = "OTHERWISE"


@dataclass(frozen=True, slots=True)
class SetOperation(Query):
    op: SetOp
    left: Query
    right: Query
    all: bool = False


@dataclass(frozen=True, slots=True)
class ConditionalBranch(Node):
    condition: Expr
    query: Query


@dataclass(frozen=True, slots=True)
class ConditionalQuery(Query):
    """Cypher 25 ``WHEN c THEN q … ELSE q``: the first branch whose condition holds runs."""

    branches: tuple[ConditionalBranch, ...]
    otherwise: Query | None = None


#: The steps that change data (nodes, relationships, labels, properties): what a FOREACH body
#: holds, and what makes a query write.
UPDATING_STEPS = (Create, Merge, SetClause, Remove, Delete, Foreach)
