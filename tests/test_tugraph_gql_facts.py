"""TuGraph-DB's GQL planner facts (dialects/tugraph-gql.toml [sources]): what its
PatternGraphMaker refuses is never written, what keeps its meaning is lowered. No TuGraph engine
runs here, so each rewrite is checked on the reference evaluator: the Cypher query and its
TuGraph text, read back as TuGraph GQL, give the same rows."""

from __future__ import annotations

import pytest

from gqlir import api
from gqlir.dialect import get_dialect
from gqlir.errors import UnsupportedError
from gqlir.eval import Graph, run

CAPS = get_dialect("tugraph-gql").capabilities


def _tugraph(cypher: str) -> str:
    return api.transpile(cypher, "neo4j", "tugraph-gql")


def _graph() -> Graph:
    g = Graph()
    a = g.create_node(["A"], {"x": 1, "y": 2})
    b = g.create_node(["A"], {"x": 1, "y": 3})
    c = g.create_node(["B"], {"x": 2})
    g.create_relationship("R", a, b, {"w": 1, "v": 2})
    g.create_relationship("R", b, a, {"w": 1, "v": 3})
    g.create_relationship("R", a, c, {"w": 1, "v": 2})
    return g


def _rows(text: str, dialect: str) -> list[tuple]:
    return sorted(run(text, _graph(), dialect=dialect).rows, key=repr)


def test_no_match_mode_words_and_the_runtime_keeps_edges_distinct() -> None:
    assert not CAPS.match_modes and CAPS.default_match_mode == "DIFFERENT_EDGES"
    for cypher, expected in (
        ("MATCH (a)-[:R*1..3]->(b) RETURN b.x AS x", "MATCH (a)-[:R]->{1,3}(b) RETURN b.x AS x"),
        (
            "MATCH (a)-[r]->(b)-[s]->(c) RETURN c.x AS x",
            "MATCH (a)-[r]->(b)-[s]->(c) RETURN c.x AS x",
        ),
    ):
        assert _tugraph(cypher) == expected


@pytest.mark.parametrize(
    ("cypher", "construct"),
    [
        ("MATCH p = shortestPath((a)-[:R*..5]->(b)) RETURN length(p) AS n", "ANY SHORTEST"),
        ("MATCH (n:A&B) RETURN n.x AS x", "multiple labels"),
        ("MATCH (n:!B) RETURN n.x AS x", "label negation (!)"),
        ("MATCH (n) WHERE n:A:B RETURN n.x AS x", "label conjunction (&)"),
        ("MATCH (a)-[:R* {w: 1, v: 2}]->(b) RETURN b.x AS x", "property map of more than 1 key(s)"),
    ],
)
def test_what_the_planner_refuses_is_refused(cypher: str, construct: str) -> None:
    with pytest.raises(UnsupportedError) as refused:
        _tugraph(cypher)
    assert refused.value.construct == construct


def test_a_label_union_is_written() -> None:
    assert _tugraph("MATCH (n:A|B) RETURN n.x AS x") == "MATCH (n:A|B) RETURN n.x AS x"


@pytest.mark.parametrize(
    ("cypher", "expected"),
    [
        (
            "MATCH (a:A {x: 1, y: 2})-[r:R {w: 1, v: 2}]->(b) RETURN b.x AS x",
            "MATCH (a:A {x: 1})-[r:R {w: 1}]->(b) WHERE a.y = 2 AND r.v = 2 RETURN b.x AS x",
        ),
        (
            "MATCH (:A {x: 1, y: 2})-->(b) WHERE b.x > 1 RETURN b.x AS x",
            "MATCH (_m1:A {x: 1})->(b) WHERE b.x > 1 AND _m1.y = 2 RETURN b.x AS x",
        ),
        (
            "OPTIONAL MATCH (a:A {x: 1, y: 3}) RETURN a.y AS y",
            "OPTIONAL MATCH (a:A {x: 1}) WHERE a.y = 3 RETURN a.y AS y",
        ),
    ],
)
def test_a_multi_key_property_map_keeps_one_key_and_moves_the_rest(
    cypher: str, expected: str
) -> None:
    assert CAPS.max_property_map_keys == 1
    text = _tugraph(cypher)
    assert text == expected
    assert _rows(text, "tugraph-gql") == _rows(cypher, "neo4j")


