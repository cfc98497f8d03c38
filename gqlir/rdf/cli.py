"""``gqlir rdf2pg``: convert RDF (a SPARQL endpoint or RDF files) into a graph folder by a
mapping file. Exit codes: 0 converted, 1 the mapping, the RDF or the endpoint failed, 2 a
package it needs (pint, pyoxigraph) is not installed."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from ..errors import GqlirError
from ..progress import failure_code

EXIT_OK = 0
EXIT_FAILED = 1

_EPILOG = """\
examples:
  gqlir rdf2pg --mapping tests/data/rdf/sample_mapping.json \\
      --rdf tests/data/rdf/sample.ttl --out graphs/sample
  gqlir rdf2pg --mapping examples/rdf/wikidata_company.json \\
      --endpoint https://query.wikidata.org/sparql --out graphs/company

The folder gets schema.json, graph/nodes.jsonl, graph/edges.jsonl (docs/graph-format.md),
report.json and report.txt (what was kept and dropped, and why). The mapping format and the
conversion rules are in docs/rdf.md.
"""


def add_commands(sub: Any) -> None:
    """Add ``rdf2pg`` to the ``gqlir`` command's subparsers."""
    p = sub.add_parser(
        "rdf2pg",
        help="convert RDF (SPARQL endpoint or RDF files) into a graph folder",
        description="Convert RDF into a property graph by a mapping file: SPARQL queries "
        "generated from the mapping run against an endpoint or an embedded store.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--mapping", "-m", required=True, metavar="M", help="the mapping file (JSON)")
    where = p.add_mutually_exclusive_group(required=True)
    where.add_argument("--endpoint", metavar="URL", help="a SPARQL 1.1 endpoint URL")
    where.add_argument(
        "--rdf",
        nargs="+",
        metavar="FILE",
        help="RDF files to load into an embedded store (.nt, .ttl, .nq, .trig, .rdf, .jsonld)",
    )
    p.add_argument("--out", "-o", required=True, metavar="DIR", help="the graph folder to write")
    p.add_argument("--force", action="store_true", help="write into a folder that is not empty")
    p.add_argument("--page-size", type=int, metavar="N", help="rows per query (LIMIT)")
    p.add_argument("--batch-size", type=int, metavar="N", help="resources per VALUES block")
    p.add_argument(
        "--timeout", type=float, default=120.0, metavar="S", help="seconds per HTTP request"
    )
    p.add_argument("--validate", action="store_true", help="validate the graph after writing")
    p.add_argument("--json", action="store_true", help="print the report (or error) as JSON")
    p.add_argument(
        "--debug", action="store_true", help="let internal errors raise with a traceback"
    )
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Handle ``gqlir rdf2pg``."""
    from . import convert, load_mapping, open_source

    for name in ("page_size", "batch_size"):
        value = getattr(args, name)
        if value is not None and value < 1:
            return _fail(GqlirError(f"--{name.replace('_', '-')} must be at least 1"), args.json)
    try:
        mapping = load_mapping(args.mapping)
        options = {"timeout": args.timeout} if args.endpoint else {}
        source = open_source(args.endpoint, args.rdf or (), **options)
        try:
            result = convert(mapping, source, page_size=args.page_size, batch_size=args.batch_size)
        finally:
            source.close()
        result.write(args.out, overwrite=args.force)
    except GqlirError as exc:
        return _fail(exc, args.json)
    issues = _validate(args.out, result.schema) if args.validate else None
    if args.json:
        out = {"out": args.out, "report": result.report.to_dict()}
        if issues is not None:
            out["validation"] = issues
        print(json.dumps(out, ensure_ascii=False))
    else:
        sys.stdout.write(result.report.to_text())
        if issues is not None:
            print("valid" if not issues else f"{len(issues)} validation issues:")
            for line in issues[:20]:
                print(f"  {line}")
        print(f"wrote {args.out}")
    return EXIT_FAILED if issues else EXIT_OK


def _validate(directory: str, schema: Any) -> list[str]:
    from ..schema.graphdata import validate_graph

    report = validate_graph(os.path.join(directory, "graph"), schema)
    return [str(i) for i in report.issues]


def _fail(exc: GqlirError, as_json: bool) -> int:
    if as_json:
        print(json.dumps({"error": exc.to_dict()}, ensure_ascii=False))
    else:
        print(f"gqlir rdf2pg: {exc}", file=sys.stderr)
    return failure_code(exc)
