"""Cypher translated into Spanner and run under Spanner's semantics: the TCK's checks of the
Spanner rules (graph elements as JSON, GoogleSQL functions)."""

from __future__ import annotations

import pytest

from gqlir.conformance import default_tck_dir, parse_feature
from gqlir.conformance.element_json import decode
from gqlir.conformance.runner import run_scenario, run_tck
from gqlir.eval import Graph, run

TCK_DIR = default_tck_dir()
needs_tck = pytest.mark.skipif(TCK_DIR is None, reason="openCypher TCK not available")


def _scenario(query: str, header: str, *rows: str, setup: str = "") -> object:
    given = f'    And having executed:\n      """\n      {setup}\n      """\n' if setup else ""
    table = "\n".join(f"      | {r} |" for r in (header, *rows))
    (scenario,) = parse_feature(
        f"""Feature: f
  Scenario: s
    Given an empty graph
{given}    When executing query:
      \"\"\"
      {query}
      \"\"\"
    Then the result should be, in any order:
{table}
"""
    )
    return scenario


SETUP = "CREATE (:A {name: 'a'})-[:T {k: 1}]->(:B {name: 'b'})"


@pytest.mark.parametrize(
    ("query", "header", "rows"),
    [
        ("MATCH (n:A) RETURN n", "n", ["(:A {name: 'a'})"]),
        ("MATCH ()-[r]->() RETURN r", "r", ["[:T {k: 1}]"]),
        ("MATCH p = (:A)-->() RETURN p", "p", ["<(:A {name: 'a'})-[:T {k: 1}]->(:B {name: 'b'})>"]),
        ("MATCH p = (:B)<--() RETURN p", "p", ["<(:B {name: 'b'})<-[:T {k: 1}]-(:A {name: 'a'})>"]),
        ("MATCH p = (n:A) RETURN p", "p", ["<(:A {name: 'a'})>"]),
        ("MATCH (n) RETURN collect(n.name) AS c, count(n) AS k", "c | k", ["['a', 'b'] | 2"]),
        ("MATCH (n:A) RETURN [n] AS l", "l", ["[(:A {name: 'a'})]"]),
    ],
)
def test_elements_as_json_pass_under_spanner(query: str, header: str, rows: list[str]) -> None:
    """With spanner_elements='to_json' a node, edge or path column is SAFE_TO_JSON of it;
    the TCK check reads the JSON back into the element and finds the expected one."""
    scenario = _scenario(query, header, *rows, setup=SETUP)
    result = run_scenario(scenario, target="spanner", elements="to_json")
    assert (result.passed, result.translated) == (True, True), result.reason


def test_elements_are_refused_by_default() -> None:
    scenario = _scenario("MATCH (n:A) RETURN n", "n", "(:A {name: 'a'})", setup=SETUP)
    result = run_scenario(scenario, target="spanner")
    assert (result.passed, result.kind) == (False, "refused")
    assert "graph element" in (result.reason or "")


def test_a_wrong_element_still_fails() -> None:
    """The JSON is compared, not trusted: another label or property is a wrong result."""
    for expected in ("(:A {name: 'x'})", "(:B {name: 'a'})", "(:A)"):
        scenario = _scenario("MATCH (n:A) RETURN n", "n", expected, setup=SETUP)
        result = run_scenario(scenario, target="spanner", elements="to_json")
        assert (result.passed, result.kind) == (False, "wrong-result"), expected


def test_safe_to_json_of_elements_has_spanners_shape() -> None:
    graph = Graph()
    run(SETUP, graph, dialect="neo4j")
    rows = run(
        "GRAPH g MATCH p = (a)-[r]->(b) RETURN SAFE_TO_JSON(a) AS a, SAFE_TO_JSON(r) AS r, "
        "SAFE_TO_JSON(p) AS p",
        graph,
        dialect="spanner",
    ).rows
    ((a, r, p),) = rows
    assert a == {
        "identifier": a["identifier"],
        "kind": "node",
        "labels": ["A"],
        "properties": {"name": "a"},
    }
    assert r["kind"] == "edge" and r["labels"] == ["T"] and r["properties"] == {"k": 1}
    assert r["source_node_identifier"] == a["identifier"]
    assert r["destination_node_identifier"] == p[2]["identifier"]
    assert [x["kind"] for x in p] == ["node", "edge", "node"]


