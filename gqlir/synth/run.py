"""A whole synthesis run: every schema in turn, checkpointed, then the dataset folder."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .checkpoint import Checkpoint
from .config import SynthConfig, resolve_graph
from .dataset import write_dataset
from .errors import SynthError
from .execute import ReferenceExecutor, open_executor, open_reference
from .graphindex import GraphIndex
from .library import load_libraries
from .pipeline import SchemaRun, SchemaState
from .rewriters import Rewriter, configured_rewriters
from .verify import Verifier, parse_routes, plan

Progress = Callable[[str, SchemaState, int], None]


def _public(item: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in item.items() if not k.startswith("_")}


def synthesize(
    config: SynthConfig,
    out: str | None = None,
    *,
    fresh: bool = False,
    progress: Progress | None = None,
    rewriters: list[Rewriter] | None = None,
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Run ``config``; write the dataset to ``out`` when given. Returns (items, statistics)."""
    if config.n < 1:
        raise SynthError("--n must be at least 1")
    templates = load_libraries(config.libraries)
    routes = plan(list(config.dialects), parse_routes(config.verify_engines), config.verify)
    rewriters = configured_rewriters() if rewriters is None else rewriters
    checkpoint = Checkpoint(out, config.fingerprint(), fresh) if out else None
    graphs = list(config.graphs) + [None] * (len(config.schemas) - len(config.graphs))
    items: list[dict[str, Any]] = []
    stats: dict[str, Any] = {
        "engine": config.engine,
        "seed": config.seed,
        "libraries": list(config.libraries),
        "schemas": {},
        "drops": {},
        "realism": {},
        "verification": {d: r.describe() for d, r in routes.items()},
        "keep_disagreements": config.keep_disagreements,
        "disagreed": {},
        "disagreements": [],
    }
    schemas = {}
    for schema_arg, graph_arg in zip(config.schemas, graphs):
        schema, graph, name = resolve_graph(schema_arg, graph_arg)
        if name in schemas:
            raise SynthError(f"schema {name!r} is given twice")
        schemas[name] = schema
        state = checkpoint.state(name) if checkpoint else SchemaState()
        done = checkpoint.items(name) if checkpoint else []
        index = GraphIndex.load(schema, graph)
        executor = open_executor(config.engine, schema, graph)
        opened: list[ReferenceExecutor] = []

        def reference(
            executor: Any = executor,
            schema: Any = schema,
            graph: str = graph,
            opened: list = opened,
        ) -> Any:
            """The reference evaluator on this graph: the run's own when it is the gold's."""
            if isinstance(executor, ReferenceExecutor):
                return executor
            if not opened:
                opened.append(open_reference(schema, graph))
            return opened[0]

        verifier = Verifier(routes, schema, graph, config.timeout, config.max_rows, reference)
        try:
            run = SchemaRun(name, schema, index, executor, templates, config, rewriters, verifier)
            run.restore(done)

            def accept(item: dict[str, Any], name: str = name, done: list = done) -> None:
                done.append(item)
                if checkpoint:
                    checkpoint.append(name, item)

            def report(s: SchemaState, name: str = name) -> None:
                if progress is not None:
                    progress(name, s, config.n)

            run.run(state, accept, checkpoint.save if checkpoint else (lambda: None), report)
        finally:
            try:
                verifier.close()
            finally:
                for extra in opened:
                    extra.close()
                executor.close()
        items.extend(_public(i) for i in done)
        stats["schemas"][name] = {
            "items": len(done),
            "attempts": state.attempts,
            "not_applicable": run.not_applicable,
        }
        for kind, count in state.drops.items():
            stats["drops"][kind] = stats["drops"].get(kind, 0) + count
        for key, count in state.disagreed.items():
            stats["disagreed"][key] = stats["disagreed"].get(key, 0) + count
        stats["disagreements"] += [{"schema": name, **d} for d in state.disagreements]
        for kind, count in run.realism_drops.items():
            stats["realism"][kind] = stats["realism"].get(kind, 0) + count
    if out:
        write_dataset(out, items, stats, list(config.dialects), schemas)
    if checkpoint is not None:  # (there is one exactly when there is an out folder)
        checkpoint.remove()
    return items, stats
