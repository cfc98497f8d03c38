"""Cypher → SQL: the emitted SQL means what the IR means.

Random small graphs of one schema × random Cypher read queries over it: the reference
evaluator runs the IR, and the SQL the emitter writes runs on SQLite and on DuckDB over the same
graph loaded through the schema's relational mapping (nodes in label tables, n:m edges in edge
tables, an n:1 edge as a foreign-key column). A query the SQL emitter refuses is skipped; every
query it writes must give the same rows (as a bag; as a list when the query orders by every
returned column). Plus unit tests of the forms chosen and of the refusals.
"""

from __future__ import annotations

import json
import os
import sqlite3
import tempfile
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gqlir
from gqlir.errors import EvaluationError, SchemaError, UnsupportedError
from gqlir.eval import Graph, evaluate
from gqlir.migrate import load_tables
from gqlir.schema import EdgeType, Endpoint, NodeType, Property, SchemaGraph, parse_type
from gqlir.schema.model import Cardinality
from gqlir.sqlcorpus import normalise
from gqlir.sqlmapping import SqlMapping

duckdb = pytest.importorskip("duckdb")

INT, STR = parse_type("INT64"), parse_type("STRING")


def _node(label: str) -> NodeType:
    return NodeType(
        label,
        (Property("id", INT, required=True), Property("x", INT), Property("s", STR)),
        keys=("id",),
    )


SCHEMA = SchemaGraph(
    name="g",
    node_types=(_node("A"), _node("B")),
    edge_types=(
        EdgeType(
            "R", (Endpoint("A", "B"),), (Property("w", INT),), cardinality=Cardinality.MANY_TO_MANY
        ),
        EdgeType(
            "S", (Endpoint("A", "A"),), (Property("w", INT),), cardinality=Cardinality.MANY_TO_MANY
        ),
        # n:1 without properties: stored as the foreign-key column p_id of table A
        EdgeType("P", (Endpoint("A", "B"),), cardinality=Cardinality.MANY_TO_ONE),
    ),
)
MAPPING = SqlMapping.from_schema(SCHEMA)


def test_the_schema_stores_p_as_a_foreign_key() -> None:
    (p,) = MAPPING.edges("P")
    assert p.in_node_table and p.table == "A"


# -- graphs --------------------------------------------------------------------------------------

_ints = st.one_of(st.none(), st.integers(-3, 3))
_strs = st.one_of(st.none(), st.sampled_from(["a", "b", "ab", "ba"]))


@st.composite
def graphs(draw: st.DrawFn) -> dict[str, Any]:
    na, nb = draw(st.integers(1, 4)), draw(st.integers(1, 3))
    nodes = []
    for label, count, base in (("A", na, 0), ("B", nb, 100)):
        for i in range(count):
            props = {"id": base + i, "x": draw(_ints), "s": draw(_strs)}
            nodes.append(
                {
                    "id": base + i,
                    "labels": [label],
                    "properties": {k: v for k, v in props.items() if v is not None},
                }
            )
    a_ids, b_ids = list(range(na)), [100 + i for i in range(nb)]
    edges = []
    for label, sources, targets in (("R", a_ids, b_ids), ("S", a_ids, a_ids)):
        pairs = draw(
            st.sets(st.tuples(st.sampled_from(sources), st.sampled_from(targets)), max_size=5)
        )
        for s, t in sorted(pairs):
            w = draw(_ints)
            edges.append(
                {
                    "type": label,
                    "source": s,
                    "target": t,
                    "properties": {} if w is None else {"w": w},
                }
            )
    for a in a_ids:
        if draw(st.booleans()):
            edges.append(
                {"type": "P", "source": a, "target": draw(st.sampled_from(b_ids)), "properties": {}}
            )
    return {"nodes": nodes, "edges": edges}


# -- queries -------------------------------------------------------------------------------------

