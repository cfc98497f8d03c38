"""Fresh variable names for lowerings: names no query step binds or reads.

A pass that introduces a variable (an element to name, a row to join, a list to walk) takes it
from here. The names avoid every name in the query the pass rewrites, and the printer's own
fresh names avoid every name in the lowered query, so the names a pass adds and the ones the
printer adds never meet."""

from __future__ import annotations

from ..ir.analysis import names_in
from ..ir.node import Node


class FreshNames:
    """``stem1``, ``stem2``, … skipping the names in ``root`` (read on first use: most
    lowerings need no name at all)."""

    __slots__ = ("count", "root", "stem", "taken")

    def __init__(self, root: Node, stem: str = "_g") -> None:
        self.root = root
        self.stem = stem
        self.taken: set[str] | None = None
        self.count = 0

    def __call__(self, stem: str | None = None) -> str:
        """The next free ``stem1``, ``stem2``, … (``stem``: another stem, counted with the
        same counter)."""
        if self.taken is None:
            self.taken = names_in(self.root)
        stem = self.stem if stem is None else stem
        while True:
            self.count += 1
            name = f"{stem}{self.count}"
            if name not in self.taken:
                self.taken.add(name)
                return name

    def named(self, stem: str) -> str:
        """``stem`` itself while it is free, else the next free ``stem<n>``: a helper that is
        usually the only one of its kind keeps a short name."""
        if self.taken is None:
            self.taken = names_in(self.root)
        if stem not in self.taken:
            self.taken.add(stem)
            return stem
        return self(stem)
