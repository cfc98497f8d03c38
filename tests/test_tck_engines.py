"""The openCypher TCK on real engines (``gqlir tck --engine``): pass counts measured on the
bundled TCK must not drop, and a wrong expectation must fail with its reason."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gqlir.cli import main
from gqlir.conformance.engine_runner import run_engine_tck

FEATURES = Path(__file__).resolve().parents[1] / "corpus" / "opencypher-tck" / "features"

#: (engine, translation target, areas) -> scenarios passed at least, as measured (docs/tck.md)
PASSED_AT_LEAST = {
    ("arcadedb", None, ("clauses/create", "clauses/delete")): 79,
    ("grafeo", None, ("clauses/create", "clauses/delete")): 55,
    ("grafeo", "iso-gql", ("clauses/create",)): 39,
    ("kuzu", None, ("expressions/literals",)): 30,
    ("falkordb", None, ("clauses/merge", "expressions/null", "expressions/aggregation")): 64,
}

#: a feature with a right and a wrong expectation, an error of each phase, side effects and an
#: unknown step
FEATURE = """\
Feature: Checks

  Scenario: Right rows
    Given an empty graph
    And having executed:
      \"\"\"
      CREATE (:A {x: 1})-[:T {w: 2}]->(:B)
      \"\"\"
    When executing query:
      \"\"\"
      MATCH p = (a:A)-[r]->(b) RETURN a, r, p, [a.x, 1.5] AS l ORDER BY a.x
      \"\"\"
    Then the result should be, in order:
      | a            | r            | p                          | l        |
      | (:A {x: 1})  | [:T {w: 2}]  | <(:A {x: 1})-[:T {w: 2}]->(:B)> | [1, 1.5] |
    And no side effects

  Scenario: Wrong rows
    Given an empty graph
    When executing query:
      \"\"\"
      RETURN 1 AS x
      \"\"\"
    Then the result should be, in any order:
      | x |
      | 2 |

  Scenario: Side effects
    Given an empty graph
    When executing query:
      \"\"\"
      CREATE (:A {x: 1})
      \"\"\"
    Then the result should be empty
    And the side effects should be:
      | +nodes      | 1 |
      | +labels     | 1 |
      | +properties | 2 |

  Scenario: Compile-time error
    Given any graph
    When executing query:
      \"\"\"
      RETURN undefinedVariable
      \"\"\"
    Then a SyntaxError should be raised at compile time: UndefinedVariable

  Scenario: Runtime error expected at compile time
    Given any graph
    When executing query:
      \"\"\"
      RETURN 1 / 0 AS x
      \"\"\"
    Then an ArithmeticError should be raised at compile time: DivisionByZero

  Scenario: Unknown step
    Given an empty graph
    When the moon is full
    Then the result should be empty
