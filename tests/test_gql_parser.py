"""The GQL front end (ISO GQL, Spanner Graph, TuGraph GQL): the GQL corpora, the semantic
normalisations the IR promises (a GQL query and the Cypher query that means the same give the
same IR), the dialect deltas, and error positions."""

from __future__ import annotations

import pytest

import gqlir
from gqlir import ir
from gqlir.conformance import tck
from gqlir.errors import ParseError, SemanticError, UnsupportedError

CORPORA = tck.default_corpora_dir()
GQL_CORPUS = CORPORA / "gql" if CORPORA is not None else None
needs_corpus = pytest.mark.skipif(
    GQL_CORPUS is None or not (GQL_CORPUS / "iso_gql_valid.jsonl").is_file(),
    reason="GQL corpora not available",
)

# The one negative of the corpus that is valid ISO GQL syntax: SIZE(list) is a built-in
# (GQL.g4 cardinalityExpression: SIZE ( listValueExpression )); the corpus itself accepts
# `size(p.x)` among its positives, and opengql and gqlppy both accept it.
SYNTACTICALLY_VALID_NEGATIVES = {"MATCH (a) RETURN size(a.tags)"}


def _corpus(name: str) -> list[str]:
    assert GQL_CORPUS is not None
    return [r["query"] for r in tck.load_jsonl_corpus(GQL_CORPUS / f"{name}.jsonl")]


def gql(text: str, dialect: str = "iso-gql") -> ir.Statement:
    return gqlir.parse(text, dialect)


def _same(gql_text: str, cypher_text: str, dialect: str = "iso-gql") -> None:
    assert gql(gql_text, dialect) == gqlir.parse(cypher_text, "neo4j")


def _expr(text: str, dialect: str = "iso-gql") -> ir.Expr:
    query = gql(text, dialect)
    assert isinstance(query, ir.LinearQuery)
    return query.steps[-1].items[0].expr


# -- corpora --------------------------------------------------------------------------------------


# Two lines of the shared probe corpus are labelled valid but bind a delimited identifier, which
# the opengql grammar rejects (bindingVariable : REGULAR_IDENTIFIER, GQL.g4 21.1).
MISLABELLED_VALID = {
    "MATCH (`delimited id`) RETURN `delimited id`",
    'MATCH ("quoted var":Person) RETURN 1',
}


@needs_corpus
def test_every_valid_iso_gql_query_parses() -> None:
    queries = _corpus("iso_gql_valid")
    assert len(queries) == 180
    assert set(queries) >= MISLABELLED_VALID
    failures = []
    for query in queries:
        if query in MISLABELLED_VALID:
            assert not gqlir.validate(query, "iso-gql").valid
            continue
        try:
            gql(query)
        except gqlir.GqlirError as exc:
            failures.append((query, str(exc)))
    assert not failures, failures[:5]


@needs_corpus
def test_every_invalid_iso_gql_query_is_rejected() -> None:
    queries = _corpus("iso_gql_invalid")
    assert len(queries) == 23
    accepted = []
    for query in queries:
        try:
            gql(query)
        except gqlir.GqlirError:
            continue
        accepted.append(query)
    assert set(accepted) == SYNTACTICALLY_VALID_NEGATIVES


@needs_corpus
def test_invalid_queries_fail_where_the_foreign_syntax_starts() -> None:
    cases = {
        "MATCH (a) WHERE a.name LIKE 'A%' RETURN a": "LIKE",
        "MATCH (a) RETURN toUpper(a.name)": "toUpper",
        "UNWIND [1,2,3] AS x RETURN x": "UNWIND",
        "MATCH (a)-[:KNOWS*1..3]->(b) RETURN b": "*",
        "MATCH (a) RETURN a SKIP 1 LIMIT 1 ORDER BY a.x": "ORDER",
        "MATCH (a) RETURN count(*) GROUP BY a.x": ".",
    }
    for query, token in cases.items():
        assert query in _corpus("iso_gql_invalid")
        with pytest.raises(ParseError) as info:
            gql(query)
        assert info.value.offset == query.index(token), query


@needs_corpus
def test_agreement_with_the_iso_derived_gqlppy_grammar() -> None:
    """An independent check: PyPI gqlppy's Earley grammar, derived from the ISO BNF. Every
    verdict agrees, including the refusal of delimited identifiers as binding variables (as
    opengql GQL.g4's bindingVariable : REGULAR_IDENTIFIER), which the corpus mislabels valid."""
    parser_module = pytest.importorskip("gqlppy")
    parser = parser_module.Parser(kind="earley")

    def reference(query: str) -> bool:
        try:
            parser.parse(query)
        except Exception:  # gqlppy raises Lark's own exception types
            return False
        return True

    def ours(query: str) -> bool:
        try:
            gql(query)
        except gqlir.GqlirError:
            return False
        return True

    disagreements = [
        q for q in _corpus("iso_gql_valid") + _corpus("iso_gql_invalid") if reference(q) != ours(q)
    ]
    assert disagreements == []


# -- one IR per meaning: GQL and Cypher -----------------------------------------------------------


