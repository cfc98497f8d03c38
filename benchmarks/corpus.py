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
    python benchmarks/corpus.py --write README.md     # also the table between the markers
    python benchmarks/corpus.py --parse-only          # only the parse rows, side by side

Wall and CPU time are both reported (CPU time is the steadier one on a shared machine), with
the load average before and after. Timings are printed for reading; nothing here asserts one.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

from run import PEERS_VENV, WORKER, _gqlir_env  # noqa: E402

TEXT2GQL_LINES = 178_184
START_MARKER = "<!-- corpus-benchmark:start -->"
END_MARKER = "<!-- corpus-benchmark:end -->"
COMMAND = "python benchmarks/corpus.py --write README.md"

# (file, field holding the Cypher text, optional filter on the record)
SOURCES: tuple[tuple[str, str], ...] = (
    ("corpus/cypher-sql/typical.jsonl", "cypher"),
    ("corpus/gql/from_cypher.jsonl", "source"),
    ("corpus/neo4j/ddl.jsonl", "query"),
)


def records(name: str) -> Iterator[dict[str, Any]]:
    """The records of the repository's JSON-lines file ``name`` (none where it is absent)."""
    path = ROOT / name
    if not path.exists():
        return
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            yield json.loads(line)


def distinct_queries() -> list[str]:
    """The distinct Cypher queries of the mix, in a fixed order."""
    from gqlir.conformance import tck

    seen: dict[str, None] = {}
    tck_dir = tck.default_tck_dir()
    if tck_dir is not None:
        seen.update(dict.fromkeys(tck.valid_queries(tck_dir)))
    for name, key in SOURCES:
        for record in records(name):
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


def worker(
    python: Path | str, queries_file: Path, tool: str, env: dict[str, str] | None, passes: int
) -> Any:
    """One ``peer_worker.py`` measurement: a warm-up pass, then ``passes`` timed passes (the
    median is reported)."""
    cmd = [str(python), str(WORKER), str(queries_file), tool, "--passes", str(passes)]
    cmd += ["--budget", "60"]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT, check=False)
    rows = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    if proc.returncode != 0 or not rows:
        return {"available": False, "error": (proc.stderr or "no output").strip()[-200:]}
    return json.loads(rows[-1])


