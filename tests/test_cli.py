"""The ``gqlir`` command line, run for real: as a subprocess (``python -m gqlir``) and in-process.

What is checked is the contract scripts rely on: exit codes, where results and failures go,
the JSONL batch format (carry-through, order, one output line per input record, malformed lines
recorded and skipped), and that no input ever produces a traceback.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from gqlir.cli import main

ROOT = Path(__file__).resolve().parents[1]

VALID = "MATCH (n:Person) RETURN n.name AS name"
BROKEN = "MATCH (n RETURN n"
VARLENGTH = "MATCH (a)-[:R*1..3]->(b) RETURN b"
CALL_SCOPE = "MATCH (t) CALL (t) { MATCH (t)-->(x) RETURN count(x) AS c } RETURN c"


def run_cli(
    *args: str, stdin: str | bytes | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """``python -m gqlir ARGS`` in a fresh interpreter, with the checkout importable."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    data = stdin.encode() if isinstance(stdin, str) else stdin
    proc = subprocess.run(
        [sys.executable, "-m", "gqlir", *args],
        input=data if data is not None else b"",
        capture_output=True,
        check=False,
        env=env,
        cwd=cwd or ROOT,
        timeout=120,
    )
    out = subprocess.CompletedProcess(
        proc.args, proc.returncode, proc.stdout.decode(), proc.stderr.decode()
    )
    assert "Traceback" not in out.stderr, out.stderr
    return out


def write_jsonl(path: Path, lines: list[Any]) -> Path:
    """Each item is a dict (written as JSON) or a str (written verbatim as one line)."""
    with path.open("w", encoding="utf-8") as fh:
        for item in lines:
            fh.write((item if isinstance(item, str) else json.dumps(item)) + "\n")
    return path


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


# -- help, version, usage ------------------------------------------------------------------------


def test_help_lists_commands_and_exit_codes() -> None:
    proc = run_cli("--help")
    assert proc.returncode == 0
    for word in ("validate", "translate", "parse", "dialects", "exit codes", "examples"):
        assert word in proc.stdout


@pytest.mark.parametrize("command", ["validate", "translate", "parse", "dialects"])
def test_every_subcommand_help_has_examples(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([command, "--help"]) == 0
    out = capsys.readouterr().out
    assert "examples:" in out
    assert f"gqlir {command}" in out


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    import gqlir

    assert main(["--version"]) == 0
    assert gqlir.__version__ in capsys.readouterr().out


def test_no_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert "usage:" in capsys.readouterr().err


def test_missing_required_option_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["translate", "--from", "neo4j", VALID]) == 2
    err = capsys.readouterr().err
    assert "--to" in err and "usage:" in err


def test_usage_error_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "--json", VALID]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert json.loads(captured.err)["error"]["code"] == "USAGE"


def test_query_and_input_together_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = write_jsonl(tmp_path / "in.jsonl", [{"query": VALID}])
    assert main(["validate", "--dialect", "neo4j", "--input", str(src), VALID]) == 2
    assert "either QUERY or --input" in capsys.readouterr().err


def test_import_is_lazy() -> None:
    """``gqlir --help`` and ``gqlir dialects`` must not pay for the parser or the IR."""
    code = (
        "import sys\n"
        "from gqlir.cli import main\n"
        "main(['dialects', '--json'])\n"
        "heavy = [m for m in ('lark', 'gqlir.parser', 'gqlir.emitter', 'gqlir.ir', 'sqlglot', 'rich')"
        " if m in sys.modules]\n"
        "print(json.dumps(heavy))\n"
    )
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run(
        [sys.executable, "-c", "import json\n" + code],
        capture_output=True,
        check=False,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout.splitlines()[-1]) == []


# -- dialects ------------------------------------------------------------------------------------


def test_dialects_lists_the_known_dialects() -> None:
    proc = run_cli("dialects")
    assert proc.returncode == 0
    names = {line.split()[0] for line in proc.stdout.splitlines() if line.strip()}
    assert {"neo4j", "opencypher9"} <= names


