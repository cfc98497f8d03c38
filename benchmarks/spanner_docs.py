"""Read the Spanner Graph queries written from Google's public documentation
(``corpus/spanner/docs.jsonl``) and print how many gqlir and ZetaSQL accept.

    python benchmarks/spanner_docs.py

Per query: ``gqlir validate --dialect spanner`` (valid ones must be accepted, documented
invalid forms rejected with a position), ZetaSQL's analyser against the catalog of the docs'
FinGraph (``corpus/spanner/fingraph.schema.json``; parse only for a query naming another
graph), and the round trip parse → emit spanner → parse (the same IR).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gqlir import api  # noqa: E402
from gqlir.errors import GqlirError  # noqa: E402

CORPUS = ROOT / "corpus" / "spanner" / "docs.jsonl"
FINGRAPH = ROOT / "corpus" / "spanner" / "fingraph.schema.json"


def zetasql_verdict(text: str, schema):
    """ZetaSQL's verdict: analysed against FinGraph's catalog when the query reads FinGraph."""
    from gqlir.checks.zetasql import shared_checker

    reads_fingraph = text.lstrip().startswith("GRAPH FinGraph ")
    return shared_checker().check(text, schema if reads_fingraph else None)


def round_trips(text: str, schema=None) -> bool:
    """parse → emit spanner (with the types of FinGraph's properties) → parse gives the same
    IR."""
    try:
        query = api.parse(text, "spanner")
        return api.parse(api.emit(query, "spanner", schema=schema), "spanner") == query
    except GqlirError:
        return False


def main() -> int:
    from gqlir.schema import load_schema

    fingraph = load_schema(str(FINGRAPH))
    items = [json.loads(line) for line in CORPUS.read_text().splitlines() if line.strip()]
    valid = [i for i in items if i["valid"]]
    invalid = [i for i in items if not i["valid"]]
    accepted = [i for i in valid if api.validate(i["query"], "spanner").valid]
    rejected = [i for i in invalid if not api.validate(i["query"], "spanner").valid]
    verdicts = [zetasql_verdict(i["query"], fingraph) for i in valid]
    zeta = sum(v.accepted for v in verdicts)
    analysed = sum(v.accepted and v.analysed for v in verdicts)
    trips = sum(round_trips(i["query"], fingraph) for i in accepted)
    written = [
        api.emit(api.parse(i["query"], "spanner"), "spanner", schema=fingraph) for i in accepted
    ]
    written_ok = sum(zetasql_verdict(text, fingraph).accepted for text in written)
    print(f"spanner docs corpus: {len(items)} queries ({len(valid)} valid, {len(invalid)} invalid)")
    print(f"gqlir accepts {len(accepted)}/{len(valid)} valid ({len(accepted) / len(valid):.1%})")
    print(f"gqlir rejects {len(rejected)}/{len(invalid)} invalid")
    print(
        f"ZetaSQL accepts {zeta}/{len(valid)} valid ({analysed} analysed against FinGraph's "
        "catalog, the others parsed)"
    )
    print(f"round trip (parse, emit spanner, parse: same IR): {trips}/{len(accepted)} accepted")
    print(f"ZetaSQL accepts the text written back: {written_ok}/{len(accepted)}")
    for item, verdict in zip(valid, verdicts, strict=True):
        if not verdict.accepted:
            print(f"  ZetaSQL rejects {item['id']}: {verdict.message}"[:160])
    for item in accepted:
        if not round_trips(item["query"], fingraph):
            print(f"  no round trip {item['id']}")
    for item in valid:
        if item not in accepted:
            error = api.validate(item["query"], "spanner").error
            print(f"  not accepted {item['id']}: {error.message if error else ''}"[:160])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
