"""The fast helpers of the IR walks agree with the plain definitions they replace."""

from __future__ import annotations

from dataclasses import replace

import pytest

import gqlir
from gqlir.analysis.aggregates import aggregates, outer_aggregates
from gqlir.emitter.base import is_plain_name
from gqlir.ir import expr as e
from gqlir.ir.node import child_nodes, rebuilt
from gqlir.passes.substitute import substitute

QUERIES = [
    "MATCH (a:A {k: 1})-[r:T*1..2]->(b) WHERE a.x > 1 AND b.y IN [1, 2] RETURN a, count(r) AS c",
    "MATCH (n) RETURN n.k AS k, COUNT { MATCH (n)-->(m) RETURN count(*) } AS inner",
    "UNWIND [1, 2, 3] AS x WITH x, {a: x, b: [x, 'y']} AS m RETURN sum(x) + 1, m.a",
    "RETURN [y IN range(1, 3) WHERE y > 1 | y * 2] AS ys, CASE WHEN 1 < 2 THEN 'a' END",
]


def _nodes():
    for text in QUERIES:
        yield from gqlir.parse(text, "neo4j").walk()


def test_child_nodes_are_the_children():
    for node in _nodes():
        assert child_nodes(node) == list(node.children())


def test_rebuilt_is_replace():
    for node in _nodes():
        if isinstance(node, e.Expr) and not isinstance(node, (e.Variable, e.Property)):
            continue
        changes = {"pos": 7} if node.pos is None else {"pos": None}
        new = rebuilt(node, **changes)
        assert new == replace(node, **changes)
        assert new.pos == changes["pos"]


def test_aggregates_finds_what_outer_aggregates_yields():
    seen = {True: 0, False: 0}
    for node in _nodes():
        if isinstance(node, e.Expr):
            expected = next(outer_aggregates(node), None) is not None
            assert aggregates(node) is expected
            seen[expected] += 1
    assert seen[True] and seen[False]  # (both answers were asked)


@pytest.mark.parametrize("name", ["n", "_g1", "value_", "a b", "1x", "é", "MATCH", "x-y"])
def test_is_plain_name_remembers_the_same_answer(name):
    assert is_plain_name(name) is is_plain_name.__wrapped__(name)
    assert is_plain_name(name) is is_plain_name.__wrapped__(name)  # (the cached answer)


def test_substitute_leaves_constants_and_replaces_the_variable():
    query = gqlir.parse("RETURN [x IN [1, 2] WHERE x > $p AND 'a' <> x.k] AS l", "neo4j")
    comprehension = next(n for n in query.walk() if isinstance(n, e.ListComprehension))
    out = substitute(comprehension.where, "x", e.Integer(5))
    assert out is not None
    assert not any(isinstance(n, e.Variable) and n.name == "x" for n in out.walk())
    assert any(isinstance(n, e.Parameter) for n in out.walk())
    literal = e.String("a")
    assert substitute(literal, "x", e.Integer(5)) is literal