def test_dialects_json_carries_capabilities(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["dialects", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    by_name = {d["name"]: d for d in data}
    assert {"neo4j", "opencypher9"} <= set(by_name)
    caps = by_name["neo4j"]["capabilities"]
    assert isinstance(caps, dict) and "quantified_paths" in caps
    assert by_name["neo4j"]["family"] == "cypher"


def test_dialects_detail_for_one_dialect(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["dialects", "opencypher9"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("opencypher9")
    assert "call_subquery" in out


def test_dialects_unknown_name_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["dialects", "no-such-dialect"]) == 2
    assert "unknown dialect" in capsys.readouterr().err


# -- single query: validate ----------------------------------------------------------------------


def test_validate_valid_query(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "--dialect", "neo4j", VALID]) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith("valid")
    assert captured.err == ""


def test_validate_parse_error_is_readable() -> None:
    proc = run_cli("validate", "--dialect", "neo4j", BROKEN)
    assert proc.returncode == 1
    assert proc.stdout == ""
    assert "error[" in proc.stderr
    assert "line 1, column" in proc.stderr
    snippet = [line for line in proc.stderr.splitlines() if BROKEN in line]
    assert snippet, proc.stderr
    caret = proc.stderr.splitlines()[proc.stderr.splitlines().index(snippet[0]) + 1]
    assert caret.rstrip().endswith("^")


def test_validate_json_prints_the_error_as_data(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "--dialect", "neo4j", "--json", BROKEN]) == 1
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    assert data["valid"] is False
    assert data["dialect"] == "neo4j"
    err = data["error"]
    assert err["code"] and err["message"]
    assert err["line"] == 1
    assert isinstance(err["column"], int) and 1 <= err["column"] <= len(BROKEN) + 1


def test_validate_json_valid(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "--dialect", "neo4j", "--json", VALID]) == 0
    assert json.loads(capsys.readouterr().out) == {"valid": True, "dialect": "neo4j"}


def test_dialect_alias_or_case_is_accepted_by_name(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "--dialect", "NEO4J", "--json", VALID]) == 0
    assert json.loads(capsys.readouterr().out)["dialect"] == "neo4j"


# -- single query: translate ---------------------------------------------------------------------


def test_translate_ok_and_the_result_is_valid_in_the_target() -> None:
    proc = run_cli("translate", "--from", "neo4j", "--to", "opencypher9", VARLENGTH)
    assert proc.returncode == 0, proc.stderr
    translation = proc.stdout.strip()
    assert translation.upper().startswith("MATCH")
    again = run_cli("validate", "--dialect", "opencypher9", translation)
    assert again.returncode == 0, again.stderr


