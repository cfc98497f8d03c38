"""Runs openCypher TCK scenarios on a real engine (Neo4j, ArcadeDB, grafeo, Kuzu …).

Per scenario the engine's database is emptied (``MATCH (n) DETACH DELETE n``, not a restart),
the setup queries run (in Cypher; an engine whose dialect differs gets their translation), then
the query (translated into ``--to`` first when given) with the parameters, and the control
query. The engine's :class:`~gqlir.engines.base.ResultTable` is compared with the expected rows
in the TCK notation, side effects are measured from snapshots of the graph taken through the
engine (:mod:`.engine_graph`), and an engine error is matched with the expected error as far as
the engine's codes tell compile-time from runtime errors (:mod:`.engine_errors`).

Scenarios the engine cannot be given are ``not-runnable`` (named TCK graphs, declared
procedures, Kuzu's schema-first tables), queries the translation refuses are ``refused``:
neither counts as passed or failed.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import replace
from pathlib import Path as FsPath
from typing import Any

from ..eval.result import side_effects
from .engine_errors import ErrorMatch, match_error
from .engine_graph import ENGINE_PROFILES, EngineProfile, snapshot, tck_table
from .runner import ScenarioResult, TckReport, _compare, _Failure, translation_writer
from .tck import TckScenario, read_tck
from .values import TckValueError, parse_value

__all__ = ["EngineTck", "format_engine_report", "run_engine_tck"]

#: seconds a scenario's query may take on engines that stop queries themselves
QUERY_TIMEOUT = 20.0


class EngineTck:
    """One open engine that runs scenarios, each on an emptied database."""

    def __init__(
        self,
        engine: Any,
        profile: EngineProfile,
        target: str | None = None,
        source: str = "neo4j",
    ) -> None:
        self.engine = engine
        self.profile = profile
        self.target = target
        # the dialect the TCK's text is given to the engine in: Cypher (translated where the
        # engine's dialect differs), or the engine's own dialect to run the text as it is
        self.source = source

    def run(self, scenario: TckScenario) -> ScenarioResult:
        started = time.perf_counter()
        try:
            match = self._run(scenario)
        except _Failure as f:
            return ScenarioResult(
                scenario, False, f.kind, f.reason, seconds=time.perf_counter() - started
            )
        return ScenarioResult(
            scenario,
            True,
            rejected_by=match.phase if match else None,
            detail_matched=match.detail_matched if match else None,
            seconds=time.perf_counter() - started,
            translated=self.target is not None,
        )

    # -- one scenario ------------------------------------------------------------------------

    def _run(self, scenario: TckScenario) -> ErrorMatch | None:
        if scenario.problem is not None:
            raise _Failure("unreadable-step", scenario.problem)
        self._runnable(scenario)
        if self.profile.reset is not None:
            self._execute(self.profile.reset, self.source, {}, "reset failed")
        if self.profile.forget_schema is not None:
            self.profile.forget_schema(self.engine)
        for setup in scenario.setup_queries:
            self._execute(setup, self.source, {}, "setup query failed")
        try:
            params = {k: parse_value(v) for k, v in scenario.parameters.items()}
        except TckValueError as exc:
            raise _Failure("setup-failed", f"parameter not understood: {exc}") from None
        text, dialect = self._query(scenario)
        expected = scenario.expected
        effects_wanted = expected.side_effects is not None and self.profile.reports_side_effects
        before = snapshot(self._read, self.profile) if effects_wanted else None
        try:
            table = self.engine.run(text, dialect=dialect, parameters=params, **self._timeout())
        except Exception as exc:
            _refused_by_translation(exc)
            if expected.kind != "error":
                raise _Failure("unexpected-error", _describe(exc)) from None
            return self._expected_error(scenario, text, dialect, params, exc)
        if expected.kind == "error":
            kind = f"{expected.error_type} at {expected.error_phase}"
            raise _Failure("missing-error", f"expected {kind}: {expected.error_detail}")
        result = tck_table(table, self.profile)
        if before is not None:
            result.side_effects = side_effects(before, snapshot(self._read, self.profile))
        else:
            expected = replace(expected, side_effects=None)  # not reported: not checked
        _compare(expected, result)
        if scenario.control_query is not None and scenario.control_expected is not None:
            control = self._execute(scenario.control_query, self.source, {}, "control query failed")
            _compare(scenario.control_expected, tck_table(control, self.profile), control=True)
        return None

    def _runnable(self, scenario: TckScenario) -> None:
        if scenario.graph not in ("empty", "any"):
            raise _Failure("not-runnable", f"named TCK graph {scenario.graph!r} is not shipped")
        if scenario.procedures:
            raise _Failure("not-runnable", "declares a procedure the engine does not have")
        why = self.profile.not_runnable(scenario)
        if why:
            raise _Failure("not-runnable", why)

    def _query(self, scenario: TckScenario) -> tuple[str, str]:
        """The query text to send and its dialect: the TCK's Cypher, or its translation."""
        if self.target is None:
            return scenario.query, self.source
        from .. import api
        from ..errors import GqlirError, UnsupportedError
        from ..eval.check import check

        try:
            statement = api.parse(scenario.query, self.source)
            check(statement)  # a query that must not compile has no translation to run
            text = api.translate(
                statement, self.source, self.target, writer=translation_writer(self.target)
            )
        except UnsupportedError as exc:
            raise _Failure("refused", f"refused: {exc.construct or exc.message}") from None
        except GqlirError as exc:
            raise _Failure("refused", f"gqlir rejects the query: {_describe(exc)}") from None
        return text, self.target

    def _expected_error(
        self, scenario: TckScenario, text: str, dialect: str, params: dict[str, Any], exc: Exception
    ) -> ErrorMatch:
        compiles = self._compiles(text, dialect, params)
        match = match_error(self.profile.name, exc, scenario.expected, compiles)
        if not match.accepted:
            raise _Failure("wrong-error", match.reason)
        return match

    def _compiles(self, text: str, dialect: str, params: dict[str, Any]) -> bool | None:
        """Whether the engine compiles the query (None: the engine cannot be asked)."""
        if self.profile.compiles is not None:
            try:
                prepared = self.engine.prepare(text, dialect)
                return self.profile.compiles(self.engine, prepared.text, params)
            except Exception:
                return False
        if self.profile.explain is None:
            return None
        try:
            self.engine.run(self.profile.explain + text, dialect=dialect, parameters=params)
        except Exception:
            return False
        return True

    # -- engine calls ------------------------------------------------------------------------

    def _timeout(self) -> dict[str, float]:
        return {"timeout": QUERY_TIMEOUT} if self.profile.stops_queries else {}

    def _execute(self, text: str, dialect: str, params: dict[str, Any], what: str) -> Any:
        from ..errors import UnsupportedError

        try:
            return self.engine.run(text, dialect=dialect, parameters=params, **self._timeout())
        except UnsupportedError as exc:
            raise _Failure("refused", f"{what}: refused: {exc.construct or exc.message}") from None
        except Exception as exc:
            raise _Failure("setup-failed", f"{what}: {_describe(exc)}") from None

    def _read(self, text: str) -> Any:
        return self._execute(text, self.source, {}, "graph snapshot failed")


