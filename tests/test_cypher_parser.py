"""The Cypher front end against the openCypher TCK, the Neo4j 5 feature corpus, and the
semantic normalisations the IR promises (one node per meaning, whatever the spelling)."""

from __future__ import annotations

import re

import pytest

import gqlir
from gqlir import ir
from gqlir.conformance import tck
from gqlir.errors import ParseError, SemanticError

TCK_DIR = tck.default_tck_dir()
CORPORA = tck.default_corpora_dir()

needs_tck = pytest.mark.skipif(TCK_DIR is None, reason="openCypher TCK not available")


def _tck_valid() -> list[str]:
    return tck.valid_queries(TCK_DIR) if TCK_DIR else []


def _tck_grammar_errors() -> list[str]:
    return tck.grammar_error_queries(TCK_DIR) if TCK_DIR else []


def _neo4j5() -> list[str]:
    if CORPORA is None:
        return []
    return [r["query"] for r in tck.load_jsonl_corpus(CORPORA / "cypher" / "neo4j5_features.jsonl")]


# -- acceptance ----------------------------------------------------------------------------------


@needs_tck
@pytest.mark.parametrize("dialect", ["neo4j", "opencypher9"])
def test_every_valid_tck_query_parses(dialect: str) -> None:
    failures = []
    for query in _tck_valid():
        try:
            gqlir.parse(query, dialect)
        except gqlir.GqlirError as exc:
            failures.append((query, str(exc)))
    assert not failures, failures[:5]
    assert len(_tck_valid()) > 1000


#: What TuGraph's Lcypher.g4 lacks that the TCK's queries use (dialects/tugraph-cypher.toml):
#: EXISTS { }, shortestPath(), OFFSET, 0o literals, and its keyword-only words as names.
_LCYPHER_LACKS = re.compile(
    r"exists\s*\{|shortestpath\s*\(|\boffset\b|\b0o[0-7]"
    r"|[:.(]\s*(?:explain|profile|call|yield|using|join|start|regexp)\b"
    r"|\b(?:explain|profile|call|yield|using|join|start|regexp)\s*[:)\]=.]",
    re.IGNORECASE,
)


@needs_tck
def test_tugraph_grammar_rejects_only_what_lcypher_lacks_in_the_tck() -> None:
    """Everything else TuGraph lacks is a feature, refused by validation with the construct's
    name rather than by the grammar."""
    grammar_rejected = []
    for query in _tck_valid():
        result = gqlir.validate(query, "tugraph-cypher")
        if result.valid:
            continue
        if isinstance(result.error, gqlir.UnsupportedError):
            assert result.error.construct
        else:
            grammar_rejected.append(query)
    assert grammar_rejected
    for query in grammar_rejected:
        assert _LCYPHER_LACKS.search(query), query


@pytest.mark.parametrize(
    ("query", "accepted"),
    [
        ("MATCH (n:Start) RETURN n", False),  # START is a keyword only (oC_Hint)
        ("MATCH (n:`Start`) RETURN n", True),
        ("MATCH (join) RETURN join", False),
        ("MATCH (n) RETURN n.regexp AS r", False),
        ("MATCH (n:Match) RETURN n", True),  # a reserved word is a schema name
        ("RETURN 0777 AS x", True),  # OctalInteger
        ("RETURN 0o777 AS x", False),
        ("RETURN 0x1f AS x", True),
        ("MATCH (n) RETURN n ORDER BY n.x OFFSET 1", False),
        ("MATCH (n) RETURN n ORDER BY n.x SKIP 1", True),
        ("MATCH p = shortestPath((a)-[*]-(b)) RETURN p", False),
    ],
)
def test_tugraph_cypher_reads_what_lcypher_reads(query: str, accepted: bool) -> None:
    try:
        gqlir.parse(query, "tugraph-cypher")
    except gqlir.ParseError as exc:
        assert not accepted, exc
        assert exc.line == 1 and exc.column is not None
    else:
        assert accepted


