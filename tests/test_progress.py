"""Progress of long commands: a live line on a terminal, one summary line in a log."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from gqlir.cli import main
from gqlir.progress import ProgressLine


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_terminal_gets_a_live_line_and_a_log_one_summary() -> None:
    tty, log = _Terminal(), io.StringIO()
    for stream in (tty, log):
        line = ProgressLine(stream=stream)
        for i in range(3):
            line.show(f"step {i}")
        line.end()
    assert tty.getvalue() == "\rstep 0 \rstep 1 \rstep 2 \n"
    assert log.getvalue() == "step 2\n"
    quiet = io.StringIO()
    line = ProgressLine(quiet=True, stream=quiet)
    line.show("x")
    line.end()
    assert quiet.getvalue() == ""


def test_synth_writes_no_carriage_returns_into_a_redirected_stderr(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["synth", "--graph", "schemas/movies", "--n", "3", "--out", str(tmp_path)]) == 0
    err = capsys.readouterr().err
    assert "\r" not in err
    assert err.count("gqlir synth: movies") == 1 and "3/3 items" in err


def test_graph_generate_reports_progress_as_it_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from gqlir.graphgen import generator
    from gqlir.graphgen.cli import load_schema_arg

    monkeypatch.setattr(generator, "PROGRESS_EVERY", 1000)
    calls: list[tuple[int, int]] = []
    result = generator.generate(
        load_schema_arg("schemas/movies"),
        str(tmp_path),
        seed=3,
        target_edges=5000,
        progress=lambda written, planned: calls.append((written, planned)),
    )
    written = result.node_total + result.edge_total
    assert calls[-1] == (written, calls[-1][1])
    assert [w for w, _ in calls[:-1]] == list(range(1000, written + 1, 1000))
    assert calls[-1][1] >= written  # edge counts are targets: never fewer planned than written


def test_graph_generate_shows_a_live_line_on_a_terminal_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from gqlir.graphgen import generator

    monkeypatch.setattr(generator, "PROGRESS_EVERY", 1000)
    args = ["graph", "generate", "-s", "schemas/movies", "--edges", "3000", "--seed", "1"]
    assert main([*args, "-o", str(tmp_path / "log")]) == 0
    err = capsys.readouterr().err
    assert "\r" not in err and "records written" not in err
    monkeypatch.setattr("sys.stderr", _Terminal())
    assert main([*args, "-o", str(tmp_path / "tty")]) == 0
    live = __import__("sys").stderr.getvalue()
    progress, summary = live.rsplit("(100%) \n", 1)
    assert progress.startswith("\rgenerate: 1,000 of 3,600 records written (27%) \r")
    assert "600 nodes, 3,000 edges (seed 1)" in summary and "\r" not in summary