@pytest.mark.parametrize(
    ("gql_text", "cypher_text"),
    [
        ("MATCH (a)-[:R]->{1,3}(b) RETURN b", "MATCH (a)-[:R*1..3]->(b) RETURN b"),
        ("MATCH (a)-[:R]->+(b) RETURN b", "MATCH (a)-[:R*]->(b) RETURN b"),
        ("MATCH (a)-[:R]->{2}(b) RETURN b", "MATCH (a)-[:R*2]->(b) RETURN b"),
        ("FOR x IN [1, 2] RETURN x", "UNWIND [1, 2] AS x RETURN x"),
        ("INSERT (a:Person {name: 'A'})", "CREATE (a:Person {name: 'A'})"),
        ("MATCH (n IS Person & Employee) RETURN n", "MATCH (n:Person&Employee) RETURN n"),
        ("MATCH (n) WHERE n IS LABELED Person RETURN n", "MATCH (n) WHERE n:Person RETURN n"),
        ("MATCH (n) FILTER n.x > 1 RETURN n", "MATCH (n) WITH * WHERE n.x > 1 RETURN n"),
        (
            "MATCH (a:Person) RETURN a NEXT MATCH (a)-[:KNOWS]->(b) RETURN b.name AS name",
            "MATCH (a:Person) WITH a MATCH (a)-[:KNOWS]->(b) RETURN b.name AS name",
        ),
        (
            "MATCH (n:Person) RETURN n.city AS city, count(*) AS cnt GROUP BY city",
            "MATCH (n:Person) RETURN n.city AS city, count(*) AS cnt",
        ),
        (
            "MATCH (n) ORDER BY n.age LIMIT 3 RETURN n",
            "MATCH (n) ORDER BY n.age LIMIT 3 RETURN n",
        ),
        (
            "MATCH (n) RETURN n.name AS name ORDER BY name DESC OFFSET 5 LIMIT 10",
            "MATCH (n) RETURN n.name AS name ORDER BY name DESC SKIP 5 LIMIT 10",
        ),
        (
            "MATCH p = ANY SHORTEST (a)-[:R]->+(b) RETURN p",
            "MATCH p = shortestPath((a)-[:R*]->(b)) RETURN p",
        ),
        (
            "MATCH (a) WHERE EXISTS { MATCH (a)-[:KNOWS]->(:Person) } RETURN a",
            "MATCH (a) WHERE EXISTS { MATCH (a)-[:KNOWS]->(:Person) } RETURN a",
        ),
        (
            "MATCH (a) WHERE EXISTS { (a)-[:KNOWS]->(:Person) } RETURN a",
            "MATCH (a) WHERE (a)-[:KNOWS]->(:Person) RETURN a",
        ),
        ("MATCH (a) RETURN upper(a.name) AS u", "MATCH (a) RETURN toUpper(a.name) AS u"),
        ("MATCH (a) RETURN collect_list(a.x) AS l", "MATCH (a) RETURN collect(a.x) AS l"),
        (
            "MATCH p = (a)-[]->(b) RETURN path_length(p) AS n",
            "MATCH p = (a)-->(b) RETURN length(p) AS n",
        ),
        ("RETURN DATE '2020-01-01' AS d", "RETURN date('2020-01-01') AS d"),
        ("RETURN date('2020-01-01') AS d", "RETURN date('2020-01-01') AS d"),
        ("RETURN DURATION 'P1Y2M' AS d", "RETURN duration('P1Y2M') AS d"),
        ("RETURN mod(7, 3) AS m, power(2, 3) AS p", "RETURN 7 % 3 AS m, 2 ^ 3 AS p"),
        ("MATCH (a) RETURN a.f || a.l AS x", "MATCH (a) RETURN a.f || a.l AS x"),
        # GQL puts OR and XOR on one level; Cypher binds XOR tighter.
        ("RETURN true OR false XOR true AS x", "RETURN (true OR false) XOR true AS x"),
        (
            "MATCH (a) OPTIONAL MATCH (a)-[]->(b) RETURN b",
            "MATCH (a) OPTIONAL MATCH (a)-->(b) RETURN b",
        ),
        (
            "MATCH (a) OPTIONAL { MATCH (a)-[]->(b) } RETURN b",
            "MATCH (a) OPTIONAL MATCH (a)-->(b) RETURN b",
        ),
        ("MATCH (a)-[e]-(b) RETURN e", "MATCH (a)-[e]-(b) RETURN e"),
        ("MATCH -[e]-> RETURN e", "MATCH ()-[e]->() RETURN e"),
        (
            "MATCH (a) CALL (a) { MATCH (a)-[]->(b) RETURN count(b) AS c } RETURN c",
            "MATCH (a) CALL (a) { MATCH (a)-->(b) RETURN count(b) AS c } RETURN c",
        ),
        (
            "MATCH (a) CALL { MATCH (x) RETURN count(x) AS total } RETURN total",
            "MATCH (a) CALL (*) { MATCH (x) RETURN count(x) AS total } RETURN total",
        ),
        ("MATCH (a) SET a.age = 31, a:Employee", "MATCH (a) SET a.age = 31, a:Employee"),
        ("MATCH (a) SET a = {name: 'A'}", "MATCH (a) SET a = {name: 'A'}"),
        ("MATCH (a) REMOVE a.age, a:Employee", "MATCH (a) REMOVE a.age, a:Employee"),
        ("MATCH (a) DETACH DELETE a", "MATCH (a) DETACH DELETE a"),
        (
            "MATCH (a) RETURN a.x AS x UNION ALL MATCH (a) RETURN a.y AS x",
            "MATCH (a) RETURN a.x AS x UNION ALL MATCH (a) RETURN a.y AS x",
        ),
        ("USE g MATCH (n) RETURN n", "USE g MATCH (n) RETURN n"),
        ("MATCH (n) RETURN n.x IS NOT NULL AS b", "MATCH (n) RETURN n.x IS NOT NULL AS b"),
        ("MATCH (n) FINISH", "MATCH (n) FINISH"),
        (
            "MATCH (n) RETURN -9223372036854775808 AS x",
            "MATCH (n) RETURN -9223372036854775808 AS x",
        ),
    ],
)
def test_gql_and_cypher_with_one_meaning_give_one_ir(gql_text: str, cypher_text: str) -> None:
    _same(gql_text, cypher_text)


def test_return_next_is_a_non_final_projection() -> None:
    query = gql("MATCH (a) RETURN a.name AS name NEXT FILTER name <> 'x' RETURN name")
    kinds = [type(s).__name__ for s in query.steps]
    assert kinds == ["Match", "Projection", "Filter", "Projection"]


def test_next_yield_projects_and_renames() -> None:
    query = gql("MATCH (a) RETURN a.x AS x, a.y AS y NEXT YIELD y AS z RETURN z")
    yielded = query.steps[2]
    assert yielded == ir.Projection((ir.ReturnItem(ir.Variable("y"), "z"),))
    # A YIELD that keeps exactly the returned columns is no step at all.
    _same(
        "MATCH (a:Person) RETURN a.name AS name NEXT YIELD name RETURN name",
        "MATCH (a:Person) WITH a.name AS name RETURN name",
    )


def test_for_with_ordinality_and_offset_set_the_index_base() -> None:
    ordinality = gql("FOR x IN [1, 2, 3] WITH ORDINALITY i RETURN x, i").steps[0]
    assert ordinality == ir.Unwind(
        ir.ListLiteral((ir.Integer(1), ir.Integer(2), ir.Integer(3))), "x", "i", 1
    )
    offset = gql("FOR x IN [1] WITH OFFSET o RETURN x, o").steps[0]
    assert (offset.index, offset.index_base) == ("o", 0)


def test_standalone_order_by_is_a_star_projection() -> None:
    step = gql("MATCH (n) ORDER BY n.age LIMIT 3 RETURN n").steps[1]
    assert step.star and step.limit == ir.Integer(3) and len(step.order_by) == 1


def test_group_by_the_implicit_keys_is_implicit_grouping() -> None:
    implicit = gql("MATCH (a)-[e]->(b) RETURN a, count(e) AS deg GROUP BY a").steps[-1]
    assert implicit.group_by is None
    explicit = gql("MATCH (a)-[e]->(b) RETURN count(e) AS deg GROUP BY a").steps[-1]
    assert explicit.group_by == (ir.Variable("a"),)
    # Without aggregates GROUP BY groups (deduplicates), so it stays explicit.
    dedup = gql("MATCH (a) RETURN a GROUP BY a").steps[-1]
    assert dedup.group_by == (ir.Variable("a"),)
    # A key that names a RETURN alias is that item's expression.
    aliased = gql("MATCH (n) RETURN n.city AS city, count(*) AS c GROUP BY city").steps[-1]
    assert aliased.group_by is None
    empty = gql("MATCH (n) RETURN count(*) AS c GROUP BY ()").steps[-1]
    assert empty.group_by is None