# (pattern, node variables with their labels)
PATTERNS = [
    ("(a:A)", {"a": "A"}),
    ("(a:A)-[r:R]->(b:B)", {"a": "A", "b": "B"}),
    ("(b:B)<-[r:R]-(a:A)", {"a": "A", "b": "B"}),
    ("(a:A)-[r:S]->(c:A)", {"a": "A", "c": "A"}),
    ("(a:A)-[r:S]-(c:A)", {"a": "A", "c": "A"}),
    ("(a:A)-[:P]->(b:B)", {"a": "A", "b": "B"}),
    ("(a:A)-[:S*1..2]->(c:A)", {"a": "A", "c": "A"}),
    ("(a:A)-[r:S]->(c:A)-[q:S]->(d:A)", {"a": "A", "c": "A", "d": "A"}),
    ("(a:A)-[r:R]->(b:B), (c:A)-[q:R]->(b)", {"a": "A", "b": "B", "c": "A"}),
    ("(a:A), (b:B)", {"a": "A", "b": "B"}),
]


def _int_expr(draw: st.DrawFn, nodes: list[str]) -> str:
    atom = draw(st.sampled_from([f"{n}.x" for n in nodes] + ["1", "2", "-1"]))
    kind = draw(st.sampled_from(["atom", "atom", "add", "mul", "mod", "case", "coalesce"]))
    if kind == "add":
        return f"({atom} + {draw(st.sampled_from([f'{n}.x' for n in nodes] + ['1']))})"
    if kind == "mul":
        return f"({atom} * 2)"
    if kind == "mod":
        return f"({atom} % 2)"
    if kind == "case":
        return f"CASE WHEN {_predicate(draw, nodes, 2)} THEN {atom} ELSE 0 END"
    if kind == "coalesce":
        return f"coalesce({atom}, 0)"
    return atom


def _str_expr(draw: st.DrawFn, nodes: list[str]) -> str:
    atom = draw(st.sampled_from([f"{n}.s" for n in nodes] + ["'a'"]))
    kind = draw(st.sampled_from(["atom", "atom", "upper", "concat"]))
    if kind == "upper":
        return f"toUpper({atom})"
    if kind == "concat":
        return f"({atom} + 'x')"
    return atom


def _predicate(draw: st.DrawFn, nodes: list[str], depth: int = 0) -> str:
    kind = draw(st.sampled_from(["icmp", "scmp", "null", "in", "str", "and", "or", "not"]))
    if depth >= 2 or kind == "icmp":
        op = draw(st.sampled_from(["=", "<>", "<", ">="]))
        return f"{_int_expr(draw, nodes)} {op} {_int_expr(draw, nodes)}"
    if kind == "scmp":
        op = draw(st.sampled_from(["=", "<>", "<"]))
        return f"{_str_expr(draw, nodes)} {op} {_str_expr(draw, nodes)}"
    if kind == "null":
        n = draw(st.sampled_from(nodes))
        prop = draw(st.sampled_from(["x", "s"]))
        return f"{n}.{prop} IS {draw(st.sampled_from(['', 'NOT ']))}NULL"
    if kind == "in":
        return f"{_int_expr(draw, nodes)} IN [1, 2, null]"
    if kind == "str":
        n = draw(st.sampled_from(nodes))
        op = draw(st.sampled_from(["STARTS WITH", "ENDS WITH", "CONTAINS"]))
        return f"{n}.s {op} '{draw(st.sampled_from(['a', 'b', '']))}'"
    if kind == "not":
        return f"NOT ({_predicate(draw, nodes, depth + 1)})"
    op = "AND" if kind == "and" else "OR"
    return f"({_predicate(draw, nodes, depth + 1)} {op} {_predicate(draw, nodes, depth + 1)})"