"""


def _write_feature(tmp_path: Path) -> Path:
    path = tmp_path / "checks" / "Checks.feature"
    path.parent.mkdir()
    path.write_text(FEATURE)
    return path


@pytest.mark.parametrize(("engine", "target", "areas"), sorted(PASSED_AT_LEAST, key=str))
def test_engines_pass_tck_areas(engine: str, target: str | None, areas: tuple[str, ...]) -> None:
    report = run_engine_tck(FEATURES, engine, target=target, areas=areas)
    assert report.passed >= PASSED_AT_LEAST[(engine, target, areas)], report.reasons()
    failures = [r for r in report.results if not r.passed and r.kind != "not-runnable"]
    assert all(r.reason for r in failures)


def test_kuzu_marks_schema_first_scenarios_not_runnable() -> None:
    report = run_engine_tck(FEATURES, "kuzu", areas=["clauses/delete"])
    assert report.not_runnable >= 19
    reasons = {r.reason for r in report.results if r.kind == "not-runnable"}
    assert all("schema-first" in (reason or "") for reason in reasons)


@pytest.mark.parametrize("engine", ["grafeo", "arcadedb", "falkordb"])
def test_a_wrong_expectation_fails_with_its_reason(engine: str, tmp_path: Path) -> None:
    report = run_engine_tck(_write_feature(tmp_path), engine)
    by_name = {r.scenario.name: r for r in report.results}
    assert by_name["Right rows"].passed, by_name["Right rows"].reason
    assert by_name["Compile-time error"].passed, by_name["Compile-time error"].reason
    wrong = by_name["Wrong rows"]
    assert (wrong.passed, wrong.kind) == (False, "wrong-result")
    assert "expected [['2']], got [['1']]" in (wrong.reason or "")
    effects = by_name["Side effects"]
    assert (effects.passed, effects.kind) == (False, "wrong-side-effects")
    assert "'+properties': 1" in (effects.reason or "")
    unknown = by_name["Unknown step"]
    assert (unknown.passed, unknown.kind) == (False, "unreadable-step")
    assert "unknown step: the moon is full" in (unknown.reason or "")
    assert {r.scenario.area for r in report.results} == {"checks"}


def test_grafeo_errors_are_classified_by_phase(tmp_path: Path) -> None:
    report = run_engine_tck(_write_feature(tmp_path), "grafeo")
    (late,) = [r for r in report.results if r.scenario.name.startswith("Runtime error")]
    assert (late.passed, late.kind) == (False, "wrong-error")
    assert "engine failed at runtime" in (late.reason or "")


def test_cli_runs_one_feature_file_on_an_engine(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write_feature(tmp_path)
    assert main(["tck", str(path), "--engine", "grafeo", "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert (data["total"], data["passed"]) == (6, 2)
    assert main(["tck", str(path), "--engine", "grafeo", "--min-rate", "0.3"]) == 0
    out = capsys.readouterr().out
    assert "engine: grafeo" in out and "checks/Checks.feature:" in out


def test_neo4j_runs_a_tck_area(neo4j_server: str, tmp_path: Path) -> None:
    report = run_engine_tck(FEATURES, "neo4j", url=neo4j_server, areas=["clauses/delete"])
    assert (report.total, report.passed) == (19, 19), report.reasons()
    checks = run_engine_tck(_write_feature(tmp_path), "neo4j", url=neo4j_server)
    by_name = {r.scenario.name: r for r in checks.results}
    assert by_name["Right rows"].passed, by_name["Right rows"].reason
    assert by_name["Compile-time error"].passed
    assert by_name["Wrong rows"].kind == "wrong-result"
    late = by_name["Runtime error expected at compile time"]
    assert late.kind == "wrong-error" and "engine failed at runtime" in (late.reason or "")


RUNTIME_ERRORS = """\
Feature: Phases

  Scenario: Division by a zero from a row
    Given an empty graph
    When executing query:
      \"\"\"
      UNWIND [0] AS z RETURN 1 / z AS x
      \"\"\"
    Then an ArithmeticError should be raised at compile time: DivisionByZero

  Scenario: Division by a zero from a row, at runtime
    Given an empty graph
    When executing query:
      \"\"\"
      UNWIND [0] AS z RETURN 1 / z AS x
      \"\"\"
    Then an ArithmeticError should be raised at runtime: DivisionByZero
"""


def test_falkordb_errors_are_classified_by_explain(tmp_path: Path) -> None:
    """GRAPH.EXPLAIN tells FalkorDB's compile-time errors from its runtime ones (a constant
    1 / 0 is folded, so an error at compile time there)."""
    report = run_engine_tck(_write_feature(tmp_path), "falkordb")
    by_name = {r.scenario.name: r for r in report.results}
    assert by_name["Compile-time error"].rejected_by == "compile time"
    assert by_name["Runtime error expected at compile time"].rejected_by == "compile time"
    path = tmp_path / "phases" / "Phases.feature"
    path.parent.mkdir()
    path.write_text(RUNTIME_ERRORS)
    early, late = run_engine_tck(path, "falkordb").results
    assert early.kind == "wrong-error" and "engine failed at runtime" in (early.reason or "")
    assert late.passed and late.rejected_by == "runtime"


def test_falkordb_runs_the_tck_text_as_is_in_its_own_dialect() -> None:
    """``--dialect falkordb``: the TCK's text untranslated. Variable-length relationships are
    paths in FalkorDB: as is, Match4's scenarios on them fail; translated, every one run
    passes (the others are refused)."""
    feature = FEATURES / "clauses" / "match" / "Match4.feature"
    raw = run_engine_tck(feature, "falkordb", source="falkordb")
    translated = run_engine_tck(feature, "falkordb")
    assert translated.passed == translated.total >= 5, translated.reasons()
    failed = {r.scenario.id.rsplit(":", 1)[-1] for r in raw.results if not r.passed}
    assert {"33", "134"} <= failed, raw.reasons()