def test_only_chains_of_elements_decode_as_paths() -> None:
    node = {"identifier": "n1", "kind": "node", "labels": ["A"], "properties": {}}
    other = {"identifier": "n2", "kind": "node", "labels": ["A"], "properties": {}}
    edge = {
        "identifier": "e1",
        "kind": "edge",
        "labels": ["T"],
        "properties": {},
        "source_node_identifier": "n1",
        "destination_node_identifier": "n3",  # joins neither neighbour
    }
    assert isinstance(decode([node, edge, other]), list)
    assert isinstance(decode([node]), list)
    assert not isinstance(decode([node], paths=True), list)
    assert decode({"kind": "other", "x": 1}) == {"kind": "other", "x": 1}


@needs_tck
def test_the_tck_with_elements_as_json() -> None:
    """Every TCK scenario translated into Spanner with elements as JSON gives the expected
    result; 1,147 scenarios ran so when this was written (884 without JSON)."""
    report = run_tck(TCK_DIR, target="spanner", elements="to_json")
    failures = [(r.scenario.id, r.kind, r.reason) for r in report.results if not r.passed]
    failures = [f for f in failures if f[1] != "refused"]
    assert not failures, failures[:5]
    assert report.translated >= 1147


# -- dead constant columns (gqlir.passes.dead_columns) -------------------------------------------


def _both(query: str, setup: str = "CREATE (:A {name: 'x'}), (:A {name: 'y'})") -> tuple:
    """The query's rows under Cypher and its Spanner translation's rows under Spanner."""
    from gqlir import transpile

    graph = Graph()
    run(setup, graph, dialect="neo4j")
    text = transpile(query, "neo4j", "spanner", graph="g")
    cypher = run(query, graph, dialect="neo4j")
    spanner = run(text, graph, dialect="spanner")
    return sorted(map(repr, cypher.rows)), sorted(map(repr, spanner.rows)), text


@pytest.mark.parametrize(
    "query",
    [
        "WITH {name: 'Mats', Name: 'Pontus'} AS map RETURN map.Name AS result",
        "WITH {name: 'Mats'} AS map RETURN map['nAMe'] AS result",
        "WITH {name: null} AS map RETURN map.name IS NOT NULL AS result",
        "MATCH (a) WITH a, {k: 1} AS m RETURN a.name AS n, m.k AS k",
        "MATCH (a) WITH DISTINCT a.name AS n, {k: 1} AS m RETURN n, m.k AS k",
    ],
)
def test_a_constant_map_read_only_by_key_translates(query: str) -> None:
    cypher, spanner, text = _both(query)
    assert cypher == spanner, text
    assert "{" not in text.replace("VALUE {", ""), text  # no map left


@pytest.mark.parametrize(
    "query",
    [
        # the map is the result
        "WITH {k: 1} AS m RETURN m",
        # DISTINCT on the constant alone makes one row of many
        "MATCH (a) WITH DISTINCT {k: 1} AS m RETURN m.k AS k",
        # aggregating: a constant key gives no row for no input
        "MATCH (a) WITH {k: 1} AS m, count(*) AS c RETURN m.k AS k, c",
        # the WITH hides a, which the second MATCH binds afresh
        "MATCH (a) WITH {k: 1} AS m MATCH (a) RETURN m.k AS k",
    ],
)
def test_a_map_that_matters_stays_refused(query: str) -> None:
    from gqlir import transpile
    from gqlir.errors import UnsupportedError

    with pytest.raises(UnsupportedError):
        transpile(query, "neo4j", "spanner", graph="g")


# -- CONTAINS and =~ as GoogleSQL functions (gqlir.passes.googlesql_strings) -----------------------

_STRINGS = ["abc", "ABC", "", "a b", "a\tb", "a\nb", "a\x0bb", "x1y", "é", "a.b", None]


