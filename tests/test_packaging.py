"""The wheel carries grammars/ and dialects/, and a non-editable install finds them.

An editable install reads the files from the checkout (gqlir/resources.py falls back to it), so
a missing ``force-include`` in pyproject.toml would go unnoticed by every other test; this one
builds the real wheel, installs it outside the checkout and uses it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(ROOT)],
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    wheels = list(out.glob("gqlir-*.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0]


def _names(wheel: Path) -> set[str]:
    with zipfile.ZipFile(wheel) as zf:
        return set(zf.namelist())


def test_wheel_contains_every_dialect_file(wheel: Path) -> None:
    names = _names(wheel)
    dialects = sorted(p.name for p in (ROOT / "dialects").glob("*.toml"))
    assert dialects, "dialects/ holds no *.toml"
    for name in dialects:
        assert f"gqlir/_data/dialects/{name}" in names


def test_wheel_contains_every_grammar_file(wheel: Path) -> None:
    names = _names(wheel)
    grammars = sorted(p.name for p in (ROOT / "grammars").glob("*.lark"))
    assert grammars, "grammars/ holds no *.lark"
    for name in grammars:
        assert f"gqlir/_data/grammars/{name}" in names


def test_wheel_has_the_cli_and_its_entry_point(wheel: Path) -> None:
    names = _names(wheel)
    assert {"gqlir/cli.py", "gqlir/__main__.py", "gqlir/resources.py"} <= names
    with zipfile.ZipFile(wheel) as zf:
        entry = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
        text = zf.read(entry).decode()
    assert "gqlir = gqlir.cli:main" in text
    assert not any("__pycache__" in n or n.endswith(".pyc") for n in names)


def test_installed_wheel_finds_its_data(wheel: Path, tmp_path: Path) -> None:
    """Install the wheel (not editable) into a directory away from the checkout and use it."""
    target = tmp_path / "site"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--no-deps",
            "-q",
            "--target",
            str(target),
            str(wheel),
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr

    # PYTHONPATH puts the installed copy before any editable install of the checkout; the
    # working directory is outside the checkout so that it cannot be imported by accident.
    env = dict(os.environ, PYTHONPATH=str(target))
    probe = (
        "import json, gqlir, gqlir.resources as r, gqlir.dialect as d\n"
        "print(json.dumps({'module': gqlir.__file__, 'data': str(r.data_dir()),"
        " 'dialects': [x.name for x in d.all_dialects()]}))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        check=False,
        env=env,
        cwd=tmp_path,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    info = json.loads(proc.stdout)
    assert Path(info["module"]).is_relative_to(target)
    assert Path(info["data"]) == target / "gqlir" / "_data"
    assert {"neo4j", "opencypher9"} <= set(info["dialects"])

    cli = subprocess.run(
        [
            sys.executable,
            "-m",
            "gqlir",
            "validate",
            "--dialect",
            "neo4j",
            "--json",
            "MATCH (n:Person) RETURN n.name AS name",
        ],
        capture_output=True,
        text=True,
        check=False,
        env=env,
        cwd=tmp_path,
        timeout=120,
    )
    assert cli.returncode == 0, cli.stdout + cli.stderr
    assert json.loads(cli.stdout)["valid"] is True
