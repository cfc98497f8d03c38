"""Differential testing (design §6): the finance example graph in every engine, a set of
queries written in Neo4j Cypher, run natively where an engine speaks it and as gqlir's
translation where it does not (Kuzu Cypher, ISO GQL), plus hand-written SQL for the SQL
engines; every answer must equal the reference evaluator's (as a list when the query orders,
else as a bag). A translation gqlir refuses (UnsupportedError) is allowed: no silent loss is
the contract. Every known engine difference is in KNOWN with the reason, and in
docs/engines.md; a KNOWN entry that stops differing fails the test, so the list stays true."""

from __future__ import annotations

from typing import Any

import pytest

import gqlir
from gqlir.errors import EngineError, UnsupportedError

QUERIES: dict[str, str] = {
    "blocked": "MATCH (p:Person) WHERE p.isBlocked = true RETURN count(p) AS c",
    "accounts": "MATCH (p:Person)-[:own]->(a:Account) "
    "RETURN p.name AS name, count(a) AS accounts ORDER BY accounts DESC, name LIMIT 5",
    "big_transfers": "MATCH (a:Account)-[t:transfer]->(b:Account) WHERE t.amount > 5000 "
    "RETURN a.id AS src, b.id AS dst, t.amount AS amount "
    "ORDER BY amount DESC, src, dst LIMIT 10",
    "countries": "MATCH (c:Company) WHERE c.country IS NOT NULL "
    "RETURN c.country AS country, count(*) AS n ORDER BY n DESC, country",
    "born_before": "MATCH (p:Person) WHERE p.birthday < date('1980-01-01') RETURN count(*) AS c",
    "loans": "MATCH (l:Loan) RETURN sum(l.loanAmount) AS total, avg(l.interestRate) AS rate, "
    "min(l.balance) AS low",
    "no_transfers": "MATCH (a:Account) WHERE NOT (a)-[:transfer]->() RETURN count(a) AS c",
    "signed_in_owners": "MATCH (m:Medium)-[:signIn]->(a:Account)<-[:own]-(p:Person) "
    "RETURN DISTINCT p.name AS name ORDER BY name LIMIT 10",
    # one transfer may match both relationships unless the MATCH keeps them distinct: Kuzu
    # lets edges repeat (its translation says id(r1) <> id(r2)), and so does grafeo's GQL
    # without a match mode (the ISO GQL translation says MATCH DIFFERENT EDGES)
    "shared_target": "MATCH (a:Account)-[:transfer]->(b:Account)<-[:transfer]-(c:Account) "
    "RETURN count(*) AS n",
    "two_hops": "MATCH (p:Person)-[:own]->(a:Account)-[:transfer*1..2]->(b:Account) "
    "WHERE p.id = 1002 RETURN count(DISTINCT b) AS reach",
    "starts_with": "MATCH (p:Person) WHERE p.name STARTS WITH 'A' RETURN p.name AS name "
    "ORDER BY name",
    "optional": "MATCH (c:Company) OPTIONAL MATCH (c)-[:apply]->(l:Loan) "
    "RETURN c.name AS name, count(l) AS loans ORDER BY loans DESC, name LIMIT 5",
    "latest": "MATCH (a:Account) RETURN max(a.createTime) AS latest, min(a.createTime) AS first",
    "node": "MATCH (p:Person {id: 1002}) RETURN p",
    "edge": "MATCH (:Person {id: 1002})-[o:own]->(a:Account) RETURN o, a.id AS id ORDER BY id",
    "unwind": "UNWIND [3, 1, 2] AS x WITH x WHERE x > 1 RETURN x * 10 AS y ORDER BY y",
    "case": "MATCH (l:Loan) RETURN CASE WHEN l.interestRate > 0.05 THEN 'high' ELSE 'low' END "
    "AS band, count(*) AS n ORDER BY band",
    "params": "MATCH (p:Person) WHERE p.id IN $ids RETURN p.name AS name ORDER BY name",
}
PARAMS: dict[str, dict[str, Any]] = {"params": {"ids": [1002, 1003, 1004]}}

