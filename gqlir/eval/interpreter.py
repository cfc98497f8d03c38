"""The interpreter of queries: each step turns the working table (columns and binding rows) into
the next one, a whole clause at a time, so that a clause sees everything the clause before it
wrote (Cypher's clause-by-clause semantics).

Projection carries the subtle parts: implicit grouping (the non-aggregate items are the keys),
explicit GROUP BY, DISTINCT by equivalence, ORDER BY that may read both the projected aliases
and the incoming variables, null placement taken from the IR (never a default of this
evaluator), and SKIP/LIMIT that must be non-negative integers.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from typing import Any

from .. import ir
from ..analysis.aggregates import aggregates, aggregates_in
from ..errors import EvaluationError
from .aggregates import aggregate
from .runtime import Row, Runtime, unsupported
from .values import equivalence_key, order_compare, truth, type_name

__all__ = ["Interpreter", "returns_rows"]

Table = tuple[list[str], list[Row]]
#: A step's handler: the step (of the class it is registered for), the working table in and out.
_StepHandler = Callable[[Any, list[str], list[Row]], Table]


class Interpreter:
    def __init__(self, rt: Runtime) -> None:
        self.rt = rt
        self._steps: dict[type[ir.Node], _StepHandler] = {
            ir.Match: self._match,
            ir.Unwind: self._unwind,
            ir.Let: self._let,
            ir.Filter: self._filter,
            ir.Projection: self._projection,
            ir.Finish: self._finish,
            ir.UseGraph: self._use_graph,
            ir.CallSubquery: self._call_subquery,
            ir.ProcedureCall: self._procedure_call,
            ir.Create: self._create,
            ir.Merge: self._merge,
            ir.SetClause: self._set,
            ir.Remove: self._remove,
            ir.Delete: self._delete,
            ir.Foreach: self._foreach,
        }

    # -- entry points ----------------------------------------------------------------------------

    def run(self, statement: ir.Statement) -> tuple[list[str], list[Row], bool]:
        """Columns, rows and whether the order of the rows is part of the result."""
        if not isinstance(statement, ir.Query):
            raise unsupported(f"the statement {type(statement).__name__}")
        columns, rows = self.query(statement, [], [{}])
        if not returns_rows(statement):
            return [], [], False
        return columns, [{c: r[c] for c in columns} for r in rows], is_ordered(statement)

    def query(self, q: ir.Query, columns: list[str], rows: list[Row]) -> Table:
        if isinstance(q, ir.LinearQuery):
            for step in q.steps:
                handler = self._steps.get(type(step))
                if handler is None:
                    raise unsupported(f"the step {type(step).__name__}")
                columns, rows = handler(step, columns, rows)
            return columns, rows
        if isinstance(q, ir.SetOperation):
            return self._set_operation(q, columns, rows)
        if isinstance(q, ir.ConditionalQuery):
            return self._conditional(q, columns, rows)
        raise unsupported(f"the query form {type(q).__name__}")

    def subquery_rows(self, q: ir.Query, row: Row) -> Table:
        """The rows a correlated subquery produces for one outer row."""
        seed = {k: v for k, v in row.items() if isinstance(k, str)}
        columns, rows = self.query(q, list(seed), [seed])
        if returns_rows(q):
            return columns, [{c: r[c] for c in columns} for r in rows]
        return columns, rows

    def subquery_has_rows(self, q: ir.Query, row: Row) -> bool:
        return bool(self.subquery_rows(q, row)[1])

    # -- reading steps ---------------------------------------------------------------------------

    def _match(self, step: ir.Match, columns: list[str], rows: list[Row]) -> Table:
        new = _new_variables(step.patterns, columns)
        out: list[Row] = []
        for row in rows:
            found = False
            for m in self.rt.matcher.match(step.patterns, step.mode, row, step.where):
                if (
                    step.where is not None
                    and truth(self.rt.eval(step.where, m), "WHERE") is not True
                ):
                    continue
                found = True
                out.append(m)
            if not found and step.optional:
                out.append({**row, **dict.fromkeys(new)})
        return columns + new, out

    def _unwind(self, step: ir.Unwind, columns: list[str], rows: list[Row]) -> Table:
        out: list[Row] = []
        for row in rows:
            value = self.rt.eval(step.source, row)
            if value is None:
                continue
            items = value if isinstance(value, list) else [value]
            for i, item in enumerate(items):
                r = {**row, step.variable: item}
                if step.index:
                    r[step.index] = i + step.index_base
                out.append(r)
        extra = [step.variable] + ([step.index] if step.index else [])
        return columns + [c for c in extra if c not in columns], out

    def _let(self, step: ir.Let, columns: list[str], rows: list[Row]) -> Table:
        out = []
        for row in rows:
            r = dict(row)
            for b in step.bindings:
                r[b.variable] = self.rt.eval(b.value, r)
            out.append(r)
        names = [b.variable for b in step.bindings]
        return [c for c in columns if c not in names] + names, out

    def _filter(self, step: ir.Filter, columns: list[str], rows: list[Row]) -> Table:
        keep = [r for r in rows if truth(self.rt.eval(step.condition, r), "WHERE") is True]
        return columns, keep

    def _finish(self, step: ir.Finish, columns: list[str], rows: list[Row]) -> Table:
        return [], []

    def _use_graph(self, step: ir.UseGraph, columns: list[str], rows: list[Row]) -> Table:
        return columns, rows  # the evaluator holds one graph: every USE selects it

    # -- projection ------------------------------------------------------------------------------

    def _projection(self, step: ir.Projection, columns: list[str], rows: list[Row]) -> Table:
        items = list(step.items)
        if step.star:
            named = {i.alias for i in items}
            items = [ir.ReturnItem(ir.Variable(c), c) for c in columns if c not in named] + items
        out_columns = [_alias(i) for i in items]
        grouping = step.group_by is not None or any(aggregates(i.expr) for i in items)
        if grouping:
            pairs = list(self._grouped(step, items, rows))
        else:
            pairs = []
            for row in rows:
                out = {_alias(i): self.rt.eval(i.expr, row) for i in items}
                pairs.append((out, {**row, **out}))
        if step.distinct:
            seen: set[Any] = set()
            unique = []
            for out, scope in pairs:
                key = tuple(equivalence_key(out[c]) for c in out_columns)
                if key not in seen:
                    seen.add(key)
                    unique.append((out, scope))
            pairs = unique
        if step.order_by:
            pairs = self._sorted(step.order_by, pairs, grouping)
        skip = self._count_argument(step.skip, "SKIP")
        limit = self._count_argument(step.limit, "LIMIT")
        if skip:
            pairs = pairs[skip:]
        if limit is not None:
            pairs = pairs[:limit]
        if step.where is not None:
            # WITH … WHERE: ORDER BY's scope (the incoming row too, unless grouped or DISTINCT).
            wide = not grouping and not step.distinct
            pairs = [
                (out, scope)
                for out, scope in pairs
                if truth(self.rt.eval(step.where, scope if wide else out), "WHERE") is True
            ]
        return out_columns, [out for out, _ in pairs]

    def _grouped(
        self, step: ir.Projection, items: list[ir.ReturnItem], rows: list[Row]
    ) -> Iterator[tuple[Row, Row]]:
        if step.group_by is not None:
            keys = list(step.group_by)
        else:
            keys = [i.expr for i in items if not aggregates(i.expr)]
        needed: dict[Any, None] = {}
        for i in items:
            needed.update(dict.fromkeys(aggregates_in(i.expr)))
        for s in step.order_by:
            needed.update(dict.fromkeys(aggregates_in(s.expr)))
        groups: dict[tuple[Any, ...], list[Row]] = {}
        for row in rows:
            key = tuple(equivalence_key(self.rt.eval(k, row)) for k in keys)
            groups.setdefault(key, []).append(row)
        if not groups and not keys:
            groups[()] = []  # aggregating nothing still gives one row: count(*) = 0
        for members in groups.values():
            base = members[0] if members else {}
            scope = dict(base)
            for agg in needed:
                scope[agg] = self._aggregate(agg, members, base)
            out = {_alias(i): self.rt.eval(i.expr, scope) for i in items}
            yield out, {**scope, **out}

    def _aggregate(self, agg: Any, members: list[Row], base: Row) -> Any:
        if isinstance(agg, ir.CountStar):
            return len(members)
        values = [self.rt.eval(agg.args[0], r) for r in members]
        extra = [self.rt.eval(a, base) for a in agg.args[1:]]
        return aggregate(agg.name, values, agg.distinct, extra)

    def _sorted(
        self, order: tuple[ir.SortItem, ...], pairs: list[tuple[Row, Row]], grouping: bool
    ) -> list[tuple[Row, Row]]:
        keyed = [
            ([self.rt.eval(s.expr, scope) for s in order], (out, scope)) for out, scope in pairs
        ]

        def cmp(a: tuple[list[Any], Any], b: tuple[list[Any], Any]) -> int:
            for s, x, y in zip(order, a[0], b[0]):
                if x is None or y is None:
                    if x is None and y is None:
                        continue
                    first = x is None
                    return (-1 if s.nulls_first else 1) if first else (1 if s.nulls_first else -1)
                c = order_compare(x, y)
                if c:
                    return -c if s.descending else c
            return 0

        keyed.sort(key=functools.cmp_to_key(cmp))
        return [pair for _, pair in keyed]

    def _count_argument(self, expr: ir.Expr | None, what: str) -> int | None:
        if expr is None:
            return None
        value = self.rt.eval(expr, {})
        if isinstance(value, bool) or not isinstance(value, int):
            raise EvaluationError(
                f"{what} needs a non-negative integer, not {type_name(value)}",
                category="SyntaxError",
                detail="InvalidArgumentType",
            )
        if value < 0:
            raise EvaluationError(
                f"{what} needs a non-negative integer, not {value}",
                category="SyntaxError",
                detail="NegativeIntegerArgument",
            )
        return value

    # -- calls -----------------------------------------------------------------------------------

    def _call_subquery(self, step: ir.CallSubquery, columns: list[str], rows: list[Row]) -> Table:
        out: list[Row] = []
        returned: list[str] = []
        returns = returns_rows(step.query)
        for row in rows:
            if step.imports is None:
                seed = {k: v for k, v in row.items() if isinstance(k, str)}
            else:
                seed = {k: row[k] for k in step.imports}
            inner_columns, inner_rows = self.query(step.query, list(seed), [seed])
            if not returns:
                out.append(row)
                continue
            returned = inner_columns
            for r in inner_rows:
                out.append({**row, **{c: r[c] for c in inner_columns}})
            if not inner_rows and step.optional:
                out.append({**row, **dict.fromkeys(inner_columns)})
        if returns and not returned:
            returned = _final_columns(step.query)
        return columns + [c for c in returned if c not in columns], out

    def _procedure_call(self, step: ir.ProcedureCall, columns: list[str], rows: list[Row]) -> Table:
        proc = self.rt.procedures.get(step.name)
        if proc is None:
            raise EvaluationError(
                f"there is no procedure {step.name}",
                category="ProcedureError",
                detail="ProcedureNotFound",
            )
        if step.yields is None or step.yield_star:
            fields = [(name, name) for name in proc.outputs]
        else:
            fields = [(y.field, y.alias or y.field) for y in step.yields]
            for f, _ in fields:
                if f not in proc.outputs:
                    raise EvaluationError(
                        f"{step.name} has no output {f}",
                        category="SyntaxError",
                        detail="UndefinedVariable",
                    )
        out: list[Row] = []
        for row in rows:
            if step.args is None:
                args = [self.rt.parameter(name) for name in proc.inputs]
            else:
                args = [self.rt.eval(a, row) for a in step.args]
            if len(args) != len(proc.inputs):
                raise EvaluationError(
                    f"{step.name} takes {len(proc.inputs)} argument(s), {len(args)} given",
                    category="SyntaxError",
                    detail="InvalidNumberOfArguments",
                )
            for result in proc.body(args):
                values = dict(zip(proc.outputs, result))
                r = {**row, **{alias: values[f] for f, alias in fields}}
                if (
                    step.where is not None
                    and truth(self.rt.eval(step.where, r), "WHERE") is not True
                ):
                    continue
                out.append(r)
        return columns + [alias for _, alias in fields if alias not in columns], out

    # -- writing steps ---------------------------------------------------------------------------

    def _create(self, step: ir.Create, columns: list[str], rows: list[Row]) -> Table:
        self.rt.check_writable()
        new = _new_variables(step.patterns, columns)
        return columns + new, [self.rt.writer.create(step.patterns, row) for row in rows]

    def _merge(self, step: ir.Merge, columns: list[str], rows: list[Row]) -> Table:
        self.rt.check_writable()
        new = _new_variables((step.pattern,), columns)
        out: list[Row] = []
        for row in rows:
            out.extend(self.rt.writer.merge(step, row))
        return columns + new, out

    def _set(self, step: ir.SetClause, columns: list[str], rows: list[Row]) -> Table:
        self.rt.check_writable()
        for row in rows:
            self.rt.writer.set_items(step.items, row)
        return columns, rows

    def _remove(self, step: ir.Remove, columns: list[str], rows: list[Row]) -> Table:
        self.rt.check_writable()
        for row in rows:
            self.rt.writer.remove_items(step.items, row)
        return columns, rows

    def _delete(self, step: ir.Delete, columns: list[str], rows: list[Row]) -> Table:
        self.rt.check_writable()
        self.rt.writer.delete(step, rows)
        return columns, rows

    def _foreach(self, step: ir.Foreach, columns: list[str], rows: list[Row]) -> Table:
        body = ir.LinearQuery(step.body)
        for row in rows:
            items = self.rt.eval(step.source, row)
            if items is None:
                continue
            if not isinstance(items, list):
                raise EvaluationError(
                    f"FOREACH needs a list, not {type_name(items)}",
                    category="TypeError",
                    detail="InvalidArgumentType",
                )
            for item in items:
                inner = {**row, step.variable: item}
                self.query(body, columns + [step.variable], [inner])
        return columns, rows

    # -- composition -----------------------------------------------------------------------------

    def _set_operation(self, q: ir.SetOperation, columns: list[str], rows: list[Row]) -> Table:
        left_columns, left = self.subquery_table(q.left, columns, rows)
        if q.op is ir.SetOp.OTHERWISE:
            if left:
                return left_columns, left
            return self.subquery_table(q.right, columns, rows)
        right_columns, right = self.subquery_table(q.right, columns, rows)
        if sorted(left_columns) != sorted(right_columns):
            raise EvaluationError(
                "every part of a UNION must return the same columns",
                category="SyntaxError",
                detail="DifferentColumnsInUnion",
            )

        def key(r: Row) -> tuple[Any, ...]:
            return tuple(equivalence_key(r[c]) for c in left_columns)

        if q.op is ir.SetOp.UNION:
            combined = left + right
            return left_columns, combined if q.all else _distinct(combined, key)
        right_keys: dict[Any, int] = {}
        for r in right:
            right_keys[key(r)] = right_keys.get(key(r), 0) + 1
        out = []
        for r in left:
            k = key(r)
            present = right_keys.get(k, 0) > 0
            if q.op is ir.SetOp.INTERSECT and present:
                out.append(r)
                if q.all:
                    right_keys[k] -= 1
            elif q.op is ir.SetOp.EXCEPT:
                if present and q.all:
                    right_keys[k] -= 1
                elif not present:
                    out.append(r)
        return left_columns, out if q.all else _distinct(out, key)

    def subquery_table(self, q: ir.Query, columns: list[str], rows: list[Row]) -> Table:
        cols, out = self.query(q, columns, rows)
        return cols, [{c: r[c] for c in cols} for r in out]

    def _conditional(self, q: ir.ConditionalQuery, columns: list[str], rows: list[Row]) -> Table:
        out: list[Row] = []
        result_columns: list[str] = []
        for row in rows:
            chosen = q.otherwise
            for branch in q.branches:
                if truth(self.rt.eval(branch.condition, row), "WHEN") is True:
                    chosen = branch.query
                    break
            if chosen is None:
                continue
            cols, got = self.subquery_table(chosen, columns, [row])
            result_columns = result_columns or cols
            out.extend(got)
        return result_columns, out


def returns_rows(q: ir.Query) -> bool:
    """Whether the query's result is its rows (it ends in RETURN or a standalone CALL)."""
    if isinstance(q, ir.LinearQuery):
        return bool(q.steps) and isinstance(q.steps[-1], (ir.Projection, ir.ProcedureCall))
    if isinstance(q, ir.SetOperation):
        return returns_rows(q.left)
    if isinstance(q, ir.ConditionalQuery):
        return any(returns_rows(b.query) for b in q.branches)
    return False


