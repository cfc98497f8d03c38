"""The evaluation harness behind ``gqlir eval``: score predictions against gold queries.

Files in the output folder:

* ``results.jsonl``: one record per item (:mod:`.scoring`), appended and flushed as each
  item finishes, so a killed run loses at most the items in flight. A rerun reads it back,
  drops a last line cut short, and runs only the items it does not hold;
* ``gold_cache.jsonl``: each gold query's outcome (and provenance) keyed by dialect and text,
  so gold queries run once across reruns and across items that share them;
* ``run.json``: the settings that change scores; a rerun with other settings refuses to mix
  results (start again with ``fresh``);
* ``summary.json``, ``summary.md``, ``report.html`` (:mod:`.report`) written at the end, and
  an export in a benchmark's own layout when asked.

Queries run read-only, with a timeout and a row cap, on any engine
(:func:`gqlir.engines.open_engine`), one engine per job, each with its own copy of the graph.
An engine that runs on this machine runs in a worker process of its own with a memory budget
(:mod:`gqlir.engines.isolated`): a query past its timeout or over the budget, or one that
crashes the engine, is recorded with its error code (``TIMEOUT``, ``MEMORY_EXCEEDED``,
``ENGINE_CRASHED``) and the run goes on with a fresh worker.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from ..jsonl import dumps, loads
from .errors import MetricsError
from .execution import get_policy
from .formats import GoldItem, Prediction, export_results, read_gold, read_predictions
from .grammar import Convention
from .presets import Preset, get_preset
from .scoring import ScoringSettings, score_item

__all__ = ["EvalConfig", "EvalRun", "run_evaluation"]

RESULTS = "results.jsonl"
GOLD_CACHE = "gold_cache.jsonl"
RUN_FILE = "run.json"
DEFAULT_TIMEOUT = 30.0  # seconds a gold query may take; predictions get less (runner)


@dataclass(slots=True)
class EvalConfig:
    gold: str
    pred: str
    out: str
    engine: str = "reference"
    engine_options: dict[str, Any] = field(default_factory=dict)
    dialect: str | None = None
    graph: str | None = None
    #: the graph Spanner queries without a GRAPH clause read (Text2GQL-Bench's Spanner corpora)
    graph_name: str | None = None
    timeout: float | None = None  # None: proportional to the gold's time, at most 30 s
    max_memory: int | None = None  # bytes per engine worker; None: default_memory_budget
    row_cap: int = 100_000
    jobs: int = 1
    policy: str | None = None  # None: the preset's
    grammar: Convention | None = None  # None: the preset's
    preset: str = "default"
    gold_format: str = "auto"
    pred_format: str = "auto"
    levels: tuple[str, ...] = ("initial",)
    gold_field: str | None = None  # the key of a Text2GQL-Bench record holding the gold
    psjs: bool = True
    psjs_edges: bool = False
    limit: int | None = None
    fresh: bool = False
    export: str | None = None

    def settings(self) -> Preset:
        """The preset with this run's ``policy`` and ``grammar`` in it."""
        preset = get_preset(self.preset)
        return replace(
            preset, policy=self.policy or preset.policy, grammar=self.grammar or preset.grammar
        )

    def fingerprint(self) -> dict[str, Any]:
        """The settings a result depends on (a rerun must match them)."""
        keep = ("engine", "dialect", "graph_name", "row_cap", "psjs")
        out = {k: getattr(self, k) for k in keep}
        preset = self.settings()
        out.update(
            timeout=self.timeout if self.timeout is not None else "proportional",
            preset=preset.name,
            policy=preset.policy,
            grammar=preset.grammar,
        )
        out.update(
            psjs_edges=self.psjs_edges,
            levels=list(self.levels),
            graph=os.path.abspath(self.graph) if self.graph else None,
            gold=os.path.abspath(self.gold),
            pred=os.path.abspath(self.pred),
        )
        if self.gold_field is not None:  # kept out otherwise: earlier runs still resume
            out["gold_field"] = self.gold_field
        return out


@dataclass(slots=True)
class EvalRun:
    """What a run did: items in the dataset, held from before, run now, gold cache hits,
    whether every item is done, the summary and where the files are."""

    total: int
    resumed: int
    evaluated: int
    gold_cache_hits: int
    complete: bool
    seconds: float
    summary: dict[str, Any]
    out: str

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


# -- the output folder ------------------------------------------------------------------------------


def _read_jsonl_tolerant(path: str) -> list[dict[str, Any]]:
    """The complete records of a JSONL file; a last line cut short by a kill is dropped and the
    file rewritten without it, so appending continues on a clean line."""
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as fh:
        lines = fh.read().split("\n")
    records, clean = [], True
    for number, line in enumerate(lines):
        if not line.strip():
            continue
        try:
            records.append(loads(line))
        except ValueError:
            if number < len(lines) - 1 and any(x.strip() for x in lines[number + 1 :]):
                raise MetricsError(
                    f"{path}: line {number + 1} is damaged (not the last line)",
                    code="METRICS_RESULTS",
                ) from None
            clean = False
    if not clean or (lines and lines[-1] != ""):
        tmp = path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.writelines(dumps(r) + "\n" for r in records)
        os.replace(tmp, path)
    return records


