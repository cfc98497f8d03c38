"""INTERSECT and EXCEPT written with UNION ALL and grouping, for dialects that have only UNION.

``L INTERSECT R`` keeps the rows of L that R also returns. Tag every row with the branch it
came from, put both branches together with UNION ALL, group by the row and count the tags:

    CALL { L' RETURN c, 1 AS inL, 0 AS inR UNION ALL R' RETURN c, 0 AS inL, 1 AS inR }
    WITH c, sum(inL) AS inL, sum(inR) AS inR WHERE inL > 0 AND inR > 0
    RETURN c

Grouping, not ``=``, decides which rows are the same, so two nulls are one row, as in SQL's
set operators (``[null] IN [[null]]`` would be null). EXCEPT keeps ``inL > 0 AND inR = 0``;
the ALL forms repeat each row min(inL, inR) or inL − inR times. The branches' columns are
matched by name, as the IR's set operations (and Cypher's and GQL's) match them.
"""

from __future__ import annotations

from .. import ir
from ..dialect import Dialect

__all__ = ["lower_set_operations", "set_operation_by_counting"]


def lower_set_operations(root: ir.Node, target: Dialect) -> ir.Node:
    """``root`` with every INTERSECT and EXCEPT written by counting, for a target whose only
    set operation is UNION (capability ``except_intersect``); one whose branches cannot be
    counted is left for the printer to refuse."""
    if target.capabilities.except_intersect or not any(
        isinstance(n, ir.SetOperation) and n.op in (ir.SetOp.INTERSECT, ir.SetOp.EXCEPT)
        for n in root.walk()
    ):
        return root

    def visit(node: ir.Node) -> ir.Node:
        if isinstance(node, ir.SetOperation):
            counted = set_operation_by_counting(node)
            if counted is not None:
                return counted
        return node

    return root.transform(visit)


def set_operation_by_counting(op: ir.SetOperation) -> ir.LinearQuery | None:
    """``op`` (INTERSECT or EXCEPT, either form) as a linear query with one UNION ALL subquery,
    or None when a branch does not end in a plain projection whose columns can be named."""
    if op.op not in (ir.SetOp.INTERSECT, ir.SetOp.EXCEPT):
        return None
    left: ir.Query | None = op.left
    if isinstance(left, ir.SetOperation):
        left = set_operation_by_counting(left)
    right = op.right
    if not isinstance(left, ir.LinearQuery) or not isinstance(right, ir.LinearQuery):
        return None
    left_end, right_end = _final_projection(left), _final_projection(right)
    if left_end is None or right_end is None or len(left_end.items) != len(right_end.items):
        return None
    names = [item.alias for item in left_end.items]
    if any(name is None for name in names) or len(set(names)) != len(names):
        return None
    columns: list[str] = [name for name in names if name is not None]
    in_left, in_right = _fresh("in_left", columns), _fresh("in_right", columns)

    # Branches match their columns by name (the IR's set operations do, as Cypher and GQL do).
    if {item.alias for item in right_end.items} != set(columns):
        return None

    def tagged(query: ir.LinearQuery, end: ir.Projection, tags: tuple[int, int]) -> ir.Query:
        by_name = {item.alias: item.expr for item in end.items}
        items = tuple(ir.ReturnItem(by_name[name], name) for name in columns)
        items += (
            ir.ReturnItem(ir.Integer(tags[0]), in_left),
            ir.ReturnItem(ir.Integer(tags[1]), in_right),
        )
        return ir.LinearQuery((*query.steps[:-1], _with_items(end, items)))

    both = ir.SetOperation(
        ir.SetOp.UNION, tagged(left, left_end, (1, 0)), tagged(right, right_end, (0, 1)), all=True
    )
    keys = tuple(ir.ReturnItem(ir.Variable(name), name) for name in columns)
    counts = ir.Projection(
        keys
        + (
            ir.ReturnItem(ir.Aggregate("sum", (ir.Variable(in_left),)), in_left),
            ir.ReturnItem(ir.Aggregate("sum", (ir.Variable(in_right),)), in_right),
        )
    )
    steps: list[ir.Step] = [ir.CallSubquery(both, imports=()), counts]
    a, b = ir.Variable(in_left), ir.Variable(in_right)
    if not op.all:
        zero = ir.Integer(0)
        right_test = ir.CompOp.GT if op.op is ir.SetOp.INTERSECT else ir.CompOp.EQ
        steps.append(
            ir.Filter(
                ir.And(ir.Comparison(ir.CompOp.GT, a, zero), ir.Comparison(right_test, b, zero))
            )
        )
    else:
        if op.op is ir.SetOp.INTERSECT:
            copies: ir.Expr = ir.Case(None, (ir.CaseWhen(ir.Comparison(ir.CompOp.LT, a, b), a),), b)
        else:
            copies = ir.Arithmetic(ir.ArithOp.SUB, a, b)
        copy = _fresh("copy", columns)
        steps.append(ir.Unwind(ir.FunctionCall("range", (ir.Integer(1), copies)), copy))
    steps.append(ir.Projection(keys))
    return ir.LinearQuery(tuple(steps))


def _final_projection(query: ir.LinearQuery) -> ir.Projection | None:
    """The projection that ends ``query``; not one that sorts or cuts its rows, whose keys
    may name the columns being renamed (and whose order a set operation drops anyway)."""
    end = query.steps[-1] if query.steps else None
    if not isinstance(end, ir.Projection) or end.star:
        return None
    if end.order_by or end.skip is not None or end.limit is not None:
        return None
    return end


def _with_items(end: ir.Projection, items: tuple[ir.ReturnItem, ...]) -> ir.Projection:
    """``end`` returning ``items``; DISTINCT over constant extra columns keeps the same rows."""
    from dataclasses import replace

    return replace(end, items=items)


def _fresh(stem: str, taken: list[str]) -> str:
    name, n = stem, 0
    while name in taken:
        n += 1
        name = f"{stem}{n}"
    return name