def test_null_ordering_is_explicit() -> None:
    asc, desc, first = (
        gql("MATCH (n) RETURN n.x AS x ORDER BY x, n.y DESC, n.z NULLS FIRST").steps[-1].order_by
    )
    high = gqlir.get_dialect("iso-gql").capabilities.nulls_sort_high
    assert (asc.descending, asc.nulls_first) == (False, not high)
    assert (desc.descending, desc.nulls_first) == (True, high)
    assert first.nulls_first is True
    last = gql("MATCH (n) RETURN n ORDER BY n.age DESC NULLS LAST").steps[-1].order_by[0]
    assert (last.descending, last.nulls_first) == (True, False)


def test_default_match_mode_comes_from_the_dialect() -> None:
    assert gql("MATCH (a)-[]->(b) RETURN b").steps[0].mode is ir.MatchMode.DIFFERENT_EDGES
    repeatable = gql("MATCH REPEATABLE ELEMENTS (a)-[]->(b) RETURN b").steps[0]
    assert repeatable.mode is ir.MatchMode.REPEATABLE_ELEMENTS
    spanner = gql("GRAPH g MATCH (a)-[]->(b) RETURN b.x AS x", "spanner").steps[1]
    assert spanner.mode is ir.MatchMode.REPEATABLE_ELEMENTS


def test_path_modes_search_prefixes_and_keep() -> None:
    pattern = gql("MATCH p = ANY SHORTEST TRAIL (a)-[:R]->+(b) RETURN p").steps[0].patterns[0]
    assert pattern.search == ir.Search(ir.SearchKind.ANY_SHORTEST)
    assert pattern.mode is ir.PathMode.TRAIL and pattern.variable == "p"
    groups = gql("MATCH p = SHORTEST 2 GROUPS (a)-[]->+(b) RETURN p").steps[0].patterns[0]
    assert groups.search == ir.Search(ir.SearchKind.SHORTEST_K_GROUPS, 2)
    anyk = gql("MATCH p = ANY 5 (a)-[]->+(b) RETURN p").steps[0].patterns[0]
    assert anyk.search == ir.Search(ir.SearchKind.ANY, 5)
    everything = gql("MATCH p = ALL TRAIL (a)-[]->{1,5}(b) RETURN p").steps[0].patterns[0]
    assert everything.search is None and everything.mode is ir.PathMode.TRAIL
    # KEEP applies its path mode to every path pattern.
    _same_ir = gql("MATCH (a)-[e1]->(b), (b)-[e2]->(c) KEEP TRAIL RETURN a")
    assert _same_ir == gql("MATCH TRAIL (a)-[e1]->(b), TRAIL (b)-[e2]->(c) RETURN a")
    with pytest.raises(UnsupportedError):
        gql("MATCH (a)-[e1]->(b) KEEP ANY SHORTEST RETURN a")


def test_quantified_paths_and_unions() -> None:
    paren = gql("MATCH ((a)-[e:ROAD]->(b) WHERE e.km < 100){1,5} RETURN a").steps[0]
    element = paren.patterns[0].path.elements[0]
    assert isinstance(element, ir.ParenPath) and element.quantifier == ir.Quantifier(1, 5)
    assert element.where is not None
    union = gql("MATCH (a)-[e:ROAD]->(b) | (a)-[e:RAIL]->(b) RETURN a").steps[0].patterns[0]
    assert isinstance(union.path, ir.PathUnion) and not union.path.multiset
    multiset = gql("MATCH (a)-[e:ROAD]->(b) |+| (a)-[e:RAIL]->(b) RETURN a").steps[0]
    assert multiset.patterns[0].path.multiset
    bounds = [
        gql(f"MATCH (a)-[]->{q}(b) RETURN b").steps[0].patterns[0].path.elements[1].quantifier
        for q in ("{2,}", "{,5}", "*", "+")
    ]
    assert bounds == [
        ir.Quantifier(2, None),
        ir.Quantifier(0, 5),
        ir.Quantifier(0, None),
        ir.Quantifier(1, None),
    ]


def test_edge_directions() -> None:
    def direction(arrow: str) -> ir.Direction:
        return gql(f"MATCH (a){arrow}(b) RETURN a").steps[0].patterns[0].path.elements[1].direction

    assert direction("~[e]~") is ir.Direction.UNDIRECTED
    assert direction("~") is ir.Direction.UNDIRECTED
    assert direction("<-[e]->") is ir.Direction.BOTH
    assert direction("<->") is ir.Direction.BOTH
    assert direction("-") is ir.Direction.EITHER
    assert direction("<-") is ir.Direction.IN
    with pytest.raises(UnsupportedError):
        gql("MATCH (a)<~[e]~(b) RETURN a")


def test_optional_block_of_several_matches_is_an_optional_subquery() -> None:
    query = gql(
        "MATCH (a:Person) OPTIONAL { MATCH (a)-[:WORKS_AT]->(c) MATCH (c)-[:IN]->(city) } "
        "RETURN a, city"
    )
    call = query.steps[1]
    assert isinstance(call, ir.CallSubquery) and call.optional and call.imports is None
    returned = call.query.steps[-1]
    # The block returns exactly its new variables: `a` comes from outside.
    assert [i.alias for i in returned.items] == ["c", "city"]


def test_match_yield_hides_the_other_pattern_variables() -> None:
    query = gql("MATCH (x) MATCH (a)-[e]->(b) YIELD a, b RETURN *")
    projection = query.steps[2]
    assert [i.alias for i in projection.items] == ["x", "a", "b"]
    with pytest.raises(ParseError):
        gql("MATCH (a)-[e]->(b) YIELD z RETURN z")


def test_typed_literals_and_cast() -> None:
    date, time, local = (
        i.expr
        for i in gql(
            "RETURN DATE '2024-01-01' AS d, TIME '12:00:00Z' AS t, "
            "DATETIME '2024-01-01T12:00:00' AS l"
        )
        .steps[-1]
        .items
    )
    assert date == ir.TemporalLiteral(ir.TemporalKind.DATE, "2024-01-01")
    assert time.kind is ir.TemporalKind.TIME
    assert local.kind is ir.TemporalKind.LOCAL_DATETIME
    assert _expr("MATCH (a) RETURN CAST(a.x AS INT64)") == ir.Cast(
        ir.Property(ir.Variable("a"), "x"), ir.TypeRef("INTEGER")
    )
    assert _expr("RETURN current_date AS d") == ir.FunctionCall("date", ())
    assert _expr("RETURN 0b101 AS b, 0x1F AS h") == ir.Integer(5)


