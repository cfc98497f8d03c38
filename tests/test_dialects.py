"""Dialect specs: they load, they cite their facts, their function renames are reversible, and the
capability matrix reflects them."""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path

import pytest

import gqlir
from gqlir import capmatrix
from gqlir.dialect import Capabilities, Dialect, all_dialects, get_dialect
from gqlir.errors import DialectError
from gqlir.ir.functions import FUNCTIONS

EXPECTED = {
    "neo4j",
    "opencypher9",
    "tugraph-cypher",
    "kuzu",
    "iso-gql",
    "spanner",
    "tugraph-gql",
    "sqlpgq",
    "sql",
}
DIALECTS = all_dialects()
DEFAULTS = Capabilities()
CAP_NAMES = [f.name for f in fields(Capabilities)]


def _ids(dialects: list[Dialect]) -> list[str]:
    return [d.name for d in dialects]


def _non_default(d: Dialect) -> list[str]:
    return [n for n in CAP_NAMES if getattr(d.capabilities, n) != getattr(DEFAULTS, n)]


# -- loading --------------------------------------------------------------------------------------


def test_every_expected_dialect_is_present() -> None:
    assert {d.name for d in DIALECTS} >= EXPECTED


@pytest.mark.parametrize("d", DIALECTS, ids=_ids(DIALECTS))
def test_dialect_loads_by_name_and_aliases(d: Dialect) -> None:
    assert get_dialect(d.name) is d
    assert get_dialect(d.name.upper()) is d
    for alias in d.aliases:
        assert get_dialect(alias) is d
    assert d.family in ("cypher", "gql", "sql")
    assert d.grammar
    assert d.description and "\n" not in d.description


@pytest.mark.parametrize(("alias", "name"), [("cypher", "neo4j"), ("gql", "iso-gql")])
def test_documented_aliases(alias: str, name: str) -> None:
    assert get_dialect(alias).name == name


def test_aliases_do_not_leak_through_inheritance() -> None:
    # spanner inherits iso-gql, which owns the alias "gql"
    assert get_dialect("spanner").aliases == ()
    assert get_dialect("opencypher9").aliases == ()


def test_sql_flavour() -> None:
    sqlite = get_dialect("sql:sqlite")
    assert sqlite.name == "sql:sqlite"
    assert sqlite.sql_dialect == "sqlite"
    assert sqlite.family == "sql"
    assert get_dialect("sql:sqlite") is sqlite
    assert get_dialect("sqlpgq:duckdb").sql_dialect == "duckdb"


def test_sql_flavour_takes_its_null_ordering() -> None:
    pytest.importorskip("sqlglot")
    assert get_dialect("sql:sqlite").capabilities.nulls_sort_high is False
    assert get_dialect("sql:sqlite").capabilities.null_order_fixed is True
    assert get_dialect("sql:postgres").capabilities.nulls_sort_high is True
    assert get_dialect("sql:duckdb").capabilities.null_order_fixed is False
    assert "nulls_sort_high" in get_dialect("sql:postgres").sources


def test_unknown_sql_flavour_is_an_error() -> None:
    pytest.importorskip("sqlglot")
    with pytest.raises(DialectError, match="nonsense"):
        get_dialect("sql:nonsense")


def test_flavour_on_non_sql_dialect_is_an_error() -> None:
    with pytest.raises(DialectError):
        get_dialect("neo4j:x")


def test_unknown_dialect_lists_known_ones() -> None:
    with pytest.raises(DialectError) as info:
        get_dialect("no-such-dialect")
    message = str(info.value)
    assert "no-such-dialect" in message
    for name in ("neo4j", "iso-gql", "spanner", "cypher", "gql"):
        assert name in message


def test_get_dialect_passes_dialect_objects_through() -> None:
    d = get_dialect("kuzu")
    assert get_dialect(d) is d


# -- sources --------------------------------------------------------------------------------------


@pytest.mark.parametrize("d", DIALECTS, ids=_ids(DIALECTS))
def test_every_non_default_capability_is_cited(d: Dialect) -> None:
    missing = [n for n in _non_default(d) if not d.sources.get(n, "").strip()]
    assert not missing, f"{d.name}: no [sources] entry for {missing}"


