"""Google's ZetaSQL front end on every Spanner query gqlir writes (issue 19).

Sources: the Spanner texts of the golden files (corpus/gql; their graph ``tck`` has no schema,
so they are parsed only), ``gqlir synth`` items on every example schema and the SQL test set
(corpus/sql) translated to Spanner (both analysed against the schema's catalog), and the
openCypher TCK's Spanner translations, with graph elements refused and returned as JSON
(parsed only: the TCK has no schema). Prints per source how
many ZetaSQL accepts and rejects, and the rejections grouped by message.

    python benchmarks/zetasql_check.py                 # everything (synth: --n items per schema)
    python benchmarks/zetasql_check.py --source synth --n 100 --show 3
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gqlir.checks.zetasql import Verdict, check  # noqa: E402
from gqlir.errors import GqlirError  # noqa: E402
from gqlir.schema import load_schema  # noqa: E402
from gqlir.schema.model import SchemaGraph  # noqa: E402

EXAMPLES = ("biomedical", "bookstore", "encyclopedia", "finance", "movies", "social")
SOURCES = ("golden", "synth", "sql", "tck", "tck-json")


@dataclass(frozen=True)
class Case:
    """One Spanner text, where it came from, and the schema it is analysed against (if any)."""

    source: str
    name: str
    text: str
    schema: SchemaGraph | None = None


def golden_cases() -> Iterator[Case]:
    """Every recorded Spanner text of corpus/gql."""
    for path in sorted((ROOT / "corpus" / "gql").glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                case = json.loads(line)
                text = case["expected"].get("spanner", {}).get("text")
                if text is not None:
                    yield Case("golden", case["id"], text)


def synth_cases(schema: str, n: int, seed: int = 7) -> Iterator[Case]:
    """The Spanner text of ``n`` verified synth items on one example schema."""
    from gqlir.synth import SynthConfig, synthesize

    graph = load_schema(str(ROOT / "schemas" / schema / "schema.json"))
    config = SynthConfig(
        [str(ROOT / "schemas" / schema)], n=n, seed=seed, dialects=["spanner"], timeout=0.5
    )
    items, _ = synthesize(config, None, rewriters=[])
    for item in items:
        text = item["queries"].get("spanner")
        if text is not None:
            yield Case("synth", item["id"], text, graph)


def sql_cases() -> Iterator[Case]:
    """The SQL test set read with its schema's mapping and written as Spanner."""
    from gqlir import parse
    from gqlir.errors import UnsupportedError
    from gqlir.sqlcorpus import read_corpus
    from gqlir.sqlmapping import mapping_for
    from gqlir.synth.emitting import emit_one

    mappings: dict[str, Any] = {}
    for entry in read_corpus(str(ROOT / "corpus" / "sql")):
        mapping = mappings.get(entry.schema) or mappings.setdefault(
            entry.schema, mapping_for(entry.schema)
        )
        try:
            text = emit_one(
                parse(entry.sql, entry.dialect, schema=mapping), "spanner", mapping.schema
            )
        except UnsupportedError:
            continue
        yield Case("sql", entry.id, text, mapping.schema)


def tck_cases(elements: str = "refuse") -> Iterator[Case]:
    """The TCK's valid queries translated to Spanner (graph ``tck``), as translate_tck.py does;
    ``elements="to_json"``: graph elements in results as SAFE_TO_JSON (source ``tck-json``)."""
    from translate_tck import translate_all

    from gqlir.conformance import tck

    tck_dir = tck.default_tck_dir()
    if tck_dir is None:
        print("openCypher TCK not found: set GQLIR_TCK_DIR", file=sys.stderr)
        return
    queries = tck.valid_queries(tck_dir)
    outcome = translate_all(queries, ("spanner",), spanner_elements=elements)["spanner"]
    source = "tck-json" if elements == "to_json" else "tck"
    for n, (cypher, text) in enumerate(outcome.translated.items()):
        yield Case(source, f"{source}#{n}: {cypher!r}", text)


def message_class(message: str) -> str:
    """A rejection's class: its message without names, numbers and quoted text."""
    message = re.sub(r"GRAPH_(NODE|EDGE)\([^)]*\)<[^>]*>", r"GRAPH_\1(...)", message)
    message = re.sub(r"'[^']*'|\"[^\"]*\"|`[^`]*`", "…", message)
    message = re.sub(r"\bProperty \w+", "Property …", message)
    return re.sub(r"\d+", "N", message)[:160]


def run(cases: Iterator[Case]) -> dict[str, list[tuple[Case, Verdict]]]:
    """Every case's verdict, by source (a checker failure on one text is a rejection too)."""
    results: dict[str, list[tuple[Case, Verdict]]] = defaultdict(list)
    for case in cases:
        try:
            verdict = check(case.text, case.schema)
        except GqlirError as exc:
            verdict = Verdict(False, case.schema is not None, f"checker: {exc.message}")
        results[case.source].append((case, verdict))
    return results


def report(results: dict[str, list[tuple[Case, Verdict]]], show: int) -> str:
    lines = []
    for source, pairs in results.items():
        rejected = [(c, v) for c, v in pairs if not v.accepted]
        mode = "analysed" if any(v.analysed for _, v in pairs) else "parsed"
        lines.append(
            f"{source}: accepted {len(pairs) - len(rejected)} / {len(pairs)} ({mode}), "
            f"rejected {len(rejected)}"
        )
        classes: dict[str, list[tuple[Case, Verdict]]] = defaultdict(list)
        for c, v in rejected:
            classes[message_class(v.message)].append((c, v))
        for cls, members in sorted(classes.items(), key=lambda kv: -len(kv[1])):
            lines.append(f"  {len(members):5d}  {cls}")
            for c, v in members[:show]:
                lines.append(f"           {c.name}: {c.text}\n             → {v}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", action="append", choices=SOURCES, help="(repeatable)")
    parser.add_argument("--n", type=int, default=300, help="synth items per schema (300)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--show", type=int, default=1, help="examples per rejection class")
    args = parser.parse_args(argv)
    sources = args.source or SOURCES
    started = time.perf_counter()
    counts: Counter[str] = Counter()
    results: dict[str, list[tuple[Case, Verdict]]] = {}
    for source in sources:
        if source == "golden":
            cases: Iterator[Case] = golden_cases()
        elif source == "synth":
            cases = (c for s in EXAMPLES for c in synth_cases(s, args.n, args.seed))
        elif source == "sql":
            cases = sql_cases()
        elif source == "tck":
            cases = tck_cases()
        else:
            cases = tck_cases("to_json")
        results.update(run(cases))
        counts[source] = len(results.get(source, []))
    print(report(results, args.show))
    print(f"({sum(counts.values())} texts, {time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
