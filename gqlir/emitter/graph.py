"""What the Cypher and GQL text emitters render alike.

Both families write graph patterns, literals and a few clauses the same way; the methods here
are that common part. Each family's generator subclasses this one and supplies the rest
(``label_expr``, ``type_ref``, ``function_name`` …), reading its dialect's capabilities.
"""

from __future__ import annotations

import math

from ..ir import expr as e
from ..ir import pattern as p
from ..ir import query as q
from ..ir.node import Node
from .base import Generator, emits

_INT64_MIN = -(2**63)
_INT64_MAX = 2**63 - 1
#: Set operators whose chains may be regrouped without changing the result.
_ASSOCIATIVE_SET_OPS = frozenset({q.SetOp.UNION, q.SetOp.INTERSECT, q.SetOp.OTHERWISE})


class GraphTextGenerator(Generator):
    """The shared part of the graph-query text emitters (Cypher and GQL families)."""

    def count(self, value: object, node: Node) -> str:
        """A non-negative integer written into the syntax (bounds, k): checked, never trusted.
        A search count may be a parameter where the dialect takes one (``ANY @k``)."""
        if isinstance(value, e.Parameter) and self.caps.search_count_parameter:
            return self.gen(value)
        if type(value) is not int or value < 0:
            raise self.unsupported(
                "count", node, message=f"{value!r} is not a count (a non-negative integer)"
            )
        return str(value)

    def check_upper_bound(self, quant: p.Quantifier) -> None:
        """A quantifier's upper bound must be one the engine keeps: a dialect whose engine
        caps every variable-length pattern (``max_quantifier_upper``) refuses a larger bound
        rather than let the engine drop the longer paths."""
        cap = self.caps.max_quantifier_upper
        if cap and type(quant.upper) is int and quant.upper > cap:
            raise self.unsupported(
                "quantifier bound over the maximum",
                quant,
                message=f"{self.dialect.name} matches at most {cap} relationships of a "
                f"variable-length pattern: a bound of {quant.upper} would lose the longer paths",
            )

    @emits(e.Integer)
    def integer(self, node: e.Integer) -> str:
        """Both families' integers are 64-bit: a wider value is refused, never wrapped."""
        value = node.value
        if type(value) is not int:
            raise self.unsupported("integer literal", node, message=f"{value!r} is not an integer")
        if not _INT64_MIN <= value <= _INT64_MAX:
            raise self.unsupported(
                "integer out of range",
                node,
                message=f"{value} does not fit the 64-bit integer of {self.dialect.name}",
                rewrite="use a FLOAT or a STRING",
            )
        return str(value)

    def finite_float(self, node: e.Float) -> float:
        """The value of a float literal; NaN and infinities have no literal in either family."""
        value = float(node.value)
        if not math.isfinite(value):
            raise self.unsupported(
                "non-finite float",
                node,
                message=f"{self.dialect.name} has no literal for {value!r}",
                rewrite="pass the value as a parameter",
            )
        return value

    @emits(e.String)
    def string_literal(self, node: e.String) -> str:
        return self.string(node.value, node)

    @emits(e.Parameter)
    def parameter_ref(self, node: e.Parameter) -> str:
        return self.parameter(node.name)

    @emits(e.TypeRef)
    def type_ref_node(self, node: e.TypeRef) -> str:
        return self.type_ref(node, node)

    @emits(e.CountStar)
    def count_star(self, node: e.CountStar) -> str:
        return self.function_name("count", node) + "(*)"

    @emits(p.Label, p.LabelAnd, p.LabelOr, p.LabelNot, p.LabelAny)
    def label_expression(self, labels: p.LabelExpr) -> str:
        return self.label_expr(labels)

    @emits(p.PathChain)
    def path_chain(self, chain: p.PathChain) -> str:
        if not chain.elements:
            raise self.unsupported("empty path pattern", chain)
        out: list[str] = []
        previous: Node | None = None
        for element in chain.elements:
            # Two non-relationship elements in a row (around a quantified path) get a space.
            if previous is not None and not (
                isinstance(element, p.RelPattern) or isinstance(previous, p.RelPattern)
            ):
                out.append(" ")
            out.append(self.gen(element))
            previous = element
        return "".join(out)

    @emits(p.PathUnion)
    def path_union(self, union: p.PathUnion) -> str:
        self.require(self.caps.path_union, "path union", union)
        sep = " |+| " if union.multiset else " | "
        return sep.join(self.gen(alternative) for alternative in union.alternatives)

    def path_mode(self, mode: p.PathMode, node: Node) -> str:
        self.require(mode.value in self.caps.path_modes, f"{mode.value} path mode", node)
        return mode.value

    @emits(q.Finish)
    def finish(self, step: q.Finish) -> str:
        self.require(self.caps.finish, "FINISH", step)
        return "FINISH"

    def _set_branches(self, query: q.SetOperation) -> list[q.Query]:
        """The operands of a chain of one set operator, left to right.

        Neither family parenthesises queries, and neither mixes operators (UNION with UNION
        ALL) in one chain. A right-nested operand is flattened when the operator is
        associative (same meaning); otherwise it cannot be written.
        """
        key = (query.op, query.all)
        rights: list[q.Query] = []
        node: q.Query = query
        while isinstance(node, q.SetOperation):
            self._same_set_op(node, key)
            rights.append(node.right)
            node = node.left
        branches: list[q.Query] = []
        for branch in [node, *reversed(rights)]:
            if isinstance(branch, q.SetOperation):
                self._same_set_op(branch, key)
                if branch.op not in _ASSOCIATIVE_SET_OPS:
                    raise self.unsupported(
                        "nested set operation",
                        branch,
                        rewrite="move the inner operation into a CALL subquery",
                    )
                branches.extend(self._set_branches(branch))
            else:
                branches.append(branch)
        return branches

    def _same_set_op(self, node: q.SetOperation, key: tuple[q.SetOp, bool]) -> None:
        if (node.op, node.all) != key:
            raise self.unsupported(
                "mixed set operations",
                node,
                rewrite="move one of the operations into a CALL subquery",
            )
