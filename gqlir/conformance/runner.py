"""Runs openCypher TCK scenarios through gqlir's parser and reference evaluator.

For each scenario: a fresh graph, the setup queries, the declared procedures and parameters,
then the query; its outcome is compared with what the scenario expects:

* **rows** — by column name; in order when the scenario says so, else as a bag; lists ignoring
  element order when it says that; values in the TCK notation (:mod:`.values`);
* **side effects** — the eight counters, where the scenario states them (``no side effects``
  means all zero);
* **compile-time errors** — passed when gqlir refuses the query before running it: the parser
  (``ParseError``/``SemanticError``) or the evaluator's static checks
  (:class:`gqlir.eval.check.StaticCheckError`); a query that is accepted fails with
  ``semantic check missing: <detail>``;
* **runtime errors** — passed when evaluation raises an error of the expected category;
* **control queries** — run after the query and compared the same way.

With a ``target`` dialect the query is first translated into it and the translation, parsed
back in that dialect, is what runs (under the target's semantics): the TCK's expected results
then check the translation rules. A query the target cannot express is ``refused``, which is
not a failure of the translation.

Every failure carries a kind and a reason.
"""

from __future__ import annotations

import re
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path as FsPath
from typing import Any

from .tck import TckOutcome, TckProcedure, TckScenario, read_tck
from .values import TckValueError, canonical, parse_value

__all__ = ["ScenarioResult", "TckReport", "run_scenario", "run_tck"]

PASS = "passed"

# Failure kinds, in report order.
KINDS = (
    "refused",
    "not-runnable",
    "unreadable-step",
    "semantic-check-missing",
    "not-modelled",
    "wrong-result",
    "wrong-side-effects",
    "missing-error",
    "wrong-error",
    "unexpected-error",
    "setup-failed",
)


@dataclass(frozen=True, slots=True)
class ScenarioResult:
    scenario: TckScenario
    passed: bool
    kind: str | None = None
    reason: str | None = None
    rejected_by: str | None = None  # parser | checker, for passed compile-time errors
    detail_matched: bool | None = None  # for passed error scenarios: the TCK detail agreed
    seconds: float = 0.0
    translated: bool = False  # the query ran as its translation into the target

    def to_data(self) -> dict[str, Any]:
        s = self.scenario
        out: dict[str, Any] = {"id": s.id, "area": s.area, "name": s.name, "passed": self.passed}
        if self.kind:
            out["kind"] = self.kind
            out["reason"] = self.reason
        if self.rejected_by:
            out["rejected_by"] = self.rejected_by
        if self.detail_matched is not None:
            out["detail_matched"] = self.detail_matched
        return out


@dataclass(slots=True)
class TckReport:
    results: list[ScenarioResult] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def total(self) -> int:
        """Scenarios run: not those whose query the translation target refused, nor those the
        engine cannot be given (``not-runnable``)."""
        return len(self.results) - self.refused - self.not_runnable

    @property
    def refused(self) -> int:
        return sum(r.kind == "refused" for r in self.results)

    @property
    def not_runnable(self) -> int:
        return sum(r.kind == "not-runnable" for r in self.results)

    @property
    def passed(self) -> int:
        return sum(r.passed for r in self.results)

    @property
    def translated(self) -> int:
        """Scenarios whose query ran as its translation (a query that must fail to compile is
        rejected before there is anything to translate)."""
        return sum(r.translated for r in self.results)

    def by_area(self) -> dict[str, dict[str, int]]:
        areas: dict[str, dict[str, int]] = {}
        for r in self.results:
            a = areas.setdefault(r.scenario.area, {"total": 0, "passed": 0})
            if r.kind in _NOT_RUN:
                a[r.kind] = a.get(r.kind, 0) + 1
            else:
                a["total"] += 1
                a["passed"] += r.passed
        return {k: v for k, v in sorted(areas.items()) if v["total"] or "not-runnable" in v}

    def reasons(self) -> list[tuple[str, str, int]]:
        """(kind, reason, count) of the failures, most frequent first within each kind."""
        counts = Counter(
            (r.kind or "", _reason_group(r.reason or ""))
            for r in self.results
            if not r.passed and r.kind not in _NOT_RUN
        )
        order = {k: i for i, k in enumerate(KINDS)}
        return sorted(
            ((k, reason, n) for (k, reason), n in counts.items()),
            key=lambda t: (order.get(t[0], 99), -t[2], t[1]),
        )

    def summary(self) -> dict[str, Any]:
        rejected = Counter(r.rejected_by for r in self.results if r.passed and r.rejected_by)
        errors = [r for r in self.results if r.passed and r.detail_matched is not None]
        return {
            "total": self.total,
            "refused": self.refused,
            "not_runnable": self.not_runnable,
            "translated": self.translated,
            "passed": self.passed,
            "failed": self.total - self.passed,
            "pass_rate": round(self.passed / self.total, 4) if self.total else 0.0,
            "seconds": round(self.seconds, 2),
            "areas": {
                area: {**c, "pass_rate": round(c["passed"] / c["total"], 4) if c["total"] else 0.0}
                for area, c in self.by_area().items()
            },
            "compile_time_errors_rejected_by": dict(rejected),
            "passed_errors_with_same_detail": sum(bool(r.detail_matched) for r in errors),
            "passed_errors": len(errors),
            "failure_reasons": [{"kind": k, "reason": r, "count": n} for k, r, n in self.reasons()],
            "failures": [
                r.to_data() for r in self.results if not r.passed and r.kind not in _NOT_RUN
            ],
        }


