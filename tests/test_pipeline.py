"""The declared lowering of each target: which passes run, and --explain."""

from __future__ import annotations

import pytest

import gqlir
from gqlir import ir
from gqlir.cli import main
from gqlir.dialect import get_dialect
from gqlir.emitter.gql import emit_gql
from gqlir.errors import UnsupportedError
from gqlir.ir.functions import WHITESPACE
from gqlir.passes.edge_uniqueness import lower_edge_uniqueness
from gqlir.passes.pipeline import lower, lowerings


def names(target: str, source: str | None = None) -> list[str]:
    src = get_dialect(source) if source else None
    return [x.name for x in lowerings(get_dialect(target), src)]


def test_passes_are_chosen_by_capabilities() -> None:
    # ISO GQL says DIFFERENT EDGES and reads null operands, but has no nodes() function and
    # no toInteger() and no type()
    assert names("iso-gql") == [
        "conversions",
        "gql-functions",
        "let-steps",
        "gql-projections",
        "relationship-types",
        "path-lists",
        "gql-expressions",
        "search-filters",
        "path-deletes",
        "merge",
        "set-items",
        "element-references",
        "temporal-calls",
        "case-forms",
        "gql-steps",
        "function-support",
        "gql-forms",
        "function-support",
    ]
    assert names("spanner") == [
        "conversions",
        "googlesql-strings",
        "googlesql-division",
        "googlesql-functions",
        "googlesql-temporal",
        "googlesql",
        "gql-functions",
        "sql-aggregates",
        "let-steps",
        "gql-projections",
        "relationship-types",
        "edge-uniqueness",
        "gql-expressions",
        "googlesql-dates",
        "search-filters",
        "correlated-elements",
        "element-references",
        "temporal-calls",
        "case-forms",
        "like-patterns",
        "date-parts",
        "gql-steps",
        "function-support",
        "gql-forms",
        "function-support",
    ]
    # Cypher has UNION only; Neo4j writes a lone TRAIL path as its MATCH's own uniqueness
    assert names("neo4j") == [
        "gql-meanings",
        "set-operations",
        "element-predicates",
        "cypher-uniqueness",
    ]
    assert "cypher-meanings" in names("kuzu")
    assert "list-predicates" in names("tugraph-cypher")  # and in no other Cypher target
    assert "list-predicates" not in names("kuzu") + names("opencypher9")
    assert names("kuzu", "spanner")[0] == "float-quotients"  # 7 / 2 is 3.5 in GoogleSQL


def test_edge_uniqueness_is_trail_under_spanners_own_mode() -> None:
    query = gqlir.parse("MATCH (a)-[r]->(b)-[s]->(c) RETURN c.name AS n")
    changed: list[str] = []
    lowered = lower(query, get_dialect("spanner"), changed=changed)
    assert changed == ["edge-uniqueness"]
    (match,) = [s for s in lowered.steps if isinstance(s, ir.Match)]  # type: ignore[attr-defined]
    assert match.mode is ir.MatchMode.REPEATABLE_ELEMENTS
    assert match.patterns[0].mode is ir.PathMode.TRAIL
    assert lower(query, get_dialect("iso-gql")) is query


def test_edge_uniqueness_across_patterns_is_all_different() -> None:
    query = gqlir.parse("MATCH (a)-[r]->(b), (c)-[s]->(d) RETURN a.x AS x")
    lowered = lower_edge_uniqueness(query, get_dialect("spanner"))
    (match,) = [s for s in lowered.steps if isinstance(s, ir.Match)]  # type: ignore[attr-defined]
    assert isinstance(match.where, ir.AllDifferent)
    variable_length = gqlir.parse("MATCH (a)-[*1..2]->(b), (c)-[*1..2]->(d) RETURN a.x AS x")
    with pytest.raises(UnsupportedError) as caught:
        lower_edge_uniqueness(variable_length, get_dialect("spanner"))
    assert caught.value.construct == "edge uniqueness across path patterns"