def _compare_on_strings(predicate: str) -> str:
    """``predicate`` over ``s`` under Cypher and, translated, under Spanner, on every string of
    _STRINGS: the same rows (nulls included)."""
    from gqlir import transpile

    query = f"UNWIND $xs AS s RETURN s, {predicate} AS ok"
    text = transpile(query, "neo4j", "spanner", graph="g")
    cypher = run(query, Graph(), {"xs": _STRINGS}, dialect="neo4j").rows
    spanner = run(text, Graph(), {"xs": _STRINGS}, dialect="spanner").rows
    assert cypher == spanner, text
    return text


@pytest.mark.parametrize("needle", ["'b'", "''", "'abc'", "'zz'", "s", "null"])
def test_contains_is_strpos(needle: str) -> None:
    text = _compare_on_strings(f"s CONTAINS {needle}")
    if needle not in ("''", "null"):
        assert "STRPOS(" in text


@pytest.mark.parametrize(
    "pattern",
    [
        "a.c",
        "a.b",
        ".*",
        "a\\\\sb",
        "a\\\\Sb",
        "[a-c]+",
        "[^a]*",
        "x\\\\dy",
        "\\\\w+",
        "(a|A)(b|B)c",
        "a{1,2}b?c*",
        "(?:ab)+c",
        "a\\\\.b",
        "abc$",
        "^abc",
        "[\\\\s]",
        "a.*?",
    ],
)
def test_regex_match_is_anchored_regexp_contains(pattern: str) -> None:
    text = _compare_on_strings(f"s =~ '{pattern}'")
    assert "REGEXP_CONTAINS(" in text


@pytest.mark.parametrize(
    "pattern",
    [
        "(?i)abc",  # case folding: ASCII in Java, Unicode in RE2
        "(a)\\\\1",  # back-reference
        "a(?=b)",  # look-ahead
        "a*+",  # possessive
        "\\\\bx",  # word boundary
        "\\\\p{L}",
        "[a-z&&[^b]]",
        "[a[b]]",
        "a$|b",  # $ before the end: Java's may stand before a final line terminator
        "\\\\Qa.b\\\\E",
    ],
)
def test_regex_where_java_and_re2_differ_is_refused(pattern: str) -> None:
    from gqlir import transpile
    from gqlir.errors import UnsupportedError

    with pytest.raises(UnsupportedError) as info:
        transpile(
            f"MATCH (n) WHERE n.s =~ '{pattern}' RETURN n.s AS s", "neo4j", "spanner", graph="g"
        )
    assert info.value.construct == "regular expression match"


def test_a_regex_that_is_not_a_literal_is_refused() -> None:
    from gqlir import transpile
    from gqlir.errors import UnsupportedError

    with pytest.raises(UnsupportedError) as info:
        transpile("MATCH (n) WHERE n.s =~ n.p RETURN n.s AS s", "neo4j", "spanner", graph="g")
    assert info.value.construct == "regular expression match"


def test_dot_excludes_javas_line_terminators() -> None:
    """Java's . matches no \\r (RE2's does): the translation keeps Java's meaning."""
    from gqlir import transpile

    text = transpile("RETURN $s =~ 'a.b' AS ok", "neo4j", "spanner", graph="g")
    for s, want in (("a\rb", False), ("a\u2028b", False), ("axb", True)):
        assert run(text, Graph(), {"s": s}, dialect="spanner").rows == [(want,)]


# -- integer division as DIV (gqlir.passes.googlesql_division) ------------------------------------


@pytest.mark.parametrize(
    ("expr", "value"),
    [("size($l) / 2", 1), ("-size($l) / 2", -1), ("size($l) / -2", -1), ("count(*) / 60 / 60", 0)],
)
def test_division_of_integers_is_div(expr: str, value: int) -> None:
    from gqlir import transpile

    query = f"RETURN {expr} AS q"
    text = transpile(query, "neo4j", "spanner", graph="g")
    assert "DIV(" in text and "/" not in text.split("RETURN", 1)[1], text
    params = {"l": [1, 2, 3]}
    assert run(query, Graph(), params, dialect="neo4j").rows == [(value,)]
    assert run(text, Graph(), params, dialect="spanner").rows == [(value,)]