def _check_run_file(config: EvalConfig) -> None:
    path = os.path.join(config.out, RUN_FILE)
    wanted = config.fingerprint()
    if os.path.exists(path) and not config.fresh:
        try:
            with open(path, encoding="utf-8") as fh:
                held = json.load(fh)
        except (OSError, json.JSONDecodeError):
            held = None
        if held is not None and held != wanted:
            changed = sorted(k for k in wanted if held.get(k) != wanted[k])
            raise MetricsError(
                f"{config.out} holds results of other settings ({', '.join(changed)}); "
                "use another --out or --fresh to start again",
                code="METRICS_RESUME",
            )
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(wanted, fh, indent=1)


def _prepare_out(config: EvalConfig) -> None:
    try:
        os.makedirs(config.out, exist_ok=True)
    except OSError as exc:
        raise MetricsError(
            f"cannot create {config.out}: {exc.strerror}", code="METRICS_OUT"
        ) from None
    if config.fresh:
        for name in (RESULTS, GOLD_CACHE):
            path = os.path.join(config.out, name)
            if os.path.exists(path):
                os.remove(path)
    _check_run_file(config)


def _cache_key(dialect: str, text: str) -> str:
    return hashlib.sha256(f"{dialect}\0{text}".encode()).hexdigest()


class _Appender:
    """A JSONL file opened for appending; each record is flushed and synced as written."""

    def __init__(self, path: str) -> None:
        self.fh = open(path, "a", encoding="utf-8")  # noqa: SIM115 - closed by close()

    def write(self, record: dict[str, Any]) -> None:
        self.fh.write(dumps(record) + "\n")
        self.fh.flush()
        os.fsync(self.fh.fileno())

    def close(self) -> None:
        self.fh.close()


# -- running --------------------------------------------------------------------------------------


def _item_dialect(item: GoldItem, config: EvalConfig) -> str:
    return item.dialect or config.dialect or "neo4j"


def _task(item: GoldItem, pred: Prediction | None, cached: dict | None, config: EvalConfig) -> dict:
    dialect = _item_dialect(item, config)
    run_gold = item.answer is None and item.steps is None and cached is None
    run_pred = (
        item.steps is None
        and pred is not None
        and pred.answer is None
        and bool(pred.query and pred.query.strip())
    )
    pred_text = pred.query if pred is not None and run_pred else None
    return {
        "id": item.id,
        "gold": item.query if run_gold else None,
        "pred": pred_text,
        "gold_dialect": dialect,
        "pred_dialect": dialect,
        "timeout": config.timeout if config.timeout is not None else DEFAULT_TIMEOUT,
        "proportional": config.timeout is None,
        "cached_gold": cached,
        "row_cap": config.row_cap,
        "psjs": config.psjs and item.answer is None,
        "psjs_mode": config.settings().psjs,
        "psjs_edges": config.psjs_edges,
    }


def _executor(config: EvalConfig, needs_engine: bool) -> tuple[Callable, Callable[[], None]]:
    """A function mapping tasks to outcomes (in order), and how to shut it down: one engine
    per job, driven from a thread each."""
    from concurrent.futures import ThreadPoolExecutor
    from queue import SimpleQueue

    from ..budget import default_memory_budget
    from ..engines.registry import LOCAL, SELF_BOUNDED
    from . import runner

    if not needs_engine:
        return (lambda tasks: (runner.run_task(None, t) for t in tasks)), (lambda: None)
    isolated = config.engine.lower() in LOCAL
    bounded = isolated or config.engine.lower() in SELF_BOUNDED
    budget = (config.max_memory or default_memory_budget(config.jobs)) if bounded else None

    def open_one(_: int) -> Any:
        return runner.open_loaded_engine(
            config.engine,
            config.engine_options,
            config.graph,
            isolated=isolated,
            max_memory=budget,
        )

    pool = ThreadPoolExecutor(max_workers=config.jobs, thread_name_prefix="gqlir-eval")
    opened = [pool.submit(open_one, i) for i in range(config.jobs)]
    idle: SimpleQueue[Any] = SimpleQueue()

    def close() -> None:
        pool.shutdown(cancel_futures=True)
        for future in opened:
            if future.done() and future.exception() is None:
                future.result().close()

    try:
        for future in opened:
            idle.put(future.result())
    except BaseException:
        close()
        raise

    def run(task: dict[str, Any]) -> dict[str, Any]:
        engine = idle.get()
        try:
            return runner.run_task(engine, task)
        finally:
            idle.put(engine)

    if config.jobs == 1:
        return (lambda tasks: (run(t) for t in tasks)), close
    return (lambda tasks: pool.map(run, tasks)), close