def test_gql_built_ins_become_canonical_or_equivalent_expressions() -> None:
    def ln(e: ir.Expr) -> ir.FunctionCall:
        return ir.FunctionCall("log", (e,))

    x = ir.Property(ir.Variable("a"), "x")
    # LOG(b, x) is the logarithm to base b, not the natural logarithm.
    assert _expr("MATCH (a) RETURN log(2, a.x)") == ir.Arithmetic(
        ir.ArithOp.DIV, ln(x), ln(ir.Integer(2))
    )
    assert _expr("MATCH (a) RETURN ln(a.x)") == ln(x)
    # GQL's one-argument TRIM removes spaces only.
    assert _expr("MATCH (a) RETURN trim(a.x)") == ir.FunctionCall("btrim", (x, ir.String(" ")))
    assert _expr("MATCH (a) RETURN char_length(a.x)") == ir.FunctionCall("char_length", (x,))
    assert _expr("MATCH (a) RETURN cardinality(a.x)") == ir.FunctionCall("size", (x,))
    assert _expr("MATCH (a) RETURN element_id(a)") == ir.FunctionCall(
        "elementid", (ir.Variable("a"),)
    )
    assert _expr("MATCH (a) RETURN count(DISTINCT a.x)") == ir.Aggregate("count", (x,), True)
    assert _expr("MATCH (a) RETURN collect_list(a.x)") == ir.Aggregate("collect", (x,))


def test_every_iso_built_in_has_a_meaning() -> None:
    """Each name ISO GQL may call is handled by the parser or is a function of the IR's
    catalogue: none passes into a Cypher translation as an unknown user function."""
    from gqlir.dialect import get_dialect
    from gqlir.ir import functions
    from gqlir.parser.gql import ISO_BUILTINS

    special = {"mod", "power", "property_exists", "same", "all_different"}
    gql = get_dialect("iso-gql")
    missing = {
        name
        for name in ISO_BUILTINS - special
        if functions.lookup(gql.canonical_function(name)) is None
    }
    assert not missing


@pytest.mark.parametrize(
    "call", ["SINH(a.x)", "COSH(a.x)", "TANH(a.x)", "BYTE_LENGTH(a.s)", "OCTET_LENGTH(a.s)"]
)
def test_iso_built_ins_cypher_lacks_are_refused_in_cypher(call: str) -> None:
    text = f"MATCH (a) RETURN {call} AS v"
    assert gqlir.transpile(text, "iso-gql", "iso-gql").startswith("MATCH (a) RETURN ")
    for target in ("neo4j", "opencypher9", "kuzu"):
        with pytest.raises(UnsupportedError):
            gqlir.transpile(text, "iso-gql", target)
    if not call.startswith("OCTET"):  # (a Cypher octet_length() is a user function)
        with pytest.raises(UnsupportedError):  # Cypher's sinh() is not GQL's either
            gqlir.parse(f"MATCH (a) RETURN {call.lower()} AS v", "neo4j")


def test_elements_of_a_path_in_cypher_interleaves_nodes_and_relationships() -> None:
    from gqlir.eval import Graph, run

    graph = Graph()
    run("CREATE (:A {k: 1})-[:R {k: 2}]->(:B {k: 3})<-[:S {k: 4}]-(:C {k: 5})", graph)
    gql = (
        "MATCH p = (a:A)->(b)<-(c) OPTIONAL MATCH q = (c)-[:NONE]->() "
        "RETURN ELEMENTS(p) AS e, ELEMENTS(q) AS f"
    )
    cypher = gqlir.transpile(gql, "iso-gql", "neo4j")
    assert "ELEMENTS" not in cypher.upper(), cypher
    want = run(gql, graph, dialect="iso-gql").rows
    assert [x.properties["k"] for x in want[0][0]] == [1, 2, 3, 4, 5] and want[0][1] is None
    assert run(cypher, graph).rows == want


def test_sql_style_aggregates_are_null_without_values() -> None:
    """GQL's SUM and STDDEV_POP of no values, and STDDEV_SAMP of fewer than two, are null where
    the canonical (Cypher) aggregates give 0."""
    x = ir.Property(ir.Variable("a"), "x")

    def null_below(name: str, n: int, distinct: bool = False) -> ir.Case:
        count = ir.Aggregate("count", (x,), distinct)
        when = ir.CaseWhen(ir.Comparison(ir.CompOp.LT, count, ir.Integer(n)), ir.Null())
        return ir.Case(None, (when,), ir.Aggregate(name, (x,), distinct))

    assert _expr("MATCH (a) RETURN sum(a.x)") == null_below("sum", 1)
    assert _expr("MATCH (a) RETURN sum(DISTINCT a.x)") == null_below("sum", 1, True)
    assert _expr("MATCH (a) RETURN stddev_pop(a.x)") == null_below("stdevp", 1)
    assert _expr("MATCH (a) RETURN stddev_samp(a.x)") == null_below("stdev", 2)
    assert _expr("MATCH (a) RETURN avg(a.x)") == ir.Aggregate("avg", (x,))


def test_graph_element_predicates() -> None:
    a, b, e = ir.Variable("a"), ir.Variable("b"), ir.Variable("e")
    where = gql("MATCH (a)-[e]->(b) WHERE e IS DIRECTED RETURN e").steps[0].where
    assert where == ir.IsDirected(e)
    where = (
        gql("MATCH (a)-[e]->(b) WHERE a IS SOURCE OF e AND b IS NOT DESTINATION OF e RETURN e")
        .steps[0]
        .where
    )
    assert where == ir.And(
        ir.IsEndpoint(a, e, ir.Endpoint.SOURCE), ir.IsEndpoint(b, e, ir.Endpoint.DESTINATION, True)
    )
    assert gql("MATCH (a)-[e]->(b) WHERE SAME(a, b) RETURN a").steps[0].where == ir.Same((a, b))
    assert gql("MATCH (a), (b) WHERE ALL_DIFFERENT(a, b) RETURN a").steps[
        0
    ].where == ir.AllDifferent((a, b))
    assert gql("MATCH (a) WHERE PROPERTY_EXISTS(a, name) RETURN a").steps[
        0
    ].where == ir.PropertyExists(a, "name")
    assert _expr("MATCH (a) RETURN a.f IS NOT TRUE") == ir.IsTruth(
        ir.Property(a, "f"), ir.TruthValue.TRUE, True
    )
    assert _expr("MATCH (a) RETURN a.x IS :: INT") == ir.TypeTest(
        ir.Property(a, "x"), ir.TypeRef("INTEGER")
    )


def test_truth_tests_bind_looser_than_comparison_and_tighter_than_not() -> None:
    expr = _expr("MATCH (a) RETURN NOT a.x = 1 IS TRUE")
    assert isinstance(expr, ir.Not) and isinstance(expr.operand, ir.IsTruth)
    assert isinstance(expr.operand.operand, ir.Comparison)


