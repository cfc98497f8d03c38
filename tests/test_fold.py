"""Constant folding: values in place of constant expressions, with the same meaning (the
reference evaluator decides the value), and nothing volatile or failing folded."""

from __future__ import annotations

import pytest

import gqlir
from gqlir import ir
from gqlir.eval import Graph, evaluate
from gqlir.passes.fold import fold_constants


def _item(query: str) -> ir.Expr:
    folded = fold_constants(gqlir.parse(query, "neo4j"))
    return folded.steps[-1].items[0].expr


@pytest.mark.parametrize(
    "query, literal",
    [
        ("RETURN 1 + 2 * 3 AS x", ir.Integer(7)),
        ("RETURN toUpper('ab') + 'c' AS x", ir.String("ABc")),
        ("RETURN range(1, 3) AS x", ir.ListLiteral((ir.Integer(1), ir.Integer(2), ir.Integer(3)))),
        (
            "RETURN date.truncate('month', date('2020-05-17')) AS x",
            ir.TemporalLiteral(ir.TemporalKind.DATE, "2020-05-01"),
        ),
        (
            "RETURN duration.between(date('2020-01-01'), date('2020-03-02')) AS x",
            ir.TemporalLiteral(ir.TemporalKind.DURATION, "P2M1D"),
        ),
        # list constructions that read only their own variables are constants too
        (
            "RETURN [x IN range(1, 5) WHERE x % 2 = 1 | x * 10] AS x",
            ir.ListLiteral((ir.Integer(10), ir.Integer(30), ir.Integer(50))),
        ),
        ("RETURN single(x IN [1, 2, 2] WHERE x = 2) AS x", ir.Boolean(False)),
        ("RETURN reduce(s = 0, x IN [1, 2, 3] | s + x) AS x", ir.Integer(6)),
        # NaN has no literal, but what a comparison of it gives has one
        ("RETURN 0.0 / 0.0 = 0.0 / 0.0 AS x", ir.Boolean(False)),
    ],
)
def test_constant_expressions_become_literals(query: str, literal: ir.Expr) -> None:
    assert _item(query) == literal


@pytest.mark.parametrize(
    "query",
    [
        "RETURN rand() AS x",
        "RETURN datetime() AS x",
        "RETURN date.realtime() AS x",
        "RETURN 1 / 0 AS x",
        "MATCH (n) RETURN n.x + 1 AS x",
        "RETURN $p + 1 AS x",
        "MATCH (n) RETURN [x IN [1, 2] | x + n.k] AS x",
        "RETURN [x IN [1, 2] WHERE rand() > 0.5] AS x",
        "UNWIND [1, 2] AS l RETURN [x IN [l] | x] AS x",
        "RETURN date.realtime('+01:00') AS x",
    ],
)
def test_volatile_failing_and_variable_expressions_stay(query: str) -> None:
    original = gqlir.parse(query, "neo4j")
    assert fold_constants(original) == original


def test_folding_lets_a_target_write_what_it_lacks() -> None:
    query = gqlir.parse(
        "UNWIND [1, 2] AS i RETURN i, date.truncate('year', date('2021-07-04')) AS d", "neo4j"
    )
    with pytest.raises(gqlir.UnsupportedError):
        gqlir.emit(query, "iso-gql")
    folded = fold_constants(query)
    text = gqlir.emit(folded, "iso-gql")
    assert "DATE '2021-01-01'" in text
    before = evaluate(query, Graph())
    after = evaluate(gqlir.parse(text, "iso-gql"), Graph(), dialect="iso-gql")
    assert before.rows == after.rows and before.columns == after.columns


