"""The bundled word lists (``gqlir/graphgen/data/*.txt``) realistic names and text are drawn
from: given names, family names, common words, cities and countries."""

from __future__ import annotations

from functools import cache
from pathlib import Path

_DATA = Path(__file__).resolve().parent / "data"

#: list name -> file
LISTS = {
    "first_names": "first_names.txt",
    "last_names": "last_names.txt",
    "words": "words.txt",
    "cities": "cities.txt",
    "countries": "countries.txt",
}


@cache
def words(name: str) -> tuple[str, ...]:
    """The entries of a bundled list, in file order (comments and blank lines skipped)."""
    from .errors import GraphGenError

    if name not in LISTS:
        raise GraphGenError(f"unknown word list {name!r}; known: {', '.join(sorted(LISTS))}")
    text = (_DATA / LISTS[name]).read_text(encoding="utf-8")
    return tuple(
        line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")
    )


__all__ = ["LISTS", "words"]
