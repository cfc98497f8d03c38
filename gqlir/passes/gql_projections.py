"""Cypher's projections (WITH / RETURN) as the RETURN statements a GQL target can write.

The IR's projection has Cypher's meaning (openCypher 9, "WITH" and "RETURN"): it groups
implicitly by its non-aggregate items, its ORDER BY may read a returned column or, when it
neither aggregates nor is DISTINCT, a variable the projection drops, ``WITH … WHERE`` may read a
variable the WITH drops, and ``*`` is every variable in scope. GQL's RETURN statement
(ISO/IEC 39075 14.10–14.11; opengql/grammar GQL.g4 ``returnStatementBody``) names its columns
and is chained to the next statement with ``NEXT``; the rules that differ are each written in a
module of their own, and applied here in one walk over the steps (each projection is replaced by
the steps that print it verbatim: ``Let``, ``Filter``, one or two ``Projection``\\ s with explicit
columns and ``group_by``):

* :mod:`.projection_where`: ``WITH … WHERE`` on a dropped variable as a projection that keeps
  it, ``FILTER``, and a projection that drops it;
* :mod:`.projection_grouping`: implicit grouping as an explicit ``GROUP BY`` (bound with ``LET``
  where the target groups only by variables; an explicit key that is not a variable refused
  there), an aggregate read by a list walk computed first;
* :mod:`.projection_elements`: graph elements in a top-level result as JSON or refused (Spanner);
* :mod:`.projection_sorting`: sort keys as column names or repeated values, and two stages
  (``RETURN … NEXT RETURN``) where a key must name a column whose name is not a variable;
* :mod:`.projection_pages`: a SKIP or LIMIT that is not a count or a parameter refused, and a
  standalone ORDER BY without SKIP or LIMIT where the target has none.

Other projections that only add columns (``WITH *, e AS x``) are ``LET``; one that only orders
or pages its rows stays a ``*`` projection with no items, which the printer writes as a
standalone ``ORDER BY`` / ``OFFSET`` / ``LIMIT`` statement. Every lowered projection lists its
columns (``*`` is expanded, in name order, before the passes that give unnamed elements a
name run, so such a name is never among the variables ``*`` lists). A refusal is left in the
IR, raised by the printer where the query writes it: a refused column as
:class:`~gqlir.ir.Untranslatable`, a refused projection as a one-column projection holding one.
A query without subqueries or aggregates whose projections are already in that form is
returned as it is, without following its scope.

Capabilities read: ``implicit_grouping``, ``group_by``, ``group_by_ordinals``,
``return_graph_elements``, ``element_json_function``, ``value_subquery``, ``quoted_variables``,
and the dialect's reserved words.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from ..analysis.aggregates import aggregates
from ..analysis.scope import (
    Deferred,
    call_results,
    column_scope,
    deferred_unwind_bindings,
    pattern_bindings,
    projection_columns,
)
from ..analysis.types import ANY
from ..dialect import Dialect
from ..errors import UnsupportedError
from ..ir import expr as e
from ..ir import query as q
from ..ir.analysis import SUBQUERIES
from ..ir.node import Node
from . import (
    projection_elements,
    projection_grouping,
    projection_pages,
    projection_sorting,
    projection_where,
)
from .fresh import FreshNames
from .scoped import ScopedRewrite

__all__ = ["JSON_MARK", "Columns", "GqlProjections", "lower_gql_projections"]

#: The function name of an element returned as JSON (the printer spells it with the dialect's
#: ``element_json_function``).
JSON_MARK = projection_elements.JSON_MARK

#: A projection's columns as (expression, name).
Columns = list[tuple[e.Expr, str]]

#: Node kinds that hold a query whose projections are lowered too.
NESTED = frozenset({*SUBQUERIES, q.CallSubquery})
_AGGREGATES = frozenset({e.Aggregate, e.CountStar})

_PLAIN = re.compile(r"[^\W\d]\w*")


def lower_gql_projections(
    root: Node,
    target: Dialect,
    properties: Mapping[tuple[str, str], str] | None = None,
    options: Mapping[str, Any] | None = None,
) -> Node:
    """``root`` with every projection written as the steps ``target`` prints verbatim.
    ``options``: the printer's (``spanner_elements``: ``"refuse"`` or ``"to_json"``)."""
    kinds = _summary_of()(root).kinds
    nested = not kinds.isdisjoint(NESTED)
    may_aggregate = not kinds.isdisjoint(_AGGREGATES)
    if not nested and not may_aggregate and _written_as_is(root, target):
        return root
    walk = GqlProjections(root, target, properties, nested=nested)
    walk.may_aggregate = may_aggregate
    walk.element_policy = (options or {}).get("spanner_elements", "refuse")
    return walk.run(root)


