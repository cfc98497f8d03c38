"""What to do about each refused construct: a rewrite the user can apply, or why none exists.

Keyed by refusal id (docs/refusals.md, :func:`gqlir.errors.refusal_id`). A value is one text or
a mapping from a target to its text, where a target is a dialect name (``kuzu``), a family
prefix of SQL flavours (``sql`` for ``sql:duckdb`` …) or ``*`` for any other. A refusal raised
without a rewrite of its own takes the rewrite here (``UnsupportedError.rewrite``); the
catalogue prints the rewrite or, where none keeps the meaning, the reason (``why_none``).

A rewrite here keeps the query's meaning on every input; one that holds only under a condition
says so. This module holds data only (gqlir.errors reads it, so it imports nothing of gqlir).
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["REWRITES", "WHY_NONE", "rewrite_for", "why_none"]

Note = str | Mapping[str, str]

_READ_ONLY_SQL = (
    "gqlir's SQL output only reads (a graph change has no single mapping to the tables' "
    "INSERT, UPDATE and DELETE); run the change as SQL DML on the tables"
)
_READ_ONLY_SPANNER = (
    "Spanner Graph queries only read: its nodes and edges are rows of tables, changed with "
    "SQL DML (INSERT, UPDATE, DELETE) on those tables, not with GQL"
)
_KUZU_TEMPORAL = (
    "kuzu's temporal types are DATE, TIMESTAMP (no time zone) and INTERVAL: it has no zoned "
    "datetime, no time of day and no truncation to Cypher's units"
)
_KUZU_COMPOSITES = (
    "Kuzu compares the nulls inside two lists or maps as equal (Cypher: null), and no Kuzu "
    "expression tells such a value's nulls apart at every depth; a property the graph's schema "
    "types as a scalar is compared as it is (give the schema: --schema)"
)
_FALKOR_TEMPORAL = (
    "FalkorDB's temporal types are Date, LocalDateTime, LocalTime and Duration with whole "
    "seconds: no zoned datetime or time, no truncation functions"
)
_SPANNER_TEMPORAL = (
    "not yet: GoogleSQL's DATE, TIMESTAMP and INTERVAL functions may express some of these "
    "values; gqlir's Spanner writer does not write them yet"
)
_LIST_PREDICATE = (
    "count with a comprehension: any() is size([x IN l WHERE p]) > 0, all() is "
    "size([x IN l WHERE NOT p]) = 0, none() is size([x IN l WHERE p]) = 0, single() is "
    "size([x IN l WHERE p]) = 1 (the same where p is never null); gqlir writes them so itself "
    "unless p or l calls rand()"
)

#: id -> the rewrite a user can apply (for the targets named, or all).
REWRITES: dict[str, Note] = {
    "all-list-predicate": _LIST_PREDICATE,
    "any-list-predicate": _LIST_PREDICATE,
    "none-list-predicate": _LIST_PREDICATE,
    "single-list-predicate": _LIST_PREDICATE,
    "anonymous-relationship-under-a-projection": (
        "name the relationship (-[r]->) and list the columns * stood for, without it"
    ),
    "exists-subquery": {
        "falkordb": "in a WHERE, match the pattern first (OPTIONAL MATCH … WITH a, count(b) AS n "
        "WHERE n > 0, where each a has one row): FalkorDB resolves neither an EXISTS subquery nor a pattern comprehension "
        "there (gqlir writes an EXISTS of one pattern without WHERE under AND, OR and NOT as a "
        "pattern predicate, and one of at most one relationship elsewhere as "
        "size([… | 1]) > 0 itself)",
        "*": "count the matches with a pattern comprehension: "
        "size([(a)-[:T]->(b) WHERE b.x > 2 | 1]) > 0 (gqlir writes an EXISTS of one pattern "
        "without WHERE as a pattern predicate, and of at most one relationship outside a WHERE "
        "as that count, itself)",
    },
    "function:head": {
        "kuzu": "where the list is never empty, l[0] (Kuzu's list_extract raises on an empty "
        "list, also in a CASE branch that is not taken, where head([]) is null)",
        "*": "l[0] (null for an empty or null list, as head())",
    },
    "function:tail": {
        "kuzu": "in the Kuzu text, l[2:size(l)] (1-based, end inclusive: [] for [] and [x], "
        "null for null; observed with kuzu 0.11.3)",
    },
    "function:labels": {
        "kuzu": "in the Kuzu text, [label(n)] for a node that is not null (a Kuzu node has one "
        "label, its table; label(n) gives it as a string, observed with kuzu 0.11.3)",
    },
    "function:type": "name the types the relationship can have in its pattern (all of the "
    "schema's types keep the meaning), -[r:T1|T2]->: gqlir then writes type(r) as a label test",
    "function:toboolean": "for a string, CASE toLower(s) WHEN 'true' THEN true WHEN 'false' "
    "THEN false END (gqlir drops toBoolean() of a value known to be a boolean itself)",
    "function:btrim": {
        "spanner": "in the Spanner text, TRIM(s, chars) with the whitespace characters to "
        "remove (GoogleSQL's TRIM takes a set of characters)",
    },
    "in-over-a-list-that-is-not-a-literal": "write the list as a literal: x IN [1, 2, 3], or "
    "pass its items as parameters: x IN [$a, $b]",
    "list-comprehension": {
        "kuzu": "in the Kuzu text, list_transform(list_filter(l, x -> p), x -> e) (observed "
        "with kuzu 0.11.3: an item whose condition is null is dropped, a null list gives null, "
        "the lambda reads outer variables, as the comprehension does)",
        "*": "UNWIND the list, filter with WHERE and collect() the projection (collect() drops "
        "nulls)",
    },
    "collect-of-lists": "pass the schema (--schema, schema=) so the collected property's type "
    "is known not to be a list",
    "on-values-not-known-to-be-numbers": "pass the schema (--schema, schema=) so the "
    "properties' types are known",
    "on-values-not-known-to-be-numbers-or-strings": "pass the schema (--schema, schema=) so the "
    "properties' types are known",
    "order-by-after-an-alias-that-shadows-a-variable": "project the columns in a WITH first, "
    "then ORDER BY them: WITH x AS y ORDER BY y RETURN y",
    "pattern-comprehension": "MATCH the pattern with OPTIONAL MATCH and collect() the "
    "projection, grouped by the other columns (rows equal in them are merged)",
    "query-without-return": "end the query with RETURN of the columns you need",
    "remove": {"kuzu": "REMOVE n.p is SET n.p = NULL (a label cannot be removed)"},
    "relationship-variable-bound-before-the-match": "match a new variable and compare: MATCH "
    "(a1)-[r2:Y]->(b2) WHERE r2 = r",
    "list-subscript": {
        "kuzu": "in the Kuzu text, l[i + 1] where i is known to be in range and not negative "
        "(Kuzu counts from 1, raises out of range; Cypher counts a negative i from the end)",
    },
    "unwind-of-a-list-that-is-not-a-literal": "write the list as a literal of constants or "
    "parameters: UNWIND [1, 2] AS x",
    "unwind-of-a-value-not-known-to-be-a-list": "UNWIND a list: UNWIND [x] AS y for a value "
    "known not to be a list (UNWIND [] for null)",
    "variable-length-relationship-with-a-condition": "for a bounded quantifier, write each "
    "length as a fixed pattern with the condition on every relationship, joined with UNION ALL",
}

#: id -> why no rewrite keeps the meaning (for the targets named, or all).
WHY_NONE: dict[str, Note] = {
    "list-equality": {
        "kuzu": _KUZU_COMPOSITES,
    },
    "list-order": {"kuzu": _KUZU_COMPOSITES},
    "in-with-a-list-value": {"kuzu": _KUZU_COMPOSITES},
    "quantifier-bound-over-the-maximum": "the engine stops every variable-length pattern at "
    "its maximum (TuGraph-DB: 128 relationships), so no pattern it runs finds the longer paths",
    "collect": "sqlite has no list values (its JSON arrays are text); DuckDB and PostgreSQL "
    "have them",
    "comparison-of-different-types": "GQL raises an error comparing values of different types "
    "where Cypher answers false, and the types are known only when the query runs",
    "create-insert": {"spanner": _READ_ONLY_SPANNER, "*": _READ_ONLY_SQL},
    "insert": _READ_ONLY_SPANNER,
    "delete": {"spanner": _READ_ONLY_SPANNER, "*": _READ_ONLY_SQL},
    "detach-delete": {"spanner": _READ_ONLY_SPANNER, "*": _READ_ONLY_SQL},
    "set": {"spanner": _READ_ONLY_SPANNER, "*": _READ_ONLY_SQL},
    "merge": {"spanner": _READ_ONLY_SPANNER, "sql": _READ_ONLY_SQL},
    "remove": {"spanner": _READ_ONLY_SPANNER, "sql": _READ_ONLY_SQL},
    "different-relationships": {
        "kuzu": "kuzu keeps a MATCH's edges distinct only with is_trail(p), and over a path "
        "with variable-length relationships is_trail(p) gives other rows than Cypher (observed "
        "with kuzu 0.11.3 on the graph of tests/test_kuzu_facts.py: the same number of rows, "
        "other end nodes)",
        "falkordb": "FalkorDB lets edges repeat within a MATCH, and with variable-length "
        "relationships it finds other paths than Cypher (observed on the graph of "
        "tests/test_falkordb_facts.py: for p = (a)-[:R]->(b)-[:R*1..2]->(c), relationships(p) "
        "lists edges 0, 0, 1 and never 2, 0, 1, a Cypher path), "
        "so no test on the path keeps Cypher's rows",
    },
    "set-labels": "a kuzu node's label is its table, fixed when the node is created",
    "float-division-by-zero": "GQL has no NaN or infinity: a division by zero raises an "
    "exception where Cypher gives NaN or Infinity",
    "fraction-of-a-second": "FalkorDB's temporal values have whole seconds",
    "function:date": {"spanner": _SPANNER_TEMPORAL},
    "function:datetime": {
        "kuzu": _KUZU_TEMPORAL,
        "falkordb": _FALKOR_TEMPORAL,
        "spanner": _SPANNER_TEMPORAL,
    },
    "function:datetime.truncate": {
        "kuzu": _KUZU_TEMPORAL,
        "falkordb": _FALKOR_TEMPORAL,
        "spanner": _SPANNER_TEMPORAL,
    },
    "function:localdatetime": {
        "kuzu": "kuzu has no local date-time function with Cypher's arguments (a map, a string "
        "with nanoseconds): TIMESTAMP has microseconds and reads only its own string form",
        "spanner": _SPANNER_TEMPORAL,
    },
    "function:localdatetime.truncate": {
        "kuzu": _KUZU_TEMPORAL,
        "falkordb": _FALKOR_TEMPORAL,
        "spanner": _SPANNER_TEMPORAL,
    },
    "function:localtime": {"kuzu": _KUZU_TEMPORAL, "spanner": _SPANNER_TEMPORAL},
    "function:localtime.truncate": {"kuzu": _KUZU_TEMPORAL, "spanner": _SPANNER_TEMPORAL},
    "function:time": {
        "kuzu": _KUZU_TEMPORAL,
        "falkordb": _FALKOR_TEMPORAL,
        "spanner": _SPANNER_TEMPORAL,
    },
    "function:time.truncate": {"kuzu": _KUZU_TEMPORAL, "spanner": _SPANNER_TEMPORAL},
    "function:duration": {
        "kuzu": "kuzu's INTERVAL has no constructor from Cypher's duration map (weeks, "
        "quarters, fractional units)",
        "spanner": _SPANNER_TEMPORAL,
    },
    "function:head": "no function gives a list's first item here",
    "function:tail": "GQL has no list slicing and no tail function",
    "function:keys": {
        "spanner": "Spanner's PROPERTY_NAMES lists the properties an element's labels declare; "
        "that it leaves out those without a value, as keys() does, is not verified",
        "*": "no function lists the property names of a node, relationship or map here",
    },
    "function:labels": "GQL has no function listing an element's labels (a label is tested "
    "with IS LABELED)",
    "function:nodes": "the inner nodes of a variable-length path have no variable in GQL and "
    "no GQL function lists a path's nodes",
    "function:type": "no function gives a relationship's type here",
    "function:range": "no function builds a list of integers from bounds known only when the "
    "query runs (gqlir writes a range of constant bounds out as a list itself)",
    "function:toboolean": "CAST to a boolean raises on a string that is not a boolean where "
    "toBoolean() gives null",
    "function:tointeger": "CAST to an integer raises (or rounds) where toInteger() gives null "
    "(or truncates); gqlir drops toInteger() of a value known to be an integer itself",
    "function:tostring": "each engine writes floats, booleans and temporal values as strings "
    "in its own form; gqlir drops toString() of a known string itself, and writes it as CAST "
    "for a known integer in GQL",
    "function:btrim": "no function removes Cypher's whitespace set here",
    "in-over-a-list-that-is-not-a-literal": "gqlir's SQL writer tests membership only in a "
    "list it can write out",
    "in-with-a-list-item": "GoogleSQL cannot compare arrays with =, so an array item of a list "
    "cannot be tested for membership",
    "index": "gqlir's SQL writer has no list subscript (a gap in the writer; DuckDB and "
    "PostgreSQL have list values, SQLite none)",
    "list-literal": "gqlir's SQL writer has no list values (a gap in the writer; DuckDB and "
    "PostgreSQL have them, SQLite has none)",
    "map-literal": "gqlir's SQL writer has no map values (DuckDB has STRUCT and MAP, PostgreSQL "
    "JSON, SQLite none)",
    "list-of-lists": "a Spanner array cannot hold arrays",
    "list-of-mixed-types": "a Spanner array has one element type: 1 and 2.0 in one array would "
    "both become floats",
    "unwind-of-a-list-of-values-of-different-types": "a SQL column has one type: 1 and 2.0 in "
    "one column would both become floats",
    "unwind-of-a-list-of-row-values-or-nested-lists": "UNWIND becomes rows of a VALUES list, "
    "which holds constants and parameters, not values read from the current row or nested "
    "lists",
    "ordering-values-of-different-types": "Cypher orders values of different types by a "
    "fixed type order; GQL cannot compare them (sort by one type: convert the values first)",
    "max-of-values-of-different-types": "Cypher orders values of different types by a fixed "
    "type order; GQL cannot compare them",
    "min-of-values-of-different-types": "Cypher orders values of different types by a fixed "
    "type order; GQL cannot compare them",
    "max-of-values-of-unknown-type": "SQLite orders values of different storage classes by its "
    "own rule, not Cypher's, and the values' type is not known",
    "min-of-values-of-unknown-type": "SQLite orders values of different storage classes by its "
    "own rule, not Cypher's, and the values' type is not known",
    "multiple-labels": "each TuGraph vertex has exactly one label (the first is kept, the "
    "others dropped)",
    "variable-length-relationship-bound-earlier": "a GQL group variable cannot be bound before "
    "its MATCH, so matching the relationships of a given list has no GQL form",
    "path-variable-in-optional-match": "the length of a path that may not match is not carried "
    "through the LEFT JOIN gqlir writes for OPTIONAL MATCH",
    "pattern-reading-a-list-comprehension-s-variable": "FalkorDB evaluates a pattern inside a "
    "list comprehension without the comprehension's variable",
    "procedure-call": "SQL has no Cypher procedures",
    "property-of-a-non-element": "the value is not a node or relationship: a number's property "
    "is an error in Cypher when the query runs, and GQL has no map values",
    "property-of-a-value-that-is-not-an-element": "the value is not a node or relationship: "
    "gqlir's SQL writer has no map values, and a number's property is an error in Cypher",
    "temporal-accessor": "no syntax reads a component (.year) of a temporal value here",
    "undirected-variable-length-relationship": "FalkorDB finds other paths than Cypher for an "
    "undirected variable-length relationship; one query per direction misses paths that "
    "change direction",
    "variable-length-relationship-with-a-condition": "an unbounded quantifier cannot be written "
    "as fixed patterns",
}


def _pick(note: Note | None, dialect: str) -> str | None:
    if note is None or isinstance(note, str):
        return note
    family = dialect.split(":", 1)[0]
    for key in (dialect, family, "*"):
        if key in note:
            return note[key]
    return None


def rewrite_for(refusal: str, dialect: str) -> str | None:
    """The rewrite a user can apply for refusal id ``refusal`` in ``dialect``, if there is one."""
    return _pick(REWRITES.get(refusal), dialect)


def why_none(refusal: str, dialect: str) -> str | None:
    """Why no rewrite keeps the meaning of ``refusal`` in ``dialect``, where that is known."""
    return _pick(WHY_NONE.get(refusal), dialect)
