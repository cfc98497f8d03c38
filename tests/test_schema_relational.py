"""The relational mapping: graph -> tables -> graph, and relational databases -> graphs."""

from __future__ import annotations

import json
import os
from typing import Any

import pytest

from gqlir.schema import SchemaGraph, load_schema
from gqlir.schema.formats import read, write
from gqlir.schema.relational import to_graph, to_relational

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "schemas")
EXAMPLES = sorted(
    d for d in os.listdir(ROOT) if os.path.exists(os.path.join(ROOT, d, "schema.json"))
)


def test_layout_of_the_library() -> None:
    schema = load_schema(os.path.join(HERE, "golden", "schema", "source.json"))
    rel, mapping = to_relational(schema)
    member = rel.table("Member")
    assert member is not None and member.primary_key == ("id",)
    # an n:1 edge without properties is a foreign key of the source's table
    assert ("home_branch_city", "home_branch_number") in [fk.columns for fk in member.foreign_keys]
    assert [e.in_node_table for e in mapping.edge_tables("HOME_BRANCH")] == [True]
    # several endpoint pairs: one table per pair
    assert sorted(e.table for e in mapping.edge_tables("INTERESTED_IN")) == [
        "INTERESTED_IN_Member_Book",
        "INTERESTED_IN_Member_Tag",
    ]
    borrowed = rel.table("BORROWED")
    assert borrowed is not None and borrowed.primary_key == ("src_id", "dst_isbn", "since")
    tag = mapping.node("Tag")
    assert tag is not None and tag.surrogate_key and tag.key_columns == ("id",)


@pytest.mark.parametrize("name", EXAMPLES)
def test_examples_survive_the_tables(name: str) -> None:
    schema = load_schema(os.path.join(ROOT, name, "schema.json"))
    rel, _ = to_relational(schema)
    back, _ = to_graph(rel, name=schema.name)
    # what tables keep: everything but descriptions, units, categorical flags and the
    # annotations tables cannot hold (see the report of the sql format)
    report = write(schema, "sql:postgres", lossy=True).report
    kept_aspects = {
        "type",
        "required",
        "unique",
        "indexed",
        "keys",
        "endpoints",
        "property",
        "node type",
        "edge type",
    }
    assert not [c for c in report.lost if c.aspect in kept_aspects], report.lines()
    assert {n.label for n in back.node_types} == set(schema.node_labels)
    assert {e.label for e in back.edge_types} == set(schema.edge_labels)


def _without_wording(schema: SchemaGraph) -> SchemaGraph:
    """``schema`` without its wording annotations (``phrase``, ``inverse``, ``plural``)."""
    wording = {"phrase", "inverse", "plural"}

    def strip(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k not in wording}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value

    return SchemaGraph.from_dict(strip(json.loads(schema.to_json())))


def test_bookstore_is_derived_from_its_relational_source() -> None:
    with open(os.path.join(ROOT, "bookstore", "source.sql"), encoding="utf-8") as fh:
        derived = read(fh.read(), "sql:sqlite", name="bookstore")
    committed = load_schema(os.path.join(ROOT, "bookstore", "schema.json"))
    # the committed schema adds a description, and wording annotations for questions
    assert derived == _without_wording(committed.replace(description=None))
    book = derived.node("book")
    assert book is not None and "publisher_id" not in book.property_names  # became an edge
    has_pub = derived.edge("HAS_PUBLISHER")
    assert (
        has_pub is not None
        and has_pub.cardinality is not None
        and has_pub.cardinality.value == "n:1"
    )
    assert (
        has_pub.source_participation is not None and has_pub.source_participation.value == "total"
    )
    order_line = derived.edge("order_line")
    assert order_line is not None and [p.name for p in order_line.properties] == ["quantity"]
    # back to SQL: unchanged in PostgreSQL; SQLite stores the exact decimal as a float
    assert not write(derived, "sql:postgres").report
    assert write(derived, "sql:sqlite", lossy=True).report.lines() == [
        "node book.price: type DECIMAL(8,2) -> FLOAT64"
    ]


def test_foreign_keys_of_a_plain_database() -> None:
    ddl = """
    CREATE TABLE dept (id INT PRIMARY KEY, name TEXT);
    CREATE TABLE emp (id INT PRIMARY KEY, name TEXT NOT NULL, dept_id INT REFERENCES dept (id),
                      manager_id INT REFERENCES emp (id), badge TEXT UNIQUE);
    CREATE TABLE project (code TEXT PRIMARY KEY);
    CREATE TABLE works_on (emp_id INT REFERENCES emp (id),
                           project_code TEXT REFERENCES project (code),
                           hours INT, PRIMARY KEY (emp_id, project_code));
    """
    g = read(ddl, "sql:postgres", name="hr")
    assert set(g.node_labels) == {"dept", "emp", "project"}
    assert g.edge("HAS_DEPT") is not None and g.edge("MANAGER") is not None
    manager = g.edge("MANAGER")
    assert manager is not None and str(manager.endpoints[0]) == "(emp)->(emp)"
    works = g.edge("works_on")
    assert works is not None and [p.name for p in works.properties] == ["hours"]
    emp = g.node("emp")
    assert emp is not None and emp.prop("badge").unique  # type: ignore[union-attr]