class GqlProjections(ScopedRewrite):
    """The walk: steps in order with the variables in scope (as the printer follows them)."""

    def __init__(
        self,
        root: Node,
        target: Dialect,
        properties: Mapping[tuple[str, str], str] | None = None,
        *,
        nested: bool = True,
    ) -> None:
        super().__init__(target, properties)
        self.fresh = FreshNames(root)
        self.reserved = target.reserved_words
        #: Whether the query holds subqueries (else expressions are not walked).
        self.nested = nested
        #: What a graph element in a top-level result becomes: refused, or JSON on request.
        self.element_policy = "refuse"
        #: Whether the query holds an aggregate at all (else no projection aggregates).
        self.may_aggregate = True

    # -- names ---------------------------------------------------------------------------------
    def regular(self, name: str) -> bool:
        """Whether ``name`` is a regular identifier that is not reserved (GQL.g4
        ``bindingVariable : REGULAR_IDENTIFIER``)."""
        return (
            _PLAIN.fullmatch(name) is not None
            and name.isidentifier()
            and name.upper() not in self.reserved
        )

    def usable_variable(self, name: str) -> bool:
        """Whether ``name`` can be written as a binding variable under its own name."""
        return self.regular(name) or self.caps.quoted_variables

    def unsupported(self, construct: str, node: Node | None, **kw: Any) -> UnsupportedError:
        return UnsupportedError(
            construct,
            self.dialect.name,
            kw.pop("message", None),
            offset=getattr(node, "pos", None),
            node=node,
            **kw,
        )

    # -- the walk ------------------------------------------------------------------------------
    def run(self, node: Node) -> Node:
        self.types.scope = {}
        self.depth = 0
        if isinstance(node, q.Query):
            return self._query(node)
        if isinstance(node, q.Projection):
            steps = self.lower(node, final=True, top=False)
            if len(steps) == 1:
                return steps[0]
            lone = self.unsupported(
                "projection on its own",
                node,
                message="this projection is written as several GQL statements",
                rewrite="write the query the projection belongs to",
            )
            return _refusal(node, lone)
        if isinstance(node, q.Step):
            return self.step(node)
        return self.expr(node) if isinstance(node, e.Expr) else node

    def _steps(self, steps: tuple[q.Step, ...]) -> tuple[q.Step, ...]:
        out: list[q.Step] = []
        changed = False
        last = len(steps) - 1
        for i, step in enumerate(steps):
            if type(step) is q.Projection:
                new = self.lower(step, final=i == last, top=self.depth == 0)
                changed = changed or len(new) != 1 or new[0] is not step
                out.extend(new)
            else:
                one = self.step(step)
                changed = changed or one is not step
                out.append(one)
        return tuple(out) if changed else steps

    def step(self, step: q.Step) -> q.Step:
        if self.nested:
            new = super().step(step)
            if isinstance(step, q.Create):
                self.types.scope = {**self.types.scope, **pattern_bindings(step.patterns)}
            return new
        self._bind(step)
        return step

    def _bind(self, step: q.Step) -> None:
        """What ``step`` binds, added to the scope (a query without subqueries: nothing in
        its expressions is rewritten)."""
        cls = type(step)
        if cls is q.Match or cls is q.Create:
            self.types.scope = {**self.types.scope, **pattern_bindings(step.patterns)}  # type: ignore[attr-defined]
        elif isinstance(step, q.Merge):
            self.types.scope = {**self.types.scope, **pattern_bindings((step.pattern,))}
        elif isinstance(step, q.Let):
            for binding in step.bindings:
                bound = Deferred(binding.value, self.types.scope)
                self.types.scope = {**self.types.scope, binding.variable: bound}  # type: ignore[dict-item]
        elif isinstance(step, q.Unwind):
            scope = self.types.scope
            self.types.scope = {**scope, **deferred_unwind_bindings(step, scope)}
        elif isinstance(step, q.ProcedureCall):
            self.types.scope = {
                **self.types.scope,
                **{y.alias or y.field: ANY for y in step.yields or ()},
            }
        elif isinstance(step, q.CallSubquery):
            imports = sorted(self.types.scope) if step.imports is None else list(step.imports)
            inner = {name: self.types.scope.get(name, ANY) for name in imports}
            self.types.scope = {**self.types.scope, **call_results(step.query, inner)}

    def expr(self, node: e.Expr) -> e.Expr:
        return super().expr(node) if self.nested else node

    # -- a projection --------------------------------------------------------------------------
    def lower(self, step: q.Projection, *, final: bool, top: bool) -> list[q.Step]:
        """``step`` as the steps that print it (the scope then holds what they bind)."""
        incoming = self.types.scope
        if self.nested:
            step = self.projection(step)  # (its subqueries; the scope is set again below)
            self.types.scope = incoming
        if self._written(step, final=final, top=top):
            return [step]
        try:
            out = self.projection_steps(step, final=final, top=top)
        except UnsupportedError as exc:
            self.types.scope = incoming
            return [_refusal(step, exc)]
        out = projection_pages.counted(out)
        out = projection_grouping.explicit_keys(out, self.caps.group_by)
        if len(out) == 1 and _same(step, out[0]):
            return [step]
        return out

    def _written(self, step: q.Projection, *, final: bool, top: bool) -> bool:
        """Whether ``step`` is printed as it is (most are: named columns, no ordering, no
        grouping to make explicit), in which case the scope is set to its columns. The rules
        below would each leave it unchanged; this spares building it again."""
        if (
            step.where is not None
            or step.star
            or step.distinct
            or step.order_by
            or step.group_by is not None
            or (top and final and not self.caps.return_graph_elements)
            or not projection_pages.counts(step)
        ):
            return False
        for item in step.items:
            if item.alias is None and type(item.expr) is not e.Variable:
                return False
        if not step.items:
            return False
        if self.may_aggregate and any(aggregates(i.expr) for i in step.items):
            return False
        incoming = self.types.scope
        columns: dict[str, Any] = {}
        for item in step.items:
            x = item.expr
            if type(x) is e.Variable:
                columns[item.alias or x.name] = incoming.get(x.name, ANY)
            else:
                columns[item.alias] = Deferred(x, incoming)  # type: ignore[index]
        self.types.scope = columns
        return True

    def projection_steps(self, step: q.Projection, *, final: bool, top: bool) -> list[q.Step]:
        """The rules, in the order they decide (a rule that splits the projection lowers each
        part again)."""
        if step.where is not None:
            return projection_where.lower(self, step, final=final, top=top)
        cols = self.columns(step)
        aggregating = self.may_aggregate and any(aggregates(x) for x, _ in cols)
        if aggregating:
            stages = projection_grouping.aggregate_first(self, step, cols)
            if stages is not None:
                first, second = stages
                out = self.projection_steps(first, final=False, top=top)
                return out + self.projection_steps(second, final=final, top=top)
        plain = not (step.distinct or aggregating or step.group_by is not None)
        if not final and step.star and plain:
            new = [(x, a) for x, a in cols if not (isinstance(x, e.Variable) and x.name == a)]
            pages = bool(step.order_by) or step.skip is not None or step.limit is not None
            if not new:
                # ordering and paging only: a standalone statement (nothing at all without them)
                if not pages:
                    return []
                refused = projection_pages.standalone(self, step)
                if refused is not None:
                    return [refused]
                order = projection_sorting.orderable(self, step.order_by)
                return [q.Projection((), star=True, **_pages(replace(step, order_by=order)))]
            if not pages:
                return self.let(tuple(q.Binding(a, x) for x, a in new), step.pos)
        if top and final and not self.caps.return_graph_elements:
            lowered, cols = projection_elements.lower(self, step, cols, aggregating, top=top)
            if lowered is not None:
                return lowered
        if final and step.order_by and not step.distinct:
            step = projection_sorting.sort_by_values(self, step, cols, aggregating)
        if projection_sorting.needs_two_stages(self, step, cols, aggregating=aggregating):
            return projection_sorting.two_stages(self, step, cols)
        return self.single_stage(step, cols, aggregating=aggregating)

    def columns(self, step: q.Projection) -> Columns:
        """The projected columns as (expression, name); ``*`` is the variables in scope."""
        for item in step.items:
            if item.alias is None and not isinstance(item.expr, e.Variable):
                raise self.unsupported("unnamed return item", item, rewrite="name the item with AS")
        if step.star and not self.types.scope and not step.items:
            raise self.unsupported("RETURN * without variables", step)
        cols = projection_columns(step, self.types.scope)
        if not cols:
            raise self.unsupported("empty projection", step)
        return cols

    def single_stage(
        self, step: q.Projection, cols: Columns, *, aggregating: bool, rewrite_keys: bool = True
    ) -> list[q.Step]:
        """One RETURN: implicit grouping made explicit, sort keys that repeat a column written
        as its name, and copies of renamed variables the sort keys read."""
        out: list[q.Step] = []
        group_by = step.group_by
        if group_by is None and aggregating and not self.caps.implicit_grouping:
            cols, lets, group_by = projection_grouping.implicit_group_by(self, step, cols)
            if lets:
                out.extend(self.let(lets, step.pos))
        order = step.order_by
        if order:
            keys = [
                replace(s, expr=projection_sorting.sort_key(self, s.expr, cols))
                if rewrite_keys
                else s
                for s in order
            ]
            grouped = group_by is not None and (group_by or self.caps.group_by == "variables")
            if not (step.distinct or aggregating or grouped):
                keys, copies = projection_sorting.unrenamed_sort_keys(self, keys, cols)
                if copies:
                    out.extend(self.let(copies, step.pos))
            order = projection_sorting.orderable(self, tuple(keys))
        out.append(
            q.Projection(
                tuple(q.ReturnItem(x, a) for x, a in cols),
                distinct=step.distinct,
                group_by=group_by,
                order_by=order,
                skip=step.skip,
                limit=step.limit,
                pos=step.pos,
            )
        )
        incoming = self.types.scope
        self.types.scope = column_scope(cols, incoming)  # type: ignore[assignment]
        return out

    def let(self, bindings: tuple[q.Binding, ...], pos: int | None) -> list[q.Step]:
        """``LET`` of ``bindings``, each added to the scope in turn."""
        for binding in bindings:
            bound = Deferred(binding.value, self.types.scope)
            self.types.scope = {**self.types.scope, binding.variable: bound}  # type: ignore[dict-item]
        return [q.Let(bindings, pos=pos)]