def test_value_subquery_and_exists_forms() -> None:
    value = _expr("MATCH (a) RETURN VALUE { MATCH (a)-[]->(b) RETURN count(b) } AS deg")
    assert isinstance(value, ir.ValueSubquery)
    block = gql("MATCH (a) WHERE EXISTS (MATCH (a)-[]->(b) MATCH (b)-[]->(c)) RETURN a").steps[0]
    assert len(block.where.query.steps) == 2


def test_composite_queries() -> None:
    for word, op in (
        ("EXCEPT", ir.SetOp.EXCEPT),
        ("INTERSECT", ir.SetOp.INTERSECT),
        ("OTHERWISE", ir.SetOp.OTHERWISE),
    ):
        query = gql(f"MATCH (n:A) RETURN n.name AS x {word} MATCH (n:B) RETURN n.name AS x")
        assert isinstance(query, ir.SetOperation) and query.op is op and not query.all
    with pytest.raises(SemanticError):
        gql("RETURN 1 AS x UNION RETURN 2 AS x UNION ALL RETURN 3 AS x")
    # A composite statement followed by NEXT reads the unit table: a subquery without imports.
    chained = gql("RETURN 1 AS x UNION RETURN 2 AS x NEXT RETURN x + 1 AS y")
    assert isinstance(chained.steps[0], ir.CallSubquery) and chained.steps[0].imports == ()


def test_select_statement() -> None:
    query = gql(
        "SELECT n.name AS name FROM myGraph MATCH (n:Person) WHERE n.age > 3 ORDER BY name LIMIT 2"
    )
    kinds = [type(s).__name__ for s in query.steps]
    # WHERE right after the MATCH is the graph pattern's own (the same filter either way).
    assert kinds == ["UseGraph", "Match", "Projection"]
    assert query.steps[1].where is not None and query.steps[-1].limit == ir.Integer(2)


def test_use_current_graph_is_no_step() -> None:
    assert gql("USE CURRENT_GRAPH MATCH (n) RETURN count(n) AS c") == gql(
        "MATCH (n) RETURN count(n) AS c"
    )
    with pytest.raises(UnsupportedError):
        gql("USE HOME_GRAPH MATCH (n) RETURN n")


def test_unaliased_return_items_keep_their_text() -> None:
    query = gql("MATCH (n) RETURN n, n.name, count( * )")
    assert [i.alias for i in query.steps[-1].items] == ["n", "n.name", "count( * )"]


def test_delimited_identifiers_are_variables_only_where_the_dialect_allows_them() -> None:
    """ISO GQL binds regular identifiers only (bindingVariable : REGULAR_IDENTIFIER, GQL.g4
    21.1); TuGraph's manual binds `/uncommon variable` (tugraph-gql quoted_variables)."""
    for text in ('MATCH ("quoted var":Person) RETURN 1', "MATCH (`a``b`) RETURN 1"):
        with pytest.raises(ParseError) as info:
            gql(text)
        assert info.value.column == 8
    for text in ("MATCH (n) RETURN `n`.x AS x", "MATCH p = (n) LET `v` = 1 RETURN 1 AS o"):
        assert not gqlir.validate(text, "iso-gql").valid
    query = gqlir.parse("MATCH (`a``b`) RETURN `a``b`", "tugraph-gql")
    assert query.steps[0].patterns[0].path.elements[0].variable == "a`b"
    # labels, property keys and column names may still be delimited
    assert gqlir.validate("MATCH (n:`my label`) RETURN n.`my key` AS `my col`", "iso-gql").valid
    # In an expression a double-quoted text is a string.
    assert _expr('RETURN "x" AS s') == ir.String("x")
    assert _expr("RETURN 'it''s' AS s") == ir.String("it's")


def test_non_reserved_words_are_names() -> None:
    query = gql("MATCH (trail)-[graph]->(node) RETURN trail.walk AS walk")
    elements = query.steps[0].patterns[0].path.elements
    assert [elements[0].variable, elements[1].variable, elements[2].variable] == [
        "trail",
        "graph",
        "node",
    ]


def test_comments() -> None:
    assert gql("MATCH (n) -- a comment\nRETURN n /* block */") == gql("MATCH (n) RETURN n")


# -- sessions, transactions, catalog --------------------------------------------------------------


def test_session_and_transaction_commands() -> None:
    assert gql("SESSION SET GRAPH myGraph") == ir.SessionSetGraph("myGraph")
    assert gql("SESSION SET SCHEMA /myschema") == ir.SessionSetSchema("/myschema")
    assert gql("SESSION SET TIME ZONE 'UTC'") == ir.SessionSetTimeZone("UTC")
    assert gql("SESSION SET VALUE $x = 1") == ir.SessionSetParameter("x", ir.Integer(1))
    assert gql("SESSION RESET") == ir.SessionReset()
    assert gql("SESSION RESET TIME ZONE") == ir.SessionReset(ir.SessionResetTarget.TIME_ZONE)
    assert gql("SESSION CLOSE") == ir.SessionClose()
    assert gql("START TRANSACTION READ ONLY") == ir.StartTransaction(read_only=True)
    program = gql("START TRANSACTION MATCH (n) RETURN n COMMIT")
    assert isinstance(program, ir.Program)
    assert [type(s).__name__ for s in program.statements] == [
        "StartTransaction",
        "LinearQuery",
        "Commit",
    ]
    assert gql("ROLLBACK") == ir.Rollback()
    with pytest.raises(ParseError):
        gql("SESSION SET GRAPH g MATCH (n) RETURN n")


def test_catalog_statements() -> None:
    assert gql("CREATE GRAPH IF NOT EXISTS g ANY") == ir.CreateGraph(
        "g", ir.OpenGraphType(), if_not_exists=True
    )
    assert gql("CREATE OR REPLACE GRAPH g ANY").or_replace
    assert gql("CREATE GRAPH g ::gt").graph_type == ir.GraphTypeName("gt")
    assert gql("CREATE GRAPH g TYPED gt").graph_type == ir.GraphTypeName("gt")
    assert gql("CREATE GRAPH g LIKE other").graph_type == ir.GraphTypeLike("other")
    assert gql("CREATE GRAPH g ANY AS COPY OF other").copy_of == "other"
    assert gql("DROP GRAPH IF EXISTS g") == ir.DropGraph("g", True)
    assert gql("DROP GRAPH TYPE gt") == ir.DropGraphType("gt")
    assert gql("CREATE SCHEMA /a/b") == ir.CreateSchema("/a/b")
    assert gql("DROP SCHEMA /a") == ir.DropSchema("/a")
    spec = gql(
        "CREATE GRAPH TYPE gt AS { (:Person {name STRING, age INT}), "
        "(:Person)-[:WORKS_AT {since DATE}]->(:Company) }"
    ).source
    person, works = spec.elements
    assert person == ir.NodeType(
        labels=("Person",),
        properties=(
            ir.PropertyType("name", ir.TypeRef("STRING")),
            ir.PropertyType("age", ir.TypeRef("INTEGER")),
        ),
    )
    assert works.source.labels == ("Person",) and works.destination.labels == ("Company",)
    assert works.labels == ("WORKS_AT",) and works.directed
    phrase = gql(
        "CREATE GRAPH TYPE g2 { NODE Person {name STRING NOT NULL}, "
        "DIRECTED EDGE Knows {since INT} CONNECTING (Person <- Person) }"
    ).source.elements[1]
    assert phrase.name == "Knows" and phrase.source.alias == "Person"
    keyed = gql("CREATE GRAPH TYPE g3 { (p :Person => {name :: STRING}), (p)-[:L]->(p) }").source
    assert keyed.elements[0].key_labels == ("Person",) and keyed.elements[0].alias == "p"
    with pytest.raises(ParseError):
        gql("CREATE GRAPH TYPE g { UNDIRECTED EDGE E CONNECTING (a -> b) }")
    assert isinstance(gql("CREATE GRAPH a ANY CREATE GRAPH b ANY"), ir.Program)


