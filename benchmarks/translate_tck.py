"""Translation rate of the openCypher TCK into the GQL dialects, with reference-parser checks.

For every unique, syntactically valid TCK query: parse it as Neo4j Cypher, emit it in each target
dialect, and count what happens. A query is *translated* (the output has the input's meaning) or
*refused* with an UnsupportedError naming the construct; anything else (a crash, or another
error) is reported separately, because it is a bug.

    python benchmarks/translate_tck.py                   # rates for iso-gql, spanner, tugraph-gql
    python benchmarks/translate_tck.py --gqlppy          # + every iso-gql output through gqlppy
    python benchmarks/translate_tck.py --zetasql         # + every spanner output through ZetaSQL
    python benchmarks/translate_tck.py --show "IN"       # the queries refused for one construct
    python benchmarks/translate_tck.py --json out.json   # everything, as data

The reference parsers are independent of gqlir: ``gqlppy`` (a Lark grammar derived from the ISO
GQL BNF, Earley mode; slow) and Google's ZetaSQL front end (:mod:`gqlir.checks.zetasql`, parse
mode: syntax only, no catalog; ``benchmarks/zetasql_check.py`` also analyses). Spanner output is emitted for a graph named by ``--graph`` (the TCK's
queries name none). Disagreements are listed with the text of both the input and the output.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import gqlir
from gqlir.api import translate
from gqlir.conformance import tck
from gqlir.dialect import get_dialect
from gqlir.emitter.gql import emit_gql
from gqlir.errors import GqlirError, UnsupportedError

DIALECTS = ("iso-gql", "spanner", "tugraph-gql")
#: The graph Spanner output is written for (TCK queries run on an unnamed graph).
DEFAULT_GRAPH = "tck"


@dataclass
class Outcome:
    """One dialect's results over the corpus."""

    dialect: str
    translated: dict[str, str] = field(default_factory=dict)  # input -> output
    refused: dict[str, str] = field(default_factory=dict)  # input -> construct
    errors: dict[str, str] = field(default_factory=dict)  # input -> error (bugs)

    @property
    def total(self) -> int:
        return len(self.translated) + len(self.refused) + len(self.errors)

    @property
    def rate(self) -> float:
        return len(self.translated) / self.total if self.total else 0.0

    def by_construct(self) -> Counter[str]:
        return Counter(self.refused.values())


def translate_all(
    queries: Iterable[str],
    dialects: Iterable[str],
    graph: str = DEFAULT_GRAPH,
    *,
    rename_variables: bool = True,
    spanner_elements: str = "refuse",
) -> dict[str, Outcome]:
    """Parse each query once and emit it in every dialect."""
    outcomes = {d: Outcome(d) for d in dialects}
    for text in queries:
        try:
            tree = gqlir.parse(text, "neo4j")
        except GqlirError as exc:
            for outcome in outcomes.values():
                outcome.errors[text] = f"parse: {exc.message}"
            continue
        for d, outcome in outcomes.items():
            # Only a dialect that must name the graph gets one (else USE g is added).
            target = get_dialect(d)
            named = graph if target.capabilities.graph_prefix_required else None

            def write(query: Any, target: Any = target, named: str | None = named) -> str:
                return emit_gql(
                    query,
                    target,
                    graph=named,
                    rename_variables=rename_variables,
                    spanner_elements=spanner_elements,  # type: ignore[arg-type]
                )

            try:
                outcome.translated[text] = translate(tree, "neo4j", d, writer=write)
            except UnsupportedError as exc:
                outcome.refused[text] = exc.construct
            except Exception as exc:  # a bug: reported, never counted as a refusal
                outcome.errors[text] = f"{type(exc).__name__}: {exc}"
    return outcomes


def verification(tck_dir: str | Path, dialects: Iterable[str], elements: str = "refuse") -> str:
    """How many TCK scenarios ran as their translation, and passed, per target."""
    from gqlir.conformance.runner import run_tck

    option = " --spanner-elements to_json" if elements == "to_json" else ""
    lines = ["", f"TCK scenarios run as their translation (gqlir tck --to D{option}):"]
    for d in dialects:
        report_ = run_tck(tck_dir, target=d, elements=elements)
        passed = sum(r.passed for r in report_.results if r.translated)
        lines.append(
            f"  {d}: {report_.translated} translated and run, {passed} gave the expected "
            f"result, {report_.refused} refused"
        )
    return "\n".join(lines)


GQL_TO_CYPHER = ("neo4j", "opencypher9", "tugraph-cypher", "kuzu")


