"""Metrics read from the Graph-IR: PSJS provenance, tree-edit similarity, difficulty and
CypherBench categories."""

from __future__ import annotations

import pytest

import gqlir
from gqlir.engines import open_engine
from gqlir.metrics import classify, ir_similarity, provenance_ids, psjs, tree_edit_distance
from gqlir.metrics.provenance import provenance_query_texts
from gqlir.metrics.similarity import Tree

# a -KNOWS-> b -KNOWS-> c, a -LIKES-> m, d alone
GRAPH = (
    "CREATE (a:Person {name: 'a'})-[:KNOWS]->(b:Person {name: 'b'})"
    "-[:KNOWS]->(c:Person {name: 'c'}), (a)-[:LIKES]->(m:Movie {name: 'm'}), "
    "(d:Person {name: 'd'})"
)


@pytest.fixture(scope="module")
def engine():
    with open_engine("reference") as e:
        e.run(GRAPH)
        yield e


@pytest.fixture(scope="module")
def ids(engine):
    """name -> provenance id of each node, and 'a->b' style keys for KNOWS edges."""
    out = {}
    for (n,) in engine.run("MATCH (n) RETURN n").rows:
        out[n.properties["name"]] = f"n:{n.id}"
    for s, r, t in engine.run("MATCH (s)-[r]->(t) RETURN s.name, r, t.name").rows:
        out[f"{s}->{t}"] = f"e:{r.id}"
    return out


def names(ids, found):
    back = {v: k for k, v in ids.items()}
    return {back[x] for x in found}


PROVENANCE_CASES = [
    ("MATCH (p:Person {name: 'a'})-[:KNOWS]->(q) RETURN q.name", {"a", "b"}),
    # an anonymous node is given a variable, labelled or not
    ("MATCH (:Person {name: 'a'})-[:KNOWS]->(q) RETURN q.name", {"a", "b"}),
    ("MATCH (p {name: 'b'})-->() RETURN p.name", {"b", "c"}),
    # the node inside a variable-length path counts
    ("MATCH (p {name: 'a'})-[:KNOWS*2]->(q) RETURN q.name", {"a", "b", "c"}),
    # UNION: both branches
    (
        "MATCH (p:Person {name: 'a'})-[:LIKES]->(x) RETURN x.name AS n "
        "UNION MATCH (p:Person {name: 'c'}) RETURN p.name AS n",
        {"a", "m", "c"},
    ),
    # UNION inside a leading CALL
    (
        "CALL { MATCH (p:Person {name: 'b'}) RETURN p UNION MATCH (p:Person {name: 'c'}) "
        "RETURN p } RETURN p.name",
        {"b", "c"},
    ),
    # OPTIONAL MATCH: matched nodes count, nulls do not
    (
        "MATCH (p:Person) OPTIONAL MATCH (p)-[:LIKES]->(x) RETURN p.name, x.name",
        {"a", "b", "c", "d", "m"},
    ),
    ("MATCH (p:Person {name: 'd'}) OPTIONAL MATCH (p)-[:KNOWS]->(x) RETURN x", {"d"}),
    # a WITH that only passes variables on is dropped; one that aggregates ends the part
    ("MATCH (p:Person {name: 'a'}) WITH p MATCH (p)-[:LIKES]->(m) RETURN m.name", {"a", "m"}),
    (
        "MATCH (p:Person)-[:KNOWS]->(q) WITH p, count(q) AS c MATCH (p)-[:LIKES]->(m) RETURN m",
        {"a", "b", "c"},
    ),
    ("MATCH (p:Person) WHERE p.name IN ['a', 'd'] RETURN count(p)", {"a", "d"}),
    ("RETURN 1", set()),
]


@pytest.mark.parametrize(("query", "expected"), PROVENANCE_CASES)
def test_provenance_sets_by_hand(engine, ids, query, expected):
    assert names(ids, provenance_ids(engine, query, "neo4j")) == expected


def test_provenance_in_gql(engine, ids):
    query = "MATCH (p:Person WHERE p.name = 'a')-[:KNOWS]->(q) RETURN q.name"
    assert names(ids, provenance_ids(engine, query, "iso-gql")) == {"a", "b"}


def test_provenance_with_edges(engine, ids):
    found = provenance_ids(engine, "MATCH (p {name: 'a'})-[:KNOWS*2]->(q) RETURN q", edges=True)
    assert names(ids, found) == {"a", "b", "c", "a->b", "b->c"}
    plain = provenance_ids(engine, "MATCH (:Person {name: 'b'})-[:KNOWS]->(q) RETURN q", edges=True)
    assert names(ids, plain) == {"b", "c", "b->c"}


