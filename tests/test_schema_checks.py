"""Schema-aware query checks: seeded mistakes of the kinds LLM-written queries make, each found
at the right position with the right suggestion; correct queries give no finding."""

from __future__ import annotations

import os

import pytest

from gqlir.api import check_query
from gqlir.schema import load_schema
from gqlir.schema.checks import suggest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "schemas")


def schema(name: str):
    return load_schema(os.path.join(ROOT, name, "schema.json"))


# (schema, dialect, query, code, the text at the reported position, suggestion or None)
WRONG = [
    (
        "movies",
        "neo4j",
        "MATCH (p:Persn)-[:ACTED_IN]->(m:Movie) RETURN m.title",
        "SCHEMA_UNKNOWN_LABEL",
        "Persn",
        "Person",
    ),
    (
        "movies",
        "neo4j",
        "MATCH (p:person) RETURN p.name",
        "SCHEMA_UNKNOWN_LABEL",
        "person",
        "Person",
    ),
    (
        "movies",
        "neo4j",
        "MATCH (p:Person)-[:ACTEDIN]->(m:Movie) RETURN m",
        "SCHEMA_UNKNOWN_REL_TYPE",
        "ACTEDIN",
        "ACTED_IN",
    ),
    (
        "movies",
        "neo4j",
        "MATCH (p:Person)-[:acted_in]->(m:Movie) RETURN m",
        "SCHEMA_UNKNOWN_REL_TYPE",
        "acted_in",
        "ACTED_IN",
    ),
    (
        "movies",
        "neo4j",
        "MATCH (p:Person)-[:Movie]->(m) RETURN m",
        "SCHEMA_UNKNOWN_REL_TYPE",
        "Movie",
        None,
    ),
    ("movies", "neo4j", "MATCH (g:IN_GENRE) RETURN g", "SCHEMA_UNKNOWN_LABEL", "IN_GENRE", None),
    (
        "movies",
        "neo4j",
        "MATCH (m:Movie) WHERE m.year > 2000 RETURN m.title",
        "SCHEMA_UNKNOWN_PROPERTY",
        "year",
        None,
    ),
    (
        "movies",
        "neo4j",
        "MATCH (m:Movie) RETURN m.titel",
        "SCHEMA_UNKNOWN_PROPERTY",
        "titel",
        "title",
    ),
    (
        "movies",
        "neo4j",
        "MATCH (p:Person {nam: 'Tom'}) RETURN p",
        "SCHEMA_UNKNOWN_PROPERTY",
        "nam",
        "name",
    ),
    (
        "movies",
        "neo4j",
        "MATCH (:Person)-[r:ACTED_IN]->(:Movie) RETURN r.role",
        "SCHEMA_UNKNOWN_PROPERTY",
        "role",
        "roles",
    ),
    (
        "movies",
        "neo4j",
        "MATCH (u:User)-[r:RATED {score: 5}]->(m) RETURN m",
        "SCHEMA_UNKNOWN_PROPERTY",
        "score",
        None,
    ),
    (
        "movies",
        "neo4j",
        "MATCH (m:Movie)<-[:DIRECTED]-(d) RETURN d.nme",
        "SCHEMA_UNKNOWN_PROPERTY",
        "nme",
        "name",
    ),
    (
        "movies",
        "neo4j",
        "MATCH (m:Movie) WITH m AS film RETURN film.name",
        "SCHEMA_UNKNOWN_PROPERTY",
        "name",
        None,
    ),
    (
        "movies",
        "neo4j",
        "MATCH (m:Movie)-[:ACTED_IN]->(p:Person) RETURN p.name",
        "SCHEMA_WRONG_DIRECTION",
        "-",
        "<-[…]-",
    ),
    (
        "movies",
        "neo4j",
        "MATCH (g:Genre)<-[:IN_GENRE]-(m:Movie)<-[:RATED]-(u:User), (m)-[:RATED]->(u) RETURN g",
        "SCHEMA_WRONG_DIRECTION",
        "-",
        "<-[…]-",
    ),
    (
        "movies",
        "neo4j",
        "MATCH (a:Person)-[:FOLLOWS]->(b:Person) RETURN b",
        "SCHEMA_WRONG_ENDPOINTS",
        "-",
        None,
    ),
    (
        "movies",
        "neo4j",
        "MATCH (u:User)-[:ACTED_IN]->(m:Movie) RETURN m",
        "SCHEMA_WRONG_ENDPOINTS",
        "-",
        None,
    ),
    (
        "movies",
        "neo4j",
        "MATCH (p:Person) WHERE p:Actor RETURN p",
        "SCHEMA_UNKNOWN_LABEL",
        "Actor",
        None,
    ),
    (
        "movies",
        "neo4j",
        "MATCH (m:Movie) WHERE EXISTS { MATCH (m)-[:IN_GENRE]->(g:Genre) WHERE g.title = 'x' } "
        "RETURN m",
        "SCHEMA_UNKNOWN_PROPERTY",
        "title",
        None,
    ),
    (
        "movies",
        "iso-gql",
        "MATCH (p IS Persn)-[:ACTED_IN]->(m IS Movie) RETURN m.title",
        "SCHEMA_UNKNOWN_LABEL",
        "Persn",
        "Person",
    ),
    (
        "movies",
        "iso-gql",
        "MATCH (m:Movie)-[:ACTED_IN]->(p:Person) RETURN p.name",
        "SCHEMA_WRONG_DIRECTION",
        "-",
        "<-[…]-",
    ),
    (
        "movies",
        "iso-gql",
        "MATCH (m:Movie WHERE m.rating > 3) RETURN m",
        "SCHEMA_UNKNOWN_PROPERTY",
        "rating",
        None,
    ),
    (
        "finance",
        "neo4j",
        "MATCH (a:Account)-[t:transfer]->(b:Account) WHERE t.amt > 100 RETURN b.id",
        "SCHEMA_UNKNOWN_PROPERTY",
        "amt",
        "amount",
    ),
    (
        "finance",
        "neo4j",
        "MATCH (a:Account)-[:owns]->(l:Loan) RETURN l",
        "SCHEMA_UNKNOWN_REL_TYPE",
        "owns",
        "own",
    ),
    (
        "finance",
        "neo4j",
        "MATCH (p:Person)-[:own]->(c:Company) RETURN c",
        "SCHEMA_WRONG_ENDPOINTS",
        "-",
        None,
    ),
    (
        "finance",
        "neo4j",
        "MATCH (a:Account)-[:own]->(p:Person) RETURN p",
        "SCHEMA_WRONG_DIRECTION",
        "-",
        "<-[…]-",
    ),
    (
        "social",
        "neo4j",
        "MATCH (p:Person)-[:HAS_CREATOR]->(m:Post) RETURN m",
        "SCHEMA_WRONG_DIRECTION",
        "-",
        "<-[…]-",
    ),
    (
        "social",
        "neo4j",
        "MATCH (p:Person) RETURN p.first_name",
        "SCHEMA_UNKNOWN_PROPERTY",
        "first_name",
        "firstName",
    ),
    (
        "encyclopedia",
        "neo4j",
        "MATCH (c:City)-[:locatedIn]->(x:Continent) RETURN x",
        "SCHEMA_WRONG_ENDPOINTS",
        "-",
        None,
    ),
    (
        "biomedical",
        "neo4j",
        "MATCH (d:Disease)-[:TREATS]->(c:Compound) RETURN c.name",
        "SCHEMA_WRONG_DIRECTION",
        "-",
        "<-[…]-",
    ),
    (
        "bookstore",
        "neo4j",
        "MATCH (b:book)-[:HAS_PUBLISHER]->(p:publisher) RETURN p.publisher_name",
        "SCHEMA_UNKNOWN_PROPERTY",
        "publisher_name",
        None,
    ),
]

