"""CASE on a target that casts every result of a CASE to one type.

Kuzu types an expression when it binds it, and a CASE's results are cast to one type:
``CASE WHEN c THEN a.s ELSE 0 END`` gives ``'0'``, ``CASE WHEN false THEN 1 ELSE 1.5 END``
gives 2 (dialects/kuzu.toml, ``case_unifies_result_types``: observed with 0.11.3; Kuzu's
difference.md, "Data Types"). Cypher's CASE returns each result as it is. A CASE keeps its
meaning there when at most one of its results is not null, or when every result has one kind
its form tells (a literal, a count, a string function …); any other is refused in place
(:class:`~gqlir.ir.expr.Untranslatable`), for the printer to raise where it writes the CASE.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..dialect import Dialect
from ..ir import expr as e
from ..ir.analysis import BOOLEAN_VALUED
from ..ir.node import Node
from .outermost import refuse_outermost

__all__ = ["applies", "lower_case_results"]

_REWRITE = "make every result one type, e.g. with toString() or CAST"


def applies(target: Dialect) -> bool:
    return target.capabilities.case_unifies_result_types


def lower_case_results(root: Node, target: Dialect) -> Node:
    """Every CASE of ``root`` whose results may be of different types, refused."""
    message = (
        f"{target.name} casts every result of a CASE to one type (0 becomes '0', 1.5 becomes "
        "2); here the results are not all known to have one type"
    )

    def refuse(case: e.Case) -> e.Expr:
        if not case.whens or _results_agree(case):  # (no WHEN: the printer refuses it)
            return case
        construct = "CASE with results of different types"
        return e.Untranslatable(case, construct, message, _REWRITE, pos=case.pos)

    return refuse_outermost(root, e.Case, refuse)


#: The value kind of expressions whose kind does not depend on their operands.
_KIND_OF_NODE: dict[type, str] = {
    e.Integer: "INTEGER",
    e.Float: "FLOAT",
    e.String: "STRING",
    e.Boolean: "BOOLEAN",
    e.MapLiteral: "MAP",
    e.CountStar: "INTEGER",
    **dict.fromkeys(BOOLEAN_VALUED, "BOOLEAN"),
}
_KIND_OF_FUNCTION = {
    **dict.fromkeys(("tostring", "upper", "lower", "trim", "ltrim", "rtrim", "left"), "STRING"),
    **dict.fromkeys(("size", "length"), "INTEGER"),
}


def _results_agree(node: e.Case) -> bool:
    """Whether a CASE has at most one result that is not null (counting equal results once),
    or results of one known kind (so no result is cast to another's type)."""
    default = node.default
    results = [w.result for w in node.whens if not isinstance(w.result, e.Null)]
    if default is not None and not isinstance(default, e.Null):
        results.append(default)
    if len(results) <= 1:
        return True
    kinds = {_result_kind(x) for x in results}
    if len(kinds) == 1 and None not in kinds:
        return True
    first = results[0]
    return all(x == first for x in results[1:])


def _result_kind(node: e.Expr | None) -> str | None:
    """The value kind of ``node`` where its form tells it, else None."""
    if isinstance(node, e.TemporalLiteral):
        return node.kind.name
    if isinstance(node, e.Case):
        kinds = {_result_kind(x) for x in (*(w.result for w in node.whens), node.default)}
        kinds.discard("NULL")
        return kinds.pop() if len(kinds) == 1 else None
    if isinstance(node, e.FunctionCall):
        return _KIND_OF_FUNCTION.get(node.name)
    if isinstance(node, e.Aggregate) and node.name == "count":
        return "INTEGER"
    if node is None or isinstance(node, e.Null):
        return "NULL"
    return _KIND_OF_NODE.get(type(node))


def summarized(summary: Any) -> Any:
    """The pipeline summary of the pass's output from its input's: the refused CASE is kept inside
    the Untranslatable."""
    return replace(summary, kinds=summary.kinds | {e.Untranslatable})
