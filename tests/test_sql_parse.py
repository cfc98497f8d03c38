"""SQL → IR: joins become edges in the stored direction, other joins value joins, SQL's meanings
(null ordering, SUM, LIKE, NOT IN, division) are kept, and refusals name the construct."""

from __future__ import annotations

from pathlib import Path

import pytest

import gqlir
from gqlir import ir
from gqlir.errors import ParseError, SemanticError, UnsupportedError
from gqlir.sqlmapping import SqlMapping, mapping_for

ROOT = Path(__file__).resolve().parent.parent
BOOKSTORE = mapping_for(str(ROOT / "schemas" / "bookstore"))
SOCIAL = mapping_for(str(ROOT / "schemas" / "social"))


def cypher(sql: str, schema: SqlMapping = BOOKSTORE, flavour: str = "sqlite") -> str:
    return gqlir.emit(gqlir.parse(sql, f"sql:{flavour}", schema=schema), "neo4j")


def test_the_bookstore_mapping_comes_from_its_source_ddl() -> None:
    (fk,) = BOOKSTORE.edges("HAS_PUBLISHER")
    assert fk.in_node_table and fk.target_columns == ("publisher_id",)
    assert BOOKSTORE.schema.name == "bookstore"


def test_a_foreign_key_join_is_an_edge_in_the_stored_direction() -> None:
    sql = "SELECT T2.name FROM book AS T1 JOIN publisher AS T2 ON T1.publisher_id = T2.publisher_id"
    assert cypher(sql) == "MATCH (T1:book)-[:HAS_PUBLISHER]->(T2:publisher) RETURN T2.name AS name"
    # the same join written the other way round
    reverse = sql.replace("T1.publisher_id = T2.publisher_id", "T2.publisher_id = T1.publisher_id")
    assert cypher(reverse) == cypher(sql)


def test_an_association_table_is_an_edge_with_properties() -> None:
    out = cypher(
        "SELECT a.name, ba.author_order FROM author a JOIN book_author ba "
        "ON ba.author_id = a.author_id JOIN book b ON b.isbn = ba.isbn WHERE b.price > 10"
    )
    assert out == (
        "MATCH (b:book)-[ba:book_author]->(a:author) WHERE b.price > 10 "
        "RETURN a.name AS name, ba.author_order AS author_order"
    )


def test_a_join_no_edge_explains_is_a_value_join() -> None:
    out = cypher("SELECT c.name FROM customer c JOIN publisher p ON c.city = p.country")
    assert out == (
        "MATCH (c:customer), (p:publisher) WHERE c.city = p.country RETURN c.name AS name"
    )


def test_left_join_is_optional_match() -> None:
    out = cypher(
        "SELECT c.name, count(o.order_id) FROM customer c LEFT JOIN orders o "
        "ON o.customer_id = c.customer_id GROUP BY c.customer_id"
    )
    assert "MATCH (c:customer) OPTIONAL MATCH (c)<-[:HAS_CUSTOMER]-(o:orders)" in out


def test_a_first_right_join_is_a_left_join_with_the_tables_swapped() -> None:
    out = cypher(
        "SELECT c.name FROM orders o RIGHT JOIN customer c ON c.customer_id = o.customer_id"
    )
    assert out.startswith("MATCH (c:customer) OPTIONAL MATCH (c)<-[:HAS_CUSTOMER]-(o:orders)")
    counted = cypher(  # count(*) is no SELECT *: the column order does not depend on the swap
        "SELECT c.name, count(*) FROM orders o RIGHT JOIN customer c "
        "ON c.customer_id = o.customer_id GROUP BY c.customer_id"
    )
    assert counted.startswith("MATCH (c:customer) OPTIONAL MATCH")


def test_a_scalar_subquery_that_fixes_a_key_reads_its_one_row() -> None:
    out = cypher(
        "SELECT title, (SELECT name FROM publisher p WHERE p.publisher_id = b.publisher_id) "
        "AS publisher FROM book b"
    )
    assert "CALL" not in out and "max(" not in out
    assert "RETURN b.title AS title, publisher.name AS publisher" in out


def test_a_left_join_with_more_conditions_keeps_them() -> None:
    out = cypher(
        "SELECT c.name FROM customer c LEFT JOIN orders o "
        "ON o.customer_id = c.customer_id AND o.order_id < 5"
    )
    assert "OPTIONAL MATCH (c)<-[:HAS_CUSTOMER]-(o:orders) WHERE o.order_id < 5" in out


