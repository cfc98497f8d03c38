"""Aggregates whose result on no values differs between languages, in the IR's terms.

The IR's aggregates mean Cypher's: ``sum`` of no values is 0, ``collect`` of none is ``[]``.
SQL, GQL and some Cypher engines (Kuzu) give null instead; their front ends read such an
aggregate as :func:`null_below`, and every front end reads the usual way of getting Cypher's
meaning back, ``coalesce(sum(x), 0)``, as the plain aggregate again (:func:`coalesced`).
"""

from __future__ import annotations

from .. import ir

#: What the IR's aggregate gives on no values, where the other languages give null.
_EMPTY_VALUE: dict[str, ir.Expr] = {
    "sum": ir.Integer(0),
    "collect": ir.ListLiteral(()),
    # Cypher's stDev() of fewer than two values and stDevP() of none are 0.0
    "stdev": ir.Float(0.0),
    "stdevp": ir.Float(0.0),
}
#: How many values the other languages' aggregate needs to be non-null.
_NEEDED: dict[str, int] = {"stdev": 2}


def null_below(agg: ir.Aggregate, n: int = 1) -> ir.Case:
    """``CASE WHEN count(x) < n THEN NULL ELSE agg(x) END``: an aggregate that is null when it
    has fewer than ``n`` non-null values (DISTINCT ones, if it is DISTINCT)."""
    pos = agg.pos
    count = ir.Aggregate("count", agg.args, agg.distinct, pos=pos)
    few = ir.Comparison(ir.CompOp.LT, count, ir.Integer(n, pos=pos), pos=pos)
    return ir.Case(None, (ir.CaseWhen(few, ir.Null(pos=pos), pos=pos),), agg, pos=pos)


def coalesced(call: ir.FunctionCall) -> ir.Expr:
    """``coalesce(<null_below(agg)>, <agg of no values>)`` is ``agg`` itself: on no values
    both give the empty value, otherwise both give the aggregate."""
    if call.name != "coalesce" or len(call.args) != 2:
        return call
    first, fallback = call.args
    if not isinstance(first, ir.Case) or not isinstance(first.default, ir.Aggregate):
        return call
    agg = first.default
    if _EMPTY_VALUE.get(agg.name) == fallback and first == null_below(
        agg, _NEEDED.get(agg.name, 1)
    ):
        return agg
    return call