def test_gql_functions_need_no_types() -> None:
    query = gqlir.parse("RETURN trim(' a ') AS t, pi() AS p, coalesce(1) AS c")
    lowered = lower(query, get_dialect("iso-gql"))
    items = [i.expr for i in lowered.steps[-1].items]  # type: ignore[attr-defined]
    assert items[0] == ir.FunctionCall("btrim", (ir.String(" a "), ir.String(WHITESPACE)))
    assert isinstance(items[1], ir.Float) and items[2] == ir.Integer(1)
    assert gqlir.emit(query, "iso-gql").startswith("RETURN BTRIM(' a ', ")


def test_explain_names_the_passes_that_changed_the_query(
    capsys: pytest.CaptureFixture[str],
) -> None:
    query = "MATCH (a)-[r]->(b)-[s]->(c) RETURN c.name AS n"
    args = ["translate", "--from", "neo4j", "--to", "spanner", "--graph", "g", "--explain"]
    assert main([*args, query]) == 0
    captured = capsys.readouterr()
    assert "MATCH TRAIL" in captured.out
    assert "edge-uniqueness: changed" in captured.err
    assert "googlesql: unchanged" in captured.err


def _items(query: str, target: str = "iso-gql") -> list[ir.Expr]:
    lowered = lower(gqlir.parse(query), get_dialect(target))
    return [i.expr for i in lowered.steps[-1].items]  # type: ignore[attr-defined]


def test_typed_functions_read_the_types_of_variables_in_scope() -> None:
    # a LET's string, a FOR's integers, a MATCH's node: each decides its function's form
    size, text, node_size = _items(
        "WITH 'abc' AS s UNWIND [1, 2] AS i MATCH (n) "
        "RETURN size(s) AS a, toString(i) AS b, size(n.name) AS c"
    )
    assert size == ir.FunctionCall("char_length", (ir.Variable("s"),))
    assert text == ir.Cast(ir.Variable("i"), ir.TypeRef("STRING"))
    assert node_size == ir.FunctionCall("size", (ir.Property(ir.Variable("n"), "name"),))


def test_typed_functions_read_the_schemas_property_types() -> None:
    query = gqlir.parse("MATCH (n) RETURN size(n.name) AS a")
    lowered = lower(query, get_dialect("iso-gql"), properties={("node", "name"): "string"})
    (item,) = lowered.steps[-1].items  # type: ignore[attr-defined]
    assert item.expr == ir.FunctionCall("char_length", (ir.Property(ir.Variable("n"), "name"),))


def test_walks_over_constant_lists_are_written_item_by_item_before_typing() -> None:
    # the item's type (a string) decides size() once the walk is written per item
    (walk,) = _items("RETURN all(x IN ['ab', 'c'] WHERE size(x) = 2) AS r")
    two = ir.Integer(2)
    assert walk == ir.And(
        ir.Comparison(ir.CompOp.EQ, ir.FunctionCall("char_length", (ir.String("ab"),)), two),
        ir.Comparison(ir.CompOp.EQ, ir.FunctionCall("char_length", (ir.String("c"),)), two),
    )
    first, member, part = _items(
        "WITH [1, 2, 3] AS l RETURN head(l) AS a, 3 IN l[1..] AS b, range(1, 3)[0] AS c"
    )
    assert first == ir.Integer(1)
    three = ir.Integer(3)
    assert member == ir.Or(
        ir.Comparison(ir.CompOp.EQ, three, ir.Integer(2)),
        ir.Comparison(ir.CompOp.EQ, three, three),
    )
    assert part == ir.Integer(1)


def test_a_walk_variable_shadows_an_outer_one_of_the_same_name() -> None:
    # x is a string outside; inside the walk it is an element of a list of unknown items
    (refused,) = _items("WITH 'abc' AS x, $p AS l RETURN [x IN l | size(x)] AS r", "tugraph-gql")
    # (TuGraph GQL has no comprehension: gql-forms refuses it, with the typed projection)
    assert isinstance(refused, ir.Untranslatable)
    assert refused.construct == "list comprehension"
    walk = refused.expr
    assert isinstance(walk, ir.ListComprehension)
    assert walk.projection == ir.FunctionCall("size", (ir.Variable("x"),))


