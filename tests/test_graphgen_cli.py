"""``gqlir graph generate | perturb | restore | answers`` end to end."""

from __future__ import annotations

import json
import os
from pathlib import Path

from gqlir.cli import main

SCHEMAS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "schemas")


def test_generate_perturb_restore_round_trip(tmp_path: Path, capsys) -> None:
    clean, observed, back = tmp_path / "g", tmp_path / "o", tmp_path / "r"
    schema = os.path.join(SCHEMAS, "finance")
    assert (
        main(
            [
                "graph",
                "generate",
                "--schema",
                schema,
                "--edges",
                "1500",
                "--seed",
                "7",
                "--out",
                str(clean),
                "--json",
            ]
        )
        == 0
    )
    data = json.loads(capsys.readouterr().out)
    assert data["edge_total"] == 1500 and data["seed"] == 7
    assert main(["graph", "validate", str(clean)]) == 0
    assert main(["graph", "perturb", str(clean), "--seed", "3", "--out", str(observed)]) == 0
    err = capsys.readouterr().err
    assert "missing_edges: 75 of 75 targeted" in err
    assert (observed / "noise.jsonl").is_file() and (observed / "schema.json").is_file()
    assert main(["graph", "restore", str(observed), "--out", str(back), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["verified"] is True
    assert (back / "edges.jsonl").read_bytes() == (clean / "edges.jsonl").read_bytes()


def test_generate_from_a_config_and_perturb_with_one(tmp_path: Path, capsys) -> None:
    schema = os.path.join(SCHEMAS, "movies", "schema.json")
    assert (
        main(["graph", "generate", "-s", schema, "--edges", "500", "--out", str(tmp_path / "a")])
        == 0
    )
    config = str(tmp_path / "a" / "graphgen.json")
    assert (
        main(
            [
                "graph",
                "generate",
                "-s",
                schema,
                "--config",
                config,
                "--out",
                str(tmp_path / "b"),
                "--layout",
                "jsonl",
            ]
        )
        == 0
    )
    assert (tmp_path / "a" / "nodes.jsonl").read_bytes() == (
        tmp_path / "b" / "nodes.jsonl"
    ).read_bytes()
    noise = tmp_path / "noise.toml"
    noise.write_text("[ratios]\nfalse_edges = 0.5\nmissing_edges = 0\n", encoding="utf-8")
    assert (
        main(
            [
                "graph",
                "perturb",
                str(tmp_path / "a"),
                "--config",
                str(noise),
                "--out",
                str(tmp_path / "o"),
                "--json",
            ]
        )
        == 0
    )
    data = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert data["changes"]["false_edges"] == 250 and data["changes"]["missing_edges"] == 0


def test_answers_command(tmp_path: Path, capsys) -> None:
    schema = os.path.join(SCHEMAS, "social")
    assert (
        main(
            [
                "graph",
                "generate",
                "-s",
                schema,
                "--edges",
                "600",
                "--seed",
                "1",
                "--out",
                str(tmp_path / "g"),
            ]
        )
        == 0
    )
    assert (
        main(["graph", "perturb", str(tmp_path / "g"), "--seed", "1", "--out", str(tmp_path / "o")])
        == 0
    )
    gold = tmp_path / "gold.jsonl"
    gold.write_text(
        '{"id": 1, "query": "MATCH (t:Tag) RETURN count(t) AS n"}\n'
        '{"id": 2, "query": "MATCH (:Person)-[k:KNOWS]->() RETURN count(k) AS n"}\n'
    )
    out = tmp_path / "answers.jsonl"
    args = ["graph", "answers", "--clean", str(tmp_path / "g"), "--observed", str(tmp_path / "o")]
    assert main([*args, "--queries", str(gold), "--out", str(out), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["consistent"] + summary["inconsistent"] == 2
    assert len(out.read_text().splitlines()) == 2


def test_usage_and_errors(tmp_path: Path, capsys) -> None:
    schema = os.path.join(SCHEMAS, "movies")
    assert main(["graph", "generate", "--schema", schema, "--out", str(tmp_path)]) == 2
    assert "--edges N" in capsys.readouterr().err
    assert (
        main(
            [
                "graph",
                "generate",
                "--schema",
                str(tmp_path / "none.json"),
                "--edges",
                "5",
                "--out",
                str(tmp_path),
            ]
        )
        == 2
    )
    assert "cannot read" in capsys.readouterr().err
    assert main(["graph", "perturb", str(tmp_path / "missing"), "--out", str(tmp_path / "o")]) == 2
    assert "no such graph folder" in capsys.readouterr().err
    assert main(["graph", "generate", "--edges", "5"]) == 2  # --schema and --out are required
    assert main(["graph", "restore", str(tmp_path), "--out", str(tmp_path / "r")]) == 2
    assert "noise log" in capsys.readouterr().err