def _default_gql_corpus() -> Path | None:
    corpora = tck.default_corpora_dir()
    path = corpora / "gql" / "iso_gql_valid.jsonl" if corpora is not None else None
    return path if path is not None and path.is_file() else None


def gql_to_cypher(path: Path) -> str:
    """The translation rate of an ISO GQL corpus into each Cypher dialect."""
    queries = [r["query"] for r in tck.load_jsonl_corpus(path)]
    if not queries:
        return f"\n{path.name}: no ISO GQL queries"
    lines = ["", f"{path.name}: {len(queries)} ISO GQL queries into the Cypher dialects"]
    for d in GQL_TO_CYPHER:
        refused: Counter[str] = Counter()
        done = 0
        for text in queries:
            try:
                gqlir.transpile(text, "iso-gql", d)
                done += 1
            except UnsupportedError as exc:
                refused[exc.construct] += 1
            except GqlirError as exc:  # not read as ISO GQL (e.g. a TuGraph extension)
                refused[f"not read: {exc.code}"] += 1
        top = ", ".join(f"{c} {n}" for c, n in refused.most_common(5))
        lines.append(f"  {d}: {done} / {len(queries)} ({done / len(queries):.1%}); refused: {top}")
    return "\n".join(lines)


# -- reference parsers ---------------------------------------------------------------------------


def gqlppy_checker() -> Callable[[str], str | None]:
    """gqlppy's Earley parser: a function from GQL text to None (accepted) or the error."""
    from gqlppy import Parser  # type: ignore[import-not-found]

    parser = Parser(kind="earley")

    def check(text: str) -> str | None:
        try:
            parser.parse(text)
        except Exception as exc:  # gqlppy raises lark's exceptions
            return f"{type(exc).__name__}: {str(exc).splitlines()[0][:200]}"
        return None

    return check


def zetasql_checker() -> Callable[[str], str | None]:
    """The GoogleSQL front end in parse mode (:mod:`gqlir.checks.zetasql`; the TCK has no
    schema to analyse against): a function from text to None or the error."""
    from gqlir.checks.zetasql import check

    def run(text: str) -> str | None:
        verdict = check(text)
        return None if verdict.accepted else str(verdict)

    return run


def check_outputs(
    outcome: Outcome, check: Callable[[str], str | None], limit: int | None = None
) -> list[dict[str, str]]:
    """Every translated query the reference parser rejects, as records."""
    rejected = []
    items = list(outcome.translated.items())
    if limit is not None:
        items = items[:limit]
    for source, output in items:
        error = check(output)
        if error is not None:
            rejected.append({"cypher": source, "output": output, "error": error})
    return rejected


# -- report --------------------------------------------------------------------------------------


def _rate_without(outcome: Outcome, excluded: set[str]) -> tuple[int, int]:
    """How many translated or refused queries are not ``excluded``, and how many of those
    were translated."""
    kept = [q for q in (*outcome.translated, *outcome.refused) if q not in excluded]
    return len(kept), sum(1 for q in kept if q in outcome.translated)