def _refused_by_translation(exc: Exception) -> None:
    """An error of gqlir's rather than the engine's (the engine's dialect differs and the query
    could not be translated into it): the query was refused, not run."""
    from ..errors import EngineError, GqlirError, UnsupportedError

    if isinstance(exc, UnsupportedError):
        raise _Failure("refused", f"refused: {exc.construct or exc.message}")
    if isinstance(exc, GqlirError) and not isinstance(exc, EngineError):
        raise _Failure("refused", f"gqlir cannot translate it: {_describe(exc)}")


def _describe(exc: BaseException) -> str:
    from ..errors import GqlirError

    if isinstance(exc, GqlirError):
        return f"[{exc.code}] {exc.message}".replace("\n", " ")[:300]
    return f"{type(exc).__name__}: {exc}".replace("\n", " ")[:300]


def open_tck_engine(name: str, url: str | None = None) -> tuple[Any, EngineProfile]:
    """The engine to run the TCK on, and its profile."""
    from ..errors import EngineError

    profile = ENGINE_PROFILES.get(name)
    if profile is None:
        raise EngineError(
            f"no TCK profile for engine {name!r}; known: {', '.join(sorted(ENGINE_PROFILES))}",
            code="ENGINE_UNKNOWN",
        )
    return profile.open(url), profile