#: kinds of scenarios that did not run: they count neither as passed nor as failed
_NOT_RUN = ("refused", "not-runnable")


def _reason_group(reason: str) -> str:
    """The reason without the scenario-specific tail (values, positions), for grouping."""
    head = reason.split(" | ", 1)[0]
    return re.sub(r"\s+at line \d+, column \d+.*", "", head)[:160]


# ---------------------------------------------------------------------------------------------
# one scenario
# ---------------------------------------------------------------------------------------------


class _Failure(Exception):
    def __init__(self, kind: str, reason: str) -> None:
        super().__init__(reason)
        self.kind = kind
        self.reason = reason


def run_scenario(
    scenario: TckScenario,
    dialect: str = "neo4j",
    target: str | None = None,
    *,
    elements: str = "refuse",
) -> ScenarioResult:
    """Run one scenario on a fresh graph and compare its outcome with the expected one
    (the query translated into ``target`` first, when given). ``elements="to_json"`` lets a
    target that cannot return graph elements return them as JSON (Spanner's
    ``SAFE_TO_JSON``); the JSON is read back into the element it encodes before the
    comparison, as gqlir's Spanner engine reads it."""
    started = time.perf_counter()
    progress: dict[str, bool] = {}
    try:
        rejected_by, detail = _run(scenario, dialect, target, progress, elements)
    except _Failure as f:
        return ScenarioResult(
            scenario,
            False,
            f.kind,
            f.reason,
            seconds=time.perf_counter() - started,
            translated=progress.get("translated", False),
        )
    matched = None if detail is None else detail == scenario.expected.error_detail
    return ScenarioResult(
        scenario,
        True,
        rejected_by=rejected_by,
        detail_matched=matched,
        seconds=time.perf_counter() - started,
        translated=progress.get("translated", False),
    )


def _run(
    scenario: TckScenario,
    dialect: str,
    target: str | None = None,
    progress: dict[str, bool] | None = None,
    elements: str = "refuse",
) -> tuple[str | None, str | None]:
    """Raises :class:`_Failure`, or returns who refused the query (for an expected
    compile-time error) and the error detail gqlir gave (for any expected error)."""
    from .. import api
    from ..errors import EvaluationError, GqlirError
    from ..eval import Graph, evaluate
    from ..eval.check import StaticCheckError, check

    if scenario.problem is not None:
        raise _Failure("unreadable-step", scenario.problem)
    if scenario.graph not in ("empty", "any"):
        raise _Failure("setup-failed", f"named TCK graph {scenario.graph!r} is not available")
    graph = Graph()
    procedures = {p.name: p for p in (_procedure(d) for d in scenario.procedures)}
    for setup in scenario.setup_queries:
        try:
            evaluate(api.parse(setup, dialect), graph, dialect=dialect, procedures=procedures)
        except GqlirError as exc:
            raise _Failure("setup-failed", f"setup query failed: {_describe(exc)}") from None
    try:
        params = {k: parse_value(v) for k, v in scenario.parameters.items()}
    except TckValueError as exc:
        raise _Failure("setup-failed", f"parameter not understood: {exc}") from None

    expected = scenario.expected
    compile_time = expected.kind == "error" and expected.error_phase == "compile time"
    statement = None
    try:
        statement = api.parse(scenario.query, dialect)
        check(statement)
    except StaticCheckError as exc:
        return _compile_error(scenario, "checker", exc.detail, exc)
    except GqlirError as exc:
        if statement is None:
            return _compile_error(scenario, "parser", None, exc)
        raise
    if compile_time:
        raise _Failure("semantic-check-missing", f"semantic check missing: {expected.error_detail}")
    run_dialect = dialect
    if target is not None:
        statement = _translated(statement, dialect, target, elements)
        run_dialect = target
        if progress is not None:
            progress["translated"] = True

    try:
        result = evaluate(
            statement, graph, params, dialect=run_dialect, procedures=procedures, check=False
        )
    except EvaluationError as exc:
        if expected.kind == "error":
            if exc.category == expected.error_type:
                return None, exc.detail or ""
            want = f"{expected.error_type} ({expected.error_detail})"
            raise _Failure(
                "wrong-error", f"expected {want}, got {exc.category} | {exc.message}"
            ) from None
        if exc.category == "Unsupported":
            raise _Failure("not-modelled", f"not modelled: {exc.detail} | {exc.message}") from None
        raise _Failure(
            "unexpected-error", f"{exc.category}: {exc.detail} | {exc.message}"
        ) from None
    except GqlirError as exc:
        raise _Failure("unexpected-error", _describe(exc)) from None

    if expected.kind == "error":
        raise _Failure(
            "missing-error", f"expected {expected.error_type} at runtime: {expected.error_detail}"
        )
    if target is not None and elements == "to_json":
        from .element_json import decode_result

        result = decode_result(result, _path_columns(expected))
    _compare(expected, result)

    if scenario.control_query is not None and scenario.control_expected is not None:
        try:
            control = evaluate(api.parse(scenario.control_query, dialect), graph, dialect=dialect)
        except GqlirError as exc:
            raise _Failure("unexpected-error", f"control query failed: {_describe(exc)}") from None
        _compare(scenario.control_expected, control, control=True)
    return None, None