def test_the_expression_pass_leaves_a_query_without_its_forms_alone() -> None:
    query = gqlir.parse("MATCH (n) WHERE n.x > 1 RETURN n.x * 2 AS y, -n.y AS z")
    assert lower(query, get_dialect("iso-gql")) is query


def test_a_refusal_found_by_a_pass_is_raised_where_the_printer_writes_it() -> None:
    # Spanner has no IS TYPED, so n.x + n.y (types unknown) is refused by the pass; the
    # graph element returned first is the first refusal, as the query is written
    query = gqlir.parse("MATCH (n) RETURN n, n.x + n.y AS s")
    lowered = lower(query, get_dialect("spanner"))
    (_, item) = lowered.steps[-1].items  # type: ignore[attr-defined]
    assert isinstance(item.expr, ir.Untranslatable)
    assert item.expr.construct == "polymorphic +"
    with pytest.raises(UnsupportedError) as caught:
        emit_gql(query, "spanner", graph="g")
    assert caught.value.construct == "graph element in result"
    with pytest.raises(UnsupportedError) as caught:
        emit_gql(gqlir.parse("MATCH (n) RETURN n.x + n.y AS s"), "spanner", graph="g")
    assert caught.value.construct == "polymorphic +"
    assert caught.value.rewrite is not None and "toString" in caught.value.rewrite


def test_spanner_dates_are_decided_by_the_pass_over_the_scope() -> None:
    # d is bound by WITH to a date: its accessor and arithmetic are GoogleSQL calls in the IR
    year, later, day, now = _items(
        "WITH date('2020-01-31') AS d "
        "RETURN d.year AS y, d + duration({months: 1}) AS m, date.truncate('week', d) AS w, "
        "datetime() AS t",
        "spanner",
    )
    d = ir.Variable("d")
    assert year == ir.FunctionCall("googlesql.extract", (ir.String("YEAR"), d))
    month = ir.FunctionCall("googlesql.interval", (ir.Integer(1), ir.String("MONTH")))
    assert later == ir.FunctionCall("googlesql.date_add", (d, month))
    assert day == ir.FunctionCall("googlesql.date_trunc", (d, ir.String("ISOWEEK")))
    assert now == ir.FunctionCall("googlesql.current_timestamp", ())
    # an accessor of a value not known to be a date is left for the printer to refuse
    (other,) = _items("MATCH (n) RETURN n.born.year AS y", "spanner")
    assert isinstance(other, ir.Property)


def test_a_final_delete_of_a_path_walks_its_elements_in_the_ir() -> None:
    changed: list[str] = []
    query = gqlir.parse("MATCH p = (a)-->(b) DETACH DELETE p, a")
    lowered = lower(query, get_dialect("iso-gql"), changed=changed)
    assert changed == ["path-deletes"]
    _, walk, delete = lowered.steps  # type: ignore[attr-defined]
    assert isinstance(walk, ir.Unwind) and walk.variable == "_e"
    assert delete == ir.Delete((ir.Variable("_e"),), detach=True)
    # before other steps the walk would multiply their rows: the path is refused where written
    query = gqlir.parse("MATCH p = (a)-->(b) DELETE p RETURN count(*) AS c")
    (target,) = lower(query, get_dialect("iso-gql")).steps[1].targets  # type: ignore[attr-defined]
    assert isinstance(target, ir.Untranslatable) and target.construct == "DELETE of a path"