def test_tugraph_octal_is_read_as_octal_and_keywords_are_written_escaped() -> None:
    query = gqlir.parse("RETURN 0777 AS x", "tugraph-cypher")
    assert query.steps[-1].items[0].expr == gqlir.ir.Integer(511)
    out = gqlir.transpile("MATCH (n:Start {join: 1}) RETURN n.call AS c", "neo4j", "tugraph-cypher")
    assert out == "MATCH (n:`Start` {`join`: 1}) RETURN n.`call` AS c"
    assert gqlir.parse(out, "tugraph-cypher") == gqlir.parse(
        "MATCH (n:Start {join: 1}) RETURN n.call AS c", "neo4j"
    )


@needs_tck
@pytest.mark.parametrize("dialect", ["neo4j", "opencypher9", "tugraph-cypher"])
def test_tck_grammar_errors_are_rejected(dialect: str) -> None:
    queries = _tck_grammar_errors()
    assert queries
    for query in queries:
        with pytest.raises(gqlir.GqlirError):
            gqlir.parse(query, dialect)


@pytest.mark.skipif(CORPORA is None, reason="corpora not available")
def test_every_neo4j5_feature_query_parses() -> None:
    queries = _neo4j5()
    assert len(queries) == 42
    for query in queries:
        gqlir.parse(query, "neo4j")


@pytest.mark.parametrize(
    "query",
    [
        "MATCH (n) CALL (n) { RETURN 1 AS x } RETURN x",
        "MATCH (n:A&B) RETURN n",
        "MATCH (n) WHERE n IS :: INTEGER RETURN n",
        "MATCH p = ANY SHORTEST (a)-[:R]->+(b) RETURN p",
        "MATCH (n) FILTER n.x > 1 RETURN n",
        "MATCH (n) RETURN n {.name} AS m",
    ],
)
def test_opencypher9_rejects_neo4j5_syntax(query: str) -> None:
    gqlir.parse(query, "neo4j")
    with pytest.raises(ParseError):
        gqlir.parse(query, "opencypher9")


# -- errors --------------------------------------------------------------------------------------


def test_parse_error_has_position_snippet_and_expected_tokens() -> None:
    with pytest.raises(ParseError) as info:
        gqlir.parse("MATCH (n\nRETURN n", "neo4j")
    err = info.value
    assert (err.line, err.column) == (2, 1)
    assert "RETURN" in err.snippet() and err.snippet().endswith("^")
    assert "')'" in err.expected
    assert err.to_dict()["line"] == 2


@pytest.mark.parametrize(
    "query",
    [
        "RETURN " + "(" * 5000 + "1" + ")" * 5000,
        "RETURN " + "[" * 5000 + "]" * 5000,
        "RETURN " + "NOT " * 5000 + "true",
        "RETURN " + " + ".join(["1"] * 5000),
        "RETURN " + "-" * 5000 + "1",
        "MATCH " + "(" * 5000 + "(a)-->(b)" + ")" * 5000 + " RETURN a",
        "RETURN " + "f(" * 5000 + ")" * 5000,
        "RETURN 1" + ".a" * 5000,
        "RETURN " + "CASE WHEN true THEN " * 3000 + "1" + " END" * 3000,
    ],
)
def test_deep_nesting_is_a_parse_error_not_a_recursion_error(query: str) -> None:
    with pytest.raises(ParseError) as info:
        gqlir.parse(query, "neo4j")
    assert info.value.code == "PARSE_TOO_DEEP"


@pytest.mark.parametrize(
    "query, code",
    [
        ("RETURN 9223372036854775808 AS x", "PARSE_INTEGER_OVERFLOW"),
        ("RETURN 1e400 AS x", "PARSE_FLOAT_OVERFLOW"),
        ("RETURN '\\uZZZZ' AS x", "PARSE_UNICODE"),
        ("MATCH (n) RETURN (n)-->()", "PARSE_PATTERN_VALUE"),
        ("RETURN 1 MATCH (n) RETURN n", "PARSE_INVALID"),
        ("RETURN toUpper(DISTINCT 'a')", "PARSE_INVALID"),
        ("RETURN 1 \u00a7 2", "PARSE_CHARACTER"),
    ],
)
def test_errors_have_stable_codes(query: str, code: str) -> None:
    with pytest.raises(ParseError) as info:
        gqlir.parse(query, "neo4j")
    assert info.value.code == code