def test_division_by_zero_fails_in_both() -> None:
    from gqlir import transpile
    from gqlir.errors import EvaluationError

    query = "RETURN size($l) / size([]) AS q"
    text = transpile(query, "neo4j", "spanner", graph="g")
    for q, dialect in ((query, "neo4j"), (text, "spanner")):
        with pytest.raises(EvaluationError) as info:
            run(q, Graph(), {"l": [1]}, dialect=dialect)
        assert info.value.category == "ArithmeticError"


def test_division_of_a_value_that_may_be_a_float_stays_refused() -> None:
    from gqlir import transpile
    from gqlir.errors import UnsupportedError

    with pytest.raises(UnsupportedError, match="integer division"):
        transpile("MATCH (n) RETURN n.x / 2 AS q", "neo4j", "spanner", graph="g")


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        (
            "MATCH (n:A) RETURN DISTINCT n",
            "GRAPH g MATCH (n:A) RETURN DISTINCT n NEXT RETURN SAFE_TO_JSON(n) AS n",
        ),
        (
            "MATCH (n)-->(m) RETURN n, count(m) AS c ORDER BY c LIMIT 2",
            "GRAPH g MATCH (n)->(m) RETURN n, COUNT(m) AS c NEXT "
            "RETURN SAFE_TO_JSON(n) AS n, c ORDER BY c NULLS LAST LIMIT 2",
        ),
    ],
)
def test_elements_are_grouped_before_they_become_json(query: str, expected: str) -> None:
    """JSON is not groupable in Spanner, a node is ("Groupable data types"): DISTINCT and
    grouping run on the element, SAFE_TO_JSON after."""
    from gqlir import transpile

    assert transpile(query, "neo4j", "spanner", graph="g", spanner_elements="to_json") == expected


def test_a_distinct_path_is_refused_for_spanner() -> None:
    from gqlir import transpile
    from gqlir.errors import UnsupportedError

    with pytest.raises(UnsupportedError) as info:
        transpile(
            "MATCH p = (a)-->() RETURN DISTINCT p",
            "neo4j",
            "spanner",
            graph="g",
            spanner_elements="to_json",
        )
    assert info.value.construct == "grouping by a path or a list"


def test_translate_cli_returns_elements_as_json_on_request(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from gqlir.cli import main

    args = ["translate", "--from", "neo4j", "--to", "spanner", "--graph", "g"]
    assert main([*args, "MATCH (n) RETURN n"]) != 0
    assert "spanner_elements" in capsys.readouterr().err
    assert main([*args, "--spanner-elements", "to_json", "MATCH (n) RETURN n"]) == 0
    assert capsys.readouterr().out.strip() == "GRAPH g MATCH (n) RETURN SAFE_TO_JSON(n) AS n"


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        (
            "MATCH (n) RETURN n ORDER BY n.name LIMIT 2",
            "GRAPH g MATCH (n) LET _g1 = n.name RETURN SAFE_TO_JSON(n) AS n "
            "ORDER BY _g1 NULLS LAST LIMIT 2",
        ),
        (
            "MATCH (a) RETURN a AS b ORDER BY b.id DESC",
            "GRAPH g MATCH (a) LET _g1 = a.id RETURN SAFE_TO_JSON(a) AS b "
            "ORDER BY _g1 DESC NULLS FIRST",
        ),
        (
            "MATCH (n) RETURN * ORDER BY n.id",
            "GRAPH g MATCH (n) LET _g1 = n.id RETURN SAFE_TO_JSON(n) AS n ORDER BY _g1 NULLS LAST",
        ),
    ],
)
def test_sort_keys_read_the_element_before_it_is_json(query: str, expected: str) -> None:
    """After RETURN SAFE_TO_JSON(n) AS n, n is the JSON: a sort key on n is computed first."""
    from gqlir import transpile

    assert transpile(query, "neo4j", "spanner", graph="g", spanner_elements="to_json") == expected


