"""One meaning of "a graph" for every command: a graph folder (schema.json and graph/, as in
schemas/), or its data directory with the schema in or beside it; --schema overrides."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from gqlir.cli import main
from gqlir.errors import SchemaError
from gqlir.schema.folders import resolve_graph_folder

MOVIES = "schemas/movies"


def test_a_graph_folder_and_its_data_directory_name_the_same_graph() -> None:
    for path in (MOVIES, f"{MOVIES}/graph"):
        folder = resolve_graph_folder(path)
        assert os.path.samefile(folder.data, f"{MOVIES}/graph")
        assert os.path.samefile(folder.require_schema(), f"{MOVIES}/schema.json")
    other = "schemas/finance/schema.json"
    assert resolve_graph_folder(MOVIES, other).schema == other


def test_what_is_not_a_graph_is_said(tmp_path: Path) -> None:
    with pytest.raises(SchemaError, match=r"not a graph folder: expected schema\.json and graph/"):
        resolve_graph_folder("schemas")
    with pytest.raises(SchemaError, match="no such graph folder"):
        resolve_graph_folder(str(tmp_path / "missing"))
    data = tmp_path / "data"
    data.mkdir()
    (data / "nodes.jsonl").write_text("")
    with pytest.raises(SchemaError, match="pass --schema"):
        resolve_graph_folder(str(data)).require_schema()


@pytest.mark.parametrize("graph", [MOVIES, f"{MOVIES}/graph"])
def test_commands_take_the_graph_folder(
    graph: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "synth"
    assert main(["synth", "--graph", graph, "--n", "2", "--out", str(out), "-q"]) == 0
    items = [json.loads(line) for line in (out / "items.jsonl").read_text().splitlines()]
    assert len(items) == 2
    assert main(["graph", "perturb", graph, "--seed", "1", "--out", str(tmp_path / "p")]) == 0
    assert (tmp_path / "p" / "noise.jsonl").is_file()
    sessions = tmp_path / "s"
    code = main(["graph", "sessions", "--graph", graph, "--sessions", "1", "--out", str(sessions)])
    assert code == 0 and (sessions / "sessions.jsonl").is_file()
    capsys.readouterr()


def test_synth_without_a_graph_says_what_to_give(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["synth", "--out", "/tmp/never-written", "-q"]) == 1
    assert "give --graph" in capsys.readouterr().err
