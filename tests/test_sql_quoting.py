"""Injection and quoting in SQL and SQL/PGQ: no parameter name, identifier or string value can
change a query's structure. Examples of each class, then properties over random names and
values (``GQLIR_FUZZ_EXAMPLES`` raises their example counts, ``make fuzz``)."""

from __future__ import annotations

import os

import duckdb
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlglot import exp

import gqlir
from gqlir import ir
from gqlir.dialect import all_dialects, get_dialect
from gqlir.errors import ParseError, UnsupportedError
from gqlir.schema import NodeType, Property, SchemaGraph, parse_type
from gqlir.schema.formats.sql import create_table
from gqlir.sqlmapping import SqlMapping

SQL_FLAVOURS = (
    "sql",
    "sql:sqlite",
    "sql:duckdb",
    "sql:postgres",
    "sql:mysql",
    "sql:oracle",
    "sql:tsql",
    "sql:bigquery",
)
PGQ_FORMS = ("sqlpgq", "sqlpgq:oracle", "sqlpgq:postgres", "sqlpgq:duckdb")
MOVIES = os.path.join(os.path.dirname(__file__), "..", "schemas", "movies")


# -- parameter names -----------------------------------------------------------------------------


@pytest.mark.parametrize("target", SQL_FLAVOURS + PGQ_FORMS)
def test_a_parameter_name_the_target_cannot_spell_is_refused(target: str) -> None:
    query = "MATCH (n:Person) WHERE n.name = $`p OR 1 = 1` RETURN n.name AS x"
    with pytest.raises(UnsupportedError) as info:
        gqlir.transpile(query, "neo4j", target, schema=MOVIES)
    assert info.value.construct == "parameter name"
    assert "p OR 1 = 1" in str(info.value)


@pytest.mark.parametrize("target", PGQ_FORMS)
def test_sqlpgq_parameters_read_back_in_each_form(target: str) -> None:
    source = gqlir.parse("USE g MATCH (n:Person) WHERE n.name = $p RETURN n.name AS x", "neo4j")
    text = gqlir.emit(source, target)
    assert gqlir.parse(text, target) == source, text


# -- the SQL/PGQ reader: SQL's lexical rules inside GRAPH_TABLE ----------------------------------


def _where_value(text: str) -> object:
    query = gqlir.parse(
        f"SELECT x FROM GRAPH_TABLE (g MATCH (n IS P) WHERE {text} COLUMNS (n.a AS x))", "sqlpgq"
    )
    return query.steps[1].where  # type: ignore[attr-defined]


def test_sqlpgq_strings_have_no_backslash_escapes() -> None:
    assert _where_value(r"n.a = 'C:\new'").right.value == "C:\\new"
    assert _where_value("n.a = '\\'").right.value == "\\"
    assert _where_value("n.a = 'it''s'").right.value == "it's"


def test_sqlpgq_double_quotes_delimit_names() -> None:
    where = _where_value('"n"."a b" = \'x\' AND n."\\" = n."say ""hi"""')
    assert where.left.left.key == "a b"
    assert where.right.left.key == "\\"
    assert where.right.right.key == 'say "hi"'
    query = gqlir.parse(
        'SELECT x FROM GRAPH_TABLE (g MATCH ("a b" IS P) COLUMNS ("a b".name AS x))', "sqlpgq"
    )
    assert query.steps[1].patterns[0].path.elements[0].variable == "a b"  # type: ignore[attr-defined]


def test_sqlpgq_single_quotes_are_never_names() -> None:
    with pytest.raises(ParseError):
        gqlir.parse("SELECT x FROM GRAPH_TABLE (g MATCH ('n' IS P) COLUMNS (n.a AS x))", "sqlpgq")