def test_spanner_names_an_enclosing_element_afresh_in_a_subquery_pattern() -> None:
    # "graph element names cannot be redefined in an inner graph subquery" (Spanner)
    query = gqlir.parse("MATCH (a)-[r]->(c) WHERE EXISTS { MATCH (a)-[r]->(b:B) } RETURN c.x AS x")
    changed: list[str] = []
    lowered = lower(query, get_dialect("spanner"), changed=changed)
    assert changed == ["correlated-elements"]
    (inner,) = lowered.steps[0].where.query.steps  # type: ignore[attr-defined]
    assert [x.variable for x in inner.patterns[0].path.elements] == ["_g1", "_g2", "b"]
    assert inner.where == ir.And(
        ir.Comparison(ir.CompOp.EQ, ir.Variable("_g1"), ir.Variable("a")),
        ir.Comparison(ir.CompOp.EQ, ir.Variable("_g2"), ir.Variable("r")),
    )
    assert lower(query, get_dialect("iso-gql")) is query  # ISO GQL reads the outer element
    # RETURN * lists the variables before the fresh name is given (gql-projections runs first)
    star = gqlir.parse("MATCH (a) WHERE EXISTS { MATCH (a)-->(b) RETURN * } RETURN a.x AS x")
    text = emit_gql(star, "spanner", graph="g")
    assert "EXISTS { MATCH (_g1)->(b) WHERE _g1 = a RETURN a, b }" in text, text
    # a later * projection (one that only pages) would keep the fresh name: refused where the
    # MATCH is written
    star = gqlir.parse(
        "MATCH (a) WHERE EXISTS { MATCH (a)-->(b) WITH * LIMIT 1 RETURN b } RETURN a.x AS x"
    )
    (refused,) = lower(star, get_dialect("spanner")).steps[0].where.query.steps[:1]  # type: ignore[attr-defined]
    assert isinstance(refused, ir.RefusedStep)
    with pytest.raises(UnsupportedError) as caught:
        emit_gql(star, "spanner", graph="g")
    assert caught.value.construct == "element of the enclosing query in a subquery pattern"


def test_a_pattern_comprehension_written_as_value_names_the_outer_element_afresh() -> None:
    text = emit_gql(gqlir.parse("MATCH (n) RETURN [(n)-->(m) | m] AS ms"), "spanner", graph="g")
    assert "MATCH (_g1)->(m) WHERE _g1 = n RETURN" in text, text


def test_a_shortest_path_match_with_a_where_is_refused_by_a_pass() -> None:
    # Cypher's shortest path satisfies the WHERE; GQL's search selects before the WHERE filters
    query = gqlir.parse("MATCH p = shortestPath((a)-[*]->(b)) WHERE a.x = 1 RETURN p")
    (refused, _) = lower(query, get_dialect("iso-gql")).steps  # type: ignore[attr-defined]
    assert isinstance(refused, ir.RefusedStep) and refused.step is query.steps[0]  # type: ignore[attr-defined]
    with pytest.raises(UnsupportedError) as caught:
        emit_gql(query, "iso-gql")
    assert caught.value.construct == "path search with MATCH WHERE"
    assert caught.value.offset == query.steps[0].where.pos  # type: ignore[attr-defined]
    plain = gqlir.parse("MATCH p = shortestPath((a)-[*]->(b)) RETURN p")
    assert lower(plain, get_dialect("iso-gql")) is plain


def test_set_items_are_split_where_cypher_order_matters_and_plus_maps_expanded() -> None:
    query = gqlir.parse("MATCH (n) SET n.a = n.b, n.b = n.a, n += {c: n.a, d: 1}")
    changed: list[str] = []
    _, *sets = lower(query, get_dialect("iso-gql"), changed=changed).steps  # type: ignore[attr-defined]
    assert changed == ["set-items"]
    assert [[(i.key, str(i.value)) for i in s.items] for s in sets] == [
        [("a", str(ir.Property(ir.Variable("n"), "b")))],
        [("b", str(ir.Property(ir.Variable("n"), "a")))],
        [("c", str(ir.Property(ir.Variable("n"), "a"))), ("d", str(ir.Integer(1)))],
    ]
    # TuGraph GQL has +=: the map stays one item
    lowered = lower(query, get_dialect("tugraph-gql")).steps  # type: ignore[attr-defined]
    assert isinstance(lowered[-1].items[0], ir.SetProperties)
    plain = gqlir.parse("MATCH (n) SET n.a = 1, n.b = 2")
    assert lower(plain, get_dialect("iso-gql")) is plain


