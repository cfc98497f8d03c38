"""Tests of the openCypher TCK reader and the JSONL corpus loader (gqlir.conformance).

The reader is checked three ways: on small inline feature texts (every Gherkin construct the
TCK uses), on known scenarios of the real TCK, and on whole-TCK counts. The counts are those of
the 133-file copy in ../shared/tck; they were cross-checked with the official
``gherkin-official`` parser, and ``test_agrees_with_official_gherkin`` repeats that check
whenever that package happens to be installed (gqlir does not depend on it).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from gqlir.conformance import (
    GRAMMAR_LEVEL_DETAILS,
    SEMANTIC_DETAILS,
    TckFormatError,
    TckScenario,
    default_corpora_dir,
    default_tck_dir,
    error_queries,
    grammar_error_queries,
    is_grammar_level,
    load_jsonl_corpus,
    parse_feature,
    read_tck,
    valid_queries,
)

# ---------------------------------------------------------------------------------------------
# Inline feature texts
# ---------------------------------------------------------------------------------------------

OUTLINE = '''\
# a comment
@feature-tag
Feature: Demo - outlines
  Some description text.

  @outline-tag
  Scenario Outline: [1] Returns <what>
    # comment inside a scenario
    Given an empty graph
    And having executed:
      """
      CREATE ({v: <value>})
      """
    And parameters are:
      | p | <value> |
    When executing query:
      """
      MATCH (n)
        WHERE n.v = <value>
      RETURN n.v AS v, '<what>' AS w
      """
    Then the result should be, in order:
      | v       | w      |
      | <value> | <what> |
    And the side effects should be:
      | +nodes | <count> |

    @examples-tag
    Examples:
      A description of the examples.
      | what | value | count |
      | one  | 1     | 0     |
      | two  | [2]   | 0     |

    Examples: second block
      | what  | value | count |
      | three | 'x\\|y' | 0     |
'''


def test_outline_expands_one_scenario_per_examples_row() -> None:
    scenarios = parse_feature(OUTLINE, "clauses/demo/Demo1.feature")
    assert [s.example_index for s in scenarios] == [1, 2, 3]
    assert [s.name for s in scenarios] == [
        "[1] Returns one (example 1)",
        "[1] Returns two (example 2)",
        "[1] Returns three (example 3)",
    ]
    first, second, third = scenarios
    assert first.query == "MATCH (n)\n  WHERE n.v = 1\nRETURN n.v AS v, 'one' AS w"
    assert second.setup_queries == ("CREATE ({v: [2]})",)
    assert second.parameters == {"p": "[2]"}
    assert second.expected.header == ("v", "w")
    assert second.expected.rows == (("[2]", "two"),)
    assert third.example == {"what": "three", "value": "'x|y'", "count": "0"}
    assert first.expected.ordered and first.expected.kind == "rows"
    assert first.side_effects == {"+nodes": 0}
    assert first.tags == ("@feature-tag", "@outline-tag", "@examples-tag")
    assert third.tags == ("@feature-tag", "@outline-tag")
    assert all(s.line == 7 for s in scenarios)
    assert first.id == "clauses/demo/Demo1.feature:7#1"
    assert first.area == "clauses/demo" and first.feature == "Demo - outlines"


def test_placeholder_values_are_not_rescanned() -> None:
    text = OUTLINE.replace("| one  | 1     | 0     |", "| <value> | 1     | 0     |")
    first = parse_feature(text, "x/Demo.feature")[0]
    assert first.query.endswith("'<value>' AS w")  # substituted once, not expanded again


BACKGROUND_AND_ERRORS = '''\
Feature: Errors

  Background:
    Given any graph
    And having executed:
      """
      CREATE (:Setup)
      """

  Scenario: [1] Fails to compile
    When executing query:
      """
      RETURN [, ] AS literal
      """
    Then a SyntaxError should be raised at compile time: UnexpectedSyntax

  Scenario: [2] Fails at run time
    And having executed:
      """
      CREATE (:More)
      """
    When executing query:
      """
      RETURN 1 / 0
      """
    Then an ArithmeticError should be raised at runtime: DivisionByZero
    And no side effects

  Scenario: [3] Nothing comes back
    When executing query:
      """
      MATCH (n:None) RETURN n
      """
    Then the result should be empty
'''


def test_background_steps_precede_each_scenario() -> None:
    s1, s2, s3 = parse_feature(BACKGROUND_AND_ERRORS, "Errors.feature")
    assert s1.graph == s2.graph == s3.graph == "any"
    assert s1.setup_queries == ("CREATE (:Setup)",)
    assert s2.setup_queries == ("CREATE (:Setup)", "CREATE (:More)")
    assert s1.area == ""


def test_error_outcomes() -> None:
    s1, s2, s3 = parse_feature(BACKGROUND_AND_ERRORS, "Errors.feature")
    assert (s1.expected.kind, s1.expected.error_type) == ("error", "SyntaxError")
    assert (s1.expected.error_phase, s1.expected.error_detail) == (
        "compile time",
        "UnexpectedSyntax",
    )
    assert s1.is_compile_time_syntax_error and is_grammar_level(s1)
    assert s1.side_effects is None  # not stated
    assert s2.expected.error_type == "ArithmeticError" and s2.expected.error_phase == "runtime"
    assert not s2.is_compile_time_syntax_error and not is_grammar_level(s2)
    assert s2.side_effects == {}
    assert s3.expected.kind == "empty" and s3.expected.rows == ()


def test_docstring_indentation_escapes_and_crlf() -> None:
    text = (
        "Feature: F\r\n"
        "  Scenario: S\r\n"
        "    Given an empty graph\r\n"
        "    When executing query:\r\n"
        '      """\r\n'
        '      RETURN \'\\"\\"\\"\' AS q,\r\n'
        "        2 AS two\r\n"
        "   RETURN\r\n"
        "\r\n"
        '      """\r\n'
        "    Then the result should be (ignoring element order for lists):\r\n"
        "      | q | a\\|b | c\\\\d | e\\nf |\r\n"
    )
    (s,) = parse_feature(text, "F.feature")
    # indentation of the opening quotes is removed; a less indented line is left-trimmed
    assert s.query == 'RETURN \'"""\' AS q,\n  2 AS two\nRETURN\n'
    assert s.expected.header == ("q", "a|b", "c\\d", "e\nf")
    assert s.expected.ignore_list_order and not s.expected.ordered
    assert s.graph == "empty"