def test_union_and_union_all_cannot_be_mixed() -> None:
    with pytest.raises(SemanticError):
        gqlir.parse("RETURN 1 AS x UNION RETURN 2 AS x UNION ALL RETURN 3 AS x", "neo4j")


def test_wrong_arity_is_reported() -> None:
    with pytest.raises(SemanticError) as info:
        gqlir.parse("RETURN toUpper('a', 'b') AS x", "neo4j")
    assert info.value.code == "SEMANTIC_ARITY"


# -- one IR per meaning --------------------------------------------------------------------------


def _same(a: str, b: str, dialect: str = "neo4j") -> None:
    assert gqlir.parse(a, dialect) == gqlir.parse(b, dialect)


def _differ(a: str, b: str, dialect: str = "neo4j") -> None:
    assert gqlir.parse(a, dialect) != gqlir.parse(b, dialect)


def test_var_length_and_quantified_relationship_are_one_quantifier() -> None:
    _same("MATCH (a)-[:R*1..3]->(b) RETURN b", "MATCH (a)-[:R]->{1,3}(b) RETURN b")
    _same("MATCH (a)-[:R*]->(b) RETURN b", "MATCH (a)-[:R]->+(b) RETURN b")
    _same("MATCH (a)-[:R*2]->(b) RETURN b", "MATCH (a)-[:R]->{2}(b) RETURN b")
    _differ("MATCH (a)-[:R*1..3]->(b) RETURN b", "MATCH (a)-[:R*1..4]->(b) RETURN b")


def test_shortest_spellings_are_one_search() -> None:
    _same(
        "MATCH p = shortestPath((a)-[*]->(b)) RETURN p",
        "MATCH p = ANY SHORTEST (a)-[*]->(b) RETURN p",
    )
    _same(
        "MATCH p = allShortestPaths((a)-[*]->(b)) RETURN p",
        "MATCH p = SHORTEST 1 GROUPS (a)-[*]->(b) RETURN p",
    )
    _same(
        "MATCH p = SHORTEST 1 (a)-[*]->(b) RETURN p",
        "MATCH p = ANY SHORTEST (a)-[*]->(b) RETURN p",
    )


def test_label_conjunction_spellings() -> None:
    _same("MATCH (n:A:B) RETURN n", "MATCH (n:A&B) RETURN n")
    _same("MATCH (n) WHERE n:A:B RETURN n", "MATCH (n) WHERE n:A&B RETURN n")
    _same("MATCH ()-[r:A|:B]->() RETURN r", "MATCH ()-[r:A|B]->() RETURN r")
    _differ("MATCH (n:A|B) RETURN n", "MATCH (n:A&B) RETURN n")


def test_temporal_constructor_with_a_string_is_a_temporal_literal() -> None:
    query = gqlir.parse("RETURN date('2020-01-01') AS d", "neo4j")
    expr = query.steps[0].items[0].expr
    assert expr == ir.TemporalLiteral(ir.TemporalKind.DATE, "2020-01-01")
    other = gqlir.parse("RETURN date({year: 2020}) AS d", "neo4j").steps[0].items[0].expr
    assert isinstance(other, ir.FunctionCall)


def test_function_names_are_canonical() -> None:
    _same("RETURN toUpper('a') AS x", "RETURN upper('a') AS x")
    _same("RETURN TOUPPER('a') AS x", "RETURN toupper('a') AS x")
    expr = gqlir.parse("RETURN toUpper('a') AS x").steps[0].items[0].expr
    assert expr.name == "upper"
    user = gqlir.parse("RETURN apoc.text.join(['a'], ',') AS x").steps[0].items[0].expr
    assert user == ir.FunctionCall("apoc.text.join", user.args)