SQL: dict[str, str] = {
    "blocked": 'SELECT count(*) AS c FROM "Person" WHERE "isBlocked" = TRUE',
    "accounts": 'SELECT p."name" AS name, count(*) AS accounts FROM "Person" AS p '
    'JOIN "own_Person_Account" AS o ON o."src_id" = p."id" '
    'GROUP BY p."name" ORDER BY accounts DESC, name LIMIT 5',
    "big_transfers": 'SELECT "src_id" AS src, "dst_id" AS dst, "amount" AS amount FROM "transfer" '
    'WHERE "amount" > 5000 ORDER BY amount DESC, src, dst LIMIT 10',
    "countries": 'SELECT "country" AS country, count(*) AS n FROM "Company" '
    'WHERE "country" IS NOT NULL GROUP BY "country" ORDER BY n DESC, country',
    "born_before": 'SELECT count(*) AS c FROM "Person" WHERE "birthday" < \'1980-01-01\'',
    "no_transfers": 'SELECT count(*) AS c FROM "Account" AS a WHERE NOT EXISTS '
    '(SELECT 1 FROM "transfer" AS t WHERE t."src_id" = a."id")',
    "starts_with": 'SELECT "name" AS name FROM "Person" WHERE substr("name", 1, 1) = \'A\' '
    "ORDER BY name",
}

# route: (engine, dialect the engine is given the query in)
ROUTES = [
    ("neo4j", "neo4j"),
    ("arcadedb", "neo4j"),
    ("bolt", "neo4j"),
    ("tugraph", "tugraph-cypher"),
    ("grafeo", "neo4j"),
    ("grafeo", "iso-gql"),
    ("kuzu", "kuzu"),
    ("falkordb", "falkordb"),
    ("reference", "iso-gql"),
    ("reference", "falkordb"),
    ("reference", "kuzu"),
]

# (engine, dialect, query) -> why the engine's answer differs from the reference. Each is in
# docs/engines.md under the engine's quirks.
KNOWN: dict[tuple[str, str, str], str] = {
    ("kuzu", "kuzu", "loans"): "Kuzu 0.11 has no sum() of DECIMAL (Binder exception)",
    ("grafeo", "iso-gql", "params"): "grafeo 0.6 wants a MATCH in every EXISTS/VALUE "
    "subquery; IN over a parameter walks the list with FOR in one",
    ("falkordb", "falkordb", "latest"): "FalkorDB has no zoned date-time: a DATETIME is "
    "stored and returned as the local date-time of its instant in UTC",
    ("falkordb", "falkordb", "node"): "the same: the node's createTime is a local date-time",
}

# (dialect, query) -> the construct the translation refuses by name (never a lossy translation):
# Kuzu and FalkorDB match without edge uniqueness and cannot say it for this pattern; Kuzu
# compares the nulls inside lists as equal (docs/refusals.md).
REFUSED: dict[tuple[str, str], str] = {
    ("kuzu", "two_hops"): "DIFFERENT RELATIONSHIPS",
    ("falkordb", "two_hops"): "DIFFERENT RELATIONSHIPS",
    ("kuzu", "params"): "IN with a list value",
}


def _reference(loaded: Any, name: str) -> Any:
    return loaded("reference", "finance").run(QUERIES[name], parameters=PARAMS.get(name))


def _check(got: Any, want: Any, key: tuple[str, str, str]) -> None:
    diff = want.difference(got)
    if key in KNOWN:
        assert diff is not None, f"{key} no longer differs: remove it from KNOWN and the docs"
        return
    assert diff is None, f"{key}: {diff}"


@pytest.mark.parametrize("route", ROUTES, ids=[f"{e}-{d}" for e, d in ROUTES])
@pytest.mark.parametrize("name", sorted(QUERIES))
def test_engine_agrees_with_the_reference(loaded: Any, route: tuple[str, str], name: str) -> None:
    engine_name, dialect = route
    want = _reference(loaded, name)
    refused = REFUSED.get((dialect, name))
    if refused is not None:
        with pytest.raises(UnsupportedError) as caught:
            gqlir.transpile(QUERIES[name], "neo4j", dialect)
        assert caught.value.construct == refused
        return
    text = gqlir.transpile(QUERIES[name], "neo4j", dialect)
    engine = loaded(engine_name, "finance")
    key = (engine_name, dialect, name)
    try:
        got = engine.run(text, dialect=dialect, parameters=PARAMS.get(name), timeout=30)
    except EngineError:
        if key in KNOWN:
            return  # a known refusal by the engine
        raise
    assert got.ordered == want.ordered
    _check(got, want, key)


@pytest.mark.parametrize("engine_name", ["sqlite", "duckdb", "postgres"])
@pytest.mark.parametrize("name", sorted(SQL))
def test_sql_engines_agree_with_the_reference(loaded: Any, engine_name: str, name: str) -> None:
    want = _reference(loaded, name)
    got = loaded(engine_name, "finance").run(SQL[name], timeout=30)
    _check(got, want, (engine_name, f"sql:{engine_name}", name))