#: What the lowering adds to a query: steps, a refusal, a JSON mark (and leaves).
_ADDED = frozenset({q.Let, q.Binding, q.Filter, q.Projection, q.ReturnItem, q.SortItem})
_ADDED |= {e.Untranslatable, e.FunctionCall}


def summarized(summary: Any) -> Any:
    """The pipeline summary of a query this pass lowered, from the summary of its input: the
    pass moves and copies expressions, and adds only the kinds in ``_ADDED``."""
    return replace(
        summary,
        kinds=summary.kinds | _ADDED,
        functions=summary.functions | {JSON_MARK},
    )


def _summary_of() -> Any:
    """:func:`gqlir.passes.pipeline.summary_of` (imported on first use: the pipeline imports
    this module)."""
    global _SUMMARY_OF
    if _SUMMARY_OF is None:
        from .pipeline import summary_of

        _SUMMARY_OF = summary_of
    return _SUMMARY_OF


_SUMMARY_OF: Any = None


def _written_as_is(root: Node, target: Dialect) -> bool:
    """Whether every projection of ``root`` (a query without subqueries or aggregates) is
    printed as it is, without following the scope: named columns, no ``*``, DISTINCT,
    ordering or WHERE, and no graph element to keep out of a top-level result."""
    if isinstance(root, q.SetOperation):
        return _written_as_is(root.left, target) and _written_as_is(root.right, target)
    if not isinstance(root, q.LinearQuery):
        return False
    guard = not target.capabilities.return_graph_elements
    steps = root.steps
    for step in steps:
        if type(step) is not q.Projection:
            continue
        if (
            step.star
            or step.distinct
            or step.order_by
            or step.where is not None
            or step.group_by is not None
            or not step.items
            or not projection_pages.counts(step)
        ):
            return False
        for item in step.items:
            if item.alias is None and type(item.expr) is not e.Variable:
                return False
        if (
            guard
            and step is steps[-1]
            and not all(type(item.expr) in _NO_ELEMENT for item in step.items)
        ):
            return False
    return True


