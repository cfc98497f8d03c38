"""A function (or a temporal value's constructor) the GQL target has no built-in for is refused.

ISO GQL has no user-defined function calls: each of its functions is a production of its own
keyword among the value expressions (opengql/grammar GQL.g4 20.x: the numeric, string,
datetime, list and aggregate functions), so a call is written only with a built-in of the same
meaning, which the dialect file lists (``[functions]``, canonical name → spelling) unless its
``unsupported_functions`` names it (a built-in whose meaning differs, e.g. GoogleSQL's
temporal functions: :func:`.googlesql_temporal.why_refused` says why). What no earlier pass
wrote otherwise is refused in place as :class:`~gqlir.ir.expr.Untranslatable`, which the
printer raises where the query writes it:

* a call (``function f()``), the calls the passes mark (:mod:`gqlir.ir.marks`) excepted;
* an aggregate (``function f()``; the marked SQL forms by the aggregate they write);
* a temporal value written with its kind's constructor (``date value``) where the target
  has no such constructor; a ``DATE '…'`` or GoogleSQL ``TIMESTAMP '…'`` literal needs none
  (:func:`literal_form`).

The pass runs after the other GQL passes, whose forms may call a built-in too, and only where
the query's summary names a function, an aggregate or a temporal kind the target lacks. It runs
before gql-forms where no schema is given: gql-forms then builds only calls every GQL target
spells (``size``, ``coalesce``, ``char_length``, ``left``/``right`` where there is no
``STARTS_WITH``, and the marked calls) and rewrites none; under a schema it runs after, as
gql-forms writes ``type()`` and ``labels()`` of a schema's elements as label tests.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ..dialect import Dialect
from ..ir import expr as e
from ..ir import marks
from ..ir import pattern as p
from ..ir import query as q
from ..ir.node import Node, child_fields, rebuilt
from .googlesql_temporal import why_refused
from .scoped import UNLOWERED, refusal_stops

if TYPE_CHECKING:
    from .pipeline import Summary

__all__ = [
    "aggregate_function",
    "literal_form",
    "lower_function_support",
    "lower_under_schema",
    "needed",
    "needed_without_schema",
]

_ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
#: The canonical timestamp literal of GoogleSQL (lexical.md, Timestamp literals), as the
#: Spanner reader keeps it: YYYY-[M]M-[D]D[T[H]H:[M]M:[S]S[.F]][zone], a zone name in brackets
_GOOGLESQL_TIMESTAMP = re.compile(
    r"[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}"
    r"(?:T[0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}(?:\.[0-9]{1,9})?)?"
    r"(?:[zZ]|[+-][0-9]{1,2}(?::[0-9]{2})?|\[[A-Za-z_]+(?:/[A-Za-z0-9_+-]+)*\])?"
)


def literal_form(node: e.TemporalLiteral, caps: Any) -> str | None:
    """``"DATE"`` or ``"TIMESTAMP"`` where the target writes ``node`` as a typed literal (a
    date in ISO form where it has typed literals; a GoogleSQL timestamp literal), else None:
    it is written with its kind's constructor."""
    if (
        node.kind is e.TemporalKind.DATE
        and caps.temporal_literals == "typed"
        and _ISO_DATE.fullmatch(node.text)
    ):
        return "DATE"
    if (
        node.timestamp
        and node.kind is e.TemporalKind.DATETIME
        and caps.googlesql_expressions
        and _GOOGLESQL_TIMESTAMP.fullmatch(node.text)
    ):
        return "TIMESTAMP"
    return None


def aggregate_function(name: str) -> str:
    """The canonical function an aggregate (a marked one included) is spelled with."""
    if name == marks.SUM:
        return "sum"
    if name.startswith(marks.STDEV):
        return name[len(marks.STDEV) :]
    if name in (marks.COLLECT, marks.COLLECT_ALL):
        return "collect"
    return name


def needed(summary: Summary, target: Dialect, typed: bool) -> bool:
    """Whether the query names a function, an aggregate or a temporal kind ``target`` lacks."""
    written, aggregates, temporal = _written(target)
    return not (
        summary.functions <= written
        and summary.aggregates <= aggregates
        and (temporal or e.TemporalLiteral not in summary.kinds)
    )


def needed_without_schema(summary: Summary, target: Dialect, typed: bool) -> bool:
    """:func:`needed` where no schema is given (the pass's place before gql-forms)."""
    return not typed and needed(summary, target, typed)