def is_ordered(q: ir.Query) -> bool:
    if isinstance(q, ir.LinearQuery) and q.steps and isinstance(q.steps[-1], ir.Projection):
        return bool(q.steps[-1].order_by)
    return False


def _final_columns(q: ir.Query) -> list[str]:
    if isinstance(q, ir.LinearQuery) and q.steps and isinstance(q.steps[-1], ir.Projection):
        return [_alias(i) for i in q.steps[-1].items]
    if isinstance(q, ir.SetOperation):
        return _final_columns(q.left)
    return []


def _alias(item: ir.ReturnItem) -> str:
    if item.alias is not None:
        return item.alias
    if isinstance(item.expr, ir.Variable):
        return item.expr.name
    raise EvaluationError(
        "a projected expression needs an alias", category="SyntaxError", detail="NoExpressionAlias"
    )


def _new_variables(patterns: tuple[ir.PathPattern, ...], columns: list[str]) -> list[str]:
    seen = set(columns)
    out = []
    for pp in patterns:
        for node in pp.walk():
            name = getattr(node, "variable", None)
            declares = isinstance(
                node, (ir.NodePattern, ir.RelPattern, ir.ParenPath, ir.PathPattern)
            )
            if declares and name and name not in seen:
                seen.add(name)
                out.append(name)
    return out


def _distinct(rows: list[Row], key: Any) -> list[Row]:
    seen: set[Any] = set()
    out = []
    for r in rows:
        k = key(r)
        if k not in seen:
            seen.add(k)
            out.append(r)
    return out
