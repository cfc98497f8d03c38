"""Strings count code points everywhere (Neo4j's TextValue.length() and substring() count code
points): the evaluator, the constant folder, the GQL translations read back, and the SQL the
emitter writes, run on SQLite and DuckDB. An astral character (outside the 16-bit plane, two
UTF-16 units) is one character."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from test_sql_emit import MAPPING, _engines

import gqlir
from gqlir import ir
from gqlir.eval import Graph, evaluate
from gqlir.passes.fold import fold_constants

WORDS = ["a\U0001f600b\U0001d11e", "\U0001f600", "ab"]
#: Each function, and its value by code points.
FUNCTIONS: dict[str, Callable[[str], object]] = {
    "size(s)": len,
    "substring(s, 1, 2)": lambda w: w[1:3],
    "substring(s, 2)": lambda w: w[2:],
    "left(s, 2)": lambda w: w[:2],
    "right(s, 2)": lambda w: w[-2:],
}
#: What each target writes (the others refuse left(), right() or their rewrites of substring).
WRITTEN = {
    "neo4j": list(FUNCTIONS),
    "opencypher9": list(FUNCTIONS),
    "iso-gql": list(FUNCTIONS),
    "tugraph-gql": list(FUNCTIONS),
    "spanner": ["size(s)"],
    "sql": ["size(s)", "substring(s, 1, 2)", "substring(s, 2)"],
}


def _query(target: str, prefix: str = "") -> str:
    items = ", ".join(f"{f} AS c{i}" for i, f in enumerate(WRITTEN[target]))
    return f"{prefix or f'UNWIND {WORDS!r} AS s'} RETURN {items}"


def _expected(target: str) -> list[tuple[object, ...]]:
    return [tuple(FUNCTIONS[f](w) for f in WRITTEN[target]) for w in WORDS]


def test_the_evaluator_counts_code_points() -> None:
    rows = evaluate(gqlir.parse(_query("neo4j"), "neo4j"), Graph()).rows
    assert rows == _expected("neo4j")


@pytest.mark.parametrize("word", WORDS)
def test_folded_sizes_count_code_points(word: str) -> None:
    folded = fold_constants(gqlir.parse(f"RETURN size({word!r}) AS n", "neo4j"))
    assert folded.steps[-1].items[0].expr == ir.Integer(len(word))


@pytest.mark.parametrize("target", ["iso-gql", "tugraph-gql", "spanner", "opencypher9"])
def test_translations_count_code_points(target: str) -> None:
    from gqlir.emitter.gql import emit_gql

    statement = gqlir.parse(_query(target), "neo4j")
    text = emit_gql(statement, target, graph="g") if target == "spanner" else None
    text = text or gqlir.emit(statement, target)
    rows = evaluate(gqlir.parse(text, target), Graph(), dialect=target).rows
    assert rows == _expected(target), text


def test_sql_counts_code_points() -> None:
    nodes = [
        {"id": i, "labels": ["A"], "properties": {"id": i, "s": w}} for i, w in enumerate(WORDS)
    ]
    query = _query("sql", "MATCH (a:A) WITH a.s AS s ORDER BY a.id")
    for flavour, connection in _engines({"nodes": nodes, "edges": []}).items():
        sql = gqlir.emit(gqlir.parse(query, "neo4j"), f"sql:{flavour}", schema=MAPPING)
        rows = [tuple(r) for r in connection.execute(sql).fetchall()]
        assert rows == _expected("sql"), f"{flavour}: {sql}"
