"""SQL/PGQ: the tables (SQL DDL through sqlglot) plus ``CREATE PROPERTY GRAPH … VERTEX TABLES …
EDGE TABLES …`` (ISO/IEC 9075-16:2023).

Variants: ``sqlpgq`` (the standard, tables in sqlglot's dialect-neutral SQL), ``sqlpgq:oracle``
(Oracle 23ai/26ai), ``sqlpgq:duckdb`` (DuckPGQ: element tables without KEY clauses, which it
does not document; keys come from the tables' primary keys) and ``sqlpgq:postgres``
(PostgreSQL's SQL/PGQ). The statement grammar and its sources are in :mod:`._pgq`; the table
layout is :mod:`gqlir.schema.relational`'s.
"""

from __future__ import annotations

from ...errors import SchemaError
from ..model import SchemaGraph
from ..relational import to_relational
from . import _pgq, sql
from ._ddl import quote_ident

_TABLE_DIALECT = {None: "", "oracle": "oracle", "duckdb": "duckdb", "postgres": "postgres"}


def _style(variant: str | None) -> _pgq.Style:
    return _pgq.Style(
        quote=_quote,
        vertex_keyword="VERTEX",
        vertex_keys=variant != "duckdb",
        edge_keys=variant != "duckdb",
    )


# Quote every name: SQL engines fold unquoted names to one case.
class _Always(frozenset):
    def __contains__(self, item: object) -> bool:
        return True


_ALWAYS = _Always()


def _quote(name: str) -> str:
    return quote_ident(name, '"', _ALWAYS)


def write(schema: SchemaGraph, variant: str | None) -> str:
    dialect = _TABLE_DIALECT[variant]
    rel, mapping = to_relational(schema)
    statements = sql.tables_sql(rel, dialect)
    pg = _pgq.from_mapping(schema.name or "graph", schema, mapping)
    statements.append(_pgq.render(pg, _style(variant)))
    return "".join(s + ";\n\n" for s in statements).rstrip("\n") + "\n"


def read(text: str, variant: str | None, *, name: str = "") -> SchemaGraph:
    spans = _pgq.find_graph_statements(text)
    if not spans:
        raise SchemaError("SQL/PGQ: no CREATE PROPERTY GRAPH statement", code="SCHEMA_SYNTAX")
    if len(spans) > 1:
        start = spans[1][0]
        raise SchemaError(
            "SQL/PGQ: only one CREATE PROPERTY GRAPH statement is read",
            text=text,
            offset=start,
            code="SCHEMA_SYNTAX",
        )
    start, end = spans[0]
    graph = _pgq.parse_graph(text, start)
    tables_text = text[:start] + " " * (end - start) + text[end:]
    rel = sql.parse_tables(tables_text, _TABLE_DIALECT[variant])
    return _pgq.to_schema(rel, graph)