def test_a_self_join_of_an_edge_table_repeats_edges() -> None:
    """SQL may join an edge row with itself; one MATCH would keep its edges distinct."""
    out = cypher("SELECT count(*) FROM book_author a JOIN book_author b ON a.isbn = b.isbn")
    assert out.count("MATCH") == 2


def test_a_foreign_key_value_is_read_through_the_edge() -> None:
    out = cypher("SELECT title FROM book WHERE publisher_id = 3")
    assert "(book:book)-[:HAS_PUBLISHER]->(publisher:publisher)" in out
    assert "publisher.publisher_id = 3" in out


def test_a_nullable_foreign_key_value_is_an_optional_match() -> None:
    mapping = SqlMapping.from_tables(
        _tables(
            "CREATE TABLE city (id INTEGER PRIMARY KEY, name TEXT);"
            "CREATE TABLE person (id INTEGER PRIMARY KEY, city_id INTEGER REFERENCES city (id))"
        )
    )
    out = cypher("SELECT id, city_id FROM person", mapping)
    assert "OPTIONAL MATCH (person)-[:HAS_CITY]->(city:city)" in out


def _tables(ddl: str):  # type: ignore[no-untyped-def]
    from gqlir.schema.formats.sql import parse_tables

    return parse_tables(ddl, "sqlite")


def test_graph_folder_without_source_ddl_uses_gqlirs_layout() -> None:
    out = cypher(
        "SELECT T2.name FROM Person AS T1 JOIN City AS T2 ON T1.is_located_in_id = T2.id",
        SOCIAL,
    )
    assert out.startswith("MATCH (T1:Person)-[:IS_LOCATED_IN]->(T2:City)")


def test_sqlite_null_ordering_is_kept() -> None:
    # SQLite sorts nulls first ascending; Cypher last: the IR says so with a leading key
    out = cypher("SELECT name FROM author ORDER BY birth_year")
    assert out.endswith("ORDER BY author.birth_year IS NULL DESC, author.birth_year")
    # a key that cannot be null needs nothing
    assert cypher("SELECT name FROM author ORDER BY author_id").endswith(
        "ORDER BY author.author_id"
    )
    # PostgreSQL sorts nulls as Cypher does
    assert cypher("SELECT name FROM author ORDER BY birth_year", flavour="postgres").endswith(
        "ORDER BY author.birth_year"
    )


def test_sum_of_no_values_is_null() -> None:
    q = gqlir.parse("SELECT sum(price) FROM book", "sql:sqlite", schema=BOOKSTORE)
    item = q.steps[-1].items[0].expr  # type: ignore[attr-defined]
    assert isinstance(item, ir.Case) and isinstance(item.default, ir.Aggregate)


def test_like_becomes_the_string_predicate_it_means() -> None:
    assert "toLower(author.name) STARTS WITH 'a'" in cypher(
        "SELECT name FROM author WHERE name LIKE 'A%'"
    )
    # PostgreSQL's LIKE is case-sensitive
    assert "author.name ENDS WITH 'n'" in cypher(
        "SELECT name FROM author WHERE name LIKE '%n'", flavour="postgres"
    )
    assert "=~ '(?s)J.n.*'" in cypher(
        "SELECT name FROM author WHERE name LIKE 'J_n%'", flavour="postgres"
    )


def test_not_in_keeps_sqls_null_rule() -> None:
    """x NOT IN (subquery) is not true when the subquery yields a null."""
    mapping = SqlMapping.from_tables(
        _tables(
            "CREATE TABLE a (id INTEGER PRIMARY KEY, v INTEGER);"
            "CREATE TABLE b (id INTEGER PRIMARY KEY, v INTEGER)"
        )
    )
    out = cypher("SELECT id FROM a WHERE v NOT IN (SELECT v FROM b)", mapping)
    assert "NOT EXISTS {" in out and ".v IS NULL }" in out and "a.v IS NOT NULL" in out


def test_division_keeps_the_flavours_meaning() -> None:
    # SQLite: integer division, null on a zero divisor; DuckDB: always a float division
    lite = cypher("SELECT author_id / birth_year FROM author")
    assert "CASE WHEN author.birth_year = 0 THEN null" in lite
    duck = cypher("SELECT author_id / 2 FROM author", flavour="duckdb")
    assert "toFloat(author.author_id) / 2" in duck