RIGHT = [
    (
        "movies",
        "neo4j",
        "MATCH (p:Person)-[r:ACTED_IN]->(m:Movie) WHERE m.released > 2000 "
        "RETURN p.name, r.roles, m.title",
    ),
    (
        "movies",
        "neo4j",
        "MATCH (m:Movie)<-[:DIRECTED]-(d) WITH d, count(m) AS n RETURN d.name, n ORDER BY n DESC",
    ),
    ("movies", "neo4j", "MATCH (a:Person)-[:ACTED_IN]-(m) RETURN m.title"),
    ("movies", "neo4j", "MATCH (u:User)-[:FOLLOWS*1..3]->(v:User) RETURN v.name"),
    ("movies", "neo4j", "MATCH (n) WHERE n.title IS NOT NULL RETURN n"),
    ("movies", "iso-gql", "MATCH (p IS Person)-[:ACTED_IN]->(m IS Movie) RETURN p.name, m.title"),
    (
        "finance",
        "neo4j",
        "MATCH (p:Person)-[:own]->(a:Account)-[t:transfer]->(b:Account) "
        "RETURN p.name, t.amount, b.nickname",
    ),
    ("social", "neo4j", "MATCH (c:Comment)-[:REPLY_OF]->(x) RETURN x.content"),
    ("social", "neo4j", "MATCH (a:Person)-[:KNOWS]-(b:Person) RETURN a.firstName, b.lastName"),
    (
        "encyclopedia",
        "neo4j",
        "MATCH (c:City)-[:capitalOf]->(k:Country)-[:locatedIn]->(x:Continent) "
        "RETURN c.name, x.name",
    ),
    (
        "bookstore",
        "neo4j",
        "MATCH (o:orders)-[:order_line]->(b:book)-[:HAS_PUBLISHER]->(p:publisher) "
        "RETURN p.name, sum(o.order_id)",
    ),
]


@pytest.mark.parametrize("name, dialect, query, code, at, suggestion", WRONG)
def test_seeded_mistakes_are_found(
    name: str, dialect: str, query: str, code: str, at: str, suggestion: str | None
) -> None:
    issues = check_query(query, dialect, schema(name))
    matching = [i for i in issues if i.code == code]
    assert matching, [str(i) for i in issues]
    issue = matching[0]
    assert issue.offset is not None and query[issue.offset :].startswith(at), (
        issue.offset,
        issue.message,
    )
    assert issue.line == 1 and issue.column == issue.offset + 1
    if suggestion is not None:
        assert issue.suggestions and issue.suggestions[0] == suggestion
        assert "did you mean" in issue.message


@pytest.mark.parametrize("name, dialect, query", RIGHT)
def test_correct_queries_have_no_findings(name: str, dialect: str, query: str) -> None:
    assert [str(i) for i in check_query(query, dialect, schema(name))] == []


def test_finding_rate() -> None:
    found = sum(
        any(i.code == code for i in check_query(q, d, schema(n))) for n, d, q, code, _, _ in WRONG
    )
    assert found == len(WRONG)


def test_suggest() -> None:
    assert suggest("ACTEDIN", ["ACTED_IN", "DIRECTED"]) == ("ACTED_IN",)
    assert suggest("person", ["Person", "Movie"]) == ("Person",)
    assert suggest("zzz", ["Person"]) == ()
