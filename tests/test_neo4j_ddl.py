"""Neo4j DDL as Neo4j documents it (corpus/neo4j, corpus/neo4j4): every valid query is read,
every documented invalid form is refused with a position, parse → emit → parse is the identity
in the same dialect, and Neo4j 4 text is written as Neo4j 5 where Neo4j 5 can state it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import gqlir
from gqlir import ir
from gqlir.errors import GqlirError, ParseError, UnsupportedError

ROOT = Path(__file__).resolve().parent.parent / "corpus"


def _load(dialect: str) -> list[dict]:
    with (ROOT / dialect / "ddl.jsonl").open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


CORPUS = {d: _load(d) for d in ("neo4j", "neo4j4")}
CASES = [(d, e) for d, entries in CORPUS.items() for e in entries]
VALID = [(d, e["query"]) for d, e in CASES if e["valid"]]
INVALID = [(d, e["query"]) for d, e in CASES if not e["valid"]]


def test_the_corpora_are_large_and_cite_the_manual() -> None:
    assert len(CORPUS["neo4j"]) >= 150
    assert sum(e["valid"] for e in CORPUS["neo4j"]) >= 150
    for _, entry in CASES:
        assert entry["source"].startswith("https://"), entry
        assert isinstance(entry["valid"], bool)
    for entries in CORPUS.values():
        queries = [e["query"] for e in entries]
        assert len(set(queries)) == len(queries)


@pytest.mark.parametrize(("dialect", "query"), VALID)
def test_valid_queries_are_read_and_round_trip(dialect: str, query: str) -> None:
    result = gqlir.validate(query, dialect)
    assert result.valid, result.error
    tree = gqlir.parse(query, dialect)
    assert gqlir.parse(gqlir.emit(tree, dialect), dialect) == tree


@pytest.mark.parametrize(("dialect", "query"), INVALID)
def test_invalid_queries_are_refused_with_a_position(dialect: str, query: str) -> None:
    result = gqlir.validate(query, dialect)
    assert not result.valid
    error = result.error
    assert error is not None and error.line is not None and error.column is not None
    assert 1 <= error.column <= len(query) + 1


@pytest.mark.parametrize(
    "query",
    [e["query"] for e in CORPUS["neo4j"] if not e["valid"] and "removed in 5.0" in e["note"]],
)
def test_neo4j_5_names_neo4j4_for_removed_syntax(query: str) -> None:
    with pytest.raises(ParseError) as info:
        gqlir.parse(query, "neo4j")
    assert info.value.code == "PARSE_OTHER_DIALECT" and "neo4j4" in str(info.value)
    assert gqlir.validate(query, "neo4j4").valid


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            "CREATE CONSTRAINT ON (n:City) ASSERT n.id IS UNIQUE",
            "CREATE CONSTRAINT FOR (c:City) REQUIRE c.id IS NODE UNIQUE",
        ),
        (
            "CREATE CONSTRAINT k ON (n:P) ASSERT (n.a, n.b) IS NODE KEY",
            "CREATE CONSTRAINT k FOR (p:P) REQUIRE (p.a, p.b) IS KEY",
        ),
        (
            "CREATE CONSTRAINT ON (n:P) ASSERT exists(n.a)",
            "CREATE CONSTRAINT FOR (n:P) REQUIRE n.a IS NOT NULL",
        ),
        (
            "CREATE CONSTRAINT ON ()-[r:LIKED]-() ASSERT exists(r.day)",
            "CREATE CONSTRAINT FOR ()-[x:LIKED]->() REQUIRE x.day IS NOT NULL",
        ),
        ("CREATE INDEX ON :Country(name)", "CREATE INDEX FOR (c:Country) ON c.name"),
        ("CREATE INDEX ON :P(a, b)", "CREATE RANGE INDEX FOR (n:P) ON (n.a, n.b)"),
        ("MATCH (n) WHERE exists(n.p) RETURN n", "MATCH (n) WHERE n.p IS NOT NULL RETURN n"),
        (
            "MATCH (n) RETURN size((n)-[:R]->()) AS c",
            "MATCH (n) RETURN COUNT { MATCH (n)-[:R]->() } AS c",
        ),
        ("SHOW INDEXES VERBOSE OUTPUT", "SHOW INDEXES YIELD *"),
        ("SHOW NODE EXISTS CONSTRAINTS", "SHOW NODE PROPERTY EXISTENCE CONSTRAINTS"),
    ],
)
def test_neo4j_4_and_5_spellings_are_one_ir_node(old: str, new: str) -> None:
    tree = gqlir.parse(old, "neo4j4")
    assert tree == gqlir.parse(new, "neo4j")
    written = gqlir.transpile(old, "neo4j4", "neo4j")
    assert gqlir.parse(written, "neo4j") == tree


@pytest.mark.parametrize("query", [e["query"] for e in CORPUS["neo4j4"] if e["valid"]])
def test_neo4j4_translates_to_neo4j_or_names_what_it_cannot(query: str) -> None:
    tree = gqlir.parse(query, "neo4j4")
    try:
        written = gqlir.emit(tree, "neo4j")
    except UnsupportedError as exc:
        assert exc.construct in (
            "DROP INDEX by its definition",
            "DROP CONSTRAINT by its definition",
            "BTREE index",
            "SHOW BTREE INDEXES",
        )
        assert exc.rewrite
        return
    assert gqlir.parse(written, "neo4j") == tree


def test_btree_indexes_are_refused_by_neo4j_5() -> None:
    tree = gqlir.parse("CREATE BTREE INDEX b FOR (n:P) ON (n.x)", "neo4j4")
    with pytest.raises(UnsupportedError) as info:
        gqlir.emit(tree, "neo4j")
    assert info.value.construct == "BTREE index" and "RANGE" in info.value.rewrite


def test_neo4j4_refuses_what_only_neo4j_5_states() -> None:
    for query, construct in (
        ("CREATE CONSTRAINT FOR (n:P) REQUIRE n.a IS :: INTEGER", "node TYPE constraint"),
        (
            "CREATE CONSTRAINT FOR ()-[r:R]-() REQUIRE r.a IS UNIQUE",
            "relationship UNIQUE constraint",
        ),
        ("CREATE VECTOR INDEX FOR (n:P) ON (n.v)", "VECTOR index"),
    ):
        with pytest.raises(UnsupportedError) as info:
            gqlir.emit(gqlir.parse(query, "neo4j"), "neo4j4")
        assert info.value.construct == construct


def test_count_subqueries_are_written_as_size_of_a_pattern_in_neo4j4() -> None:
    tree = gqlir.parse("MATCH (n) RETURN COUNT { (n)-->() } AS c", "neo4j")
    assert gqlir.emit(tree, "neo4j4") == "MATCH (n) RETURN size((n)-->()) AS c"
    filtered = gqlir.parse("MATCH (n) RETURN COUNT { (n)-->(m) WHERE m.x > 1 } AS c", "neo4j")
    with pytest.raises(UnsupportedError):
        gqlir.emit(filtered, "neo4j4")


@pytest.mark.parametrize("target", ["iso-gql", "spanner", "kuzu", "opencypher9", "sql"])
def test_targets_without_neo4j_schema_commands_name_the_construct(target: str) -> None:
    """ISO GQL graph types have no keys, uniqueness or indexes; Kuzu has no standalone
    constraints or property indexes; openCypher 9 and SQL have no such commands (each
    dialect file cites why)."""
    for query, construct, node in (
        (
            "CREATE CONSTRAINT FOR (n:P) REQUIRE n.id IS UNIQUE",
            "CREATE CONSTRAINT",
            "CreateConstraint",
        ),
        ("CREATE INDEX FOR (n:P) ON (n.name)", "CREATE INDEX", "CreateIndex"),
        ("DROP INDEX i", "DROP INDEX", "DropIndex"),
        ("SHOW INDEXES", "SHOW", "Show"),
    ):
        with pytest.raises(GqlirError) as info:
            gqlir.transpile(query, "neo4j", target)
        assert isinstance(info.value, UnsupportedError)
        named = info.value.construct
        assert construct in named or named.startswith(node + " ")


def test_schema_targets_keep_labels_not_variables() -> None:
    fulltext = gqlir.parse("CREATE FULLTEXT INDEX f FOR (x:A|B) ON EACH [x.a, x.b]")
    assert fulltext == ir.CreateIndex(
        ir.SchemaTarget(ir.ElementKind.NODE, ("A", "B")), ("a", "b"), "f", "FULLTEXT"
    )
    lookup = gqlir.parse("CREATE LOOKUP INDEX FOR ()-[r]-() ON type(r)")
    assert lookup.target == ir.SchemaTarget(ir.ElementKind.RELATIONSHIP, ())
    assert lookup.properties == ()