def test_control_query_and_procedures() -> None:
    text = '''\
Feature: F
  Scenario: S
    Given the binary-tree-1 graph
    And there exists a procedure test.my.proc(in :: INTEGER?) :: (out :: STRING?):
      | in   | out   |
      | null | 'nix' |
    When executing query:
      """
      CREATE ({created: 1})
      """
    Then the result should be empty
    And the side effects should be:
      | +nodes      | 1 |
      | +properties | 1 |
    When executing control query:
      """
      MATCH (n) RETURN n.created
      """
    Then the result should be, in any order:
      | n.created |
      | 1         |
'''
    (s,) = parse_feature(text, "F.feature")
    assert s.graph == "binary-tree-1"
    (proc,) = s.procedures
    assert proc.signature == "test.my.proc(in :: INTEGER?) :: (out :: STRING?)"
    assert proc.header == ("in", "out") and proc.rows == (("null", "'nix'"),)
    assert s.expected.kind == "empty"
    assert s.side_effects == {"+nodes": 1, "+properties": 1}
    assert s.control_query == "MATCH (n) RETURN n.created"
    assert s.control_expected is not None and s.control_expected.rows == (("1",),)
    assert s.control_expected.side_effects is None


@pytest.mark.parametrize(
    "body, message",
    [
        ("    Given an empty graph\n    When executing the query:\n", "unknown step"),
        ('    Given an empty graph\n      """\n      x\n      """\n', "takes no doc string"),
        ("    Given any graph\n      | a |\n", "takes no table"),
        (
            '    When executing query:\n      """\n      RETURN 1\n      """\n    Stray text\n',
            "unexpected line",
        ),
        ("    | a |\n", "table row"),
        ("    Given an empty graph\n", "without a query"),
        ("    Given an empty graph\n    When executing query:\n", "needs a doc string"),
        ('    When executing query:\n      """\n      RETURN 1\n', "unterminated"),
    ],
)
def test_unknown_or_broken_input_is_an_error(body: str, message: str) -> None:
    with pytest.raises(TckFormatError, match=message):
        parse_feature("Feature: F\n  Scenario: S\n" + body, "F.feature")


