"""Kuzu's dialect facts, checked on the real engine, and the translations built on them.

Each probe runs a query on plain Kuzu and fails if Kuzu contradicts the capability value that
``dialects/kuzu.toml`` records. Each rewrite is checked differentially: the Cypher text on the
reference evaluator and its Kuzu translation on real Kuzu, over one small graph, give the same
rows; each refusal names the construct whose meaning Kuzu would change.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import kuzu
import pytest
from test_engines_hypothesis import SCHEMA, _write_graph, compare

import gqlir
from gqlir.dialect import get_dialect
from gqlir.engines.base import ResultTable
from gqlir.errors import EngineError, UnsupportedError

CAPS = get_dialect("kuzu").capabilities

# A = 0, 1 (1 has no properties); B = 2, 3. R: 0->1, 1->0, a self-loop on 0, 1->2, 2->3;
# S: 3->0.
GRAPH = {
    "nodes": [
        {"id": 0, "labels": ["A"], "properties": {"x": 1, "s": "a"}},
        {"id": 1, "labels": ["A"], "properties": {}},
        {"id": 2, "labels": ["B"], "properties": {"x": 2, "s": "b"}},
        {"id": 3, "labels": ["B"], "properties": {"x": 3}},
    ],
    "edges": [
        {"id": i, "type": t, "source": s, "target": d, "properties": {"w": i}}
        for i, (t, s, d) in enumerate(
            [("R", 0, 1), ("R", 1, 0), ("R", 0, 0), ("R", 1, 2), ("R", 2, 3), ("S", 3, 0)]
        )
    ],
}


@pytest.fixture(scope="module")
def plain() -> Iterator[Callable[..., Any]]:
    """``plain(query, parameters)``: Kuzu's rows for ``query`` on a database with an E self-loop (N 1 ->
    1), an E two-cycle (1 -> 2 -> 1) and an L self-loop (3 -> 3), or the RuntimeError it
    raised."""
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        connection = kuzu.Connection(kuzu.Database(folder + "/db"))
        connection.execute("CREATE NODE TABLE N(id INT64, s STRING, PRIMARY KEY(id))")
        connection.execute("CREATE REL TABLE E(FROM N TO N)")
        connection.execute("CREATE REL TABLE L(FROM N TO N)")
        connection.execute("CREATE (:N {id: 1, s: 'a'}), (:N {id: 2}), (:N {id: 3})")
        connection.execute(
            "MATCH (a:N {id: 1}), (b:N {id: 2}), (c:N {id: 3}) "
            "CREATE (a)-[:E]->(a), (a)-[:E]->(b), (b)-[:E]->(a), (c)-[:L]->(c)"
        )

        def run(query: str, parameters: dict[str, Any] | None = None) -> Any:
            try:
                return connection.execute(query, parameters or {}).get_all()
            except RuntimeError as exc:
                return exc

        yield run


def _value(rows: Any) -> Any:
    return rows if isinstance(rows, Exception) else rows[0][0]


# capability -> (probe, Kuzu's answer when the capability holds, when it does not)
PROBES: dict[str, tuple[str, Any, Any]] = {
    "membership_null_unknown": ("RETURN 2 IN [1, NULL] AS v", None, False),
    "list_equality_null_unknown": ("RETURN [1, NULL] = [1, NULL] AS v", None, True),
    "simple_case_null_matches": ("RETURN CASE 1 WHEN NULL THEN 1 ELSE 2 END AS v", 1, 2),
    "string_plus_null_empty": ("MATCH (n:N {id: 2}) RETURN n.s + 'z' AS v", "z", None),
    "contains_empty_true": ("RETURN 'abc' CONTAINS '' AS v", True, False),
    "case_unifies_result_types": ("RETURN CASE WHEN false THEN 1 ELSE 1.5 END AS v", 2, 1.5),
    "undirected_self_loop_once": ("MATCH (a:N {id: 1})-[r]-(a) RETURN count(*) AS v", 1, 2),
    "shortest_same_endpoints": ("MATCH (a)-[* SHORTEST 1..3]->(a) RETURN count(*) AS v", 2, 0),
}


@pytest.mark.parametrize("capability", sorted(PROBES))
def test_kuzu_agrees_with_the_dialect_file(plain: Callable[[str], Any], capability: str) -> None:
    query, when_true, when_false = PROBES[capability]
    expected = when_true if getattr(CAPS, capability) else when_false
    assert _value(plain(query)) == expected, (capability, query)


def test_out_of_range_subscript(plain: Callable[[str], Any]) -> None:
    got = plain("RETURN [1, 2][5] AS v")
    assert isinstance(got, RuntimeError) is not CAPS.index_out_of_range_null


def test_kuzu_compares_nulls_inside_lists_and_maps_as_equal(plain: Callable[[str], Any]) -> None:
    """Why a comparison of two list or map values (not only literals) is refused where one
    may hold a null: Kuzu's answer is true or false where Cypher's is null."""
    assert not CAPS.list_equality_null_unknown
    assert plain("WITH [1, null] AS l RETURN l = l, l <> l") == [[True, False]]
    assert plain("WITH [1, null] AS l, [1, 2] AS m RETURN l = m, l < [1, 3]") == [[False, False]]
    assert plain("WITH {k: null} AS m RETURN m = m") == [[True]]
    assert plain("MATCH (n:N {id: 1}) WITH [n.s, null] AS l RETURN l = l") == [[True]]


def test_a_case_does_not_guard_an_out_of_range_subscript(plain: Callable[[str], Any]) -> None:
    """Why a position in a list value is refused rather than guarded: Kuzu evaluates every
    branch of a CASE, so a guard on size() still raises."""
    guarded = "UNWIND [1, 5] AS i WITH [1, 2] AS l, i RETURN CASE WHEN i < size(l) THEN l[i] END"
    assert isinstance(plain(guarded), RuntimeError)
    assert isinstance(plain("WITH [1, 2] AS l RETURN l[5]"), RuntimeError)


def test_with_distinct_of_constants_keeps_every_row(plain: Callable[[str], Any]) -> None:
    """Why a WITH DISTINCT of constant columns is refused (found by make fuzz)."""
    assert CAPS.with_distinct_constants_kept
    assert plain("MATCH (n:N) WITH DISTINCT 1 AS c RETURN c") == [[1], [1], [1]]
    assert plain("MATCH (n:N) WITH 1 AS k WITH DISTINCT k RETURN k") == [[1], [1], [1]]
    assert plain("MATCH (n:N) RETURN DISTINCT 1 AS c") == [[1]]
    assert plain("MATCH (n:N) WITH DISTINCT n.id * 0 AS c RETURN c") == [[0]]
    # a parameter is not propagated as a constant: its DISTINCT is kept (so it is written)
    assert plain("MATCH (n:N) WITH DISTINCT $p AS c RETURN c", {"p": 1}) == [[1]]
    assert "DISTINCT" in gqlir.transpile(
        "MATCH (n) WITH DISTINCT $p AS c RETURN c", "neo4j", "kuzu"
    )


def test_order_by_after_a_shadowing_alias(plain: Callable[[str], Any]) -> None:
    rows = plain("UNWIND [1, 2, 3] AS x RETURN -x AS x ORDER BY x")
    assert [r[0] for r in rows] == ([-1, -2, -3] if CAPS.order_by_reads_shadowed else [-3, -2, -1])


def test_relationship_shorthand(plain: Callable[[str], Any]) -> None:
    assert CAPS.anonymous_edge_shorthand
    for short, full in (("-->", "-[]->"), ("<--", "<-[]-"), ("--", "-[]-")):
        counts = [_value(plain(f"MATCH (a){arrow}(b) RETURN count(*)")) for arrow in (short, full)]
        assert counts[0] == counts[1] > 0, short


def test_a_doubled_backtick_stays_doubled(tmp_path: Any) -> None:
    """Why names holding a backtick are refused: Kuzu does not undouble it."""
    assert CAPS.identifier_escape == "none"
    connection = kuzu.Connection(kuzu.Database(str(tmp_path / "db")))
    assert connection.execute("RETURN 1 AS `a``b`").get_column_names() == ["a``b"]


# Keywords of Kuzu's grammar missing from its documented list (FROM, IS, LIMIT, RDFGRAPH and
# TO, documented as reserved, pass as a WITH alias in 0.11.3; quoting them costs nothing).
UNLISTED_KEYWORDS = ("ACYCLIC", "ANY", "HINT", "JOIN", "MULTI_JOIN", "NONE", "SINGLE", "TRAIL")


@pytest.mark.parametrize("word", UNLISTED_KEYWORDS)
def test_unlisted_keywords_fail_as_bare_variables(plain: Callable[[str], Any], word: str) -> None:
    assert word in get_dialect("kuzu").reserved_words
    assert isinstance(plain(f"WITH 1 AS {word.lower()} RETURN 1 AS v"), RuntimeError)


@pytest.mark.parametrize("word", sorted(get_dialect("kuzu").reserved_words))
def test_reserved_words_run_quoted(plain: Callable[[str], Any], word: str) -> None:
    assert plain(f"WITH 1 AS `{word.lower()}` RETURN `{word.lower()}` AS v") == [[1]]


def test_walks_trails_and_the_default_bound(plain: Callable[[str], Any]) -> None:
    """Recursive relationships are walks unless TRAIL is said; * alone stops at 30 hops; the
    TRAIL from length 0 gives wrong rows (so the translation starts TRAIL at 1)."""
    assert "TRAIL" in CAPS.quantifier_path_modes and not CAPS.unbounded_quantifiers
    walks = _value(plain("MATCH (a:N {id: 1})-[* 1..3]->(b) RETURN count(*)"))
    trails = _value(plain("MATCH (a:N {id: 1})-[* TRAIL 1..3]->(b) RETURN count(*)"))
    assert (walks, trails) == (10, 6)
    assert _value(plain("MATCH (a:N {id: 3})-[e:L*]->(b) RETURN max(length(e))")) == 30
    zero = plain("MATCH (a)-[e* TRAIL 0..1]->(b) RETURN count(*)")
    assert _value(zero) != 5  # 2 empty paths and 3 edges


def test_trail_function(plain: Callable[[str], Any]) -> None:
    query = "MATCH p = (a)-[:E]->(b)-[:E]->(c) WHERE {}(p) RETURN count(*)"
    assert _value(plain(query.format(CAPS.trail_function))) == 4
    assert _value(plain("MATCH p = (a)-[:E]->(b)-[:E]->(c) RETURN count(*)")) == 5


# -- translations on a small graph ---------------------------------------------------------------

AGREE = [
    "RETURN 25 IN [30, null] AS v, null IN [] AS w, 2 IN [1, null] AS u, 1 IN [1, null] AS t",
    "MATCH (a:A) RETURN a.x IN [1, null] AS v, 7 IN [a.x, 5] AS w",
    "MATCH (a:A) WITH a, [a.x, 5] AS l RETURN 5 IN l AS v, 6 IN l AS w, a.x IN l AS u",
    "RETURN [1, null] = [1, null] AS v, [1, 2] = [1, null] AS w, [1, 2] <> [1] AS u",
    "RETURN [[1, null]] = [[1, null]] AS v, [1, 2] = [3, null] AS w",
    "MATCH (a) RETURN CASE a.x WHEN null THEN 'n' WHEN 1 THEN 'one' ELSE 'other' END AS v",
    "MATCH (a) RETURN a.s + 'z' AS v, a.s + a.s AS w",
    "MATCH (a) RETURN a.s CONTAINS '' AS v, a.s CONTAINS a.s AS w, 'abc' CONTAINS '' AS u",
    "RETURN [1, 2][5] AS v, [1, 2][-1] AS w, [1, 2][-3] AS u",
    "WITH [1, 2] AS l, [3, null] AS m RETURN l[1] AS v, l[-2] AS w, m[0] AS u",
    "WITH [1, 2] AS l, [2, 1] AS m RETURN l = l AS v, l = m AS w, l <> [1, 2] AS u",
    "MATCH (a:A) WITH a, [1, 2] AS l, [2, 1] AS m RETURN l = m AS v, l < m AS w, l[1] AS u",
    "WITH [1, null] AS l, {k: null} AS m RETURN l = l AS v, m = m AS w, l < [1, 2] AS u",
    "RETURN [1, 2] = 1 AS v, [1, null] < 1 AS w",
    "MATCH (a:A), (b) WHERE a.x = b.x RETURN a.x AS ax, b.s AS bs",
    "MATCH (a:A), (b:B) RETURN a.s = b.s AS v, a.x < b.x AS w, a.x IN [b.x, 2] AS u",
    "UNWIND [1, 2, 3] AS x RETURN -x AS x ORDER BY x",
    "MATCH (a:A) RETURN DISTINCT 1 AS c0 ORDER BY c0 ASC",
    "MATCH (a) WITH DISTINCT a.x * 0 AS c RETURN c",
    "MATCH (n:B) RETURN n.x * -1 AS n ORDER BY n",
    "MATCH (a)-[:R*1..3]->(b) RETURN a.x AS ax, b.x AS bx, count(*) AS c",
    "MATCH (a:A)-[:R*2..2]->(b:A) RETURN count(*) AS c",
    "MATCH p = (a)-[:R*1..4]->(b) RETURN length(p) AS len, count(*) AS c",
    "MATCH p = shortestPath((a:A)-[*1..4]->(b:B)) RETURN a.x AS ax, b.x AS bx, length(p) AS len",
    "MATCH p = allShortestPaths((a:A)-[*1..4]->(b:B)) RETURN count(*) AS c",
    "MATCH (a:A)-[r]-(b:B) RETURN count(*) AS c",
    "MATCH (a)-->(b) RETURN count(*) AS c",
    "MATCH (a)-[:R]->(b)-[:R]->(c) RETURN count(*) AS c",
    "MATCH (a)-[r:R]->(b), (b)-[s:R]->(c) RETURN count(*) AS c",
    "MATCH (a)-[:R]->(b)-[:R]->(c) MATCH (c)-[:R]->(d)-[:R]->(e) RETURN count(*) AS n",
    "WITH 1 AS trail, 2 AS single RETURN trail + single AS any",
    "MATCH (a:A) RETURN CASE WHEN a.x = 1 THEN 'one' ELSE 'other' END AS v",
    # conversions of a value of their own type (gqlir/passes/conversions.py)
    "UNWIND [true, false, null] AS b RETURN toBoolean(b) AS b",
    "UNWIND [1, -20, 0, null] AS i WITH i, 'x' AS s RETURN toInteger(i) AS n, toString(s) AS t",
]

REFUSED = {
    "MATCH (a)-[r]-(b) RETURN count(*) AS c": "undirected relationship",
    "MATCH (a:A)-[:R*1..2]-(b:B) RETURN count(*) AS c": "undirected relationship",
    "MATCH (a:A) RETURN CASE WHEN a.x = 1 THEN a.s ELSE 0 END AS c": "CASE with results of "
    "different types",
    "UNWIND [false] AS c RETURN CASE WHEN c THEN 1 ELSE 1.5 END AS c": "CASE with results of "
    "different types",
    "RETURN 1 AS `a``b`": "name with a quote character",
    "MATCH (a)-[:R*0..2]->(b) RETURN count(*) AS c": "TRAIL path mode",
    "MATCH (a)-[:R*]->(b) RETURN count(*) AS c": "TRAIL path mode",
    "MATCH p = shortestPath((a)-[*1..4]->(b)) RETURN count(*) AS c": "shortest path between "
    "nodes that may be one",
    "MATCH (a:A) WITH a, [a.x] AS l RETURN l = [1] AS v": "list equality",
    # list values that may hold a null, compared or searched
    "MATCH (a) WITH [a.x, 1] AS l RETURN l = l AS v": "list equality",
    "MATCH (a) WITH collect([a.x]) AS l, collect([a.s]) AS m RETURN l = m AS v": "list equality",
    "MATCH (a) WITH [a.x, 1] AS l RETURN l < [1, 2] AS v": "list order",
    "MATCH (a) WITH {k: a.x} AS m RETURN m = m AS v": "list equality",
    "MATCH (a) WITH [a.x] AS l RETURN l IN [[1], l] AS v": "list equality",
    "MATCH (a) WITH [a.x] AS l, collect([a.x]) AS c RETURN l IN c AS v": "IN with a list value",
    "MATCH (a:A) WITH DISTINCT 1 AS c RETURN c": "DISTINCT of constants only",
    "MATCH (a) WITH 1 AS k WITH DISTINCT k RETURN k": "DISTINCT of constants only",
    "UNWIND [1, 2] AS x WITH x RETURN DISTINCT 1 AS x ORDER BY x": "DISTINCT of constants only",
    # properties whose type no schema gives may be lists holding a null
    "MATCH (a), (b) WHERE a.x = b.x RETURN count(*) AS c": "list equality",
    "MATCH (a) WHERE a.x IN $p RETURN count(*) AS c": "IN with a list value",
    # a position that may be out of range in a list value
    "MATCH (a) WITH collect(a.x) AS l RETURN l[0] AS v": "list subscript",
    "MATCH (a) RETURN a.x[0] AS v": "list subscript",
    "MATCH (a) WITH a, [a.x, 2] AS l RETURN l[2] AS v": "list subscript",
    "MATCH (a) WITH collect(1) AS l RETURN l[0] AS v": "list subscript",
    "MATCH (a) UNWIND [[1], [1, 2]] AS l RETURN l[1] AS v": "list subscript",
    "MATCH (a)-[:R]->(b)-[:R*1..2]->(c) RETURN count(*) AS c": "DIFFERENT RELATIONSHIPS",
}


@pytest.fixture(scope="module")
def engines(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    from gqlir.engines import open_engine
    from gqlir.schema import load_schema

    root = tmp_path_factory.mktemp("kuzu-facts")
    (root / "schema.json").write_text(json.dumps(SCHEMA))
    _write_graph(str(root / "graph"), GRAPH)
    schema = load_schema(str(root / "schema.json"))
    opened = {name: open_engine(name) for name in ("reference", "kuzu")}
    for engine in opened.values():
        engine.load(schema, str(root / "graph"))
    yield opened
    for engine in opened.values():
        engine.close()


def _run(engine: Any, text: str, dialect: str) -> ResultTable | EngineError:
    try:
        return engine.run(text, dialect=dialect, timeout=20)
    except EngineError as exc:
        return exc


@pytest.mark.parametrize("query", AGREE)
def test_translation_agrees_with_the_reference(engines: dict[str, Any], query: str) -> None:
    want = _run(engines["reference"], query, "neo4j")
    assert not isinstance(want, EngineError), want
    # the graph's schema gives the property types (a property never a list compares safely)
    text = gqlir.transpile(query, "neo4j", "kuzu", schema=engines["kuzu"].schema)
    got = _run(engines["kuzu"], text, "kuzu")
    assert compare(want, got, query) is None, (text, want, got)


@pytest.mark.parametrize("query", sorted(REFUSED))
def test_translation_refuses(query: str) -> None:
    with pytest.raises(UnsupportedError) as refused:
        gqlir.transpile(query, "neo4j", "kuzu")
    assert refused.value.construct == REFUSED[query]


def test_reserved_words_are_quoted() -> None:
    text = gqlir.transpile(
        "WITH 1 AS trail, 2 AS hint RETURN trail, hint AS multi_join", "neo4j", "kuzu"
    )
    assert text == "WITH 1 AS `trail`, 2 AS `hint` RETURN `trail`, `hint` AS `multi_join`"


def test_long_patterns_translate_in_linear_size() -> None:
    """Uniqueness over one path is Kuzu's is_trail(), not a test per pair of edges."""
    hops = 5000
    query = "MATCH (a0)" + "".join(f"-[:R]->(a{i})" for i in range(1, hops + 1))
    text = gqlir.transpile(query + " RETURN count(*) AS c", "neo4j", "kuzu")
    assert text.count("is_trail(") == 1 and text.count("id(") == 0
    assert len(text) < 20 * hops