def report(
    outcomes: dict[str, Outcome],
    error_queries: set[str] | None = None,
    compile_errors: set[str] | None = None,
) -> str:
    """Each dialect's rate and refusals by construct; with ``error_queries`` (the queries whose
    scenarios expect an error), also the rate over the queries expected to give a result, and
    with ``compile_errors`` (those Cypher rejects before running them) the rate over the
    queries Cypher compiles."""
    lines = []
    for outcome in outcomes.values():
        lines.append(
            f"{outcome.dialect}: translated {len(outcome.translated)} / {outcome.total} "
            f"({outcome.rate:.1%}), refused {len(outcome.refused)}, errors {len(outcome.errors)}"
        )
        if error_queries:
            refused = sum(1 for q in outcome.refused if q in error_queries)
            n, done = _rate_without(outcome, error_queries)
            lines.append(
                f"    ({refused} of the refused are queries whose scenarios expect an error; "
                f"of the {n} expected to give a result, {done} translated, {done / n:.1%})"
            )
        if compile_errors:
            n, done = _rate_without(outcome, compile_errors)
            lines.append(
                f"    ({outcome.total - n} are rejected by Cypher at compile time; "
                f"of the {n} it compiles, {done} translated, {done / n:.1%})"
            )
        for construct, n in outcome.by_construct().most_common():
            lines.append(f"    {n:5d}  {construct}")
        for text, error in list(outcome.errors.items())[:20]:
            lines.append(f"    ERROR {error}: {text!r}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tck", help="TCK features directory (default: ../shared/tck/features)")
    parser.add_argument("--dialect", action="append", choices=DIALECTS, help="target (repeatable)")
    parser.add_argument("--graph", default=DEFAULT_GRAPH, help="graph name for Spanner output")
    parser.add_argument(
        "--keep-variable-names",
        dest="rename_variables",
        action="store_false",
        help="refuse variables whose names are reserved in the target instead of renaming "
        "them (renaming keeps the result columns' names)",
    )
    parser.add_argument(
        "--spanner-elements",
        choices=("refuse", "to_json"),
        default="refuse",
        help="graph elements in a Spanner result: refused (default) or SAFE_TO_JSON",
    )
    parser.add_argument("--gqlppy", action="store_true", help="check iso-gql output with gqlppy")
    parser.add_argument("--zetasql", action="store_true", help="check spanner output with ZetaSQL")
    parser.add_argument("--limit", type=int, help="check only the first N outputs per parser")
    parser.add_argument("--show", metavar="CONSTRUCT", help="print the queries refused for it")
    parser.add_argument("--json", metavar="FILE", help="write all outcomes as JSON")
    parser.add_argument(
        "--verify",
        action="store_true",
        help="also run every translated TCK scenario under the target's semantics against "
        "its expected result (gqlir tck --to D)",
    )
    parser.add_argument(
        "--gql-corpus",
        metavar="FILE",
        help="ISO GQL queries (JSONL with 'query') to translate into the Cypher dialects "
        "(default: ../shared/corpora/gql/iso_gql_valid.jsonl when present)",
    )
    args = parser.parse_args(argv)

    tck_dir = args.tck or tck.default_tck_dir()
    if tck_dir is None:
        print("openCypher TCK not found: pass --tck or set GQLIR_TCK_DIR", file=sys.stderr)
        return 2
    queries = tck.valid_queries(tck_dir)
    dialects = tuple(args.dialect or DIALECTS)
    started = time.perf_counter()
    outcomes = translate_all(
        queries,
        dialects,
        args.graph,
        rename_variables=args.rename_variables,
        spanner_elements=args.spanner_elements,
    )
    elapsed = time.perf_counter() - started
    print(f"{len(queries)} valid TCK queries, {len(dialects)} dialects, {elapsed:.1f} s")
    errors = tck.error_queries(tck_dir)
    print(report(outcomes, errors, tck.error_queries(tck_dir, compile_time=True)))
    if args.verify:
        print(verification(tck_dir, dialects, args.spanner_elements))
    corpus = Path(args.gql_corpus) if args.gql_corpus else _default_gql_corpus()
    if corpus is not None:
        print(gql_to_cypher(corpus))

    data: dict[str, object] = {
        d: {
            "translated": len(o.translated),
            "refused": len(o.refused),
            "errors": len(o.errors),
            "total": o.total,
            "rate": round(o.rate, 4),
            "refused_by_construct": dict(o.by_construct().most_common()),
        }
        for d, o in outcomes.items()
    }
    checks = []
    if args.gqlppy and "iso-gql" in outcomes:
        checks.append(("gqlppy", "iso-gql", gqlppy_checker))
    if args.zetasql and "spanner" in outcomes:
        checks.append(("zetasql", "spanner", zetasql_checker))
    for name, dialect, make in checks:
        started = time.perf_counter()
        rejected = check_outputs(outcomes[dialect], make(), args.limit)
        checked = min(len(outcomes[dialect].translated), args.limit or 10**9)
        elapsed = time.perf_counter() - started
        print(
            f"\n{name} on {dialect}: accepted {checked - len(rejected)} / {checked} "
            f"({elapsed:.0f} s); rejected:"
        )
        for record in rejected:
            print(f"  - {record['output']}\n      {record['error']}")
        data[f"{name}_rejected"] = rejected
        data[f"{name}_checked"] = checked

    if args.show:
        for d, outcome in outcomes.items():
            shown = [t for t, c in outcome.refused.items() if c == args.show]
            print(f"\n{d}: {len(shown)} refused for {args.show!r}")
            for text in shown:
                print("  " + text.replace("\n", " "))
    if args.json:
        data["outcomes"] = {
            d: {"translated": o.translated, "refused": o.refused, "errors": o.errors}
            for d, o in outcomes.items()
        }
        Path(args.json).write_text(json.dumps(data, indent=1, ensure_ascii=False), "utf-8")
    return 0 if all(not o.errors for o in outcomes.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
