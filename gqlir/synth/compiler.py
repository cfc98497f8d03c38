"""Template skeletons to IR with holes.

A skeleton is Cypher text in which the parts to choose are marked with names that start with
``?`` (written in backticks, so the text parses as ordinary Cypher):

=====================================  ==============================================
``(n:`?n`)``, ``-[r:`?r`]->``          node label / relationship type hole
``n.`?name```                          property hole of the label bound to ``n``
``$v``                                 value hole
```?op`(n.`?p`, $v)``                  operator hole (comparison or string match)
```?agg`(n.`?p`)``                     aggregate hole
``ORDER BY `?dir`(expr)``              sort direction hole
``-[`?hops`:`?r`*]->``                 hop bounds hole of a variable-length relationship
=====================================  ==============================================

The text is parsed once, by gqlir's own Cypher parser, and the markers are replaced by hole
nodes (:mod:`gqlir.synth.holes`): what a template holds from then on is IR, never text.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TypeGuard, cast

from .. import ir
from ..errors import GqlirError
from .errors import SynthError
from .holes import (
    AggregateHole,
    LabelHole,
    OperatorHole,
    PropertyHole,
    QuantifierHole,
    SortHole,
    ValueHole,
)

MARK = "?"


def _marked(name: str | None) -> TypeGuard[str]:
    return isinstance(name, str) and name.startswith(MARK)


def _label_hole(labels: ir.LabelExpr | None, kind: str) -> ir.LabelExpr | None:
    if isinstance(labels, ir.Label) and _marked(labels.name):
        return LabelHole(labels.name[1:], kind)
    return labels


def _replace_marker(node: ir.Node) -> ir.Node:
    if isinstance(node, ir.NodePattern):
        return replace(node, labels=_label_hole(node.labels, "node"))
    if isinstance(node, ir.RelPattern):
        node = replace(node, types=_label_hole(node.types, "edge"))
        if _marked(node.variable) and node.quantifier is not None:
            # Template IR: the hole stands where a finished query has a Quantifier, until
            # instantiate() puts the bound one there (the field's type names only the latter).
            hole = cast(ir.Quantifier, QuantifierHole(node.variable[1:]))
            node = replace(node, variable=None, quantifier=hole)
        return node
    if isinstance(node, ir.Property) and _marked(node.key):
        return PropertyHole(node.subject, node.key[1:])
    if isinstance(node, ir.Parameter):
        return ValueHole(node.name)
    if isinstance(node, ir.FunctionCall) and _marked(node.name):
        name = node.name[1:]
        if name.startswith("agg") and len(node.args) == 1:
            return AggregateHole(name, node.args[0])
        if name.startswith("op") and len(node.args) == 2:
            return OperatorHole(name, node.args[0], node.args[1])
        if name.startswith("dir") and len(node.args) == 1:
            return node  # resolved with its sort item below
        raise SynthError(f"unknown hole marker `{node.name}`({len(node.args)} arguments)")
    if isinstance(node, ir.SortItem):
        expr = node.expr
        if isinstance(expr, ir.FunctionCall) and _marked(expr.name):
            return SortHole(expr.name[1:], expr.args[0])
    return node


def compile_skeleton(text: str, where: str = "template") -> ir.Query:
    """The IR of a skeleton, with its markers turned into holes."""
    from ..api import parse

    try:
        query = parse(text, "neo4j")
    except GqlirError as exc:
        raise SynthError(f"{where}: the skeleton does not parse: {exc.message}") from None
    if not isinstance(query, ir.Query):
        raise SynthError(f"{where}: the skeleton is a {type(query).__name__}, not a query")
    compiled = query.transform(_replace_marker)
    for node in compiled.walk():
        if isinstance(node, ir.FunctionCall) and _marked(node.name):
            raise SynthError(f"{where}: `{node.name}` is only allowed as an ORDER BY key")
    assert isinstance(compiled, ir.Query)  # markers are in the query's parts, never the query
    return compiled


def join_steps(first: ir.Query, second: ir.Query, where: str = "template") -> ir.Query:
    """A MATCH skeleton followed by a RETURN skeleton, as one pipeline."""
    if not isinstance(first, ir.LinearQuery) or not isinstance(second, ir.LinearQuery):
        raise SynthError(f"{where}: only linear skeletons can be joined")
    return ir.LinearQuery(first.steps + second.steps)