def test_trail_test_runs_in_a_read_only_run(engines: dict[str, Any]) -> None:
    """The Kuzu text of a two-relationship MATCH tests is_trail(), which gqlir reads as
    GoogleSQL's IS_TRAIL: a read-only run lets it through, and it reads back as itself."""
    query = "MATCH (a)-[:R]->(b)-[:R]->(c) RETURN count(*) AS c"
    text = gqlir.transpile(query, "neo4j", "kuzu")
    assert "is_trail(" in text
    assert gqlir.transpile(text, "kuzu", "kuzu") == text
    want = _run(engines["reference"], query, "neo4j")
    got = engines["kuzu"].run(text, dialect="kuzu", timeout=20, read_only=True)
    assert compare(want, got, query) is None


def test_aggregates_of_decimal_properties_are_refused(tmp_path: Any) -> None:
    """Kuzu's sum/min/max/avg/count take no DECIMAL (a binder error on the loaded column), so
    a translation given a schema that types the property DECIMAL refuses them; collect() and a
    property of another type stay."""
    from gqlir.engines import open_engine
    from gqlir.schema import load_schema

    schema_json = {
        "format": "gqlir-schema",
        "version": 1,
        "name": "decimals",
        "nodes": [
            {
                "label": "P",
                "properties": [
                    {"name": "d", "type": "DECIMAL(10, 2)"},
                    {"name": "x", "type": "INT64"},
                ],
            }
        ],
        "edges": [],
    }
    (tmp_path / "schema.json").write_text(json.dumps(schema_json))
    graph = {
        "nodes": [{"id": 1, "labels": ["P"], "properties": {"d": 1.5, "x": 1}}],
        "edges": [],
    }
    _write_graph(str(tmp_path / "graph"), graph)
    schema = load_schema(str(tmp_path / "schema.json"))
    assert not CAPS.decimal_aggregates
    engine = open_engine("kuzu")
    try:
        engine.load(schema, str(tmp_path / "graph"))
        for name in ("sum", "min", "max", "avg", "count"):
            query = f"MATCH (p:P) RETURN {name}(p.d) AS v"
            with pytest.raises(EngineError):  # the fact: Kuzu does not bind it
                engine.run(query, dialect="kuzu")
            with pytest.raises(UnsupportedError) as info:
                gqlir.transpile(
                    f"MATCH (p:P) RETURN {name}(p.d * 2) AS v", "neo4j", "kuzu", schema=schema
                )
            assert info.value.construct == f"{name}() of a DECIMAL value"
        for query in ("MATCH (p:P) RETURN collect(p.d) AS v", "MATCH (p:P) RETURN sum(p.x) AS v"):
            text = gqlir.transpile(query, "neo4j", "kuzu", schema=schema)
            assert engine.run(text, dialect="kuzu").rows
    finally:
        engine.close()