def test_provenance_query_text_names_anonymous_elements():
    texts = provenance_query_texts("MATCH (:A)-[:R]->(b) RETURN b.x", "neo4j", edges=True)
    assert len(texts) == 1
    parsed = gqlir.parse(texts[0], "neo4j")
    variables = {n.variable for n in parsed.walk() if hasattr(n, "variable") and n.variable}
    assert len(variables) == 3


def test_psjs_values(engine):
    gold = provenance_ids(engine, "MATCH (p:Person {name: 'a'})-[:KNOWS]->(q) RETURN q")
    pred = provenance_ids(engine, "MATCH (p {name: 'a'})-[:KNOWS*2]->(q) RETURN q")
    assert psjs(gold, pred) == pytest.approx(2 / 3)
    assert psjs(gold, gold) == 1.0
    assert psjs(set(), set()) == 0.0  # CypherBench: nothing matched on either side
    assert psjs(set(), set(), both_empty=1.0) == 1.0
    assert psjs(gold, set()) == 0.0


# -- similarity -----------------------------------------------------------------------------------


def test_zhang_shasha_on_the_classic_example():
    def t(label, *kids):
        return Tree(label, list(kids))

    a = t("f", t("d", t("a"), t("c", t("b"))), t("e"))
    b = t("f", t("c", t("d", t("a"), t("b"))), t("e"))
    assert tree_edit_distance(a, b) == 2
    assert tree_edit_distance(a, a) == 0
    assert tree_edit_distance(t("a"), t("b", t("c"), t("d"))) == 3


def test_similarity_ignores_names_and_operand_order():
    q = "MATCH (x:P)-[:K]->(y) WHERE y.a = 1 AND x.b = 2 RETURN x.name"
    same = "MATCH (n:P)-[:K]->(m) WHERE n.b = 2 AND 1 = m.a RETURN n.name"
    assert ir_similarity(q, same) == 1.0
    other_label = "MATCH (n:Q)-[:K]->(m) WHERE n.b = 2 AND 1 = m.a RETURN n.name"
    assert 0.8 < ir_similarity(q, other_label) < 1.0
    unrelated = "MATCH (n:P) RETURN count(*)"
    assert ir_similarity(q, unrelated) < ir_similarity(q, other_label)


def test_similarity_across_dialects():
    cypher = "MATCH (a:Person)-[:KNOWS]->(b) WHERE a.age > 30 RETURN b.name AS name"
    gql = gqlir.transpile(cypher, "neo4j", "iso-gql")
    assert ir_similarity(cypher, gqlir.parse(gql, "iso-gql")) == 1.0


# -- difficulty -----------------------------------------------------------------------------------

# Text2GQL-Bench, Table 2 (ISO GQL; the paper's typesetting of -> and > restored)
TABLE_2 = [
    ("MATCH (n:ACCOUNT) WHERE n.account_type = 'CREDIT' RETURN n.opening_date", "easy"),
    (
        "MATCH (a:ACCOUNT)-[:TRIGGERED_ALERT]->(al:ALERT) WHERE a.risk_score > 0.5 "
        "RETURN al.severity_level, al.creation_timestamp LIMIT 10",
        "medium",
    ),
    (
        "MATCH (n1:PaymentTransaction)-[]->{1,3}(n2:Account) WHERE n1.transaction_id = "
        "'TXN0000000' RETURN n2.account_id, n2.account_type LIMIT 5",
        "hard",
    ),
    (
        "MATCH (c:Customer)-[:Initiates]->(pt1:PaymentTransaction) WHERE pt1.status = 'Failed' "
        "RETURN c NEXT MATCH (c)-[:Initiates]->(pt2:PaymentTransaction) WHERE pt2.status = "
        "'Completed' RETURN DISTINCT c.name, c.email",
        "extra hard",
    ),
]

