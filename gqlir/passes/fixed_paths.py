"""The length of a fixed-length named path, as the number of its edges, where the target has no
path variables.

Rule: ``length(p)`` is the number of relationships of the path ``p`` (openCypher 9, length();
GQL's PATH_LENGTH). A path pattern without quantifiers, parenthesised sub-paths or a search
prefix always has as many edges as it has edge patterns, so ``length(p)`` of it is that constant.
Where every use of ``p`` is ``length(p)``, the path variable is no longer needed and is dropped,
so a target that cannot name a path (PostgreSQL 19 and Oracle's SQL/PGQ: capability
``path_variables``) writes the query. A path read any other way keeps its variable (and the
printer refuses it by name).

Capability read: ``path_variables``.
"""

from __future__ import annotations

from dataclasses import replace

from ..dialect import Dialect
from ..ir import expr as e
from ..ir import pattern as p
from ..ir.node import Node

__all__ = ["applies", "lower_fixed_paths"]


def applies(target: Dialect) -> bool:
    """Whether the target cannot name a path."""
    return not target.capabilities.path_variables


def lower_fixed_paths(root: Node, target: Dialect) -> Node:
    """``root`` with ``length(p)`` of each fixed-length path ``p`` that is read only that way
    written as its number of edges, and ``p`` no longer named."""
    if not applies(target):
        return root
    lengths = _fixed_lengths(root)
    if not lengths:
        return root
    readers = _non_length_reads(root, set(lengths))
    foldable = {n: k for n, k in lengths.items() if n not in readers}
    if not foldable:
        return root

    def fold(node: Node) -> Node:
        if isinstance(node, e.FunctionCall) and _length_of(node) in foldable:
            return e.Integer(foldable[_length_of(node)], pos=node.pos)  # type: ignore[index]
        if isinstance(node, p.PathPattern) and node.variable in foldable:
            return replace(node, variable=None)
        return node

    return root.transform(fold)


def _length_of(node: e.FunctionCall) -> str | None:
    """The path variable of ``length(p)``, if that is what ``node`` is."""
    if node.name == "length" and len(node.args) == 1 and isinstance(node.args[0], e.Variable):
        return node.args[0].name
    return None


def _fixed_lengths(root: Node) -> dict[str, int]:
    """Each path variable bound once, by a path pattern of fixed length: its number of edges."""
    found: dict[str, int] = {}
    seen: set[str] = set()
    for node in root.walk():
        if not isinstance(node, p.PathPattern) or node.variable is None:
            continue
        name = node.variable
        if name in seen:
            found.pop(name, None)
            continue
        seen.add(name)
        path = node.path
        if (
            node.search is None
            and isinstance(path, p.PathChain)
            and all(
                isinstance(x, p.NodePattern)
                or (isinstance(x, p.RelPattern) and x.quantifier is None)
                for x in path.elements
            )
        ):
            found[name] = sum(isinstance(x, p.RelPattern) for x in path.elements)
    # a name bound again (a projection's alias, an UNWIND variable …) is another value
    for node in root.walk():
        if isinstance(node, p.PathPattern):
            continue
        for attr in ("alias", "variable", "index"):
            value = getattr(node, attr, None)
            if isinstance(value, str) and value in found:
                found.pop(value)
    return found


def _non_length_reads(root: Node, names: set[str]) -> set[str]:
    """The names of ``names`` that some expression reads other than as ``length(name)``."""
    out: set[str] = set()

    def visit(node: Node, inside_length: bool) -> None:
        if isinstance(node, e.Variable) and node.name in names and not inside_length:
            out.add(node.name)
        is_length = isinstance(node, e.FunctionCall) and _length_of(node) in names
        for child in node.children():
            visit(child, is_length)

    visit(root, False)
    return out