@st.composite
def queries(draw: st.DrawFn) -> str:
    pattern, labels = draw(st.sampled_from(PATTERNS))
    nodes = list(labels)
    parts = [f"MATCH {pattern}"]
    if draw(st.booleans()):
        parts.append(f"WHERE {_predicate(draw, nodes)}")
    if "a" in nodes and draw(st.integers(0, 3)) == 0:
        parts.append("OPTIONAL MATCH (a)-[o:R]->(ob:B)")
        if draw(st.booleans()):
            parts.append(f"WHERE {_predicate(draw, ['a', 'ob'])}")
        nodes.append("ob")
    if draw(st.integers(0, 3)) == 0:
        keep = sorted(set(draw(st.lists(st.sampled_from(nodes), min_size=1, max_size=2))))
        parts.append(f"WITH {', '.join(keep)}, {_int_expr(draw, nodes)} AS e")
        if draw(st.booleans()):
            parts.append("WHERE e >= 0")
        nodes = keep
        items = ["e AS c0"]
    else:
        items = []
    count = draw(st.integers(1, 2))
    for i in range(len(items), len(items) + count):
        kind = draw(st.sampled_from(["int", "int", "str", "pred"]))
        value = {
            "int": _int_expr,
            "str": _str_expr,
            "pred": lambda d, n: f"({_predicate(d, n, 1)})",
        }[kind](draw, nodes)
        items.append(f"{value} AS c{i}")
    aggregate = draw(
        st.sampled_from(
            [
                None,
                "count(*)",
                "count({n}.x)",
                "sum({n}.x)",
                "min({n}.s)",
                "max({n}.x)",
                "count(DISTINCT {n}.x)",
                "avg({n}.x)",
                "count({n})",
            ]
        )
    )
    if aggregate is not None:
        items.append(f"{aggregate.format(n=draw(st.sampled_from(nodes)))} AS agg")
    distinct = "DISTINCT " if draw(st.booleans()) else ""
    parts.append(f"RETURN {distinct}{', '.join(items)}")
    if draw(st.booleans()):
        columns = [item.rsplit(" AS ", 1)[1] for item in items]
        parts.append(
            "ORDER BY "
            + ", ".join(f"{c} {draw(st.sampled_from(['ASC', 'DESC']))}" for c in columns)
        )
        if draw(st.booleans()):
            parts.append(f"SKIP {draw(st.integers(0, 1))} LIMIT {draw(st.integers(0, 3))}")
    return " ".join(parts)


# -- engines -------------------------------------------------------------------------------------


def _write_graph(data: dict[str, Any], directory: str) -> None:
    with open(os.path.join(directory, "nodes.jsonl"), "w", encoding="utf-8") as fh:
        for n in data["nodes"]:
            fh.write(json.dumps(n) + "\n")
    with open(os.path.join(directory, "edges.jsonl"), "w", encoding="utf-8") as fh:
        for e in data["edges"]:
            fh.write(json.dumps(e) + "\n")


def _engines(data: dict[str, Any]) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        _write_graph(data, tmp)
        lite = sqlite3.connect(":memory:")
        load_tables(lite, MAPPING, tmp, "sqlite")
        duck = duckdb.connect()
        load_tables(duck, MAPPING, tmp, "duckdb")
    return {"sqlite": lite, "duckdb": duck}


def _ordered(statement: Any) -> bool:
    last = statement.steps[-1]
    return bool(last.order_by) and len(last.order_by) >= len(last.items)


@settings(
    max_examples=120,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=graphs(), query=queries())
def test_emitted_sql_means_what_the_ir_means(data: dict[str, Any], query: str) -> None:
    statement = gqlir.parse(query, "neo4j")
    try:
        expected_result = evaluate(statement, Graph.from_data(data), check=False)
    except EvaluationError:
        return  # the query fails on this graph (e.g. a type error): nothing to compare
    ordered = _ordered(statement)
    expected = normalise(expected_result.rows, ordered)
    engines = _engines(data)
    for flavour, connection in engines.items():
        try:
            sql = gqlir.emit(statement, f"sql:{flavour}", schema=MAPPING)
        except UnsupportedError:
            continue
        rows = [tuple(r) for r in connection.execute(sql).fetchall()]
        assert normalise(rows, ordered) == expected, f"{flavour}: {query}\n{sql}"


def test_the_generator_produces_queries_the_sql_emitter_writes() -> None:
    """The property above must exercise the emitter, not skip every query."""
    refused = []
    for pattern, labels in PATTERNS:
        n = next(iter(labels))
        statement = gqlir.parse(f"MATCH {pattern} RETURN {n}.x AS x, count(*) AS c", "neo4j")
        try:
            gqlir.emit(statement, "sql:sqlite", schema=MAPPING)
        except UnsupportedError as exc:
            refused.append((pattern, exc.construct))
    assert not refused  # each pattern the generator draws is one the emitter writes


# -- forms and refusals ----------------------------------------------------------------------------