def test_cypher_uniqueness_is_spelled_in_the_ir_for_each_cypher_dialect() -> None:
    query = gqlir.parse("MATCH (a)-[r]->(b)-[s]->(c) RETURN c.x AS x")
    changed: list[str] = []
    (match, _) = lower(query, get_dialect("kuzu"), changed=changed).steps  # type: ignore[attr-defined]
    assert "cypher-uniqueness" in changed
    # Kuzu lets edges repeat and writes no mode: a test in the WHERE says Cypher's uniqueness,
    # its is_trail() on one path, elementId()s compared across two
    assert match.mode is ir.MatchMode.REPEATABLE_ELEMENTS
    assert match.where == ir.FunctionCall("is_trail", (ir.Variable("_p1"),))
    assert match.patterns[0].variable == "_p1"
    query = gqlir.parse("MATCH (a)-[r]->(b), (b)-[s]->(c) RETURN c.x AS x")
    (match, _) = lower(query, get_dialect("kuzu")).steps  # type: ignore[attr-defined]
    assert match.where == ir.Comparison(
        ir.CompOp.NE,
        ir.FunctionCall("elementid", (ir.Variable("r"),)),
        ir.FunctionCall("elementid", (ir.Variable("s"),)),
    )
    # one variable-length relationship: TRAIL in Kuzu's quantifier, nothing in FalkorDB's
    query = gqlir.parse("MATCH (a)-[*1..3]->(b) RETURN b.x AS x")
    kuzu = lower(query, get_dialect("kuzu")).steps[0]  # type: ignore[attr-defined]
    assert kuzu.patterns[0].mode is ir.PathMode.TRAIL
    falkor = lower(query, get_dialect("falkordb")).steps[0]  # type: ignore[attr-defined]
    assert falkor.mode is ir.MatchMode.REPEATABLE_ELEMENTS and falkor.patterns[0].mode is None
    assert lower(query, get_dialect("neo4j")) is query  # Neo4j's MATCH keeps them distinct


def test_kuzu_writes_exists_with_its_match_keyword() -> None:
    # Kuzu's parser rejects EXISTS { (n)-[:R]->() }; EXISTS { MATCH … } runs
    text = gqlir.transpile(
        "MATCH (n) WHERE EXISTS { MATCH REPEATABLE ELEMENTS (n)-[:R]->() } RETURN n.id AS id",
        "iso-gql",
        "kuzu",
    )
    assert "EXISTS { MATCH (n)-[:R]->() }" in text, text


def test_gql_element_predicates_are_cypher_expressions_in_the_lowered_ir() -> None:
    query = gqlir.parse(
        "MATCH (a)-[e]->(b) WHERE a IS SOURCE OF e AND SAME(a, b) RETURN ELEMENTS(p) AS x",
        "iso-gql",
    )
    changed: list[str] = []
    (match, projection) = lower(query, get_dialect("neo4j"), changed=changed).steps  # type: ignore[attr-defined]
    assert changed == ["element-predicates"]
    source, same = match.where.left, match.where.right
    assert source == ir.Comparison(
        ir.CompOp.EQ, ir.FunctionCall("startnode", (ir.Variable("e"),)), ir.Variable("a")
    )
    assert same == ir.Comparison(ir.CompOp.EQ, ir.Variable("a"), ir.Variable("b"))
    assert isinstance(projection.items[0].expr, ir.Case)  # null for a null path, else the walk


def test_the_scoped_walk_binds_what_create_creates_and_reads_scope_notes() -> None:
    from gqlir.passes.scoped import ScopedRewrite

    seen: list[dict[str, str]] = []

    class Record(ScopedRewrite):
        def projection(self, step: ir.Projection) -> ir.Projection:
            seen.append({n: self.type_of(ir.Variable(n)).kind for n in self.scope})
            return super().projection(step)

    query = ir.LinearQuery(
        (
            gqlir.parse("CREATE (a)-[r:T]->(b)").steps[0],  # type: ignore[attr-defined]
            ir.Unwind(ir.Parameter("list"), "x"),  # of unknown items: the note says nodes
            ir.ScopeNote(hidden=("b",), kinds=(("x", "node"),)),
            ir.Projection(star=True),
        )
    )
    Record(get_dialect("iso-gql")).run(query)
    assert seen == [{"a": "node", "r": "edge", "x": "node"}]