HAND_LABELLED = [
    ("MATCH (p:Person) RETURN p.name", "easy"),
    ("MATCH (p:Person {name: 'Ada'}) RETURN p.born", "easy"),
    ("MATCH (p:Person) RETURN count(p)", "medium"),
    ("MATCH (p:Person) WHERE p.age > 30 AND p.city = 'Rome' RETURN p.name", "medium"),
    ("MATCH (p:Person)-[:LIVES_IN]->(c:City) RETURN c.name, count(p) AS n", "medium"),
    ("MATCH (a)-[:KNOWS]->(b)-[:KNOWS]->(c) RETURN c.name", "hard"),
    ("MATCH (a:Person)-[:KNOWS*1..3]->(b) RETURN b.name", "hard"),
    ("MATCH (p:Person) WHERE p.a = 1 AND p.b = 2 AND p.c STARTS WITH 'x' RETURN p", "hard"),
    ("MATCH (p:Person) RETURN min(p.age), max(p.age)", "hard"),
    ("MATCH (p:Person) OPTIONAL MATCH (p)-[:OWNS]->(c:Car) RETURN p.name, c.model", "hard"),
    ("MATCH (a)-[:R]->(b)-[:R]->(c)-[:R]->(d) RETURN d", "extra hard"),
    ("MATCH (p)-[:R]->(q) WITH p, count(q) AS n RETURN avg(n)", "extra hard"),
    ("MATCH (p:Person) WHERE EXISTS { MATCH (p)-[:OWNS]->(:Car) } RETURN p.name", "extra hard"),
    (
        "MATCH (p:Person) RETURN p.name AS n UNION MATCH (c:Company) RETURN c.name AS n",
        "extra hard",
    ),
]


@pytest.mark.parametrize(("query", "level"), TABLE_2)
def test_difficulty_on_text2gql_table_2(query, level):
    assert classify(query, "iso-gql").level == level


@pytest.mark.parametrize(("query", "level"), HAND_LABELLED)
def test_difficulty_on_hand_labelled_queries(query, level):
    assert classify(query, "neo4j").level == level


def test_difficulty_reasons_and_features():
    c = classify(TABLE_2[3][0], "iso-gql")
    assert c.reasons == ["a MATCH after a projection (multi-step)"]
    assert c.features.match_steps == 2 and c.features.staged_match
    assert c.to_dict()["features"]["relationships"] == 2


CYPHERBENCH = [
    ("MATCH (n:Person) WHERE n.born > 1950 RETURN n.name", "basic_(n)", "n_name"),
    ("MATCH (n:Person)<-[:DIRECTED]-(m0:Person {name: 'x'}) RETURN n.born", "basic_(n)-(m0*)", "n_prop_combined"),
    ("MATCH (n:Movie)-[:IN]->(m0:Genre {name: 'x'}) RETURN count(DISTINCT n)", "basic_(n)-(m0*)", "n_agg"),
    (
        "MATCH (n:P)-[:A]->(m0:M)<-[:B]-(m1:P {name: 'y'}) WITH DISTINCT n "
        "RETURN n.name ORDER BY n.born DESC LIMIT 1",
        "basic_(n)-(m0)-(m1*)",
        "n_argmax",
    ),
    ("MATCH (n:P)-[:A]->(m0 {name: 'a'}), (n)-[:B]->(m1 {name: 'b'}) RETURN n.name", "basic_(n)-(m0*),(n)-(m1*)", "n_name"),
    ("MATCH (n:P)-[:A]->(m0:O), (n)-[:B]->(m0) RETURN n.name", "basic_(n)=(m0)", "n_name"),
    ("MATCH (n:P) OPTIONAL MATCH (n)-[:A]->(m0:O) RETURN n.name, count(m0)", "special_optional-match", "n_group_by"),
    (
        "MATCH (n:P)-[r0:A]->(m0:O {name: 'o'}) WHERE r0.start_year <= 2000 AND "
        "(r0.end_year >= 2000 OR r0.end_year IS NULL) RETURN n.name",
        "special_time-sensitive",
        "n_name",
    ),
    ("MATCH (n:P {name: 'a'}), (m0:P {name: 'b'}) RETURN n.born > m0.born", "special_comparison", "n_m0_comparison_boolean"),
    (
        "CALL { MATCH (n:P)-[:A]->(m0:O) RETURN n, m0 AS m UNION MATCH (n:P)-[:B]->(m1:O) "
        "RETURN n, m1 AS m } WITH n, count(DISTINCT m) AS c RETURN n.name, c",
        "special_union",
        "n_union_count",
    ),
    ("MATCH (n:P)-[:A]->(m0:O) WITH n, count(DISTINCT m0) AS num RETURN n.name, num", "basic_(n)-(m0)", "n_m0_group_by_count"),
]  # fmt: skip


@pytest.mark.parametrize(("query", "match", "ret"), CYPHERBENCH)
def test_cypherbench_categories(query, match, ret):
    c = classify(query, "neo4j")
    assert (c.match_category, c.return_category) == (match, ret)