def test_pattern_predicate_is_an_exists_subquery() -> None:
    _same("MATCH (n) WHERE (n)-->() RETURN n", "MATCH (n) WHERE EXISTS { (n)-->() } RETURN n")
    _same(
        "MATCH (n) WHERE exists((n)-->()) RETURN n",
        "MATCH (n) WHERE EXISTS { MATCH (n)-->() } RETURN n",
    )
    _same(
        "MATCH (n) WHERE exists(n.x) RETURN n",
        "MATCH (n) WHERE n.x IS NOT NULL RETURN n",
        "neo4j4",
    )


def test_importing_with_is_the_scope_clause() -> None:
    _same(
        "MATCH (n) CALL { WITH n MATCH (n)-->(m) RETURN m } RETURN m",
        "MATCH (n) CALL (n) { MATCH (n)-->(m) RETURN m } RETURN m",
    )
    _same(
        "MATCH (n) CALL { WITH * RETURN 1 AS x } RETURN x",
        "MATCH (n) CALL (*) { RETURN 1 AS x } RETURN x",
    )


def test_chained_comparison_is_a_conjunction() -> None:
    _same("RETURN 1 < 2 < 3 AS x", "RETURN 1 < 2 AND 2 < 3 AS x")
    _differ("RETURN 1 < 2 < 3 AS x", "RETURN (1 < 2) < 3 AS x")


def test_precedence() -> None:
    expr = (
        gqlir.parse("RETURN NOT 1 = 2 AND 3 IS NULL OR -2 ^ 2 > 1 + 2 * 3 AS x")
        .steps[0]
        .items[0]
        .expr
    )
    assert isinstance(expr, ir.Or)
    assert isinstance(expr.left, ir.And)
    assert isinstance(expr.left.left, ir.Not) and isinstance(expr.left.left.operand, ir.Comparison)
    right = expr.right
    assert isinstance(right, ir.Comparison) and right.op is ir.CompOp.GT
    assert right.left == ir.Arithmetic(ir.ArithOp.POW, ir.Integer(-2), ir.Integer(2))
    assert right.right == ir.Arithmetic(
        ir.ArithOp.ADD, ir.Integer(1), ir.Arithmetic(ir.ArithOp.MUL, ir.Integer(2), ir.Integer(3))
    )
    _same("RETURN a + b IS NULL AS x", "RETURN (a + b) IS NULL AS x")
    _same("RETURN a = b IS NULL AS x", "RETURN a = (b IS NULL) AS x")


def test_smallest_integer_literal() -> None:
    expr = gqlir.parse("RETURN -9223372036854775808 AS x").steps[0].items[0].expr
    assert expr == ir.Integer(-(2**63))


def test_unaliased_return_items_keep_their_text_as_column_name() -> None:
    query = gqlir.parse("MATCH (n) RETURN n, n.name, count( * )", "neo4j")
    assert [i.alias for i in query.steps[-1].items] == ["n", "n.name", "count( * )"]
    with pytest.raises(SemanticError):
        gqlir.parse("MATCH (n) WITH n.name RETURN 1 AS x", "neo4j")


def test_null_ordering_is_explicit() -> None:
    query = gqlir.parse("MATCH (n) RETURN n.x AS x ORDER BY x, n.y DESC", "neo4j")
    asc, desc = query.steps[-1].order_by
    assert (asc.descending, asc.nulls_first) == (False, False)
    assert (desc.descending, desc.nulls_first) == (True, True)


def test_default_match_mode_is_explicit() -> None:
    match = gqlir.parse("MATCH (a)-->(b) RETURN b", "neo4j").steps[0]
    assert match.mode is ir.MatchMode.DIFFERENT_EDGES
    match = gqlir.parse("MATCH REPEATABLE ELEMENTS (a)-->(b) RETURN b", "neo4j").steps[0]
    assert match.mode is ir.MatchMode.REPEATABLE_ELEMENTS


def test_keywords_are_names_where_no_keyword_fits() -> None:
    query = gqlir.parse(
        "MATCH (match:Return)-[order:Where]->(count) RETURN match.order AS order, count"
    )
    match = query.steps[0]
    node = match.patterns[0].path.elements[0]
    assert node.variable == "match" and node.labels == ir.Label("Return")
    assert query.steps[-1].items[0].expr == ir.Property(ir.Variable("match"), "order")