def _sql(cypher: str, flavour: str = "sqlite") -> str:
    return gqlir.emit(gqlir.parse(cypher, "neo4j"), f"sql:{flavour}", schema=MAPPING)


def test_values_are_quoted_structurally() -> None:
    sql = _sql("MATCH (a:A) WHERE a.s = 'x\\'); DROP TABLE \"A\"; --' RETURN a.x AS `we\"ird`")
    lite = sqlite3.connect(":memory:")
    lite.execute('CREATE TABLE "A" (id INT, x INT, s TEXT, p_id INT)')
    assert lite.execute(sql).fetchall() == []
    assert lite.execute('SELECT count(*) FROM "A"').fetchone() == (0,)


def test_a_foreign_key_edge_is_a_column_comparison() -> None:
    sql = _sql("MATCH (a:A)-[:P]->(b:B) RETURN b.x AS x")
    assert '"a"."p_id" = "b"."id"' in sql


def test_integer_division_truncates_on_duckdb() -> None:
    assert "//" in _sql("MATCH (a:A) RETURN a.x / 2 AS h", "duckdb")
    assert "//" not in _sql("MATCH (a:A) RETURN a.x / 2 AS h", "sqlite")


def test_null_order_is_written_for_the_flavour() -> None:
    assert "NULLS LAST" in _sql("MATCH (a:A) RETURN a.x AS x ORDER BY x", "sqlite")
    assert "NULLS" not in _sql("MATCH (a:A) RETURN a.x AS x ORDER BY x", "postgres")


def test_a_union_of_strings_and_numbers_is_refused_where_columns_have_one_type() -> None:
    """DuckDB would cast the integers to text; SQLite keeps each value's type."""
    mixed = "MATCH (a:A) RETURN a.s AS c UNION ALL MATCH (a:A) RETURN a.x AS c"
    for flavour in ("duckdb", "postgres"):
        with pytest.raises(UnsupportedError) as info:
            _sql(mixed, flavour)
        assert info.value.construct == "UNION of columns of different types"
    assert "UNION ALL" in _sql(mixed, "sqlite")
    numbers = "MATCH (a:A) RETURN a.x AS c UNION ALL MATCH (a:A) RETURN 1.5 AS c"
    assert "UNION ALL" in _sql(numbers, "duckdb")


def test_an_unwound_list_of_mixed_types_keeps_them_only_where_columns_do() -> None:
    mixed = "UNWIND [1, 'a', null] AS k RETURN k"
    with pytest.raises(UnsupportedError) as info:
        _sql(mixed, "duckdb")
    assert info.value.construct == "UNWIND of a list of values of different types"
    rows = sqlite3.connect(":memory:").execute(_sql(mixed)).fetchall()
    assert Counter(rows) == Counter([(1,), ("a",), (None,)])


def test_sum_of_no_rows_is_zero() -> None:
    assert "COALESCE(SUM(" in _sql("MATCH (a:A) RETURN sum(a.x) AS s")


def test_variable_length_edges_are_a_recursive_cte() -> None:
    sql = _sql("MATCH (a:A)-[:S*1..3]->(c:A) RETURN c.x AS x")
    assert sql.startswith("WITH RECURSIVE")


@pytest.mark.parametrize(
    ("cypher", "construct"),
    [
        ("MATCH (a:A) RETURN a", "graph element in the result"),
        ("MATCH (n) RETURN n.x AS x", "node pattern without a label"),
        ("MATCH (a:A)-[r]->(b:B) RETURN b.x AS x", "relationship pattern without a type"),
        ("MATCH (a:A) RETURN a.x = a.s AS t", "comparison of values of different types"),
        ("MATCH p = (a:A)-[:R]->(b:B) RETURN p", "path in the result"),
        ("MATCH p = (a:A)-[:R]->(b:B) RETURN nodes(p) AS n", "path as a value"),
        ("MATCH (a:A) RETURN collect(a.x) AS l", "collect()"),
        ("UNWIND $l AS k RETURN k", "UNWIND of a list that is not a literal"),
        ("MATCH (a:A), (b:B) RETURN a < b AS t", "< on graph elements"),
        (
            "MATCH (a:A)-[:S*0..2]->(c:A) RETURN c.x AS x",
            "variable-length relationship of length zero",
        ),
        (
            "MATCH (a:A)-[:S]->(c:A)-[:S*1..2]->(d:A) RETURN d.x AS x",
            "variable-length relationship sharing its type with another in one MATCH",
        ),
    ],
)
def test_refusals_name_the_construct(cypher: str, construct: str) -> None:
    with pytest.raises(UnsupportedError) as info:
        _sql(cypher)
    assert info.value.construct == construct


