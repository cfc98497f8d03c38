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

GQL's ``CEIL`` and ``FLOOR`` keep an integer an integer where Cypher's return a float; so do
FalkorDB's ``ceil``, ``floor`` and ``round``: they are written by :mod:`.typed_rounding`.
"""

from __future__ import annotations

from ..analysis.aggregates import aggregates
from ..dialect import Dialect
from ..errors import UnsupportedError
from ..ir import expr as e
from ..ir import query as q
from ..ir.node import Node
from . import typed_rounding

#: canonical functions whose value is a number (or null) whatever their arguments
_NUMERIC_FUNCTIONS = frozenset(
    """abs acos asin atan atan2 ceil ceil_typed char_length cos cot degrees exp floor floor_typed length ln log log10
    radians round sign sin size sqrt tan tofloat tofloatornull tointeger tointegerornull""".split()
) | {"falkordb.round"}
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

#: The IR nodes only GQL-family readers build, which this pass rewrites or refuses elsewhere.
GQL_ONLY_KINDS = frozenset({e.ValueSubquery, e.ArrayElement, e.SafeCast, e.Struct})


def needs_gql_meanings(kinds: frozenset[type], functions: frozenset[str], adds: bool) -> bool:
    """Whether a query holding these node kinds and functions has anything for this pass:
    a numeric ``+``, a float ``/``, a GQL-only node or a dialect's own function."""
    return (
        adds
        or e.Arithmetic in kinds
        or not kinds.isdisjoint(GQL_ONLY_KINDS)
        or any(f.startswith(tuple(_OWN_FUNCTIONS)) for f in functions)
        or not functions.isdisjoint(typed_rounding.NAMES)
    )


def lower_gql_meanings(root: Node, target: Dialect) -> Node:
    """``root`` with every numeric ``+`` written as the target's ``+`` on operands that are
    numbers, or refused (SQL) where an operand is not known to be one; GoogleSQL functions
    refused."""

    def rewrite(node: Node) -> Node:
        if isinstance(node, e.FunctionCall) and node.name in typed_rounding.NAMES:
            return typed_rounding.rewrite(node, target)
        if (
            isinstance(node, e.FunctionCall)
            and node.name.startswith(tuple(_OWN_FUNCTIONS))
            and node.name not in target.functions  # a target that spells it has it (Kuzu)
        ):
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
        if isinstance(node, e.ValueSubquery) and target.capabilities.collect_subquery:
            return _one_row_value(node)
        if isinstance(node, e.ArrayElement):
            return _array_element(node, target)
        if isinstance(node, (e.SafeCast, e.Struct)):
            name = "SAFE_CAST" if isinstance(node, e.SafeCast) else "STRUCT"
            raise UnsupportedError(
                name,
                target.name,
                f"GoogleSQL's {name} has no {target.name} construct of the same meaning",
                offset=node.pos,
            )
        if isinstance(node, e.Arithmetic) and node.op is e.ArithOp.DIV_FLOAT:
            return _float_quotient(node, target)
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


def _one_row_value(node: e.ValueSubquery) -> e.Expr:
    """``VALUE { … RETURN agg(x) }`` whose last step aggregates without grouping keys has
    exactly one row: ``COLLECT { … }[0]`` has its value (Cypher has no VALUE subquery). Other
    VALUE subqueries stay (and are refused): ``[0]`` would not fail on two rows as VALUE does."""
    query = node.query
    if not isinstance(query, q.LinearQuery) or not query.steps:
        return node
    last = query.steps[-1]
    if (
        not isinstance(last, q.Projection)
        or last.star
        or len(last.items) != 1
        or not aggregates(last.items[0].expr)
        or last.group_by
        or last.skip is not None
        or last.limit is not None
        or last.where is not None
    ):
        return node
    collected = e.CollectSubquery(query, pos=node.pos)
    return e.Index(collected, e.Integer(0, pos=node.pos), pos=node.pos)


def _array_element(node: e.ArrayElement, target: Dialect) -> e.Expr:
    """``a[SAFE_OFFSET(i)]`` with a literal ``i >= 0`` (``SAFE_ORDINAL(i)``, ``i >= 1``) is the
    IR's ``a[i]`` (``a[i - 1]``): both give null out of range. An unsafe subscript fails out of
    range where ``a[i]`` gives null, and a negative or computed position counts from the end in
    ``a[i]``: refused."""
    base = 1 if node.ordinal else 0
    index = node.index
    if node.safe and isinstance(index, e.Integer) and index.value >= base:
        return e.Index(node.subject, e.Integer(index.value - base, pos=index.pos), pos=node.pos)
    word = ("SAFE_" if node.safe else "") + ("ORDINAL" if node.ordinal else "OFFSET")
    raise UnsupportedError(
        f"array subscript [{word}()]",
        target.name,
        f"{target.name}'s subscript gives null out of range and counts a negative position from "
        "the end",
        rewrite=f"[SAFE_{'ORDINAL' if node.ordinal else 'OFFSET'}(n)] with a literal position",
        offset=node.pos,
    )


def _float_quotient(node: e.Arithmetic, target: Dialect) -> e.Expr:
    """GoogleSQL's ``/`` is a float quotient: ``toFloat(a) / b`` in a truncating Cypher target;
    a SQL target writes the float quotient itself (an untyped division, which sqlglot casts
    where the flavour's ``/`` truncates). A zero divisor fails in GoogleSQL and gives infinity
    or NaN in Cypher (null in DuckDB): a literal zero is refused."""
    if isinstance(node.right, (e.Integer, e.Float)) and node.right.value == 0:
        raise UnsupportedError(
            "float division by zero",
            target.name,
            "GoogleSQL raises a division-by-zero error where Cypher gives infinity or NaN",
            offset=node.pos,
        )
    if target.family == "sql":
        return node
    left = node.left if isinstance(node.left, e.Float) else e.FunctionCall("tofloat", (node.left,))
    return e.Arithmetic(e.ArithOp.DIV, left, node.right, pos=node.pos)


def _number(node: e.Expr) -> e.Expr:
    if known_number(node) or known_temporal(node):
        return node
    return e.Arithmetic(e.ArithOp.SUB, node, e.Integer(0), pos=node.pos)