def test_compound_arrows_split_inside_expressions() -> None:
    _same("RETURN 1--1 AS x", "RETURN 1 - -1 AS x")
    _same("RETURN [1,2]-[1] AS x", "RETURN [1,2] - [1] AS x")


def test_with_where_is_a_projection_then_a_filter() -> None:
    steps = gqlir.parse("MATCH (n) WITH n WHERE n.x > 1 RETURN n").steps
    assert [type(s).__name__ for s in steps] == ["Match", "Projection", "Filter", "Projection"]


def test_string_escapes() -> None:
    expr = gqlir.parse(r"RETURN 'a\'b\\c\n\u00e9\U0001F600' AS s").steps[0].items[0].expr
    assert expr == ir.String("a'b\\c\néđ\U0001f600".replace("đ", ""))


def test_schema_commands() -> None:
    index = gqlir.parse("CREATE INDEX person_name FOR (n:Person) ON (n.name)")
    assert index == ir.CreateIndex(
        ir.SchemaTarget(ir.ElementKind.NODE, ("Person",)), ("name",), "person_name"
    )
    constraint = gqlir.parse("CREATE CONSTRAINT FOR (n:Person) REQUIRE n.id IS UNIQUE")
    assert constraint.kind is ir.ConstraintKind.UNIQUE and constraint.properties == ("id",)
    assert gqlir.parse("SHOW INDEXES") == ir.Show("INDEX")


def test_colon_label_lists_follow_the_dialect() -> None:
    """Kuzu reads ``(n:A:B)`` as A or B (its docs and engine); Cypher as A and B."""
    kuzu = gqlir.parse("MATCH (n:A:B) RETURN n", "kuzu").steps[0].patterns[0].path.elements[0]
    neo4j = gqlir.parse("MATCH (n:A:B) RETURN n", "neo4j").steps[0].patterns[0].path.elements[0]
    assert kuzu.labels == ir.LabelOr(ir.Label("A"), ir.Label("B"))
    assert neo4j.labels == ir.LabelAnd(ir.Label("A"), ir.Label("B"))


def test_one_based_list_positions_become_zero_based() -> None:
    def index(query: str) -> ir.Expr:
        return gqlir.parse(query, "kuzu").steps[0].items[0].expr.index

    assert index("RETURN [1, 2][1] AS x") == ir.Integer(0)
    assert index("RETURN [1, 2][-1] AS x") == ir.Integer(-1)
    dynamic = gqlir.parse("WITH [1] AS l, 1 AS i RETURN l[i] AS x", "kuzu").steps[-1].items[0]
    assert isinstance(dynamic.expr.index, ir.Case)
    with pytest.raises(ParseError):
        gqlir.parse("RETURN [1, 2][0] AS x", "kuzu")


def test_with_where_on_dropped_variables_filters_inside_the_projection() -> None:
    kept = gqlir.parse("MATCH (n) WITH n AS m WHERE m.x > 1 RETURN m").steps
    assert [type(s).__name__ for s in kept] == ["Match", "Projection", "Filter", "Projection"]
    dropped = gqlir.parse("UNWIND [1] AS i UNWIND [2] AS j WITH i AS x WHERE i <> j RETURN x")
    projection = dropped.steps[2]
    assert isinstance(projection, ir.Projection)
    assert projection.where == ir.Comparison(ir.CompOp.NE, ir.Variable("i"), ir.Variable("j"))
    assert gqlir.parse(gqlir.emit(dropped, "neo4j")) == dropped


def test_pattern_predicates_are_marked_but_mean_exists() -> None:
    bare = gqlir.parse("MATCH (n) WHERE (n)-->() RETURN n").steps[0].where
    braced = gqlir.parse("MATCH (n) WHERE EXISTS { (n)-->() } RETURN n").steps[0].where
    assert bare == braced
    assert bare.pattern_predicate and not braced.pattern_predicate
