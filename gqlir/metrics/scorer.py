"""Scoring in memory: one (gold, prediction) pair at a time, for evaluation loops in Python.

``gqlir eval`` works file → folder; a training or prompting loop wants a number per prediction
now. :class:`Scorer` holds one engine with the graph loaded and scores pairs with the same code
the file harness runs (:func:`~.runner.run_task` on the engine, :func:`~.scoring.score_item` for
the record), so an :class:`ItemScore` carries the numbers ``results.jsonl`` would hold, and
:meth:`Scorer.summary` the figures of ``summary.json``::

    with Scorer("schemas/movies", preset="text2gql-bench") as scorer:
        score = scorer.score(gold_text, predicted_text)
        score.ex, score.grammar, score.psjs
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Self

from .formats import GoldItem, Prediction
from .harness import EvalConfig, _cache_key, _task, prepare_pair
from .scoring import ScoringSettings, score_item

__all__ = ["ItemScore", "Scorer"]


@dataclass(frozen=True, slots=True)
class ItemScore:
    """Every metric of one pair under the scorer's preset (None: the metric does not apply,
    e.g. PSJS when the gold query's provenance cannot be computed). ``record`` is the whole
    record ``gqlir eval`` writes for the item."""

    id: str
    gold: str
    pred: str | None
    ex: float | None
    executable: float | None
    grammar: float | None
    jaro_winkler: float | None
    ir_similarity: float | None
    psjs: float | None
    jaccard: float | None
    f1: float | None
    #: how each side ran: ``ok``, ``given``, ``missing``, ``empty`` or an error code
    status: Mapping[str, str] = field(default_factory=dict)
    #: each failed side's error message
    errors: Mapping[str, str] = field(default_factory=dict)
    record: Mapping[str, Any] = field(default_factory=dict, repr=False)

    @classmethod
    def of(cls, record: dict[str, Any]) -> ItemScore:
        metrics = record.get("metrics", {})
        return cls(
            id=record["id"],
            gold=record["gold"],
            pred=record["pred"],
            ex=metrics.get("ex"),
            executable=metrics.get("executable"),
            grammar=metrics.get("grammar"),
            jaro_winkler=metrics.get("jaro_winkler"),
            ir_similarity=metrics.get("ir_similarity"),
            psjs=metrics.get("psjs"),
            jaccard=metrics.get("jaccard"),
            f1=metrics.get("f1"),
            status=dict(record.get("status", {})),
            errors=dict(record.get("errors", {})),
            record=record,
        )


class Scorer:
    """Scores pairs on one engine with ``graph`` (a graph folder) loaded, under ``preset``.

    ``timeout``: seconds per query (None: the harness's rule, a prediction gets time in
    proportion to its gold query's); ``engine_options`` as ``gqlir.engines.open_engine`` takes
    them (``url=`` for Neo4j). The engine opens on the first pair that needs it."""

    def __init__(
        self,
        graph: str | None = None,
        *,
        dialect: str = "neo4j",
        engine: str = "reference",
        preset: str = "default",
        timeout: float | None = None,
        engine_options: Mapping[str, object] | None = None,
        graph_name: str | None = None,
        psjs: bool = True,
        max_memory: int | None = None,
    ) -> None:
        from .execution import get_policy

        self.config = EvalConfig(
            gold="",
            pred="",
            out="",
            engine=engine,
            engine_options=dict(engine_options or {}),
            dialect=dialect,
            graph=graph,
            graph_name=graph_name,
            timeout=timeout,
            max_memory=max_memory,
            preset=preset,
            psjs=psjs,
        )
        self.preset = self.config.settings()
        self.settings = ScoringSettings(
            get_policy(self.preset.policy), self.preset.grammar, psjs, self.preset
        )
        self._engine: Any = None
        self._gold_runs: dict[str, dict[str, Any]] = {}
        self._serial = itertools.count(1)

    # -- scoring ----------------------------------------------------------------------------------

    def score(
        self,
        gold: str,
        pred: str | None,
        *,
        id: str | None = None,
        dialect: str | None = None,
    ) -> ItemScore:
        """Every metric of ``pred`` against ``gold`` (``pred`` None: a missing prediction)."""
        item = GoldItem(id or str(next(self._serial)), gold, dialect=dialect or self.config.dialect)
        given = Prediction(item.id, pred) if pred is not None else None
        item, prediction = prepare_pair(item, given, self.preset, self.config.graph_name)
        key = _cache_key(item.dialect or "neo4j", item.query)
        task = _task(item, prediction, self._gold_runs.get(key), self.config)
        outcome = self._run(task)
        if task["gold"] is not None and "gold" in outcome:
            self._gold_runs[key] = {k: v for k, v in outcome.items() if k.startswith("gold")}
        elif key in self._gold_runs:
            outcome.update(self._gold_runs[key])
        record = score_item(item, prediction, outcome, item.dialect or "neo4j", self.settings)
        return ItemScore.of(record)

    def score_pairs(self, pairs: Iterable[tuple[str, str | None]]) -> Iterator[ItemScore]:
        """:meth:`score` of each (gold, prediction) pair, in order."""
        for gold, pred in pairs:
            yield self.score(gold, pred)

    def summary(self, scores: Iterable[ItemScore]) -> dict[str, Any]:
        """The corpus figures of ``scores`` as ``summary.json`` holds them (Google-BLEU is a
        corpus metric: it exists only here)."""
        from .summary import summarize

        return summarize([dict(s.record) for s in scores], self.preset)

    # -- the engine -------------------------------------------------------------------------------

    def _run(self, task: dict[str, Any]) -> dict[str, Any]:
        from . import runner

        if task["gold"] is None and task["pred"] is None:
            return runner.run_task(None, task)
        if self._engine is None:
            from ..budget import default_memory_budget
            from ..engines.registry import LOCAL

            isolated = self.config.engine.lower() in LOCAL
            budget = (self.config.max_memory or default_memory_budget(1)) if isolated else None
            self._engine = runner.open_loaded_engine(
                self.config.engine,
                self.config.engine_options,
                self.config.graph,
                isolated=isolated,
                max_memory=budget,
            )
        return runner.run_task(self._engine, task)

    def close(self) -> None:
        if self._engine is not None:
            self._engine.close()
            self._engine = None

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