#: The graph a translation names where its dialect must name one (Spanner's ``GRAPH g``).
TRANSLATION_GRAPH = "tck"


def translation_writer(target: str, elements: str = "refuse") -> Callable[[Any], str] | None:
    """How to write a query in ``target``: its graph named where the dialect needs one, graph
    elements in the result refused or (``elements="to_json"``) written as JSON."""
    from ..dialect import get_dialect

    dialect = get_dialect(target)
    if not dialect.capabilities.graph_prefix_required:
        return None
    from ..emitter.gql import emit_gql

    return lambda query: emit_gql(
        query,
        dialect,
        graph=TRANSLATION_GRAPH,
        spanner_elements=elements,  # type: ignore[arg-type]
    )


def _translated(statement: Any, source: str, target: str, elements: str = "refuse") -> Any:
    """``statement`` written in ``target`` and read back: what a user of the translation runs."""
    from .. import api
    from ..errors import GqlirError, UnsupportedError

    try:
        writer = translation_writer(target, elements)
        text = api.translate(statement, source, target, writer=writer)
    except UnsupportedError as exc:
        raise _Failure("refused", f"refused: {exc.construct or exc.message}") from None
    except GqlirError as exc:
        raise _Failure("unexpected-error", f"translation failed: {_describe(exc)}") from None
    try:
        return api.parse(text, target)
    except GqlirError as exc:
        raise _Failure(
            "unexpected-error", f"translation does not parse: {_describe(exc)} | {text}"
        ) from None


def _compile_error(
    scenario: TckScenario, by: str, detail: str | None, exc: Exception
) -> tuple[str | None, str | None]:
    expected = scenario.expected
    if expected.kind == "error" and expected.error_phase in ("compile time", "any time"):
        return by, detail  # the parser names no TCK detail: None, not a mismatch
    what = f"{detail}: " if detail else ""
    raise _Failure(
        "unexpected-error" if expected.kind != "error" else "wrong-error",
        f"refused by the {by}: {what}{_describe(exc)}",
    )


def _describe(exc: Exception) -> str:
    from ..errors import GqlirError

    if isinstance(exc, GqlirError):
        return f"[{exc.code}] {exc.message}"
    return f"{type(exc).__name__}: {exc}"


def _path_columns(expected: TckOutcome) -> frozenset[str]:
    """The expected result's columns that hold paths (or lists of them)."""
    from .values import ExpectedPath

    def has_path(v: Any) -> bool:
        return isinstance(v, ExpectedPath) or (isinstance(v, list) and any(has_path(x) for x in v))

    found = set()
    for row in expected.rows:
        for name, cell in zip(expected.header, row, strict=False):
            try:
                if has_path(parse_value(cell)):
                    found.add(name)
            except TckValueError:
                continue
    return frozenset(found)


def _compare(expected: TckOutcome, result: Any, control: bool = False) -> None:
    where = "control query: " if control else ""
    if expected.kind == "empty":
        if result.rows:
            raise _Failure("wrong-result", f"{where}expected no rows, got {len(result.rows)}")
    else:
        _compare_rows(expected, result, where)
    effects = expected.side_effects
    if effects is not None and not control:
        want = {k: v for k, v in effects.items() if v}
        if want != result.side_effects:
            raise _Failure(
                "wrong-side-effects", f"side effects: expected {want}, got {result.side_effects}"
            )


