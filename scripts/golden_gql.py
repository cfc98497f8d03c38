"""Write the cross-dialect golden files in corpus/gql/ from the current translators.

    python scripts/golden_gql.py [--tck ../shared/tck/features] [--gql ../shared/corpora/gql]

Each line of a golden file is one case: a source query in its dialect and, for every target,
either the expected text or the expected refusal (the construct an ``UnsupportedError``
names). ``tests/test_golden_gql.py`` checks every case against the translators.

The files are written once and then reviewed like code: rerunning this script after a change
and reading ``git diff corpus/gql`` is how a change of output is inspected. Cypher cases come
from the openCypher TCK (every sixth valid query, so that every feature area appears); a TCK
case records, per target, whether the translation, read back and run under the target's
semantics, gave the scenario's expected result (``verified``), so a golden text is never an
unchecked guess. GQL cases are the ISO GQL corpus, translated to Cypher. Rewrite cases
(``rewrites.jsonl``) are queries written here for the constructs a target lacks and gqlir
writes itself (gqlir/passes/): a target is ``verified`` when the translation, run by the
reference evaluator under the target's semantics, gives the source's rows.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gqlir import api  # noqa: E402
from gqlir.conformance import read_tck  # noqa: E402
from gqlir.conformance.runner import run_scenario, translation_writer  # noqa: E402
from gqlir.errors import GqlirError, UnsupportedError  # noqa: E402

CYPHER_TARGETS = ("iso-gql", "spanner", "tugraph-gql", "opencypher9", "kuzu")
GQL_TARGETS = ("neo4j", "spanner", "tugraph-gql")
EVERY = 6


def expectation(text: str, source: str, target: str) -> dict[str, str]:
    """What the translator gives now: ``{"text": …}`` or ``{"refused": construct}`` (Spanner
    output names the graph ``tck``, as the TCK runner's translations do)."""
    query = api.parse(text, source)
    try:
        return {"text": api.translate(query, source, target, writer=translation_writer(target))}
    except UnsupportedError as exc:
        return {"refused": exc.construct}


def tck_cases(tck_dir: str) -> list[dict[str, object]]:
    seen: set[str] = set()
    scenarios = []
    for s in read_tck(tck_dir):
        if s.is_compile_time_syntax_error or s.query in seen:
            continue
        seen.add(s.query)
        scenarios.append(s)
    cases = []
    for s in scenarios[::EVERY]:
        if len(s.query) > 600:
            continue
        expected = {t: expectation(s.query, "neo4j", t) for t in CYPHER_TARGETS}
        verified = []
        for t in CYPHER_TARGETS:
            if "text" in expected[t]:
                result = run_scenario(s, target=t)
                if result.passed and result.translated:
                    verified.append(t)
        cases.append(
            {
                "id": f"tck:{s.id}",
                "from": "neo4j",
                "source": s.query,
                "expected": expected,
                "verified": verified,
            }
        )
    return cases


def gql_cases(corpus: Path) -> list[dict[str, object]]:
    cases = []
    path = corpus / "iso_gql_valid.jsonl"
    for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        text = json.loads(line)["query"]
        try:
            api.parse(text, "iso-gql")
        except GqlirError:
            continue  # tests/test_gql_parser.py accounts for every corpus query
        expected = {t: expectation(text, "iso-gql", t) for t in GQL_TARGETS}
        cases.append(
            {"id": f"iso_gql_valid:{i}", "from": "iso-gql", "source": text, "expected": expected}
        )
    return cases


#: Constructs a target lacks that a lowering pass writes with the same meaning.
REWRITE_CASES = {
    "sign": "UNWIND [3, -2.5, 0, null] AS x RETURN x, sign(x) AS s",
    "list predicates": "UNWIND [[1, 2], [1, null], [], null] AS l "
    "RETURN l, all(x IN l WHERE x > 1) AS a, any(x IN l WHERE x > 1) AS b, "
    "none(x IN l WHERE x > 1) AS c, single(x IN l WHERE x > 1) AS d",
    "conversions": "UNWIND [1, -20, null] AS i WITH i, 'x' AS s, i > 0 AS b "
    "RETURN toInteger(i) AS n, toString(i) AS t, toString(s) AS u, toBoolean(b) AS c",
    "relationship types": "MATCH (a:N) OPTIONAL MATCH (a)-[r:T|S]->() "
    "RETURN a.x AS x, type(r) AS t",
    "pattern predicate": "MATCH (a:N) WHERE exists { (a)-[:T]->(b) } RETURN a.x AS x",
}
REWRITE_TARGETS = (*CYPHER_TARGETS, "tugraph-cypher")


def _rewrite_graph():  # type: ignore[no-untyped-def]
    """Three N nodes (x = 1, 2, 3) joined by a T, an S and a U relationship."""
    from gqlir.eval import Graph

    g = Graph()
    a, b, c = (g.create_node(["N"], {"x": x}) for x in (1, 2, 3))
    for kind, start, end in (("T", a, b), ("S", b, c), ("U", c, a)):
        g.create_relationship(kind, start, end, {})
    return g


def rewrite_cases() -> list[dict[str, object]]:
    from gqlir.eval import run

    def rows(text: str, dialect: str) -> list[str]:
        return sorted(map(repr, run(text, _rewrite_graph(), dialect=dialect).rows))

    cases = []
    for name, text in REWRITE_CASES.items():
        expected = {t: expectation(text, "neo4j", t) for t in REWRITE_TARGETS}
        want = rows(text, "neo4j")
        verified = [t for t, e in expected.items() if "text" in e and rows(e["text"], t) == want]
        cases.append(
            {
                "id": f"rewrite:{name}",
                "from": "neo4j",
                "source": text,
                "expected": expected,
                "verified": verified,
            }
        )
    return cases


def write(path: Path, cases: list[dict[str, object]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as out:
        for case in cases:
            out.write(json.dumps(case, ensure_ascii=False) + "\n")
    print(f"{path.relative_to(ROOT)}: {len(cases)} cases")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tck", default=str(ROOT.parent / "shared" / "tck" / "features"))
    parser.add_argument("--gql", default=str(ROOT.parent / "shared" / "corpora" / "gql"))
    args = parser.parse_args()
    write(ROOT / "corpus" / "gql" / "from_cypher.jsonl", tck_cases(args.tck))
    write(ROOT / "corpus" / "gql" / "from_iso_gql.jsonl", gql_cases(Path(args.gql)))
    write(ROOT / "corpus" / "gql" / "rewrites.jsonl", rewrite_cases())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