@pytest.mark.parametrize("d", DIALECTS, ids=_ids(DIALECTS))
def test_every_dialect_cites_its_documentation(d: Dialect) -> None:
    assert d.sources.get("dialect", "").strip()


# -- capabilities ---------------------------------------------------------------------------------


@pytest.mark.parametrize("d", DIALECTS, ids=_ids(DIALECTS))
def test_capability_values_are_in_range(d: Dialect) -> None:
    c = d.capabilities
    assert c.quantified_edge_syntax in ("star", "braces")
    assert c.label_expressions in ("full", "colon", "or", "single")
    assert c.colon_labels in ("and", "or")
    assert c.default_match_mode in ("DIFFERENT_EDGES", "REPEATABLE_ELEMENTS")
    assert c.create_keyword in ("CREATE", "INSERT")
    assert c.temporal_literals in ("function", "typed")
    assert c.group_by in ("", "variables", "expressions")
    assert c.slice_syntax in ("..", ":")
    assert c.integer_division in ("truncate", "float")
    assert c.list_index_base in (0, 1)
    assert c.max_node_labels >= 0 and c.max_property_map_keys >= 0
    modes = {"WALK", "TRAIL", "SIMPLE", "ACYCLIC"}
    assert set(c.path_modes) <= modes
    assert set(c.quantifier_path_modes) <= modes
    assert c.implicit_grouping or c.group_by, "a dialect must have some way to group"


def test_key_facts() -> None:
    oc9 = get_dialect("opencypher9").capabilities
    assert not (oc9.call_subquery or oc9.count_subquery or oc9.collect_subquery)
    assert not (oc9.quantified_paths or oc9.shortest_prefix or oc9.shortest_function)
    assert oc9.label_expressions == "colon" and not oc9.inline_where
    assert not (oc9.type_predicates or oc9.filter_step or oc9.let_step)
    assert not (oc9.use_graph or oc9.finish)
    assert oc9.exists_subquery and oc9.merge and oc9.foreach and oc9.union_distinct
    assert oc9.list_comprehension and oc9.pattern_comprehension
    assert oc9.create_keyword == "CREATE"

    tg = get_dialect("tugraph-cypher").capabilities
    assert tg.max_node_labels == 1
    assert not tg.union_distinct and tg.union_all
    assert not tg.exists_subquery and not tg.shortest_function and tg.leading_zero_octal
    assert {"START", "JOIN", "REGEXP"} <= get_dialect("tugraph-cypher").keyword_only

    kz = get_dialect("kuzu").capabilities
    assert kz.list_index_base == 1
    assert not kz.shortest_function and kz.shortest_in_quantifier
    assert kz.default_match_mode == "REPEATABLE_ELEMENTS"
    assert not kz.unbounded_quantifiers

    gql = get_dialect("iso-gql").capabilities
    assert not (gql.string_predicates or gql.list_membership or gql.list_comprehension)
    assert not gql.merge and gql.create_keyword == "INSERT"
    assert gql.quantified_edge_syntax == "braces" and gql.temporal_literals == "typed"
    assert gql.null_ordering_syntax and gql.cast and gql.undirected_edges
    assert gql.except_intersect and gql.otherwise and gql.group_by
    assert set(gql.path_modes) == {"WALK", "TRAIL", "SIMPLE", "ACYCLIC"}

    sp = get_dialect("spanner").capabilities
    assert sp.graph_prefix_required and sp.param_sigil == "@"
    assert not sp.unbounded_quantifiers and "SIMPLE" not in sp.path_modes
    assert not sp.return_graph_elements
    assert sp.default_match_mode == "REPEATABLE_ELEMENTS"
    assert sp.string_predicate_functions and not sp.string_predicates
    assert not sp.nulls_sort_high

    neo = get_dialect("neo4j").capabilities
    assert neo.nulls_sort_high and neo.default_match_mode == "DIFFERENT_EDGES"


# -- functions ------------------------------------------------------------------------------------