def test_variable_length_over_several_edge_tables_is_refused() -> None:
    """One recursive query walks one edge table; a path that may change tables (here R edges
    from A to B: a second hop would start at a B) is refused, not walked incompletely."""
    with pytest.raises(UnsupportedError) as info:
        _sql("MATCH (a:A)-[:R*1..2]->(b:B) RETURN b.x AS x")
    assert info.value.construct == "variable-length relationship over several edge tables"
    assert _sql("MATCH (a:A)-[:R*1]->(b:B) RETURN b.x AS x").startswith("WITH RECURSIVE")


def test_order_by_a_with_alias_after_a_node_spread_over_columns() -> None:
    """A WITH of a node carries one column per property: ORDER BY k must still be k."""
    sql = _sql(
        "MATCH (a:A)-[:R]->(b:B) WITH b, count(a) AS k ORDER BY k DESC, b.x LIMIT 2 "
        "RETURN b.x AS x, k"
    )
    assert 'ORDER BY "k" DESC' in sql


def test_sql_output_without_a_mapping_reads_tables_named_by_labels() -> None:
    out = gqlir.emit(gqlir.parse("MATCH (a:A) RETURN a.x AS x", "neo4j"), "sql:sqlite")
    assert out == 'SELECT "a"."x" FROM "A" AS "a"'
    with pytest.raises(SchemaError, match="endpoint without a label"):
        gqlir.emit(gqlir.parse("MATCH (a:A)-[:R]->(b) RETURN a.x AS x", "neo4j"), "sql:sqlite")


def test_bag_comparison_helper_counts_duplicates() -> None:
    assert normalise([(1,), (1,)], False) == Counter({(1,): 2})


def test_strings_compare_exactly_in_mysql_and_are_refused_in_sql_server() -> None:
    """MySQL's and SQL Server's default collations ignore case: MySQL compares under its binary
    NO PAD collation; SQL Server pads every comparison with spaces, so it refuses."""
    query = "MATCH (a:A) WHERE a.s = 'x' OR a.s STARTS WITH 'y' OR a.s IN ['z'] RETURN a.x AS x"
    mysql = _sql(query, "mysql")
    assert mysql.count("COLLATE utf8mb4_0900_bin") == 3
    for refused in (query, "MATCH (a:A) RETURN a.x AS x ORDER BY a.s"):
        with pytest.raises(UnsupportedError) as info:
            _sql(refused, "tsql")
        assert "pads with spaces" in info.value.message
    assert "COLLATE utf8mb4_0900_bin" in _sql("MATCH (a:A) RETURN a.x AS x ORDER BY a.s", "mysql")
    for flavour in ("mysql", "tsql"):
        with pytest.raises(UnsupportedError) as info:
            _sql("MATCH (a:A) RETURN DISTINCT a.s AS s", flavour)
        assert info.value.construct == "DISTINCT over strings"
        assert "COLLATE" not in _sql("MATCH (a:A) WHERE a.x = 1 RETURN a.x AS x", flavour)


@pytest.mark.parametrize(
    ("flavour", "placeholder"),
    [("sqlite", ":p"), ("duckdb", "$p"), ("postgres", "%(p)s"), ("tsql", "@p"), ("mysql", "@p")],
)
def test_parameters_take_the_flavours_own_form(flavour: str, placeholder: str) -> None:
    import sqlglot
    from sqlglot import exp

    sql = _sql("MATCH (a:A) WHERE a.x = $p RETURN a.x AS x", flavour)
    assert placeholder in sql
    back = [
        x for x in sqlglot.parse_one(sql, read=flavour).walk() if isinstance(x, exp.Placeholder)
    ] + [x for x in sqlglot.parse_one(sql, read=flavour).walk() if isinstance(x, exp.Parameter)]
    assert [x.name for x in back] == ["p"]