def cli_times(argv: list[str], corpus: Path) -> tuple[float, float]:
    """Wall seconds and CPU seconds (the process and its workers) of one ``gqlir`` batch
    command over the corpus (output discarded)."""
    cmd = [sys.executable, "-m", "gqlir", *argv, "--input", str(corpus), "--jobs", "0", "--quiet"]
    cmd += ["--output", "/dev/null"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    proc = subprocess.run(cmd, env=_gqlir_env(), cwd=ROOT, check=False, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode > 1:  # 1 only says some query was invalid or refused
        print(f"warning: gqlir {' '.join(argv)} exited {proc.returncode}", file=sys.stderr)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def qps(result: dict[str, Any]) -> str:
    if not result.get("available"):
        return "not installed" if result.get("missing") else f"failed: {result.get('error')}"
    cpu = result.get("cpu_qps") or 0
    return f"{result['qps']:,.0f} q/s wall, {cpu:,.0f} q/s CPU"


def ratio(ours: dict[str, Any], peer: dict[str, Any]) -> str:
    """gqlir's rate over the peer's, in wall and in CPU time."""
    if not (ours.get("available") and peer.get("available") and peer.get("qps")):
        return ""
    text = f"gqlir {ours['qps'] / peer['qps']:.1f}× wall"
    if ours.get("cpu_qps") and peer.get("cpu_qps"):
        text += f", {ours['cpu_qps'] / peer['cpu_qps']:.2f}× CPU"
    return text


def rows(
    lines: int,
    parse: dict[str, Any],
    peers: dict[str, dict[str, Any]],
    validate: tuple[float, float],
    translate: tuple[float, float],
    one: dict[str, Any],
) -> list[tuple[str, str, str]]:
    """(task, measured, goal) for each row of the issue's table."""
    out = [("parse to IR, one process (gqlir)", qps(parse), "≥ 3.5× cypherast (CPU)")]
    for tool, result in peers.items():
        accepted = f", {result['accepted']:,} accepted" if result.get("available") else ""
        measured = qps(result)
        if ratio(parse, result):
            measured += f" ({ratio(parse, result)})"
        out.append((f"{tool.removesuffix('-parse')} parse, same run{accepted}", measured, ""))
    out.append(
        (
            f"`validate --dialect neo4j --input`, {lines:,} lines, `--jobs 0`",
            f"{validate[0]:.1f} s wall, {validate[1]:.1f} s CPU",
            f"< 20 s for {TEXT2GQL_LINES:,} lines",
        )
    )
    out.append(
        (
            f"`translate --from neo4j --to iso-gql --input`, {lines:,} lines, `--jobs 0`",
            f"{translate[0]:.1f} s wall, {translate[1]:.1f} s CPU",
            f"< 60 s for {TEXT2GQL_LINES:,} lines",
        )
    )
    out.append(("translate neo4j → iso-gql, one process", qps(one), "≥ 3,000 q/s (CPU)"))
    return out


def markdown(table: list[tuple[str, str, str]], queries: int, loads: tuple[str, str]) -> str:
    """The README block: the command, the conditions and the table."""
    day = datetime.date.today().isoformat()
    lines = [
        f"<!-- produced by: {COMMAND} -->",
        f"`{COMMAND}` on {day}: {queries:,} distinct Cypher queries",
        "(the TCK's valid queries and the repository's Cypher corpora) repeated to the size of",
        "Text2GQL-Bench; one-process rows are the median of the timed passes over the distinct",
        "queries after a warm-up pass, peers measured in the same run. Machine:",
        f"{os.cpu_count()} cores, shared, load average {loads[0]} before and {loads[1]} after",
        "the run (CPU time is the steadier column).",
        "",
        "| task | measured | goal |",
        "|---|---|---|",
    ]
    lines += [f"| {task} | {measured} | {goal} |" for task, measured, goal in table]
    return "\n".join(lines)


def write_block(path: Path, block: str) -> None:
    text = path.read_text(encoding="utf-8")
    start, end = text.find(START_MARKER), text.find(END_MARKER)
    if start < 0 or end < start:
        raise SystemExit(f"{path} has no {START_MARKER} ... {END_MARKER} markers")
    new = text[: start + len(START_MARKER)] + "\n" + block + "\n" + text[end:]
    path.write_text(new, encoding="utf-8")


def _load() -> str:
    return " / ".join(f"{x:.1f}" for x in os.getloadavg())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lines", type=int, default=TEXT2GQL_LINES, help="corpus lines")
    ap.add_argument("--passes", type=int, default=3, help="timed passes of one-process rows")
    ap.add_argument("--write", metavar="README", help="put the table between its markers")
    ap.add_argument(
        "--parse-only", action="store_true", help="only the parse rows (gqlir and its peers)"
    )
    args = ap.parse_args(argv)
    queries = distinct_queries()
    print(f"corpus: {len(queries):,} distinct queries repeated to {args.lines:,} lines")
    load_before = _load()
    peers_python = PEERS_VENV / "bin" / "python"
    with tempfile.TemporaryDirectory() as tmp:
        qfile = Path(tmp) / "queries.json"
        qfile.write_text(json.dumps(queries), encoding="utf-8")
        corpus = Path(tmp) / "corpus.jsonl"
        write_corpus(queries, args.lines, corpus)
        parse = worker(sys.executable, qfile, "gqlir-parse", _gqlir_env(), args.passes)
        peers: dict[str, dict[str, Any]] = {}
        for tool, passes in (("cypherast-parse", args.passes), ("graphglot-parse", 1)):
            if peers_python.exists():
                peers[tool] = worker(peers_python, qfile, tool, None, passes)
            else:
                peers[tool] = {"available": False, "missing": True}
        if args.parse_only:
            print(f"load average before {load_before}, after {_load()}")
            for task, measured, _goal in rows(args.lines, parse, peers, (0, 0), (0, 0), {})[:3]:
                print(f"{task:72} {measured}")
            return 0
        validate = cli_times(["validate", "--dialect", "neo4j"], corpus)
        translate = cli_times(["translate", "--from", "neo4j", "--to", "iso-gql"], corpus)
        one = worker(sys.executable, qfile, "gqlir-translate-iso-gql", _gqlir_env(), args.passes)
    table = rows(args.lines, parse, peers, validate, translate, one)
    print(f"load average before {load_before}, after {_load()}")
    print(f"\n{'task':72} {'measured':62} goal")
    for task, measured, goal in table:
        print(f"{task:72} {measured:62} {goal}")
    if args.write:
        write_block(Path(args.write), markdown(table, len(queries), (load_before, _load())))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