def test_recursive_cte_is_a_variable_length_path() -> None:
    out = cypher(
        "WITH RECURSIVE thread(id) AS (SELECT id FROM Comment WHERE id = 1 UNION "
        "SELECT R.src_id FROM REPLY_OF_Comment_Comment AS R JOIN thread AS T ON R.dst_id = T.id) "
        "SELECT count(*) FROM thread",
        SOCIAL,
    )
    assert "shortestPath((comment)<-[:REPLY_OF*0..]-(reached:Comment))" in out


@pytest.mark.parametrize(
    ("sql", "construct"),
    [
        ("SELECT title, rank() OVER (ORDER BY price) FROM book", "window function"),
        ("SELECT name FROM customer NATURAL JOIN orders", "NATURAL JOIN"),
        (
            "SELECT name, city FROM customer GROUP BY city",
            "column that is neither grouped nor aggregated",
        ),
        (
            # the price is no key: several books may have it
            "SELECT title, (SELECT x.title FROM book x WHERE x.price = b.price) FROM book b",
            "scalar subquery without an aggregate",
        ),
        (
            "SELECT * FROM orders o RIGHT JOIN customer c ON c.customer_id = o.customer_id",
            "RIGHT JOIN with SELECT *",
        ),
        (
            "SELECT c.name FROM book b JOIN publisher p ON b.publisher_id = p.publisher_id "
            "RIGHT JOIN customer c ON c.name = p.name",
            "RIGHT JOIN",
        ),
        (
            "SELECT name FROM customer WHERE (customer_id IN (SELECT customer_id FROM orders)) = 1",
            "IN subquery outside a condition",
        ),
        (
            "SELECT title FROM book WHERE title LIKE isbn",
            "LIKE with a pattern that is not a literal",
        ),
        ("SELECT group_concat(name) FROM author", "aggregate GROUP_CONCAT"),
        ("SELECT strftime('%Y', order_date) FROM orders", "function STRFTIME"),
        ("SELECT name FROM author LIMIT 1 + 1", "LIMIT that is not an integer literal"),
    ],
)
def test_refusals_name_the_construct(sql: str, construct: str) -> None:
    with pytest.raises(UnsupportedError) as info:
        gqlir.parse(sql, "sql:sqlite", schema=BOOKSTORE)
    assert info.value.construct == construct
    assert info.value.text == sql


def test_mysql_string_comparison_depends_on_a_collation() -> None:
    with pytest.raises(UnsupportedError) as info:
        gqlir.parse("SELECT name FROM author WHERE name = 'x'", "sql:mysql", schema=BOOKSTORE)
    assert info.value.construct == "string comparison under a collation"


def test_names_are_checked() -> None:
    with pytest.raises(SemanticError):
        gqlir.parse("SELECT nope FROM author", "sql:sqlite", schema=BOOKSTORE)
    with pytest.raises(SemanticError):
        gqlir.parse("SELECT name FROM nope", "sql:sqlite", schema=BOOKSTORE)
    with pytest.raises(SemanticError):
        gqlir.parse("SELECT name FROM author a, customer c", "sql:sqlite", schema=BOOKSTORE)


def test_syntax_errors_have_positions() -> None:
    with pytest.raises(ParseError) as info:
        gqlir.parse("SELECT name FROM author WHERE (", "sql:sqlite", schema=BOOKSTORE)
    assert info.value.line == 1 and info.value.column is not None


def test_transpile_passes_the_schema() -> None:
    out = gqlir.transpile(
        "SELECT count(*) FROM book", "sql:sqlite", "iso-gql", schema=str(ROOT / "schemas/bookstore")
    )
    assert out == "MATCH (book:book) RETURN COUNT(*) AS `count(*)`"


def test_sql_to_sql_round_trip_recovers_sql_forms() -> None:
    """The SQL emitter reads the SQL front end's spellings back: SUM stays SUM, a leading IS
    NULL sort key is NULLS FIRST again."""
    q = gqlir.parse(
        "SELECT publisher_id, sum(price) FROM book GROUP BY publisher_id ORDER BY sum(price)",
        "sql:sqlite",
        schema=BOOKSTORE,
    )
    out = gqlir.emit(q, "sql:postgres", schema=BOOKSTORE)
    assert "SUM(" in out and "COALESCE" not in out and "NULLS FIRST" in out