def test_ordering_by_an_element_is_refused() -> None:
    from gqlir import transpile
    from gqlir.errors import UnsupportedError

    with pytest.raises(UnsupportedError) as info:
        transpile(
            "MATCH (a) RETURN a ORDER BY a",
            "neo4j",
            "spanner",
            graph="g",
            spanner_elements="to_json",
        )
    assert info.value.construct == "ORDER BY a graph element"


# -- left/right/substring/toFloat/toInteger (gqlir.passes.googlesql_functions) ---------------------


@pytest.mark.parametrize(
    "expr",
    [
        "left(s, 0)",
        "left(s, 2)",
        "left(s, 10)",
        "right(s, 1)",
        "right(s, 2)",
        "right(s, 10)",
        "substring(s, 0)",
        "substring(s, 1)",
        "substring(s, 5)",
        "substring(s, 1, 1)",
        "substring(s, 0, 0)",
        "substring(s, 2, 10)",
    ],
)
def test_substrings_are_substr(expr: str) -> None:
    from gqlir import transpile

    query = f"UNWIND $xs AS s RETURN s, {expr} AS v"
    text = transpile(query, "neo4j", "spanner", graph="g")
    assert "SUBSTR(" in text, text
    xs = ["", "a", "abc", "abcdef", None]
    cypher = run(query, Graph(), {"xs": xs}, dialect="neo4j").rows
    assert run(text, Graph(), {"xs": xs}, dialect="spanner").rows == cypher, text


@pytest.mark.parametrize(
    "query",
    [
        "MATCH (n) RETURN left(n.s, n.i) AS v",  # a length only known at run time
        "MATCH (n) RETURN right(n.s, 0) AS v",  # SUBSTR(s, -0) is the whole string
        "MATCH (n) RETURN substring(n.s, -1) AS v",  # Cypher fails, SUBSTR counts from the end
        "MATCH (n) RETURN toFloat(n.s) AS v",  # Java's and GoogleSQL's number syntaxes differ
        "MATCH (n) RETURN toInteger(2.5) + n.i AS v",
    ],
)
def test_functions_that_may_differ_stay_refused(query: str) -> None:
    from gqlir import transpile
    from gqlir.errors import UnsupportedError

    with pytest.raises(UnsupportedError):
        transpile(query, "neo4j", "spanner", graph="g")


def test_to_float_of_a_number_is_a_cast() -> None:
    from gqlir import transpile

    query = "UNWIND $xs AS x RETURN toFloat(size(x)) AS f, toInteger(size(x)) AS i"
    text = transpile(query, "neo4j", "spanner", graph="g")
    assert text == (
        "GRAPH g FOR x IN @xs RETURN CAST(ARRAY_LENGTH(x) AS FLOAT64) AS f, ARRAY_LENGTH(x) AS i"
    )
    xs = [[1, 2], [], None]
    cypher = run(query, Graph(), {"xs": xs}, dialect="neo4j").rows
    assert run(text, Graph(), {"xs": xs}, dialect="spanner").rows == cypher


def test_round_rounds_half_up_in_spanner_too() -> None:
    """Cypher's round(-2.5) is -2.0 (half up); GoogleSQL's ROUND gives -3."""
    from gqlir import transpile

    query = "UNWIND $xs AS x RETURN x, round(x) AS r"
    text = transpile(query, "neo4j", "spanner", graph="g")
    assert "ROUND" not in text and "CEIL(" in text, text
    xs = [2.5, -2.5, 0.5, -0.5, 1.4, -1.6, 3, -3, 1e20, 2.0**52 + 1, None]
    cypher = run(query, Graph(), {"xs": xs}, dialect="neo4j").rows
    assert run(text, Graph(), {"xs": xs}, dialect="spanner").rows == cypher


def test_round_with_a_precision_or_of_chance_stays_refused() -> None:
    from gqlir import transpile
    from gqlir.errors import UnsupportedError

    for query in (
        "MATCH (n) RETURN round(n.x, 2) AS r",
        "MATCH (n) RETURN round(n.x * rand()) AS r",
    ):
        with pytest.raises(UnsupportedError):
            transpile(query, "neo4j", "spanner", graph="g")
