"""Cypher's temporal constructors as GQL writes them.

* ``date.statement()`` (and ``datetime``, ``localdatetime``, ``time``, ``localtime``) reads
  the statement clock, which is the clock the constructor without arguments reads (Neo4j
  Cypher manual, temporal functions: "date() … if no parameters are supplied, the current date
  is returned" with "the default clock is statement"), so it is ``date()``.
* ``date()`` and ``datetime()`` of the current instant, where the target has no constructor of
  that name, are GQL's niladic value functions ``CURRENT_DATE`` / ``CURRENT_TIMESTAMP`` (GQL.g4
  20.27 ``dateFunction : CURRENT_DATE | …``, ``datetimeFunction : CURRENT_TIMESTAMP | …``),
  which the GQL readers read as ``date()`` / ``datetime()``; the pass writes them as the marked
  calls :data:`gqlir.ir.marks.CURRENT_DATE` / :data:`~gqlir.ir.marks.CURRENT_TIMESTAMP`.
* A constructor the target has takes a string literal or a record constructor (GQL.g4
  ``dateFunctionParameters : dateString | recordConstructor``, likewise for the others), so one
  of more than one argument, or of a computed value, is refused in place
  (:class:`~gqlir.ir.expr.Untranslatable`). A constructor the target lacks is the printer's
  refusal of the function.
"""

from __future__ import annotations

from ..analysis.types import TEMPORAL
from ..dialect import Dialect
from ..ir import expr as e
from ..ir import marks
from ..ir.node import Node, rewrite_each

__all__ = ["NAMES", "lower_temporal_calls"]

#: The temporal constructors (Cypher's names).
CONSTRUCTORS = frozenset({"date", "datetime", "localdatetime", "time", "localtime", "duration"})
_STATEMENT = {f"{name}.statement": name for name in TEMPORAL}
#: The functions this pass may rewrite.
NAMES = CONSTRUCTORS | frozenset(_STATEMENT)
_CURRENT = {"date": marks.CURRENT_DATE, "datetime": marks.CURRENT_TIMESTAMP}


def lower_temporal_calls(root: Node, target: Dialect) -> Node:
    """``root`` with its temporal constructor calls as the target writes them."""
    spelled = target.functions
    lacking = target.capabilities.unsupported_functions

    def rewrite(call: e.FunctionCall) -> e.Expr:
        if call.name not in NAMES:
            return call
        name, args = call.name, call.args
        if name in _STATEMENT:
            if args:
                return call
            name = _STATEMENT[name]
            call = e.FunctionCall(name, (), pos=call.pos)
        has_function = name in spelled and name not in lacking
        if not args and name in _CURRENT and not has_function:
            return e.FunctionCall(_CURRENT[name], (), pos=call.pos)
        if not has_function:
            return call  # the printer refuses the function
        if len(args) > 1:
            return e.Untranslatable(call, f"function {name}()", pos=call.pos)
        if args and not isinstance(args[0], (e.String, e.MapLiteral)):
            message = (
                f"{target.name}'s {spelled[name]}() takes a string literal or a record literal"
            )
            return e.Untranslatable(call, f"{name}() of a computed value", message, pos=call.pos)
        return call

    return rewrite_each(root, e.FunctionCall, rewrite)