def test_classification_sets() -> None:
    assert not GRAMMAR_LEVEL_DETAILS & SEMANTIC_DETAILS
    assert {"UnexpectedSyntax", "InvalidNumberLiteral", "InvalidRelationshipPattern"} <= (
        GRAMMAR_LEVEL_DETAILS
    )
    assert {"VariableTypeConflict", "UndefinedVariable", "IntegerOverflow"} <= SEMANTIC_DETAILS


def test_default_dirs_honour_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "features").mkdir()
    monkeypatch.setenv("GQLIR_TCK_DIR", str(tmp_path))
    assert default_tck_dir() == tmp_path / "features"
    monkeypatch.setenv("GQLIR_TCK_DIR", str(tmp_path / "features"))
    assert default_tck_dir() == tmp_path / "features"
    monkeypatch.setenv("GQLIR_TCK_DIR", str(tmp_path / "missing"))
    assert default_tck_dir() is None
    monkeypatch.setenv("GQLIR_CORPORA_DIR", str(tmp_path))
    assert default_corpora_dir() == tmp_path


def test_jsonl_loader(tmp_path: Path) -> None:
    good = tmp_path / "good.jsonl"
    good.write_text('{"query": "MATCH (n) RETURN n"}\n\n{"query": "RETURN 1", "x": 2}\n')
    assert load_jsonl_corpus(good) == [
        {"query": "MATCH (n) RETURN n"},
        {"query": "RETURN 1", "x": 2},
    ]
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"query": "RETURN 1"}\n{"query": \n')
    with pytest.raises(ValueError, match=r"bad\.jsonl:2"):
        load_jsonl_corpus(bad)
    (tmp_path / "noquery.jsonl").write_text('{"q": 1}\n')
    with pytest.raises(ValueError, match=r"noquery\.jsonl:1"):
        load_jsonl_corpus(tmp_path / "noquery.jsonl")


# ---------------------------------------------------------------------------------------------
# The real TCK (skipped when ../shared/tck is absent)
# ---------------------------------------------------------------------------------------------

# Counts of the 133-file TCK copy in ../shared/tck, identical with gherkin-official 42.0.1.
FEATURE_FILES = 133  # 21 of them hold no scenario
FILES_WITH_SCENARIOS = 112
SCENARIO_BLOCKS = 782
OUTLINE_BLOCKS = 184
SCENARIO_INSTANCES = 2521
UNIQUE_VALID_QUERIES = 1941
COMPILE_TIME_SYNTAX_ERRORS = 510
GRAMMAR_LEVEL_SCENARIOS = 11
COMPILE_TIME_DETAILS = {
    "VariableTypeConflict": 159,
    "InvalidArgumentType": 134,
    "VariableAlreadyBound": 87,
    "UndefinedVariable": 66,
    "InvalidAggregation": 27,
    "UnexpectedSyntax": 8,
    "AmbiguousAggregationExpression": 5,
    "IntegerOverflow": 4,
    "NoSingleRelationshipType": 2,
    "RequiresDirectedRelationship": 2,
    "InvalidParameterUse": 2,
    "InvalidRelationshipPattern": 2,
    "NonConstantExpression": 2,
    "NegativeIntegerArgument": 2,
    "CreatingVarLength": 1,
    "InvalidDelete": 1,
    "RelationshipUniquenessViolation": 1,
    "ColumnNameConflict": 1,
    "NestedAggregation": 1,
    "NoVariablesInScope": 1,
    "DifferentColumnsInUnion": 1,
    "InvalidNumberLiteral": 1,
}


@pytest.fixture(scope="module")
def tck() -> Path:
    found = default_tck_dir()
    if found is None:
        pytest.skip("openCypher TCK not found (../shared/tck, or set GQLIR_TCK_DIR)")
    return found


@pytest.fixture(scope="module")
def scenarios(tck: Path) -> tuple[TckScenario, ...]:
    return read_tck(tck)


@pytest.fixture(scope="module")
def this_copy(tck: Path) -> None:
    """Skip exact-count tests when GQLIR_TCK_DIR points at another TCK version."""
    if len(list(tck.rglob("*.feature"))) != FEATURE_FILES:
        pytest.skip(f"counts are for the {FEATURE_FILES}-file TCK copy in ../shared/tck")


def by_id(scenarios: tuple[TckScenario, ...], ident: str) -> TckScenario:
    return next(s for s in scenarios if s.id == ident)


def test_whole_tck_counts(scenarios: tuple[TckScenario, ...], this_copy: None) -> None:
    assert len(scenarios) == SCENARIO_INSTANCES
    assert len({s.path for s in scenarios}) == FILES_WITH_SCENARIOS
    blocks = {(s.path, s.line, s.example_index is not None) for s in scenarios}
    assert sum(1 for b in blocks if not b[2]) == SCENARIO_BLOCKS
    assert sum(1 for b in blocks if b[2]) == OUTLINE_BLOCKS
    errors = [s for s in scenarios if s.is_compile_time_syntax_error]
    assert len(errors) == COMPILE_TIME_SYNTAX_ERRORS
    assert Counter(s.expected.error_detail for s in errors) == COMPILE_TIME_DETAILS
    assert sum(map(is_grammar_level, scenarios)) == GRAMMAR_LEVEL_SCENARIOS


def test_query_lists(tck: Path, this_copy: None) -> None:
    valid = valid_queries(tck)
    bad = grammar_error_queries(tck)
    assert len(valid) == UNIQUE_VALID_QUERIES == len(set(valid))
    assert len(bad) == GRAMMAR_LEVEL_SCENARIOS
    assert not set(valid) & set(bad)
    assert valid[0] == "CALL test.my.proc(42)"  # clauses/call/Call3 [1]: files in path order
    assert "RETURN [, ] AS literal" in bad
    failing = error_queries(tck)
    assert failing < set(valid) and "RETURN range(2, 8, 0)" in failing
    assert "CALL test.my.proc(42)" not in failing
    rejected = error_queries(tck, compile_time=True)
    assert rejected < failing and "WITH 123 AS nonMap\nRETURN nonMap.num" in rejected
    assert "RETURN range(2, 8, 0)" not in rejected  # (an error when it runs)


def test_every_compile_time_detail_is_classified(scenarios: tuple[TckScenario, ...]) -> None:
    details = {s.expected.error_detail for s in scenarios if s.is_compile_time_syntax_error}
    assert details <= GRAMMAR_LEVEL_DETAILS | SEMANTIC_DETAILS, details - (
        GRAMMAR_LEVEL_DETAILS | SEMANTIC_DETAILS
    )


def test_tck_grammar_check_tag_marks_grammar_level_errors(
    scenarios: tuple[TckScenario, ...],
) -> None:
    # The TCK tags scenarios its own grammar check must skip; all are grammar-level errors.
    tagged = [s for s in scenarios if "@skipGrammarCheck" in s.tags]
    assert tagged and all(is_grammar_level(s) for s in tagged)


def test_known_scenarios(scenarios: tuple[TckScenario, ...], this_copy: None) -> None:
    m = by_id(scenarios, "clauses/match/Match1.feature:44")
    assert m.name == "[2] Matching all nodes" and m.feature == "Match1 - Match nodes"
    assert m.area == "clauses/match" and m.graph == "empty"
    assert m.setup_queries == ("CREATE (:A), (:B {name: 'b'}), ({name: 'c'})",)
    assert m.query == "MATCH (n)\nRETURN n"
    assert m.expected.header == ("n",) and not m.expected.ordered
    assert m.expected.rows == (("(:A)",), ("(:B {name: 'b'})",), ("({name: 'c'})",))
    assert m.side_effects == {}

    # Background setup (Match5) comes before the scenario's own steps.
    bg = by_id(scenarios, "clauses/match/Match5.feature:69")
    assert bg.graph == "empty" and bg.setup_queries[0].startswith("CREATE (n0:A {name: 'n0'}),")

    # A CRLF file reads the same as the others.
    crlf = by_id(scenarios, "clauses/return-skip-limit/ReturnSkipLimit2.feature:33")
    assert "\r" not in crlf.query

    # Outline instance with a control query (Temporal4 [1]).
    t = by_id(scenarios, "expressions/temporal/Temporal4.feature:34#1")
    assert t.query == "CREATE ({created: date({year: 1984, month: 10, day: 11})})"
    assert t.side_effects == {"+nodes": 1, "+properties": 1}
    assert t.control_query == "MATCH (n)\nRETURN n.created"
    assert t.control_expected is not None
    assert t.control_expected.rows == (("'1984-10-11'",),)

    p = by_id(scenarios, "expressions/map/Map2.feature:34")
    assert p.parameters == {"expr": "{name: 'Apa'}", "idx": "'name'"}

    call = by_id(scenarios, "clauses/call/Call5.feature:33")
    assert call.procedures[0].signature == "test.my.proc(in :: INTEGER?) :: (out :: STRING?)"


def test_agrees_with_official_gherkin(tck: Path, scenarios: tuple[TckScenario, ...]) -> None:
    """Same scenario instances, queries, setups, tables and errors as gherkin-official."""
    parser_mod = pytest.importorskip("gherkin.parser")
    compiler_mod = pytest.importorskip("gherkin.pickles.compiler")
    mine: dict[str, list[TckScenario]] = {}
    for s in scenarios:
        mine.setdefault(s.path, []).append(s)
    for f in sorted(tck.rglob("*.feature")):
        rel = f.relative_to(tck).as_posix()
        doc = parser_mod.Parser().parse(f.read_text(encoding="utf-8"))
        doc["uri"] = rel
        pickles = compiler_mod.Compiler().compile(doc)
        assert len(pickles) == len(mine.get(rel, [])), rel
        for pickle, s in zip(pickles, mine.get(rel, []), strict=True):
            steps = pickle["steps"]

            def docs(text: str, steps: list = steps) -> list[str]:
                return [
                    st["argument"]["docString"]["content"] for st in steps if st["text"] == text
                ]

            assert docs("executing query:") == [s.query], s.id
            assert docs("having executed:") == list(s.setup_queries), s.id
            assert docs("executing control query:") == (
                [s.control_query] if s.control_query else []
            ), s.id
            assert s.name.startswith(pickle["name"]), s.id
            if s.expected.kind == "rows":
                table = next(
                    st["argument"]["dataTable"]["rows"]
                    for st in steps
                    if st["text"].startswith("the result should be")
                )
                cells = tuple(tuple(c["value"] for c in row["cells"]) for row in table)
                assert cells == (s.expected.header, *s.expected.rows), s.id


def test_shared_corpora() -> None:
    corpora = default_corpora_dir()
    if corpora is None:
        pytest.skip("../shared/corpora not found (or set GQLIR_CORPORA_DIR)")
    sizes = {
        "cypher/neo4j5_features.jsonl": 42,
        "gql/iso_gql_valid.jsonl": 180,
        "gql/iso_gql_invalid.jsonl": 23,
    }
    for rel, size in sizes.items():
        records = load_jsonl_corpus(corpora / rel)
        assert len(records) == size, rel
        assert all(isinstance(r["query"], str) and r["query"].strip() for r in records)
        json.dumps(records)  # plain data