def _compare_rows(expected: TckOutcome, result: Any, where: str) -> None:
    header = list(expected.header)
    if sorted(header) != sorted(result.columns):
        raise _Failure("wrong-result", f"{where}columns: expected {header}, got {result.columns}")
    index = [result.columns.index(h) for h in header]
    unordered = expected.ignore_list_order
    try:
        want = [
            tuple(canonical(parse_value(cell), unordered) for cell in row) for row in expected.rows
        ]
    except TckValueError as exc:
        raise _Failure("setup-failed", f"expected value not understood: {exc}") from None
    got = [tuple(canonical(row[i], unordered) for i in index) for row in result.rows]
    same = want == got if expected.ordered else Counter(want) == Counter(got)
    if not same:
        from ..eval.values import to_display

        shown = [[to_display(row[i]) for i in index] for row in result.rows[:6]]
        raise _Failure(
            "wrong-result",
            f"{where}rows differ | expected {[list(r) for r in expected.rows[:6]]}, got {shown}",
        )


def _procedure(decl: TckProcedure) -> Any:
    """A TCK procedure declaration as a :class:`gqlir.eval.Procedure` over its table."""
    from ..eval import Procedure
    from ..eval.values import equivalence_key

    m = re.fullmatch(r"\s*([\w.]+)\s*\((.*?)\)\s*::\s*\((.*?)\)\s*:?\s*", decl.signature)
    if not m:
        raise _Failure("setup-failed", f"procedure signature not understood: {decl.signature}")
    name = m.group(1)
    inputs = [_field(f) for f in m.group(2).split(",") if f.strip()]
    outputs = [_field(f) for f in m.group(3).split(",") if f.strip()]
    in_names = tuple(n for n, _ in inputs)
    out_names = tuple(n for n, _ in outputs)
    rows = [[parse_value(c) for c in row] for row in decl.rows]
    header = list(decl.header)

    def body(args: Sequence[Any]) -> list[Sequence[Any]]:
        wanted = [
            float(a) if t == "FLOAT" and isinstance(a, int) and not isinstance(a, bool) else a
            for a, (_, t) in zip(args, inputs)
        ]
        out: list[Sequence[Any]] = []
        for row in rows:
            values = dict(zip(header, row))
            if all(
                equivalence_key(values[n]) == equivalence_key(a) for n, a in zip(in_names, wanted)
            ):
                out.append([values[o] for o in out_names])
        return out

    return Procedure(name, in_names, out_names, body)


def _field(text: str) -> tuple[str, str]:
    name, _, type_text = text.partition("::")
    return name.strip(), type_text.strip().rstrip("?").upper()


# ---------------------------------------------------------------------------------------------
# many scenarios
# ---------------------------------------------------------------------------------------------


def run_tck(
    tck_dir: str | FsPath | None = None,
    *,
    areas: Iterable[str] = (),
    dialect: str = "neo4j",
    target: str | None = None,
    progress: Callable[[int, int], None] | None = None,
    elements: str = "refuse",
) -> TckReport:
    """Run every scenario of a TCK features directory (or only those under ``areas``), each
    query translated into ``target`` first when given (``elements``: see
    :func:`run_scenario`)."""
    scenarios = read_tck(tck_dir)
    wanted = tuple(areas)
    if wanted:
        scenarios = tuple(
            s for s in scenarios if any(s.area == a or s.area.startswith(a + "/") for a in wanted)
        )
    report = TckReport()
    started = time.perf_counter()
    for i, scenario in enumerate(scenarios, 1):
        report.results.append(run_scenario(scenario, dialect, target, elements=elements))
        if progress is not None:
            progress(i, len(scenarios))
    report.seconds = time.perf_counter() - started
    return report


def format_report(report: TckReport, failures: bool = True) -> str:
    """The report as text: pass rate by area, then the failures grouped by reason."""
    lines = [f"{'area':<36} {'passed':>7} {'total':>6} {'rate':>7}"]
    for area, c in report.by_area().items():
        lines.append(
            f"{area:<36} {c['passed']:>7} {c['total']:>6} {c['passed'] / (c['total'] or 1):>7.1%}"
        )
    total = report.total or 1
    lines.append(
        f"{'total':<36} {report.passed:>7} {report.total:>6} {report.passed / total:>7.1%}"
    )
    if report.translated or report.refused:
        ran = sum(r.passed for r in report.results if r.translated)
        lines.append(
            f"(translated and run: {report.translated}, of which passed {ran}; not run: "
            f"{report.refused} queries the translation target refused)"
        )
    lines.append(f"({report.seconds:.1f} s)")
    if failures and report.total != report.passed:
        lines.append("")
        lines.append("failures by reason:")
        for kind, reason, n in report.reasons():
            lines.append(f"  {n:>4}  {kind}: {reason}")
    return "\n".join(lines)
