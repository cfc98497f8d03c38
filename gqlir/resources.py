"""Where gqlir's files are: the grammar and dialect files (inside the wheel, or at the top of a
checkout), and the user cache that compiled tables, modules and engine files go to."""

from __future__ import annotations

import os
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


def cache_dir() -> Path:
    """gqlir's user cache: ``$GQLIR_CACHE_DIR``, else ``$XDG_CACHE_HOME/gqlir`` (``~/.cache``)."""
    env = os.environ.get("GQLIR_CACHE_DIR")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "gqlir"
