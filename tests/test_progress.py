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