def test_data_modification() -> None:
    create = gql("MATCH (a), (b) INSERT (a)-[:KNOWS {since: 2020}]->(b)").steps[1]
    assert isinstance(create, ir.Create)
    with pytest.raises(ParseError):
        gql("INSERT (a)-[:R]-(b)")  # an inserted edge has a direction or is undirected
    with pytest.raises(ParseError):
        gql("INSERT (a:A|B)")
    assert gql("MATCH (a) NODETACH DELETE a").steps[1] == ir.Delete((ir.Variable("a"),), False)


# -- errors ---------------------------------------------------------------------------------------


def test_parse_error_has_position_and_expected_tokens() -> None:
    with pytest.raises(ParseError) as info:
        gql("MATCH (n\nRETURN n")
    err = info.value
    assert (err.line, err.column) == (2, 1)
    assert "')'" in err.expected


@pytest.mark.parametrize(
    ("query", "code", "at"),
    [
        ("MATCH (a) RETURN toUpper(a.name)", "PARSE_UNKNOWN_FUNCTION", "toUpper"),
        ("MATCH (a) RETURN a SKIP 1 LIMIT 1 ORDER BY a.x", "PARSE_CLAUSE_ORDER", "ORDER"),
        ("MATCH (a) RETURN a MATCH (b) RETURN b", "PARSE_CLAUSE_ORDER", "MATCH (b)"),
        ("RETURN 1 = 1 = 1 AS x", "PARSE_CHAINED_COMPARISON", "= 1 AS"),
        ("RETURN 9223372036854775808 AS x", "PARSE_INTEGER_OVERFLOW", "9223"),
        ("MATCH (n)", "PARSE_NO_RESULT", "MATCH"),
        ("RETURN 1 \u00a7 2", "PARSE_CHARACTER", "\u00a7"),
    ],
)
def test_errors_have_codes_and_positions(query: str, code: str, at: str) -> None:
    with pytest.raises(ParseError) as info:
        gql(query)
    assert info.value.code == code
    assert info.value.offset == query.index(at)


@pytest.mark.parametrize(
    "query",
    [
        "MATCH (a) RETURN a.x ? 1",
        "MATCH (a) WHERE a.tags[0] = 1 RETURN a",
        "MATCH ((a)-[]->(b))? RETURN a",
        "LET VALUE x :: INT = 1 RETURN x",
        "MATCH (a) RETURN CAST(a AS STRING(10))",
        "",
        ";",
        "MATCH (a) RETURN substring(a.x, 1)",
        "MATCH (a) RETURN a.x IN [1]",
    ],
)
def test_unsupported_or_invalid_input_is_a_gqlir_error(query: str) -> None:
    with pytest.raises(gqlir.GqlirError):
        gql(query)


@pytest.mark.parametrize(
    "query",
    [
        "RETURN " + "(" * 5000 + "1" + ")" * 5000 + " AS x",
        "RETURN " + "[" * 5000 + "]" * 5000 + " AS x",
        "RETURN " + "NOT " * 5000 + "true AS x",
        "RETURN " + " + ".join(["1"] * 5000) + " AS x",
        "RETURN " + " || ".join(["'a'"] * 5000) + " AS x",
        "RETURN 1 IS NULL" + " IS NULL" * 5000 + " AS x",
        "RETURN 1 AS x" + " UNION RETURN 1 AS x" * 5000,
        "MATCH " + "(" * 5000 + "(a)-[]->(b)" + ")" * 5000 + " RETURN a",
        "MATCH (a:" + "|".join(["A"] * 5000) + ") RETURN a",
        "MATCH (a) RETURN a" + ".b" * 5000,
        "RETURN " + "VALUE { RETURN " * 2000 + "1" + " }" * 2000 + " AS x",
    ],
)
def test_deep_nesting_is_a_parse_error(query: str) -> None:
    with pytest.raises(ParseError) as info:
        gql(query)
    assert info.value.code == "PARSE_TOO_DEEP"


# -- Spanner Graph --------------------------------------------------------------------------------


def test_spanner_graph_prefix_is_required_and_becomes_use_graph() -> None:
    query = gql("GRAPH FinGraph MATCH (p:Person) RETURN p.name", "spanner")
    assert query.steps[0] == ir.UseGraph("FinGraph")
    with pytest.raises(ParseError) as info:
        gql("MATCH (p:Person) RETURN p.name", "spanner")
    assert info.value.offset == 0
    union = gql("GRAPH g MATCH (a) RETURN a.x AS x UNION ALL MATCH (b) RETURN b.x AS x", "spanner")
    assert union.left.steps[0] == union.right.steps[0] == ir.UseGraph("g")


def test_spanner_parameters_and_implicit_column_names() -> None:
    query = gql("GRAPH g MATCH (p) WHERE p.id = @id RETURN p.name, p.age AS years", "spanner")
    assert query.steps[1].where.right == ir.Parameter("id")
    assert [i.alias for i in query.steps[-1].items] == ["name", "years"]
    with pytest.raises(ParseError):
        gql("GRAPH g MATCH (p) WHERE p.id = $id RETURN p.name", "spanner")


@pytest.mark.parametrize(
    "query",
    [
        "GRAPH g MATCH (a)-[:R]->+(b) RETURN b.x AS x",
        "GRAPH g MATCH (a)-[:R]->*(b) RETURN b.x AS x",
        "GRAPH g MATCH (a)-[:R]->{2,}(b) RETURN b.x AS x",
        "GRAPH g MATCH SIMPLE (a)-[:R]->{1,3}(b) RETURN b.x AS x",
        "GRAPH g MATCH ANY SHORTEST TRAIL (a)-[:R]->{1,3}(b) RETURN b.x AS x",
        "GRAPH g MATCH (a) RETURN a.x AS x UNION MATCH (a) RETURN a.x AS x",
        "GRAPH g MATCH (a) CALL { RETURN 1 AS one } RETURN one",
        "GRAPH g MATCH (a)~[e]~(b) RETURN a.x AS x",
        "GRAPH g INSERT (a:A)",
        "GRAPH g MATCH (a) RETURN a.x XOR a.y AS x",
        "GRAPH g MATCH (a) WHERE a:Person RETURN a.x AS x",
    ],
)
def test_spanner_rejects_what_googlesql_graph_does_not_have(query: str) -> None:
    with pytest.raises(ParseError):
        gql(query, "spanner")