def test_translate_json_ok(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["translate", "--from", "neo4j", "--to", "opencypher9", "--json", VARLENGTH]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["status"] == "ok"
    assert data["from"] == "neo4j" and data["to"] == "opencypher9"
    assert isinstance(data["translation"], str) and data["translation"]
    assert "error" not in data


def test_translate_unsupported_names_the_construct(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["translate", "--from", "neo4j", "--to", "opencypher9", "--json", CALL_SCOPE]
    assert main(args) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["status"] == "unsupported"
    assert data["translation"] is None
    assert data["error"]["code"] == "UNSUPPORTED"
    assert isinstance(data["error"]["construct"], str) and data["error"]["construct"]
    assert data["error"]["dialect"] == "opencypher9"


def test_translate_names_the_graph_a_gql_dialect_needs(capsys: pytest.CaptureFixture[str]) -> None:
    query = "MATCH (a:Account) RETURN a.id AS id"
    assert main(["translate", "--from", "neo4j", "--to", "spanner", query]) == 1
    assert "construct: graph name" in capsys.readouterr().err
    assert main(["translate", "-f", "neo4j", "-t", "spanner", "--graph", "finance", query]) == 0
    assert capsys.readouterr().out.strip() == f"GRAPH finance {query}"
    assert main(["translate", "-f", "neo4j", "-t", "iso-gql", "-g", "finance", query]) == 0
    assert capsys.readouterr().out.strip() == f"USE finance {query}"


def test_translate_unsupported_is_readable() -> None:
    proc = run_cli("translate", "--from", "neo4j", "--to", "opencypher9", CALL_SCOPE)
    assert proc.returncode == 1
    assert proc.stdout == ""
    assert "error[UNSUPPORTED]" in proc.stderr
    assert "construct:" in proc.stderr


def test_translate_parse_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["translate", "--from", "neo4j", "--to", "opencypher9", "--json", BROKEN]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["status"] == "parse_error"
    assert data["error"]["line"] == 1 and isinstance(data["error"]["column"], int)


def test_translate_output_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "out.cypher"
    args = ["translate", "--from", "neo4j", "--to", "opencypher9", "--output", str(target)]
    assert main([*args, VARLENGTH]) == 0
    assert capsys.readouterr().out == ""
    assert target.read_text(encoding="utf-8").upper().startswith("MATCH")


@pytest.mark.parametrize(
    "command",
    [
        ["validate", "--dialect", "nope"],
        ["translate", "--from", "neo4j", "--to", "nope"],
        ["translate", "--from", "nope", "--to", "neo4j"],
    ],
)
def test_unknown_dialect_exits_2(command: list[str]) -> None:
    proc = run_cli(*command, VALID)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert "unknown dialect" in proc.stderr and "nope" in proc.stderr


def test_unknown_dialect_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["translate", "--from", "neo4j", "--to", "nope", "--json", VALID]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert json.loads(captured.err)["error"]["code"] == "DIALECT"


def test_unknown_dialect_in_batch_writes_nothing(tmp_path: Path) -> None:
    src = write_jsonl(tmp_path / "in.jsonl", [{"query": VALID}])
    out = tmp_path / "out.jsonl"
    proc = run_cli("validate", "--dialect", "nope", "--input", str(src), "--output", str(out))
    assert proc.returncode == 2
    assert not out.exists()


# -- stdin ---------------------------------------------------------------------------------------


def test_query_from_stdin_when_omitted() -> None:
    proc = run_cli("validate", "--dialect", "neo4j", stdin=VALID + "\n")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("valid")


def test_query_from_stdin_with_dash() -> None:
    proc = run_cli("translate", "--from", "neo4j", "--to", "opencypher9", "-", stdin=VARLENGTH)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip()


def test_stdin_error_position_is_the_query_position() -> None:
    proc = run_cli("validate", "--dialect", "neo4j", "--json", stdin=BROKEN + "\n")
    assert proc.returncode == 1
    assert json.loads(proc.stdout)["error"]["line"] == 1


def test_empty_stdin_is_a_usage_error() -> None:
    proc = run_cli("validate", "--dialect", "neo4j", stdin="")
    assert proc.returncode == 2
    assert "no query" in proc.stderr


def test_terminal_stdin_is_not_read(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(sys, "stdin", Terminal("MATCH (n) RETURN n"))
    assert main(["validate", "--dialect", "neo4j"]) == 2
    assert "no query given" in capsys.readouterr().err


# -- parse (debug) -------------------------------------------------------------------------------


def test_parse_prints_the_ir(capsys: pytest.CaptureFixture[str]) -> None:
    import gqlir.api

    assert main(["parse", "--dialect", "neo4j", VALID]) == 0
    out = capsys.readouterr().out
    assert out.strip() == gqlir.api.parse(VALID, "neo4j").dump()


def test_parse_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["parse", "--dialect", "neo4j", "--json", VALID]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["dialect"] == "neo4j"
    assert isinstance(data["ir"], dict) and data["ir"]["node"]


def test_parse_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["parse", "--dialect", "neo4j", BROKEN]) == 1
    assert "line 1, column" in capsys.readouterr().err


# -- batch ---------------------------------------------------------------------------------------


def mixed_input(tmp_path: Path) -> Path:
    return write_jsonl(
        tmp_path / "in.jsonl",
        [
            {"id": 1, "query": VARLENGTH, "meta": {"source": "tck", "tags": ["a", "b"]}},  # line 1
            {"id": 2, "query": BROKEN},  # line 2
            '{"id": 3, "query": ',  # line 3: truncated JSON
            "",  # line 4: blank: an input_error, so output lines = input lines
            {"id": 5, "text": "no query field"},  # line 5
            "[1, 2, 3]",  # line 6: not an object
            {"id": 7, "query": 42},  # line 7: query not a string
            {"id": 8, "query": CALL_SCOPE, "difficulty": "hard"},  # line 8
            {"id": 9, "query": VALID, "status": "stale", "error": "stale"},  # line 9
        ],
    )


def test_translate_batch_mixed(tmp_path: Path) -> None:
    src = mixed_input(tmp_path)
    out = tmp_path / "out.jsonl"
    proc = run_cli(
        "translate",
        "--from",
        "neo4j",
        "--to",
        "opencypher9",
        "--input",
        str(src),
        "--output",
        str(out),
    )
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout == ""
    records = read_jsonl(out)
    assert len(records) == 9  # one per line, in order

    r1, r2, r3, r4, r5, r6, r7, r8, r9 = records
    assert r1["id"] == 1 and r1["meta"] == {"source": "tck", "tags": ["a", "b"]}
    assert r1["query"] == VARLENGTH
    assert r1["status"] == "ok" and isinstance(r1["translation"], str) and "error" not in r1

    assert r2["id"] == 2 and r2["status"] == "parse_error" and r2["translation"] is None
    assert r2["error"]["line"] == 1 and isinstance(r2["error"]["column"], int)

    assert r3["status"] == "input_error"
    assert r3["error"]["code"] == "INPUT" and r3["error"]["line"] == 3
    assert "line 3" in r3["error"]["message"]
    assert r4["status"] == "input_error" and r4["error"]["line"] == 4
    assert "blank line" in r4["error"]["message"]

    assert r5["status"] == "input_error" and r5["id"] == 5 and r5["text"] == "no query field"
    assert r5["error"]["line"] == 5 and "query" in r5["error"]["message"]
    assert r6["status"] == "input_error" and r6["error"]["line"] == 6
    assert r7["status"] == "input_error" and r7["error"]["line"] == 7 and r7["id"] == 7

    assert r8["id"] == 8 and r8["difficulty"] == "hard"
    assert r8["status"] == "unsupported" and r8["translation"] is None
    construct = r8["error"]["construct"]
    assert isinstance(construct, str) and construct

    assert r9["status"] == "ok" and "error" not in r9  # stale result keys are replaced

    summary = proc.stderr
    assert "9 queries" in summary
    assert "ok" in summary and "unsupported" in summary and "parse_error" in summary
    assert "input_error" in summary
    assert construct in summary
    for n in (3, 4, 5, 6, 7):
        assert f"line {n}:" in summary
    assert "\x1b[" not in summary  # no progress bar or colours when stderr is not a terminal


def test_validate_batch_mixed(tmp_path: Path) -> None:
    src = mixed_input(tmp_path)
    out = tmp_path / "out.jsonl"
    proc = run_cli("validate", "--dialect", "neo4j", "--input", str(src), "--output", str(out))
    assert proc.returncode == 1, proc.stderr
    records = read_jsonl(out)
    assert [r.get("id") for r in records] == [1, 2, None, None, 5, None, 7, 8, 9]
    valid = [r["valid"] for r in records]
    assert valid == [True, False, False, False, False, False, False, True, True]
    assert "error" not in records[0]
    assert records[1]["error"]["line"] == 1
    statuses = [r.get("status") for r in records]
    assert statuses == [None, None] + ["input_error"] * 5 + [None, None]  # stale "status" replaced
    assert "valid" in proc.stderr and "invalid" in proc.stderr


def test_batch_all_ok_exits_0(tmp_path: Path) -> None:
    src = write_jsonl(tmp_path / "in.jsonl", [{"query": VALID, "n": i} for i in range(25)])
    proc = run_cli("validate", "--dialect", "neo4j", "--input", str(src))
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert [json.loads(line)["n"] for line in lines] == list(range(25))
    assert all(json.loads(line)["valid"] is True for line in lines)


def test_batch_field_names_the_query(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = write_jsonl(
        tmp_path / "in.jsonl",
        [
            {"id": 1, "gold": {"query": VALID}},
            {"id": 2, "gold": {"query": BROKEN}},
            {"id": 3, "query": VALID},  # the default field is not read when --field names another
            {"id": 4, "gold": "MATCH (n) RETURN n"},  # a step through something not an object
            {"id": 5, "gold": {"query": ["not", "text"]}},
        ],
    )
    argv = ["translate", "--from", "neo4j", "--to", "iso-gql", "--input", str(src)]
    assert main([*argv, "--field", "gold.query", "--quiet"]) == 1
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["id"] for r in records] == [1, 2, 3, 4, 5]  # output lines = input lines
    assert [r["status"] for r in records] == [
        "ok",
        "parse_error",
        "input_error",
        "input_error",
        "input_error",
    ]
    assert records[0]["translation"] and records[0]["gold"] == {"query": VALID}
    assert records[2]["error"]["message"] == 'line 3: no "gold.query" field'
    assert '"gold" is not an object' in records[3]["error"]["message"]
    assert records[4]["error"]["message"] == 'line 5: "gold.query" is not a string'


def test_batch_field_reads_the_repository_corpus(tmp_path: Path) -> None:
    corpus = ROOT / "corpus" / "gql" / "from_cypher.jsonl"
    out = tmp_path / "out.jsonl"
    argv = ["validate", "--dialect", "neo4j", "--input", str(corpus), "--output", str(out)]
    main([*argv, "--field", "source", "--quiet"])
    records = read_jsonl(out)
    assert len(records) == len(corpus.read_text(encoding="utf-8").splitlines())
    assert not [r for r in records if r.get("status") == "input_error"]


def test_batch_field_must_be_a_path(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["validate", "--dialect", "neo4j", "--input", "-", "--field", "gold..query"]
    assert main(argv) == 2
    assert "--field" in capsys.readouterr().err


def test_batch_from_stdin(tmp_path: Path) -> None:
    data = "\n".join(json.dumps({"query": q, "k": k}) for k, q in enumerate([VALID, BROKEN])) + "\n"
    proc = run_cli("validate", "--dialect", "neo4j", "--input", "-", stdin=data)
    assert proc.returncode == 1
    records = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [(r["k"], r["valid"]) for r in records] == [(0, True), (1, False)]


def test_batch_in_process_with_stdin(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.dumps({"query": VALID, "x": "é"}) + "\nnot json\n"
    monkeypatch.setattr(sys, "stdin", io.StringIO(data))
    assert main(["validate", "--dialect", "neo4j", "--input", "-", "--quiet"]) == 1
    captured = capsys.readouterr()
    first, second = (json.loads(line) for line in captured.out.splitlines())
    assert first == {"query": VALID, "x": "é", "valid": True}
    assert second["status"] == "input_error" and second["error"]["line"] == 2
    assert captured.err == ""


def test_batch_json_summary(tmp_path: Path) -> None:
    src = mixed_input(tmp_path)
    proc = run_cli(
        "translate", "--from", "neo4j", "--to", "opencypher9", "--input", str(src), "--json"
    )
    assert proc.returncode == 1
    summary = json.loads(proc.stderr)
    assert summary["total"] == 9
    assert summary["statuses"] == {"ok": 2, "unsupported": 1, "parse_error": 1, "input_error": 5}
    assert sum(summary["unsupported_constructs"].values()) == 1
    assert len(summary["input_errors"]) == 5
    assert len(proc.stdout.splitlines()) == 9


def test_batch_quiet(tmp_path: Path) -> None:
    src = write_jsonl(tmp_path / "in.jsonl", [{"query": VALID}])
    proc = run_cli("validate", "--dialect", "neo4j", "--input", str(src), "--quiet")
    assert proc.returncode == 0
    assert proc.stderr == ""


def test_batch_bad_utf8_line_is_recorded_and_skipped(tmp_path: Path) -> None:
    src = tmp_path / "in.jsonl"
    src.write_bytes(
        b'{"query": "MATCH (n) RETURN n", "i": 1}\n'
        b'{"query": "\xff\xfe"}\n'
        b'{"query": "MATCH (n) RETURN n", "i": 3}\n'
    )
    proc = run_cli("validate", "--dialect", "neo4j", "--input", str(src))
    assert proc.returncode == 1
    records = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [r.get("i") for r in records] == [1, None, 3]
    assert records[1]["status"] == "input_error" and records[1]["error"]["line"] == 2
    assert "UTF-8" in records[1]["error"]["message"]


def test_batch_line_separators_stay_inside_records(tmp_path: Path) -> None:
    """U+2028 inside a string is not a line break for JSONL, and is escaped on output."""
    query = "MATCH (n)\u2028RETURN n"
    src = write_jsonl(tmp_path / "in.jsonl", [{"query": query, "i": 1}, {"query": VALID, "i": 2}])
    proc = run_cli("validate", "--dialect", "neo4j", "--input", str(src))
    assert "\u2028" not in proc.stdout
    records = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [r["i"] for r in records] == [1, 2]
    assert records[0]["query"] == query


def test_batch_keeps_every_line_and_writes_strict_json(tmp_path: Path) -> None:
    """A lone surrogate in any field, lines that str.strip() calls whitespace, non-finite and
    huge numbers: every line has its output line, the output is strict UTF-8 JSON, no exit 3."""
    lines = [json.dumps({"query": VALID, "i": i}) for i in range(20)]
    lines[3] = '{"query": "MATCH (n) RETURN n", "note": "\\udc00\u0085", "i": 3}'
    lines[5] = "\u3000"
    lines[6] = "\x1c"
    lines[8] = '{"query": "MATCH (n) RETURN n", "x": NaN}'
    lines[9] = '{"query": "MATCH (n) RETURN n", "x": 1e999}'
    lines[10] = '{"query": "MATCH (n) RETURN n", "x": -Infinity}'
    lines[11] = '{"query": "RETURN \'\\ud800\' AS s", "i": 11}'
    src = tmp_path / "in.jsonl"
    src.write_text("\n".join(lines) + "\n", encoding="utf-8")
    for command in (
        ["validate", "--dialect", "neo4j"],
        ["translate", "--from", "neo4j", "--to", "iso-gql"],
    ):
        proc = run_cli(*command, "--input", str(src), "--quiet")
        assert proc.returncode == 1, proc.stderr
        out = proc.stdout.split("\n")
        assert out.pop() == "" and len(out) == len(lines)
        records = [json.loads(line, parse_constant=pytest.fail) for line in out]
        assert records[3]["note"] == "\udc00\u0085" and records[3]["i"] == 3
        for n in (5, 6, 8, 9, 10):
            assert records[n]["status"] == "input_error" and records[n]["error"]["line"] == n + 1
        assert records[11]["error"]["code"] == "PARSE_SURROGATE" and records[11]["i"] == 11
        assert records[19]["i"] == 19


def test_batch_with_bom_and_crlf(tmp_path: Path) -> None:
    src = tmp_path / "in.jsonl"
    src.write_bytes(b"\xef\xbb\xbf" + json.dumps({"query": VALID}).encode() + b"\r\n")
    proc = run_cli("validate", "--dialect", "neo4j", "--input", str(src))
    assert proc.returncode == 0, proc.stdout
    assert json.loads(proc.stdout)["valid"] is True


def test_batch_empty_input(tmp_path: Path) -> None:
    src = tmp_path / "in.jsonl"
    src.write_text("", encoding="utf-8")
    proc = run_cli("validate", "--dialect", "neo4j", "--input", str(src))
    assert proc.returncode == 0
    assert proc.stdout == ""
    assert "0 queries" in proc.stderr


def test_batch_blank_lines_are_input_errors(tmp_path: Path) -> None:
    src = tmp_path / "in.jsonl"
    src.write_text("\n \t\n", encoding="utf-8")
    proc = run_cli("validate", "--dialect", "neo4j", "--input", str(src))
    assert proc.returncode == 1
    records = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [(r["status"], r["error"]["line"]) for r in records] == [
        ("input_error", n) for n in (1, 2)
    ]


def test_unreadable_input_exits_2(tmp_path: Path) -> None:
    proc = run_cli("validate", "--dialect", "neo4j", "--input", str(tmp_path / "missing.jsonl"))
    assert proc.returncode == 2
    assert "missing.jsonl" in proc.stderr


def test_unwritable_output_exits_2(tmp_path: Path) -> None:
    src = write_jsonl(tmp_path / "in.jsonl", [{"query": VALID}])
    bad = tmp_path / "no" / "such" / "dir" / "out.jsonl"
    proc = run_cli("validate", "--dialect", "neo4j", "--input", str(src), "--output", str(bad))
    assert proc.returncode == 2
    assert "cannot write output" in proc.stderr


def test_output_over_input_is_refused(tmp_path: Path) -> None:
    src = write_jsonl(tmp_path / "in.jsonl", [{"query": VALID}])
    before = src.read_bytes()
    proc = run_cli("validate", "--dialect", "neo4j", "--input", str(src), "--output", str(src))
    assert proc.returncode == 2
    assert src.read_bytes() == before


def test_closed_stdout_pipe_is_not_a_traceback(tmp_path: Path) -> None:
    src = write_jsonl(tmp_path / "in.jsonl", ["not json"] * 20000)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen(
        [sys.executable, "-m", "gqlir", "validate", "--dialect", "neo4j", "--input", str(src)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        cwd=ROOT,
    )
    assert proc.stdout is not None and proc.stderr is not None
    assert json.loads(proc.stdout.readline())["status"] == "input_error"
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 141
    assert "Traceback" not in err


# -- internal errors are reported, never a traceback --------------------------------------------


def _explode(*args: Any, **kwargs: Any) -> Any:
    raise RuntimeError("simulated bug")


def test_internal_error_single_query(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import gqlir.api

    monkeypatch.setattr(gqlir.api, "transpile", _explode)
    assert main(["translate", "--from", "neo4j", "--to", "opencypher9", VALID]) == 3
    err = capsys.readouterr().err
    assert "internal error" in err and "simulated bug" in err
    assert "Traceback" not in err


def test_internal_error_in_batch_keeps_going(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import gqlir.api

    real = gqlir.api.validate

    def flaky(text: str, dialect: str = "neo4j", **options: Any) -> Any:
        if "boom" in text:
            raise RuntimeError("simulated bug")
        return real(text, dialect, **options)

    monkeypatch.setattr(gqlir.api, "validate", flaky)
    src = write_jsonl(tmp_path / "in.jsonl", [{"query": "boom"}, {"query": VALID}])
    assert main(["validate", "--dialect", "neo4j", "--input", str(src), "--json"]) == 3
    captured = capsys.readouterr()
    first, second = (json.loads(line) for line in captured.out.splitlines())
    assert first["status"] == "internal_error" and first["error"]["code"] == "INTERNAL"
    assert second["valid"] is True
    assert json.loads(captured.err)["statuses"]["internal_error"] == 1


def test_debug_lets_internal_errors_raise(monkeypatch: pytest.MonkeyPatch) -> None:
    import gqlir.api

    monkeypatch.setattr(gqlir.api, "transpile", _explode)
    with pytest.raises(RuntimeError, match="simulated bug"):
        main(["translate", "--from", "neo4j", "--to", "opencypher9", "--debug", VALID])


# -- error display -------------------------------------------------------------------------------


def test_error_display_windows_long_lines() -> None:
    from gqlir.cli import _format_error
    from gqlir.errors import ParseError

    text = "MATCH " + "(a)-->" * 100 + "(b RETURN b"
    offset = text.index("RETURN")
    shown = _format_error(
        ParseError("unexpected RETURN", text=text, offset=offset, expected=(")",))
    )
    lines = shown.splitlines()
    assert lines[0] == "error[PARSE]: unexpected RETURN"
    assert lines[1] == f"  --> line 1, column {offset + 1}"
    source, caret = lines[2], lines[3]
    assert len(source) < 140
    assert source[caret.index("^") :].startswith("RETURN")
    assert lines[4] == "  expected: )"


def test_error_display_multiline_query() -> None:
    from gqlir.cli import _format_error
    from gqlir.errors import UnsupportedError

    text = "MATCH (t)\nCALL (t) { RETURN 1 AS one }\nRETURN one"
    exc = UnsupportedError(
        "call_scope",
        "opencypher9",
        rewrite="CALL { WITH t ... }",
        text=text,
        offset=text.index("CALL"),
    )
    shown = _format_error(exc)
    assert "--> line 2, column 1" in shown
    assert "   | CALL (t) { RETURN 1 AS one }\n   | ^" in shown
    assert "construct: call_scope [call-scope] (target dialect: opencypher9)" in shown
