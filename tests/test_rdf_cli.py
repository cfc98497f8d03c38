"""``gqlir rdf2pg`` on the command line: a run that writes the golden folder, the JSON report,
and failures that are messages with exit code 1, never tracebacks."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gqlir.cli import main

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "rdf"
MAPPING = str(DATA / "sample_mapping.json")
SAMPLE = str(DATA / "sample.ttl")


def test_rdf2pg_writes_the_graph_folder_and_validates_it(tmp_path: Path, capsys) -> None:
    out = tmp_path / "g"
    code = main(["rdf2pg", "--mapping", MAPPING, "--rdf", SAMPLE, "--out", str(out), "--validate"])
    printed = capsys.readouterr().out
    assert code == 0, printed
    assert printed.startswith("8 nodes and 10 edges from ")
    assert "valid\n" in printed and f"wrote {out}" in printed
    for name in ("graph/nodes.jsonl", "graph/edges.jsonl", "schema.json", "report.json"):
        assert (out / name).read_text() == (DATA / "expected" / name).read_text(), name


def test_rdf2pg_json_report_and_page_size(tmp_path: Path, capsys) -> None:
    out = tmp_path / "g"
    args = ["rdf2pg", "-m", MAPPING, "--rdf", SAMPLE, "-o", str(out), "--json"]
    assert main([*args, "--page-size", "1000", "--batch-size", "1000"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["report"]["nodes"]["Person"] == {"fetched": 3, "kept": 3, "dropped": {}}
    assert data["report"]["queries"] < 42  # fewer, larger pages than the mapping's 3 rows
    # the folder is not empty now: a second run needs --force
    assert main(args) == 1
    assert "not empty" in json.loads(capsys.readouterr().out)["error"]["message"]
    assert main([*args, "--force"]) == 0


def test_rdf2pg_failures_are_messages(tmp_path: Path, capsys) -> None:
    bad = tmp_path / "m.json"
    bad.write_text('{"format": "gqlir-rdf-mapping", "nodes": [{"label": "A"}]}')
    code = main(["rdf2pg", "-m", str(bad), "--rdf", SAMPLE, "-o", str(tmp_path / "o")])
    err = capsys.readouterr().err
    assert code == 1
    assert "[RDF_MAPPING]" in err and "node type A has no 'rdf' block" in err
    assert "line 1, column" in err
    out = str(tmp_path / "x")
    code = main(["rdf2pg", "-m", MAPPING, "--rdf", str(tmp_path / "none.ttl"), "-o", out])
    assert code == 1 and "[RDF_DATA] cannot read" in capsys.readouterr().err
    assert main(["rdf2pg", "-m", MAPPING, "--rdf", SAMPLE, "-o", out, "--page-size", "0"]) == 1
    assert "--page-size must be at least 1" in capsys.readouterr().err
    assert not os.path.exists(out)


def test_rdf2pg_needs_exactly_one_source(capsys) -> None:
    assert main(["rdf2pg", "-m", MAPPING, "-o", "x"]) == 2
    both = ["rdf2pg", "-m", MAPPING, "--rdf", SAMPLE, "--endpoint", "http://h/s", "-o", "x"]
    assert main(both) == 2
    capsys.readouterr()


@pytest.mark.parametrize("endpoint", ["ftp://example.org/sparql"])
def test_rdf2pg_as_a_program_never_prints_a_traceback(tmp_path: Path, endpoint: str) -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run(
        [sys.executable, "-m", "gqlir", "rdf2pg", "-m", MAPPING, "--endpoint", endpoint]
        + ["-o", str(tmp_path / "o")],
        capture_output=True,
        text=True,
        env=env,
    )
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    assert "[RDF_SPARQL]" in proc.stderr and "not an http(s) URL" in proc.stderr