@pytest.mark.parametrize(
    ("gql", "expected"),
    [
        (
            "MATCH TRAIL (a)-[:R]->{1,3}(b) RETURN b.x AS x",
            "MATCH (a)-[:R]->{1,3}(b) RETURN b.x AS x",
        ),
        (
            "MATCH WALK (a)-[r:R]->(b), TRAIL (b)-[s:R]->(c) RETURN c.x AS x",
            "MATCH (a)-[r:R]->(b), (b)-[s:R]->(c) RETURN c.x AS x",
        ),
    ],
)
def test_trail_and_walk_are_dropped_under_tugraph_s_edge_uniqueness(
    gql: str, expected: str
) -> None:
    text = api.transpile(gql, "iso-gql", "tugraph-gql")
    assert text == expected
    assert _rows(text, "tugraph-gql") == _rows(gql, "iso-gql")


@pytest.mark.parametrize(
    ("gql", "construct"),
    [
        ("MATCH SIMPLE (a)-[:R]->{1,3}(b) RETURN b.x AS x", "SIMPLE path mode"),
        ("MATCH REPEATABLE ELEMENTS (a)-[r]->(b)-[s]->(c) RETURN c.x AS x", "REPEATABLE ELEMENTS"),
        ("MATCH p = ANY 2 (a)-[:R]->{1,3}(b) RETURN b.x AS x", "ANY"),
    ],
)
def test_gql_the_planner_refuses_is_refused(gql: str, construct: str) -> None:
    with pytest.raises(UnsupportedError) as refused:
        api.transpile(gql, "iso-gql", "tugraph-gql")
    assert refused.value.construct == construct


@pytest.mark.parametrize(
    ("tugraph", "bounds"),
    [("-[:R*..]->", "*1..128"), ("-[:R*2..]->", "*2..128"), ("-[:R*2..5]->", "*2..5")],
)
def test_tugraph_cypher_text_reads_with_the_128_hop_cap(tugraph: str, bounds: str) -> None:
    """TuGraph's Cypher reads ``*..`` and ``*m..`` as ranges up to VAR_LEN_EXPAND_MAX_HOP =
    128 (cypher_base_visitor.h, visitOC_RangeLiteral), so its text translates with that bound
    and round-trips, where a source without the cap stays refused."""
    query = f"MATCH (a){tugraph}(b) RETURN count(*) AS c"
    assert bounds in api.transpile(query, "tugraph-cypher", "neo4j")
    assert bounds in api.transpile(query, "tugraph-cypher", "tugraph-cypher")


@pytest.mark.parametrize(
    ("cypher", "construct"),
    [
        ("MATCH (a)-[*]->(b) RETURN count(*) AS c", "unbounded quantifier"),
        ("MATCH (a)-[:R*2..]->(b) RETURN count(*) AS c", "unbounded quantifier"),
        ("MATCH (a)-[:R*1..200]->(b) RETURN count(*) AS c", "quantifier bound over the maximum"),
    ],
)
def test_a_bound_tugraph_caps_is_refused(cypher: str, construct: str) -> None:
    """TuGraph-DB matches at most VAR_LEN_EXPAND_MAX_HOP = 128 relationships of a
    variable-length pattern, and gives one without an upper bound that bound (dialect files'
    sources): the longer paths would be dropped without a word, so both are refused; a bound
    up to 128 is written."""
    assert CAPS.max_quantifier_upper == 128 and not CAPS.unbounded_quantifiers
    cypher_caps = get_dialect("tugraph-cypher").capabilities
    assert cypher_caps.max_quantifier_upper == 128 and not cypher_caps.unbounded_quantifiers
    for target in ["tugraph-gql", "tugraph-cypher"]:
        with pytest.raises(UnsupportedError) as info:
            api.transpile(cypher, "neo4j", target)
        assert info.value.construct == construct, target
    text = _tugraph("MATCH (a)-[:R*1..128]->(b) RETURN count(*) AS c")
    assert "{1,128}" in text
    assert _rows(text, "tugraph-gql") == _rows(
        "MATCH (a)-[:R*1..128]->(b) RETURN count(*) AS c", "neo4j"
    )