def test_spanner_bounded_quantifiers() -> None:
    rel = (
        gql("GRAPH g MATCH (a)-[:R]->{,3}(b) RETURN b.x AS x", "spanner")
        .steps[1]
        .patterns[0]
        .path.elements[1]
    )
    assert rel.quantifier == ir.Quantifier(0, 3)


def test_spanner_googlesql_predicates_are_the_canonical_ones() -> None:
    where = (
        gql(
            "GRAPH g MATCH (n) WHERE STARTS_WITH(n.name, 'A') AND n.id IN UNNEST(@ids) "
            "AND n.k NOT IN (1, 2) AND n.s LIKE 'x%' RETURN n.id",
            "spanner",
        )
        .steps[1]
        .where
    )
    name, nid, k, s = (ir.Property(ir.Variable("n"), p) for p in ("name", "id", "k", "s"))
    assert where == ir.And(
        ir.And(
            ir.And(
                ir.StringMatch(ir.StringOp.STARTS_WITH, name, ir.String("A")),
                # UNNEST(NULL) is empty: IN UNNEST(@ids) is IN coalesce(@ids, [])
                ir.In(nid, ir.FunctionCall("coalesce", (ir.Parameter("ids"), ir.ListLiteral(())))),
            ),
            ir.Not(ir.In(k, ir.ListLiteral((ir.Integer(1), ir.Integer(2))))),
        ),
        ir.Like(s, ir.String("x%"), escape="\\"),  # GoogleSQL: a backslash escapes
    )
    between = (
        gql("GRAPH g MATCH (n) WHERE n.x BETWEEN 1 AND 3 RETURN n.id", "spanner").steps[1].where
    )
    assert between == ir.And(
        ir.Comparison(ir.CompOp.GE, ir.Property(ir.Variable("n"), "x"), ir.Integer(1)),
        ir.Comparison(ir.CompOp.LE, ir.Property(ir.Variable("n"), "x"), ir.Integer(3)),
    )
    same = (
        gql("GRAPH g MATCH (n) WHERE STARTS_WITH(n.name, 'A') RETURN n.id", "spanner")
        .steps[1]
        .where
    )
    cypher = (
        gqlir.parse("MATCH (n) WHERE n.name STARTS WITH 'A' RETURN n.id", "neo4j").steps[0].where
    )
    assert same == cypher


def test_spanner_statements() -> None:
    query = gql(
        "GRAPH g MATCH (p)-[o:Owns]->(a) FOR element IN ['all', 'some'] WITH OFFSET "
        "WITH p, element, offset RETURN p.id, element, offset",
        "spanner",
    )
    unwind = query.steps[2]
    assert (unwind.index, unwind.index_base) == ("offset", 0)
    assert isinstance(query.steps[3], ir.Projection)  # the WITH statement
    grouped = gql("GRAPH g MATCH (a)-[]->(b) RETURN a, COUNT(*) AS n GROUP BY ALL", "spanner")
    assert grouped.steps[-1].group_by is None
    by_expr = gql("GRAPH g MATCH (a) RETURN a.city AS c, COUNT(*) AS n GROUP BY a.city", "spanner")
    assert by_expr.steps[-1].group_by is None
    # A standalone ORDER BY not followed by LIMIT/OFFSET is ignored by Spanner: no step.
    ignored = gql("GRAPH g MATCH (a) ORDER BY a.x RETURN a.x AS x", "spanner")
    assert [type(s).__name__ for s in ignored.steps] == ["UseGraph", "Match", "Projection"]
    kept = gql("GRAPH g MATCH (a) ORDER BY a.x LIMIT 2 RETURN a.x AS x", "spanner")
    assert kept.steps[2].limit == ir.Integer(2)
    call = gql(
        "GRAPH g MATCH (p) CALL (p) { MATCH (p)-[]->(a) RETURN a.id AS aid } RETURN aid", "spanner"
    )
    assert call.steps[2].imports == ("p",)


def test_spanner_cheapest_search_with_edge_cost() -> None:
    match = gql(
        "GRAPH g MATCH ANY CHEAPEST (a)-[t:Transfers COST t.amount]->{1,3}(b) RETURN a.id",
        "spanner",
    ).steps[1]
    pattern = match.patterns[0]
    assert pattern.search == ir.Search(ir.SearchKind.ANY_CHEAPEST)
    assert pattern.path.elements[1].cost == ir.Property(ir.Variable("t"), "amount")
    k = gql("GRAPH g MATCH CHEAPEST 2 (a)-[t COST 1]->{1,3}(b) RETURN a.id", "spanner").steps[1]
    assert k.patterns[0].search == ir.Search(ir.SearchKind.CHEAPEST_K, 2)


def test_spanner_refuses_functions_it_spells_with_another_meaning() -> None:
    # ROUND rounds half away from zero: GoogleSQL's own function, refused by other targets
    rounded = _expr("GRAPH g MATCH (a) RETURN ROUND(a.x) AS r", "spanner")
    assert rounded == ir.FunctionCall("googlesql.round", (ir.Property(ir.Variable("a"), "x"),))
    with pytest.raises(UnsupportedError):
        gqlir.transpile("GRAPH g MATCH (a) RETURN ROUND(a.x) AS r", "spanner", "neo4j")
    with pytest.raises(UnsupportedError):
        gql("GRAPH g MATCH (a) RETURN STRING_AGG(a.name) AS r", "spanner")
    assert _expr(
        "GRAPH g MATCH (a) RETURN ARRAY_LENGTH(a.tags) AS n", "spanner"
    ) == ir.FunctionCall("size", (ir.Property(ir.Variable("a"), "tags"),))
    # ARRAY_AGG keeps nulls and gives null for no rows; collect() drops nulls and gives [].
    array_agg = _expr("GRAPH g MATCH (a) RETURN ARRAY_AGG(a.x) AS n", "spanner")
    x = ir.Property(ir.Variable("a"), "x")
    collected = ir.ListComprehension(
        "item",
        ir.Aggregate("collect", (ir.ListLiteral((x,)),)),
        None,
        ir.Index(ir.Variable("item"), ir.Integer(0)),
    )
    assert array_agg == ir.Case(
        None,
        (ir.CaseWhen(ir.Comparison(ir.CompOp.EQ, ir.CountStar(), ir.Integer(0)), ir.Null()),),
        collected,
    )