def test_a_label_after_a_colon_is_not_a_parameter() -> None:
    query = gqlir.parse(
        "SELECT x FROM GRAPH_TABLE (g MATCH (n:P)-[:R]->(:Q) WHERE n.a = :a COLUMNS (n.a AS x))",
        "sqlpgq:duckdb",
    )
    assert (
        gqlir.emit(query, "neo4j") == "USE g MATCH (n:P)-[:R]->(:Q) WHERE n.a = $a RETURN n.a AS x"
    )


# -- the SQL/PGQ emitter: one quoting rule for every name --------------------------------------


@pytest.mark.parametrize("target", PGQ_FORMS)
def test_a_reserved_word_as_a_name_is_quoted(target: str) -> None:
    source = gqlir.parse(
        "USE g MATCH (`select`:`TRUE`) WHERE `select`.`null` = 1 RETURN `select`.`from` AS `TRUE`",
        "neo4j",
    )
    text = gqlir.emit(source, target)
    assert " AS TRUE" not in text and "IS TRUE" not in text and ".null" not in text.lower()
    assert gqlir.parse(text, target) == source, text


@pytest.mark.parametrize(
    ("target", "bare", "quoted"),
    [
        ("sqlpgq", "ABC", "abc"),
        ("sqlpgq:oracle", "ABC", "Abc"),
        ("sqlpgq:postgres", "abc", "Abc"),
    ],
)
def test_a_name_whose_case_the_flavour_folds_is_quoted(target: str, bare: str, quoted: str) -> None:
    for name, is_quoted in ((bare, False), (quoted, True)):
        source = gqlir.parse(f"USE G MATCH (n:{name}) RETURN n.{name} AS {name}", "neo4j")
        text = gqlir.emit(source, target)
        assert (f'"{name}"' in text) is is_quoted, text
        assert gqlir.parse(text, target) == source, text


# -- properties: random names and values ----------------------------------------------------------

# A tenth of the fuzz count: an example emits to a flavour, reads back and may run an engine.
EXAMPLES = max(1, int(os.environ.get("GQLIR_FUZZ_EXAMPLES", "250")) // 10)
PROPERTY = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
_HOSTILE = [
    "p OR 1 = 1",
    "p)s",
    "p --",
    "select",
    "true",
    "TRUE",
    "null",
    "x$y",
    "1",
    "é",
    "Ab",
    "'",
    '"',
    "`",
    "\\",
    "C:\\new",
    "a''b",
    '""',
    "*/",
    "$x",
    ":x",
    "%(x)s",
    "GRAPH_TABLE",
    "COLUMNS",
    "MATCH",
    "IS",
]
_text = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12)
NAMES = st.sampled_from(_HOSTILE) | _text.filter(bool)
VALUES = st.sampled_from(_HOSTILE + [""]) | _text
GRAPH_DIALECTS = tuple(d.name for d in all_dialects() if d.family != "sql")
#: flavours whose reader takes a string comparison (MySQL's and T-SQL's compare under a collation)
EXACT_STRINGS = ("sql", "sql:sqlite", "sql:duckdb", "sql:postgres", "sql:oracle", "sql:bigquery")
INT, STR = parse_type("INT64"), parse_type("STRING")
ENGINES = ("sql:sqlite", "sql:duckdb")


def _lookup(
    var: str, label: str, key: str, value: ir.Expr, alias: str, graph: str | None
) -> ir.Query:
    """[USE graph] MATCH (var:label) WHERE var.key = value RETURN var.key AS alias"""
    node = ir.NodePattern(var, ir.Label(label))
    prop = ir.Property(ir.Variable(var), key)
    match = ir.Match(
        (ir.PathPattern(ir.PathChain((node,))),), ir.Comparison(ir.CompOp.EQ, prop, value)
    )
    steps: tuple = (match, ir.Projection((ir.ReturnItem(prop, alias),)))
    if graph is not None:
        steps = (ir.UseGraph(graph), *steps)
    return ir.LinearQuery(steps)


def _schema(label: str, key: str, kind: object) -> SchemaGraph:
    return SchemaGraph(name="g", node_types=(NodeType(label, (Property(key, kind),), keys=(key,)),))


