"""GQL-family meanings written for targets of the other families (Cypher, SQL).

GoogleSQL and TuGraph functions that the IR knows only as themselves (``googlesql.strpos``,
``tugraph.date_format``, from the Spanner and TuGraph GQL dialect files) are refused by name: no Cypher or SQL function of any name is known to
mean the same.


GQL and GoogleSQL add numbers (and durations to instants and durations) with ``+`` and
concatenate with ``||`` (:attr:`~gqlir.ir.ArithOp.ADD_NUMBERS`). Cypher's ``+`` also
concatenates strings and lists. Operands known to be numbers, instants or durations (literals,
temporal constructors, arithmetic on them) are written with Cypher's ``+`` as they are; another
operand is written ``x - 0``: a number (or null) stays what it is, and a string, list or boolean
fails in Cypher as it does under GQL's ``+`` (so does an instant or duration of unknown type:
an error where GQL adds, never another value). A SQL target's ``+`` on two text columns concatenates in some flavours, and
its types come from the table mapping this pass does not read, so there an operand not known to
be a number is refused.
"""

from __future__ import annotations

from ..dialect import Dialect
from ..errors import UnsupportedError
from ..ir import expr as e
from ..ir.node import Node

#: canonical functions whose value is a number (or null) whatever their arguments
_NUMERIC_FUNCTIONS = frozenset(
    """abs acos asin atan atan2 ceil char_length cos cot degrees exp floor length ln log log10
    radians round sign sin size sqrt tan tofloat tofloatornull tointeger tointegerornull""".split()
)
_NUMERIC_AGGREGATES = frozenset({"count", "avg", "stdev", "stdevp"})


def known_number(node: e.Expr) -> bool:
    """Is ``node``'s value a number or null whenever it is not an error?"""
    if isinstance(node, (e.Integer, e.Float, e.CountStar)):
        return True
    if isinstance(node, (e.Negate, e.UnaryPlus)):
        return known_number(node.operand)
    if isinstance(node, e.Arithmetic):
        if node.op in (e.ArithOp.MOD, e.ArithOp.POW):
            return True  # numbers only, in Cypher too
        if node.op is e.ArithOp.SUB and (known_number(node.left) or known_number(node.right)):
            return True  # Cypher subtracts a number from numbers only
        return known_number(node.left) and known_number(node.right)
    if isinstance(node, e.Aggregate):
        return node.name in _NUMERIC_AGGREGATES
    if isinstance(node, e.FunctionCall):
        return node.name in _NUMERIC_FUNCTIONS
    return False


#: canonical functions whose value is an instant or a duration (or null)
_TEMPORAL_FUNCTIONS = frozenset(
    "date datetime localdatetime time localtime duration duration.between".split()
)


def known_temporal(node: e.Expr) -> bool:
    """Is ``node``'s value an instant or a duration whenever it is not an error?"""
    if isinstance(node, e.TemporalLiteral):
        return True
    if isinstance(node, e.FunctionCall):
        return node.name in _TEMPORAL_FUNCTIONS
    if isinstance(node, e.Arithmetic) and node.op in _ADDITIVE:
        return known_temporal(node.left) or known_temporal(node.right)
    return False


_ADDITIVE = (e.ArithOp.ADD, e.ArithOp.ADD_NUMBERS, e.ArithOp.SUB)

#: Prefixes of the functions the IR knows only as one GQL dialect's own (gqlir.ir.functions).
_OWN_FUNCTIONS = {"googlesql.": "GoogleSQL", "tugraph.": "TuGraph"}


def lower_gql_meanings(root: Node, target: Dialect) -> Node:
    """``root`` with every numeric ``+`` written as the target's ``+`` on operands that are
    numbers, or refused (SQL) where an operand is not known to be one; GoogleSQL functions
    refused."""

    def rewrite(node: Node) -> Node:
        if isinstance(node, e.FunctionCall) and node.name.startswith(tuple(_OWN_FUNCTIONS)):
            family, name = node.name.split(".", 1)
            if name.startswith("@"):  # a system property x.@id
                raise UnsupportedError(
                    f"system property {name}",
                    target.name,
                    f"the {_OWN_FUNCTIONS[family + '.']} system property {name} has no "
                    f"{target.name} counterpart",
                    offset=node.pos,
                )
            raise UnsupportedError(
                f"{name.upper()}()",
                target.name,
                f"the {_OWN_FUNCTIONS[family + '.']} function {name.upper()}() has no "
                f"{target.name} function of the same meaning",
                offset=node.pos,
            )
        if not (isinstance(node, e.Arithmetic) and node.op is e.ArithOp.ADD_NUMBERS):
            return node
        left, right = node.left, node.right
        if target.family != "cypher" and not (known_number(left) and known_number(right)):
            raise UnsupportedError(
                "numeric + on operands not known to be numbers",
                target.name,
                f"GQL's + adds numbers only; {target.name}'s + may concatenate text",
                offset=node.pos,
            )
        return e.Arithmetic(e.ArithOp.ADD, _number(left), _number(right), pos=node.pos)

    return root.transform(rewrite)


def _number(node: e.Expr) -> e.Expr:
    if known_number(node) or known_temporal(node):
        return node
    return e.Arithmetic(e.ArithOp.SUB, node, e.Integer(0), pos=node.pos)