#: Expressions whose value the type analysis never takes for a graph element (a property, a
#: literal, a truth value, a negated number), whatever their operands.
_NO_ELEMENT = frozenset(
    {e.Property, e.Integer, e.Float, e.String, e.Boolean, e.Null, e.Comparison}
    | {e.And, e.Or, e.Not, e.IsNull, e.StringMatch, e.Negate}
)


def _pages(step: q.Projection) -> dict[str, Any]:
    return {"order_by": step.order_by, "skip": step.skip, "limit": step.limit, "pos": step.pos}


def _same(old: q.Projection, new: q.Step) -> bool:
    """Whether ``new`` is ``old`` written out (same columns, keys and pages): the walk then
    keeps ``old``, so that a query with nothing to rewrite comes back unchanged."""
    if type(new) is not q.Projection or old.star or new.star or old.where is not None:
        return False
    if len(old.items) != len(new.items) or old.distinct != new.distinct:
        return False
    for a, b in zip(old.items, new.items):
        name = a.alias if a.alias is not None else getattr(a.expr, "name", None)
        if a.expr is not b.expr or name != b.alias:
            return False
    if old.group_by is not new.group_by or old.skip is not new.skip or old.limit is not new.limit:
        return False
    if len(old.order_by) != len(new.order_by):
        return False
    return all(a is b or a.expr is b.expr for a, b in zip(old.order_by, new.order_by))


def _refusal(step: q.Projection, exc: UnsupportedError) -> q.Projection:
    """A projection whose one column raises ``exc`` when the printer writes it."""
    node = exc.node if isinstance(exc.node, e.Expr) else e.Null()
    message = exc.message
    suffix = f" (rewrite: {exc.rewrite})" if exc.rewrite else ""
    if suffix and message.endswith(suffix):
        message = message[: -len(suffix)]
    refused = e.Untranslatable(node, exc.construct, message, exc.rewrite or "", pos=exc.offset)
    return q.Projection((q.ReturnItem(refused, "_"),), pos=step.pos)