@pytest.mark.parametrize("d", DIALECTS, ids=_ids(DIALECTS))
def test_function_tables_name_canonical_functions(d: Dialect) -> None:
    assert not [n for n in d.functions if n not in FUNCTIONS]
    assert not [n for n in d.capabilities.unsupported_functions if n not in FUNCTIONS]
    assert not [n for n in d.function_aliases.values() if n not in FUNCTIONS]
    unsupported = d.capabilities.unsupported_functions
    assert len(set(unsupported)) == len(unsupported), "duplicate unsupported_functions entry"


def _read_back(d: Dialect, canonical: str) -> str:
    """The function ``canonical``'s surface name reads as: itself, except Cypher's ceil, floor
    and round where the dialect's keep an integer an integer (FalkorDB): its surface names are
    the typed functions and FalkorDB's own round, and the Cypher ones are lowered before
    printing (ceil and floor times 1.0, round as floor(x + 0.5))."""
    if not d.capabilities.integer_rounding_float and canonical in ("ceil", "floor"):
        return f"{canonical}_typed"
    if canonical == "round" and "falkordb.round" in d.functions:
        return "falkordb.round"
    return canonical


@pytest.mark.parametrize("d", DIALECTS, ids=_ids(DIALECTS))
def test_function_renames_round_trip(d: Dialect) -> None:
    unsupported = set(d.capabilities.unsupported_functions)
    broken = {
        c: (d.function_name(c), d.canonical_function(d.function_name(c)))
        for c in FUNCTIONS
        if c not in unsupported and d.canonical_function(d.function_name(c)) != _read_back(d, c)
    }
    assert not broken, f"{d.name}: canonical -> surface -> canonical differs: {broken}"


@pytest.mark.parametrize(
    "d",
    [d for d in DIALECTS if d.family == "cypher"],
    ids=_ids([d for d in DIALECTS if d.family == "cypher"]),
)
def test_cypher_family_reads_any_spelling_case(d: Dialect) -> None:
    for c in FUNCTIONS:
        if c in d.capabilities.unsupported_functions:
            continue
        surface = d.function_name(c)
        assert d.canonical_function(surface.upper()) == _read_back(d, c)
        assert d.canonical_function(surface.lower()) == _read_back(d, c)


def test_tugraph_regexp_is_not_written_for_a_cypher_regex() -> None:
    """TuGraph's REGEXP is a full match, but in C++'s ECMAScript grammar and false (not null)
    for a null or empty subject (TuGraph-DB's BuiltinFunction::Regexp, cited in the dialect
    file): =~ stays refused rather than become REGEXP."""
    dialect = get_dialect("tugraph-cypher")
    assert not dialect.capabilities.regex_match
    assert "std::regex_match" in dialect.sources["regex_match"]
    with pytest.raises(gqlir.UnsupportedError) as refused:
        gqlir.transpile("MATCH (n) WHERE n.name =~ 'a.*' RETURN n.name", "neo4j", "tugraph-cypher")
    assert refused.value.construct == "regular expression match"


def test_specific_spellings() -> None:
    neo = get_dialect("neo4j")
    assert neo.function_name("upper") == "toUpper"
    assert neo.function_name("percentilecont") == "percentileCont"
    assert neo.function_name("stdev") == "stDev"
    assert neo.canonical_function("toLower") == "lower"
    assert neo.canonical_function("lower") == "lower"
    assert neo.canonical_function("character_length") == "char_length"
    gql = get_dialect("gql")
    assert gql.function_name("collect") == "COLLECT_LIST"
    assert gql.function_name("length") == "PATH_LENGTH"
    assert gql.function_name("elementid") == "ELEMENT_ID"
    assert gql.function_name("stdev") == "STDDEV_SAMP"
    assert gql.function_name("log") == "LN"
    kuzu = get_dialect("kuzu")
    assert kuzu.canonical_function("log") == "log10"  # Kuzu's log() is base 10
    assert kuzu.function_name("log") == "ln"
    assert kuzu.canonical_function("toUpper") == "upper"
    assert kuzu.function_name("elementid") == "id"
    assert "id" in kuzu.capabilities.unsupported_functions


