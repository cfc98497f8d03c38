"""Where the grammar and dialect files are: inside the wheel, or at the top of a checkout."""

from __future__ import annotations

from functools import cache
from pathlib import Path


@cache
def data_dir() -> Path:
    """The directory holding ``grammars/`` and ``dialects/``."""
    packaged = Path(__file__).resolve().parent / "_data"
    if (packaged / "grammars").is_dir():
        return packaged
    checkout = Path(__file__).resolve().parent.parent
    if (checkout / "grammars").is_dir():
        return checkout
    raise RuntimeError("gqlir data files (grammars/, dialects/) are missing from the installation")
