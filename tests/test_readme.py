"""The README's commands run as written: every ``sh`` block (each command through a shell, with
the installed ``gqlir`` on PATH), every ``python`` block, and ``make demo``. A command may exit 0
or 1 (1 is a query the example shows to be invalid or refused); a usage error (2), an internal
error (3) or a traceback means the README and the tool have drifted apart."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
BIN = os.path.dirname(sys.executable)

# Files the README's batch example supposes the reader has.
USER_FILES = {
    "corpus.jsonl": [
        {"id": 1, "query": "MATCH (a:Person)-[:KNOWS]->(b) RETURN b.name AS name"},
        {"id": 2, "query": "MATCH (n) RETURN n"},
    ],
    "generated.jsonl": [{"id": 1, "query": "MATCH (n:Person) RETURN n.name AS name"}],
}


def _blocks(language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```", README, flags=re.S | re.M)


def _commands(block: str) -> list[str]:
    """The commands of an ``sh`` block: continuation lines joined, comments dropped; ``make``
    lines are left to their own tests (``make test`` is this suite)."""
    out = []
    for line in block.replace("\\\n", " ").splitlines():
        line = line.strip()
        if line and not line.startswith("#") and not line.startswith("make "):
            out.append(line)
    return out


def _script(block: str) -> str:
    """The block as one shell script, as a reader pastes it (variables carry over), stopping at
    the first command that exits with 2 or more."""
    checks = [f"{c}\nrc=$?; if [ $rc -gt 1 ]; then exit $rc; fi" for c in _commands(block)]
    return "\n".join(checks) + "\n"


SH_BLOCKS = [b for b in _blocks("sh") if _commands(b)]


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A reader's folder: the repository's schemas and corpora, and their own JSONL files."""
    d = tmp_path_factory.mktemp("reader")
    for name in ("schemas", "corpus", "tests", "scripts"):
        (d / name).symlink_to(ROOT / name)
    for name, records in USER_FILES.items():
        (d / name).write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return d


def _env(tmp: Path | None = None) -> dict[str, str]:
    env = {**os.environ, "PATH": BIN + os.pathsep + os.environ.get("PATH", "")}
    if tmp is not None:  # a server a block starts lives in the test's folder
        env["GQLIR_NEO4J_LOCAL_DIR"] = str(tmp / "neo4j-local")
    return env


def test_the_readme_has_commands_to_run() -> None:
    assert sum(len(_commands(b)) for b in SH_BLOCKS) >= 8 and _blocks("python")


@pytest.mark.parametrize("number", range(len(SH_BLOCKS)))
def test_each_readme_sh_block_runs(number: int, workdir: Path, tmp_path: Path) -> None:
    block = SH_BLOCKS[number]
    try:
        done = subprocess.run(
            ["bash", "-c", _script(block)],
            cwd=workdir,
            env=_env(tmp_path),
            capture_output=True,
            text=True,
            timeout=900,
        )
    finally:
        if "neo4j-local start" in block:
            subprocess.run(
                [sys.executable, str(ROOT / "scripts" / "neo4j-local"), "stop"],
                env=_env(tmp_path),
                capture_output=True,
                timeout=120,
            )
    assert done.returncode in (0, 1), f"{block}\n{done.stderr}"
    assert "Traceback" not in done.stderr, done.stderr
    assert done.stdout.strip() or done.stderr.strip(), block


@pytest.mark.parametrize("number", range(len(_blocks("python"))))
def test_each_readme_python_block_runs(number: int, workdir: Path) -> None:
    code = _blocks("python")[number]
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=workdir, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip()


def test_make_demo_shows_translations_and_refusals() -> None:
    venv = os.path.dirname(BIN)
    done = subprocess.run(
        ["make", "--no-print-directory", "demo", f"VENV={venv}", "STAMP="],
        cwd=ROOT,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "MATCH DIFFERENT EDGES" in done.stdout and "GRAPH social MATCH" in done.stdout
    assert done.stderr.count("error[UNSUPPORTED]") == 2
