"""Throughput on a whole corpus (issue #26): parse, validate and translate a mixed corpus.

Builds a mixed Cypher corpus from the repository's own corpora (the openCypher TCK's valid
queries, ``corpus/cypher-sql``, ``corpus/gql/from_cypher.jsonl``, ``corpus/neo4j``), repeats it
to ``--lines`` lines (178,184 by default, the size of Text2GQL-Bench) in a temporary JSONL file,
and measures:

* parse to IR, one process, on the distinct queries, side by side with cypherast and graphglot
  when ``benchmarks/.peers`` holds them (``benchmarks/setup_peers.sh``), via ``peer_worker.py``;
* ``gqlir validate --dialect neo4j --input FILE --jobs 0`` wall time on the whole file;
* ``gqlir translate --from neo4j --to iso-gql --input FILE --jobs 0`` wall time on the whole file;
* translate neo4j → iso-gql, one process, on the distinct queries.

    python benchmarks/corpus.py [--lines N]

Timings are printed for reading; nothing here asserts one.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

from run import PEERS_VENV, WORKER, _gqlir_env  # noqa: E402

TEXT2GQL_LINES = 178_184

# (file, field holding the Cypher text, optional filter on the record)
SOURCES: tuple[tuple[str, str], ...] = (
    ("corpus/cypher-sql/typical.jsonl", "cypher"),
    ("corpus/gql/from_cypher.jsonl", "source"),
    ("corpus/neo4j/ddl.jsonl", "query"),
)


def distinct_queries() -> list[str]:
    """The distinct Cypher queries of the mix, in a fixed order."""
    from gqlir.conformance import tck

    seen: dict[str, None] = {}
    tck_dir = tck.default_tck_dir()
    if tck_dir is not None:
        seen.update(dict.fromkeys(tck.valid_queries(tck_dir)))
    for name, key in SOURCES:
        path = ROOT / name
        if not path.exists():
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            record = json.loads(line)
            if record.get("from", "neo4j") != "neo4j":
                continue
            text = record.get(key)
            if isinstance(text, str) and text.strip():
                seen[text] = None
    return list(seen)


def write_corpus(queries: list[str], lines: int, path: Path) -> None:
    """``lines`` records cycling through ``queries`` (the way a benchmark repeats its queries)."""
    with path.open("w", encoding="utf-8") as fh:
        for i in range(lines):
            fh.write(json.dumps({"id": i, "query": queries[i % len(queries)]}) + "\n")


def worker(python: Path | str, queries_file: Path, tool: str, env: dict[str, str] | None) -> Any:
    """One ``peer_worker.py`` measurement (a warm-up pass, then one timed pass)."""
    cmd = [str(python), str(WORKER), str(queries_file), tool, "--passes", "1", "--budget", "60"]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT, check=False)
    rows = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    if proc.returncode != 0 or not rows:
        return {"available": False, "error": (proc.stderr or "no output").strip()[-200:]}
    return json.loads(rows[-1])


def cli_wall(argv: list[str], corpus: Path) -> float:
    """Wall seconds of one ``gqlir`` batch command over the corpus (output discarded)."""
    cmd = [sys.executable, "-m", "gqlir", *argv, "--input", str(corpus), "--jobs", "0", "--quiet"]
    cmd += ["--output", "/dev/null"]
    started = time.perf_counter()
    proc = subprocess.run(cmd, env=_gqlir_env(), cwd=ROOT, check=False, stdout=subprocess.DEVNULL)
    if proc.returncode > 1:  # 1 only says some query was invalid or refused
        print(f"warning: gqlir {' '.join(argv)} exited {proc.returncode}", file=sys.stderr)
    return time.perf_counter() - started


def qps(result: dict[str, Any]) -> str:
    if not result.get("available"):
        return "not installed" if result.get("missing") else f"failed: {result.get('error')}"
    cpu = result.get("cpu_qps") or 0
    return f"{result['qps']:,.0f} q/s, CPU {cpu:,.0f} q/s ({result['accepted']} accepted)"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lines", type=int, default=TEXT2GQL_LINES, help="corpus lines")
    args = ap.parse_args(argv)
    queries = distinct_queries()
    print(f"corpus: {len(queries):,} distinct queries repeated to {args.lines:,} lines")
    peers_python = PEERS_VENV / "bin" / "python"
    with tempfile.TemporaryDirectory() as tmp:
        qfile = Path(tmp) / "queries.json"
        qfile.write_text(json.dumps(queries), encoding="utf-8")
        corpus = Path(tmp) / "corpus.jsonl"
        write_corpus(queries, args.lines, corpus)
        parse = worker(sys.executable, qfile, "gqlir-parse", _gqlir_env())
        peers: dict[str, dict[str, Any]] = {}
        for tool in ("cypherast-parse", "graphglot-parse"):
            if peers_python.exists():
                peers[tool] = worker(peers_python, qfile, tool, None)
            else:
                peers[tool] = {"available": False, "missing": True}
        validate = cli_wall(["validate", "--dialect", "neo4j"], corpus)
        translate = cli_wall(["translate", "--from", "neo4j", "--to", "iso-gql"], corpus)
        one = worker(sys.executable, qfile, "gqlir-translate-iso-gql", _gqlir_env())
    print(f"\n{'task':50} {'measured':50} goal")
    print(f"{'parse to IR, one process (gqlir)':50} {qps(parse):50} ≥ 3.5× cypherast")
    for tool, result in peers.items():
        ratio = ""
        if parse.get("available") and result.get("available") and result.get("qps"):
            ratio = f"; gqlir {parse['qps'] / result['qps']:.1f}×"
            if parse.get("cpu_qps") and result.get("cpu_qps"):
                ratio += f", CPU {parse['cpu_qps'] / result['cpu_qps']:.1f}×"
        print(f"{'  ' + tool:50} {qps(result) + ratio:50}")
    print(
        f"{f'validate --input, {args.lines:,} lines, --jobs 0':50} "
        f"{f'{validate:.1f} s':50} < 20 s for {TEXT2GQL_LINES:,} lines"
    )
    print(
        f"{f'translate --input, {args.lines:,} lines, --jobs 0':50} "
        f"{f'{translate:.1f} s':50} < 60 s for {TEXT2GQL_LINES:,} lines"
    )
    print(f"{'translate neo4j → iso-gql, one process':50} {qps(one):50} ≥ 3,000 q/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