def test_transpile_falls_back_to_folding_only_when_the_target_refuses() -> None:
    text = "UNWIND [1] AS i RETURN i, date.truncate('year', date('2021-07-04')) AS d"
    assert "DATE '2021-01-01'" in gqlir.transpile(text, "neo4j", "iso-gql")
    # a target that can write the query gets it as written
    assert "date.truncate" in gqlir.transpile(text, "neo4j", "neo4j")
    with pytest.raises(gqlir.UnsupportedError):
        gqlir.transpile("MATCH (n) RETURN date.truncate('year', n.d) AS d", "neo4j", "iso-gql")


def test_a_null_time_zone_gives_null_without_reading_the_clock() -> None:
    assert _item("RETURN date.transaction(null) AS x") == ir.Null()


# Queries whose variables hold one constant on every row, with what the last column becomes.
PROPAGATED = [
    (
        "WITH [1, 2] AS l RETURN [x IN l | x * 2] AS x",
        ir.ListLiteral((ir.Integer(2), ir.Integer(4))),
    ),
    (
        "WITH date({year: 1984, month: 11, day: 11}) AS d RETURN date(d) AS x",
        ir.TemporalLiteral(ir.TemporalKind.DATE, "1984-11-11"),
    ),
    # the list comprehension's own x is not the constant x
    ("WITH 1 AS x RETURN [x IN [5, 6] | x] AS l", ir.ListLiteral((ir.Integer(5), ir.Integer(6)))),
    # a later projection rebinds x
    ("WITH 1 AS x WITH 2 AS x RETURN x + 1 AS y", ir.Integer(3)),
    # WITH * keeps the constant; an unaliased variable keeps its column name
    (
        "WITH 3 AS n WITH *, 1 AS m WITH n RETURN range(1, n) AS r",
        ir.ListLiteral((ir.Integer(1), ir.Integer(2), ir.Integer(3))),
    ),
    ("WITH null AS e, 'x' AS k RETURN e[k] AS v", ir.Null()),
]


@pytest.mark.parametrize("query, literal", PROPAGATED)
def test_variables_bound_to_constants_are_read_as_their_values(
    query: str, literal: ir.Expr
) -> None:
    original = gqlir.parse(query, "neo4j")
    folded = fold_constants(original)
    assert folded.steps[-1].items[-1].expr == literal
    # the projections still bind their columns, and the answer is the same
    before, after = evaluate(original, Graph()), evaluate(folded, Graph())
    assert before.columns == after.columns and before.rows == after.rows


def test_propagation_respects_scopes() -> None:
    # ORDER BY reads the projection's own x, not the constant the x before it held
    folded = fold_constants(
        gqlir.parse("WITH 1 AS x MATCH (n) WITH n.v AS x ORDER BY x RETURN x", "neo4j")
    )
    assert folded.steps[-2].order_by[0].expr == ir.Variable("x")
    # nothing is substituted inside a subquery (its scoping is its own)
    query = gqlir.parse(
        "WITH 1 AS x MATCH (n) WHERE EXISTS { MATCH (n)-->(m) WHERE m.v = x } RETURN n", "neo4j"
    )
    exists = next(fold_constants(query).find_all(ir.Exists))
    assert ir.Variable("x") in list(exists.walk())
    # the column of an unaliased variable keeps its name when its value is substituted
    graph = Graph()
    query = gqlir.parse("WITH 2 AS n UNWIND [1] AS i WITH n, i RETURN n, i", "neo4j")
    folded = fold_constants(query)
    assert evaluate(folded, graph).columns == ["n", "i"]
    assert folded.steps[-2].items[0] == ir.ReturnItem(ir.Integer(2), "n")


def test_propagation_reaches_targets_through_the_fallback() -> None:
    text = "WITH time({hour: 12, timezone: '+01:00'}) AS t RETURN localtime(t) AS r"
    out = gqlir.transpile(text, "neo4j", "iso-gql")
    assert "LOCAL_TIME('12:00')" in out, out
    with pytest.raises(gqlir.UnsupportedError):  # not a constant: still refused
        gqlir.transpile("MATCH (v) WITH v.t AS t RETURN localtime(t) AS r", "neo4j", "iso-gql")