def _run(flavour: str, schema: SchemaGraph, rows: list, text: str, parameters: dict) -> list:
    """``text`` run on the flavour's engine over one table holding ``rows``."""
    import sqlite3

    dialect = flavour.partition(":")[2]
    mapping = SqlMapping.from_schema(schema)
    (table,) = mapping.tables.tables
    ((_, column),) = mapping.node(schema.node_types[0].label).columns
    insert = exp.insert(
        exp.Values(expressions=[exp.Tuple(expressions=[exp.Placeholder()])]),
        exp.Table(this=exp.Identifier(this=table.name, quoted=True)),
        columns=[exp.Identifier(this=column, quoted=True)],
    ).sql(dialect=dialect)
    conn = sqlite3.connect(":memory:") if dialect == "sqlite" else duckdb.connect()
    try:
        conn.execute(create_table(table, dialect).sql(dialect=dialect))
        conn.executemany(insert, [(r,) for r in rows])
        return [tuple(r) for r in conn.execute(text, parameters).fetchall()]
    finally:
        conn.close()


@PROPERTY
@given(NAMES, st.sampled_from(SQL_FLAVOURS + PGQ_FORMS))
def test_any_parameter_name_is_refused_or_bound_as_one_parameter(name: str, target: str) -> None:
    schema = _schema("P", "k", INT)
    pgq = target.startswith("sqlpgq")
    source = _lookup("n", "P", "k", ir.Parameter(name), "x", "g" if pgq else None)
    try:
        text = gqlir.emit(source, target, schema=schema)
    except UnsupportedError as exc:
        assert exc.construct == "parameter name", exc
        return
    assert gqlir.parse(text, target, schema=None if pgq else schema) == source, text
    if target in ENGINES:
        assert _run(target, schema, [1, 2, 3], text, {name: 2}) == [(2,)], text


@PROPERTY
@given(NAMES, NAMES, NAMES, VALUES, st.sampled_from(EXACT_STRINGS))
def test_sql_names_and_strings_keep_the_query_structure(
    label: str, key: str, alias: str, value: str, target: str
) -> None:
    schema = _schema(label, key, STR)
    source = _lookup("v", label, key, ir.String(value), alias, None)
    try:
        text = gqlir.emit(source, target, schema=schema)
    except UnsupportedError:
        return
    assert gqlir.parse(text, target, schema=schema) == source, text
    if target in ENGINES:
        assert _run(target, schema, [value, value + "a", value + "b"], text, {}) == [(value,)], text


@PROPERTY
@given(NAMES, NAMES, NAMES, NAMES, NAMES, VALUES, st.sampled_from(PGQ_FORMS))
def test_sqlpgq_names_and_strings_keep_the_query_structure(
    graph: str, var: str, label: str, key: str, alias: str, value: str, target: str
) -> None:
    source = _lookup(var, label, key, ir.String(value), alias, graph)
    try:
        text = gqlir.emit(source, target)
    except UnsupportedError:
        return
    assert gqlir.parse(text, target) == source, text


@PROPERTY
@given(NAMES, st.sampled_from(GRAPH_DIALECTS))
def test_graph_dialects_write_any_parameter_name_as_one_parameter(name: str, target: str) -> None:
    steps: tuple = (ir.Projection((ir.ReturnItem(ir.Parameter(name), "x"),)),)
    needs_graph = get_dialect(target).grammar == "spanner"  # a GoogleSQL query starts with GRAPH
    source = ir.LinearQuery((ir.UseGraph("g"), *steps) if needs_graph else steps)
    try:
        text = gqlir.emit(source, target)
    except UnsupportedError as exc:
        # Kuzu keeps a doubled backtick in a name, so it writes no name holding one
        assert exc.construct in ("parameter name", "name with a quote character"), exc
        return
    assert gqlir.parse(text, target) == source, text