def test_reserved_words_are_upper_case() -> None:
    for d in DIALECTS:
        assert all(w == w.upper() for w in d.reserved_words)
    assert "MATCH" in get_dialect("neo4j").reserved_words
    assert "SHORTEST" in get_dialect("kuzu").reserved_words
    assert "NEXT" in get_dialect("iso-gql").reserved_words


# -- capability matrix ----------------------------------------------------------------------------


def test_every_capability_has_a_matrix_group() -> None:
    placed = {n for _, names in capmatrix.GROUPS for n in names} | capmatrix.LISTED_SEPARATELY
    assert set(CAP_NAMES) <= placed
    assert placed <= set(CAP_NAMES), "matrix names a capability that does not exist"


def test_matrix_has_a_row_per_dialect() -> None:
    text = capmatrix.render_matrix()
    tables = [t for t in text.split("\n\n") if t.startswith("| dialect |")]
    assert tables
    for table in tables:
        rows = table.splitlines()[2:]
        assert [r.split("|")[1].strip().strip("*") for r in rows] == [d.name for d in DIALECTS]
    for d in DIALECTS:
        assert f"- **{d.name}**:" in text


def test_matrix_cells() -> None:
    text = capmatrix.render_matrix([get_dialect("spanner")])
    assert "`@`" in text
    assert "WALK, TRAIL, ACYCLIC" in text
    # the backtick identifier quote must not open a code fence
    assert "| `` ` `` |" in text
    assert "```" not in capmatrix.render_matrix()


def test_check_and_write(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    readme.write_text(
        f"# Title\n\n{capmatrix.START_MARKER}\nold\n{capmatrix.END_MARKER}\n\nTail\n",
        encoding="utf-8",
    )
    assert capmatrix.check_file(readme).code == capmatrix.EXIT_STALE
    assert capmatrix.main(["--check", str(readme)]) == capmatrix.EXIT_STALE
    assert capmatrix.main(["--write", str(readme)]) == capmatrix.EXIT_OK
    text = readme.read_text(encoding="utf-8")
    assert text.startswith("# Title\n\n")
    assert text.endswith(f"{capmatrix.END_MARKER}\n\nTail\n")
    assert "old" not in text
    assert capmatrix.main(["--check", str(readme)]) == capmatrix.EXIT_OK
    assert capmatrix.main(["--write", str(readme)]) == capmatrix.EXIT_OK
    assert readme.read_text(encoding="utf-8") == text


def test_missing_markers_are_reported_not_invented(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    readme.write_text("# No markers here\n", encoding="utf-8")
    assert capmatrix.main(["--check", str(readme)]) == capmatrix.EXIT_MISSING
    assert capmatrix.main(["--write", str(readme)]) == capmatrix.EXIT_MISSING
    assert readme.read_text(encoding="utf-8") == "# No markers here\n"
    reversed_markers = tmp_path / "R.md"
    reversed_markers.write_text(
        f"{capmatrix.END_MARKER}\n{capmatrix.START_MARKER}\n", encoding="utf-8"
    )
    assert capmatrix.check_file(reversed_markers).code == capmatrix.EXIT_MISSING
    assert capmatrix.main(["--check", str(tmp_path / "absent.md")]) == capmatrix.EXIT_MISSING


def test_matrix_prints(capsys: pytest.CaptureFixture[str]) -> None:
    assert capmatrix.main([]) == capmatrix.EXIT_OK
    out = capsys.readouterr().out
    assert out == capmatrix.render_matrix()


def test_next_is_read_by_cypher_25_only_and_written_as_with() -> None:
    """NEXT (sequential queries) is Cypher 25's: the openCypher 9 grammar does not read it, and
    a NEXT read elsewhere is written as WITH."""
    text = "MATCH (n) RETURN n.x AS x NEXT MATCH (m) RETURN m.y AS y"
    assert gqlir.validate(text, dialect="neo4j")
    assert not gqlir.validate(text, dialect="opencypher9")
    assert gqlir.transpile(text, read="neo4j", write="opencypher9") == (
        "MATCH (n) WITH n.x AS x MATCH (m) RETURN m.y AS y"
    )