def test_free_variables_leave_out_what_comprehensions_bind() -> None:
    from gqlir.ir.analysis import free_variables

    def expr(text: str) -> ir.Expr:
        return gqlir.parse(f"RETURN {text} AS v", "neo4j").steps[-1].items[0].expr

    assert free_variables(expr("[x IN l WHERE x > k | x + y]")) == {"l", "k", "y"}
    assert free_variables(expr("any(x IN l WHERE x = x)")) == {"l"}
    assert free_variables(expr("reduce(s = 0, x IN l | s + x + z)")) == {"l", "z"}
    assert free_variables(expr("[x IN [x] | x]")) == {"x"}  # the source reads the outer x


@pytest.mark.parametrize(
    "query",
    [
        # the translation's fallback once evaluated this million-item list
        "UNWIND range(1000000, 2000000) AS i WITH i LIMIT 3000 RETURN sum(i) AS s",
        "RETURN size(range(1, 1000000000000)) AS s",
        # small ranges whose combination is large
        "RETURN [x IN range(1, 1000) | range(1, 1000)] AS s",
        "RETURN reduce(s = [1], x IN range(1, 60) | s + s) AS s",
        "RETURN reduce(s = 'ab', x IN range(1, 60) | s + s) AS s",
    ],
)
def test_large_constants_are_left_unevaluated(query: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Folding stays within its budget: a constant that would be large is not folded, and a
    range() longer than the budget is never made (its length is known from its arguments)."""
    import tracemalloc

    from gqlir.eval import functions
    from gqlir.passes import fold

    made: list[int] = []
    real = functions._FUNCTIONS["range"]

    def counted(rt: object, args: list) -> object:
        value = real(rt, args)
        made.append(len(value))
        return value

    monkeypatch.setitem(functions._FUNCTIONS, "range", counted)
    statement = gqlir.parse(query, "neo4j")
    tracemalloc.start()
    try:
        folded = fold_constants(statement)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert max(made, default=0) <= fold.WORK_BUDGET
    assert peak < 20 * fold.WORK_BUDGET * 8  # far below the large value's own size
    first = folded.steps[0]
    top = first.source if isinstance(first, ir.Unwind) else first.items[0].expr
    assert not fold.is_constant_value(top)
    assert all(len(x.items) <= fold.MAX_ITEMS for x in folded.find_all(ir.ListLiteral))


def test_large_ranges_are_refused_not_folded() -> None:
    """Without folding, a target that has no range() refuses the query, naming range()."""
    query = "UNWIND range(1000000, 2000000) AS i WITH i LIMIT 3000 RETURN sum(i) AS s"
    with pytest.raises(gqlir.UnsupportedError, match="range"):
        gqlir.transpile(query, "neo4j", "iso-gql")
    assert "[1, 2, 3]" in gqlir.transpile(
        query.replace("1000000, 2000000", "1, 3"), "neo4j", "iso-gql"
    )


def test_the_folding_walk_is_the_generic_transform(tck_trees: list[tuple[str, ir.Node]]) -> None:
    """The folder's own bottom-up walk (which passes the leaves by) and ``_has_candidate`` (a
    written-out walk) agree with the generic ``transform`` and ``walk`` over the TCK."""
    from gqlir.passes.fold import (
        _FOLDABLE_TYPES,
        _SCOPED,
        _constant,
        _Folder,
        _has_candidate,
        closed,
    )

    for text, query in tck_trees:
        expected = any(
            _constant(n, {}) if type(n) in _FOLDABLE_TYPES else type(n) in _SCOPED and closed(n)
            for n in query.walk()
        )
        assert _has_candidate(query) is expected, text
        by_transform = query.transform(_Folder("neo4j"))
        by_walk = _Folder("neo4j").tree(query)
        assert by_walk == by_transform, text
        assert (by_walk is query) == (by_transform is query), text