def lower_function_support(root: Node, target: Dialect) -> Node:
    """``root`` with each call, aggregate and constructed temporal value ``target`` has no
    built-in for refused in place (the outermost one of nested refusals)."""
    written = _written(target)[0]
    caps = target.capabilities

    def refusal(node: Any) -> e.Expr | None:
        cls = type(node)
        if cls is e.FunctionCall:
            name = node.name
            if name in written:
                return None
            return _refused(node, name, target)
        if cls is e.Aggregate:
            name = aggregate_function(node.name)
            return None if name in written else _refused(node, name, target)
        if cls is e.TemporalLiteral:
            canonical = node.kind.value
            if canonical in written or literal_form(node, caps) is not None:
                return None
            why = why_refused(canonical) if caps.googlesql_expressions else None
            message = f"{target.name} has no {canonical} value with Cypher's meaning" + (
                f": {why}" if why else ""
            )
            return e.Untranslatable(node, f"{canonical} value", message, pos=node.pos)
        return None

    stops = refusal_stops()
    if stops is None or type(root) is not q.LinearQuery:
        return _top_down(root, refusal)
    # While the printer lowers a query: the steps after the first one holding a refusal are
    # never written (the printer raises it, or an earlier one, first), so they are left
    # unlowered as the scoped walks leave them (scoped.stopping_at_refusals).
    steps = root.steps
    for i, step in enumerate(steps):
        new = _top_down(step, refusal)
        if new is step:
            continue
        rest = tuple(
            x if type(x) is q.RefusedStep else q.RefusedStep(x, x, UNLOWERED)
            for x in steps[i + 1 :]
        )
        if rest:
            stops.append("function-support")
        return rebuilt(root, steps=(*steps[:i], new, *rest))
    return root


def lower_under_schema(
    root: Node, target: Dialect, properties: Any = None, schema: Any = None
) -> Node:
    """:func:`lower_function_support` where a schema is given (the pass's place after
    gql-forms; without a schema it ran before, and this costs nothing)."""
    if not properties and schema is None:
        return root
    from .pipeline import summary_of

    if not needed(summary_of(root), target, True):
        return root
    return lower_function_support(root, target)


def _refused(node: e.Expr, name: str, target: Dialect) -> e.Expr:
    """``function name()`` refused, with the reason where the target has a built-in of
    another meaning."""
    caps = target.capabilities
    if name in caps.unsupported_functions:
        why = why_refused(name) if caps.googlesql_expressions else None
        message = f"{name}() has no {target.name} spelling: {why}" if why else ""
    else:
        message = f"{name}() has no built-in counterpart in {target.name}"
    return e.Untranslatable(node, f"function {name}()", message, pos=node.pos)


def _top_down(node: Any, refusal: Any) -> Any:
    """``node`` with each node ``refusal`` refuses replaced, without looking inside it (so the
    refused node is the query's own, which :mod:`gqlir.refusals` finds again), nor inside a
    refusal an earlier pass left (the printer writes nothing inside one). What holds no call
    by its class (or, for a property, its subject's) is not entered."""
    cls = type(node)
    skip, prop = _SKIP, e.Property
    if cls is tuple:
        out: list[Any] | None = None
        for i, item in enumerate(node):
            kind = type(item)
            if kind in skip or (kind is prop and type(item.subject) in skip):
                new = item
            else:
                new = _top_down(item, refusal)
            if out is not None:
                out.append(new)
            elif new is not item:
                out = [*node[:i], new]
        return node if out is None else tuple(out)
    if cls in _CHECKED:
        found = refusal(node)
        if found is not None:
            return found
    elif cls in skip or not isinstance(node, Node):
        return node
    changes: dict[str, Any] | None = None
    fields = _FIELDS.get(cls)
    if fields is None:
        fields = _FIELDS[cls] = child_fields(cls)
    for name in fields:
        value = getattr(node, name)
        kind = type(value)
        if kind in skip or (kind is prop and type(value.subject) in skip):
            continue
        new = _top_down(value, refusal)
        if new is not value:
            if changes is None:
                changes = {}
            changes[name] = new
    return rebuilt(node, **changes) if changes else node


#: What holds no call: scalars, enumerations, the IR's leaves, label expressions,
#: quantifiers, type names, and refusals.
_SKIP = frozenset(
    {str, int, float, bool, type(None), e.Null, e.Boolean, e.Integer, e.Float, e.String}
    | {e.Variable, e.Parameter, e.CountStar, e.Untranslatable, q.RefusedStep, e.TypeRef}
    | {p.Label, p.LabelAnd, p.LabelOr, p.LabelNot, p.LabelAny, p.Quantifier, p.Search}
    | {e.ArithOp, e.CompOp, e.TruthValue, e.StringOp, e.ListQuantifier, e.MapItemKind}
    | {p.Direction, p.PathMode, p.SearchKind, p.MatchMode, q.SetOp}
)
#: What the pass may refuse.
_CHECKED = frozenset({e.FunctionCall, e.Aggregate, e.TemporalLiteral})
_FIELDS: dict[type, tuple[str, ...]] = {}
#: The temporal kinds' constructors (canonical names).
_TEMPORAL = frozenset(kind.value for kind in e.TemporalKind)
#: dialect -> the names it writes (its built-ins, the marked calls), the aggregates it writes,
#: whether it has every temporal constructor
_WRITTEN: dict[Dialect, tuple[frozenset[str], frozenset[str], bool]] = {}


def _written(target: Dialect) -> tuple[frozenset[str], frozenset[str], bool]:
    found = _WRITTEN.get(target)
    if found is None:
        if len(_WRITTEN) > 64:  # dialects built by hand, not loaded once
            _WRITTEN.clear()
        spelled = frozenset(target.functions) - frozenset(target.capabilities.unsupported_functions)
        names = spelled | marks.CALLS
        marked = {marks.STDEV + name for name in spelled}
        marked |= {
            m
            for m in (marks.SUM, marks.COLLECT, marks.COLLECT_ALL)
            if aggregate_function(m) in spelled
        }
        found = _WRITTEN[target] = (names, spelled | marked, names >= _TEMPORAL)
    return found