def _run_pass(lowering, node, target):  # type: ignore[no-untyped-def]
    """One pass as :func:`lower` runs it (no schema, no options)."""
    if lowering.reads_options:
        return lowering.run(node, target, None, None)
    if lowering.reads_schema and lowering.reads_properties:
        return lowering.run(node, target, None, None)
    if lowering.reads_schema or lowering.reads_properties:
        return lowering.run(node, target, None)
    return lowering.run(node, target)


def _sample_queries() -> list[tuple[str, str]]:
    """(text, source dialect): a quarter of the TCK, and every golden case's source."""
    import json
    from pathlib import Path

    from gqlir.conformance import tck

    features = tck.default_tck_dir()
    assert features is not None  # (bundled in a checkout)
    out = [(text, "neo4j") for text in list(tck.valid_queries(features))[::4]]
    golden = Path(__file__).resolve().parent.parent / "corpus" / "gql"
    for path in sorted(golden.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                case = json.loads(line)
                out.append((case["source"], case["from"]))
    return out


@pytest.mark.parametrize(
    "target",
    ["iso-gql", "spanner", "tugraph-gql", "opencypher9", "kuzu", "falkordb", "neo4j", "sqlpgq"],
)
def test_a_pass_skipped_as_not_needed_would_have_changed_nothing(target: str) -> None:
    """Each pass's ``needed`` reads the query's summary so that most queries skip most passes;
    over a sample of queries in several source dialects, every pass is run anyway where it was
    judged not needed, and must give its input back (a wrong ``needed`` would lose a rewrite
    silently)."""
    from gqlir.passes.pipeline import _always, summarize

    dialect = get_dialect(target)
    checked = 0
    for text, read in _sample_queries():
        source = get_dialect(read)
        try:
            node = lower(gqlir.parse(text, read), dialect, source=source, by_source=True)
        except gqlir.GqlirError:
            continue
        for lowering in lowerings(dialect, source):
            if lowering.by_source:
                continue
            try:
                out = _run_pass(lowering, node, dialect)
            except UnsupportedError:
                out = None  # a pass that refuses outright changes the outcome
            if lowering.needed is not _always:
                summary = summarize(node)
                if lowering.needed_by_target:
                    needed = lowering.needed(summary, dialect, False)
                else:
                    needed = lowering.needed(summary)
                if not needed:
                    checked += 1
                    assert out is node, (lowering.name, text)
            if out is None:
                break
            node = out
    assert checked > 100


def test_the_last_pass_leaves_the_steps_after_a_refusal_only_while_the_printer_lowers() -> None:
    """gql-forms (the GQL family's last pass) stops at the first step it refuses while the
    printer lowers (the printer raises there, or earlier, and never writes the rest); any other
    caller gets every step lowered."""
    from gqlir.passes.gql_forms import lower_gql_forms
    from gqlir.passes.scoped import stopping_at_refusals

    query = gqlir.parse(
        "UNWIND [1, 2] AS x WITH [y IN [x] WHERE rand() > 0.5 | y] AS a, x % 2 AS b "
        "RETURN b % 2 AS c",
        "neo4j",
    )
    target = get_dialect("iso-gql")
    whole = lower_gql_forms(query, target)
    with stopping_at_refusals() as stopped:
        early = lower_gql_forms(query, target)
    assert stopped == ["GqlForms"]
    left = early.steps[-1]  # (left as read, % not yet MOD, and marked)
    assert isinstance(left, ir.RefusedStep) and left.step is query.steps[-1]
    assert whole.steps[-1] is not query.steps[-1]
    assert early.steps[:-1] == whole.steps[:-1]
    with pytest.raises(UnsupportedError) as refused:
        emit_gql(query, "iso-gql")
    assert refused.value.construct == "list comprehension"


def test_a_query_written_past_a_refusal_is_lowered_again_in_full(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Should the printer ever write past a refusal the last pass left, up to a step left
    unlowered after it, it lowers the query again in full and writes that."""
    from gqlir.emitter.gql import GqlGenerator

    # (the printer's renderer of a refusal, as the dispatch looks it up, writes NULL instead)
    monkeypatch.setitem(GqlGenerator._renderers, ir.Untranslatable, lambda self, node: "NULL")
    query = "UNWIND [1, 2] AS x WITH [y IN [x] WHERE rand() > 0.5 | y] AS a RETURN x % 2 AS c"
    text = emit_gql(gqlir.parse(query, "neo4j"), "iso-gql")
    assert "MOD(x, 2)" in text


def test_uniqueness_matters_reads_the_path_structure_as_the_whole_walk_does() -> None:
    """The fast reading of a MATCH's relationships (its path structure, and the whole walk only
    where a part holds an expression) answers as counting every relationship pattern does."""
    from gqlir.passes.edge_uniqueness import _kept_by_path, uniqueness_matters

    def counted(step: ir.Match) -> bool:
        """The reference, written here: every relationship pattern in the MATCH's walk."""
        rels = 0
        for part in (x for pattern in step.patterns for x in pattern.walk()):
            if isinstance(part, ir.ParenPath) and part.quantifier is not None:
                return True
            if isinstance(part, ir.RelPattern):
                if part.quantifier is not None:
                    return True
                rels += 1
        return rels > 1

    matches = 0
    extra = [  # (parts holding expressions, some with patterns of their own)
        ("MATCH (a)-[r]->(b WHERE EXISTS { MATCH (b)-->() }) RETURN a", "neo4j", True),
        ("MATCH (a {x: [(a)-->(c) | c.y]})-[r]->(b) RETURN a", "neo4j", True),
        ("MATCH (a {x: 1})-[r {y: 2}]->(b) RETURN a", "neo4j", False),
        ("MATCH ((a)-[r]->(b) WHERE a.x = 1)+ RETURN a", "neo4j", True),
    ]
    for text, read, *known in [*((t, r) for t, r in _sample_queries()), *extra]:
        try:
            query = gqlir.parse(text, read)
        except gqlir.GqlirError:
            continue
        for step in query.walk():
            if isinstance(step, ir.Match) and step.patterns:
                matches += 1
                whole = not _kept_by_path(step) and counted(step)
                assert uniqueness_matters(step) == whole, text
                if known and step is query.steps[0]:
                    assert whole is known[0], text
    assert matches > 300


@pytest.mark.parametrize(
    ("query", "changes"),
    [
        ("MATCH (a:A) RETURN a.x = null AS r", True),
        ("UNWIND null AS x RETURN x", True),
        ("MATCH (a:A), (b:B {k: a.k}) RETURN b", True),
        ("MATCH (a:A {k: 1})-[r:R]->(b:B) WHERE a.x > 2 RETURN b.y + 1 AS y", False),
        ("MATCH (a:A) RETURN coalesce(a.x, null) AS r", False),
    ],
)
def test_the_googlesql_pass_rewrites_only_what_its_rules_read(query: str, changes: bool) -> None:
    """The pass looks for a literal null operand and an element filter reading another
    variable in one walk, and leaves a query with neither as it is (the same object)."""
    from gqlir.passes.googlesql import lower_googlesql

    node = gqlir.parse(query, "neo4j")
    assert (lower_googlesql(node, get_dialect("spanner")) is not node) is changes


def test_the_cypher_passes_no_bundled_dialect_runs_skip_only_queries_they_leave_alone() -> None:
    """As above, for the Cypher passes whose capabilities no bundled dialect has
    (integer-quotients, implicit-grouping, the slice rule of list-positions): on a Cypher
    dialect built with them, a pass judged not needed gives its input back."""
    from gqlir.dialect import Capabilities, Dialect
    from gqlir.passes.pipeline import summarize

    target = Dialect(
        name="test-cypher",
        family="cypher",
        grammar="cypher",
        description="built by the test",
        capabilities=Capabilities(
            integer_division="float", implicit_grouping=False, list_index_base=1
        ),
    )
    names = {"integer-quotients", "implicit-grouping", "list-positions"}
    chosen = [x for x in lowerings(target) if x.name in names]
    assert {x.name for x in chosen} == names
    checked = 0
    for text, read in _sample_queries():
        try:
            node = gqlir.parse(text, read)
        except gqlir.GqlirError:
            continue
        summary = summarize(node)
        for lowering in chosen:
            if not lowering.needed(summary):
                checked += 1
                assert _run_pass(lowering, node, target) is node, (lowering.name, text)
    assert checked > 100