@pytest.mark.parametrize(
    ("literal", "text"),
    [
        # no zone: Spanner's default, America/Los_Angeles (set-default-time-zone)
        ("'2020-01-01 10:00:00'", "2020-01-01T10:00:00[America/Los_Angeles]"),
        ("'2020-01-01'", "2020-01-01T00:00:00[America/Los_Angeles]"),
        ("'2020-01-01 10:00:00.25 UTC'", "2020-01-01T10:00:00.25[UTC]"),
        ("'2014-09-27 12:30:00 America/New_York'", "2014-09-27T12:30:00[America/New_York]"),
        ("'2020-01-01 10:00:00+08:00'", "2020-01-01T10:00:00+08:00"),
        ("'2020-01-01T10:00:00Z'", "2020-01-01T10:00:00Z"),
    ],
)
def test_spanner_timestamp_literal_is_an_instant(literal: str, text: str) -> None:
    query = f"GRAPH g MATCH (a) RETURN TIMESTAMP {literal} AS t"
    lit = _expr(query, "spanner")
    assert lit == ir.TemporalLiteral(ir.TemporalKind.DATETIME, text)
    tree = gqlir.parse(query, "spanner")
    assert gqlir.parse(gqlir.emit(tree, "spanner"), "spanner") == tree
    cypher = gqlir.transpile(query, "spanner", "neo4j")
    assert f"datetime('{text}')" in cypher


def test_spanner_timestamp_literal_that_is_no_timestamp_is_refused_with_a_position() -> None:
    with pytest.raises(ParseError) as info:
        gqlir.parse("GRAPH g RETURN TIMESTAMP 'soon' AS t", "spanner")
    assert info.value.column == 16


# -- TuGraph GQL ----------------------------------------------------------------------------------


def test_tugraph_then_group_by_expressions_and_set_merge() -> None:
    assert gql("MATCH (a) RETURN a THEN MATCH (a)-[]->(b) RETURN b", "tugraph-gql") == gql(
        "MATCH (a) RETURN a NEXT MATCH (a)-[]->(b) RETURN b"
    )
    grouped = gql("MATCH (n) RETURN n.city, count(*) AS c GROUP BY n.city", "tugraph-gql")
    assert grouped.steps[-1].group_by is None
    ordinal = gql("MATCH (n) RETURN n.city, count(*) AS c GROUP BY 1", "tugraph-gql")
    assert ordinal.steps[-1].group_by is None
    merge = gql("MATCH (n) SET n += {a: 1}", "tugraph-gql").steps[1].items[0]
    assert merge == ir.SetProperties("n", ir.MapLiteral((("a", ir.Integer(1)),)), merge=True)
    with pytest.raises(ParseError):
        gql("MATCH (n) RETURN n.city, count(*) AS c GROUP BY n.city")


def test_value_is_a_keyword_only_before_a_brace() -> None:
    """VALUE starts a subquery only as VALUE {…}; elsewhere it may name a column or variable
    (ORDER BY value used to fail where a keyword could also stand)."""
    query = gql("GRAPH g MATCH (n) RETURN n.x AS value ORDER BY value NULLS LAST", "spanner")
    assert isinstance(query, ir.LinearQuery)
    assert query.steps[-1].order_by[0].expr == ir.Variable("value")
    sub = _expr("RETURN VALUE { RETURN 1 AS one } AS v")
    assert isinstance(sub, ir.ValueSubquery)


def test_accent_quoted_names_read_both_escapes() -> None:
    """A grave accent inside a GQL delimited name is doubled or backslash-escaped (GQL.g4's
    ACCENT_QUOTED_CHARACTER_SEQUENCE); the ISO GQL emitter writes the backslash form, so
    Cypher -> ISO GQL -> Cypher keeps every name."""
    doubled = _expr("RETURN 1 AS `a``b`")
    query = gql("MATCH (x:`L\\u0041`) WHERE x.`k\\`y` = $`p``q` RETURN 1 AS `a\\`b`")
    assert isinstance(query, ir.LinearQuery)
    assert query.steps[-1].items[0].alias == "a`b"
    match = query.steps[0]
    node = match.patterns[0].path.elements[0]
    assert node.labels == ir.Label("LA")
    assert match.where.left == ir.Property(ir.Variable("x"), "k`y")
    assert doubled == ir.Integer(1)
    cypher = "MATCH (n:`we``ird`) WHERE n.x = $`p``q` RETURN n.`pro``p` AS `col``x`"
    there = gqlir.transpile(cypher, "neo4j", "iso-gql")
    assert gqlir.parse(there, "iso-gql") == gqlir.parse(cypher, "neo4j")


# -- what the GQL printer writes reads back to the IR it came from --------------------------------


def test_return_star_is_the_variables_in_scope_by_name() -> None:
    star = gql("MATCH (n)-[e]->(m) LET x = n.x RETURN *")
    assert star == gql("MATCH (n)-[e]->(m) LET x = n.x RETURN e, m, n, x")


def test_let_reading_its_own_binding_is_two_lets() -> None:
    tree = gql("MATCH (n) LET a = n.age, b = a + 1, c = 2 RETURN b, c")
    lets = [s for s in tree.steps if isinstance(s, ir.Let)]
    assert [[b.variable for b in let.bindings] for let in lets] == [["a"], ["b", "c"]]


def test_grouping_let_before_return_is_the_projection() -> None:
    assert gql("MATCH (n) LET city = n.city RETURN city, count(*) AS c GROUP BY city") == gql(
        "MATCH (n) RETURN n.city AS city, count(*) AS c GROUP BY city"
    )
    # a LET variable the RETURN reads otherwise stays a LET
    kept = gql("MATCH (n) LET city = n.city RETURN city, count(city) AS c GROUP BY city")
    assert isinstance(kept.steps[1], ir.Let)


def test_tugraph_walk_and_trail_add_nothing() -> None:
    plain = gql("MATCH (n)-[e]->{1,3}(m) RETURN m", "tugraph-gql")
    for mode in ("WALK", "TRAIL"):
        assert gql(f"MATCH {mode} (n)-[e]->{{1,3}}(m) RETURN m", "tugraph-gql") == plain
    assert gql("MATCH TRAIL (n)-[e]->{1,3}(m) RETURN m") != gql("MATCH (n)-[e]->{1,3}(m) RETURN m")


def test_gql_floor_and_ceil_keep_integers() -> None:
    tree = gql("RETURN FLOOR(2) AS f, CEILING(2.5E0) AS c")
    items = tree.steps[-1].items
    assert [i.expr.name for i in items] == ["floor_typed", "ceil_typed"]
    assert gqlir.transpile("RETURN FLOOR(2) AS f", "iso-gql", "neo4j") == "RETURN 2 AS f"
    cypher = gqlir.transpile("MATCH (n) RETURN FLOOR(n.x) AS f", "iso-gql", "neo4j")
    assert "CASE WHEN n.x IS :: INTEGER THEN n.x ELSE floor(n.x) END" in cypher
    with pytest.raises(UnsupportedError):
        gqlir.transpile("MATCH (n) RETURN FLOOR(n.x) AS f", "iso-gql", "opencypher9")