def run_engine_tck(
    features: str | FsPath,
    engine: str,
    *,
    url: str | None = None,
    target: str | None = None,
    areas: Iterable[str] = (),
    progress: Callable[[int, int], None] | None = None,
    source: str = "neo4j",
) -> TckReport:
    """Run the scenarios of a features folder or file (only ``areas`` when given) on
    ``engine``, each query translated into ``target`` first when given. ``source`` is the
    dialect the TCK's text is given in: Cypher by default (translated by the engine where its
    dialect differs); the engine's own dialect runs the text as it is."""
    scenarios = read_tck(features)
    wanted = tuple(areas)
    if wanted:
        scenarios = tuple(
            s for s in scenarios if any(s.area == a or s.area.startswith(a + "/") for a in wanted)
        )
    db, profile = open_tck_engine(engine, url)
    runner = EngineTck(db, profile, target, source)
    report = TckReport()
    started = time.perf_counter()
    try:
        for i, scenario in enumerate(scenarios, 1):
            report.results.append(runner.run(scenario))
            if progress is not None:
                progress(i, len(scenarios))
    finally:
        db.close()
    report.seconds = time.perf_counter() - started
    return report


def format_engine_report(report: TckReport, engine: str, failures: bool = True) -> str:
    """Per area: passed, failed, refused by the translation, not runnable; then the failures
    by reason and how the engine's errors were classified."""
    head = f"{'area':<36} {'passed':>6} {'failed':>6} {'refused':>7} {'not run':>7}"
    lines = [f"engine: {engine}", head]
    rows = report.by_area()
    for area, c in rows.items():
        lines.append(
            f"{area:<36} {c['passed']:>6} {c['total'] - c['passed']:>6} "
            f"{c.get('refused', 0):>7} {c.get('not-runnable', 0):>7}"
        )
    lines.append(
        f"{'total':<36} {report.passed:>6} {report.total - report.passed:>6} "
        f"{report.refused:>7} {report.not_runnable:>7}"
    )
    rate = report.passed / report.total if report.total else 0.0
    lines.append(f"({rate:.1%} of the {report.total} scenarios run passed; {report.seconds:.1f} s)")
    profile = ENGINE_PROFILES.get(engine)
    if profile is not None:
        lines.append(f"errors: {profile.errors}")
        phases = Counter(r.rejected_by for r in report.results if r.passed and r.rejected_by)
        if phases:
            shown = ", ".join(f"{n} {phase}" for phase, n in sorted(phases.items()))
            lines.append(f"expected errors passed: {shown}")
        lines.append(
            "side effects: measured from graph snapshots"
            if profile.reports_side_effects
            else "side effects: not checked"
        )
    if failures:
        skipped = [r for r in report.results if r.kind == "not-runnable"]
        if report.total != report.passed or skipped:
            lines.append("")
            lines.append("failures (and scenarios not run) by reason:")
            for kind, reason, n in report.reasons():
                lines.append(f"  {n:>4}  {kind}: {reason}")
            for reason, n in _not_runnable_reasons(skipped):
                lines.append(f"  {n:>4}  not-runnable: {reason}")
            lines.append("")
            lines.append("each failure:")
            for r in report.results:
                if not r.passed and r.kind not in ("refused", "not-runnable"):
                    reason = (r.reason or "").replace("\n", " ")[:240]
                    lines.append(f"  {r.scenario.id}: {r.kind}: {reason}")
    return "\n".join(lines)


def _not_runnable_reasons(results: list[ScenarioResult]) -> list[tuple[str, int]]:
    counts = Counter(r.reason or "" for r in results)
    return sorted(counts.items(), key=lambda t: -t[1])
