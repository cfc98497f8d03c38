"""GoogleSQL's date part keywords: a call whose part is not one the function takes is refused.

``EXTRACT(part FROM d)``, ``INTERVAL n part`` (in ``DATE_ADD`` / ``TIMESTAMP_ADD``),
``DATE_TRUNC(d, part)`` and ``DATE_DIFF(a, b, part)`` take a part keyword from a fixed set each
(:data:`gqlir.ir.functions.DATE_PARTS` and the sets after it, with their sources: Spanner's
date_functions and timestamp_functions pages). The IR holds the part as a string argument
(:mod:`.googlesql_temporal` builds these calls with parts it knows); a call that holds another
part, or a computed one, is refused in place (:class:`~gqlir.ir.expr.Untranslatable`) where the
target spells the function, so the printer writes the part as a keyword verbatim.
"""

from __future__ import annotations

from ..dialect import Dialect
from ..ir import expr as e
from ..ir.functions import BOUNDARY_PARTS, DATE_PARTS, INTERVAL_PARTS, TIMESTAMP_PARTS
from ..ir.node import Node

__all__ = ["NAMES", "PART_FIRST", "applies", "lower_date_parts"]

#: call name -> the parts it takes
_PARTS = {
    "googlesql.extract": DATE_PARTS,
    "googlesql.interval": INTERVAL_PARTS | TIMESTAMP_PARTS,
    "googlesql.date_trunc": BOUNDARY_PARTS,
    "googlesql.date_diff": BOUNDARY_PARTS,
}
#: The calls whose part keyword is an argument.
NAMES = frozenset(_PARTS)
#: The call whose part is its first argument (the others': the last).
PART_FIRST = "googlesql.extract"


def applies(target: Dialect) -> bool:
    return not NAMES.isdisjoint(target.functions)


def lower_date_parts(root: Node, target: Dialect) -> Node:
    """``root`` with each date-part call of a part its function does not take refused."""
    spelled = target.functions
    lacking = target.capabilities.unsupported_functions

    def rewrite(node: Node) -> Node:
        if type(node) is not e.FunctionCall:
            return node
        call: e.FunctionCall = node
        parts = _PARTS.get(call.name)
        if parts is None or call.name not in spelled or call.name in lacking:
            return call  # (a function the target lacks: the printer's refusal)
        args = call.args
        part = (args[0] if call.name == PART_FIRST else args[-1]) if args else None
        if isinstance(part, e.String) and part.value in parts:
            return call
        construct = f"{spelled[call.name]} of a part other than {sorted(parts)}"
        return e.Untranslatable(call, construct, pos=call.pos)

    return root.transform(rewrite)