def _outcomes(
    todo: list[tuple[GoldItem, Prediction | None]],
    cache: dict[str, dict[str, Any]],
    config: EvalConfig,
) -> Iterator[tuple[GoldItem, Prediction | None, dict[str, Any], bool]]:
    keys = [_cache_key(_item_dialect(item, config), item.query) for item, _ in todo]
    pairs = list(zip(todo, keys))
    first = [_task(item, pred, cache.get(key), config) for (item, pred), key in pairs]
    needs_engine = any(t["gold"] is not None or t["pred"] is not None for t in first)
    # built as each is dispatched, so an item sharing a gold query with an earlier one (a
    # question level, another prediction) takes its cached result instead of running it again
    tasks = (_task(item, pred, cache.get(key), config) for (item, pred), key in pairs)
    run, close = _executor(config, needs_engine)
    try:
        for (item, pred), key, outcome in zip(todo, keys, run(tasks)):
            hit = key in cache and item.answer is None and item.steps is None
            if hit:
                outcome.update(cache[key])
            yield item, pred, outcome, hit
    finally:
        close()


def prepare_pair(
    item: GoldItem, pred: Prediction | None, preset: Preset, graph_name: str | None
) -> tuple[GoldItem, Prediction | None]:
    """The gold and predicted texts as the preset cleans them and, with ``graph_name``, with
    the GRAPH clause Text2GQL-Bench's driver adds to a Spanner query before it runs it (every
    metric then reads the query the engine ran)."""
    item = replace(item, query=preset.clean_gold(item.query) or "")
    if pred is not None:
        pred = replace(pred, query=preset.clean_pred(pred.query))
    if graph_name is None:
        return item, pred
    from ..api import with_graph

    dialect = item.dialect or "neo4j"
    if item.query:
        item = replace(item, query=with_graph(item.query, dialect, graph_name))
    if pred is not None and pred.query:
        pred = replace(pred, query=with_graph(pred.query, dialect, graph_name))
    return item, pred


def run_evaluation(
    config: EvalConfig, progress: Callable[[int, int], None] | None = None
) -> EvalRun:
    """Evaluate (or resume evaluating) ``config.pred`` against ``config.gold``."""
    from .report import write_reports

    start = time.perf_counter()
    if config.jobs < 1:
        raise MetricsError("jobs must be at least 1", code="METRICS_INPUT")
    preset = config.settings()
    get_policy(preset.policy)
    gold, fmt = read_gold(
        config.gold, config.gold_format, levels=config.levels, gold_field=config.gold_field
    )
    preds = read_predictions(config.pred, gold, config.pred_format)
    pairs = [
        prepare_pair(
            replace(g, dialect=_item_dialect(g, config)), preds.get(g.id), preset, config.graph_name
        )
        for g in gold
    ]
    gold = [g for g, _ in pairs]
    preds = {g.id: p for g, p in pairs if p is not None}
    _prepare_out(config)
    results_path = os.path.join(config.out, RESULTS)
    cache_path = os.path.join(config.out, GOLD_CACHE)
    done = {r["id"]: r for r in _read_jsonl_tolerant(results_path)}
    cache = {c["key"]: c["outcome"] for c in _read_jsonl_tolerant(cache_path)}
    todo = [(g, preds.get(g.id)) for g in gold if g.id not in done]
    held = len(gold) - len(todo)
    if config.limit is not None:
        todo = todo[: max(config.limit, 0)]
    settings = ScoringSettings(get_policy(preset.policy), preset.grammar, config.psjs, preset)
    results, cache_out = _Appender(results_path), _Appender(cache_path)
    hits = evaluated = 0
    try:
        for item, pred, outcome, hit in _outcomes(todo, cache, config):
            if not hit and "gold" in outcome:
                saved = {k: v for k, v in outcome.items() if k.startswith("gold")}
                key = _cache_key(_item_dialect(item, config), item.query)
                cache[key] = saved
                cache_out.write({"key": key, "id": item.id, "outcome": saved})
            hits += hit
            record = score_item(item, pred, outcome, _item_dialect(item, config), settings)
            record["source"] = item.source if fmt == "cypherbench" else None
            results.write(record)
            done[item.id] = record
            evaluated += 1
            if progress is not None:
                progress(held + evaluated, len(gold))
    finally:
        results.close()
        cache_out.close()
    ordered = [done[g.id] for g in gold if g.id in done]
    summary = write_reports(ordered, config, complete=len(ordered) == len(gold))
    if config.export:
        export_results(
            ordered, config.export, os.path.join(config.out, f"export.{config.export}.json")
        )
    return EvalRun(
        total=len(gold),
        resumed=held,
        evaluated=evaluated,
        gold_cache_hits=hits,
        complete=len(ordered) == len(gold),
        seconds=round(time.perf_counter() - start, 3),
        summary=summary,
        out=config.out,
    )
